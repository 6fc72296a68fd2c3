# usage: gen.sh ATYPE BTYPE ACCTYPE ATTRS
cat <<EOT
func.func @f(%a: !nvgpu.warpgroup.descriptor<tensor = $1>, %b: !nvgpu.warpgroup.descriptor<tensor = $2>, %c: !nvgpu.warpgroup.accumulator<fragmented = $3>) -> !nvgpu.warpgroup.accumulator<fragmented = $3> {
  %d = nvgpu.warpgroup.mma %a, %b, %c $4 : !nvgpu.warpgroup.descriptor<tensor = $1>, !nvgpu.warpgroup.descriptor<tensor = $2>, !nvgpu.warpgroup.accumulator<fragmented = $3> -> !nvgpu.warpgroup.accumulator<fragmented = $3>
  return %d : !nvgpu.warpgroup.accumulator<fragmented = $3>
}
EOT

# usage: tgen.sh TENSOR SWIZZLE INTERLEAVE DST
cat <<EOT
!bt = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!td = !nvgpu.tensormap.descriptor<tensor = $1, swizzle = $2, l2promo = none, oob = zero, interleave = $3>
func.func @f(%d: !td, %bar: !bt, %dst: $4, %i: index) {
  nvgpu.tma.async.load %d[%i, %i], %bar[%i] to %dst : !td, !bt -> $4
  return
}
EOT

// A 32x32 tile of C += A * B after distribution to a 32x8 workgroup (the
// shape gpucg-tile-and-distribute produces for the MatmulSimt pipeline):
// thread (tx, ty) owns column tx and rows ty, ty + 8, ty + 16, ty + 24.
//
// The column loop runs once per thread - the workgroup has exactly 32 threads
// in x - so gpucg-remove-single-iteration-loop inlines it. The row loop (4
// iterations) and the K loop (64) stay.

module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @matmul_tile(%A: memref<32x64xf32>, %B: memref<64x32xf32>,
                         %C: memref<32x32xf32>)
      attributes {gpucg.translation_info = #gpucg.translation_info<
        pipeline = MatmulSimt, workgroup_size = [32, 8, 1]>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %tx = gpu.thread_id x
    %ty = gpu.thread_id y
    scf.for %j = %tx to %c32 step %c32 {
      scf.for %i = %ty to %c32 step %c8 {
        %init = memref.load %C[%i, %j] : memref<32x32xf32>
        %sum = scf.for %k = %c0 to %c64 step %c1
            iter_args(%acc = %init) -> (f32) {
          %a = memref.load %A[%i, %k] : memref<32x64xf32>
          %b = memref.load %B[%k, %j] : memref<64x32xf32>
          %p = arith.mulf %a, %b : f32
          %s = arith.addf %acc, %p : f32
          scf.yield %s : f32
        }
        memref.store %sum, %C[%i, %j] : memref<32x32xf32>
      }
    }
    return
  }
}

module attributes {gpu.container_module} {
  func.func @h(%h: memref<16xf32>, %f: f32, %u: memref<*xf32>) {
    gpu.host_register %u : memref<*xf32>
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] () : memref<16xf32>
    %t2 = gpu.memcpy async [%t1] %d, %h : memref<16xf32>, memref<16xf32>
    %t3 = gpu.memset async [%t2] %d, %f : memref<16xf32>, f32
    %t4 = gpu.dealloc async [%t3] %d : memref<16xf32>
    gpu.wait [%t4]
    gpu.host_unregister %u : memref<*xf32>
    return
  }
}

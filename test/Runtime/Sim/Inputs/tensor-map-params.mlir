// GPU-level kernels for ../tensor-copy.test whose parameters do not take
// the tensor map their uop.launch entry lists: none after the buffers (so
// `in` would be the map's pointer), and an i32 where its pointer should be.
module attributes {gpu.container_module, uop.launch = {
    no_map_param = {grid = array<i32: 1, 1, 1>, block = array<i32: 1, 1, 1>, tensor_maps = [
      #uop.tensor_map<buffer = 1, element = f32, sizes = [100], strides = [], box = [16], swizzle = 0>]},
    int_map_param = {grid = array<i32: 1, 1, 1>, block = array<i32: 1, 1, 1>, tensor_maps = [
      #uop.tensor_map<buffer = 1, element = f32, sizes = [100], strides = [], box = [16], swizzle = 0>]}}} {
  gpu.module @no_map_param {
    llvm.func @no_map_param(%out: !llvm.ptr, %in: !llvm.ptr) attributes {nvvm.kernel} {
      llvm.return
    }
  }
  gpu.module @int_map_param {
    llvm.func @int_map_param(%out: !llvm.ptr, %in: !llvm.ptr, %map: i32) attributes {nvvm.kernel} {
      llvm.return
    }
  }
}

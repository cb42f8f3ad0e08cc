// A GPU-level kernel whose uop.launch entry has a grid of 0 blocks
// (../sim-block.test): the module does not verify.
module attributes {gpu.container_module, uop.launch = {
    bad_launch = {grid = array<i32: 0, 1, 1>, block = array<i32: 1, 1, 1>}}} {
  gpu.module @bad_launch {
    llvm.func @bad_launch(%out: !llvm.ptr, %in: !llvm.ptr) {
      llvm.return
    }
  }
}

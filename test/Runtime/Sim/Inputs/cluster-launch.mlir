// Kernels whose clusters cannot be launched (../cluster.test): a grid that
// is not whole clusters, clusters over CUDA's portable 8 blocks, and a
// malformed nvvm.cluster_dim.
module attributes {gpu.container_module, uop.launch = {
    odd_grid = {grid = array<i32: 3, 1, 1>, block = array<i32: 32, 1, 1>},
    too_big = {grid = array<i32: 4, 4, 1>, block = array<i32: 32, 1, 1>},
    bad_dim = {grid = array<i32: 2, 1, 1>, block = array<i32: 32, 1, 1>}}} {
  gpu.module @odd_grid {
    llvm.func @odd_grid() attributes {nvvm.kernel, nvvm.cluster_dim = array<i32: 2, 1, 1>} {
      llvm.return
    }
  }
  gpu.module @too_big {
    llvm.func @too_big() attributes {nvvm.kernel, nvvm.cluster_dim = array<i32: 4, 4, 1>} {
      llvm.return
    }
  }
  gpu.module @bad_dim {
    llvm.func @bad_dim() attributes {nvvm.kernel, nvvm.cluster_dim = array<i32: 0, 1, 1>} {
      llvm.return
    }
  }
}

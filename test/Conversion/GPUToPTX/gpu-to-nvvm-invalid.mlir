// uop-gpu-to-nvvm: what cannot become LLVM/NVVM is an error at the op, and
// the pass fails (as upstream's convert-gpu-to-nvvm).
// RUN: uop-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(gpu.module(uop-gpu-to-nvvm))'

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @below {{failed to legalize operation 'gpu.func' that was explicitly marked illegal}}
    gpu.func @k(%t: tensor<2xf32>) kernel {
      gpu.return
    }
  }
}

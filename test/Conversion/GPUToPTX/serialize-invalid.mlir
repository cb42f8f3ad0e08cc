// uop-serialize-to-ptx's errors.
// RUN: uop-opt %s --split-input-file --uop-serialize-to-ptx --verify-diagnostics

module attributes {gpu.container_module} {
  // expected-error @+1 {{'gpu.module' op needs exactly one #nvvm.target to be compiled to PTX}}
  gpu.module @untargeted {
  }
}

// -----

module attributes {gpu.container_module} {
  // expected-error @+1 {{'gpu.module' op needs exactly one #nvvm.target to be compiled to PTX}}
  gpu.module @two [#nvvm.target<chip = "sm_80">, #nvvm.target<chip = "sm_90a">] {
  }
}

// -----

module attributes {gpu.container_module} {
  // expected-error @+1 {{'gpu.module' op has #nvvm.target link files, which uop-serialize-to-ptx does not link}}
  gpu.module @linked [#nvvm.target<chip = "sm_80", link = ["extra.bc"]>] {
  }
}

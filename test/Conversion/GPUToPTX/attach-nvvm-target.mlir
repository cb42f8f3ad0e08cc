// uop-attach-nvvm-target: an #nvvm.target on each gpu.module without one; a
// module's own targets are kept (upstream's nvvm-attach-target would append a
// second, and uop-serialize-to-ptx refuses a module with two).
// RUN: uop-opt %s --uop-attach-nvvm-target="chip=sm_90a O=1" | FileCheck %s
// RUN: uop-opt %s --uop-attach-nvvm-target | FileCheck %s --check-prefix=DEFAULT
// RUN: not uop-opt %s --uop-attach-nvvm-target="chip=sm_42" 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not uop-opt %s --uop-attach-nvvm-target="O=4" 2>&1 | FileCheck %s --check-prefix=LEVEL

// CHECK: gpu.module @bare [#nvvm.target<O = 1, chip = "sm_90a", features = "+ptx80">]
// CHECK: gpu.module @own [#nvvm.target<chip = "sm_75", features = "+ptx80">]
// CHECK: gpu.module @rocm [#rocdl.target
// DEFAULT: gpu.module @bare [#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">]
// DEFAULT: gpu.module @own [#nvvm.target<chip = "sm_75", features = "+ptx80">]
// CHIP: error: uop-attach-nvvm-target: unknown GPU arch 'sm_42' (known: sm_75,
// LEVEL: error: uop-attach-nvvm-target: no LLVM optimization level 4 (0 to 3)
module attributes {gpu.container_module} {
  gpu.module @bare {
  }
  gpu.module @own [#nvvm.target<chip = "sm_75", features = "+ptx80">] {
  }
  gpu.module @rocm [#rocdl.target<chip = "gfx90a">] {
  }
}

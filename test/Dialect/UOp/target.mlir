// #uop.target and #uop.tensor_core: a chip's defaults are implied and
// elided, overrides are printed; uop-attach-target attaches a chip's target.
// RUN: uop-opt %s --split-input-file | FileCheck %s
// RUN: uop-opt %s --split-input-file --mlir-print-op-generic | uop-opt --split-input-file | FileCheck %s
// RUN: echo 'module {}' | uop-opt --uop-attach-target="chip=sm_90a" | FileCheck %s --check-prefix=ATTACH
// RUN: echo 'module {}' | uop-opt --uop-attach-target | FileCheck %s --check-prefix=DEFAULT
// RUN: echo 'module {}' | not uop-opt --uop-attach-target="chip=sm_42" 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// A module's own target for the chip is kept (its shared_max here); one
// for another chip is replaced by the chip's defaults.
// RUN: echo 'module attributes {uop.target = #uop.target<"sm_80", shared_max = 1024>} {}' | uop-opt --uop-attach-target="chip=sm_80" | FileCheck %s --check-prefix=KEEP
// RUN: echo 'module attributes {uop.target = #uop.target<"sm_80", shared_max = 1024>} {}' | uop-opt --uop-attach-target="chip=sm_90" | FileCheck %s --check-prefix=REPLACE

// ATTACH: module attributes {uop.target = #uop.target<"sm_90a">}
// DEFAULT: module attributes {uop.target = #uop.target<"sm_80">}
// UNKNOWN: error: unknown GPU arch 'sm_42' (known: sm_75, sm_80, sm_86, sm_87, sm_89, sm_90, sm_90a, sm_100, sm_110, sm_120)
// KEEP: module attributes {uop.target = #uop.target<"sm_80", shared_max = 1024>}
// REPLACE: module attributes {uop.target = #uop.target<"sm_90">}

// CHECK: module attributes {uop.target = #uop.target<"sm_80">}
module attributes {uop.target = #uop.target<"sm_80">} {}

// -----

// Writing a default out changes nothing; a different value is kept.
// CHECK: module attributes {uop.target = #uop.target<"sm_86", local_max = [256, 256, 64], shared_max = 65536>}
module attributes {uop.target = #uop.target<"sm_86", global_max = [2147483647, 65535, 65535],
                                             local_max = [256, 256, 64], shared_max = 65536>} {}

// -----

// sm_75 has the m16n8k8 f16 tensor cores only (the defaults, so not
// printed); the op lists can be narrowed.
// CHECK: #uop.target<"sm_75", half_ops = ["add", "mul"], approx_ops = ["exp2", "sqrt"]>
module attributes {uop.target = #uop.target<"sm_75", tensor_cores = [#uop.tensor_core<m = 16, n = 8, k = 8, dtype_in = f16, dtype_out = f32>,
                                                                     #uop.tensor_core<m = 16, n = 8, k = 8, dtype_in = f16, dtype_out = f16>],
                                             half_ops = ["add", "mul"], approx_ops = ["exp2", "sqrt"]>} {}

// -----

// CHECK: #uop.target<"sm_90", tensor_cores = [#uop.tensor_core<m = 16, n = 8, k = 16, dtype_in = bf16, dtype_out = f32>]>
module attributes {uop.target = #uop.target<"sm_90", tensor_cores = [#uop.tensor_core<m = 16, n = 8, k = 16, dtype_in = bf16, dtype_out = f32>]>} {}

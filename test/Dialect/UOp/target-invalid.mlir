// RUN: uop-opt %s --split-input-file --verify-diagnostics

// expected-error @below {{unknown GPU arch 'sm_70' (known: sm_75, sm_80, sm_86, sm_87, sm_89, sm_90, sm_90a, sm_100, sm_110, sm_120)}}
module attributes {uop.target = #uop.target<"sm_70">} {}

// -----

// expected-error @below {{global_max must be three positive sizes}}
module attributes {uop.target = #uop.target<"sm_80", global_max = [65535, 65535]>} {}

// -----

// expected-error @below {{local_max must be three positive sizes}}
module attributes {uop.target = #uop.target<"sm_80", local_max = [1024, 0, 64]>} {}

// -----

// expected-error @below {{shared_max must not be negative}}
module attributes {uop.target = #uop.target<"sm_80", shared_max = -1>} {}

// -----

// expected-error @below {{tensor core #uop.tensor_core<m = 16, n = 8, k = 16, dtype_in = f16, dtype_out = f32> needs sm_80 or later}}
module attributes {uop.target = #uop.target<"sm_75", tensor_cores = [#uop.tensor_core<m = 16, n = 8, k = 16, dtype_in = f16, dtype_out = f32>]>} {}

// -----

// expected-error @below {{no NVIDIA tensor core m16n8k32 with 'f16' inputs and 'f32' accumulators}}
module attributes {uop.target = #uop.target<"sm_80", tensor_cores = [#uop.tensor_core<m = 16, n = 8, k = 32, dtype_in = f16, dtype_out = f32>]>} {}

// -----

// expected-error @below {{half_ops: 'fma' is not a uop ALU op}}
module attributes {uop.target = #uop.target<"sm_80", half_ops = ["add", "fma"]>} {}

// -----

// expected-error @below {{approx_ops: 'add' has no approximate PTX instruction (exp2, log2, sin, sqrt, recip)}}
module attributes {uop.target = #uop.target<"sm_80", approx_ops = ["add"]>} {}

// -----

// expected-error @below {{unknown #uop.target field 'warp_size'}}
module attributes {uop.target = #uop.target<"sm_80", warp_size = 32>} {}

// -----

uop.kernel @special_too_big {
  // expected-error @below {{size 200 does not fit 'si8'}}
  %g = uop.special "gidx0" 200 : si8
  uop.sink
}

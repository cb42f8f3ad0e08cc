// The dialect's attributes on other ops (UOpBase.td's discardableAttrs): each
// only on the op it belongs to and with its type; any other `uop.` name is
// an error.
// RUN: uop-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{'uop.target' must be a #uop.target on a builtin.module}}
module attributes {uop.target = "sm_80"} {}

// -----

// expected-error @+1 {{'uop.launch' must be a dictionary on a builtin.module of {grid, block} per kernel, each an array<i32: x, y, z> of positive sizes}}
module attributes {uop.launch = {k = {grid = array<i32: 1, 1>, block = array<i32: 1, 1, 1>}}} {}

// -----

// expected-error @+1 {{'uop.launch' must be a dictionary}}
module attributes {uop.launch = {k = {grid = array<i32: 1, 1, 1>, block = array<i32: 1, -2, 1>}}} {}

// -----

module {
  // expected-error @+1 {{'uop.opts' must be a string of opts on a uop.kernel}}
  func.func @f() attributes {uop.opts = "UPCAST:0:4"} { return }
}

// -----

// expected-error @+1 {{'uop.opts' must be a string of opts on a uop.kernel}}
uop.kernel @k attributes {uop.opts = 4 : i64} {
  uop.sink
}

// -----

// expected-error @+1 {{'uop.kernel_info' must be a #uop.kernel_info on a uop.kernel}}
module attributes {uop.kernel_info = #uop.kernel_info<global_dims = 1, local_dims = 0, upcasted = 0, dont_use_locals = false, opts = "">} {}

// -----

// expected-error @+1 {{'uop.sites' must be an array of strings on a symbol table (builtin.module, gpu.module)}}
module attributes {uop.sites = [1, 2]} {}

// -----

// expected-error @+1 {{'uop.sim_shared' must be an array<i64: bytes, alignment, ...> on a symbol table (builtin.module, gpu.module)}}
module attributes {uop.sim_shared = array<i64: 256>} {}

// -----

// expected-error @+1 {{unknown uop attribute 'uop.chip' (uop.target, uop.launch, uop.variables, uop.opts, uop.kernel_info, uop.sites, uop.sim_shared, uop.device, uop.outputs)}}
module attributes {uop.chip = "sm_80"} {}

// -----

// expected-error @+1 {{and for a kernel that takes tensor maps tensor_maps, an array of #uop.tensor_map}}
module attributes {uop.launch = {k = {grid = array<i32: 1, 1, 1>, block = array<i32: 1, 1, 1>, tensor_maps = [1]}}} {}

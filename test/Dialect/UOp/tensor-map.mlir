// #uop.tensor_map prints as it parses, in a uop.launch entry's tensor_maps,
// and its verifier holds cuTensorMapEncodeTiled's limits (and ours: a
// swizzled box's rows are exactly the swizzle's span).
// RUN: uop-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// CHECK: uop.launch = {k = {block = array<i32: 128, 1, 1>, grid = array<i32: 8, 1, 1>, tensor_maps = [#uop.tensor_map<buffer = 1, element = f16, sizes = [1024, 512], strides = [2048], box = [64, 64], swizzle = 128>, #uop.tensor_map<buffer = 0, element = si8, sizes = [100], strides = [], box = [16], swizzle = 0>]}}
module attributes {uop.launch = {k = {grid = array<i32: 8, 1, 1>, block = array<i32: 128, 1, 1>, tensor_maps = [
  #uop.tensor_map<buffer = 1, element = f16, sizes = [1024, 512], strides = [2048], box = [64, 64], swizzle = 128>,
  #uop.tensor_map<buffer = 0, element = si8, sizes = [100], strides = [], box = [16], swizzle = 0>]}}} {}

// -----

// expected-error @+1 {{tensor map of 'i1' elements: TMA copies f16, bf16, f32, f64 or 8 to 64-bit integers}}
module attributes {map = #uop.tensor_map<buffer = 0, element = i1, sizes = [128], strides = [], box = [128], swizzle = 0>} {}

// -----

// expected-error @+1 {{tensor map of 6 dimensions: TMA takes 1 to 5}}
module attributes {map = #uop.tensor_map<buffer = 0, element = f32, sizes = [4, 1, 1, 1, 1, 1], strides = [16, 16, 16, 16, 16], box = [4, 1, 1, 1, 1, 1], swizzle = 0>} {}

// -----

// expected-error @+1 {{tensor map of 2 dimensions needs 1 strides (of dimensions 1 and up) and 2 box sizes, not 2 and 2}}
module attributes {map = #uop.tensor_map<buffer = 0, element = f32, sizes = [4, 4], strides = [16, 64], box = [4, 4], swizzle = 0>} {}

// -----

// expected-error @+1 {{tensor map size 4294967297 of dimension 1: TMA takes 1 to 2^32 elements}}
module attributes {map = #uop.tensor_map<buffer = 0, element = f32, sizes = [4, 4294967297], strides = [16], box = [4, 4], swizzle = 0>} {}

// -----

// expected-error @+1 {{tensor map stride 24 of dimension 1: TMA takes positive multiples of 16 bytes below 2^40}}
module attributes {map = #uop.tensor_map<buffer = 0, element = f32, sizes = [6, 4], strides = [24], box = [4, 4], swizzle = 0>} {}

// -----

// expected-error @+1 {{tensor map box size 257 of dimension 1: TMA takes 1 to 256}}
module attributes {map = #uop.tensor_map<buffer = 0, element = f32, sizes = [4, 1000], strides = [16], box = [4, 257], swizzle = 0>} {}

// -----

// expected-error @+1 {{tensor map box of 12 bytes in its innermost dimension: TMA takes multiples of 16}}
module attributes {map = #uop.tensor_map<buffer = 0, element = f32, sizes = [8], strides = [], box = [3], swizzle = 0>} {}

// -----

// expected-error @+1 {{tensor map swizzle 16: 0 (none), 32, 64 or 128 bytes}}
module attributes {map = #uop.tensor_map<buffer = 0, element = f32, sizes = [8], strides = [], box = [4], swizzle = 16>} {}

// -----

// expected-error @+1 {{tensor map box of 64 bytes in its innermost dimension: a 128-byte swizzle takes rows of exactly 128 bytes (narrower rows' layout is not documented)}}
module attributes {map = #uop.tensor_map<buffer = 0, element = f16, sizes = [64, 64], strides = [128], box = [32, 8], swizzle = 128>} {}

// -----

// expected-error @+1 {{tensor map of buffer -1: buffers are numbered from 0}}
module attributes {map = #uop.tensor_map<buffer = -1, element = f32, sizes = [8], strides = [], box = [4], swizzle = 0>} {}

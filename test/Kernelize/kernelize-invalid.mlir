// RUN: uop-opt --uop-kernelize --split-input-file --verify-diagnostics %s

// A tensor constant says which device it is on.
func.func @no_device() -> tensor<4xf32> {
  // expected-error @+1 {{kernelize: a tensor constant needs a uop.device attribute}}
  %c = uop.const dense<1.0> : tensor<4xf32>
  return %c : tensor<4xf32>
}

// -----

// A kernel op is not a tensor-graph op.
func.func @kernel_op() -> tensor<4xf32> {
  %b = uop.buffer "CPU" unique 0 : tensor<4xf32>
  // expected-error @+1 {{kernelize: 'uop.define_global' is not a tensor-graph op}}
  %g = uop.define_global 0 : !uop.ptr<f32, 4>
  return %b : tensor<4xf32>
}

// -----

// tinygrad refuses an augmented assign that reads its target through a
// non-contiguous view (a += a.T).
// expected-error @+1 {{kernelize: self operand of augmented assign must be contiguous}}
func.func @assign_transposed() -> tensor<4x4xf32> {
  %b = uop.buffer "CPU" unique 0 : tensor<16xf32>
  %v = uop.reshape %b : tensor<16xf32> -> tensor<4x4xf32>
  %t = uop.permute %v [1, 0] : tensor<4x4xf32> -> tensor<4x4xf32>
  %s = uop.add %v, %t : tensor<4x4xf32>
  %a = uop.assign %v, %s : tensor<4x4xf32>, tensor<4x4xf32>
  return %a : tensor<4x4xf32>
}

// -----

// Sizes stay far from int64 overflow.
func.func @huge() -> tensor<4xf32> {
  // expected-error @+1 {{kernelize: 'tensor<99999999999999999xf32>' has more than 2^40 elements}}
  %b = uop.buffer "CPU" unique 0 : tensor<99999999999999999xf32>
  %v = uop.view %b [#uop.view<shape = [4], strides = [1]>] : tensor<99999999999999999xf32> -> tensor<4xf32>
  %c = uop.contiguous %v : tensor<4xf32>
  return %c : tensor<4xf32>
}

// -----

// A view may not reach past the tensor under it.
func.func @past_end() -> tensor<8xf32> {
  %b = uop.buffer "CPU" unique 0 : tensor<4xf32>
  // expected-error @+1 {{kernelize: the view reaches element 7 of a tensor of 4 elements}}
  %v = uop.view %b [#uop.view<shape = [8], strides = [1]>] : tensor<4xf32> -> tensor<8xf32>
  %c = uop.contiguous %v : tensor<8xf32>
  return %c : tensor<8xf32>
}

// -----

// A unique id names one buffer.
// expected-error @+1 {{kernelize: two different buffers have unique id 0}}
func.func @same_unique() -> tensor<8xf32> {
  %a = uop.buffer "CPU" unique 0 : tensor<4xf32>
  %b = uop.buffer "CPU" unique 0 : tensor<8xf32>
  %v = uop.reshape %a : tensor<4xf32> -> tensor<4x1xf32>
  %e = uop.expand %v : tensor<4x1xf32> -> tensor<4x2xf32>
  %r = uop.reshape %e : tensor<4x2xf32> -> tensor<8xf32>
  %s = uop.add %r, %b : tensor<8xf32>
  return %s : tensor<8xf32>
}

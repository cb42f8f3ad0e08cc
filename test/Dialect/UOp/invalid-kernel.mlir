// Kernel-wide rules: tinygrad's ast_spec and verify_sink_dims.
// RUN: uop-opt %s -split-input-file -verify-diagnostics

uop.kernel @nosink {
  // expected-error @+1 {{block with no terminator}}
  %0 = uop.define_global 0 : !uop.ptr<f32, 4>
}

// -----

// expected-error @+1 {{body must end in uop.sink}}
uop.kernel @other_terminator {
  llvm.unreachable
}

// -----

// expected-error @+1 {{body takes no arguments: buffers are uop.define_global ops}}
uop.kernel @args {
^bb0(%a: f32):
  uop.sink
}

// -----

uop.kernel @dup {
  // expected-note @+1 {{first defined here}}
  %0 = uop.define_global 0 : !uop.ptr<f32, 4>
  // expected-error @+1 {{buffer index 0 is defined twice}}
  %1 = uop.define_global 0 : !uop.ptr<f32, 4>
  uop.sink
}

// -----

uop.kernel @shapes {
  %0 = uop.define_global 0 : !uop.ptr<f32, 16>
  %1 = uop.view %0 [#uop.view<shape = [4, 4], strides = [4, 1]>] : !uop.ptr<f32, 16>
  %2 = uop.load %1 : !uop.ptr<f32, 16>
  %3 = uop.view %0 [#uop.view<shape = [16], strides = [1]>] : !uop.ptr<f32, 16>
  %4 = uop.load %3 : !uop.ptr<f32, 16>
  // expected-error @+1 {{sources must have one shape, got (4, 4) and (16)}}
  %5 = uop.add %2, %4 : f32
  uop.sink
}

// -----

uop.kernel @reduce_rank {
  %0 = uop.define_global 0 : !uop.ptr<f32, 16>
  %1 = uop.view %0 [#uop.view<shape = [4, 4], strides = [4, 1]>] : !uop.ptr<f32, 16>
  %2 = uop.load %1 : !uop.ptr<f32, 16>
  // The message shows the shape before any axis is reduced.
  // expected-error @+1 {{axis 2 is out of range for the shape (4, 4)}}
  %3 = uop.reduce_axis add %2 [0, 2] : f32
  uop.sink
}

// -----

uop.kernel @store_shape {
  %0 = uop.define_global 0 : !uop.ptr<f32, 4>
  %1 = uop.view %0 [#uop.view<shape = [4, 1], strides = [1, 0]>] : !uop.ptr<f32, 4>
  %2 = uop.define_global 1 : !uop.ptr<f32, 16>
  %3 = uop.view %2 [#uop.view<shape = [4, 4], strides = [4, 1]>] : !uop.ptr<f32, 16>
  %4 = uop.load %3 : !uop.ptr<f32, 16>
  // A REDUCE_AXIS must collapse axis 1 before the value fits the (4, 1) output.
  // expected-error @+1 {{sources must have one shape, got (4, 1) and (4, 4)}}
  %5 = uop.store %1, %4 : !uop.ptr<f32, 4>
  uop.sink %5
}

// -----

uop.kernel @view_edge {
  %0 = uop.define_global 0 : !uop.ptr<f32, 16>
  %c = uop.const 0 : si32
  %1 = uop.index %0[%c] : !uop.ptr<f32, 16>, si32
  // expected-error @+1 {{in a kernel AST may only view a uop.define_global, uop.define_local or uop.cluster_map}}
  %2 = uop.view %1 [#uop.view<shape = [4], strides = [1]>] : !uop.ptr<f32, 16>
  uop.sink
}

// -----

uop.kernel @sink_shapes {
  %0 = uop.define_global 0 : !uop.ptr<f32, 4>
  %1 = uop.view %0 [#uop.view<shape = [4, 1], strides = [1, 0]>] : !uop.ptr<f32, 4>
  %2 = uop.define_global 1 : !uop.ptr<f32, 4>
  %3 = uop.view %2 [#uop.view<shape = [1, 4], strides = [0, 1]>] : !uop.ptr<f32, 4>
  %c = uop.const 1.0 : f32
  %s0 = uop.store %1, %c : !uop.ptr<f32, 4>
  %s1 = uop.store %3, %c : !uop.ptr<f32, 4>
  // expected-error @+1 {{stores must have one shape, got (4, 1) and (1, 4)}}
  uop.sink %s0, %s1
}

// -----

uop.kernel @one_or_n {
  %0 = uop.define_global 0 : !uop.ptr<f32, 4>
  // expected-note @+1 {{size 4 here}}
  %1 = uop.view %0 [#uop.view<shape = [4, 1], strides = [1, 0]>] : !uop.ptr<f32, 4>
  %2 = uop.define_global 1 : !uop.ptr<f32, 8>
  // expected-error @+1 {{dimension 0 has size 8 but elsewhere 4; each dimension of a kernel must be 1 or n}}
  %3 = uop.view %2 [#uop.view<shape = [8, 1], strides = [1, 0]>] : !uop.ptr<f32, 8>
  %4 = uop.load %3 : !uop.ptr<f32, 8>
  uop.sink
}

// -----

uop.kernel @rank {
  %0 = uop.define_global 0 : !uop.ptr<f32, 4>
  %1 = uop.view %0 [#uop.view<shape = [4, 1], strides = [1, 0]>] : !uop.ptr<f32, 4>
  %2 = uop.define_global 1 : !uop.ptr<f32, 4>
  // expected-error @+1 {{has rank 1 but the kernel has rank 2}}
  %3 = uop.view %2 [#uop.view<shape = [4], strides = [1]>] : !uop.ptr<f32, 4>
  uop.sink
}

// -----

// The name becomes a PTX entry and a C function (the importer spells other
// characters as tinygrad's to_function_name does).
// expected-error @+1 {{name 'my kernel' must be an identifier ([A-Za-z_][A-Za-z0-9_]*)}}
uop.kernel @"my kernel" {
  uop.sink
}

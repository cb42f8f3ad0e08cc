// uop-lower fails loudly on what it cannot lower: a use of a view it does not
// know, an axis too long to count.
// RUN: uop-opt %s --uop-lower --verify-diagnostics

uop.kernel @unknown_use {
  %0 = uop.define_global 0 : !uop.ptr<f32, 4>
  // expected-error @+1 {{is still used by}}
  %1 = uop.view %0 [#uop.view<shape = [4], strides = [1]>] : !uop.ptr<f32, 4>
  %2 = uop.noop %1 : (!uop.ptr<f32, 4>) -> f32
  %c0 = uop.const 0 : si32
  %p = uop.index %0[%c0] : !uop.ptr<f32, 4>, si32
  %s = uop.store %p, %2 : !uop.ptr<f32, 4>
  uop.sink %s
}

// An axis of 2^31 elements or more cannot be counted by a RANGE (int32).
// expected-error @+1 {{'uop.kernel' op axis 0 has 4294967296 elements: a RANGE counts in int32, so an axis must have fewer than 2^31 (reshape the views to split it)}}
uop.kernel @axis_too_long {
  %0 = uop.define_global 0 : !uop.ptr<si8, 4294967296>
  %1 = uop.view %0 [#uop.view<shape = [4294967296], strides = [1]>] : !uop.ptr<si8, 4294967296>
  %2 = uop.const 1 : si8
  %3 = uop.store %1, %2 : !uop.ptr<si8, 4294967296>
  uop.sink %3
}

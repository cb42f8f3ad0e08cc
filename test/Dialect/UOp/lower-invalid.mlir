// uop-lower fails loudly on a use of a view it cannot lower.
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

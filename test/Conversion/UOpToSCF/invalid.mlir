// convert-uop-to-scf on what it cannot convert: a located error, no output.
// RUN: uop-opt %s --convert-uop-to-scf --split-input-file --verify-diagnostics

uop.kernel @not_lowered {
  %o = uop.define_global 0 : !uop.ptr<f32, 4>
  // expected-error @+1 {{'uop.view' op is not lowered: run uop-lower first}}
  %v = uop.view %o [#uop.view<shape = [4], strides = [1]>] : !uop.ptr<f32, 4>
  %c = uop.const 1.0 : f32
  %s = uop.store %v, %c : !uop.ptr<f32, 4>
  uop.sink %s
}

// -----

uop.kernel @gpu_index {
  %o = uop.define_global 0 : !uop.ptr<f32, 4>
  // expected-error @+1 {{'uop.special' op is not supported by convert-uop-to-scf}}
  %t = uop.special "gidx0" 4 : si32
  %p = uop.index %o[%t] : !uop.ptr<f32, 4>, si32
  %c = uop.const 1.0 : f32
  %s = uop.store %p, %c : !uop.ptr<f32, 4>
  uop.sink %s
}

// -----

uop.kernel @fp8 {
  %o = uop.define_global 0 : !uop.ptr<f8E4M3FN, 4>
  %z = uop.const 0 : si32
  %p = uop.index %o[%z] : !uop.ptr<f8E4M3FN, 4>, si32
  // expected-error @+1 {{'uop.load' op dtype float8_e4m3 is not supported by this lowering}}
  %x = uop.load %p : !uop.ptr<f8E4M3FN, 4>
  %s = uop.store %p, %x : !uop.ptr<f8E4M3FN, 4>
  uop.sink %s
}

// -----

// A loop bound that needs a loop nested inside it.
uop.kernel @range_outside_loop {
  %c4 = uop.const 4 : si32
  // expected-error @+1 {{'uop.range' op (axis 1) is used outside of its loop}}
  %r1 = uop.range %c4 axis 1 global : si32
  %r0 = uop.range %r1 axis 0 global : si32
  %o = uop.define_global 0 : !uop.ptr<si32, 16>
  %p = uop.index %o[%r0] : !uop.ptr<si32, 16>, si32
  %s = uop.store %p, %r1 : !uop.ptr<si32, 16>
  uop.sink %s
}

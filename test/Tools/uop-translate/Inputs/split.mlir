// Three parts for --split-input-file: a kernel, an invalid one, a kernel.
uop.kernel @first {
  %0 = uop.define_global 0 : !uop.ptr<f32, 4>
  %1 = uop.view %0 [#uop.view<shape = [4], strides = [1]>] : !uop.ptr<f32, 4>
  %2 = uop.const 1.0 : f32
  %3 = uop.store %1, %2 : !uop.ptr<f32, 4>
  uop.sink %3
}

// -----

uop.kernel @bad {
  // expected-error @+1 {{'uop.define_global' op result must be a global pointer, got '!uop.ptr<f32, 4, local>'}}
  %0 = uop.define_global 0 : !uop.ptr<f32, 4, local>
  uop.sink
}

// -----

uop.kernel @third {
  %0 = uop.define_global 0 : !uop.ptr<f32, 4>
  %1 = uop.view %0 [#uop.view<shape = [4], strides = [1]>] : !uop.ptr<f32, 4>
  %2 = uop.const 2.0 : f32
  %3 = uop.store %1, %2 : !uop.ptr<f32, 4>
  uop.sink %3
}

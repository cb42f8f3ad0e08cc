// RUN: uop-opt --split-input-file --verify-diagnostics %s

uop.kernel @k {
  %0 = uop.define_global 0 : !uop.ptr<f32, 4>
  %1 = uop.view %0 [#uop.view<shape = [4], strides = [1]>] : !uop.ptr<f32, 4>
  %2 = uop.const 1.0 : f32
  %3 = uop.view [#uop.view<shape = [4], strides = [0]>] : !uop.void
  %4 = uop.shaped_const %3, 1.000000e+00 : f32
  %5 = uop.store %1, %4 : !uop.ptr<f32, 4>
  uop.sink %5
}
func.func @wrong_count(%a: memref<4xf32>, %b: memref<4xf32>) {
  // expected-error @+1 {{binds 2 buffers, but 'k' has 1}}
  uop.exec @k(%a, %b) : memref<4xf32>, memref<4xf32>
  return
}

// -----

uop.kernel @k {
  %0 = uop.define_global 0 : !uop.ptr<f32, 4>
  %1 = uop.view %0 [#uop.view<shape = [4], strides = [1]>] : !uop.ptr<f32, 4>
  %3 = uop.view [#uop.view<shape = [4], strides = [0]>] : !uop.void
  %4 = uop.shaped_const %3, 1.000000e+00 : f32
  %5 = uop.store %1, %4 : !uop.ptr<f32, 4>
  uop.sink %5
}
func.func @wrong_type(%a: memref<8xf32>) {
  // expected-error @+1 {{buffer 0 is 'memref<8xf32>', but 'k' takes '!uop.ptr<f32, 4>'}}
  uop.exec @k(%a) : memref<8xf32>
  return
}

// -----

func.func @no_kernel(%a: memref<8xf32>) {
  // expected-error @+1 {{'nope' is not a uop.kernel}}
  uop.exec @nope(%a) : memref<8xf32>
  return
}

// -----

// expected-error @+1 {{'uop.outputs' must be an array on a function of {unique = N, st = #uop.st<...>} or {value = dense<...>}}}
func.func @bad_outputs() attributes {uop.outputs = [{unique = 0}]} {
  return
}

// -----

// expected-error @+1 {{'uop.unique' of argument 0 must be a non-negative integer}}
func.func @bad_unique(%a: memref<8xf32> {uop.unique = -1 : i64}) {
  return
}

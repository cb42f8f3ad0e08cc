// out[i] = 2 * in[i] + 1 over 4 floats.
uop.kernel @axpy {
  %out = uop.define_global 0 : !uop.ptr<f32, 4>
  %vout = uop.view %out [#uop.view<shape = [4], strides = [1]>] : !uop.ptr<f32, 4>
  %in = uop.define_global 1 : !uop.ptr<f32, 4>
  %vin = uop.view %in [#uop.view<shape = [4], strides = [1]>] : !uop.ptr<f32, 4>
  %x = uop.load %vin : !uop.ptr<f32, 4>
  %two = uop.const 2.0 : f32
  %one = uop.const 1.0 : f32
  %y = uop.mul %x, %two : f32
  %z = uop.add %y, %one : f32
  %s = uop.store %vout, %z : !uop.ptr<f32, 4>
  uop.sink %s
}

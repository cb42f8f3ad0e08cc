// Input of uop-run-errors.test: a kernel with an op the CPU path lacks.
uop.kernel @add_k0 {
  %b0 = uop.define_global 0 : !uop.ptr<f32, 128>
  %t = uop.special "gidx0" 128 : si32
  %p = uop.index %b0[%t] : !uop.ptr<f32, 128>, si32
  %x = uop.const 1.0 : f32
  %s = uop.store %p, %x : !uop.ptr<f32, 128>
  uop.sink %s
}

module {
  uop.kernel @pow {
    %z = uop.const 0 : si32
    %g = uop.define_global 0 : !uop.ptr<f32, 1>
    %p = uop.index %g[%z] : !uop.ptr<f32, 1>, si32
    %x = uop.load %p : !uop.ptr<f32, 1>
    %e = uop.pow %x, %x : f32
    %s = uop.store %p, %e : !uop.ptr<f32, 1>
    uop.sink %s
  }
}

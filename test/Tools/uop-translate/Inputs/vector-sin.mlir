module {
  uop.kernel @vector_sin {
    %z = uop.const 0 : si32
    %g = uop.define_global 0 : !uop.ptr<f32, 1>
    %p = uop.index %g[%z] : !uop.ptr<f32, 1>, si32
    %x = uop.load %p : !uop.ptr<f32, 1>
    %v = uop.vectorize %x, %x : f32
    %s = uop.sin %v : vector<2xf32>
    %e = uop.gep %s[0] : vector<2xf32>
    %st = uop.store %p, %e : !uop.ptr<f32, 1>
    uop.sink %st
  }
}

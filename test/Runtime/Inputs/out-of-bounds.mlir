// Lowered kernels whose index math leaves their 128-element buffers: the
// verifier cannot see it (only views are bounded before lowering), the run-time
// checks must. test/Runtime/access-checks.test runs them.

// Reads in[1..128] and writes out[0..127]: the last read is one past the end.
uop.kernel @read_past_end {
  %n = uop.const 128 : si32
  %r = uop.range %n axis 0 loop : si32
  %out = uop.define_global 0 : !uop.ptr<f32, 128>
  %in = uop.define_global 1 : !uop.ptr<f32, 128>
  %c1 = uop.const 1 : si32
  %i = uop.add %r, %c1 : si32
  %pi = uop.index %in[%i] : !uop.ptr<f32, 128>, si32
  %v = uop.load %pi : !uop.ptr<f32, 128>
  %po = uop.index %out[%r] : !uop.ptr<f32, 128>, si32
  %s = uop.store %po, %v : !uop.ptr<f32, 128>
  uop.sink %s
}

// Writes out[r - 8]: the first 8 stores are before the start.
uop.kernel @write_before_start {
  %n = uop.const 128 : si32
  %r = uop.range %n axis 0 loop : si32
  %out = uop.define_global 0 : !uop.ptr<f32, 128>
  %in = uop.define_global 1 : !uop.ptr<f32, 128>
  %pi = uop.index %in[%r] : !uop.ptr<f32, 128>, si32
  %v = uop.load %pi : !uop.ptr<f32, 128>
  %c8 = uop.const 8 : si32
  %o = uop.sub %r, %c8 : si32
  %po = uop.index %out[%o] : !uop.ptr<f32, 128>, si32
  %s = uop.store %po, %v : !uop.ptr<f32, 128>
  uop.sink %s
}

// The two levels of the uop dialect, on one kernel: out[i] = sum_j in[i, j]
// for a 4x4 float input.

// Kernel AST, as tinygrad's scheduler produces it: VIEWs (ShapeTrackers) on
// the buffers, a REDUCE_AXIS over axis 1; shapes flow from the views.
uop.kernel @row_sum {
  %out = uop.define_global 0 : !uop.ptr<f32, 4>
  %out_v = uop.view %out [#uop.view<shape = [4, 1], strides = [1, 0]>] : !uop.ptr<f32, 4>
  %in = uop.define_global 1 : !uop.ptr<f32, 16>
  %in_v = uop.view %in [#uop.view<shape = [4, 4], strides = [4, 1]>] : !uop.ptr<f32, 16>
  %x = uop.load %in_v : !uop.ptr<f32, 16>
  %sum = uop.reduce_axis add %x [1] : f32
  %st = uop.store %out_v, %sum : !uop.ptr<f32, 4>
  uop.sink %st
}

// Lowered, as tinygrad's lowerer leaves it: one RANGE per axis (a global one
// for the rows, a reduce one for the columns), the views turned into index
// arithmetic on INDEX, REDUCE_AXIS turned into REDUCE over the reduce range.
uop.kernel @row_sum_lowered {
  %out = uop.define_global 0 : !uop.ptr<f32, 4>
  %in = uop.define_global 1 : !uop.ptr<f32, 16>
  %c4 = uop.const 4 : si32
  %i = uop.range %c4 axis 0 global : si32
  %j = uop.range %c4 axis 1 reduce : si32
  %row = uop.mul %i, %c4 : si32
  %idx = uop.add %row, %j : si32
  %in_p = uop.index %in[%idx] : !uop.ptr<f32, 16>, si32
  %x = uop.load %in_p : !uop.ptr<f32, 16>
  %sum = uop.reduce add %x [%j : si32] : f32
  %out_p = uop.index %out[%i] : !uop.ptr<f32, 4>, si32
  %st = uop.store %out_p, %sum : !uop.ptr<f32, 4>
  uop.sink %st
}

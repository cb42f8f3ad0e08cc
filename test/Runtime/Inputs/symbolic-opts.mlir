// Two symbolic kernels that tinygrad's heuristic optimizes (test/Runtime/symbolic-opts.test).
// row_sums: the sums of the first n columns of a 4x16 matrix.
uop.kernel @row_sums {
  %n = uop.define_var "n" [1, 16] : si32
  %out = uop.define_global 0 : !uop.ptr<f32, 4>
  %in = uop.define_global 1 : !uop.ptr<f32, 64>
  %vo = uop.view %out [#uop.view<shape = [4, 1], strides = [1, 0]>] : !uop.ptr<f32, 4>
  %vi = uop.view %in [#uop.view<shape = [4, 16], strides = [16, 1], sym = [shape[1] = n]>] : !uop.ptr<f32, 64>
  %x = uop.load %vi : !uop.ptr<f32, 64>
  %s = uop.reduce_axis add %x [1] : f32
  %st = uop.store %vo, %s : !uop.ptr<f32, 4>
  uop.sink %st
}
// transpose: exp2 of a contiguous 4 x n matrix (a symbolic stride), written
// as n x 4.
uop.kernel @transpose {
  %n = uop.define_var "n" [1, 16] : si32
  %out = uop.define_global 0 : !uop.ptr<f32, 64>
  %in = uop.define_global 1 : !uop.ptr<f32, 64>
  %vo = uop.view %out [#uop.view<shape = [4, 16], strides = [1, 4], sym = [shape[1] = n]>] : !uop.ptr<f32, 64>
  %vi = uop.view %in [#uop.view<shape = [4, 16], strides = [16, 1], sym = [shape[1] = n, strides[0] = n]>] : !uop.ptr<f32, 64>
  %x = uop.load %vi : !uop.ptr<f32, 64>
  %y = uop.exp2 %x : f32
  %st = uop.store %vo, %y : !uop.ptr<f32, 64>
  uop.sink %st
}
// grouped: the sums of the first n rows of a 16x32 matrix, with GROUP:0:8
// (eight threads per row share partial sums in shared memory, whose view
// keeps the symbolic row axis).
uop.kernel @grouped attributes {uop.opts = "GROUP:0:8"} {
  %n = uop.define_var "n" [1, 16] : si32
  %out = uop.define_global 0 : !uop.ptr<f32, 16>
  %in = uop.define_global 1 : !uop.ptr<f32, 512>
  %vo = uop.view %out [#uop.view<shape = [16, 1], strides = [1, 0], sym = [shape[0] = n]>] : !uop.ptr<f32, 16>
  %vi = uop.view %in [#uop.view<shape = [16, 32], strides = [32, 1], sym = [shape[0] = n]>] : !uop.ptr<f32, 512>
  %x = uop.load %vi : !uop.ptr<f32, 512>
  %s = uop.reduce_axis add %x [1] : f32
  %st = uop.store %vo, %s : !uop.ptr<f32, 16>
  uop.sink %st
}

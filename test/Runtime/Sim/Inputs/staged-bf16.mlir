// A bf16 matmul (16x8x32, A row-major, B row-major) for staged.test: a target
// that lists the bf16 tensor core, no opts of its own.
module attributes {uop.target = #uop.target<"sm_80", tensor_cores = [#uop.tensor_core<m = 16, n = 8, k = 16, dtype_in = bf16, dtype_out = f32>]>} {
uop.kernel @tc_bf16 {
  %out = uop.define_global 0 : !uop.ptr<f32, 128>
  %out_v = uop.view %out [#uop.view<shape = [16, 8, 1], strides = [8, 1, 0]>] : !uop.ptr<f32, 128>
  %a = uop.define_global 1 : !uop.ptr<bf16, 512>
  %a_v = uop.view %a [#uop.view<shape = [16, 8, 32], strides = [32, 0, 1]>] : !uop.ptr<bf16, 512>
  %b = uop.define_global 2 : !uop.ptr<bf16, 256>
  %b_v = uop.view %b [#uop.view<shape = [16, 8, 32], strides = [0, 1, 8]>] : !uop.ptr<bf16, 256>
  %x = uop.load %a_v : !uop.ptr<bf16, 512>
  %y = uop.load %b_v : !uop.ptr<bf16, 256>
  %m = uop.mul %x, %y : bf16
  %f = uop.cast %m : bf16 -> f32
  %sum = uop.reduce_axis add %f [2] : f32
  %st = uop.store %out_v, %sum : !uop.ptr<f32, 128>
  uop.sink %st
}
}

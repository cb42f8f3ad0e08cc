// A 128x64x128 bf16 matmul accumulating in f32 (A and B row-major), for
// wgmma-schedule.test: a target that lists the bf16 tensor core, no opts.
module attributes {uop.target = #uop.target<"sm_90a", tensor_cores = [#uop.tensor_core<m = 16, n = 8, k = 16, dtype_in = bf16, dtype_out = f32>]>} {
uop.kernel @mmb {
  %out = uop.define_global 0 : !uop.ptr<f32, 8192>
  %out_v = uop.view %out [#uop.view<shape = [128, 64, 1], strides = [64, 1, 0]>] : !uop.ptr<f32, 8192>
  %a = uop.define_global 1 : !uop.ptr<bf16, 16384>
  %a_v = uop.view %a [#uop.view<shape = [128, 64, 128], strides = [128, 0, 1]>] : !uop.ptr<bf16, 16384>
  %b = uop.define_global 2 : !uop.ptr<bf16, 8192>
  %b_v = uop.view %b [#uop.view<shape = [128, 64, 128], strides = [0, 1, 64]>] : !uop.ptr<bf16, 8192>
  %x = uop.load %a_v : !uop.ptr<bf16, 16384>
  %y = uop.load %b_v : !uop.ptr<bf16, 8192>
  %m = uop.mul %x, %y : bf16
  %f = uop.cast %m : bf16 -> f32
  %sum = uop.reduce_axis add %f [2] : f32
  %st = uop.store %out_v, %sum : !uop.ptr<f32, 8192>
  uop.sink %st
}
}

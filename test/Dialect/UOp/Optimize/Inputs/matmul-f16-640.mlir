// A 640x640 f16 matmul, K = 128, f32 accumulators (A, B row-major), for
// staged-warps.test: a grid of 50 128x64 blocks.
module attributes {uop.target = #uop.target<"sm_80">} {
uop.kernel @matmul_640 {
  %out = uop.define_global 0 : !uop.ptr<f32, 409600>
  %out_v = uop.view %out [#uop.view<shape = [640, 640, 1], strides = [640, 1, 0]>] : !uop.ptr<f32, 409600>
  %a = uop.define_global 1 : !uop.ptr<f16, 81920>
  %a_v = uop.view %a [#uop.view<shape = [640, 640, 128], strides = [128, 0, 1]>] : !uop.ptr<f16, 81920>
  %b = uop.define_global 2 : !uop.ptr<f16, 81920>
  %b_v = uop.view %b [#uop.view<shape = [640, 640, 128], strides = [0, 1, 640]>] : !uop.ptr<f16, 81920>
  %x = uop.load %a_v : !uop.ptr<f16, 81920>
  %y = uop.load %b_v : !uop.ptr<f16, 81920>
  %m = uop.mul %x, %y : f16
  %f = uop.cast %m : f16 -> f32
  %sum = uop.reduce_axis add %f [2] : f32
  %st = uop.store %out_v, %sum : !uop.ptr<f32, 409600>
  uop.sink %st
}
}

// An f16 matmul whose M (72) is no multiple of the tensor core's 16, for
// staged.test: padded (by TC's level 2 or PADTO), A's last tile runs past
// the end of its buffer. 72x64 = 4608 outputs, K = 64, A and B row-major.
module attributes {uop.target = #uop.target<"sm_80">} {
uop.kernel @padded_m {
  %out = uop.define_global 0 : !uop.ptr<f32, 4608>
  %out_v = uop.view %out [#uop.view<shape = [72, 64, 1], strides = [64, 1, 0]>] : !uop.ptr<f32, 4608>
  %a = uop.define_global 1 : !uop.ptr<f16, 4608>
  %a_v = uop.view %a [#uop.view<shape = [72, 64, 64], strides = [64, 0, 1]>] : !uop.ptr<f16, 4608>
  %b = uop.define_global 2 : !uop.ptr<f16, 4096>
  %b_v = uop.view %b [#uop.view<shape = [72, 64, 64], strides = [0, 1, 64]>] : !uop.ptr<f16, 4096>
  %x = uop.load %a_v : !uop.ptr<f16, 4608>
  %y = uop.load %b_v : !uop.ptr<f16, 4096>
  %m = uop.mul %x, %y : f16
  %f = uop.cast %m : f16 -> f32
  %sum = uop.reduce_axis add %f [2] : f32
  %st = uop.store %out_v, %sum : !uop.ptr<f32, 4608>
  uop.sink %st
}
}

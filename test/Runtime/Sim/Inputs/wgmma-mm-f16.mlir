// A 256x128x256 f16 matmul accumulating in f32 (A and B row-major), for
// wgmma-schedule.test: no target or opts of its own.
module {
uop.kernel @mm {
  %out = uop.define_global 0 : !uop.ptr<f32, 32768>
  %out_v = uop.view %out [#uop.view<shape = [256, 128, 1], strides = [128, 1, 0]>] : !uop.ptr<f32, 32768>
  %a = uop.define_global 1 : !uop.ptr<f16, 65536>
  %a_v = uop.view %a [#uop.view<shape = [256, 128, 256], strides = [256, 0, 1]>] : !uop.ptr<f16, 65536>
  %b = uop.define_global 2 : !uop.ptr<f16, 32768>
  %b_v = uop.view %b [#uop.view<shape = [256, 128, 256], strides = [0, 1, 128]>] : !uop.ptr<f16, 32768>
  %x = uop.load %a_v : !uop.ptr<f16, 65536>
  %y = uop.load %b_v : !uop.ptr<f16, 32768>
  %m = uop.mul %x, %y : f16
  %f = uop.cast %m : f16 -> f32
  %sum = uop.reduce_axis add %f [2] : f32
  %st = uop.store %out_v, %sum : !uop.ptr<f32, 32768>
  uop.sink %st
}
}

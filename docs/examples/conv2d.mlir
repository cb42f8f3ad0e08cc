// tinygrad's conv2d kernel (../shared/corpus/conv2d/k0.json): a 3x3 convolution,
// padding 1, 3 input channels, 4 output channels, on a 10x10 image.
// Buffer 1 (the 3x10x10 input) is read through a two-view ShapeTracker: the
// first view pads (offset -11 and the mask [1, 11) on the spatial axes), the
// second gathers the 3x3 windows. REDUCE_AXIS sums the last three axes
// (input channel and the two kernel axes); the output view has them as 1.
uop.kernel @conv2d_k0 {
  %0 = uop.define_global 0 : !uop.ptr<f32, 400>
  %1 = uop.view %0 [#uop.view<shape = [1, 1, 4, 10, 10, 1, 1, 1], strides = [0, 0, 100, 10, 1, 0, 0, 0]>] : !uop.ptr<f32, 400>
  %2 = uop.define_global 1 : !uop.ptr<f32, 300>
  %3 = uop.view %2 [#uop.view<shape = [1, 1, 1, 3, 4, 12, 4, 12], strides = [0, 0, 0, 100, 0, 10, 0, 1], offset = -11, mask = [[0, 1], [0, 1], [0, 1], [0, 3], [0, 4], [1, 11], [0, 4], [1, 11]]>, #uop.view<shape = [1, 1, 4, 10, 10, 3, 3, 3], strides = [0, 0, 0, 48, 1, 2304, 624, 13]>] : !uop.ptr<f32, 300>
  %4 = uop.load %3 : !uop.ptr<f32, 300>
  %5 = uop.define_global 2 : !uop.ptr<f32, 108>
  %6 = uop.view %5 [#uop.view<shape = [1, 1, 4, 10, 10, 3, 3, 3], strides = [0, 0, 27, 0, 0, 9, 3, 1]>] : !uop.ptr<f32, 108>
  %7 = uop.load %6 : !uop.ptr<f32, 108>
  %8 = uop.mul %4, %7 : f32
  %9 = uop.reduce_axis add %8 [5, 6, 7] : f32
  %10 = uop.store %1, %9 : !uop.ptr<f32, 400>
  uop.sink %10
}

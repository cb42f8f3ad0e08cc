// Real kernel ASTs from ../shared/corpus (conv2d/k0, arange/k0, int_arith/k0,
// matmul_f16_acc_f32/k0), written in the uop dialect. They use multi-view
// ShapeTrackers with masks and a negative offset (conv2d's padding), VALID of
// a source-less view (arange), signed integer division and modulo
// (int_arith), and half loads accumulated in float (matmul). Printing must
// reproduce the input exactly, and the generic form must parse back.
// RUN: uop-opt %s | FileCheck %s
// RUN: uop-opt %s --mlir-print-op-generic | uop-opt | FileCheck %s

// CHECK-LABEL: uop.kernel @conv2d_k0
uop.kernel @conv2d_k0 {
// CHECK-NEXT: %0 = uop.define_global 0 : !uop.ptr<f32, 400>
  %0 = uop.define_global 0 : !uop.ptr<f32, 400>
// CHECK-NEXT: %1 = uop.view %0 [#uop.view<shape = [1, 1, 4, 10, 10, 1, 1, 1], strides = [0, 0, 100, 10, 1, 0, 0, 0]>] : !uop.ptr<f32, 400>
  %1 = uop.view %0 [#uop.view<shape = [1, 1, 4, 10, 10, 1, 1, 1], strides = [0, 0, 100, 10, 1, 0, 0, 0]>] : !uop.ptr<f32, 400>
// CHECK-NEXT: %2 = uop.define_global 1 : !uop.ptr<f32, 300>
  %2 = uop.define_global 1 : !uop.ptr<f32, 300>
// CHECK-NEXT: %3 = uop.view %2 [#uop.view<shape = [1, 1, 1, 3, 4, 12, 4, 12], strides = [0, 0, 0, 100, 0, 10, 0, 1], offset = -11, mask = {{\[\[}}0, 1], [0, 1], [0, 1], [0, 3], [0, 4], [1, 11], [0, 4], [1, 11]]>, #uop.view<shape = [1, 1, 4, 10, 10, 3, 3, 3], strides = [0, 0, 0, 48, 1, 2304, 624, 13]>] : !uop.ptr<f32, 300>
  %3 = uop.view %2 [#uop.view<shape = [1, 1, 1, 3, 4, 12, 4, 12], strides = [0, 0, 0, 100, 0, 10, 0, 1], offset = -11, mask = [[0, 1], [0, 1], [0, 1], [0, 3], [0, 4], [1, 11], [0, 4], [1, 11]]>, #uop.view<shape = [1, 1, 4, 10, 10, 3, 3, 3], strides = [0, 0, 0, 48, 1, 2304, 624, 13]>] : !uop.ptr<f32, 300>
// CHECK-NEXT: %4 = uop.load %3 : !uop.ptr<f32, 300>
  %4 = uop.load %3 : !uop.ptr<f32, 300>
// CHECK-NEXT: %5 = uop.define_global 2 : !uop.ptr<f32, 108>
  %5 = uop.define_global 2 : !uop.ptr<f32, 108>
// CHECK-NEXT: %6 = uop.view %5 [#uop.view<shape = [1, 1, 4, 10, 10, 3, 3, 3], strides = [0, 0, 27, 0, 0, 9, 3, 1]>] : !uop.ptr<f32, 108>
  %6 = uop.view %5 [#uop.view<shape = [1, 1, 4, 10, 10, 3, 3, 3], strides = [0, 0, 27, 0, 0, 9, 3, 1]>] : !uop.ptr<f32, 108>
// CHECK-NEXT: %7 = uop.load %6 : !uop.ptr<f32, 108>
  %7 = uop.load %6 : !uop.ptr<f32, 108>
// CHECK-NEXT: %8 = uop.mul %4, %7 : f32
  %8 = uop.mul %4, %7 : f32
// CHECK-NEXT: %9 = uop.reduce_axis add %8 [5, 6, 7] : f32
  %9 = uop.reduce_axis add %8 [5, 6, 7] : f32
// CHECK-NEXT: %10 = uop.store %1, %9 : !uop.ptr<f32, 400>
  %10 = uop.store %1, %9 : !uop.ptr<f32, 400>
// CHECK-NEXT: uop.sink %10
  uop.sink %10
}
// CHECK-LABEL: uop.kernel @arange_k0
uop.kernel @arange_k0 {
// CHECK-NEXT: %0 = uop.define_global 0 : !uop.ptr<f32, 37>
  %0 = uop.define_global 0 : !uop.ptr<f32, 37>
// CHECK-NEXT: %1 = uop.view %0 [#uop.view<shape = [37, 1], strides = [1, 0]>] : !uop.ptr<f32, 37>
  %1 = uop.view %0 [#uop.view<shape = [37, 1], strides = [1, 0]>] : !uop.ptr<f32, 37>
// CHECK-NEXT: %2 = uop.view [#uop.view<shape = [38, 73], strides = [0, 0], mask = {{\[\[}}0, 38], [36, 73]]>, #uop.view<shape = [37, 37], strides = [1, 74]>] : !uop.void
  %2 = uop.view [#uop.view<shape = [38, 73], strides = [0, 0], mask = [[0, 38], [36, 73]]>, #uop.view<shape = [37, 37], strides = [1, 74]>] : !uop.void
// CHECK-NEXT: %3 = uop.valid %2
  %3 = uop.valid %2
// CHECK-NEXT: %4 = uop.view [#uop.view<shape = [37, 37], strides = [0, 0]>] : !uop.void
  %4 = uop.view [#uop.view<shape = [37, 37], strides = [0, 0]>] : !uop.void
// CHECK-NEXT: %5 = uop.shaped_const %4, 1 : si32
  %5 = uop.shaped_const %4, 1 : si32
// CHECK-NEXT: %6 = uop.shaped_const %4, 0 : si32
  %6 = uop.shaped_const %4, 0 : si32
// CHECK-NEXT: %7 = uop.where %3, %5, %6 : si32
  %7 = uop.where %3, %5, %6 : si32
// CHECK-NEXT: %8 = uop.reduce_axis add %7 [1] : si32
  %8 = uop.reduce_axis add %7 [1] : si32
// CHECK-NEXT: %9 = uop.view [#uop.view<shape = [37, 1], strides = [0, 0]>] : !uop.void
  %9 = uop.view [#uop.view<shape = [37, 1], strides = [0, 0]>] : !uop.void
// CHECK-NEXT: %10 = uop.shaped_const %9, -1 : si32
  %10 = uop.shaped_const %9, -1 : si32
// CHECK-NEXT: %11 = uop.add %8, %10 : si32
  %11 = uop.add %8, %10 : si32
// CHECK-NEXT: %12 = uop.cast %11 : si32 -> f32
  %12 = uop.cast %11 : si32 -> f32
// CHECK-NEXT: %13 = uop.shaped_const %9, 5.000000e-01 : f32
  %13 = uop.shaped_const %9, 5.000000e-01 : f32
// CHECK-NEXT: %14 = uop.mul %12, %13 : f32
  %14 = uop.mul %12, %13 : f32
// CHECK-NEXT: %15 = uop.store %1, %14 : !uop.ptr<f32, 37>
  %15 = uop.store %1, %14 : !uop.ptr<f32, 37>
// CHECK-NEXT: uop.sink %15
  uop.sink %15
}
// CHECK-LABEL: uop.kernel @int_arith_k0
uop.kernel @int_arith_k0 {
// CHECK-NEXT: %0 = uop.define_global 0 : !uop.ptr<si32, 30>
  %0 = uop.define_global 0 : !uop.ptr<si32, 30>
// CHECK-NEXT: %1 = uop.view %0 [#uop.view<shape = [30], strides = [1]>] : !uop.ptr<si32, 30>
  %1 = uop.view %0 [#uop.view<shape = [30], strides = [1]>] : !uop.ptr<si32, 30>
// CHECK-NEXT: %2 = uop.define_global 1 : !uop.ptr<si32, 30>
  %2 = uop.define_global 1 : !uop.ptr<si32, 30>
// CHECK-NEXT: %3 = uop.view %2 [#uop.view<shape = [30], strides = [1]>] : !uop.ptr<si32, 30>
  %3 = uop.view %2 [#uop.view<shape = [30], strides = [1]>] : !uop.ptr<si32, 30>
// CHECK-NEXT: %4 = uop.load %3 : !uop.ptr<si32, 30>
  %4 = uop.load %3 : !uop.ptr<si32, 30>
// CHECK-NEXT: %5 = uop.view [#uop.view<shape = [30], strides = [0]>] : !uop.void
  %5 = uop.view [#uop.view<shape = [30], strides = [0]>] : !uop.void
// CHECK-NEXT: %6 = uop.shaped_const %5, 3 : si32
  %6 = uop.shaped_const %5, 3 : si32
// CHECK-NEXT: %7 = uop.mul %4, %6 : si32
  %7 = uop.mul %4, %6 : si32
// CHECK-NEXT: %8 = uop.shaped_const %5, 7 : si32
  %8 = uop.shaped_const %5, 7 : si32
// CHECK-NEXT: %9 = uop.add %7, %8 : si32
  %9 = uop.add %7, %8 : si32
// CHECK-NEXT: %10 = uop.shaped_const %5, 0 : si32
  %10 = uop.shaped_const %5, 0 : si32
// CHECK-NEXT: %11 = uop.cmplt %9, %10 : si32
  %11 = uop.cmplt %9, %10 : si32
// CHECK-NEXT: %12 = uop.shaped_const %5, 4 : si32
  %12 = uop.shaped_const %5, 4 : si32
// CHECK-NEXT: %13 = uop.mod %9, %12 : si32
  %13 = uop.mod %9, %12 : si32
// CHECK-NEXT: %14 = uop.cmpne %13, %10 : si32
  %14 = uop.cmpne %13, %10 : si32
// CHECK-NEXT: %15 = uop.and %11, %14 : i1
  %15 = uop.and %11, %14 : i1
// CHECK-NEXT: %16 = uop.idiv %9, %12 : si32
  %16 = uop.idiv %9, %12 : si32
// CHECK-NEXT: %17 = uop.shaped_const %5, -1 : si32
  %17 = uop.shaped_const %5, -1 : si32
// CHECK-NEXT: %18 = uop.add %16, %17 : si32
  %18 = uop.add %16, %17 : si32
// CHECK-NEXT: %19 = uop.where %15, %18, %16 : si32
  %19 = uop.where %15, %18, %16 : si32
// CHECK-NEXT: %20 = uop.store %1, %19 : !uop.ptr<si32, 30>
  %20 = uop.store %1, %19 : !uop.ptr<si32, 30>
// CHECK-NEXT: uop.sink %20
  uop.sink %20
}
// CHECK-LABEL: uop.kernel @matmul_f16_acc_f32_k0
uop.kernel @matmul_f16_acc_f32_k0 {
// CHECK-NEXT: %0 = uop.define_global 0 : !uop.ptr<f32, 4096>
  %0 = uop.define_global 0 : !uop.ptr<f32, 4096>
// CHECK-NEXT: %1 = uop.view %0 [#uop.view<shape = [64, 64, 1], strides = [64, 1, 0]>] : !uop.ptr<f32, 4096>
  %1 = uop.view %0 [#uop.view<shape = [64, 64, 1], strides = [64, 1, 0]>] : !uop.ptr<f32, 4096>
// CHECK-NEXT: %2 = uop.define_global 1 : !uop.ptr<f16, 4096>
  %2 = uop.define_global 1 : !uop.ptr<f16, 4096>
// CHECK-NEXT: %3 = uop.view %2 [#uop.view<shape = [64, 64, 64], strides = [64, 0, 1]>] : !uop.ptr<f16, 4096>
  %3 = uop.view %2 [#uop.view<shape = [64, 64, 64], strides = [64, 0, 1]>] : !uop.ptr<f16, 4096>
// CHECK-NEXT: %4 = uop.load %3 : !uop.ptr<f16, 4096>
  %4 = uop.load %3 : !uop.ptr<f16, 4096>
// CHECK-NEXT: %5 = uop.define_global 2 : !uop.ptr<f16, 4096>
  %5 = uop.define_global 2 : !uop.ptr<f16, 4096>
// CHECK-NEXT: %6 = uop.view %5 [#uop.view<shape = [64, 64, 64], strides = [0, 1, 64]>] : !uop.ptr<f16, 4096>
  %6 = uop.view %5 [#uop.view<shape = [64, 64, 64], strides = [0, 1, 64]>] : !uop.ptr<f16, 4096>
// CHECK-NEXT: %7 = uop.load %6 : !uop.ptr<f16, 4096>
  %7 = uop.load %6 : !uop.ptr<f16, 4096>
// CHECK-NEXT: %8 = uop.mul %4, %7 : f16
  %8 = uop.mul %4, %7 : f16
// CHECK-NEXT: %9 = uop.cast %8 : f16 -> f32
  %9 = uop.cast %8 : f16 -> f32
// CHECK-NEXT: %10 = uop.reduce_axis add %9 [2] : f32
  %10 = uop.reduce_axis add %9 [2] : f32
// CHECK-NEXT: %11 = uop.store %1, %10 : !uop.ptr<f32, 4096>
  %11 = uop.store %1, %10 : !uop.ptr<f32, 4096>
// CHECK-NEXT: uop.sink %11
  uop.sink %11
}

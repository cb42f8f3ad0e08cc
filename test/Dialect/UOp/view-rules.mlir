// The scheduler's VIEW and REDUCE_AXIS rules (ViewRules.cpp) on the tensor
// graph.
// RUN: uop-opt %s --canonicalize="test-convergence=true" | FileCheck %s

// Adjacent VIEWs merge (a contiguous inner view drops out); a contiguous
// VIEW that keeps the shape is its source. A transpose of a transpose stays
// two views (tinygrad's View.__add__ is not reproduced); a masked view stays.
// CHECK-LABEL: func.func @views
// CHECK-DAG: %[[B:.*]] = uop.view %arg0 [#uop.view<shape = [2, 8], strides = [8, 1]>] : tensor<16xf32> -> tensor<2x8xf32>
// CHECK-DAG: %[[TT:.*]] = uop.view %arg1 [#uop.view<shape = [4, 4], strides = [1, 4]>, #uop.view<shape = [4, 4], strides = [1, 4]>] : tensor<4x4xf32>
// CHECK-DAG: %[[M:.*]] = uop.view %arg1 [#uop.view<shape = [4, 4], strides = [4, 1], mask = {{\[\[}}0, 2], [0, 4]]>] : tensor<4x4xf32>
// CHECK: return %[[B]], %arg1, %[[TT]], %[[M]] :
func.func @views(%x: tensor<16xf32>, %y: tensor<4x4xf32>) -> (tensor<2x8xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) {
  %a = uop.view %x [#uop.view<shape = [4, 4], strides = [4, 1]>] : tensor<16xf32> -> tensor<4x4xf32>
  %b = uop.view %a [#uop.view<shape = [2, 8], strides = [8, 1]>] : tensor<4x4xf32> -> tensor<2x8xf32>
  %n = uop.view %y [#uop.view<shape = [4, 4], strides = [4, 1]>] : tensor<4x4xf32> -> tensor<4x4xf32>
  %t = uop.view %y [#uop.view<shape = [4, 4], strides = [1, 4]>] : tensor<4x4xf32> -> tensor<4x4xf32>
  %tt = uop.view %t [#uop.view<shape = [4, 4], strides = [1, 4]>] : tensor<4x4xf32> -> tensor<4x4xf32>
  %m = uop.view %y [#uop.view<shape = [4, 4], strides = [4, 1], offset = 0, mask = [[0, 2], [0, 4]]>] : tensor<4x4xf32> -> tensor<4x4xf32>
  return %b, %n, %tt, %m : tensor<2x8xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>
}

// Reduce over broadcast (stride-0) axes: ADD is x * n (ints too), MAX is x;
// MUL stays (x ** n is not folded). A reduce over no elements is the
// identity (-inf for MAX). A stride-0 VIEW is reduced the same way; under a
// mask it is not.
// CHECK-LABEL: func.func @reduces
// CHECK-DAG: %[[N8I:.*]] = uop.const dense<8> : tensor<4x1xsi32>
// CHECK-DAG: %[[NINF:.*]] = uop.const dense<0xFF800000> : tensor<4x1xf32>
// CHECK-DAG: %[[N8:.*]] = uop.const dense<8.000000e+00> : tensor<4x1xf32>
// CHECK-DAG: %[[SUM:.*]] = uop.mul %arg0, %[[N8]] : tensor<4x1xf32>
// CHECK-DAG: %[[PROD:.*]] = uop.reduce_axis mul %{{.*}} [1] : tensor<4x8xf32>
// CHECK-DAG: %[[SUMI:.*]] = uop.mul %arg2, %[[N8I]] : tensor<4x1xsi32>
// CHECK-DAG: %[[V1:.*]] = uop.view %arg3 [#uop.view<shape = [4, 1], strides = [1, 0]>] : tensor<4xf32> -> tensor<4x1xf32>
// CHECK-DAG: %[[SUMV:.*]] = uop.mul %[[V1]], %[[N8]] : tensor<4x1xf32>
// CHECK-DAG: %[[SUMM:.*]] = uop.reduce_axis add %{{.*}} [1] : tensor<4x8xf32>
// CHECK: return %[[SUM]], %arg0, %[[PROD]], %[[NINF]], %[[SUMI]], %[[SUMV]], %[[SUMM]] :
func.func @reduces(%x: tensor<4x1xf32>, %z: tensor<4x0xf32>, %i: tensor<4x1xsi32>, %s: tensor<4xf32>) -> (tensor<4x1xf32>, tensor<4x1xf32>, tensor<4x1xf32>, tensor<4x1xf32>, tensor<4x1xsi32>, tensor<4x1xf32>, tensor<4x1xf32>) {
  %e = uop.expand %x : tensor<4x1xf32> -> tensor<4x8xf32>
  %sum = uop.reduce_axis add %e [1] : tensor<4x8xf32>
  %max = uop.reduce_axis max %e [1] : tensor<4x8xf32>
  %prod = uop.reduce_axis mul %e [1] : tensor<4x8xf32>
  %empty = uop.reduce_axis max %z [1] : tensor<4x0xf32>
  %ei = uop.expand %i : tensor<4x1xsi32> -> tensor<4x8xsi32>
  %sumi = uop.reduce_axis add %ei [1] : tensor<4x8xsi32>
  %v = uop.view %s [#uop.view<shape = [4, 8], strides = [1, 0]>] : tensor<4xf32> -> tensor<4x8xf32>
  %sumv = uop.reduce_axis add %v [1] : tensor<4x8xf32>
  %vm = uop.view %s [#uop.view<shape = [4, 8], strides = [1, 0], offset = 0, mask = [[0, 4], [0, 4]]>] : tensor<4xf32> -> tensor<4x8xf32>
  %summ = uop.reduce_axis add %vm [1] : tensor<4x8xf32>
  return %sum, %max, %prod, %empty, %sumi, %sumv, %summ : tensor<4x1xf32>, tensor<4x1xf32>, tensor<4x1xf32>, tensor<4x1xf32>, tensor<4x1xsi32>, tensor<4x1xf32>, tensor<4x1xf32>
}

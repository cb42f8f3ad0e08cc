// uop-lower: tinygrad's lowerer, one feature of a view per kernel.
// RUN: uop-opt %s --uop-lower --split-input-file --verify-diagnostics | FileCheck %s

// A reduce: one range per axis of the full shape, reduce for the reduced axis;
// REDUCE_AXIS becomes REDUCE over its range. The index math is hash-consed
// as tinygrad's UOps are: the ranges' ends and the row stride are one
// constant.
// CHECK-LABEL: uop.kernel @reduce
// CHECK: %[[C4:.*]] = uop.const 4 : si32
// CHECK-DAG: %[[R0:.*]] = uop.range %[[C4]] axis 0 global : si32
// CHECK-DAG: %[[R1:.*]] = uop.range %[[C4]] axis 1 reduce : si32
// CHECK-DAG: %[[OUT:.*]] = uop.define_global 0
// CHECK-DAG: %[[IN:.*]] = uop.define_global 1
// CHECK-NOT: uop.const 4
// CHECK: %[[ROW:.*]] = uop.mul %[[R0]], %[[C4]] : si32
// CHECK: %[[I0:.*]] = uop.add %{{.*}}, %[[ROW]] : si32
// CHECK: %[[I:.*]] = uop.add %[[I0]], %[[R1]] : si32
// CHECK: %[[P:.*]] = uop.index %[[IN]][%[[I]]] : !uop.ptr<f32, 16>, si32
// CHECK: %[[X:.*]] = uop.load %[[P]] : !uop.ptr<f32, 16>
// CHECK: %[[S:.*]] = uop.reduce add %[[X]] [%[[R1]] : si32] : f32
// CHECK: %[[O:.*]] = uop.add %{{.*}}, %[[R0]] : si32
// CHECK: %[[Q:.*]] = uop.index %[[OUT]][%[[O]]] : !uop.ptr<f32, 4>, si32
// CHECK: uop.store %[[Q]], %[[S]] : !uop.ptr<f32, 4>
// CHECK-NOT: uop.view
uop.kernel @reduce {
  %out = uop.define_global 0 : !uop.ptr<f32, 4>
  %ov = uop.view %out [#uop.view<shape = [4, 1], strides = [1, 0]>] : !uop.ptr<f32, 4>
  %in = uop.define_global 1 : !uop.ptr<f32, 16>
  %iv = uop.view %in [#uop.view<shape = [4, 4], strides = [4, 1]>] : !uop.ptr<f32, 16>
  %x = uop.load %iv : !uop.ptr<f32, 16>
  %s = uop.reduce_axis add %x [1] : f32
  %st = uop.store %ov, %s : !uop.ptr<f32, 4>
  uop.sink %st
}

// -----

// A permute is strides in another order: element (i, j) is at i + 4 * j.
// CHECK-LABEL: uop.kernel @permute
// CHECK: %[[C4:.*]] = uop.const 4 : si32
// CHECK-DAG: %[[R0:.*]] = uop.range %[[C4]] axis 0 global
// CHECK-DAG: %[[R1:.*]] = uop.range %[[C4]] axis 1 global
// CHECK: %[[A:.*]] = uop.add %{{.*}}, %[[R0]] : si32
// CHECK: %[[M:.*]] = uop.mul %[[R1]], %[[C4]] : si32
// CHECK: %[[I:.*]] = uop.add %[[A]], %[[M]] : si32
// CHECK: uop.index %{{.*}}[%[[I]]] : !uop.ptr<f32, 16>, si32
uop.kernel @permute {
  %out = uop.define_global 0 : !uop.ptr<f32, 16>
  %ov = uop.view %out [#uop.view<shape = [4, 4], strides = [4, 1]>] : !uop.ptr<f32, 16>
  %in = uop.define_global 1 : !uop.ptr<f32, 16>
  %iv = uop.view %in [#uop.view<shape = [4, 4], strides = [1, 4]>] : !uop.ptr<f32, 16>
  %x = uop.load %iv : !uop.ptr<f32, 16>
  %st = uop.store %ov, %x : !uop.ptr<f32, 16>
  uop.sink %st
}

// -----

// An expand has stride 0: that range does not appear in the index.
// CHECK-LABEL: uop.kernel @expand
// CHECK-DAG: %[[R0:.*]] = uop.range %{{.*}} axis 0 global
// CHECK-DAG: %[[R1:.*]] = uop.range %{{.*}} axis 1 global
// CHECK-DAG: %[[IN:.*]] = uop.define_global 1
// CHECK: %[[I:.*]] = uop.add %{{.*}}, %[[R1]] : si32
// CHECK-NEXT: uop.index %[[IN]][%[[I]]] : !uop.ptr<f32, 4>, si32
uop.kernel @expand {
  %out = uop.define_global 0 : !uop.ptr<f32, 12>
  %ov = uop.view %out [#uop.view<shape = [3, 4], strides = [4, 1]>] : !uop.ptr<f32, 12>
  %in = uop.define_global 1 : !uop.ptr<f32, 4>
  %iv = uop.view %in [#uop.view<shape = [3, 4], strides = [0, 1]>] : !uop.ptr<f32, 4>
  %x = uop.load %iv : !uop.ptr<f32, 4>
  %st = uop.store %ov, %x : !uop.ptr<f32, 12>
  uop.sink %st
}

// -----

// A pad is a negative offset and a mask: the index is gated by
// (i >= 1) and (i < 5), and the gated load reads 0 outside.
// CHECK-LABEL: uop.kernel @pad
// CHECK: %[[R0:.*]] = uop.range %{{.*}} axis 0 global
// CHECK: %[[OFF:.*]] = uop.const -1 : si32
// CHECK: %[[I:.*]] = uop.add %[[OFF]], %[[R0]] : si32
// CHECK: %[[C1:.*]] = uop.const 1 : si32
// CHECK: %[[BELOW:.*]] = uop.cmplt %[[R0]], %[[C1]] : si32
// CHECK: %[[TRUE:.*]] = uop.const true
// CHECK: %[[GE:.*]] = uop.cmpne %[[BELOW]], %[[TRUE]] : i1
// CHECK: %[[C5:.*]] = uop.const 5 : si32
// CHECK: %[[LT:.*]] = uop.cmplt %[[R0]], %[[C5]] : si32
// CHECK: %[[OK:.*]] = uop.and %[[GE]], %[[LT]] : i1
// CHECK: %[[P:.*]] = uop.index %{{.*}}[%[[I]]] gate %[[OK]] : i1 : !uop.ptr<f32, 4>, si32
// CHECK: %[[Z:.*]] = uop.const 0.000000e+00 : f32
// CHECK: uop.load %[[P]] alt %[[Z]] : f32 : !uop.ptr<f32, 4>
uop.kernel @pad {
  %out = uop.define_global 0 : !uop.ptr<f32, 6>
  %ov = uop.view %out [#uop.view<shape = [6], strides = [1]>] : !uop.ptr<f32, 6>
  %in = uop.define_global 1 : !uop.ptr<f32, 4>
  %iv = uop.view %in [#uop.view<shape = [6], strides = [1], offset = -1, mask = [[1, 5]]>] : !uop.ptr<f32, 4>
  %x = uop.load %iv : !uop.ptr<f32, 4>
  %st = uop.store %ov, %x : !uop.ptr<f32, 6>
  uop.sink %st
}

// -----

// A view masked to nothing in one dimension (the copy of a tile past the
// reduce's end) reads nothing anywhere: its gate is the constant false, not a
// comparison per axis that would tie the load to every range.
// CHECK-LABEL: uop.kernel @masked_to_nothing
// CHECK: %[[F:.*]] = uop.const false
// CHECK: %[[P:.*]] = uop.index %{{.*}}[%{{.*}}] gate %[[F]] : i1 : !uop.ptr<f32, 4>, si32
// CHECK-NOT: uop.cmplt
// CHECK: uop.load %[[P]] alt
uop.kernel @masked_to_nothing {
  %out = uop.define_global 0 : !uop.ptr<f32, 24>
  %ov = uop.view %out [#uop.view<shape = [6, 4], strides = [4, 1]>] : !uop.ptr<f32, 24>
  %in = uop.define_global 1 : !uop.ptr<f32, 4>
  %iv = uop.view %in [#uop.view<shape = [6, 4], strides = [0, 0], mask = [[0, 0], [0, 0]]>] : !uop.ptr<f32, 4>
  %x = uop.load %iv : !uop.ptr<f32, 4>
  %st = uop.store %ov, %x : !uop.ptr<f32, 24>
  uop.sink %st
}

// -----

// A shrink is an offset; a flip a negative stride from the far end.
// CHECK-LABEL: uop.kernel @shrink_flip
// CHECK: %[[R0:.*]] = uop.range %{{.*}} axis 0 global
// CHECK: %[[C1:.*]] = uop.const 1 : si32
// CHECK: %[[SI:.*]] = uop.add %[[C1]], %[[R0]] : si32
// CHECK: uop.index %{{.*}}[%[[SI]]]
// CHECK: %[[C3:.*]] = uop.const 3 : si32
// CHECK: %[[CM1:.*]] = uop.const -1 : si32
// CHECK: %[[NEG:.*]] = uop.mul %[[R0]], %[[CM1]] : si32
// CHECK: %[[FI:.*]] = uop.add %[[C3]], %[[NEG]] : si32
// CHECK: uop.index %{{.*}}[%[[FI]]]
uop.kernel @shrink_flip {
  %out = uop.define_global 0 : !uop.ptr<f32, 4>
  %ov = uop.view %out [#uop.view<shape = [4], strides = [1]>] : !uop.ptr<f32, 4>
  %a = uop.define_global 1 : !uop.ptr<f32, 6>
  %av = uop.view %a [#uop.view<shape = [4], strides = [1], offset = 1>] : !uop.ptr<f32, 6>
  %x = uop.load %av : !uop.ptr<f32, 6>
  %b = uop.define_global 2 : !uop.ptr<f32, 4>
  %bv = uop.view %b [#uop.view<shape = [4], strides = [-1], offset = 3>] : !uop.ptr<f32, 4>
  %y = uop.load %bv : !uop.ptr<f32, 4>
  %z = uop.add %x, %y : f32
  %st = uop.store %ov, %z : !uop.ptr<f32, 4>
  uop.sink %st
}

// -----

// Multi-view (arange's ShapeTracker): the last view's flat index is unravelled
// into the first view's shape [38, 73] with (flat / 73) % 38 and flat % 73,
// and the first view's mask applies to those; what nothing reads is dropped. VALID is that validity; a CONST
// under an unmasked view is just the constant.
// CHECK-LABEL: uop.kernel @multiview
// CHECK-DAG: %[[R0:.*]] = uop.range %{{.*}} axis 0 global
// CHECK-DAG: %[[R1:.*]] = uop.range %{{.*}} axis 1 reduce
// CHECK: %[[C74:.*]] = uop.const 74 : si32
// CHECK: %[[M:.*]] = uop.mul %[[R1]], %[[C74]] : si32
// CHECK: %[[FLAT:.*]] = uop.add %{{.*}}, %[[M]] : si32
// CHECK: %[[C73:.*]] = uop.const 73 : si32
// CHECK: %[[COL:.*]] = uop.mod %[[FLAT]], %[[C73]] : si32
// The row, (flat / 73) % 38, has stride 0 and an uncut mask: nothing reads it.
// CHECK-NOT: uop.idiv
// CHECK: %[[C36:.*]] = uop.const 36 : si32
// CHECK: %[[B:.*]] = uop.cmplt %[[COL]], %[[C36]] : si32
// CHECK: %[[OK:.*]] = uop.cmpne %[[B]], %{{.*}} : i1
// CHECK: %[[ONE:.*]] = uop.const 1 : si32
// CHECK-NOT: shaped
// CHECK: uop.where %[[OK]], %[[ONE]], %{{.*}} : si32
uop.kernel @multiview {
  %0 = uop.define_global 0 : !uop.ptr<si32, 37>
  %1 = uop.view %0 [#uop.view<shape = [37, 1], strides = [1, 0]>] : !uop.ptr<si32, 37>
  %2 = uop.view [#uop.view<shape = [38, 73], strides = [0, 0], mask = [[0, 38], [36, 73]]>, #uop.view<shape = [37, 37], strides = [1, 74]>] : !uop.void
  %3 = uop.valid %2
  %4 = uop.view [#uop.view<shape = [37, 37], strides = [0, 0]>] : !uop.void
  %5 = uop.shaped_const %4, 1 : si32
  %6 = uop.shaped_const %4, 0 : si32
  %7 = uop.where %3, %5, %6 : si32
  %8 = uop.reduce_axis add %7 [1] : si32
  %9 = uop.store %1, %8 : !uop.ptr<si32, 37>
  uop.sink %9
}

// -----

// A CONST under a masked view is the constant where the mask holds, else 0.
// CHECK-LABEL: uop.kernel @masked_const
// CHECK: %[[OK:.*]] = uop.cmplt %{{.*}}, %{{.*}} : si32
// CHECK: %[[C:.*]] = uop.const 2.000000e+00 : f32
// CHECK: %[[Z:.*]] = uop.const 0.000000e+00 : f32
// CHECK: uop.where %[[OK]], %[[C]], %[[Z]] : f32
uop.kernel @masked_const {
  %out = uop.define_global 0 : !uop.ptr<f32, 4>
  %ov = uop.view %out [#uop.view<shape = [4], strides = [1]>] : !uop.ptr<f32, 4>
  %sv = uop.view [#uop.view<shape = [4], strides = [0], mask = [[0, 2]]>] : !uop.void
  %c = uop.shaped_const %sv, 2.0 : f32
  %st = uop.store %ov, %c : !uop.ptr<f32, 4>
  uop.sink %st
}

// -----

// An already lowered kernel is left as it is.
// CHECK-LABEL: uop.kernel @lowered
// CHECK-NEXT: uop.define_global 0
// CHECK-NEXT: uop.const 4 : si32
// CHECK-NEXT: uop.range
uop.kernel @lowered {
  %0 = uop.define_global 0 : !uop.ptr<f32, 4>
  %c4 = uop.const 4 : si32
  %r = uop.range %c4 axis 0 global : si32
  %p = uop.index %0[%r] : !uop.ptr<f32, 4>, si32
  %x = uop.load %p : !uop.ptr<f32, 4>
  %s = uop.store %p, %x : !uop.ptr<f32, 4>
  uop.sink %s
}

// -----

// An optimized kernel (uop-optimize): the axis roles come from its
// #uop.kernel_info. A grouped reduce reads the partial sums back from
// shared memory over a range of its own (axis 1000 + a), after a barrier on
// their store; only the group's first thread stores the result.
// CHECK-LABEL: uop.kernel @grouped
// CHECK: %[[G:.*]] = uop.range %{{.*}} axis 0 global : si32
// CHECK: %[[L:.*]] = uop.range %{{.*}} axis 1 local : si32
// CHECK: %[[K:.*]] = uop.range %{{.*}} axis 2 reduce : si32
// CHECK: %[[R:.*]] = uop.range %{{.*}} axis 1001 group_reduce : si32
// CHECK: %[[PART:.*]] = uop.reduce add %{{.*}} [%[[K]] : si32] : f32
// CHECK: %[[TMP:.*]] = uop.define_local "temp0"
// CHECK: %[[MINE:.*]] = uop.add %{{.*}}, %[[L]] : si32
// CHECK: %[[SLOT:.*]] = uop.index %[[TMP]][%[[MINE]]]
// CHECK: %[[ST:.*]] = uop.store %[[SLOT]], %[[PART]]
// CHECK: %[[THEIRS:.*]] = uop.add %{{.*}}, %[[R]] : si32
// CHECK: %[[BACK:.*]] = uop.index %[[TMP]][%[[THEIRS]]]
// CHECK: %[[BAR:.*]] = uop.barrier after %[[ST]]
// CHECK: %[[Y:.*]] = uop.load %[[BACK]] after %[[BAR]]
// CHECK: %[[SUM:.*]] = uop.reduce add %[[Y]] [%[[R]] : si32] : f32
// CHECK: %[[FIRST:.*]] = uop.cmpeq %[[L]], %{{.*}} : si32
// CHECK: %[[O:.*]] = uop.index %{{.*}}[%{{.*}}] gate %[[FIRST]]
// CHECK: uop.store %[[O]], %[[SUM]]
uop.kernel @grouped attributes {uop.kernel_info = #uop.kernel_info<global_dims = 1, local_dims = 1, upcasted = 0, dont_use_locals = false, opts = "GROUPTOP:0:16">} {
  %0 = uop.define_global 0 : !uop.ptr<f32, 8>
  %1 = uop.view %0 [#uop.view<shape = [8, 1, 1], strides = [1, 0, 0]>] : !uop.ptr<f32, 8>
  %2 = uop.define_global 1 : !uop.ptr<f32, 256>
  %3 = uop.view %2 [#uop.view<shape = [8, 16, 2], strides = [32, 2, 1]>] : !uop.ptr<f32, 256>
  %4 = uop.load %3 : !uop.ptr<f32, 256>
  %5 = uop.reduce_axis add %4 [2] : f32
  %6 = uop.define_local "temp0" : !uop.ptr<f32, 16, local>
  %7 = uop.view %6 [#uop.view<shape = [8, 16, 1], strides = [0, 1, 0]>] : !uop.ptr<f32, 16, local>
  %8 = uop.store %7, %5 : !uop.ptr<f32, 16, local>
  %9 = uop.load %7 after %8 : !uop.ptr<f32, 16, local>
  %10 = uop.reduce_axis add %9 [1] : f32
  %11 = uop.store %1, %10 : !uop.ptr<f32, 8>
  uop.sink %11
}

// -----

// Upcast axes are the last `upcasted` ones: `upcast` when kept, `unroll`
// when reduced; without locals (the CPU: global_dims = 0) kept axes loop.
// CHECK-LABEL: uop.kernel @upcast
// CHECK: uop.range %{{.*}} axis 0 loop : si32
// CHECK: uop.range %{{.*}} axis 1 reduce : si32
// CHECK: uop.range %{{.*}} axis 2 unroll : si32
// CHECK: uop.range %{{.*}} axis 3 upcast : si32
uop.kernel @upcast attributes {uop.kernel_info = #uop.kernel_info<global_dims = 0, local_dims = 0, upcasted = 2, dont_use_locals = false, opts = "UNROLL:0:4,UPCAST:0:2">} {
  %0 = uop.define_global 0 : !uop.ptr<f32, 8>
  %1 = uop.view %0 [#uop.view<shape = [4, 1, 1, 2], strides = [2, 0, 0, 1]>] : !uop.ptr<f32, 8>
  %2 = uop.define_global 1 : !uop.ptr<f32, 256>
  %3 = uop.view %2 [#uop.view<shape = [4, 8, 4, 2], strides = [64, 4, 1, 32]>] : !uop.ptr<f32, 256>
  %4 = uop.load %3 : !uop.ptr<f32, 256>
  %5 = uop.reduce_axis add %4 [1, 2] : f32
  %6 = uop.store %1, %5 : !uop.ptr<f32, 8>
  uop.sink %6
}

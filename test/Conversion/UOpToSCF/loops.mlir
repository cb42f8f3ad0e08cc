// convert-uop-to-scf: where ops go. Each STORE runs inside the loops of its
// ranges (by axis), each REDUCE is its own loop nest carrying the
// accumulator, every other op sits in the innermost loop it depends on.
// RUN: uop-opt %s --convert-uop-to-scf --split-input-file | FileCheck %s

// A row sum. The row offset depends only on %r0, so it is computed once per
// row, outside the reduce loop; the store follows the reduce. A buffer of
// known size is that many bytes to LLVM (and to uop-check-host-accesses).
// CHECK-LABEL: func.func @row_sum(%arg0: !llvm.ptr {llvm.dereferenceable = 16 : i64}, %arg1: !llvm.ptr {llvm.dereferenceable = 128 : i64})
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} : i32 {
// CHECK:   %[[OUT:.*]] = llvm.getelementptr %arg0[%[[I]]] : (!llvm.ptr, i32) -> !llvm.ptr, f32
// CHECK:   %[[ROW:.*]] = arith.muli %[[I]], %{{.*}} overflow<nsw> : i32
// CHECK:   %[[SUM:.*]] = scf.for %[[J:.*]] = {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (f32)  : i32 {
// CHECK:     %[[IDX:.*]] = arith.addi %[[ROW]], %[[J]] overflow<nsw> : i32
// CHECK:     %[[P:.*]] = llvm.getelementptr %arg1[%[[IDX]]]
// CHECK:     %[[X:.*]] = llvm.load %[[P]] : !llvm.ptr -> f32
// CHECK:     %[[NEXT:.*]] = arith.addf %[[ACC]], %[[X]] : f32
// CHECK:     scf.yield %[[NEXT]] : f32
// CHECK:   }
// CHECK:   llvm.store %[[SUM]], %[[OUT]] : f32, !llvm.ptr
// CHECK: }
// CHECK: return
uop.kernel @row_sum {
  %c4 = uop.const 4 : si32
  %c8 = uop.const 8 : si32
  %r0 = uop.range %c4 axis 0 global : si32
  %r1 = uop.range %c8 axis 1 reduce : si32
  %out = uop.define_global 0 : !uop.ptr<f32, 4>
  %in = uop.define_global 1 : !uop.ptr<f32, 32>
  %row = uop.mul %r0, %c8 : si32
  %i = uop.add %row, %r1 : si32
  %p = uop.index %in[%i] : !uop.ptr<f32, 32>, si32
  %x = uop.load %p : !uop.ptr<f32, 32>
  %s = uop.reduce add %x [%r1 : si32] : f32
  %q = uop.index %out[%r0] : !uop.ptr<f32, 4>, si32
  %st = uop.store %q, %s : !uop.ptr<f32, 4>
  uop.sink %st
}

// -----

// Loops nest by axis number; an op of the outer axis only is hoisted out of
// the inner loop. The identity of MAX is -inf.
// CHECK-LABEL: func.func @nest_order
// CHECK: scf.for %[[A:.*]] = {{.*}} : i32 {
// CHECK:   %[[T:.*]] = arith.muli %[[A]], %{{.*}} overflow<nsw> : i32
// CHECK:   scf.for %[[B:.*]] = {{.*}} : i32 {
// CHECK:     arith.addi %[[T]], %[[B]] overflow<nsw> : i32
uop.kernel @nest_order {
  %c3 = uop.const 3 : si32
  %c5 = uop.const 5 : si32
  %r1 = uop.range %c5 axis 1 global : si32
  %r0 = uop.range %c3 axis 0 global : si32
  %out = uop.define_global 0 : !uop.ptr<si32, 15>
  %t = uop.mul %r0, %c5 : si32
  %i = uop.add %t, %r1 : si32
  %p = uop.index %out[%i] : !uop.ptr<si32, 15>, si32
  %st = uop.store %p, %i : !uop.ptr<si32, 15>
  uop.sink %st
}

// -----

// A reduce whose axis number is lower than the store's still nests inside
// the store's loop: the store's range opens first.
// CHECK-LABEL: func.func @reduce_axis0
// CHECK: %[[NEG:.*]] = arith.constant 0xFF800000 : f32
// CHECK: scf.for %[[COL:.*]] = {{.*}} : i32 {
// CHECK:   scf.for %[[ROW:.*]] = {{.*}} iter_args(%[[M:.*]] = %[[NEG]]) -> (f32)
// CHECK:     %[[LT:.*]] = arith.cmpf olt, %[[M]], %[[X:.*]] : f32
// CHECK:     arith.select %[[LT]], %[[X]], %[[M]] : f32
uop.kernel @reduce_axis0 {
  %c2 = uop.const 2 : si32
  %c3 = uop.const 3 : si32
  %r0 = uop.range %c2 axis 0 reduce : si32
  %r1 = uop.range %c3 axis 1 global : si32
  %out = uop.define_global 0 : !uop.ptr<f32, 3>
  %in = uop.define_global 1 : !uop.ptr<f32, 6>
  %row = uop.mul %r0, %c3 : si32
  %i = uop.add %row, %r1 : si32
  %p = uop.index %in[%i] : !uop.ptr<f32, 6>, si32
  %x = uop.load %p : !uop.ptr<f32, 6>
  %m = uop.reduce max %x [%r0 : si32] : f32
  %q = uop.index %out[%r1] : !uop.ptr<f32, 3>, si32
  %st = uop.store %q, %m : !uop.ptr<f32, 3>
  uop.sink %st
}

// -----

// A reduce over two ranges: two nested loops threading one accumulator.
// CHECK-LABEL: func.func @reduce_two_axes
// CHECK: %[[OUTER:.*]] = scf.for {{.*}} iter_args(%[[A0:.*]] = %{{.*}}) -> (i32)
// CHECK:   %[[INNER:.*]] = scf.for {{.*}} iter_args(%[[A1:.*]] = %[[A0]]) -> (i32)
// CHECK:     %[[N:.*]] = arith.addi %[[A1]], %{{.*}} : i32
// CHECK:     scf.yield %[[N]] : i32
// CHECK:   scf.yield %[[INNER]] : i32
// CHECK: llvm.store %[[OUTER]]
uop.kernel @reduce_two_axes {
  %c2 = uop.const 2 : si32
  %c3 = uop.const 3 : si32
  %r0 = uop.range %c2 axis 0 reduce : si32
  %r1 = uop.range %c3 axis 1 reduce : si32
  %out = uop.define_global 0 : !uop.ptr<si32, 1>
  %in = uop.define_global 1 : !uop.ptr<si32, 6>
  %row = uop.mul %r0, %c3 : si32
  %i = uop.add %row, %r1 : si32
  %p = uop.index %in[%i] : !uop.ptr<si32, 6>, si32
  %x = uop.load %p : !uop.ptr<si32, 6>
  %s = uop.reduce add %x [%r0, %r1 : si32, si32] : si32
  %zero = uop.const 0 : si32
  %q = uop.index %out[%zero] : !uop.ptr<si32, 1>, si32
  %st = uop.store %q, %s : !uop.ptr<si32, 1>
  uop.sink %st
}

// -----

// Gates: a gated load reads, without a branch, the buffer's first element
// where the gate is off and takes the alt value there (select); a gated
// store is scf.if with no else.
// CHECK-LABEL: func.func @gates
// CHECK: %[[G:.*]] = arith.cmpi slt, %[[I:.*]], %{{.*}} : i32
// CHECK: %[[P:.*]] = llvm.getelementptr %arg1[%[[I]]]
// CHECK: %[[A:.*]] = llvm.select %[[G]], %[[P]], %arg1 : i1, !llvm.ptr
// CHECK: %[[L:.*]] = llvm.load %[[A]] : !llvm.ptr -> f32
// CHECK: %[[V:.*]] = arith.select %[[G]], %[[L]], %{{.*}} : f32
// CHECK: scf.if %[[G]] {
// CHECK:   llvm.store %[[V]], %{{.*}} : f32, !llvm.ptr
// CHECK: }
uop.kernel @gates {
  %c8 = uop.const 8 : si32
  %c4 = uop.const 4 : si32
  %r = uop.range %c8 axis 0 global : si32
  %out = uop.define_global 0 : !uop.ptr<f32, 8>
  %in = uop.define_global 1 : !uop.ptr<f32, 4>
  %g = uop.cmplt %r, %c4 : si32
  %p = uop.index %in[%r] gate %g : i1 : !uop.ptr<f32, 4>, si32
  %alt = uop.const 0.5 : f32
  %x = uop.load %p alt %alt : f32 : !uop.ptr<f32, 4>
  %q = uop.index %out[%r] gate %g : i1 : !uop.ptr<f32, 8>, si32
  %st = uop.store %q, %x : !uop.ptr<f32, 8>
  uop.sink %st
}

// -----

// Where the buffer's size is not known, the gated load is scf.if yielding
// the alt value where the gate is off.
// CHECK-LABEL: func.func @gate_unknown_size
// CHECK: %[[G:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : i32
// CHECK: %[[V:.*]] = scf.if %[[G]] -> (f32) {
// CHECK:   %[[L:.*]] = llvm.load %{{.*}} : !llvm.ptr -> f32
// CHECK:   scf.yield %[[L]] : f32
// CHECK: } else {
// CHECK:   scf.yield %{{.*}} : f32
// CHECK: }
// CHECK: llvm.store %[[V]]
uop.kernel @gate_unknown_size {
  %c8 = uop.const 8 : si32
  %c4 = uop.const 4 : si32
  %r = uop.range %c8 axis 0 global : si32
  %out = uop.define_global 0 : !uop.ptr<f32, 8>
  %in = uop.define_global 1 : !uop.ptr<f32, ?>
  %g = uop.cmplt %r, %c4 : si32
  %p = uop.index %in[%r] gate %g : i1 : !uop.ptr<f32, ?>, si32
  %alt = uop.const 0.5 : f32
  %x = uop.load %p alt %alt : f32 : !uop.ptr<f32, ?>
  %q = uop.index %out[%r] : !uop.ptr<f32, 8>, si32
  %st = uop.store %q, %x : !uop.ptr<f32, 8>
  uop.sink %st
}

// -----

// Two stores over the same range share its loop, in SINK order (one loop
// per RANGE, as in tinygrad's linearizer). Bool is a byte in memory: loaded
// as byte != 0, stored zero-extended.
// CHECK-LABEL: func.func @two_stores_bool
// CHECK: scf.for
// CHECK:   %[[B:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i8
// CHECK:   %[[T:.*]] = arith.cmpi ne, %[[B]], %{{.*}} : i8
// CHECK:   %[[E:.*]] = arith.extui %{{.*}} : i1 to i8
// CHECK:   llvm.store %[[E]], %{{.*}} : i8, !llvm.ptr
// CHECK-NOT: scf.for
// CHECK:   llvm.store %{{.*}}, %{{.*}} : i32, !llvm.ptr
// CHECK: return
uop.kernel @two_stores_bool {
  %c4 = uop.const 4 : si32
  %r = uop.range %c4 axis 0 global : si32
  %o0 = uop.define_global 0 : !uop.ptr<i1, 4>
  %o1 = uop.define_global 1 : !uop.ptr<si32, 4>
  %in = uop.define_global 2 : !uop.ptr<i1, 4>
  %p = uop.index %in[%r] : !uop.ptr<i1, 4>, si32
  %b = uop.load %p : !uop.ptr<i1, 4>
  %n = uop.neg %b : i1
  %q0 = uop.index %o0[%r] : !uop.ptr<i1, 4>, si32
  %s0 = uop.store %q0, %n : !uop.ptr<i1, 4>
  %q1 = uop.index %o1[%r] : !uop.ptr<si32, 4>, si32
  %s1 = uop.store %q1, %r : !uop.ptr<si32, 4>
  uop.sink %s0, %s1
}

// -----

// Two REDUCEs over the same range that do not depend on each other share
// its loop, one accumulator each (the RANGE is one loop, as in tinygrad's
// linearizer); a third that uses the first's result needs a loop of its own.
// CHECK-LABEL: func.func @shared_loop
// CHECK: %[[BOTH:.*]]:2 = scf.for {{.*}} iter_args(%[[S:.*]] = %{{.*}}, %[[M:.*]] = %{{.*}}) -> (f32, f32)
// CHECK:   %[[X:.*]] = llvm.load
// CHECK:   %[[S2:.*]] = arith.addf %[[S]], %[[X]] : f32
// CHECK:   arith.cmpf
// CHECK:   %[[M2:.*]] = arith.select {{.*}} : f32
// CHECK:   scf.yield %[[S2]], %[[M2]] : f32, f32
// CHECK: llvm.store %[[BOTH]]#0
// CHECK: llvm.store %[[BOTH]]#1
// CHECK: %[[DEV:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (f32)
// CHECK:   arith.subf %{{.*}}, %[[BOTH]]#0 : f32
// CHECK: llvm.store %[[DEV]]
// CHECK-NOT: scf.for
uop.kernel @shared_loop {
  %c4 = uop.const 4 : si32
  %r = uop.range %c4 axis 0 reduce : si32
  %out = uop.define_global 0 : !uop.ptr<f32, 3>
  %in = uop.define_global 1 : !uop.ptr<f32, 4>
  %p = uop.index %in[%r] : !uop.ptr<f32, 4>, si32
  %x = uop.load %p : !uop.ptr<f32, 4>
  %s = uop.reduce add %x [%r : si32] : f32
  %m = uop.reduce max %x [%r : si32] : f32
  %d = uop.sub %x, %s : f32
  %dev = uop.reduce add %d [%r : si32] : f32
  %c0 = uop.const 0 : si32
  %c1 = uop.const 1 : si32
  %c2 = uop.const 2 : si32
  %q0 = uop.index %out[%c0] : !uop.ptr<f32, 3>, si32
  %q1 = uop.index %out[%c1] : !uop.ptr<f32, 3>, si32
  %q2 = uop.index %out[%c2] : !uop.ptr<f32, 3>, si32
  %st0 = uop.store %q0, %s : !uop.ptr<f32, 3>
  %st1 = uop.store %q1, %m : !uop.ptr<f32, 3>
  %st2 = uop.store %q2, %dev : !uop.ptr<f32, 3>
  uop.sink %st0, %st1, %st2
}

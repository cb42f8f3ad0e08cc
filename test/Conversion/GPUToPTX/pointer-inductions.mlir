// uop-pointer-inductions: the addresses base[terms + c*i + k] of a loop over
// i become offsets k from a pointer the loop carries, set before the loop to
// the address at the lower bound and stepped by c*step elements. Addresses
// it must leave: a short loop, a base with two groups, an index without
// nsw, a term the loop defines, an i64 term, a loop without a constant step.
// RUN: uop-opt %s --uop-pointer-inductions | FileCheck %s
// RUN: uop-opt %s --uop-pointer-inductions=max-unrolled-trips=0 | FileCheck %s --check-prefix=SHORT

// conv3x3's loop: p[a + 3136 i - 57] and p[a + 3136 i + 4], and a gated
// q[b + 9 i]: one pointer for each base.
// CHECK-LABEL: func.func @step
// CHECK: %[[KP:.*]] = arith.constant -57 : i64
// CHECK-NEXT: %[[A:.*]] = arith.extsi %arg0 : i32 to i64
// CHECK-NEXT: %[[IP:.*]] = arith.addi %[[KP]], %[[A]] overflow<nsw> : i64
// CHECK-NEXT: %[[P0:.*]] = llvm.getelementptr %arg2[%[[IP]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT: %[[B:.*]] = arith.extsi %arg1 : i32 to i64
// CHECK-NEXT: %[[Q0:.*]] = llvm.getelementptr %arg3[%[[B]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT: scf.for {{.*}} iter_args(%{{[^ ]+}} = %cst, %[[P:[^ ]+]] = %[[P0]], %[[Q:[^ ]+]] = %[[Q0]]) -> (f32, !llvm.ptr, !llvm.ptr)
// CHECK-NEXT: llvm.load %[[P]] : !llvm.ptr -> f32
// CHECK-NEXT: %[[P61:.*]] = llvm.getelementptr %[[P]][61] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT: llvm.load %[[P61]]
// CHECK-NEXT: scf.if
// CHECK-NEXT: llvm.load %[[Q]] : !llvm.ptr -> f32
// CHECK: %[[PN:.*]] = llvm.getelementptr %[[P]][3136] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT: %[[QN:.*]] = llvm.getelementptr %[[Q]][9] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT: scf.yield %{{.*}}, %[[PN]], %[[QN]] : f32, !llvm.ptr, !llvm.ptr
// The index math is gone from the loop.
// CHECK-NOT: arith.muli
// CHECK: return
func.func @step(%a: i32, %b: i32, %p: !llvm.ptr, %q: !llvm.ptr, %gate: i1) -> f32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %c9 = arith.constant 9 : i32
  %c64 = arith.constant 64 : i32
  %c3136 = arith.constant 3136 : i32
  %cm57 = arith.constant -57 : i32
  %z = arith.constant 0.0 : f32
  %r = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %z) -> (f32) : i32 {
    %is = arith.muli %i, %c3136 overflow<nsw> : i32
    %t0 = arith.addi %a, %is overflow<nsw> : i32
    %t1 = arith.addi %t0, %cm57 overflow<nsw> : i32
    %g0 = llvm.getelementptr %p[%t1] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %v0 = llvm.load %g0 : !llvm.ptr -> f32
    %t2 = arith.addi %t0, %c4 overflow<nsw> : i32
    %g1 = llvm.getelementptr %p[%t2] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %v1 = llvm.load %g1 : !llvm.ptr -> f32
    %w = scf.if %gate -> (f32) {
      %i9 = arith.muli %i, %c9 overflow<nsw> : i32
      %u = arith.addi %b, %i9 overflow<nsw> : i32
      %g2 = llvm.getelementptr %q[%u] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      %v2 = llvm.load %g2 : !llvm.ptr -> f32
      scf.yield %v2 : f32
    } else {
      scf.yield %z : f32
    }
    %s0 = arith.addf %acc, %v0 : f32
    %s1 = arith.addf %s0, %v1 : f32
    %s2 = arith.addf %s1, %w : f32
    scf.yield %s2 : f32
  }
  return %r : f32
}

// A lower bound that is not a constant, and a step of 2: the pointer
// starts at p[a + 5 lb] and steps by 10.
// CHECK-LABEL: func.func @lower_bound
// CHECK: %[[A:.*]] = arith.extsi %arg1 : i32 to i64
// CHECK-NEXT: %[[LB:.*]] = arith.extsi %arg0 : i32 to i64
// CHECK-NEXT: %[[C5:.*]] = arith.constant 5 : i64
// CHECK-NEXT: %[[LB5:.*]] = arith.muli %[[LB]], %[[C5]] overflow<nsw> : i64
// CHECK-NEXT: %[[I0:.*]] = arith.addi %[[A]], %[[LB5]] overflow<nsw> : i64
// CHECK-NEXT: %[[P0:.*]] = llvm.getelementptr %arg2[%[[I0]]]
// CHECK-NEXT: scf.for %{{[^ ]+}} = %arg0 to %c64_i32 step %c2_i32 iter_args(%{{[^ ]+}} = %cst, %[[P:[^ ]+]] = %[[P0]])
// CHECK-NEXT: llvm.load %[[P]]
// CHECK: llvm.getelementptr %[[P]][10]
func.func @lower_bound(%lb: i32, %a: i32, %p: !llvm.ptr) -> f32 {
  %c2 = arith.constant 2 : i32
  %c64 = arith.constant 64 : i32
  %c5 = arith.constant 5 : i32
  %z = arith.constant 0.0 : f32
  %r = scf.for %i = %lb to %c64 step %c2 iter_args(%acc = %z) -> (f32) : i32 {
    %i5 = arith.muli %i, %c5 overflow<nsw> : i32
    %t = arith.addi %i5, %a overflow<nsw> : i32
    %g = llvm.getelementptr %p[%t] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %v = llvm.load %g : !llvm.ptr -> f32
    %s = arith.addf %acc, %v : f32
    scf.yield %s : f32
  }
  return %r : f32
}

// Left as written: every loop here keeps its one f32 result and its
// index math.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: !llvm.ptr, !llvm.ptr)
// CHECK-NOT: -> (f32, !llvm.ptr)
// CHECK: return
// A loop of 4 trips, which ptxas unrolls: with max-unrolled-trips=0
// its address is stepped too.
// SHORT-LABEL: func.func @left_alone
// SHORT: scf.for %{{.*}} = %c0_i32 to %c4_i32 step %c1_i32 iter_args(%{{[^ ]+}} = %cst, %{{[^ ]+}} = %{{.*}}) -> (f32, !llvm.ptr)
// SHORT-NOT: -> (f32, !llvm.ptr)
// SHORT: return
func.func @left_alone(%a: i32, %b: i32, %wide: i64, %n: i32, %s: i32, %p: !llvm.ptr, %q: !llvm.ptr,
                      %r: !llvm.ptr, %t: !llvm.ptr, %u: !llvm.ptr) -> f32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %c64 = arith.constant 64 : i32
  %z = arith.constant 0.0 : f32
  // 4 trips.
  %r0 = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %z) -> (f32) : i32 {
    %t0 = arith.addi %a, %i overflow<nsw> : i32
    %g = llvm.getelementptr %p[%t0] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %v = llvm.load %g : !llvm.ptr -> f32
    %x = arith.addf %acc, %v : f32
    scf.yield %x : f32
  }
  // q[a + i] and q[b + i]: two pointers would take four registers where the
  // base and two indices take four too.
  %r1 = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %r0) -> (f32) : i32 {
    %t0 = arith.addi %a, %i overflow<nsw> : i32
    %g0 = llvm.getelementptr %q[%t0] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %v0 = llvm.load %g0 : !llvm.ptr -> f32
    %t1 = arith.addi %b, %i overflow<nsw> : i32
    %g1 = llvm.getelementptr %q[%t1] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %v1 = llvm.load %g1 : !llvm.ptr -> f32
    %x = arith.addf %acc, %v0 : f32
    %y = arith.addf %x, %v1 : f32
    scf.yield %y : f32
  }
  // r[a + i] without nsw (it may wrap); t[i * i] (a term the loop defines);
  // u[wide + i] (an i64 term) and through an index that is itself i64.
  %r2 = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %r1) -> (f32) : i32 {
    %t0 = arith.addi %a, %i : i32
    %g0 = llvm.getelementptr %r[%t0] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %v0 = llvm.load %g0 : !llvm.ptr -> f32
    %sq = arith.muli %i, %i overflow<nsw> : i32
    %g1 = llvm.getelementptr %t[%sq] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %v1 = llvm.load %g1 : !llvm.ptr -> f32
    %iw = arith.extsi %i : i32 to i64
    %t2 = arith.addi %wide, %iw overflow<nsw> : i64
    %g2 = llvm.getelementptr %u[%t2] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %v2 = llvm.load %g2 : !llvm.ptr -> f32
    %x = arith.addf %acc, %v0 : f32
    %y = arith.addf %x, %v1 : f32
    %w = arith.addf %y, %v2 : f32
    scf.yield %w : f32
  }
  // A step that is not a constant.
  %r3 = scf.for %i = %c0 to %c64 step %s iter_args(%acc = %r2) -> (f32) : i32 {
    %t0 = arith.addi %a, %i overflow<nsw> : i32
    %g = llvm.getelementptr %p[%t0] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %v = llvm.load %g : !llvm.ptr -> f32
    %x = arith.addf %acc, %v : f32
    scf.yield %x : f32
  }
  return %r3 : f32
}

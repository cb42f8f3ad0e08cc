// uop-group-loop-invariants: a chain of arith.addi in an scf.for adds its
// terms outermost loop first, constants last; the constants' adds keep their
// flags, the rebuilt adds have none. Chains it must leave: outside loops,
// already in order, a constant in the middle, not a left fold, an add with
// another use.
// RUN: uop-opt %s --uop-group-loop-invariants | FileCheck %s

// conv3x3's address: a + i*s + b + c + 5 in the loop over i, and in the
// inner loop over j, i*s + a + j + b: a and b first, then i*s, then j.
// CHECK-LABEL: func.func @regroup
// CHECK: scf.for %[[I:[^ ]+]] =
// CHECK: %[[IS:.*]] = arith.muli %[[I]], %arg3 overflow<nsw> : i32
// CHECK-NEXT: %[[AB:.*]] = arith.addi %arg0, %arg1 : i32
// CHECK-NEXT: %[[ABC:.*]] = arith.addi %[[AB]], %arg2 : i32
// CHECK-NEXT: %[[SUM:.*]] = arith.addi %[[ABC]], %[[IS]] : i32
// CHECK-NEXT: %[[OFF:.*]] = arith.addi %[[SUM]], %c5_i32 overflow<nsw> : i32
// CHECK-NEXT: llvm.getelementptr %arg4[%[[OFF]]]
// CHECK: scf.for %[[J:[^ ]+]] =
// CHECK-NEXT: %[[AB2:.*]] = arith.addi %arg0, %arg1 : i32
// CHECK-NEXT: %[[ABI:.*]] = arith.addi %[[AB2]], %[[IS]] : i32
// CHECK-NEXT: %[[ABIJ:.*]] = arith.addi %[[ABI]], %[[J]] : i32
// CHECK-NEXT: llvm.getelementptr %arg4[%[[ABIJ]]]
func.func @regroup(%a: i32, %b: i32, %c: i32, %s: i32, %p: !llvm.ptr) -> f32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c5 = arith.constant 5 : i32
  %c64 = arith.constant 64 : i32
  %z = arith.constant 0.0 : f32
  %r = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %z) -> (f32) : i32 {
    %is = arith.muli %i, %s overflow<nsw> : i32
    %t0 = arith.addi %a, %is overflow<nsw> : i32
    %t1 = arith.addi %t0, %b overflow<nsw> : i32
    %t2 = arith.addi %t1, %c overflow<nsw> : i32
    %t3 = arith.addi %t2, %c5 overflow<nsw> : i32
    %g = llvm.getelementptr %p[%t3] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %v = llvm.load %g : !llvm.ptr -> f32
    %in = scf.for %j = %c0 to %c64 step %c1 iter_args(%acc2 = %acc) -> (f32) : i32 {
      %u0 = arith.addi %is, %a : i32
      %u1 = arith.addi %u0, %j : i32
      %u2 = arith.addi %u1, %b : i32
      %g2 = llvm.getelementptr %p[%u2] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      %w = llvm.load %g2 : !llvm.ptr -> f32
      %s2 = arith.addf %acc2, %w : f32
      scf.yield %s2 : f32
    }
    %sum = arith.addf %in, %v : f32
    scf.yield %sum : f32
  }
  return %r : f32
}

// CHECK-LABEL: func.func @left_alone
// Outside a loop: as written.
// CHECK: %[[O0:.*]] = arith.addi %arg0, %{{.*}} overflow<nsw> : i32
// CHECK-NEXT: %[[O1:.*]] = arith.addi %[[O0]], %arg1 overflow<nsw> : i32
// In order already (invariants first), and a constant in the middle.
// CHECK: scf.for %[[I:[^ ]+]] =
// CHECK: %[[K0:.*]] = arith.addi %arg0, %arg1 overflow<nsw> : i32
// CHECK-NEXT: %[[K1:.*]] = arith.addi %[[K0]], %[[I]] overflow<nsw> : i32
// CHECK-NEXT: %[[M0:.*]] = arith.addi %[[I]], %c3_i32 overflow<nsw> : i32
// CHECK-NEXT: %[[M1:.*]] = arith.addi %[[M0]], %arg0 overflow<nsw> : i32
// CHECK-NEXT: %[[M2:.*]] = arith.addi %[[M1]], %arg1 overflow<nsw> : i32
// Not a left fold, (i + (a + b)) + c: left as written.
// CHECK-NEXT: %[[R0:.*]] = arith.addi %arg0, %arg1 overflow<nsw> : i32
// CHECK-NEXT: %[[R1:.*]] = arith.addi %[[I]], %[[R0]] overflow<nsw> : i32
// CHECK-NEXT: %[[R2:.*]] = arith.addi %[[R1]], %arg2 overflow<nsw> : i32
// An add used twice ends a chain: i + a is one term of ((i + a) + b) + c,
// which is regrouped as (b + c) + (i + a).
// CHECK-NEXT: %[[T0:.*]] = arith.addi %[[I]], %arg0 overflow<nsw> : i32
// CHECK-NEXT: %[[BC:.*]] = arith.addi %arg1, %arg2 : i32
// CHECK-NEXT: %[[T2:.*]] = arith.addi %[[BC]], %[[T0]] : i32
// CHECK: arith.xori %{{.*}}, %[[T2]]
// CHECK-NEXT: arith.xori %{{.*}}, %[[T0]]
func.func @left_alone(%a: i32, %b: i32, %c: i32) -> (i32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %c64 = arith.constant 64 : i32
  %o0 = arith.addi %a, %c1 overflow<nsw> : i32
  %o1 = arith.addi %o0, %b overflow<nsw> : i32
  %r = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %c0) -> (i32) : i32 {
    %k0 = arith.addi %a, %b overflow<nsw> : i32
    %k1 = arith.addi %k0, %i overflow<nsw> : i32
    %m0 = arith.addi %i, %c3 overflow<nsw> : i32
    %m1 = arith.addi %m0, %a overflow<nsw> : i32
    %m2 = arith.addi %m1, %b overflow<nsw> : i32
    %r0 = arith.addi %a, %b overflow<nsw> : i32
    %r1 = arith.addi %i, %r0 overflow<nsw> : i32
    %r2 = arith.addi %r1, %c overflow<nsw> : i32
    %t0 = arith.addi %i, %a overflow<nsw> : i32
    %t1 = arith.addi %t0, %b overflow<nsw> : i32
    %t2 = arith.addi %t1, %c overflow<nsw> : i32
    %x0 = arith.xori %k1, %m2 : i32
    %x1 = arith.xori %x0, %r2 : i32
    %x2 = arith.xori %x1, %t2 : i32
    %x3 = arith.xori %x2, %t0 : i32
    %n = arith.addi %acc, %x3 : i32
    scf.yield %n : i32
  }
  return %o1, %r : i32, i32
}

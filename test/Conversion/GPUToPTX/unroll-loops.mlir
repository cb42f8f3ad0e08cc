// uop-unroll-loops: innermost straight-line scf.for loops of constant trip
// count, fully when trips x body ops <= budget, else by the largest power
// of two <= max-factor dividing the trip count within the budget;
// a partly unrolled loop is marked not to be unrolled again.
// RUN: uop-opt %s --uop-unroll-loops | FileCheck %s
// RUN: uop-opt %s --uop-unroll-loops="max-factor=2" | FileCheck %s --check-prefix=TWO
// RUN: uop-opt %s --uop-unroll-loops="budget=0" | FileCheck %s --check-prefix=NONE

// A 256-trip reduction of 5 ops: by 8 (40 ops <= 64), the copies chained in
// order, copy k at iv + k (nsw), the step 8.
// CHECK-LABEL: func.func @partial
// CHECK: %[[C8:.*]] = arith.constant 8 : i32
// CHECK: scf.for %[[IV:.*]] = %{{.*}} to %{{.*}} step %[[C8]] iter_args(%[[ACC:.*]] = %{{.*}}) -> (f32) : i32 {
// CHECK: %[[I0:.*]] = arith.addi %{{.*}}, %[[IV]] overflow<nsw>
// CHECK: %[[G0:.*]] = llvm.getelementptr %{{.*}}[%[[I0]]]
// CHECK: %[[L0:.*]] = llvm.load %[[G0]]
// CHECK: %[[S0:.*]] = arith.addf %[[ACC]], %[[L0]]
// CHECK: %[[K1:.*]] = arith.constant 1 : i32
// CHECK: %[[IV1:.*]] = arith.addi %[[IV]], %[[K1]] overflow<nsw> : i32
// CHECK: %[[I1:.*]] = arith.addi %{{.*}}, %[[IV1]] overflow<nsw>
// CHECK: %[[G1:.*]] = llvm.getelementptr %{{.*}}[%[[I1]]]
// CHECK: %[[L1:.*]] = llvm.load %[[G1]]
// CHECK: %[[S1:.*]] = arith.addf %[[S0]], %[[L1]]
// CHECK: arith.constant 7 : i32
// CHECK: %[[S7:.*]] = arith.addf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT: scf.yield %[[S7]] : f32
// CHECK-NEXT: } {llvm.loop_annotation = #{{.*}}}
// TWO-LABEL: func.func @partial
// TWO: %[[C2:.*]] = arith.constant 2 : i32
// TWO: scf.for {{.*}} step %[[C2]]
// TWO-COUNT-2: llvm.load
// TWO-NOT: llvm.load
// TWO: } {llvm.loop_annotation
// NONE-LABEL: func.func @partial
// NONE: scf.for {{.*}} step %c1_i32
// NONE-COUNT-1: llvm.load
// NONE-NOT: llvm.load
// NONE: scf.yield
// NONE-NEXT: }
// NONE-NOT: loop_annotation
func.func @partial(%p: !llvm.ptr, %base: i32) -> f32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c256 = arith.constant 256 : i32
  %zero = arith.constant 0.0 : f32
  %r = scf.for %i = %c0 to %c256 step %c1 iter_args(%acc = %zero) -> (f32) : i32 {
    %idx = arith.addi %base, %i overflow<nsw> : i32
    %g = llvm.getelementptr %p[%idx] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %v = llvm.load %g : !llvm.ptr -> f32
    %s = arith.addf %acc, %v : f32
    scf.yield %s : f32
  }
  return %r : f32
}

// 16 trips of 3 ops (48 <= 64): no loop left, iv 0, 1, ..., 15 in turn
// (the induction values fold to lb + k * step).
// CHECK-LABEL: func.func @full
// CHECK-NOT: scf.for
// CHECK-COUNT-16: llvm.load
// CHECK-NOT: llvm.load
// CHECK: return
func.func @full(%p: !llvm.ptr<3>) -> f32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c16 = arith.constant 16 : i32
  %zero = arith.constant 0.0 : f32
  %r = scf.for %i = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> (f32) : i32 {
    %g = llvm.getelementptr %p[%i] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
    %v = llvm.load %g : !llvm.ptr<3> -> f32
    %s = arith.addf %acc, %v : f32
    scf.yield %s : f32
  }
  return %r : f32
}

// Left alone: a body with a region, bounds not constant, a trip count no
// power of two up to 8 divides (255 x 2 ops > 64), an unsigned compare,
// and bounds wider than 64 bits (2^64 + 4 trips are not 4).
// CHECK-LABEL: func.func @kept
// CHECK: scf.for {{.*}} step %c1_i32
// CHECK: scf.if
// CHECK: scf.for {{.*}} to %arg1 step %c1_i32
// CHECK: scf.for {{.*}} to %c255_i32 step %c1_i32
// CHECK: scf.for unsigned
// CHECK: scf.for {{.*}} : i128 {
// CHECK-NOT: loop_annotation
func.func @kept(%p: !llvm.ptr, %n: i32, %b: i1) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %c255 = arith.constant 255 : i32
  %f = arith.constant 1.0 : f32
  scf.for %i = %c0 to %c4 step %c1 : i32 {
    scf.if %b {
      %g = llvm.getelementptr %p[%i] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      llvm.store %f, %g : f32, !llvm.ptr
    }
  }
  scf.for %i = %c0 to %n step %c1 : i32 {
    %g = llvm.getelementptr %p[%i] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    llvm.store %f, %g : f32, !llvm.ptr
  }
  scf.for %i = %c0 to %c255 step %c1 : i32 {
    %g = llvm.getelementptr %p[%i] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    llvm.store %f, %g : f32, !llvm.ptr
  }
  scf.for unsigned %i = %c0 to %c4 step %c1 : i32 {
    %g = llvm.getelementptr %p[%i] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    llvm.store %f, %g : f32, !llvm.ptr
  }
  %w0 = arith.constant 0 : i128
  %w1 = arith.constant 1 : i128
  %wide = arith.constant 18446744073709551620 : i128
  scf.for %i = %w0 to %wide step %w1 : i128 {
    llvm.store %f, %p : f32, !llvm.ptr
  }
  return
}

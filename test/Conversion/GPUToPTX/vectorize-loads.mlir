// uop-vectorize-loads: loads of base[i + c] for consecutive c, with nothing
// that may write memory between them, as one vector load of at most 16
// bytes whose alignment the base and the index prove.
// RUN: uop-opt %s --split-input-file --uop-vectorize-loads | FileCheck %s

// An unrolled loop: i = 256 * tid + iv, iv a multiple of 8 (lb 0, step 8),
// the base 16-aligned: elements 0-3 and 4-7 as two vector<4xf32>, each
// where its first load was; the scalar addresses go with the loads.
// CHECK-LABEL: func.func @unrolled
// CHECK: scf.for %[[IV:[^ ]*]] =
// CHECK: %[[I:.*]] = arith.addi %{{.*}}, %[[IV]] overflow<nsw>
// CHECK: %[[G:.*]] = llvm.getelementptr %arg0[%[[I]]]
// CHECK: %[[V:.*]] = llvm.load %[[G]] {alignment = 16 : i64} : !llvm.ptr -> vector<4xf32>
// CHECK: %[[K0:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: %[[E0:.*]] = llvm.extractelement %[[V]][%[[K0]] : i32] : vector<4xf32>
// CHECK-COUNT-3: llvm.extractelement %[[V]]
// CHECK: arith.addf %{{.*}}, %[[E0]]
// CHECK-NOT: llvm.getelementptr
// CHECK: %[[G4:.*]] = llvm.getelementptr %arg0[
// CHECK: llvm.load %[[G4]] {alignment = 16 : i64} : !llvm.ptr -> vector<4xf32>
// CHECK-NOT: llvm.getelementptr
// CHECK-NOT: llvm.load
// CHECK: scf.yield
func.func @unrolled(%p: !llvm.ptr {llvm.align = 16 : i64}, %tid: i32) -> f32 {
  %c0 = arith.constant 0 : i32
  %c8 = arith.constant 8 : i32
  %c256 = arith.constant 256 : i32
  %zero = arith.constant 0.0 : f32
  %row = arith.muli %tid, %c256 overflow<nsw> : i32
  %r = scf.for %iv = %c0 to %c256 step %c8 iter_args(%acc = %zero) -> (f32) : i32 {
    %i = arith.addi %row, %iv overflow<nsw> : i32
    %g0 = llvm.getelementptr %p[%i] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %v0 = llvm.load %g0 : !llvm.ptr -> f32
    %s0 = arith.addf %acc, %v0 : f32
    %xc1 = arith.constant 1 : i32
    %xi1 = arith.addi %i, %xc1 overflow<nsw> : i32
    %xg1 = llvm.getelementptr %p[%xi1] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %xv1 = llvm.load %xg1 : !llvm.ptr -> f32
    %xc2 = arith.constant 2 : i32
    %xi2 = arith.addi %i, %xc2 overflow<nsw> : i32
    %xg2 = llvm.getelementptr %p[%xi2] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %xv2 = llvm.load %xg2 : !llvm.ptr -> f32
    %xc3 = arith.constant 3 : i32
    %xi3 = arith.addi %i, %xc3 overflow<nsw> : i32
    %xg3 = llvm.getelementptr %p[%xi3] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %xv3 = llvm.load %xg3 : !llvm.ptr -> f32
    %xc4 = arith.constant 4 : i32
    %xi4 = arith.addi %i, %xc4 overflow<nsw> : i32
    %xg4 = llvm.getelementptr %p[%xi4] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %xv4 = llvm.load %xg4 : !llvm.ptr -> f32
    %xc5 = arith.constant 5 : i32
    %xi5 = arith.addi %i, %xc5 overflow<nsw> : i32
    %xg5 = llvm.getelementptr %p[%xi5] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %xv5 = llvm.load %xg5 : !llvm.ptr -> f32
    %xc6 = arith.constant 6 : i32
    %xi6 = arith.addi %i, %xc6 overflow<nsw> : i32
    %xg6 = llvm.getelementptr %p[%xi6] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %xv6 = llvm.load %xg6 : !llvm.ptr -> f32
    %xc7 = arith.constant 7 : i32
    %xi7 = arith.addi %i, %xc7 overflow<nsw> : i32
    %xg7 = llvm.getelementptr %p[%xi7] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %xv7 = llvm.load %xg7 : !llvm.ptr -> f32
    %s1 = arith.addf %s0, %xv1 : f32
    %s2 = arith.addf %s1, %xv2 : f32
    %s3 = arith.addf %s2, %xv3 : f32
    %s4 = arith.addf %s3, %xv4 : f32
    %s5 = arith.addf %s4, %xv5 : f32
    %s6 = arith.addf %s5, %xv6 : f32
    %s7 = arith.addf %s6, %xv7 : f32
    scf.yield %s7 : f32
  }
  return %r : f32
}

// -----

// Eight halves of a 16-aligned row, an ex2 intrinsic (no memory, by LLVM's
// table) between them: one vector<8xf16> (16 bytes).
// CHECK-LABEL: func.func @halves
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr -> vector<8xf16>
// CHECK-NOT: llvm.load
// CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.f16"
func.func @halves(%p: !llvm.ptr {llvm.align = 16 : i64}, %tid: i32) -> f16 {
  %c8 = arith.constant 8 : i32
  %i = arith.muli %tid, %c8 overflow<nsw> : i32
    %xc0 = arith.constant 0 : i32
    %xi0 = arith.addi %i, %xc0 overflow<nsw> : i32
    %xg0 = llvm.getelementptr %p[%xi0] : (!llvm.ptr, i32) -> !llvm.ptr, f16
    %xv0 = llvm.load %xg0 : !llvm.ptr -> f16
    %xc1 = arith.constant 1 : i32
    %xi1 = arith.addi %i, %xc1 overflow<nsw> : i32
    %xg1 = llvm.getelementptr %p[%xi1] : (!llvm.ptr, i32) -> !llvm.ptr, f16
    %xv1 = llvm.load %xg1 : !llvm.ptr -> f16
    %xc2 = arith.constant 2 : i32
    %xi2 = arith.addi %i, %xc2 overflow<nsw> : i32
    %xg2 = llvm.getelementptr %p[%xi2] : (!llvm.ptr, i32) -> !llvm.ptr, f16
    %xv2 = llvm.load %xg2 : !llvm.ptr -> f16
    %xc3 = arith.constant 3 : i32
    %xi3 = arith.addi %i, %xc3 overflow<nsw> : i32
    %xg3 = llvm.getelementptr %p[%xi3] : (!llvm.ptr, i32) -> !llvm.ptr, f16
    %xv3 = llvm.load %xg3 : !llvm.ptr -> f16
  %e = llvm.call_intrinsic "llvm.nvvm.ex2.approx.f16"(%xv0) : (f16) -> f16
    %xc4 = arith.constant 4 : i32
    %xi4 = arith.addi %i, %xc4 overflow<nsw> : i32
    %xg4 = llvm.getelementptr %p[%xi4] : (!llvm.ptr, i32) -> !llvm.ptr, f16
    %xv4 = llvm.load %xg4 : !llvm.ptr -> f16
    %xc5 = arith.constant 5 : i32
    %xi5 = arith.addi %i, %xc5 overflow<nsw> : i32
    %xg5 = llvm.getelementptr %p[%xi5] : (!llvm.ptr, i32) -> !llvm.ptr, f16
    %xv5 = llvm.load %xg5 : !llvm.ptr -> f16
    %xc6 = arith.constant 6 : i32
    %xi6 = arith.addi %i, %xc6 overflow<nsw> : i32
    %xg6 = llvm.getelementptr %p[%xi6] : (!llvm.ptr, i32) -> !llvm.ptr, f16
    %xv6 = llvm.load %xg6 : !llvm.ptr -> f16
    %xc7 = arith.constant 7 : i32
    %xi7 = arith.addi %i, %xc7 overflow<nsw> : i32
    %xg7 = llvm.getelementptr %p[%xi7] : (!llvm.ptr, i32) -> !llvm.ptr, f16
    %xv7 = llvm.load %xg7 : !llvm.ptr -> f16
  return %e : f16
}

// -----

// The alignment decides the width: a base of 8 bytes, two vector<2xf32>; a
// base with no known alignment, or an index with a term of odd
// coefficient, scalar loads.
// CHECK-LABEL: func.func @alignment
// CHECK-COUNT-2: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr -> vector<2xf32>
// CHECK-COUNT-8: llvm.load %{{.*}} : !llvm.ptr -> f32
// CHECK-NOT: llvm.load
func.func @alignment(%p: !llvm.ptr {llvm.align = 8 : i64}, %q: !llvm.ptr, %r: !llvm.ptr {llvm.align = 16 : i64}, %tid: i32) {
  %c8 = arith.constant 8 : i32
  %c3 = arith.constant 3 : i32
  %i = arith.muli %tid, %c8 overflow<nsw> : i32
  %j = arith.muli %tid, %c3 overflow<nsw> : i32
    %xc0 = arith.constant 0 : i32
    %xi0 = arith.addi %i, %xc0 overflow<nsw> : i32
    %xg0 = llvm.getelementptr %p[%xi0] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %xv0 = llvm.load %xg0 : !llvm.ptr -> f32
    %xc1 = arith.constant 1 : i32
    %xi1 = arith.addi %i, %xc1 overflow<nsw> : i32
    %xg1 = llvm.getelementptr %p[%xi1] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %xv1 = llvm.load %xg1 : !llvm.ptr -> f32
    %xc2 = arith.constant 2 : i32
    %xi2 = arith.addi %i, %xc2 overflow<nsw> : i32
    %xg2 = llvm.getelementptr %p[%xi2] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %xv2 = llvm.load %xg2 : !llvm.ptr -> f32
    %xc3 = arith.constant 3 : i32
    %xi3 = arith.addi %i, %xc3 overflow<nsw> : i32
    %xg3 = llvm.getelementptr %p[%xi3] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %xv3 = llvm.load %xg3 : !llvm.ptr -> f32
    %qc0 = arith.constant 0 : i32
    %qi0 = arith.addi %i, %qc0 overflow<nsw> : i32
    %qg0 = llvm.getelementptr %q[%qi0] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %qv0 = llvm.load %qg0 : !llvm.ptr -> f32
    %qc1 = arith.constant 1 : i32
    %qi1 = arith.addi %i, %qc1 overflow<nsw> : i32
    %qg1 = llvm.getelementptr %q[%qi1] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %qv1 = llvm.load %qg1 : !llvm.ptr -> f32
    %qc2 = arith.constant 2 : i32
    %qi2 = arith.addi %i, %qc2 overflow<nsw> : i32
    %qg2 = llvm.getelementptr %q[%qi2] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %qv2 = llvm.load %qg2 : !llvm.ptr -> f32
    %qc3 = arith.constant 3 : i32
    %qi3 = arith.addi %i, %qc3 overflow<nsw> : i32
    %qg3 = llvm.getelementptr %q[%qi3] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %qv3 = llvm.load %qg3 : !llvm.ptr -> f32
    %rc0 = arith.constant 0 : i32
    %ri0 = arith.addi %j, %rc0 overflow<nsw> : i32
    %rg0 = llvm.getelementptr %r[%ri0] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %rv0 = llvm.load %rg0 : !llvm.ptr -> f32
    %rc1 = arith.constant 1 : i32
    %ri1 = arith.addi %j, %rc1 overflow<nsw> : i32
    %rg1 = llvm.getelementptr %r[%ri1] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %rv1 = llvm.load %rg1 : !llvm.ptr -> f32
    %rc2 = arith.constant 2 : i32
    %ri2 = arith.addi %j, %rc2 overflow<nsw> : i32
    %rg2 = llvm.getelementptr %r[%ri2] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %rv2 = llvm.load %rg2 : !llvm.ptr -> f32
    %rc3 = arith.constant 3 : i32
    %ri3 = arith.addi %j, %rc3 overflow<nsw> : i32
    %rg3 = llvm.getelementptr %r[%ri3] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %rv3 = llvm.load %rg3 : !llvm.ptr -> f32
  return
}

// -----

// A store between the loads ends the run: elements 0-1 and 2-3 as two
// vector<2xf32>.
// CHECK-LABEL: func.func @store_between
// CHECK: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr -> vector<2xf32>
// CHECK: llvm.store
// CHECK: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr -> vector<2xf32>
// CHECK-NOT: llvm.load
func.func @store_between(%p: !llvm.ptr {llvm.align = 16 : i64}, %tid: i32, %f: f32) {
  %c8 = arith.constant 8 : i32
  %i = arith.muli %tid, %c8 overflow<nsw> : i32
    %xc0 = arith.constant 0 : i32
    %xi0 = arith.addi %i, %xc0 overflow<nsw> : i32
    %xg0 = llvm.getelementptr %p[%xi0] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %xv0 = llvm.load %xg0 : !llvm.ptr -> f32
    %xc1 = arith.constant 1 : i32
    %xi1 = arith.addi %i, %xc1 overflow<nsw> : i32
    %xg1 = llvm.getelementptr %p[%xi1] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %xv1 = llvm.load %xg1 : !llvm.ptr -> f32
  llvm.store %f, %p : f32, !llvm.ptr
    %xc2 = arith.constant 2 : i32
    %xi2 = arith.addi %i, %xc2 overflow<nsw> : i32
    %xg2 = llvm.getelementptr %p[%xi2] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %xv2 = llvm.load %xg2 : !llvm.ptr -> f32
    %xc3 = arith.constant 3 : i32
    %xi3 = arith.addi %i, %xc3 overflow<nsw> : i32
    %xg3 = llvm.getelementptr %p[%xi3] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %xv3 = llvm.load %xg3 : !llvm.ptr -> f32
  return
}

// -----

// Adds that may wrap are not looked through, a volatile load stays, and an
// element loaded twice is loaded in the vector and once more alone.
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-4: llvm.load %{{.*}} : !llvm.ptr -> f32
// CHECK: llvm.load volatile
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr -> vector<4xf32>
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> f32
// CHECK-NOT: llvm.load
func.func @kept(%p: !llvm.ptr {llvm.align = 16 : i64}, %tid: i32) {
  %c8 = arith.constant 8 : i32
  %i = arith.muli %tid, %c8 overflow<nsw> : i32
    %wc0 = arith.constant 0 : i32
    %wi0 = arith.addi %i, %wc0 : i32
    %wg0 = llvm.getelementptr %p[%wi0] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %wv0 = llvm.load %wg0 : !llvm.ptr -> f32
    %wc1 = arith.constant 1 : i32
    %wi1 = arith.addi %i, %wc1 : i32
    %wg1 = llvm.getelementptr %p[%wi1] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %wv1 = llvm.load %wg1 : !llvm.ptr -> f32
    %wc2 = arith.constant 2 : i32
    %wi2 = arith.addi %i, %wc2 : i32
    %wg2 = llvm.getelementptr %p[%wi2] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %wv2 = llvm.load %wg2 : !llvm.ptr -> f32
    %wc3 = arith.constant 3 : i32
    %wi3 = arith.addi %i, %wc3 : i32
    %wg3 = llvm.getelementptr %p[%wi3] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %wv3 = llvm.load %wg3 : !llvm.ptr -> f32
  %gv = llvm.getelementptr %p[%i] : (!llvm.ptr, i32) -> !llvm.ptr, f32
  %vv = llvm.load volatile %gv : !llvm.ptr -> f32
    %dc0 = arith.constant 0 : i32
    %di0 = arith.addi %i, %dc0 overflow<nsw> : i32
    %dg0 = llvm.getelementptr %p[%di0] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %dv0 = llvm.load %dg0 : !llvm.ptr -> f32
    %dc1 = arith.constant 1 : i32
    %di1 = arith.addi %i, %dc1 overflow<nsw> : i32
    %dg1 = llvm.getelementptr %p[%di1] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %dv1 = llvm.load %dg1 : !llvm.ptr -> f32
    %dc2 = arith.constant 2 : i32
    %di2 = arith.addi %i, %dc2 overflow<nsw> : i32
    %dg2 = llvm.getelementptr %p[%di2] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %dv2 = llvm.load %dg2 : !llvm.ptr -> f32
    %dc3 = arith.constant 3 : i32
    %di3 = arith.addi %i, %dc3 overflow<nsw> : i32
    %dg3 = llvm.getelementptr %p[%di3] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %dv3 = llvm.load %dg3 : !llvm.ptr -> f32
    %ec0 = arith.constant 0 : i32
    %ei0 = arith.addi %i, %ec0 overflow<nsw> : i32
    %eg0 = llvm.getelementptr %p[%ei0] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %ev0 = llvm.load %eg0 : !llvm.ptr -> f32
  return
}

// -----

// A shared array's alignment comes from its global; constant indices.
// CHECK-LABEL: func.func @shared
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
// CHECK-NOT: llvm.load
llvm.mlir.global internal @temp() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<4 x f32>
func.func @shared() -> f32 {
  %p = llvm.mlir.addressof @temp : !llvm.ptr<3>
  %g0 = llvm.getelementptr %p[0] : (!llvm.ptr<3>) -> !llvm.ptr<3>, f32
  %g1 = llvm.getelementptr %p[1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, f32
  %g2 = llvm.getelementptr %p[2] : (!llvm.ptr<3>) -> !llvm.ptr<3>, f32
  %g3 = llvm.getelementptr %p[3] : (!llvm.ptr<3>) -> !llvm.ptr<3>, f32
  %v0 = llvm.load %g0 : !llvm.ptr<3> -> f32
  %v1 = llvm.load %g1 : !llvm.ptr<3> -> f32
  %v2 = llvm.load %g2 : !llvm.ptr<3> -> f32
  %v3 = llvm.load %g3 : !llvm.ptr<3> -> f32
  %a = arith.addf %v0, %v1 : f32
  %b = arith.addf %v2, %v3 : f32
  %c = arith.addf %a, %b : f32
  return %c : f32
}

// -----

// Constants at the end of int64: as f32 their byte offsets leave int64, so
// nothing is proven and the loads stay; as i8 the elements at INT64_MAX - 1
// and INT64_MAX (an even offset from a multiple of 8) are one vector<2xi8>.
// CHECK-LABEL: func.func @extreme
// CHECK-COUNT-2: llvm.load %{{.*}} : !llvm.ptr -> f32
// CHECK: llvm.load %{{.*}} {alignment = 2 : i64} : !llvm.ptr -> vector<2xi8>
// CHECK-NOT: llvm.load
func.func @extreme(%p: !llvm.ptr {llvm.align = 16 : i64}, %tid: i64) -> (f32, i8) {
  %c8 = arith.constant 8 : i64
  %m1 = arith.constant 9223372036854775806 : i64
  %m = arith.constant 9223372036854775807 : i64
  %i = arith.muli %tid, %c8 overflow<nsw> : i64
  %i0 = arith.addi %i, %m1 overflow<nsw> : i64
  %i1 = arith.addi %i, %m overflow<nsw> : i64
  %g0 = llvm.getelementptr %p[%i0] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %g1 = llvm.getelementptr %p[%i1] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %v0 = llvm.load %g0 : !llvm.ptr -> f32
  %v1 = llvm.load %g1 : !llvm.ptr -> f32
  %s = arith.addf %v0, %v1 : f32
  %b0 = llvm.getelementptr %p[%i0] : (!llvm.ptr, i64) -> !llvm.ptr, i8
  %b1 = llvm.getelementptr %p[%i1] : (!llvm.ptr, i64) -> !llvm.ptr, i8
  %w0 = llvm.load %b0 : !llvm.ptr -> i8
  %w1 = llvm.load %b1 : !llvm.ptr -> i8
  %t = arith.addi %w0, %w1 : i8
  return %s, %t : f32, i8
}

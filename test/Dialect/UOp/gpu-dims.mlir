// uop-gpu-dims: tinygrad's gpudims. Global axes become block indices, last
// axis first (gidx0 is the fastest-varying one); local axes become thread
// indices in order; dimensions are merged or split to fit the target.
// RUN: uop-opt %s --split-input-file --uop-gpu-dims | FileCheck %s

// Three global axes: gidx0 is axis 2, gidx2 axis 0; reduce ranges stay.
// CHECK-LABEL: uop.kernel @three_global
// CHECK-DAG: %[[G0:.*]] = uop.special "gidx0" 8 : si32
// CHECK-DAG: %[[G1:.*]] = uop.special "gidx1" 6 : si32
// CHECK-DAG: %[[G2:.*]] = uop.special "gidx2" 4 : si32
// CHECK-DAG: %[[R:.*]] = uop.range %{{.*}} axis 3 reduce : si32
// CHECK-NOT: global
// CHECK: uop.mul %[[G2]], %{{.*}} : si32
// CHECK: uop.mul %[[G1]], %{{.*}} : si32
// CHECK: uop.add %{{.*}}, %[[G0]] : si32
module attributes {uop.target = #uop.target<"sm_80">} {
  uop.kernel @three_global {
    %c4 = uop.const 4 : si32
    %c6 = uop.const 6 : si32
    %c8 = uop.const 8 : si32
    %c3 = uop.const 3 : si32
    %r0 = uop.range %c4 axis 0 global : si32
    %r1 = uop.range %c6 axis 1 global : si32
    %r2 = uop.range %c8 axis 2 global : si32
    %r3 = uop.range %c3 axis 3 reduce : si32
    %c48 = uop.const 48 : si32
    %a = uop.mul %r0, %c48 : si32
    %b = uop.mul %r1, %c8 : si32
    %ab = uop.add %a, %b : si32
    %i = uop.add %ab, %r2 : si32
    %o = uop.define_global 0 : !uop.ptr<si32, 192>
    %x = uop.reduce add %r3 [%r3 : si32] : si32
    %p = uop.index %o[%i] : !uop.ptr<si32, 192>, si32
    %s = uop.store %p, %x : !uop.ptr<si32, 192>
    uop.sink %s
  }
}

// -----

// Four global axes (a, b, c, d), taken reversed as (d, c, b, a): the first
// two merge into one block index, unpacked as idx % d and idx // d.
// CHECK-LABEL: uop.kernel @four_global
// CHECK-DAG: %[[G0:.*]] = uop.special "gidx0" 10 : si32
// CHECK-DAG: %[[G1:.*]] = uop.special "gidx1" 3 : si32
// CHECK-DAG: %[[G2:.*]] = uop.special "gidx2" 2 : si32
// CHECK-DAG: %[[D:.*]] = uop.mod %[[G0]], %{{.*}} : si32
// CHECK-DAG: %[[C:.*]] = uop.idiv %[[G0]], %{{.*}} : si32
// CHECK: uop.index %{{.*}}[%[[G2]]]
// CHECK: uop.index %{{.*}}[%[[G1]]]
// CHECK: uop.index %{{.*}}[%[[C]]]
// CHECK: uop.index %{{.*}}[%[[D]]]
module attributes {uop.target = #uop.target<"sm_80">} {
  uop.kernel @four_global {
    %c2 = uop.const 2 : si32
    %c3 = uop.const 3 : si32
    %c5 = uop.const 5 : si32
    %r0 = uop.range %c2 axis 0 global : si32
    %r1 = uop.range %c3 axis 1 global : si32
    %r2 = uop.range %c2 axis 2 global : si32
    %r3 = uop.range %c5 axis 3 global : si32
    %o = uop.define_global 0 : !uop.ptr<si32, 4>
    %p0 = uop.index %o[%r0] : !uop.ptr<si32, 4>, si32
    %p1 = uop.index %o[%r1] : !uop.ptr<si32, 4>, si32
    %p2 = uop.index %o[%r2] : !uop.ptr<si32, 4>, si32
    %p3 = uop.index %o[%r3] : !uop.ptr<si32, 4>, si32
    %s0 = uop.store %p0, %r0 : !uop.ptr<si32, 4>
    %s1 = uop.store %p1, %r1 : !uop.ptr<si32, 4>
    %s2 = uop.store %p2, %r2 : !uop.ptr<si32, 4>
    %s3 = uop.store %p3, %r3 : !uop.ptr<si32, 4>
    uop.sink %s0, %s1, %s2, %s3
  }
}

// -----

// A local axis over local_max (1024) is split by its smallest factor into
// the next dimension: lidx0 1024, lidx1 2, the axis is lidx0 * 2 + lidx1.
// CHECK-LABEL: uop.kernel @split_local
// CHECK-DAG: %[[L0:.*]] = uop.special "lidx0" 1024 : si32
// CHECK-DAG: %[[L1:.*]] = uop.special "lidx1" 2 : si32
// CHECK: %[[M:.*]] = uop.mul %[[L0]], %{{.*}} : si32
// CHECK: %[[F:.*]] = uop.add %[[M]], %[[L1]] : si32
// CHECK: uop.index %{{.*}}[%[[F]]]
module attributes {uop.target = #uop.target<"sm_80">} {
  uop.kernel @split_local {
    %c = uop.const 2048 : si32
    %r = uop.range %c axis 0 local : si32
    %o = uop.define_global 0 : !uop.ptr<si32, 2048>
    %p = uop.index %o[%r] : !uop.ptr<si32, 2048>, si32
    %s = uop.store %p, %r : !uop.ptr<si32, 2048>
    uop.sink %s
  }
}

// -----

// The target's limits decide: with global_max [16, 8, 8], four axes of 4
// fit as (16, 4, 4).
module attributes {uop.target = #uop.target<"sm_80", global_max = [16, 8, 8]>} {
  uop.kernel @grouped_small_grid {
    %c4 = uop.const 4 : si32
    %r0 = uop.range %c4 axis 0 global : si32
    %r1 = uop.range %c4 axis 1 global : si32
    %r2 = uop.range %c4 axis 2 global : si32
    %r3 = uop.range %c4 axis 3 global : si32
    %a = uop.add %r0, %r1 : si32
    %b = uop.add %r2, %r3 : si32
    %i = uop.add %a, %b : si32
    %o = uop.define_global 0 : !uop.ptr<si32, 16>
    %p = uop.index %o[%i] : !uop.ptr<si32, 16>, si32
    %s = uop.store %p, %i : !uop.ptr<si32, 16>
    uop.sink %s
  }
}
// CHECK-LABEL: uop.kernel @grouped_small_grid
// CHECK-DAG: uop.special "gidx0" 16 : si32
// CHECK-DAG: uop.special "gidx1" 4 : si32
// CHECK-DAG: uop.special "gidx2" 4 : si32

// -----

// A kernel without global or local ranges is left alone (grid 1x1x1).
// CHECK-LABEL: uop.kernel @scalar
// CHECK-NOT: uop.special
module attributes {uop.target = #uop.target<"sm_80">} {
  uop.kernel @scalar {
    %z = uop.const 0 : si32
    %o = uop.define_global 0 : !uop.ptr<si32, 1>
    %p = uop.index %o[%z] : !uop.ptr<si32, 1>, si32
    %s = uop.store %p, %z : !uop.ptr<si32, 1>
    uop.sink %s
  }
}

// -----

// Symbolic sizes (tinygrad's Variables): a global axis of n + 1 rows becomes
// a SPECIAL of that size, bounded by its maximum (16), computed first in the
// body even where the kernel computed it after another range's uses. As in
// tinygrad, symbolic dimensions are neither grouped nor split.
// CHECK-LABEL: uop.kernel @symbolic
// CHECK: %[[N:.*]] = uop.define_var "n" [1, 15] : si32
// CHECK: %[[N1:.*]] = uop.add %[[N]], %{{.*}} : si32
// CHECK-DAG: uop.special "gidx0" 4 : si32
// CHECK-DAG: uop.special "gidx1" size %[[N1]] max 16 : si32
// CHECK-NOT: axis {{[0-9]+}} global
module attributes {uop.target = #uop.target<"sm_80">} {
  uop.kernel @symbolic {
    %c4 = uop.const 4 : si32
    %r1 = uop.range %c4 axis 1 global : si32
    %o = uop.define_global 0 : !uop.ptr<si32, 64>
    %n = uop.define_var "n" [1, 15] : si32
    %c1 = uop.const 1 : si32
    %n1 = uop.add %n, %c1 : si32
    %r0 = uop.range %n1 axis 0 global : si32
    %a = uop.mul %r0, %c4 : si32
    %i = uop.add %a, %r1 : si32
    %p = uop.index %o[%i] : !uop.ptr<si32, 64>, si32
    %s = uop.store %p, %r1 : !uop.ptr<si32, 64>
    uop.sink %s
  }
}

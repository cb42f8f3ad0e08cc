// uop-expand on upcast axes (tinygrad's expander): a STORE that depends on
// an upcast range becomes one STORE per value of it, with a copy of the
// REDUCE on the way; the code generators run the copies over the same K
// range in one loop, one accumulator each (a register tile). (Folding the
// copies into vector accesses is uop-devectorize's: devectorize.mlir.)
// RUN: uop-opt %s --uop-expand | FileCheck %s
// RUN: uop-opt %s --uop-expand --convert-uop-to-scf | FileCheck %s --check-prefix=SCF

// CHECK-LABEL: uop.kernel @tile
// CHECK-NOT: upcast
// CHECK: %[[K:.*]] = uop.range %{{.*}} axis 0 reduce
// CHECK: %[[S0:.*]] = uop.reduce add %{{.*}} [%[[K]] : si32] : f32
// CHECK: %[[ST0:.*]] = uop.store %{{.*}}, %[[S0]]
// CHECK: %[[S1:.*]] = uop.reduce add %{{.*}} [%[[K]] : si32] : f32
// CHECK: %[[ST1:.*]] = uop.store %{{.*}}, %[[S1]]
// CHECK: uop.sink %[[ST0]], %[[ST1]]{{$}}

// SCF-LABEL: func.func @tile
// SCF: %[[ACC:.*]]:2 = scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (f32, f32)
// SCF-NOT: scf.for
// SCF: llvm.store %[[ACC]]#0
// SCF: llvm.store %[[ACC]]#1
uop.kernel @tile {
  %c2 = uop.const 2 : si32
  %c4 = uop.const 4 : si32
  %u = uop.range %c2 axis 1 upcast : si32
  %k = uop.range %c4 axis 0 reduce : si32
  %out = uop.define_global 0 : !uop.ptr<f32, 2>
  %in = uop.define_global 1 : !uop.ptr<f32, 8>
  %row = uop.mul %u, %c4 : si32
  %i = uop.add %row, %k : si32
  %p = uop.index %in[%i] : !uop.ptr<f32, 8>, si32
  %x = uop.load %p : !uop.ptr<f32, 8>
  %s = uop.reduce add %x [%k : si32] : f32
  %q = uop.index %out[%u] : !uop.ptr<f32, 2>, si32
  %st = uop.store %q, %s : !uop.ptr<f32, 2>
  uop.sink %st
}

// Unroll axes (UNROLL: reduced upcast axes): the REDUCE's source once per
// value of the axis, and a horizontal REDUCE of that vector over the other
// range, acc op x[0] op x[1] ... in tinygrad's order. With no other range,
// the lanes are combined in order, without an accumulator.
// CHECK-LABEL: uop.kernel @unrolled
// CHECK: %[[K:.*]] = uop.range %{{.*}} axis 1 reduce
// CHECK-NOT: unroll
// CHECK: %[[X0:.*]] = uop.load
// CHECK: %[[X1:.*]] = uop.load
// CHECK: %[[X2:.*]] = uop.load
// CHECK: %[[X3:.*]] = uop.load
// CHECK: %[[V:.*]] = uop.vectorize %[[X0]], %[[X1]], %[[X2]], %[[X3]] : f32
// CHECK: %[[S:.*]] = uop.reduce add %[[V]] [%[[K]] : si32] : vector<4xf32> -> f32
// CHECK: uop.store %{{.*}}, %[[S]]
// SCF-LABEL: func.func @unrolled
// SCF: scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (f32)
// SCF: %[[A0:.*]] = arith.addf %[[ACC]], %{{.*}} : f32
// SCF: %[[A1:.*]] = arith.addf %[[A0]], %{{.*}} : f32
// SCF: %[[A2:.*]] = arith.addf %[[A1]], %{{.*}} : f32
// SCF: %[[A3:.*]] = arith.addf %[[A2]], %{{.*}} : f32
// SCF: scf.yield %[[A3]]
uop.kernel @unrolled {
  %c4 = uop.const 4 : si32
  %c16 = uop.const 16 : si32
  %k = uop.range %c4 axis 1 reduce : si32
  %u = uop.range %c4 axis 2 unroll : si32
  %out = uop.define_global 0 : !uop.ptr<f32, 1>
  %in = uop.define_global 1 : !uop.ptr<f32, 16>
  %k4 = uop.mul %k, %c4 : si32
  %i = uop.add %k4, %u : si32
  %p = uop.index %in[%i] : !uop.ptr<f32, 16>, si32
  %x = uop.load %p : !uop.ptr<f32, 16>
  %s = uop.reduce add %x [%k, %u : si32, si32] : f32
  %c0 = uop.const 0 : si32
  %q = uop.index %out[%c0] : !uop.ptr<f32, 1>, si32
  %st = uop.store %q, %s : !uop.ptr<f32, 1>
  uop.sink %st
}

// CHECK-LABEL: uop.kernel @unrolled_whole
// CHECK-NOT: uop.reduce
// CHECK: %[[X0:.*]] = uop.load
// CHECK: %[[X1:.*]] = uop.load
// CHECK: %[[M:.*]] = uop.max %[[X0]], %[[X1]] : f32
// CHECK: uop.store %{{.*}}, %[[M]]
// SCF-LABEL: func.func @unrolled_whole
// SCF-NOT: scf.for
uop.kernel @unrolled_whole {
  %c2 = uop.const 2 : si32
  %u = uop.range %c2 axis 0 unroll : si32
  %out = uop.define_global 0 : !uop.ptr<f32, 1>
  %in = uop.define_global 1 : !uop.ptr<f32, 2>
  %p = uop.index %in[%u] : !uop.ptr<f32, 2>, si32
  %x = uop.load %p : !uop.ptr<f32, 2>
  %s = uop.reduce max %x [%u : si32] : f32
  %c0 = uop.const 0 : si32
  %q = uop.index %out[%c0] : !uop.ptr<f32, 1>, si32
  %st = uop.store %q, %s : !uop.ptr<f32, 1>
  uop.sink %st
}

// A store kept as a loop (512 copies would be too many) of an UNROLL: the
// UNROLL picks its lane by its axis's range, which uop-expand makes (at the
// top of the body, so that it comes before its uses).
// CHECK-LABEL: uop.kernel @unroll_in_a_loop
// CHECK: %[[R:.*]] = uop.range %{{.*}} axis 2 upcast
// CHECK: uop.cmpeq %[[R]]
// CHECK: uop.where
// SCF-LABEL: func.func @unroll_in_a_loop
// SCF: scf.for
// SCF: scf.for
uop.kernel @unroll_in_a_loop {
  %c512 = uop.const 512 : si32
  %u = uop.range %c512 axis 1 upcast : si32
  %out = uop.define_global 0 : !uop.ptr<f32, 512>
  %one = uop.const 1.0 : f32
  %two = uop.const 2.0 : f32
  %v = uop.vectorize %one, %two, %one, %two : f32
  %w = uop.unroll %v axes <(2, 4)> : vector<4xf32>
  %q = uop.index %out[%u] : !uop.ptr<f32, 512>, si32
  %st = uop.store %q, %w : !uop.ptr<f32, 512>
  uop.sink %st
}

// Copies are hash-consed within a STORE's copies, as tinygrad's UOps are:
// the copies for u1 = 0 and u1 = 1 share the math that depends on u0 only
// (one MUL and one INDEX of `in` per value of u0, not per copy). A LOAD is
// shared only while no op that may write memory came between, CSE's rule:
// here each copy's STORE does, so the LOAD of in[u0] is made once per copy.
// CHECK-LABEL: uop.kernel @shared_copies
// CHECK-DAG: %[[C0:.*]] = uop.const 0 : si32
// CHECK-DAG: %[[C1:.*]] = uop.const 1 : si32
// CHECK: %[[M0:.*]] = uop.mul %[[C0]], %{{.*}} : si32
// CHECK: uop.add %[[M0]], %[[C0]]
// CHECK: %[[P0:.*]] = uop.index %{{.*}}[%[[C0]]]
// CHECK: uop.load %[[P0]]
// CHECK: uop.store
// CHECK-NOT: uop.mul
// CHECK-NOT: uop.index %{{.*}}[%[[C0]]]
// CHECK: uop.add %[[M0]], %[[C1]]
// CHECK-NOT: uop.mul
// CHECK: uop.load %[[P0]]
// CHECK: uop.store
// CHECK: %[[M1:.*]] = uop.mul %[[C1]], %{{.*}} : si32
// CHECK: uop.add %[[M1]], %[[C0]]
// CHECK: %[[P1:.*]] = uop.index %{{.*}}[%[[C1]]]
// CHECK: uop.load %[[P1]]
// CHECK: uop.store
// CHECK-NOT: uop.mul
// CHECK: uop.add %[[M1]], %[[C1]]
// CHECK-NOT: uop.mul
// CHECK: uop.load %[[P1]]
// CHECK: uop.store
// CHECK: uop.sink
uop.kernel @shared_copies {
  %c2 = uop.const 2 : si32
  %c3 = uop.const 3 : si32
  %u0 = uop.range %c2 axis 0 upcast : si32
  %u1 = uop.range %c2 axis 1 upcast : si32
  %out = uop.define_global 0 : !uop.ptr<f32, 8>
  %in = uop.define_global 1 : !uop.ptr<f32, 2>
  %p = uop.index %in[%u0] : !uop.ptr<f32, 2>, si32
  %x = uop.load %p : !uop.ptr<f32, 2>
  %row = uop.mul %u0, %c3 : si32
  %i = uop.add %row, %u1 : si32
  %q = uop.index %out[%i] : !uop.ptr<f32, 8>, si32
  %st = uop.store %q, %x : !uop.ptr<f32, 8>
  uop.sink %st
}

// Within one batch of copies with no write between them, a LOAD is shared
// like pure math: the four lanes of the unrolled REDUCE read in[u0] and
// w[u1], two loads of each, not four.
// CHECK-LABEL: uop.kernel @shared_loads
// CHECK-DAG: %[[C0:.*]] = uop.const 0 : si32
// CHECK-DAG: %[[C1:.*]] = uop.const 1 : si32
// CHECK: %[[I0:.*]] = uop.index %[[IN:.*]][%[[C0]]]
// CHECK: %[[X0:.*]] = uop.load %[[I0]]
// CHECK: %[[W0:.*]] = uop.index %[[W:.*]][%[[C0]]]
// CHECK: %[[Y0:.*]] = uop.load %[[W0]]
// CHECK: %[[M00:.*]] = uop.mul %[[X0]], %[[Y0]]
// CHECK: %[[W1:.*]] = uop.index %[[W]][%[[C1]]]
// CHECK: %[[Y1:.*]] = uop.load %[[W1]]
// CHECK: %[[M01:.*]] = uop.mul %[[X0]], %[[Y1]]
// CHECK: %[[I1:.*]] = uop.index %[[IN]][%[[C1]]]
// CHECK: %[[X1:.*]] = uop.load %[[I1]]
// CHECK: %[[M10:.*]] = uop.mul %[[X1]], %[[Y0]]
// CHECK-NOT: uop.load
// CHECK: %[[M11:.*]] = uop.mul %[[X1]], %[[Y1]]
// CHECK-NOT: uop.load
// CHECK: uop.store
uop.kernel @shared_loads {
  %c2 = uop.const 2 : si32
  %u0 = uop.range %c2 axis 0 unroll : si32
  %u1 = uop.range %c2 axis 1 unroll : si32
  %out = uop.define_global 0 : !uop.ptr<f32, 1>
  %in = uop.define_global 1 : !uop.ptr<f32, 2>
  %w = uop.define_global 2 : !uop.ptr<f32, 2>
  %p = uop.index %in[%u0] : !uop.ptr<f32, 2>, si32
  %x = uop.load %p : !uop.ptr<f32, 2>
  %q = uop.index %w[%u1] : !uop.ptr<f32, 2>, si32
  %y = uop.load %q : !uop.ptr<f32, 2>
  %m = uop.mul %x, %y : f32
  %s = uop.reduce add %m [%u0, %u1 : si32, si32] : f32
  %c0 = uop.const 0 : si32
  %o = uop.index %out[%c0] : !uop.ptr<f32, 1>, si32
  %st = uop.store %o, %s : !uop.ptr<f32, 1>
  uop.sink %st
}

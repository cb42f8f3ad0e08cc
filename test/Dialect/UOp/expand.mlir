// uop-expand on upcast axes (tinygrad's expander): a STORE that depends on
// an upcast range becomes one STORE per value of it, with a copy of the
// REDUCE on the way; the code generators run the copies over the same K
// range in one loop, one accumulator each (a register tile). Then the
// devectorizer folds the copies of a STORE (and of a LOAD) that access
// consecutive, aligned elements into one vector access.
// RUN: uop-opt %s --uop-expand | FileCheck %s
// RUN: uop-opt %s --uop-expand --convert-uop-to-scf | FileCheck %s --check-prefix=SCF

// CHECK-LABEL: uop.kernel @tile
// CHECK-NOT: upcast
// CHECK: %[[K:.*]] = uop.range %{{.*}} axis 0 reduce
// CHECK: %[[S0:.*]] = uop.reduce add %{{.*}} [%[[K]] : si32] : f32
// CHECK: %[[S1:.*]] = uop.reduce add %{{.*}} [%[[K]] : si32] : f32
// CHECK: %[[V:.*]] = uop.vectorize %[[S0]], %[[S1]] : f32
// CHECK: %[[P:.*]] = uop.cast %{{.*}} : !uop.ptr<f32, 2> -> !uop.ptr<vector<2xf32>, 1>
// CHECK: %[[ST:.*]] = uop.store %[[P]], %[[V]] : !uop.ptr<vector<2xf32>, 1>
// CHECK: uop.sink %[[ST]]{{$}}

// SCF-LABEL: func.func @tile
// SCF: %[[ACC:.*]]:2 = scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (f32, f32)
// SCF-NOT: scf.for
// SCF: llvm.insertelement %[[ACC]]#0
// SCF: llvm.insertelement %[[ACC]]#1
// SCF: llvm.store %{{.*}} : vector<2xf32>, !llvm.ptr
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

// Copies are folded along any upcast axis, by their element offsets (here
// the first axis is the contiguous one), and under one gate: one gated
// vector load with its alt value in every lane, one gated vector store.
// CHECK-LABEL: uop.kernel @fold_across_axes
// CHECK: %[[Z:.*]] = uop.const 0.0{{.*}} : f32
// CHECK: %[[ALT:.*]] = uop.vectorize %[[Z]], %[[Z]], %[[Z]], %[[Z]] : f32
// CHECK: %[[PIN:.*]] = uop.cast %{{.*}} : !uop.ptr<f32, 16> -> !uop.ptr<vector<4xf32>, 4>
// CHECK: %[[X:.*]] = uop.load %[[PIN]] alt %[[ALT]] : vector<4xf32>
// CHECK: %[[POUT:.*]] = uop.cast %{{.*}} : !uop.ptr<f32, 16> -> !uop.ptr<vector<4xf32>, 4>
// CHECK: %[[ST:.*]] = uop.store %[[POUT]], %[[X]] gate %{{.*}} : i1 : !uop.ptr<vector<4xf32>, 4>
// CHECK: uop.sink %[[ST]]{{$}}
uop.kernel @fold_across_axes {
  %c2 = uop.const 2 : si32
  %c3 = uop.const 3 : si32
  %c4 = uop.const 4 : si32
  %z = uop.const 0.0 : f32
  %g = uop.range %c4 axis 0 global : si32
  %a = uop.range %c2 axis 1 upcast : si32
  %b = uop.range %c2 axis 2 upcast : si32
  %out = uop.define_global 0 : !uop.ptr<f32, 16>
  %in = uop.define_global 1 : !uop.ptr<f32, 16>
  %base = uop.mul %g, %c4 : si32
  %b2 = uop.mul %b, %c2 : si32
  %off = uop.add %a, %b2 : si32
  %i = uop.add %base, %off : si32
  %ok = uop.cmplt %g, %c3 : si32
  %p = uop.index %in[%i] gate %ok : i1 : !uop.ptr<f32, 16>, si32
  %x = uop.load %p alt %z : f32 : !uop.ptr<f32, 16>
  %q = uop.index %out[%i] : !uop.ptr<f32, 16>, si32
  %st = uop.store %q, %x gate %ok : i1 : !uop.ptr<f32, 16>
  uop.sink %st
}

// Split by alignment: four consecutive stores whose first element is only
// known to be even are two vector stores of 2 (the loads, 4-aligned, one of 4).
// CHECK-LABEL: uop.kernel @split
// CHECK: uop.load %{{.*}} : !uop.ptr<vector<4xf32>, 4>
// CHECK: uop.store %{{.*}} : !uop.ptr<vector<2xf32>, 8>
// CHECK: uop.store %{{.*}} : !uop.ptr<vector<2xf32>, 8>
// CHECK: uop.sink %{{[0-9]+}}, %{{[0-9]+}}{{$}}
uop.kernel @split {
  %c2 = uop.const 2 : si32
  %c4 = uop.const 4 : si32
  %c8 = uop.const 8 : si32
  %g = uop.range %c2 axis 0 global : si32
  %u = uop.range %c4 axis 1 upcast : si32
  %out = uop.define_global 0 : !uop.ptr<f32, 16>
  %in = uop.define_global 1 : !uop.ptr<f32, 16>
  %base = uop.mul %g, %c8 : si32
  %i = uop.add %base, %u : si32
  %p = uop.index %in[%i] : !uop.ptr<f32, 16>, si32
  %x = uop.load %p : !uop.ptr<f32, 16>
  %j = uop.add %i, %c2 : si32
  %q = uop.index %out[%j] : !uop.ptr<f32, 16>, si32
  %st = uop.store %q, %x : !uop.ptr<f32, 16>
  uop.sink %st
}

// Not folded: loads under different gates (the gate depends on the upcast
// axis) and stores two elements apart.
// CHECK-LABEL: uop.kernel @no_fold
// CHECK-NOT: vector
// CHECK: uop.sink %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}{{$}}
uop.kernel @no_fold {
  %c2 = uop.const 2 : si32
  %c3 = uop.const 3 : si32
  %c4 = uop.const 4 : si32
  %z = uop.const 0.0 : f32
  %u = uop.range %c4 axis 0 upcast : si32
  %out = uop.define_global 0 : !uop.ptr<f32, 8>
  %in = uop.define_global 1 : !uop.ptr<f32, 4>
  %ok = uop.cmplt %u, %c3 : si32
  %p = uop.index %in[%u] gate %ok : i1 : !uop.ptr<f32, 4>, si32
  %x = uop.load %p alt %z : f32 : !uop.ptr<f32, 4>
  %i = uop.mul %u, %c2 : si32
  %q = uop.index %out[%i] : !uop.ptr<f32, 8>, si32
  %st = uop.store %q, %x : !uop.ptr<f32, 8>
  uop.sink %st
}

// uop-devectorize (tinygrad's devectorizer: load_store_folding and
// split_load_store) on expanded kernels, after canonicalize and CSE: loads
// and stores of consecutive elements under one gate become vector accesses,
// split by alignment; the rest stay scalar.
// RUN: uop-opt %s --uop-expand --canonicalize --cse --uop-devectorize | FileCheck %s

// The copies of a register tile's store: one vector store of 2.
// CHECK-LABEL: uop.kernel @tile
// CHECK: %[[S0:.*]] = uop.reduce add %{{.*}} : f32
// CHECK: %[[S1:.*]] = uop.reduce add %{{.*}} : f32
// CHECK: %[[V:.*]] = uop.vectorize %[[S0]], %[[S1]] : f32
// CHECK: %[[P:.*]] = uop.cast %{{.*}} : !uop.ptr<f32, 2> -> !uop.ptr<vector<2xf32>, 1>
// CHECK: %[[ST:.*]] = uop.store %[[P]], %[[V]] : !uop.ptr<vector<2xf32>, 1>
// CHECK: uop.sink %[[ST]]{{$}}
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

// Not folded: loads under different gates (j < n for a variable n depends
// on the upcast axis) and stores two elements apart.
// CHECK-LABEL: uop.kernel @no_fold
// CHECK-NOT: vector
// CHECK: uop.sink %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}{{$}}
uop.kernel @no_fold {
  %c2 = uop.const 2 : si32
  %c4 = uop.const 4 : si32
  %n = uop.define_var "n" [1, 8] : si32
  %z = uop.const 0.0 : f32
  %g = uop.range %c2 axis 0 global : si32
  %u = uop.range %c4 axis 1 upcast : si32
  %out = uop.define_global 0 : !uop.ptr<f32, 16>
  %in = uop.define_global 1 : !uop.ptr<f32, 8>
  %g4 = uop.mul %g, %c4 : si32
  %j = uop.add %g4, %u : si32
  %ok = uop.cmplt %j, %n : si32
  %p = uop.index %in[%j] gate %ok : i1 : !uop.ptr<f32, 8>, si32
  %x = uop.load %p alt %z : f32 : !uop.ptr<f32, 8>
  %i = uop.mul %j, %c2 : si32
  %q = uop.index %out[%i] : !uop.ptr<f32, 16>, si32
  %st = uop.store %q, %x : !uop.ptr<f32, 16>
  uop.sink %st
}

// Gates that canonicalize to one value fold (as a conv's padding checks do):
// with g in [0, 2), 4g+1 < 5, 4g+2 < 5 and 4g+3 < 5 are all g < 1, and
// 4g < 5 is always true. Lanes 1-3 share a gate, but lane 1 (4g+1) is odd:
// it stays scalar and lanes 2-3 are one gated vector load of 2 (split by
// alignment). The stores are two elements apart.
// CHECK-LABEL: uop.kernel @fold_shared_gate
// CHECK: %[[G:.*]] = uop.cmplt
// CHECK: uop.load %{{.*}} alt %{{.*}} : f32 : !uop.ptr<f32, 8>
// CHECK: %[[P:.*]] = uop.index %{{.*}} gate %[[G]] : i1
// CHECK: uop.cast %[[P]] : !uop.ptr<f32, 8> -> !uop.ptr<vector<2xf32>, 4>
// CHECK: uop.load %{{.*}} alt %{{.*}} : vector<2xf32> : !uop.ptr<vector<2xf32>, 4>
// CHECK-NOT: vector<2xf32>, 4>
// CHECK: uop.sink
uop.kernel @fold_shared_gate {
  %c2 = uop.const 2 : si32
  %c4 = uop.const 4 : si32
  %c5 = uop.const 5 : si32
  %z = uop.const 0.0 : f32
  %g = uop.range %c2 axis 0 global : si32
  %u = uop.range %c4 axis 1 upcast : si32
  %out = uop.define_global 0 : !uop.ptr<f32, 16>
  %in = uop.define_global 1 : !uop.ptr<f32, 8>
  %g4 = uop.mul %g, %c4 : si32
  %j = uop.add %g4, %u : si32
  %ok = uop.cmplt %j, %c5 : si32
  %p = uop.index %in[%j] gate %ok : i1 : !uop.ptr<f32, 8>, si32
  %x = uop.load %p alt %z : f32 : !uop.ptr<f32, 8>
  %i = uop.mul %j, %c2 : si32
  %q = uop.index %out[%i] : !uop.ptr<f32, 16>, si32
  %st = uop.store %q, %x : !uop.ptr<f32, 16>
  uop.sink %st
}

// An unroll axis: the lanes' loads are one vector load, which the horizontal
// REDUCE takes whole.
// CHECK-LABEL: uop.kernel @unrolled
// CHECK: %[[X:.*]] = uop.load %{{.*}} : !uop.ptr<vector<4xf32>, 4>
// CHECK-COUNT-4: uop.gep %[[X]]
// CHECK: uop.reduce add %{{.*}} [%{{.*}} : si32] : vector<4xf32> -> f32
uop.kernel @unrolled {
  %c4 = uop.const 4 : si32
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

// Not folded: s0 and s2 write consecutive elements, but s1, between them,
// may write s2's element (another gate): a vector store at s0's place would
// let s1's write land last.
// CHECK-LABEL: uop.kernel @write_order
// CHECK-NOT: vector
// CHECK: uop.sink %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}{{$}}
uop.kernel @write_order {
  %c1 = uop.const 1 : si32
  %c2 = uop.const 2 : si32
  %c4 = uop.const 4 : si32
  %a = uop.const 1.0 : f32
  %b = uop.const 2.0 : f32
  %c = uop.const 3.0 : f32
  %g = uop.range %c4 axis 0 global : si32
  %out = uop.define_global 0 : !uop.ptr<f32, 8>
  %x = uop.mul %g, %c2 : si32
  %x1 = uop.add %x, %c1 : si32
  %ok = uop.cmplt %g, %c2 : si32
  %p1 = uop.index %out[%x1] : !uop.ptr<f32, 8>, si32
  %p0 = uop.index %out[%x] : !uop.ptr<f32, 8>, si32
  %s0 = uop.store %p1, %a : !uop.ptr<f32, 8>
  %s1 = uop.store %p0, %b gate %ok : i1 : !uop.ptr<f32, 8>
  %s2 = uop.store %p0, %c : !uop.ptr<f32, 8>
  uop.sink %s0, %s1, %s2
}

// Folded in place: the vector store of s0 and s2 takes s0's place; s1 (to
// another buffer) keeps its place between them.
// CHECK-LABEL: uop.kernel @fold_in_place
// CHECK: %[[S1:.*]] = uop.store %{{.*}} : !uop.ptr<f32, 4>
// CHECK: %[[V:.*]] = uop.store %{{.*}} : !uop.ptr<vector<2xf32>, 4>
// CHECK: uop.sink %[[V]], %[[S1]]{{$}}
uop.kernel @fold_in_place {
  %c1 = uop.const 1 : si32
  %c2 = uop.const 2 : si32
  %c4 = uop.const 4 : si32
  %a = uop.const 1.0 : f32
  %b = uop.const 2.0 : f32
  %g = uop.range %c4 axis 0 global : si32
  %out = uop.define_global 0 : !uop.ptr<f32, 8>
  %other = uop.define_global 1 : !uop.ptr<f32, 4>
  %x = uop.mul %g, %c2 : si32
  %x1 = uop.add %x, %c1 : si32
  %p0 = uop.index %out[%x] : !uop.ptr<f32, 8>, si32
  %p1 = uop.index %out[%x1] : !uop.ptr<f32, 8>, si32
  %po = uop.index %other[%g] : !uop.ptr<f32, 4>, si32
  %s0 = uop.store %p0, %a : !uop.ptr<f32, 8>
  %s1 = uop.store %po, %b : !uop.ptr<f32, 4>
  %s2 = uop.store %p1, %b : !uop.ptr<f32, 8>
  uop.sink %s0, %s1, %s2
}

// Loads of one pointer with one alt and the same deps are one load, as
// tinygrad hash-conses its LOADs, though a store sits between them in the
// block (CSE keeps them apart): each element is one lane of one vector load,
// not also a scalar load of its own. A load that waits for the store is
// another load.
// CHECK-LABEL: uop.kernel @merge_loads
// CHECK: %[[X:.*]] = uop.load %{{.*}} alt %{{.*}} : vector<4xf32> : !uop.ptr<vector<4xf32>, 4>
// CHECK-NOT: uop.load
// CHECK: %[[X0:.*]] = uop.gep %[[X]] [0] : vector<4xf32>
// CHECK-NOT: uop.load
// CHECK: %[[ST:.*]] = uop.store %{{.*}}, %{{.*}} : !uop.ptr<f32, 4>
// CHECK: uop.store %{{.*}}, %[[X0]] : !uop.ptr<f32, 4>
// CHECK: %[[Y:.*]] = uop.load %{{.*}} alt %{{.*}} : f32 after %[[ST]] : !uop.ptr<f32, 16>
// CHECK-NOT: uop.load
// CHECK: uop.store %{{.*}}, %[[Y]] : !uop.ptr<f32, 4>
uop.kernel @merge_loads {
  %c1 = uop.const 1 : si32
  %c2 = uop.const 2 : si32
  %c3 = uop.const 3 : si32
  %c4 = uop.const 4 : si32
  %z = uop.const 0.0 : f32
  %g = uop.range %c4 axis 0 global : si32
  %out = uop.define_global 0 : !uop.ptr<f32, 4>
  %in = uop.define_global 1 : !uop.ptr<f32, 16>
  %out2 = uop.define_global 2 : !uop.ptr<f32, 4>
  %out3 = uop.define_global 3 : !uop.ptr<f32, 4>
  %base = uop.mul %g, %c4 : si32
  %ok = uop.cmplt %g, %c3 : si32
  %i1 = uop.add %base, %c1 : si32
  %i2 = uop.add %base, %c2 : si32
  %i3 = uop.add %base, %c3 : si32
  %p0 = uop.index %in[%base] gate %ok : i1 : !uop.ptr<f32, 16>, si32
  %p1 = uop.index %in[%i1] gate %ok : i1 : !uop.ptr<f32, 16>, si32
  %p2 = uop.index %in[%i2] gate %ok : i1 : !uop.ptr<f32, 16>, si32
  %p3 = uop.index %in[%i3] gate %ok : i1 : !uop.ptr<f32, 16>, si32
  %x0 = uop.load %p0 alt %z : f32 : !uop.ptr<f32, 16>
  %x1 = uop.load %p1 alt %z : f32 : !uop.ptr<f32, 16>
  %x2 = uop.load %p2 alt %z : f32 : !uop.ptr<f32, 16>
  %x3 = uop.load %p3 alt %z : f32 : !uop.ptr<f32, 16>
  %s01 = uop.add %x0, %x1 : f32
  %s23 = uop.add %x2, %x3 : f32
  %s = uop.add %s01, %s23 : f32
  %q = uop.index %out[%g] : !uop.ptr<f32, 4>, si32
  %st = uop.store %q, %s : !uop.ptr<f32, 4>
  %again = uop.load %p0 alt %z : f32 : !uop.ptr<f32, 16>
  %q2 = uop.index %out2[%g] : !uop.ptr<f32, 4>, si32
  %st2 = uop.store %q2, %again : !uop.ptr<f32, 4>
  %waits = uop.load %p0 alt %z : f32 after %st : !uop.ptr<f32, 16>
  %q3 = uop.index %out3[%g] : !uop.ptr<f32, 4>, si32
  %st3 = uop.store %q3, %waits : !uop.ptr<f32, 4>
  uop.sink %st, %st2, %st3
}

// A store to the same buffer between two that fold does not stop them when
// its gate is their gate's negation (never both stored: SPLITK's halves),
// nor does one into another buffer; one under a gate that may hold with
// theirs, to their element, does.
// CHECK-LABEL: uop.kernel @exclusive_gates
// CHECK-DAG: %[[OK:.*]] = uop.cmplt
// CHECK-DAG: %[[NO:.*]] = uop.cmpne %[[OK]]
// CHECK: %[[P:.*]] = uop.index %{{.*}} gate %[[OK]]
// CHECK: %[[Q:.*]] = uop.index %{{.*}} gate %[[NO]]
// CHECK: %[[R:.*]] = uop.store %[[Q]], %{{.*}} : !uop.ptr<f32, 8>
// CHECK: %[[VP:.*]] = uop.cast %[[P]] : !uop.ptr<f32, 8> -> !uop.ptr<vector<2xf32>, 4>
// CHECK: %[[V:.*]] = uop.store %[[VP]], %{{.*}} : !uop.ptr<vector<2xf32>, 4>
// CHECK: uop.sink %[[V]], %[[R]]{{$}}
uop.kernel @exclusive_gates {
  %c1 = uop.const 1 : si32
  %c2 = uop.const 2 : si32
  %c4 = uop.const 4 : si32
  %t = uop.const true
  %x = uop.const 1.0 : f32
  %y = uop.const 2.0 : f32
  %g = uop.range %c4 axis 0 global : si32
  %out = uop.define_global 0 : !uop.ptr<f32, 8>
  %i = uop.mul %g, %c2 : si32
  %j = uop.add %i, %c1 : si32
  %ok = uop.cmplt %g, %c2 : si32
  %no = uop.cmpne %ok, %t : i1
  %p0 = uop.index %out[%i] gate %ok : i1 : !uop.ptr<f32, 8>, si32
  %s0 = uop.store %p0, %x : !uop.ptr<f32, 8>
  %q0 = uop.index %out[%i] gate %no : i1 : !uop.ptr<f32, 8>, si32
  %r0 = uop.store %q0, %y : !uop.ptr<f32, 8>
  %p1 = uop.index %out[%j] gate %ok : i1 : !uop.ptr<f32, 8>, si32
  %s1 = uop.store %p1, %y : !uop.ptr<f32, 8>
  uop.sink %s0, %r0, %s1
}

// CHECK-LABEL: uop.kernel @overlapping_gates
// CHECK-NOT: vector<2xf32>
// CHECK: uop.sink %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}{{$}}
uop.kernel @overlapping_gates {
  %c1 = uop.const 1 : si32
  %c2 = uop.const 2 : si32
  %c3 = uop.const 3 : si32
  %c4 = uop.const 4 : si32
  %x = uop.const 1.0 : f32
  %y = uop.const 2.0 : f32
  %g = uop.range %c4 axis 0 global : si32
  %out = uop.define_global 0 : !uop.ptr<f32, 8>
  %i = uop.mul %g, %c2 : si32
  %j = uop.add %i, %c1 : si32
  %ok = uop.cmplt %g, %c2 : si32
  %also = uop.cmplt %g, %c3 : si32
  %p0 = uop.index %out[%i] gate %ok : i1 : !uop.ptr<f32, 8>, si32
  %s0 = uop.store %p0, %x : !uop.ptr<f32, 8>
  %q0 = uop.index %out[%i] gate %also : i1 : !uop.ptr<f32, 8>, si32
  %r0 = uop.store %q0, %y : !uop.ptr<f32, 8>
  %p1 = uop.index %out[%j] gate %ok : i1 : !uop.ptr<f32, 8>, si32
  %s1 = uop.store %p1, %y : !uop.ptr<f32, 8>
  uop.sink %s0, %r0, %s1
}

// A store whose gate is false (a copy outside a mask) goes: it neither
// stays in the SINK nor keeps the two around it from folding.
// CHECK-LABEL: uop.kernel @false_gate
// CHECK: %[[V:.*]] = uop.store %{{.*}}, %{{.*}} : !uop.ptr<vector<2xf32>, 4>
// CHECK-NEXT: uop.sink %[[V]]{{$}}
uop.kernel @false_gate {
  %c1 = uop.const 1 : si32
  %c2 = uop.const 2 : si32
  %c4 = uop.const 4 : si32
  %f = uop.const false
  %x = uop.const 1.0 : f32
  %y = uop.const 2.0 : f32
  %g = uop.range %c4 axis 0 global : si32
  %out = uop.define_global 0 : !uop.ptr<f32, 8>
  %i = uop.mul %g, %c2 : si32
  %j = uop.add %i, %c1 : si32
  %p0 = uop.index %out[%i] : !uop.ptr<f32, 8>, si32
  %s0 = uop.store %p0, %x : !uop.ptr<f32, 8>
  %q0 = uop.index %out[%i] gate %f : i1 : !uop.ptr<f32, 8>, si32
  %r0 = uop.store %q0, %y : !uop.ptr<f32, 8>
  %p1 = uop.index %out[%j] : !uop.ptr<f32, 8>, si32
  %s1 = uop.store %p1, %y : !uop.ptr<f32, 8>
  uop.sink %s0, %r0, %s1
}

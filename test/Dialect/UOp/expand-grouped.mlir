// uop-expand on a grouped reduce: the stores a BARRIER waits for are
// expanded first, and one BARRIER waits for all their copies (which
// uop-devectorize folds, as the loads after it).
// RUN: uop-opt %s --uop-expand --canonicalize --cse --uop-devectorize | FileCheck %s

// A grouped reduce (GROUP with an UPCAST, as gemv's): the partial sums go
// to shared memory as one vector store of the upcast's copies, one BARRIER
// waits for it, and the copies of the final reduce read shared memory with
// one vector load (tinygrad's st.shared.v4 / ld.shared.v4).
// CHECK-LABEL: uop.kernel @grouped
// CHECK: uop.define_local "temp0"
// CHECK: %[[SP:.*]] = uop.cast %{{.*}} -> !uop.ptr<vector<2xf32>, 2, local>
// CHECK: %[[P0:.*]] = uop.reduce add %{{.*}} [%{{.*}} : si32] : f32
// CHECK: %[[P1:.*]] = uop.reduce add %{{.*}} [%{{.*}} : si32] : f32
// CHECK: %[[PV:.*]] = uop.vectorize %[[P0]], %[[P1]] : f32
// CHECK: %[[ST:.*]] = uop.store %[[SP]], %[[PV]] : !uop.ptr<vector<2xf32>, 2, local>
// CHECK: %[[BAR:.*]] = uop.barrier after %[[ST]]{{$}}
// CHECK: uop.load %{{.*}} after %[[BAR]] : !uop.ptr<vector<2xf32>, 2, local>
// CHECK-NOT: uop.barrier
// CHECK: uop.store %{{.*}} : !uop.ptr<vector<2xf32>, 1>
// CHECK: uop.sink %{{[0-9]+}}{{$}}
uop.kernel @grouped {
  %c2 = uop.const 2 : si32
  %c4 = uop.const 4 : si32
  %c8 = uop.const 8 : si32
  %c0 = uop.const 0 : si32
  %l = uop.range %c2 axis 0 local : si32
  %k = uop.range %c4 axis 1 reduce : si32
  %u = uop.range %c2 axis 2 upcast : si32
  %g = uop.range %c2 axis 1001 group_reduce : si32
  %out = uop.define_global 0 : !uop.ptr<f32, 2>
  %in = uop.define_global 1 : !uop.ptr<f32, 16>
  %lk = uop.mul %l, %c4 : si32
  %lk2 = uop.add %lk, %k : si32
  %i0 = uop.mul %lk2, %c2 : si32
  %i = uop.add %i0, %u : si32
  %p = uop.index %in[%i] : !uop.ptr<f32, 16>, si32
  %x = uop.load %p : !uop.ptr<f32, 16>
  %s = uop.reduce add %x [%k : si32] : f32
  %t = uop.define_local "temp0" : !uop.ptr<f32, 4, local>
  %l2 = uop.mul %l, %c2 : si32
  %ti = uop.add %l2, %u : si32
  %tp = uop.index %t[%ti] : !uop.ptr<f32, 4, local>, si32
  %ts = uop.store %tp, %s : !uop.ptr<f32, 4, local>
  %bar = uop.barrier after %ts
  %g2 = uop.mul %g, %c2 : si32
  %gi = uop.add %g2, %u : si32
  %gp = uop.index %t[%gi] : !uop.ptr<f32, 4, local>, si32
  %y = uop.load %gp after %bar : !uop.ptr<f32, 4, local>
  %r = uop.reduce add %y [%g : si32] : f32
  %first = uop.cmpeq %l, %c0 : si32
  %op = uop.index %out[%u] gate %first : i1 : !uop.ptr<f32, 2>, si32
  %st = uop.store %op, %r : !uop.ptr<f32, 2>
  uop.sink %st
}

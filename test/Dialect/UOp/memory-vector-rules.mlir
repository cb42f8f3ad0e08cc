// tinygrad's gated LOAD/STORE folding (MemoryRules.cpp) and gep_pushing
// (VectorRules.cpp).
// RUN: uop-opt %s --canonicalize="test-convergence=true" | FileCheck %s

// A gate that is always true goes; a LOAD through one always false is its
// alt; a STORE through one always false, and STORE(p, LOAD(p)), leave the
// SINK. A STORE of another value to that p stays.
// CHECK-LABEL: uop.kernel @gates
// CHECK-DAG: %[[ALT:.*]] = uop.const 2.500000e+00 : f32
// CHECK-DAG: %[[PT:.*]] = uop.index %{{.*}}[%{{.*}}] : !uop.ptr<f32, 4>, si32
// CHECK-DAG: %[[X:.*]] = uop.load %[[PT]] : !uop.ptr<f32, 4>
// CHECK-DAG: %[[S0:.*]] = uop.store %{{.*}}, %[[X]] : !uop.ptr<f32, 4>
// CHECK-DAG: %[[S3:.*]] = uop.store %{{.*}}, %[[ALT]] : !uop.ptr<f32, 4>
// CHECK-NOT: gate
// CHECK: uop.sink %[[S0]], %[[S3]]
uop.kernel @gates {
  %o = uop.define_global 0 : !uop.ptr<f32, 4>
  %i = uop.define_global 1 : !uop.ptr<f32, 4>
  %c0 = uop.const 0 : si32
  %c1 = uop.const 1 : si32
  %t = uop.const true
  %f = uop.const false
  %alt = uop.const 2.5 : f32
  %pt = uop.index %i[%c0] gate %t : i1 : !uop.ptr<f32, 4>, si32
  %pf = uop.index %i[%c1] gate %f : i1 : !uop.ptr<f32, 4>, si32
  %x = uop.load %pt : !uop.ptr<f32, 4>
  %y = uop.load %pf alt %alt : f32 : !uop.ptr<f32, 4>
  %q0 = uop.index %o[%c0] : !uop.ptr<f32, 4>, si32
  %qf = uop.index %o[%c1] gate %f : i1 : !uop.ptr<f32, 4>, si32
  %s0 = uop.store %q0, %x : !uop.ptr<f32, 4>
  %s1 = uop.store %qf, %y : !uop.ptr<f32, 4>
  %q2 = uop.index %o[%c1] : !uop.ptr<f32, 4>, si32
  %v = uop.load %q2 : !uop.ptr<f32, 4>
  %s2 = uop.store %q2, %v : !uop.ptr<f32, 4>
  %s3 = uop.store %q2, %y : !uop.ptr<f32, 4>
  uop.sink %s0, %s1, %s2, %s3
}

// GEP of a VECTORIZE lane, GEP of GEP, GEP of every lane in order, GEP of a
// splat, VECTORIZE of one constant, VECTORIZE of GEPs of one vector.
// CHECK-LABEL: func.func @lanes
// CHECK-DAG: %[[SP:.*]] = uop.const dense<3.000000e+00> : vector<4xf32>
// CHECK-DAG: %[[GC:.*]] = uop.const 1.500000e+00 : f32
// CHECK-DAG: %[[G2:.*]] = uop.gep %arg2 [3, 1] : vector<4xf32>
// CHECK-DAG: %[[GG:.*]] = uop.gep %arg2 [1, 3] : vector<4xf32>
// CHECK-DAG: %[[BACK:.*]] = uop.gep %arg2 [2, 0] : vector<4xf32>
// CHECK: return %arg1, %[[G2]], %[[GG]], %arg2, %[[GC]], %[[SP]], %[[BACK]] :
func.func @lanes(%a: f32, %b: f32, %v: vector<4xf32>) -> (f32, vector<2xf32>, vector<2xf32>, vector<4xf32>, f32, vector<4xf32>, vector<2xf32>) {
  %vec = uop.vectorize %a, %b : f32
  %g = uop.gep %vec [1] : vector<2xf32>
  %g2 = uop.gep %v [3, 1] : vector<4xf32>
  %gg = uop.gep %g2 [1, 0] : vector<2xf32>
  %all = uop.gep %v [0, 1, 2, 3] : vector<4xf32>
  %c = uop.const dense<1.5> : vector<4xf32>
  %gc = uop.gep %c [2] : vector<4xf32>
  %one = uop.const 3.0 : f32
  %sp = uop.vectorize %one, %one, %one, %one : f32
  %x0 = uop.gep %v [0] : vector<4xf32>
  %x2 = uop.gep %v [2] : vector<4xf32>
  %back = uop.vectorize %x2, %x0 : f32
  return %g, %g2, %gg, %all, %gc, %sp, %back : f32, vector<2xf32>, vector<2xf32>, vector<4xf32>, f32, vector<4xf32>, vector<2xf32>
}

// GEP of several lanes of a VECTORIZE is a VECTORIZE of those sources.
// CHECK-LABEL: func.func @lanes_multi
// CHECK: %[[V:.*]] = uop.vectorize %arg2, %arg0 : f32
// CHECK: return %[[V]]
func.func @lanes_multi(%a: f32, %b: f32, %c: f32) -> vector<2xf32> {
  %vec = uop.vectorize %a, %b, %c : f32
  %g = uop.gep %vec [2, 0] : vector<3xf32>
  return %g : vector<2xf32>
}

// VECTORIZE of every lane of one vector, in order, is that vector (a folder,
// so builders get it too: uop-expand's vector load of a whole fragment).
// CHECK-LABEL: func.func @lanes_in_order
// CHECK-NEXT: return %arg0
func.func @lanes_in_order(%v: vector<2xf32>) -> vector<2xf32> {
  %x0 = uop.gep %v [0] : vector<2xf32>
  %x1 = uop.gep %v [1] : vector<2xf32>
  %w = uop.vectorize %x0, %x1 : f32
  return %w : vector<2xf32>
}

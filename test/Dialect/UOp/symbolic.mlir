// tinygrad's symbolic rules that look past one op, as canonicalization
// patterns (lib/Dialect/UOp/IR/SymbolicRules.cpp), each firing and each where it
// must not: float rounding, wraparound, C's truncating division.
// RUN: uop-opt %s --canonicalize="test-convergence=true" | FileCheck %s

// Constant collection: (x+3)+4 -> x+7, (x*3)*4 -> x*12, max(max(x,3),4)
// -> max(x,4); (x+3)+y -> (x+y)+3. Floats: (f+1)+2 stays (rounding).
// CHECK-LABEL: func.func @collect
// CHECK-DAG: %[[C4:.*]] = uop.const 4 : si32
// CHECK-DAG: %[[C12:.*]] = uop.const 12 : si32
// CHECK-DAG: %[[C7:.*]] = uop.const 7 : si32
// CHECK-DAG: %[[C3:.*]] = uop.const 3 : si32
// CHECK-DAG: %[[X:.*]] = uop.define_var "x"
// CHECK-DAG: %[[B:.*]] = uop.add %[[X]], %[[C7]] : si32
// CHECK-DAG: %[[MM:.*]] = uop.mul %[[X]], %[[C12]] : si32
// CHECK-DAG: %[[FA:.*]] = uop.add %arg1, %{{.*}} : f32
// CHECK-DAG: %[[FB:.*]] = uop.add %[[FA]], %{{.*}} : f32
// CHECK-DAG: %[[XY:.*]] = uop.add %[[X]], %arg0 : si32
// CHECK-DAG: %[[O:.*]] = uop.add %[[XY]], %[[C3]] : si32
// CHECK-DAG: %[[MX:.*]] = uop.max %[[X]], %[[C4]] : si32
// CHECK: return %[[B]], %[[MM]], %[[FB]], %[[O]], %[[MX]] :
func.func @collect(%y: si32, %f: f32) -> (si32, si32, f32, si32, si32) {
  %x = uop.define_var "x" [0, 100] : si32
  %c3 = uop.const 3 : si32
  %c4 = uop.const 4 : si32
  %a = uop.add %x, %c3 : si32
  %b = uop.add %a, %c4 : si32
  %m = uop.mul %x, %c3 : si32
  %mm = uop.mul %m, %c4 : si32
  %f1 = uop.const 1.0 : f32
  %f2 = uop.const 2.0 : f32
  %fa = uop.add %f, %f1 : f32
  %fb = uop.add %fa, %f2 : f32
  %o = uop.add %a, %y : si32
  %mx = uop.max %x, %c3 : si32
  %mx2 = uop.max %mx, %c4 : si32
  return %b, %mm, %fb, %o, %mx2 : si32, si32, f32, si32, si32
}

// Combining terms: x*3+x*4 -> x*7, x+x*3 -> x*4, (y+x*3)+x*4 -> y+x*7,
// x+x -> x*2 (floats too: both are exact). f*3+f*4 stays (two roundings).
// CHECK-LABEL: func.func @combine
// CHECK-DAG: %[[C2:.*]] = uop.const 2 : si32
// CHECK-DAG: %[[F2:.*]] = uop.const 2.000000e+00 : f32
// CHECK-DAG: %[[C4:.*]] = uop.const 4 : si32
// CHECK-DAG: %[[C7:.*]] = uop.const 7 : si32
// CHECK-DAG: %[[S:.*]] = uop.mul %arg0, %[[C7]] : si32
// CHECK-DAG: %[[S2:.*]] = uop.mul %arg0, %[[C4]] : si32
// CHECK-DAG: %[[X7:.*]] = uop.mul %arg0, %[[C7]] : si32
// CHECK-DAG: %[[S3:.*]] = uop.add %arg1, %[[X7]] : si32
// CHECK-DAG: %[[FF:.*]] = uop.mul %arg2, %[[F2]] : f32
// CHECK-DAG: %[[F3X:.*]] = uop.mul %arg2, %{{.*}} : f32
// CHECK-DAG: %[[FS:.*]] = uop.add %{{.*}}, %{{.*}} : f32
// CHECK-DAG: %[[XX:.*]] = uop.mul %arg0, %[[C2]] : si32
// CHECK: return %[[S]], %[[S2]], %[[S3]], %[[FF]], %[[FS]], %[[XX]] :
func.func @combine(%x: si32, %y: si32, %f: f32) -> (si32, si32, si32, f32, f32, si32) {
  %c3 = uop.const 3 : si32
  %c4 = uop.const 4 : si32
  %x3 = uop.mul %x, %c3 : si32
  %x4 = uop.mul %x, %c4 : si32
  %s = uop.add %x3, %x4 : si32
  %s2 = uop.add %x, %x3 : si32
  %yx3 = uop.add %y, %x3 : si32
  %s3 = uop.add %yx3, %x4 : si32
  %ff = uop.add %f, %f : f32
  %f3 = uop.const 3.0 : f32
  %f4 = uop.const 4.0 : f32
  %fx3 = uop.mul %f, %f3 : f32
  %fx4 = uop.mul %f, %f4 : f32
  %fs = uop.add %fx3, %fx4 : f32
  %xx = uop.add %x, %x : si32
  return %s, %s2, %s3, %ff, %fs, %xx : si32, si32, si32, f32, f32, si32
}

// Distributing a constant (symbolic_flat): (x+1)*56 -> x*56+56, and with
// the sum's terms combined, (x+y)*3 + x*4 -> y*3 + x*7. Floats stay: a
// product may overflow where the sum's does not ((1e38 - 1e38)*10 is 0,
// 1e38*10 - 1e38*10 is inf - inf, NaN). A sum used elsewhere stays
// ((x+y+2)*5, which would copy its terms).
// CHECK-LABEL: func.func @distribute
// CHECK-DAG: %[[C56:.*]] = uop.const 56 : si32
// CHECK-DAG: %[[X56:.*]] = uop.mul %arg0, %[[C56]] : si32
// CHECK-DAG: %[[R:.*]] = uop.add %[[X56]], %[[C56]] : si32
// CHECK-DAG: %[[C7:.*]] = uop.const 7 : si32
// CHECK-DAG: %[[C3:.*]] = uop.const 3 : si32
// CHECK-DAG: %[[X7:.*]] = uop.mul %arg0, %[[C7]] : si32
// CHECK-DAG: %[[Y3:.*]] = uop.mul %arg1, %[[C3]] : si32
// CHECK-DAG: %[[T:.*]] = uop.add %[[Y3]], %[[X7]] : si32
// CHECK-DAG: %[[FA:.*]] = uop.add %arg2, %{{.*}} : f32
// CHECK-DAG: %[[FM:.*]] = uop.mul %[[FA]], %{{.*}} : f32
// CHECK-DAG: %[[C5:.*]] = uop.const 5 : si32
// CHECK-DAG: %[[C2:.*]] = uop.const 2 : si32
// CHECK-DAG: %[[S:.*]] = uop.add %{{.*}}, %[[C2]] : si32
// CHECK-DAG: %[[S5:.*]] = uop.mul %[[S]], %[[C5]] : si32
// CHECK: return %[[R]], %[[T]], %[[FM]], %[[S]], %[[S5]] :
func.func @distribute(%x: si32, %y: si32, %f: f32) -> (si32, si32, f32, si32, si32) {
  %c1 = uop.const 1 : si32
  %c3 = uop.const 3 : si32
  %c4 = uop.const 4 : si32
  %c56 = uop.const 56 : si32
  %x1 = uop.add %x, %c1 : si32
  %r = uop.mul %x1, %c56 : si32
  %xy = uop.add %x, %y : si32
  %xy3 = uop.mul %xy, %c3 : si32
  %x4 = uop.mul %x, %c4 : si32
  %t = uop.add %xy3, %x4 : si32
  %f1 = uop.const 1.0 : f32
  %f3 = uop.const 3.0 : f32
  %fa = uop.add %f, %f1 : f32
  %fm = uop.mul %fa, %f3 : f32
  %c2 = uop.const 2 : si32
  %c5 = uop.const 5 : si32
  %xy2 = uop.add %y, %c2 : si32
  %s = uop.add %xy2, %x : si32
  %s5 = uop.mul %s, %c5 : si32
  return %r, %t, %fm, %s, %s5 : si32, si32, f32, si32, si32
}

// (x%4)+(x//4)*4 -> x; with 0 the rule must not fire (x%0 = 0 and
// (x//0)*0 = 0 here, so the sum is 0, not x); (x//2)//3 -> x//6.
// CHECK-LABEL: func.func @divmod_recombine
// CHECK-DAG: %[[Z:.*]] = uop.const 0 : si32
// CHECK-DAG: %[[C6:.*]] = uop.const 6 : si32
// CHECK-DAG: %[[D:.*]] = uop.idiv %arg0, %[[C6]] : si32
// CHECK: return %arg0, %[[Z]], %[[D]] :
func.func @divmod_recombine(%x: si32) -> (si32, si32, si32) {
  %c4 = uop.const 4 : si32
  %c0 = uop.const 0 : si32
  %m = uop.mod %x, %c4 : si32
  %d = uop.idiv %x, %c4 : si32
  %d4 = uop.mul %d, %c4 : si32
  %r = uop.add %m, %d4 : si32
  %m0 = uop.mod %x, %c0 : si32
  %d0 = uop.idiv %x, %c0 : si32
  %d00 = uop.mul %d0, %c0 : si32
  %r0 = uop.add %m0, %d00 : si32
  %c2 = uop.const 2 : si32
  %c3 = uop.const 3 : si32
  %dd = uop.idiv %x, %c2 : si32
  %ddd = uop.idiv %dd, %c3 : si32
  return %r, %r0, %ddd : si32, si32, si32
}

// x+3 < 10 -> x < 7 (x in [0, 100]; not for a full-range x, where x+3 may
// wrap), x*4 < 10 -> x < 3, x//4 < 3 -> x < 12, x//4 < -1 -> x < -7
// (truncating division), lt_folding: x*4 + y < 8 -> x < 2 for y in [0, 3]
// but not for y in [0, 4].
// CHECK-LABEL: func.func @compares
// CHECK-DAG: %[[X:.*]] = uop.define_var "x"
// CHECK-DAG: %[[LT:.*]] = uop.cmplt %[[X]], %[[C7:.*]] : si32
// CHECK-DAG: %[[C7]] = uop.const 7 : si32
// CHECK-DAG: %[[AF:.*]] = uop.add %arg0, %{{.*}} : si32
// CHECK-DAG: %[[LTF:.*]] = uop.cmplt %[[AF]], %{{.*}} : si32
// CHECK-DAG: %[[LTM:.*]] = uop.cmplt %[[X]], %[[C3:.*]] : si32
// CHECK-DAG: %[[C3]] = uop.const 3 : si32
// CHECK-DAG: %[[LTD:.*]] = uop.cmplt %arg0, %[[C12:.*]] : si32
// CHECK-DAG: %[[C12]] = uop.const 12 : si32
// CHECK-DAG: %[[LTDN:.*]] = uop.cmplt %arg0, %[[CM7:.*]] : si32
// CHECK-DAG: %[[CM7]] = uop.const -7 : si32
// CHECK-DAG: %[[LTS:.*]] = uop.cmplt %[[X]], %[[C2:.*]] : si32
// CHECK-DAG: %[[C2]] = uop.const 2 : si32
// CHECK-DAG: %[[S5:.*]] = uop.add %{{.*}}, %{{.*}} : si32
// CHECK-DAG: %[[LTS5:.*]] = uop.cmplt %[[S5]], %{{.*}} : si32
// CHECK: return %[[LT]], %[[LTF]], %[[LTM]], %[[LTD]], %[[LTDN]], %[[LTS]], %[[LTS5]] :
func.func @compares(%full: si32) -> (i1, i1, i1, i1, i1, i1, i1) {
  %x = uop.define_var "x" [0, 100] : si32
  %c3 = uop.const 3 : si32
  %c4 = uop.const 4 : si32
  %c10 = uop.const 10 : si32
  %m1 = uop.const -1 : si32
  %a = uop.add %x, %c3 : si32
  %lt = uop.cmplt %a, %c10 : si32
  %af = uop.add %full, %c3 : si32
  %ltf = uop.cmplt %af, %c10 : si32
  %m = uop.mul %x, %c4 : si32
  %ltm = uop.cmplt %m, %c10 : si32
  %d = uop.idiv %full, %c4 : si32
  %ltd = uop.cmplt %d, %c3 : si32
  %ltdn = uop.cmplt %d, %m1 : si32
  %y = uop.define_var "y" [0, 3] : si32
  %s = uop.add %m, %y : si32
  %c8 = uop.const 8 : si32
  %ltsum = uop.cmplt %s, %c8 : si32
  %y5 = uop.define_var "y5" [0, 4] : si32
  %s5 = uop.add %m, %y5 : si32
  %ltsum5 = uop.cmplt %s5, %c8 : si32
  return %lt, %ltf, %ltm, %ltd, %ltdn, %ltsum, %ltsum5 : i1, i1, i1, i1, i1, i1, i1
}

// where(not a, x, y) -> where(a, y, x); where(a, where(b, x, y), y) ->
// where(a & b, x, y); cast(where(a, 1, 0)) -> where(a, 1.0, 0.0).
// CHECK-LABEL: func.func @wheres
// CHECK-DAG: %[[F0:.*]] = uop.const 0.000000e+00 : f32
// CHECK-DAG: %[[F1:.*]] = uop.const 1.000000e+00 : f32
// CHECK-DAG: %[[W:.*]] = uop.where %arg0, %arg3, %arg2 : f32
// CHECK-DAG: %[[AB:.*]] = uop.and %arg0, %arg1 : i1
// CHECK-DAG: %[[OUT:.*]] = uop.where %[[AB]], %arg2, %arg3 : f32
// CHECK-DAG: %[[CF:.*]] = uop.where %arg0, %[[F1]], %[[F0]] : f32
// CHECK: return %[[W]], %[[OUT]], %[[CF]] :
func.func @wheres(%a: i1, %b: i1, %x: f32, %y: f32, %i: si32) -> (f32, f32, f32) {
  %t = uop.const true
  %na = uop.cmpne %a, %t : i1
  %w = uop.where %na, %x, %y : f32
  %in = uop.where %b, %x, %y : f32
  %out = uop.where %a, %in, %y : f32
  %c1 = uop.const 1 : si32
  %c0 = uop.const 0 : si32
  %wi = uop.where %a, %c1, %c0 : si32
  %cf = uop.cast %wi : si32 -> f32
  return %w, %out, %cf : f32, f32, f32
}

// CAST chains: there and back through a dtype that holds every value is
// nothing (si8->si32->si8, si16->f32->si16, f16->f32->f16, bool->si32->bool);
// through one that does not, it stays (si32->si8->si32, si32->f32->si32,
// f32->f16->f32, si32->bool->si32); si8->si32->f32 is si8->f32.
// CHECK-LABEL: func.func @casts
// CHECK-DAG: %[[B1:.*]] = uop.cast %arg1 : si32 -> si8
// CHECK-DAG: %[[B2:.*]] = uop.cast %[[B1]] : si8 -> si32
// CHECK-DAG: %[[D1:.*]] = uop.cast %arg1 : si32 -> f32
// CHECK-DAG: %[[D2:.*]] = uop.cast %[[D1]] : f32 -> si32
// CHECK-DAG: %[[G1:.*]] = uop.cast %arg4 : f32 -> f16
// CHECK-DAG: %[[G2:.*]] = uop.cast %[[G1]] : f16 -> f32
// CHECK-DAG: %[[K:.*]] = uop.cast %arg0 : si8 -> f32
// CHECK-DAG: %[[IB:.*]] = uop.cast %arg1 : si32 -> i1
// CHECK-DAG: %[[IB2:.*]] = uop.cast %[[IB]] : i1 -> si32
// CHECK: return %arg0, %[[B2]], %arg2, %[[D2]], %arg3, %[[G2]], %[[K]], %arg5, %[[IB2]] :
func.func @casts(%s8: si8, %s32: si32, %s16: si16, %h: f16, %f: f32, %b: i1) -> (si8, si32, si16, si32, f16, f32, f32, i1, si32) {
  %a = uop.cast %s8 : si8 -> si32
  %a2 = uop.cast %a : si32 -> si8
  %b1 = uop.cast %s32 : si32 -> si8
  %b2 = uop.cast %b1 : si8 -> si32
  %c1 = uop.cast %s16 : si16 -> f32
  %c2 = uop.cast %c1 : f32 -> si16
  %d1 = uop.cast %s32 : si32 -> f32
  %d2 = uop.cast %d1 : f32 -> si32
  %e1 = uop.cast %h : f16 -> f32
  %e2 = uop.cast %e1 : f32 -> f16
  %g1 = uop.cast %f : f32 -> f16
  %g2 = uop.cast %g1 : f16 -> f32
  %k = uop.cast %a : si32 -> f32
  %bb = uop.cast %b : i1 -> si32
  %bb2 = uop.cast %bb : si32 -> i1
  %ib = uop.cast %s32 : si32 -> i1
  %ib2 = uop.cast %ib : i1 -> si32
  return %a2, %b2, %c2, %d2, %e2, %g2, %k, %bb2, %ib2 : si8, si32, si16, si32, f16, f32, f32, i1, si32
}

// bool ADD and MAX are OR, MUL is AND.
// CHECK-LABEL: func.func @bools
// CHECK-DAG: %[[O:.*]] = uop.or %arg0, %arg1 : i1
// CHECK-DAG: %[[A:.*]] = uop.and %arg0, %arg1 : i1
// CHECK-DAG: %[[M:.*]] = uop.or %arg0, %arg1 : i1
// CHECK: return %[[O]], %[[A]], %[[M]] :
func.func @bools(%a: i1, %b: i1) -> (i1, i1, i1) {
  %s = uop.add %a, %b : i1
  %m = uop.mul %a, %b : i1
  %x = uop.max %a, %b : i1
  return %s, %m, %x : i1, i1, i1
}

// x // -1 -> -x for signed ints; 4294967295 is not -1 for a ui32.
// CHECK-LABEL: func.func @divneg
// CHECK-DAG: %[[N:.*]] = uop.neg %arg0 : si32
// CHECK-DAG: %[[U:.*]] = uop.idiv %arg1, %{{.*}} : ui32
// CHECK: return %[[N]], %[[U]] :
func.func @divneg(%x: si32, %u: ui32) -> (si32, ui32) {
  %m1 = uop.const -1 : si32
  %d = uop.idiv %x, %m1 : si32
  %um = uop.const 4294967295 : ui32
  %ud = uop.idiv %u, %um : ui32
  return %d, %ud : si32, ui32
}

// lt_folding must not fire on a term that wraps on its own: r*2^30 < 2^30
// is true at r = 2 (-2^31), r < 1 is not.
// CHECK-LABEL: func.func @lt_wrapping_term
// CHECK: %[[X:.*]] = uop.mul %{{.*}}, %[[BIG:.*]] : si32
// CHECK: %[[LT:.*]] = uop.cmplt %[[X]], %[[BIG]] : si32
// CHECK: return %[[LT]]
func.func @lt_wrapping_term() -> i1 {
  %r = uop.define_var "r" [0, 3] : si32
  %big = uop.const 1073741824 : si32
  %x = uop.mul %r, %big : si32
  %lt = uop.cmplt %x, %big : si32
  return %lt : i1
}

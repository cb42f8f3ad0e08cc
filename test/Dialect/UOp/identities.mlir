// tinygrad's self-folding rules (symbolic_simple) and vmin == vmax, as
// folders: each rule firing, and the float cases where it must not fire
// (x*0, x-x, x/x, x!=x, x==x change NaN or infinity results).
// RUN: uop-opt %s --canonicalize="test-convergence=true" | FileCheck %s

// CHECK-LABEL: func.func @ints(%arg0: si32
// CHECK-DAG: %[[M1:.*]] = uop.const -1 : si32
// CHECK-DAG: %[[Z:.*]] = uop.const 0 : si32
// x+0 (0+x too: constants sort right), x*1, x*0, x-0, x-x, x//1, x%1, x%x,
// x&x, x|0, x^x, x&0, x|-1, x<<0, -(-x)
// CHECK-NEXT: return %arg0, %arg0, %[[Z]], %arg0, %[[Z]], %arg0, %[[Z]], %[[Z]], %arg0, %arg0, %[[Z]], %[[Z]], %[[M1]], %arg0, %arg0 :
func.func @ints(%x: si32, %y: si32, %b: i1) -> (si32, si32, si32, si32, si32, si32, si32, si32, si32, si32, si32, si32, si32, si32, si32) {
  %0 = uop.const 0 : si32
  %1 = uop.const 1 : si32
  %m1 = uop.const -1 : si32
  %a = uop.add %0, %x : si32
  %m = uop.mul %x, %1 : si32
  %z = uop.mul %x, %0 : si32
  %s = uop.sub %x, %0 : si32
  %ss = uop.sub %x, %x : si32
  %d = uop.idiv %x, %1 : si32
  %r = uop.mod %x, %1 : si32
  %rr = uop.mod %x, %x : si32
  %an = uop.and %x, %x : si32
  %o = uop.or %x, %0 : si32
  %xo = uop.xor %x, %x : si32
  %a0 = uop.and %x, %0 : si32
  %om = uop.or %x, %m1 : si32
  %sh = uop.shl %x, %0 : si32, si32
  %n = uop.neg %x : si32
  %nn = uop.neg %n : si32
  return %a, %m, %z, %s, %ss, %d, %r, %rr, %an, %o, %xo, %a0, %om, %sh, %nn : si32, si32, si32, si32, si32, si32, si32, si32, si32, si32, si32, si32, si32, si32, si32
}

// x<x, x!=x, x==x (ints), not(not b), b&true, b|false, where(b, true, false);
// b|(b&c) is b too.
// CHECK-LABEL: func.func @cmps
// CHECK-DAG: %[[F:.*]] = uop.const false
// CHECK-DAG: %[[T:.*]] = uop.const true
// CHECK-NEXT: return %[[F]], %[[F]], %[[T]], %arg1, %arg1, %arg1, %arg1, %arg1 :
func.func @cmps(%x: si32, %b: i1, %c: i1) -> (i1, i1, i1, i1, i1, i1, i1, i1) {
  %t = uop.const true
  %f = uop.const false
  %lt = uop.cmplt %x, %x : si32
  %ne = uop.cmpne %x, %x : si32
  %eq = uop.cmpeq %x, %x : si32
  %n1 = uop.cmpne %b, %t : i1
  %n2 = uop.cmpne %n1, %t : i1
  %bt = uop.and %b, %t : i1
  %bf = uop.or %b, %f : i1
  %w = uop.where %b, %t, %f : i1
  %ab = uop.and %b, %c : i1
  %abs = uop.or %b, %ab : i1
  return %lt, %ne, %eq, %n2, %bt, %bf, %w, %abs : i1, i1, i1, i1, i1, i1, i1, i1
}

// Floats: x*0, x-x, x/x, x!=x and x==x stay (inf*0 and NaN); x+0 and x*1 go.
// CHECK-LABEL: func.func @floats_not
// CHECK-DAG: %[[Z:.*]] = uop.mul %arg0, %{{.*}} : f32
// CHECK-DAG: %[[S:.*]] = uop.sub %arg0, %arg0 : f32
// CHECK-DAG: %[[D:.*]] = uop.fdiv %arg0, %arg0 : f32
// CHECK-DAG: %[[NE:.*]] = uop.cmpne %arg0, %arg0 : f32
// CHECK-DAG: %[[EQ:.*]] = uop.cmpeq %arg0, %arg0 : f32
// CHECK: return %[[Z]], %[[S]], %[[D]], %[[NE]], %[[EQ]], %arg0, %arg0 :
func.func @floats_not(%x: f32) -> (f32, f32, f32, i1, i1, f32, f32) {
  %0 = uop.const 0.0 : f32
  %1 = uop.const 1.0 : f32
  %z = uop.mul %x, %0 : f32
  %ss = uop.sub %x, %x : f32
  %dd = uop.fdiv %x, %x : f32
  %ne = uop.cmpne %x, %x : f32
  %eq = uop.cmpeq %x, %x : f32
  %a = uop.add %x, %0 : f32
  %m = uop.mul %x, %1 : f32
  return %z, %ss, %dd, %ne, %eq, %a, %m : f32, f32, f32, i1, i1, f32, f32
}

// From ranges: x//x is 1 when x cannot be 0 (0//0 is 0 here), w < 11 for w
// in [0, 10], max of ordered ranges; overlapping ranges decide nothing.
// CHECK-LABEL: func.func @ranges
// CHECK-DAG: %[[T:.*]] = uop.const true
// CHECK-DAG: %[[ONE:.*]] = uop.const 1 : si32
// CHECK-DAG: %[[X:.*]] = uop.define_var "x"
// CHECK-DAG: %[[W:.*]] = uop.define_var "w"
// CHECK-DAG: %[[V:.*]] = uop.define_var "v"
// CHECK-DAG: %[[DW:.*]] = uop.idiv %[[W]], %[[W]] : si32
// CHECK-DAG: %[[LT2:.*]] = uop.cmplt %[[W]], %[[X]] : si32
// CHECK-DAG: %[[MX2:.*]] = uop.max %[[W]], %[[X]] : si32
// CHECK: return %[[ONE]], %[[DW]], %[[T]], %[[LT2]], %[[V]], %[[MX2]] :
func.func @ranges(%y: si32) -> (si32, si32, i1, i1, si32, si32) {
  %x = uop.define_var "x" [1, 10] : si32
  %w = uop.define_var "w" [0, 10] : si32
  %v = uop.define_var "v" [11, 20] : si32
  %dx = uop.idiv %x, %x : si32
  %dw = uop.idiv %w, %w : si32
  %c11 = uop.const 11 : si32
  %lt = uop.cmplt %w, %c11 : si32
  %lt2 = uop.cmplt %w, %x : si32
  %mx = uop.max %w, %v : si32
  %mx2 = uop.max %w, %x : si32
  return %dx, %dw, %lt, %lt2, %mx, %mx2 : si32, si32, i1, i1, si32, si32
}

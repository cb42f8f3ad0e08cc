// tinygrad's POW and reciprocal rules (lib/Dialect/UOp/IR/FloatRules.cpp):
// simplify_pow, a positive constant base, and sym's 1/(x*x) and x/(1+x)
// forms, which move roundings as tinygrad's do (sigmoid's x*(1/(1+x)) is
// 1 - 1/(1+x), finite where inf*0 would be NaN).
// RUN: uop-opt %s --canonicalize | FileCheck %s

// CHECK-LABEL: func.func @pow_const_exponent
// x ** 2 -> x * x
// CHECK: uop.mul %arg0, %arg0 : f32
// x ** 3 -> (x * x) * x
// CHECK: %[[SQ:.*]] = uop.mul %arg0, %arg0 : f32
// CHECK: uop.mul %[[SQ]], %arg0 : f32
// x ** 0.5 -> sqrt(x)
// CHECK: %[[RT:.*]] = uop.sqrt %arg0 : f32
// x ** -1 -> 1/x
// CHECK: %[[RC:.*]] = uop.recip %arg0 : f32
// x ** 0.3 stays (xpow in uop-decompose-math)
// CHECK: uop.pow %arg0, %{{.*}} : f32
// CHECK-NOT: uop.pow
func.func @pow_const_exponent(%x: f32) -> (f32, f32, f32, f32, f32) {
  %c2 = uop.const 2.0 : f32
  %c3 = uop.const 3.0 : f32
  %ch = uop.const 0.5 : f32
  %cm = uop.const -1.0 : f32
  %cx = uop.const 0.3 : f32
  %a = uop.pow %x, %c2 : f32
  %b = uop.pow %x, %c3 : f32
  %c = uop.pow %x, %ch : f32
  %d = uop.pow %x, %cm : f32
  %e = uop.pow %x, %cx : f32
  return %a, %b, %c, %d, %e : f32, f32, f32, f32, f32
}

// 2 ** x -> exp2(x * log2(2)) (x * 1 folds); 1 ** x -> 1; (-2) ** x stays.
// CHECK-LABEL: func.func @pow_const_base
// CHECK: uop.exp2 %arg0 : f32
// CHECK: uop.pow %{{.*}}, %arg0 : f32
func.func @pow_const_base(%x: f32) -> (f32, f32, f32) {
  %c2 = uop.const 2.0 : f32
  %c1 = uop.const 1.0 : f32
  %cn = uop.const -2.0 : f32
  %a = uop.pow %c2, %x : f32
  %b = uop.pow %c1, %x : f32
  %c = uop.pow %cn, %x : f32
  return %a, %b, %c : f32, f32, f32
}

// x * (1/(1+x)) -> 1 + (1/(1+x)) * -1; 1/(x*x) -> (1/x) * (1/x).
// CHECK-LABEL: func.func @reciprocals
// CHECK: %[[D:.*]] = uop.recip %{{.*}} : f32
// CHECK: %[[N:.*]] = uop.mul %[[D]], %{{.*}} : f32
// CHECK: uop.add %[[N]], %{{.*}} : f32
// CHECK: %[[R:.*]] = uop.recip %arg0 : f32
// CHECK: uop.mul %[[R]], %[[R]] : f32
func.func @reciprocals(%x: f32) -> (f32, f32) {
  %one = uop.const 1.0 : f32
  %s = uop.add %x, %one : f32
  %d = uop.recip %s : f32
  %sig = uop.mul %x, %d : f32
  %sq = uop.mul %x, %x : f32
  %r = uop.recip %sq : f32
  return %sig, %r : f32, f32
}

// Constant folding with tinygrad's dtype semantics (exec_alu, then the
// result truncated to its dtype; docs/semantics.md for what C leaves
// undefined). Each kernel stores its folded values in order.
// RUN: uop-opt %s --canonicalize --split-input-file | FileCheck %s

// Integers: C's truncating IDIV/MOD, x/0 = 0, wraparound, unsigned, shifts
// past the width.
// CHECK-LABEL: uop.kernel @ints
// CHECK-DAG: %[[DIV:.*]] = uop.const -3 : si32
// CHECK-DAG: %[[MOD:.*]] = uop.const 1 : si32
// CHECK-DAG: %[[DIV0:.*]] = uop.const 0 : si32
// CHECK-DAG: %[[WRAP:.*]] = uop.const -2147483648 : si32
// CHECK-DAG: %[[SHR:.*]] = uop.const -1 : si32
// CHECK: uop.store %{{.*}}, %[[DIV]]
// CHECK: uop.store %{{.*}}, %[[MOD]]
// CHECK: uop.store %{{.*}}, %[[DIV0]]
// CHECK: uop.store %{{.*}}, %[[WRAP]]
// CHECK: uop.store %{{.*}}, %[[WRAP]]
// CHECK: uop.store %{{.*}}, %[[SHR]]
uop.kernel @ints {
  %o = uop.define_global 0 : !uop.ptr<si32, 1>
  %z = uop.const 0 : si64
  %p = uop.index %o[%z] : !uop.ptr<si32, 1>, si64
  %a = uop.const 7 : si32
  %b = uop.const -2 : si32
  %max = uop.const 2147483647 : si32
  %one = uop.const 1 : si32
  %min = uop.const -2147483648 : si32
  %m1 = uop.const -1 : si32
  %c40 = uop.const 40 : si32
  %zero = uop.const 0 : si32
  %div = uop.idiv %a, %b : si32
  %mod = uop.mod %a, %b : si32
  %div0 = uop.idiv %a, %zero : si32
  %wrap = uop.add %max, %one : si32
  %mindiv = uop.idiv %min, %m1 : si32
  %shr = uop.shr %m1, %c40 : si32, si32
  %s0 = uop.store %p, %div : !uop.ptr<si32, 1>
  %s1 = uop.store %p, %mod : !uop.ptr<si32, 1>
  %s2 = uop.store %p, %div0 : !uop.ptr<si32, 1>
  %s3 = uop.store %p, %wrap : !uop.ptr<si32, 1>
  %s4 = uop.store %p, %mindiv : !uop.ptr<si32, 1>
  %s5 = uop.store %p, %shr : !uop.ptr<si32, 1>
  uop.sink %s0, %s1, %s2, %s3, %s4, %s5
}

// -----

// Unsigned: division, compare and max read the bits as unsigned; uint8 wraps.
// CHECK-LABEL: uop.kernel @unsigned
// CHECK-DAG: %[[DIV:.*]] = uop.const 2147483644 : ui32
// CHECK-DAG: %[[MAX:.*]] = uop.const 4294967289 : ui32
// CHECK-DAG: %[[ADD:.*]] = uop.const 4 : ui8
// CHECK-DAG: %[[LT:.*]] = uop.const false
// CHECK: uop.store %{{.*}}, %[[DIV]]
// CHECK: uop.store %{{.*}}, %[[MAX]]
// CHECK: uop.store %{{.*}}, %[[ADD]]
// CHECK: uop.store %{{.*}}, %[[LT]]
uop.kernel @unsigned {
  %o = uop.define_global 0 : !uop.ptr<ui32, 1>
  %o8 = uop.define_global 1 : !uop.ptr<ui8, 1>
  %ob = uop.define_global 2 : !uop.ptr<i1, 1>
  %z = uop.const 0 : si64
  %p = uop.index %o[%z] : !uop.ptr<ui32, 1>, si64
  %p8 = uop.index %o8[%z] : !uop.ptr<ui8, 1>, si64
  %pb = uop.index %ob[%z] : !uop.ptr<i1, 1>, si64
  %big = uop.const 4294967289 : ui32
  %two = uop.const 2 : ui32
  %div = uop.idiv %big, %two : ui32
  %max = uop.max %big, %two : ui32
  %x = uop.const 250 : ui8
  %y = uop.const 10 : ui8
  %add = uop.add %x, %y : ui8
  %lt = uop.cmplt %big, %two : ui32
  %s0 = uop.store %p, %div : !uop.ptr<ui32, 1>
  %s1 = uop.store %p, %max : !uop.ptr<ui32, 1>
  %s2 = uop.store %p8, %add : !uop.ptr<ui8, 1>
  %s3 = uop.store %pb, %lt : !uop.ptr<i1, 1>
  uop.sink %s0, %s1, %s2, %s3
}

// -----

// Floats round to their dtype at every folded op (tinygrad's exec_alu
// truncates each result): 0.1 + 0.2 in f32, 1/3 in half. MAX keeps
// `a < b ? b : a`; compares with NaN are false except CMPNE.
// CHECK-LABEL: uop.kernel @floats
// CHECK-DAG: %[[SUM:.*]] = uop.const 3.000000{{[0-9e+-]*}} : f32
// CHECK-DAG: %[[THIRD:.*]] = uop.const 3.332520e-01 : f16
// CHECK-DAG: %[[NANMAX:.*]] = uop.const 0x7FC00000 : f32
// CHECK-DAG: %[[ONEMAX:.*]] = uop.const 1.000000e+00 : f32
// CHECK-DAG: %[[EXP:.*]] = uop.const 8.000000e+00 : f32
// CHECK-DAG: %[[LT:.*]] = uop.const false
// CHECK-DAG: %[[NE:.*]] = uop.const true
// CHECK: uop.store %{{.*}}, %[[SUM]]
// CHECK: uop.store %{{.*}}, %[[THIRD]]
// CHECK: uop.store %{{.*}}, %[[NANMAX]]
// CHECK: uop.store %{{.*}}, %[[ONEMAX]]
// CHECK: uop.store %{{.*}}, %[[EXP]]
// CHECK: uop.store %{{.*}}, %[[LT]]
// CHECK: uop.store %{{.*}}, %[[NE]]
uop.kernel @floats {
  %o = uop.define_global 0 : !uop.ptr<f32, 1>
  %oh = uop.define_global 1 : !uop.ptr<f16, 1>
  %ob = uop.define_global 2 : !uop.ptr<i1, 1>
  %z = uop.const 0 : si64
  %p = uop.index %o[%z] : !uop.ptr<f32, 1>, si64
  %ph = uop.index %oh[%z] : !uop.ptr<f16, 1>, si64
  %pb = uop.index %ob[%z] : !uop.ptr<i1, 1>, si64
  %a = uop.const 0.1 : f32
  %b = uop.const 0.2 : f32
  %sum = uop.add %a, %b : f32
  %h1 = uop.const 1.0 : f16
  %h3 = uop.const 3.0 : f16
  %third = uop.fdiv %h1, %h3 : f16
  %nan = uop.const 0x7FC00000 : f32
  %one = uop.const 1.0 : f32
  %nanmax = uop.max %nan, %one : f32
  %onemax = uop.max %one, %nan : f32
  %three = uop.const 3.0 : f32
  %exp = uop.exp2 %three : f32
  %lt = uop.cmplt %nan, %one : f32
  %ne = uop.cmpne %nan, %nan : f32
  %s0 = uop.store %p, %sum : !uop.ptr<f32, 1>
  %s1 = uop.store %ph, %third : !uop.ptr<f16, 1>
  %s2 = uop.store %p, %nanmax : !uop.ptr<f32, 1>
  %s3 = uop.store %p, %onemax : !uop.ptr<f32, 1>
  %s4 = uop.store %p, %exp : !uop.ptr<f32, 1>
  %s5 = uop.store %pb, %lt : !uop.ptr<i1, 1>
  %s6 = uop.store %pb, %ne : !uop.ptr<i1, 1>
  uop.sink %s0, %s1, %s2, %s3, %s4, %s5, %s6
}

// -----

// CAST: float to int truncates then wraps (300.5 -> uchar 44), NaN -> 0,
// NaN -> bool true; int to float rounds once (2^24 + 1 -> 2^24, 70000 ->
// half inf).
// CHECK-LABEL: uop.kernel @casts
// CHECK-DAG: %[[T:.*]] = uop.const -3 : si32
// CHECK-DAG: %[[U8:.*]] = uop.const 44 : ui8
// CHECK-DAG: %[[NAN:.*]] = uop.const 0 : si32
// CHECK-DAG: %[[B:.*]] = uop.const true
// CHECK-DAG: %[[F:.*]] = uop.const 0x4B800000 : f32
// CHECK-DAG: %[[H:.*]] = uop.const 0x7C00 : f16
// CHECK: uop.store %{{.*}}, %[[T]]
// CHECK: uop.store %{{.*}}, %[[U8]]
// CHECK: uop.store %{{.*}}, %[[NAN]]
// CHECK: uop.store %{{.*}}, %[[B]]
// CHECK: uop.store %{{.*}}, %[[F]]
// CHECK: uop.store %{{.*}}, %[[H]]
uop.kernel @casts {
  %o = uop.define_global 0 : !uop.ptr<si32, 1>
  %o8 = uop.define_global 1 : !uop.ptr<ui8, 1>
  %ob = uop.define_global 2 : !uop.ptr<i1, 1>
  %of = uop.define_global 3 : !uop.ptr<f32, 1>
  %oh = uop.define_global 4 : !uop.ptr<f16, 1>
  %z = uop.const 0 : si64
  %p = uop.index %o[%z] : !uop.ptr<si32, 1>, si64
  %p8 = uop.index %o8[%z] : !uop.ptr<ui8, 1>, si64
  %pb = uop.index %ob[%z] : !uop.ptr<i1, 1>, si64
  %pf = uop.index %of[%z] : !uop.ptr<f32, 1>, si64
  %ph = uop.index %oh[%z] : !uop.ptr<f16, 1>, si64
  %x = uop.const -3.7 : f32
  %t = uop.cast %x : f32 -> si32
  %y = uop.const 300.5 : f32
  %u8 = uop.cast %y : f32 -> ui8
  %nan = uop.const 0x7FC00000 : f32
  %ni = uop.cast %nan : f32 -> si32
  %nb = uop.cast %nan : f32 -> i1
  %big = uop.const 16777217 : si32
  %f = uop.cast %big : si32 -> f32
  %k = uop.const 70000 : si32
  %h = uop.cast %k : si32 -> f16
  %s0 = uop.store %p, %t : !uop.ptr<si32, 1>
  %s1 = uop.store %p8, %u8 : !uop.ptr<ui8, 1>
  %s2 = uop.store %p, %ni : !uop.ptr<si32, 1>
  %s3 = uop.store %pb, %nb : !uop.ptr<i1, 1>
  %s4 = uop.store %pf, %f : !uop.ptr<f32, 1>
  %s5 = uop.store %ph, %h : !uop.ptr<f16, 1>
  uop.sink %s0, %s1, %s2, %s3, %s4, %s5
}

// -----

// WHERE with a constant condition is one side; with equal sides, that side.
// Nothing folds where a source is not a constant, nor a CONST shaped by a
// view (a tensor-shaped value at the kernel-AST level).
// CHECK-LABEL: uop.kernel @where_and_not_constant
// CHECK: %[[X:.*]] = uop.load
// CHECK: %[[A:.*]] = uop.add %[[X]], %{{.*}} : f32
// CHECK: uop.store %{{.*}}, %[[X]]
// CHECK: uop.store %{{.*}}, %[[X]]
// CHECK: uop.store %{{.*}}, %[[A]]
// CHECK: %[[SHAPED:.*]] = uop.shaped_const %{{.*}}, 2.000000e+00 : f32
// CHECK: uop.mul %[[SHAPED]], %[[SHAPED]] : f32
uop.kernel @where_and_not_constant {
  %o = uop.define_global 0 : !uop.ptr<f32, 1>
  %i = uop.define_global 1 : !uop.ptr<f32, 1>
  %z = uop.const 0 : si64
  %p = uop.index %o[%z] : !uop.ptr<f32, 1>, si64
  %q = uop.index %i[%z] : !uop.ptr<f32, 1>, si64
  %x = uop.load %q : !uop.ptr<f32, 1>
  %t = uop.const true
  %one = uop.const 1.0 : f32
  %w = uop.where %t, %x, %one : f32
  %c = uop.cmplt %x, %one : f32
  %same = uop.where %c, %x, %x : f32
  %a = uop.add %x, %one : f32
  %s0 = uop.store %p, %w : !uop.ptr<f32, 1>
  %s1 = uop.store %p, %same : !uop.ptr<f32, 1>
  %s2 = uop.store %p, %a : !uop.ptr<f32, 1>
  uop.sink %s0, %s1, %s2
}
uop.kernel @shaped_const {
  %o = uop.define_global 0 : !uop.ptr<f32, 4>
  %ov = uop.view %o [#uop.view<shape = [4], strides = [1]>] : !uop.ptr<f32, 4>
  %sh = uop.view [#uop.view<shape = [4], strides = [0]>] : !uop.void
  %c = uop.shaped_const %sh, 2.0 : f32
  %m = uop.mul %c, %c : f32
  %s = uop.store %ov, %m : !uop.ptr<f32, 4>
  uop.sink %s
}

// uop-decompose-math's integer division by a constant d > 1, exact as C's
// truncation for every value of the dividend's range: d = 2^k is a shift
// (after tinygrad's x + (x < 0 ? d - 1 : 0) where x may be negative), MOD by
// 2^k a mask where x is never negative; other d are tinygrad's fast_idiv
// products (magic numbers from magicgu for the range) where x is never
// negative; any other MOD is x - d * (x // d). Everything else keeps its IDIV
// and MOD (@kept).
// RUN: uop-opt %s --uop-attach-target=chip=sm_80 --uop-decompose-math | FileCheck %s
// RUN: uop-opt %s --uop-attach-target=chip=host --uop-decompose-math | FileCheck %s

// CHECK-LABEL: uop.kernel @powers_of_two
// CHECK-DAG: %[[C2:.*]] = uop.const 2 : si32
// CHECK-DAG: %[[C7:.*]] = uop.const 7 : si32
// CHECK: %[[X:.*]] = uop.define_var "x" [0, 1000] : si32
// CHECK-DAG: uop.shr %[[X]], %[[C2]] : si32, si32
// CHECK-DAG: uop.and %[[X]], %[[C7]] : si32
// CHECK-NOT: uop.idiv
// CHECK-NOT: uop.mod
uop.kernel @powers_of_two {
  %z = uop.const 0 : si32
  %one = uop.const 1 : si32
  %c4 = uop.const 4 : si32
  %c8 = uop.const 8 : si32
  %g = uop.define_global 0 : !uop.ptr<si32, 1>
  %x = uop.define_var "x" [0, 1000] : si32
  %q = uop.idiv %x, %c4 : si32
  %r = uop.mod %x, %c8 : si32
  %p0 = uop.index %g[%z] : !uop.ptr<si32, 1>, si32
  %p1 = uop.index %g[%one] : !uop.ptr<si32, 1>, si32
  %s0 = uop.store %p0, %q : !uop.ptr<si32, 1>
  %s1 = uop.store %p1, %r : !uop.ptr<si32, 1>
  uop.sink %s0, %s1
}

// x // 7 for x in [0, 48] is (x * 37) >> 8, as LLVM's PTX for conv3x3 has
// it; x % 7 is x - 7 * that.
// CHECK-LABEL: uop.kernel @fast_idiv
// CHECK-DAG: %[[M:.*]] = uop.const 37 : si32
// CHECK-DAG: %[[S:.*]] = uop.const 8 : si32
// CHECK-DAG: %[[D:.*]] = uop.const 7 : si32
// CHECK: %[[X:.*]] = uop.define_var "x" [0, 48] : si32
// CHECK: %[[P:.*]] = uop.mul %[[X]], %[[M]] : si32
// CHECK: %[[Q:.*]] = uop.shr %[[P]], %[[S]] : si32, si32
// CHECK: %[[P2:.*]] = uop.mul %[[X]], %[[M]] : si32
// CHECK: %[[Q2:.*]] = uop.shr %[[P2]], %[[S]] : si32, si32
// CHECK: %[[DQ:.*]] = uop.mul %[[Q2]], %[[D]] : si32
// CHECK: uop.sub %[[X]], %[[DQ]] : si32
// CHECK-NOT: uop.idiv
// CHECK-NOT: uop.mod
uop.kernel @fast_idiv {
  %z = uop.const 0 : si32
  %one = uop.const 1 : si32
  %c7 = uop.const 7 : si32
  %g = uop.define_global 0 : !uop.ptr<si32, 1>
  %x = uop.define_var "x" [0, 48] : si32
  %q = uop.idiv %x, %c7 : si32
  %r = uop.mod %x, %c7 : si32
  %p0 = uop.index %g[%z] : !uop.ptr<si32, 1>, si32
  %p1 = uop.index %g[%one] : !uop.ptr<si32, 1>, si32
  %s0 = uop.store %p0, %q : !uop.ptr<si32, 1>
  %s1 = uop.store %p1, %r : !uop.ptr<si32, 1>
  uop.sink %s0, %s1
}

// Over all of si32's non-negative values the product needs 64 bits:
// (si64(x) * 2454267027) >> 34, cast back. For all of ui32 it does not fit
// ui64 either, and the IDIV stays.
// CHECK-LABEL: uop.kernel @wider
// CHECK-DAG: %[[M:.*]] = uop.const 2454267027 : si64
// CHECK-DAG: %[[S:.*]] = uop.const 34 : si64
// CHECK: %[[X:.*]] = uop.define_var "x" [0, 2147483647] : si32
// CHECK: %[[W:.*]] = uop.cast %[[X]] : si32 -> si64
// CHECK: %[[P:.*]] = uop.mul %[[W]], %[[M]] : si64
// CHECK: %[[Q:.*]] = uop.shr %[[P]], %[[S]] : si64, si64
// CHECK: uop.cast %[[Q]] : si64 -> si32
// CHECK: uop.idiv %{{.*}} : ui32
uop.kernel @wider {
  %z = uop.const 0 : si32
  %one = uop.const 1 : si32
  %c7 = uop.const 7 : si32
  %u7 = uop.const 7 : ui32
  %g = uop.define_global 0 : !uop.ptr<si32, 1>
  %h = uop.define_global 1 : !uop.ptr<ui32, 1>
  %x = uop.define_var "x" [0, 2147483647] : si32
  %y = uop.define_var "y" [0, 4294967295] : ui32
  %q = uop.idiv %x, %c7 : si32
  %qu = uop.idiv %y, %u7 : ui32
  %p0 = uop.index %g[%z] : !uop.ptr<si32, 1>, si32
  %p1 = uop.index %h[%z] : !uop.ptr<ui32, 1>, si32
  %s0 = uop.store %p0, %q : !uop.ptr<si32, 1>
  %s1 = uop.store %p1, %qu : !uop.ptr<ui32, 1>
  uop.sink %s0, %s1
}

// A dividend that may be negative: tinygrad's x + (x < 0 ? d - 1 : 0)
// before the shift (C's division truncates, a shift floors), and MOD as
// x - d * (x // d), which keeps C's sign where tinygrad's AND would not.
// Only always negative: the constant d - 1.
// CHECK-LABEL: uop.kernel @signed
// CHECK-DAG: %[[C0:.*]] = uop.const 0 : si32
// CHECK-DAG: %[[C2:.*]] = uop.const 2 : si32
// CHECK-DAG: %[[C3:.*]] = uop.const 3 : si32
// CHECK-DAG: %[[C4:.*]] = uop.const 4 : si32
// CHECK: %[[X:.*]] = uop.define_var "x" [-8, 8] : si32
// CHECK: %[[N:.*]] = uop.define_var "n" [-8, -1] : si32
// CHECK: %[[LT:.*]] = uop.cmplt %[[X]], %[[C0]] : si32
// CHECK: %[[B:.*]] = uop.where %[[LT]], %[[C3]], %[[C0]] : si32
// CHECK: %[[XB:.*]] = uop.add %[[X]], %[[B]] : si32
// CHECK: uop.shr %[[XB]], %[[C2]] : si32, si32
// CHECK: %[[NB:.*]] = uop.add %[[N]], %[[C3]] : si32
// CHECK: %[[Q:.*]] = uop.shr %[[NB]], %[[C2]] : si32, si32
// CHECK: %[[QD:.*]] = uop.mul %[[Q]], %[[C4]] : si32
// CHECK: uop.sub %[[N]], %[[QD]] : si32
// CHECK-NOT: uop.idiv
// CHECK-NOT: uop.mod
uop.kernel @signed {
  %z = uop.const 0 : si32
  %one = uop.const 1 : si32
  %c4 = uop.const 4 : si32
  %g = uop.define_global 0 : !uop.ptr<si32, 1>
  %x = uop.define_var "x" [-8, 8] : si32
  %n = uop.define_var "n" [-8, -1] : si32
  %q = uop.idiv %x, %c4 : si32
  %r = uop.mod %n, %c4 : si32
  %p0 = uop.index %g[%z] : !uop.ptr<si32, 1>, si32
  %p1 = uop.index %g[%one] : !uop.ptr<si32, 1>, si32
  %s0 = uop.store %p0, %q : !uop.ptr<si32, 1>
  %s1 = uop.store %p1, %r : !uop.ptr<si32, 1>
  uop.sink %s0, %s1
}

// Left alone: fast_idiv of a dividend that may be negative, a divisor of
// 1, 0 or below, a divisor that is not a constant, and vectors (ranges are
// scalar).
// CHECK-LABEL: uop.kernel @kept
// CHECK-COUNT-5: uop.idiv {{.*}} : si32
// CHECK: uop.mod
// CHECK: uop.idiv {{.*}} : vector<2xsi32>
// CHECK-NOT: uop.shr
// CHECK-NOT: uop.and
uop.kernel @kept {
  %z = uop.const 0 : si32
  %one = uop.const 1 : si32
  %c3 = uop.const 3 : si32
  %cm4 = uop.const -4 : si32
  %v4 = uop.const dense<4> : vector<2xsi32>
  %g = uop.define_global 0 : !uop.ptr<si32, 1>
  %gv = uop.define_global 1 : !uop.ptr<vector<2xsi32>, 1>
  %x = uop.define_var "x" [-8, 8] : si32
  %y = uop.define_var "y" [0, 100] : si32
  %n = uop.define_var "n" [1, 8] : si32
  %q0 = uop.idiv %x, %c3 : si32
  %q1 = uop.idiv %y, %z : si32
  %q2 = uop.idiv %y, %cm4 : si32
  %q3 = uop.idiv %y, %n : si32
  %q4 = uop.idiv %y, %one : si32
  %r0 = uop.mod %x, %c3 : si32
  %vy = uop.vectorize %y, %y : si32
  %qv = uop.idiv %vy, %v4 : vector<2xsi32>
  %a = uop.add %q0, %q1 : si32
  %b = uop.add %q2, %q3 : si32
  %c = uop.add %a, %b : si32
  %e = uop.add %c, %r0 : si32
  %d = uop.add %e, %q4 : si32
  %p0 = uop.index %g[%z] : !uop.ptr<si32, 1>, si32
  %p1 = uop.index %gv[%z] : !uop.ptr<vector<2xsi32>, 1>, si32
  %s0 = uop.store %p0, %d : !uop.ptr<si32, 1>
  %s1 = uop.store %p1, %qv : !uop.ptr<vector<2xsi32>, 1>
  uop.sink %s0, %s1
}

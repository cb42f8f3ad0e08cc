// uop-target-legalize: the uop-level rewrites of tinygrad's PTX renderer
// (ptx_matcher), driven by the module's #uop.target.
// RUN: uop-opt %s --split-input-file --uop-target-legalize | FileCheck %s

// Bool comparisons become bit ops: != is ^, < is (x ^ true) & y, == is
// (x ^ y) ^ true. Integer comparisons stay.
// CHECK-LABEL: uop.kernel @bool_compares
// CHECK-DAG: %[[T:.*]] = uop.const true
// CHECK-DAG: %[[X:.*]] = uop.load %{{.*}} : !uop.ptr<i1, 2>
// CHECK-DAG: %[[Y:.*]] = uop.load %{{.*}} : !uop.ptr<i1, 2>
// CHECK-DAG: %[[NE:.*]] = uop.xor %[[X]], %[[Y]] : i1
// CHECK-DAG: %[[NX:.*]] = uop.xor %[[X]], %[[T]] : i1
// CHECK-DAG: %[[LT:.*]] = uop.and %[[NX]], %[[Y]] : i1
// CHECK-DAG: %[[XY:.*]] = uop.xor %[[X]], %[[Y]] : i1
// CHECK-DAG: %[[EQ:.*]] = uop.xor %[[XY]], %[[T]] : i1
// CHECK-DAG: uop.cmplt %{{.*}}, %{{.*}} : si32
// CHECK-NOT: uop.cmpne %{{.*}} : i1
module attributes {uop.target = #uop.target<"sm_80">} {
  uop.kernel @bool_compares {
    %z = uop.const 0 : si32
    %one = uop.const 1 : si32
    %c2 = uop.const 2 : si32
    %b = uop.define_global 0 : !uop.ptr<i1, 2>
    %o = uop.define_global 1 : !uop.ptr<i1, 4>
    %pb0 = uop.index %b[%z] : !uop.ptr<i1, 2>, si32
    %pb1 = uop.index %b[%one] : !uop.ptr<i1, 2>, si32
    %x = uop.load %pb0 : !uop.ptr<i1, 2>
    %y = uop.load %pb1 : !uop.ptr<i1, 2>
    %ne = uop.cmpne %x, %y : i1
    %lt = uop.cmplt %x, %y : i1
    %eq = uop.cmpeq %x, %y : i1
    %r = uop.range %c2 axis 0 reduce : si32
    %ir = uop.cmplt %r, %one : si32
    %any = uop.reduce max %ir [%r : si32] : i1
    %c3 = uop.const 3 : si32
    %p0 = uop.index %o[%z] : !uop.ptr<i1, 4>, si32
    %p1 = uop.index %o[%one] : !uop.ptr<i1, 4>, si32
    %p2 = uop.index %o[%c2] : !uop.ptr<i1, 4>, si32
    %p3 = uop.index %o[%c3] : !uop.ptr<i1, 4>, si32
    %s0 = uop.store %p0, %ne : !uop.ptr<i1, 4>
    %s1 = uop.store %p1, %lt : !uop.ptr<i1, 4>
    %s2 = uop.store %p2, %eq : !uop.ptr<i1, 4>
    %s3 = uop.store %p3, %any : !uop.ptr<i1, 4>
    uop.sink %s0, %s1, %s2, %s3
  }
}

// -----

// f16 ops PTX has no half instruction for (not in half_ops: recip, log2,
// sin, sqrt, fdiv, mulacc, ...) are computed in f32 and cast back; exp2,
// add, mul, max stay half. A half compare (bool result) stays.
// CHECK-LABEL: uop.kernel @half_ops
// CHECK: %[[X:.*]] = uop.load %{{.*}} : !uop.ptr<f16, 1>
// CHECK: %[[W:.*]] = uop.cast %[[X]] : f16 -> f32
// CHECK: %[[R:.*]] = uop.recip %[[W]] : f32
// CHECK: %[[N:.*]] = uop.cast %[[R]] : f32 -> f16
// CHECK: %[[E:.*]] = uop.exp2 %[[N]] : f16
// CHECK: %[[A:.*]] = uop.add %[[E]], %[[X]] : f16
// CHECK: uop.sqrt %{{.*}} : f32
// CHECK: uop.mulacc %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK: uop.cmplt %{{.*}}, %{{.*}} : f16
module attributes {uop.target = #uop.target<"sm_80">} {
  uop.kernel @half_ops {
    %z = uop.const 0 : si32
    %g = uop.define_global 0 : !uop.ptr<f16, 1>
    %p = uop.index %g[%z] : !uop.ptr<f16, 1>, si32
    %x = uop.load %p : !uop.ptr<f16, 1>
    %r = uop.recip %x : f16
    %e = uop.exp2 %r : f16
    %a = uop.add %e, %x : f16
    %s = uop.sqrt %a : f16
    %m = uop.mulacc %s, %x, %a : f16
    %lt = uop.cmplt %m, %x : f16
    %zero = uop.const 0.0 : f16
    %w = uop.where %lt, %m, %zero : f16
    %st = uop.store %p, %w : !uop.ptr<f16, 1>
    uop.sink %st
  }
}

// -----

// The half_ops list is data: a target without native half add computes it
// in f32. bf16 (no PTX arithmetic before sm_90) is computed in f32 for
// every ALU op but WHERE.
// CHECK-LABEL: uop.kernel @no_half_add
// CHECK: uop.add %{{.*}}, %{{.*}} : f32
// CHECK: uop.mul %{{.*}}, %{{.*}} : f16
// CHECK: uop.add %{{.*}}, %{{.*}} : f32
// CHECK: %[[BF:.*]] = uop.cast %{{.*}} : f32 -> bf16
// CHECK: uop.where %{{.*}}, %[[BF]], %{{.*}} : bf16
module attributes {uop.target = #uop.target<"sm_80", half_ops = ["mul"]>} {
  uop.kernel @no_half_add {
    %z = uop.const 0 : si32
    %g = uop.define_global 0 : !uop.ptr<f16, 1>
    %h = uop.define_global 1 : !uop.ptr<bf16, 1>
    %p = uop.index %g[%z] : !uop.ptr<f16, 1>, si32
    %q = uop.index %h[%z] : !uop.ptr<bf16, 1>, si32
    %x = uop.load %p : !uop.ptr<f16, 1>
    %a = uop.add %x, %x : f16
    %m = uop.mul %a, %x : f16
    %s = uop.store %p, %m : !uop.ptr<f16, 1>
    %y = uop.load %q : !uop.ptr<bf16, 1>
    %b = uop.add %y, %y : bf16
    %t = uop.cmplt %y, %b : bf16
    %w = uop.where %t, %b, %y : bf16
    %s2 = uop.store %q, %w : !uop.ptr<bf16, 1>
    uop.sink %s, %s2
  }
}

// -----

// Shift amounts become u32 where that keeps their unsigned value: always
// for 32 bits or fewer, for wider amounts when their range fits.
// CHECK-LABEL: uop.kernel @shifts
// CHECK: %[[A:.*]] = uop.cast %{{.*}} : si32 -> ui32
// CHECK: uop.shl %{{.*}}, %[[A]] : si32, ui32
// CHECK: %[[B:.*]] = uop.cast %{{.*}} : si64 -> ui32
// CHECK: uop.shr %{{.*}}, %[[B]] : si64, ui32
// CHECK: uop.shl %{{.*}}, %{{.*}} : si64, si64
module attributes {uop.target = #uop.target<"sm_80">} {
  uop.kernel @shifts {
    %z = uop.const 0 : si32
    %g = uop.define_global 0 : !uop.ptr<si32, 1>
    %h = uop.define_global 1 : !uop.ptr<si64, 1>
    %p = uop.index %g[%z] : !uop.ptr<si32, 1>, si32
    %q = uop.index %h[%z] : !uop.ptr<si64, 1>, si32
    %x = uop.load %p : !uop.ptr<si32, 1>
    %y = uop.load %q : !uop.ptr<si64, 1>
    %sx = uop.shl %x, %x : si32, si32
    %c7 = uop.const 7 : si32
    %r = uop.range %c7 axis 0 reduce : si32
    %r64 = uop.cast %r : si32 -> si64
    %sy = uop.shr %y, %r64 : si64, si64
    %acc = uop.reduce add %sy [%r : si32] : si64
    %sz = uop.shl %acc, %y : si64, si64
    %s0 = uop.store %p, %sx : !uop.ptr<si32, 1>
    %s1 = uop.store %q, %sz : !uop.ptr<si64, 1>
    uop.sink %s0, %s1
  }
}

// -----

// A half product cast to f32 is the exact product, computed in f32 (as the
// CPU backend and the tensor cores do); the half product itself stays for
// its other use, and a product cast to another half is not touched.
// CHECK-LABEL: uop.kernel @exact_half_product
// CHECK: %[[X:.*]] = uop.load %{{.*}} : !uop.ptr<f16, 4>
// CHECK: %[[Y:.*]] = uop.load %{{.*}} : !uop.ptr<f16, 4>
// CHECK: %[[M:.*]] = uop.mul %[[X]], %[[Y]] : f16
// CHECK: %[[WX:.*]] = uop.cast %[[X]] : f16 -> f32
// CHECK: %[[WY:.*]] = uop.cast %[[Y]] : f16 -> f32
// CHECK: %[[W:.*]] = uop.mul %[[WX]], %[[WY]] : f32
// CHECK: uop.store %{{.*}}, %[[W]]
// CHECK: uop.store %{{.*}}, %[[M]]
module attributes {uop.target = #uop.target<"sm_80">} {
  uop.kernel @exact_half_product {
    %z = uop.const 0 : si32
    %one = uop.const 1 : si32
    %a = uop.define_global 0 : !uop.ptr<f16, 4>
    %o = uop.define_global 1 : !uop.ptr<f32, 1>
    %h = uop.define_global 2 : !uop.ptr<f16, 1>
    %pa0 = uop.index %a[%z] : !uop.ptr<f16, 4>, si32
    %pa1 = uop.index %a[%one] : !uop.ptr<f16, 4>, si32
    %x = uop.load %pa0 : !uop.ptr<f16, 4>
    %y = uop.load %pa1 : !uop.ptr<f16, 4>
    %m = uop.mul %x, %y : f16
    %w = uop.cast %m : f16 -> f32
    %po = uop.index %o[%z] : !uop.ptr<f32, 1>, si32
    %s0 = uop.store %po, %w : !uop.ptr<f32, 1>
    %ph = uop.index %h[%z] : !uop.ptr<f16, 1>, si32
    %s1 = uop.store %ph, %m : !uop.ptr<f16, 1>
    uop.sink %s0, %s1
  }
}

// -----

// A half MULACC by +1 or -1 (tinygrad's z + x, z - x) is half ADD or SUB:
// the f32 MULACC rounds z +- x to f32 and then to f16, which is f16's own
// rounding of it (24 >= 2 * 11 + 2). Either multiplicand may be the
// constant. Kept in f32: other multipliers, a multiplicand or addend that
// is a half product (the f32 MULACC takes it unrounded), and a target
// without half ADD.
// CHECK-LABEL: uop.kernel @half_unit_mulacc
// CHECK-DAG: %[[X:.*]] = uop.load %{{.*}} : !uop.ptr<f16, 4>
// CHECK-DAG: %[[Z:.*]] = uop.load %{{.*}} : !uop.ptr<f16, 4>
// CHECK: %[[SUB:.*]] = uop.sub %[[Z]], %[[X]] : f16
// CHECK: %[[ADD:.*]] = uop.add %[[Z]], %[[X]] : f16
// CHECK: uop.mulacc %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK: uop.mulacc %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK: uop.mulacc %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK-NOT: uop.mulacc
module attributes {uop.target = #uop.target<"sm_80">} {
  uop.kernel @half_unit_mulacc {
    %z0 = uop.const 0 : si32
    %one = uop.const 1 : si32
    %a = uop.define_global 0 : !uop.ptr<f16, 4>
    %p0 = uop.index %a[%z0] : !uop.ptr<f16, 4>, si32
    %p1 = uop.index %a[%one] : !uop.ptr<f16, 4>, si32
    %x = uop.load %p0 : !uop.ptr<f16, 4>
    %z = uop.load %p1 : !uop.ptr<f16, 4>
    %m1 = uop.const -1.0 : f16
    %p1c = uop.const 1.0 : f16
    %two = uop.const 2.0 : f16
    %sub = uop.mulacc %x, %m1, %z : f16
    %add = uop.mulacc %p1c, %x, %z : f16
    %twice = uop.mulacc %x, %two, %z : f16
    %prod = uop.mul %x, %z : f16
    %exact = uop.mulacc %prod, %m1, %z : f16
    %exactz = uop.mulacc %x, %m1, %prod : f16
    %s0 = uop.store %p0, %sub : !uop.ptr<f16, 4>
    %s1 = uop.store %p0, %add : !uop.ptr<f16, 4>
    %s2 = uop.store %p0, %twice : !uop.ptr<f16, 4>
    %s3 = uop.store %p0, %exact : !uop.ptr<f16, 4>
    %s4 = uop.store %p0, %exactz : !uop.ptr<f16, 4>
    uop.sink %s0, %s1, %s2, %s3, %s4
  }
}

// -----

// Half ADD is all SUB needs (PTX's sub.f16 beside add.f16): the SUB stays
// half on a target without half MUL.
// CHECK-LABEL: uop.kernel @unit_mulacc_no_half_mul
// CHECK: %[[X:.*]] = uop.load %{{.*}} : !uop.ptr<f16, 1>
// CHECK: uop.sub %[[X]], %[[X]] : f16
// CHECK-NOT: uop.cast
module attributes {uop.target = #uop.target<"sm_80", half_ops = ["add"]>} {
  uop.kernel @unit_mulacc_no_half_mul {
    %z0 = uop.const 0 : si32
    %a = uop.define_global 0 : !uop.ptr<f16, 1>
    %p = uop.index %a[%z0] : !uop.ptr<f16, 1>, si32
    %x = uop.load %p : !uop.ptr<f16, 1>
    %m1 = uop.const -1.0 : f16
    %sub = uop.mulacc %x, %m1, %x : f16
    %s = uop.store %p, %sub : !uop.ptr<f16, 1>
    uop.sink %s
  }
}

// -----

// CHECK-LABEL: uop.kernel @unit_mulacc_no_half_add
// CHECK-NOT: uop.add
// CHECK: uop.mulacc %{{.*}}, %{{.*}}, %{{.*}} : f32
module attributes {uop.target = #uop.target<"sm_80", half_ops = ["mul"]>} {
  uop.kernel @unit_mulacc_no_half_add {
    %z0 = uop.const 0 : si32
    %a = uop.define_global 0 : !uop.ptr<f16, 1>
    %p = uop.index %a[%z0] : !uop.ptr<f16, 1>, si32
    %x = uop.load %p : !uop.ptr<f16, 1>
    %m1 = uop.const -1.0 : f16
    %sub = uop.mulacc %x, %m1, %x : f16
    %s = uop.store %p, %sub : !uop.ptr<f16, 1>
    uop.sink %s
  }
}

// convert-uop-to-scf: what values compute (docs/semantics.md), one rule per
// kernel. The CPU run of the same rules against an oracle is
// test/Runtime/semantics.test.
// RUN: uop-opt %s --convert-uop-to-scf --split-input-file | FileCheck %s

// A variable divisor is guarded: x/0 = 0 and x/-1 = -x instead of a trap.
// CHECK-LABEL: func.func @idiv_guarded
// CHECK: %[[X:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i32
// CHECK: %[[Y0:.*]] = arith.cmpi eq, %[[X]], %[[ZERO:.*]] : i32
// CHECK: %[[YM:.*]] = arith.cmpi eq, %[[X]], %{{.*}} : i32
// CHECK: %[[BAD:.*]] = arith.ori %[[Y0]], %[[YM]] : i1
// CHECK: %[[SAFE:.*]] = arith.select %[[BAD]], %{{.*}}, %[[X]] : i32
// CHECK: %[[Q:.*]] = arith.divsi %[[X]], %[[SAFE]] : i32
// CHECK: %[[NEG:.*]] = arith.subi %[[ZERO]], %[[X]] : i32
// CHECK: %[[Q1:.*]] = arith.select %[[YM]], %[[NEG]], %[[Q]] : i32
// CHECK: arith.select %[[Y0]], %[[ZERO]], %[[Q1]] : i32
uop.kernel @idiv_guarded {
  %o = uop.define_global 0 : !uop.ptr<si32, 1>
  %z = uop.const 0 : si32
  %p = uop.index %o[%z] : !uop.ptr<si32, 1>, si32
  %x = uop.load %p : !uop.ptr<si32, 1>
  %d = uop.idiv %x, %x : si32
  %s = uop.store %p, %d : !uop.ptr<si32, 1>
  uop.sink %s
}

// -----

// A constant divisor other than 0 and -1 needs no guard; MOD is remsi,
// unsigned division divui.
// CHECK-LABEL: func.func @constant_divisor
// CHECK-NOT: arith.select
// CHECK: arith.remsi %{{.*}}, %{{.*}} : i32
// CHECK-LABEL: func.func @unsigned_div
// CHECK: arith.divui
uop.kernel @constant_divisor {
  %o = uop.define_global 0 : !uop.ptr<si32, 1>
  %z = uop.const 0 : si32
  %c3 = uop.const 3 : si32
  %p = uop.index %o[%z] : !uop.ptr<si32, 1>, si32
  %x = uop.load %p : !uop.ptr<si32, 1>
  %m = uop.mod %x, %c3 : si32
  %s = uop.store %p, %m : !uop.ptr<si32, 1>
  uop.sink %s
}
uop.kernel @unsigned_div {
  %o = uop.define_global 0 : !uop.ptr<ui32, 1>
  %z = uop.const 0 : si32
  %c3 = uop.const 3 : ui32
  %p = uop.index %o[%z] : !uop.ptr<ui32, 1>, si32
  %x = uop.load %p : !uop.ptr<ui32, 1>
  %m = uop.idiv %x, %c3 : ui32
  %s = uop.store %p, %m : !uop.ptr<ui32, 1>
  uop.sink %s
}

// -----

// Float compares are ordered except CMPNE (true with a NaN); MAX is
// a < b ? b : a, so its operand order decides what a NaN does.
// CHECK-LABEL: func.func @compare_max
// CHECK: %[[A:.*]] = llvm.load %{{.*}} : !llvm.ptr -> f32
// CHECK: %[[LT:.*]] = arith.cmpf olt, %[[A]], %[[B:.*]] : f32
// CHECK: %[[MX:.*]] = arith.select %[[LT]], %[[B]], %[[A]] : f32
// CHECK: arith.cmpf olt, %[[MX]], %[[A]] : f32
// CHECK: arith.cmpf une, %[[MX]], %[[A]] : f32
uop.kernel @compare_max {
  %o = uop.define_global 0 : !uop.ptr<i1, 1>
  %f = uop.define_global 1 : !uop.ptr<f32, 1>
  %z = uop.const 0 : si32
  %pf = uop.index %f[%z] : !uop.ptr<f32, 1>, si32
  %a = uop.load %pf : !uop.ptr<f32, 1>
  %one = uop.const 1.0 : f32
  %mx = uop.max %a, %one : f32
  %lt = uop.cmplt %mx, %a : f32
  %ne = uop.cmpne %mx, %a : f32
  %both = uop.and %lt, %ne : i1
  %p = uop.index %o[%z] : !uop.ptr<i1, 1>, si32
  %s = uop.store %p, %both : !uop.ptr<i1, 1>
  uop.sink %s
}

// -----

// Half is computed in f32 and rounded once, when stored; a cast to half
// rounds to half directly.
// CHECK-LABEL: func.func @half_in_f32
// CHECK: %[[H:.*]] = llvm.load %{{.*}} : !llvm.ptr -> f16
// CHECK: %[[W:.*]] = arith.extf %[[H]] : f16 to f32
// CHECK: %[[M:.*]] = arith.mulf %[[W]], %[[W]] : f32
// CHECK: %[[T:.*]] = arith.truncf %[[M]] : f32 to f16
// CHECK: llvm.store %[[T]], %{{.*}} : f16, !llvm.ptr
// CHECK-LABEL: func.func @int_to_half
// CHECK: %[[F:.*]] = arith.sitofp %{{.*}} : i32 to f16
// CHECK: arith.extf %[[F]] : f16 to f32
uop.kernel @half_in_f32 {
  %o = uop.define_global 0 : !uop.ptr<f16, 1>
  %z = uop.const 0 : si32
  %p = uop.index %o[%z] : !uop.ptr<f16, 1>, si32
  %x = uop.load %p : !uop.ptr<f16, 1>
  %m = uop.mul %x, %x : f16
  %s = uop.store %p, %m : !uop.ptr<f16, 1>
  uop.sink %s
}
uop.kernel @int_to_half {
  %o = uop.define_global 0 : !uop.ptr<f16, 1>
  %z = uop.const 0 : si32
  %c = uop.const 70000 : si32
  %h = uop.cast %c : si32 -> f16
  %p = uop.index %o[%z] : !uop.ptr<f16, 1>, si32
  %s = uop.store %p, %h : !uop.ptr<f16, 1>
  uop.sink %s
}

// -----

// Float to int: the host's conversion is C's, as clang compiles tinygrad's
// `(unsigned char)(x)`: fptoui to the destination (out of range: what the
// CPU's instruction gives, docs/semantics.md).
// CHECK-LABEL: func.func @float_to_int
// CHECK: %[[X:.*]] = llvm.load %{{.*}} : !llvm.ptr -> f32
// CHECK: %[[I8:.*]] = arith.fptoui %[[X]] : f32 to i8
// CHECK: llvm.store %[[I8]]
uop.kernel @float_to_int {
  %o = uop.define_global 0 : !uop.ptr<ui8, 1>
  %f = uop.define_global 1 : !uop.ptr<f32, 1>
  %z = uop.const 0 : si32
  %pf = uop.index %f[%z] : !uop.ptr<f32, 1>, si32
  %x = uop.load %pf : !uop.ptr<f32, 1>
  %i = uop.cast %x : f32 -> ui8
  %p = uop.index %o[%z] : !uop.ptr<ui8, 1>, si32
  %s = uop.store %p, %i : !uop.ptr<ui8, 1>
  uop.sink %s
}

// -----

// A shift by a variable amount: by the width or more gives 0 (SHL), the
// sign (signed SHR) instead of LLVM's poison.
// CHECK-LABEL: func.func @shifts
// CHECK: %[[X:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i32
// CHECK: %[[SHR:.*]] = arith.shrsi %[[X]], %[[X]] : i32
// CHECK: %[[FAR:.*]] = arith.cmpi uge, %[[X]], %{{.*}} : i32
// CHECK: %[[SIGN:.*]] = arith.shrsi %[[X]], %{{.*}} : i32
// CHECK: arith.select %[[FAR]], %[[SIGN]], %[[SHR]] : i32
uop.kernel @shifts {
  %o = uop.define_global 0 : !uop.ptr<si32, 1>
  %z = uop.const 0 : si32
  %p = uop.index %o[%z] : !uop.ptr<si32, 1>, si32
  %x = uop.load %p : !uop.ptr<si32, 1>
  %r = uop.shr %x, %x : si32, si32
  %s = uop.store %p, %r : !uop.ptr<si32, 1>
  uop.sink %s
}

// -----

// Integer ADD and MUL wrap; they are marked nsw only where their operands'
// ranges (tinygrad's vmin/vmax) prove the exact result fits: index math over
// RANGEs and constants is, a loaded value plus one is not, and neither is a
// sum whose bounds reach past INT32_MAX.
// CHECK-LABEL: func.func @no_signed_wrap
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} : i32
// CHECK: %[[M:.*]] = arith.muli %[[I]], %{{.*}} overflow<nsw> : i32
// CHECK: %[[A:.*]] = arith.addi %[[M]], %{{.*}} overflow<nsw> : i32
// CHECK: %[[X:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i32
// CHECK: arith.addi %[[X]], %{{.*}} : i32{{$}}
// CHECK: arith.addi %[[A]], %{{.*}} : i32{{$}}
// CHECK: arith.addi %{{.*}}, %{{.*}} : i32{{$}}
// CHECK: llvm.store
uop.kernel @no_signed_wrap {
  %o = uop.define_global 0 : !uop.ptr<si32, 64>
  %c16 = uop.const 16 : si32
  %i = uop.range %c16 axis 0 loop : si32
  %c4 = uop.const 4 : si32
  %c1 = uop.const 1 : si32
  %m = uop.mul %i, %c4 : si32
  %a = uop.add %m, %c1 : si32
  %p = uop.index %o[%a] : !uop.ptr<si32, 64>, si32
  %x = uop.load %p : !uop.ptr<si32, 64>
  %x1 = uop.add %x, %c1 : si32
  %big = uop.const 2147483600 : si32
  %b = uop.add %a, %big : si32
  %v = uop.add %x1, %b : si32
  %s = uop.store %p, %v : !uop.ptr<si32, 64>
  uop.sink %s
}

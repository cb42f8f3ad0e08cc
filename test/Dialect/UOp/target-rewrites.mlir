// tinygrad's final rewrites per target: uop-decompose-math (transcendentals
// the target lacks, POW), uop-c-expressions and uop-fuse-mulacc
// (docs/semantics.md, "Each target's rewrites").
// RUN: uop-opt %s --uop-attach-target=chip=host --uop-decompose-math | FileCheck %s --check-prefix=HOST
// RUN: uop-opt %s --uop-attach-target=chip=sm_80 --uop-decompose-math | FileCheck %s --check-prefix=PTX
// RUN: uop-opt %s --uop-attach-target=chip=host --uop-c-expressions --uop-fuse-mulacc | FileCheck %s --check-prefix=HOSTFMA
// RUN: uop-opt %s --uop-attach-target=chip=sm_80 --uop-fuse-mulacc | FileCheck %s --check-prefix=PTXFMA

// The host has no EXP2 (tinygrad's C calls no libm): xexp2's polynomial.
// PTX has ex2.approx for f32 but nothing for f64.
// HOST: #uop.target<"host">
// HOST-LABEL: uop.kernel @exp2
// HOST-NOT: uop.exp2
// HOST: uop.bitcast
// HOST-NOT: uop.exp2
// PTX-LABEL: uop.kernel @exp2
// PTX: uop.exp2 %{{.*}} : f32
// PTX-NOT: uop.exp2 %{{.*}} : f64
uop.kernel @exp2 {
  %z = uop.const 0 : si32
  %g = uop.define_global 0 : !uop.ptr<f32, 1>
  %h = uop.define_global 1 : !uop.ptr<f64, 1>
  %p = uop.index %g[%z] : !uop.ptr<f32, 1>, si32
  %q = uop.index %h[%z] : !uop.ptr<f64, 1>, si32
  %x = uop.load %p : !uop.ptr<f32, 1>
  %y = uop.load %q : !uop.ptr<f64, 1>
  %ex = uop.exp2 %x : f32
  %ey = uop.exp2 %y : f64
  %s0 = uop.store %p, %ex : !uop.ptr<f32, 1>
  %s1 = uop.store %q, %ey : !uop.ptr<f64, 1>
  uop.sink %s0, %s1
}

// POW has no instruction anywhere: xpow, through EXP2 and LOG2 (which the
// host decomposes in turn). SQRT stays: both targets have it.
// HOST-LABEL: uop.kernel @pow_sqrt
// HOST-NOT: uop.pow
// HOST-NOT: uop.log2
// HOST: uop.sqrt
// PTX-LABEL: uop.kernel @pow_sqrt
// PTX-NOT: uop.pow
// PTX: uop.log2 %{{.*}} : f32
// PTX: uop.exp2 %{{.*}} : f32
// PTX: uop.sqrt
uop.kernel @pow_sqrt {
  %z = uop.const 0 : si32
  %g = uop.define_global 0 : !uop.ptr<f32, 1>
  %p = uop.index %g[%z] : !uop.ptr<f32, 1>, si32
  %x = uop.load %p : !uop.ptr<f32, 1>
  %e = uop.pow %x, %x : f32
  %r = uop.sqrt %e : f32
  %s = uop.store %p, %r : !uop.ptr<f32, 1>
  uop.sink %s
}

// a*b + c: PTX fuses every product, the host only one with no other use
// (clang's contraction of tinygrad's C). x + (y + z) is (x + y) + z in
// tinygrad's C when the inner sum has one use.
// HOSTFMA-LABEL: uop.kernel @mulacc
// HOSTFMA: %[[M:.*]] = uop.mul %[[X:.*]], %[[Y:.*]] : f32
// HOSTFMA: %[[A:.*]] = uop.add %[[M]], %[[X]] : f32
// HOSTFMA: %[[F:.*]] = uop.mulacc %[[Y]], %[[Y]], %[[X]] : f32
// HOSTFMA: %[[L:.*]] = uop.add %[[F]], %[[M]] : f32
// HOSTFMA: uop.add %[[L]], %[[X]] : f32
// PTXFMA-LABEL: uop.kernel @mulacc
// PTXFMA-NOT: uop.mul
// PTXFMA: uop.mulacc %[[X:.*]], %[[Y:.*]], %[[X]] : f32
// PTXFMA: %[[F:.*]] = uop.mulacc %[[Y]], %[[Y]], %[[X]] : f32
// PTXFMA: %[[I:.*]] = uop.mulacc %[[X]], %[[Y]], %[[X]] : f32
// PTXFMA: uop.add %[[F]], %[[I]] : f32
uop.kernel @mulacc {
  %z = uop.const 0 : si32
  %g = uop.define_global 0 : !uop.ptr<f32, 1>
  %p = uop.index %g[%z] : !uop.ptr<f32, 1>, si32
  %x = uop.load %p : !uop.ptr<f32, 1>
  %y = uop.load %p : !uop.ptr<f32, 1>
  %m = uop.mul %x, %y : f32
  %a = uop.add %m, %x : f32
  %yy = uop.mul %y, %y : f32
  %b = uop.add %yy, %x : f32
  %inner = uop.add %m, %x : f32
  %c = uop.add %b, %inner : f32
  %s0 = uop.store %p, %a : !uop.ptr<f32, 1>
  %s1 = uop.store %p, %c : !uop.ptr<f32, 1>
  uop.sink %s0, %s1
}

// THREEFRY has no instruction anywhere: tinygrad's threefry2x32 in 32-bit
// halves, recombined as (x1 << 32) | x0.
// HOST-LABEL: uop.kernel @threefry
// HOST-NOT: uop.threefry
// HOST: uop.xor %{{.*}} : ui32
// HOST-NOT: uop.threefry
// HOST: uop.or %{{.*}} : ui64
// PTX-LABEL: uop.kernel @threefry
// PTX-NOT: uop.threefry
uop.kernel @threefry {
  %z = uop.const 0 : si32
  %g = uop.define_global 0 : !uop.ptr<ui64, 1>
  %p = uop.index %g[%z] : !uop.ptr<ui64, 1>, si32
  %x = uop.load %p : !uop.ptr<ui64, 1>
  %k = uop.const 42 : ui64
  %r = uop.threefry %x, %k : ui64
  %s = uop.store %p, %r : !uop.ptr<ui64, 1>
  uop.sink %s
}

// A chain whose parentheses the C renderer strips, nested deeper than the
// greedy driver's 10 iterations: each stripped level is erased at once, so the
// next level is rewritten in the same iteration (it used to stop, unconverged
// and silent, at the 10th).
// RUN: uop-opt --uop-c-expressions %s | FileCheck %s

// CHECK-LABEL: uop.kernel @deep_chain
uop.kernel @deep_chain {
  %g = uop.define_global 0 : !uop.ptr<f32, 16>
  %i0 = uop.const 0 : si32
  %p0 = uop.index %g[%i0] : !uop.ptr<f32, 16>, si32
  %x0 = uop.load %p0 : !uop.ptr<f32, 16>
  %i1 = uop.const 1 : si32
  %p1 = uop.index %g[%i1] : !uop.ptr<f32, 16>, si32
  %x1 = uop.load %p1 : !uop.ptr<f32, 16>
  %i2 = uop.const 2 : si32
  %p2 = uop.index %g[%i2] : !uop.ptr<f32, 16>, si32
  %x2 = uop.load %p2 : !uop.ptr<f32, 16>
  %i3 = uop.const 3 : si32
  %p3 = uop.index %g[%i3] : !uop.ptr<f32, 16>, si32
  %x3 = uop.load %p3 : !uop.ptr<f32, 16>
  %i4 = uop.const 4 : si32
  %p4 = uop.index %g[%i4] : !uop.ptr<f32, 16>, si32
  %x4 = uop.load %p4 : !uop.ptr<f32, 16>
  %i5 = uop.const 5 : si32
  %p5 = uop.index %g[%i5] : !uop.ptr<f32, 16>, si32
  %x5 = uop.load %p5 : !uop.ptr<f32, 16>
  %i6 = uop.const 6 : si32
  %p6 = uop.index %g[%i6] : !uop.ptr<f32, 16>, si32
  %x6 = uop.load %p6 : !uop.ptr<f32, 16>
  %i7 = uop.const 7 : si32
  %p7 = uop.index %g[%i7] : !uop.ptr<f32, 16>, si32
  %x7 = uop.load %p7 : !uop.ptr<f32, 16>
  %i8 = uop.const 8 : si32
  %p8 = uop.index %g[%i8] : !uop.ptr<f32, 16>, si32
  %x8 = uop.load %p8 : !uop.ptr<f32, 16>
  %i9 = uop.const 9 : si32
  %p9 = uop.index %g[%i9] : !uop.ptr<f32, 16>, si32
  %x9 = uop.load %p9 : !uop.ptr<f32, 16>
  %i10 = uop.const 10 : si32
  %p10 = uop.index %g[%i10] : !uop.ptr<f32, 16>, si32
  %x10 = uop.load %p10 : !uop.ptr<f32, 16>
  %i11 = uop.const 11 : si32
  %p11 = uop.index %g[%i11] : !uop.ptr<f32, 16>, si32
  %x11 = uop.load %p11 : !uop.ptr<f32, 16>
  %i12 = uop.const 12 : si32
  %p12 = uop.index %g[%i12] : !uop.ptr<f32, 16>, si32
  %x12 = uop.load %p12 : !uop.ptr<f32, 16>
  %i13 = uop.const 13 : si32
  %p13 = uop.index %g[%i13] : !uop.ptr<f32, 16>, si32
  %x13 = uop.load %p13 : !uop.ptr<f32, 16>
  %i14 = uop.const 14 : si32
  %p14 = uop.index %g[%i14] : !uop.ptr<f32, 16>, si32
  %x14 = uop.load %p14 : !uop.ptr<f32, 16>
  %i15 = uop.const 15 : si32
  %p15 = uop.index %g[%i15] : !uop.ptr<f32, 16>, si32
  %x15 = uop.load %p15 : !uop.ptr<f32, 16>
  %c1 = uop.add %x1, %x2 : f32
  %c2 = uop.add %c1, %x3 : f32
  %c3 = uop.add %c2, %x4 : f32
  %c4 = uop.add %c3, %x5 : f32
  %c5 = uop.add %c4, %x6 : f32
  %c6 = uop.add %c5, %x7 : f32
  %c7 = uop.add %c6, %x8 : f32
  %c8 = uop.add %c7, %x9 : f32
  %c9 = uop.add %c8, %x10 : f32
  %c10 = uop.add %c9, %x11 : f32
  %c11 = uop.add %c10, %x12 : f32
  %c12 = uop.add %c11, %x13 : f32
  %c13 = uop.add %c12, %x14 : f32
  %c14 = uop.add %c13, %x15 : f32
  // x0 + (x1 + ... + x15) becomes ((x0 + x1) + x2) + ... + x15.
  // CHECK: %[[S0:.*]] = uop.add %[[X0:.*]], %[[X1:.*]] : f32
  // CHECK-NEXT: %[[S1:.*]] = uop.add %[[S0]], %{{.*}} : f32
  %top = uop.add %x0, %c14 : f32
  %s = uop.store %p0, %top : !uop.ptr<f32, 16>
  // CHECK-COUNT-13: uop.add %{{.*}}, %{{.*}} : f32
  // CHECK-NOT: uop.add
  // CHECK: uop.store %{{.*}}, %[[LAST:.*]] : !uop.ptr<f32, 16>
  uop.sink %s
}

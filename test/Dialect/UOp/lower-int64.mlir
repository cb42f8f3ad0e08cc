// RUN: uop-opt %s --split-input-file --uop-lower | FileCheck %s
// RUN: uop-translate --export-ptx --split-input-file %s | FileCheck %s --check-prefix=PTX
// RUN: uop-opt %s --split-input-file --uop-optimize=heuristic=false --uop-lower | FileCheck %s --check-prefix=NOOPT

// NOOPT keeps @big's two axes apart (merged they would be one of 2^32, more
// than a RANGE counts): the kernel still compiles, to the same index.
// NOOPT-LABEL: uop.kernel @big
// NOOPT: uop.range %{{.*}} axis 0 loop : si32
// NOOPT: uop.range %{{.*}} axis 1 loop : si32
// NOOPT: uop.index %{{.*}}[%{{.*}}] : !uop.ptr<f32, 4294967296>, si64

// tinygrad's pm_upcast: an index that leaves int32 is computed in int64. A
// buffer of 2^32 floats: row * 65536 reaches 2^32 - 65536.
// CHECK-LABEL: uop.kernel @big
// CHECK: %[[R0:.*]] = uop.range %{{.*}} axis 0 global : si32
// CHECK: %[[R1:.*]] = uop.range %{{.*}} axis 1 global : si32
// CHECK: %[[W0:.*]] = uop.cast %[[R0]] : si32 -> si64
// CHECK: %[[K:.*]] = uop.const 65536 : si64
// CHECK: %[[M:.*]] = uop.mul %[[W0]], %[[K]] : si64
// CHECK: %[[W1:.*]] = uop.cast %[[R1]] : si32 -> si64
// CHECK: %[[I:.*]] = uop.add %{{.*}}, %[[W1]] : si64
// CHECK: uop.index %{{.*}}[%[[I]]] : !uop.ptr<f32, 4294967296>, si64
// PTX: .visible .entry big(
// PTX: mul.wide.u32
uop.kernel @big {
  %0 = uop.define_global 0 : !uop.ptr<f32, 4294967296>
  %1 = uop.view %0 [#uop.view<shape = [65536, 65536], strides = [65536, 1]>] : !uop.ptr<f32, 4294967296>
  %2 = uop.const 1.0 : f32
  %3 = uop.store %1, %2 : !uop.ptr<f32, 4294967296>
  uop.sink %3
}

// -----

// One element short of 2^31: everything stays si32, as in tinygrad.
// CHECK-LABEL: uop.kernel @fits
// CHECK-NOT: si64
// CHECK: uop.index %{{.*}}[%{{.*}}] : !uop.ptr<f32, 2147483647>, si32
// CHECK-NOT: si64
// CHECK: uop.sink
uop.kernel @fits {
  %0 = uop.define_global 0 : !uop.ptr<f32, 2147483647>
  %1 = uop.view %0 [#uop.view<shape = [2147483647], strides = [1]>] : !uop.ptr<f32, 2147483647>
  %2 = uop.const 1.0 : f32
  %3 = uop.store %1, %2 : !uop.ptr<f32, 2147483647>
  uop.sink %3
}

// -----

// A padded view of 2^32 elements: the mask compares an axis (si32), the
// gated index is widened.
// CHECK-LABEL: uop.kernel @masked
// CHECK: uop.cmplt %{{.*}}, %{{.*}} : si32
// CHECK: uop.index %{{.*}}[%{{.*}}] gate %{{.*}} : i1 : !uop.ptr<f32, 4294967296>, si64
// PTX: .visible .entry masked(
uop.kernel @masked {
  %0 = uop.define_global 0 : !uop.ptr<f32, 4294967296>
  %1 = uop.view %0 [#uop.view<shape = [65536, 65536], strides = [65536, 1], offset = -1, mask = [[0, 65536], [1, 65536]]>] : !uop.ptr<f32, 4294967296>
  %2 = uop.load %1 : !uop.ptr<f32, 4294967296>
  %3 = uop.define_global 1 : !uop.ptr<f32, 4294967296>
  %4 = uop.view %3 [#uop.view<shape = [65536, 65536], strides = [65536, 1]>] : !uop.ptr<f32, 4294967296>
  %5 = uop.store %4, %2 : !uop.ptr<f32, 4294967296>
  uop.sink %5
}


// Symbolic views (tinygrad's Variables in a view, as in a KV cache): the
// printed form, and uop-lower's index math with the variables' values.
// RUN: uop-opt %s --split-input-file | uop-opt --split-input-file | FileCheck %s --check-prefix=ROUND
// RUN: uop-opt %s --split-input-file --uop-lower --canonicalize | FileCheck %s

// The first n rows of a 16x8 cache, doubled: the row range runs to n.
// ROUND-LABEL: uop.kernel @first_rows
// ROUND: uop.view %{{.*}} [#uop.view<shape = [15, 8], strides = [8, 1], sym = [shape[0] = n]>]
// CHECK-LABEL: uop.kernel @first_rows
// CHECK-DAG: %[[N:.*]] = uop.define_var "n" [1, 15] : si32
// CHECK-DAG: %[[R0:.*]] = uop.range %[[N]] axis 0 global : si32
// CHECK-DAG: %[[R1:.*]] = uop.range %{{.*}} axis 1 global : si32
uop.kernel @first_rows {
  %n = uop.define_var "n" [1, 15] : si32
  %out = uop.define_global 0 : !uop.ptr<f32, 128>
  %in = uop.define_global 1 : !uop.ptr<f32, 128>
  %vo = uop.view %out [#uop.view<shape = [15, 8], strides = [8, 1], sym = [shape[0] = n]>] : !uop.ptr<f32, 128>
  %vi = uop.view %in [#uop.view<shape = [15, 8], strides = [8, 1], sym = [shape[0] = n]>] : !uop.ptr<f32, 128>
  %x = uop.load %vi : !uop.ptr<f32, 128>
  %y = uop.add %x, %x : f32
  %s = uop.store %vo, %y : !uop.ptr<f32, 128>
  uop.sink %s
}

// -----

// Row `pos` of the cache: the offset is 8 * pos (its integer, 120, the
// upper bound at pos = 15).
// ROUND-LABEL: uop.kernel @row_at
// ROUND: sym = [offset = 8 * pos]
// CHECK-LABEL: uop.kernel @row_at
// CHECK-DAG: %[[POS:.*]] = uop.define_var "pos" [0, 15] : si32
// CHECK-DAG: %[[C8:.*]] = uop.const 8 : si32
// CHECK-DAG: %[[OFF:.*]] = uop.mul %[[POS]], %[[C8]] : si32
// CHECK-DAG: %[[R:.*]] = uop.range %{{.*}} axis 0 global : si32
// CHECK-DAG: %[[IDX:.*]] = uop.add %[[OFF]], %[[R]] : si32
// CHECK: uop.index %{{.*}}[%[[IDX]]]
uop.kernel @row_at {
  %pos = uop.define_var "pos" [0, 15] : si32
  %out = uop.define_global 0 : !uop.ptr<f32, 8>
  %in = uop.define_global 1 : !uop.ptr<f32, 128>
  %vo = uop.view %out [#uop.view<shape = [8], strides = [1]>] : !uop.ptr<f32, 8>
  %vi = uop.view %in [#uop.view<shape = [8], strides = [1], offset = 120, sym = [offset = 8 * pos]>] : !uop.ptr<f32, 128>
  %x = uop.load %vi : !uop.ptr<f32, 128>
  %s = uop.store %vo, %x : !uop.ptr<f32, 8>
  uop.sink %s
}

// -----

// A symbolic stride and a symbolic mask bound: column c of an n-wide matrix,
// valid below row m.
// ROUND-LABEL: uop.kernel @column
// ROUND: sym = [strides[0] = w, mask[0][1] = m]
// CHECK-LABEL: uop.kernel @column
// CHECK-DAG: %[[W:.*]] = uop.define_var "w" [1, 4] : si32
// CHECK-DAG: %[[M:.*]] = uop.define_var "m" [0, 4] : si32
// CHECK-DAG: %[[R:.*]] = uop.range %{{.*}} axis 0 global : si32
// CHECK-DAG: %[[IDX:.*]] = uop.mul %[[R]], %[[W]] : si32
// CHECK-DAG: %[[VALID:.*]] = uop.cmplt %[[R]], %[[M]] : si32
// CHECK: uop.index %{{.*}}[%[[IDX]]] gate %[[VALID]]
uop.kernel @column {
  %w = uop.define_var "w" [1, 4] : si32
  %m = uop.define_var "m" [0, 4] : si32
  %out = uop.define_global 0 : !uop.ptr<f32, 4>
  %in = uop.define_global 1 : !uop.ptr<f32, 16>
  %vo = uop.view %out [#uop.view<shape = [4], strides = [1]>] : !uop.ptr<f32, 4>
  %vi = uop.view %in [#uop.view<shape = [4], strides = [4], mask = [[0, 4]], sym = [strides[0] = w, mask[0][1] = m]>] : !uop.ptr<f32, 16>
  %x = uop.load %vi : !uop.ptr<f32, 16>
  %s = uop.store %vo, %x : !uop.ptr<f32, 4>
  uop.sink %s
}

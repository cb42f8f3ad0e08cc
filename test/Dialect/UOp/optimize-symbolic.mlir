// tinygrad's opts on symbolic kernels (Variables in the views): the views
// follow each opt exactly (SymbolicShape.h), the heuristic splits no
// symbolic axis (tinygrad's isinstance and `%` tests), and a kernel whose
// views cannot follow is taken without opts, with a remark.
// RUN: uop-opt %s --split-input-file --uop-attach-target=chip=sm_80 --uop-optimize 2>/dev/null | FileCheck %s
// RUN: uop-opt %s --split-input-file --uop-attach-target=chip=sm_80 --uop-optimize 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// RUN: uop-opt %s --split-input-file --uop-optimize | FileCheck %s --check-prefix=CPU

// n rows of 8: merged into one axis of 8 * n (simplify_merge_adjacent),
// which no opt can split.
// CHECK-LABEL: uop.kernel @first_rows
// CHECK-SAME: opts = ""
// CHECK: uop.view %{{.*}} [#uop.view<shape = [120], strides = [1], sym = [shape[0] = 8 * n]>]
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

// A symbolic offset only: the usual opts (UPCAST of 4, LOCAL of the rest).
// CHECK-LABEL: uop.kernel @row_at
// CHECK-SAME: local_dims = 1, upcasted = 1
// CHECK-SAME: opts = "UPCAST:0:4,LOCAL:0:2"
// CHECK: uop.view %{{.*}} [#uop.view<shape = [2, 4], strides = [4, 1], offset = 120, sym = [offset = 8 * pos]>]
// CPU-LABEL: uop.kernel @row_at
// CPU-SAME: opts = "UPCAST:0:4"
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

// Exp2 of a contiguous 4 x n matrix (stride n) written transposed: LOCAL:0:4
// moves the 4 rows to the threads; the symbolic stride goes with its axis.
// CHECK-LABEL: uop.kernel @transpose
// CHECK-SAME: global_dims = 1, local_dims = 1
// CHECK-SAME: opts = "LOCAL:0:4"
// CHECK: uop.view %{{.*}} [#uop.view<shape = [16, 4], strides = [4, 1], sym = [shape[0] = n]>]
// CHECK: uop.view %{{.*}} [#uop.view<shape = [16, 4], strides = [1, 16], sym = [shape[0] = n, strides[1] = n]>]
uop.kernel @transpose {
  %n = uop.define_var "n" [1, 16] : si32
  %out = uop.define_global 0 : !uop.ptr<f32, 64>
  %in = uop.define_global 1 : !uop.ptr<f32, 64>
  %vo = uop.view %out [#uop.view<shape = [4, 16], strides = [1, 4], sym = [shape[1] = n]>] : !uop.ptr<f32, 64>
  %vi = uop.view %in [#uop.view<shape = [4, 16], strides = [16, 1], sym = [shape[1] = n, strides[0] = n]>] : !uop.ptr<f32, 64>
  %x = uop.load %vi : !uop.ptr<f32, 64>
  %y = uop.exp2 %x : f32
  %st = uop.store %vo, %y : !uop.ptr<f32, 64>
  uop.sink %st
}

// -----

// Explicit opts: a split of 2 rows of 2 with a stride of n becomes strides
// 2 * n and n.
// CHECK-LABEL: uop.kernel @split_stride
// CHECK-SAME: opts = "UPCAST:0:2"
// CHECK: uop.view %{{.*}} [#uop.view<shape = [2, 16, 2], strides = [32, 1, 16], sym = [shape[1] = n, strides[0] = 2 * n, strides[2] = n]>]
uop.kernel @split_stride attributes {uop.opts = "UPCAST:0:2"} {
  %n = uop.define_var "n" [1, 16] : si32
  %out = uop.define_global 0 : !uop.ptr<f32, 64>
  %in = uop.define_global 1 : !uop.ptr<f32, 64>
  %vo = uop.view %out [#uop.view<shape = [4, 16], strides = [1, 4], sym = [shape[1] = n]>] : !uop.ptr<f32, 64>
  %vi = uop.view %in [#uop.view<shape = [4, 16], strides = [16, 1], sym = [shape[1] = n, strides[0] = n]>] : !uop.ptr<f32, 64>
  %x = uop.load %vi : !uop.ptr<f32, 64>
  %st = uop.store %vo, %x : !uop.ptr<f32, 64>
  uop.sink %st
}

// -----

// A mask bound of m on the axis UPCAST would split: no exact view, so the
// heuristic's kernel is taken as it is.
// REMARK: remark: kernel @column has symbolic shapes and is taken without opts: {{.*}}UPCAST:0:4: a symbolic view cannot be reshaped exactly
// CHECK-LABEL: uop.kernel @column {
// CHECK-NOT: kernel_info
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

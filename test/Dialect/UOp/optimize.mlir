// uop-optimize: each OptOp on a row sum (8 rows of 32), the kernel's own
// `uop.opts`, and the heuristic. The views are reshaped and permuted as
// tinygrad's Kernel does (apply-opt.test compares many more with tinygrad).
// RUN: uop-opt %s --uop-attach-target=chip=sm_80 --uop-optimize="opts=LOCAL:0:4" | FileCheck %s --check-prefix=LOCAL
// RUN: uop-opt %s --uop-attach-target=chip=sm_80 --uop-optimize="opts=UPCAST:0:4" | FileCheck %s --check-prefix=UPCAST
// RUN: uop-opt %s --uop-attach-target=chip=sm_80 --uop-optimize="opts=UNROLL:0:4" | FileCheck %s --check-prefix=UNROLL
// RUN: uop-opt %s --uop-attach-target=chip=sm_80 --uop-optimize="opts=GROUPTOP:0:16" | FileCheck %s --check-prefix=GROUPTOP
// RUN: uop-opt %s --uop-attach-target=chip=sm_80 --uop-optimize="opts=GROUP:0:16" | FileCheck %s --check-prefix=GROUP
// RUN: uop-opt %s --uop-attach-target=chip=sm_80 --uop-optimize="opts=PADTO:0:16" | FileCheck %s --check-prefix=PADTO
// RUN: uop-opt %s --uop-attach-target=chip=sm_80 --uop-optimize="opts=NOLOCALS" | FileCheck %s --check-prefix=NOLOCALS
// RUN: uop-opt %s --uop-attach-target=chip=sm_80 --uop-optimize | FileCheck %s --check-prefix=HEURISTIC
// RUN: uop-opt %s --uop-optimize | FileCheck %s --check-prefix=CPU
// RUN: uop-opt %s --uop-optimize="heuristic=false" | FileCheck %s --check-prefix=NONE

// (LOCAL) rows split 2 x 4, the 4 onto threads (before the reduce axis).
// LOCAL: uop.kernel_info<global_dims = 1, local_dims = 1, upcasted = 0, dont_use_locals = false, opts = "LOCAL:0:4">
// LOCAL: uop.view %{{.*}} [#uop.view<shape = [2, 4, 1], strides = [4, 1, 0]>]
// LOCAL: uop.view %{{.*}} [#uop.view<shape = [2, 4, 32], strides = [128, 32, 1]>]
// LOCAL: uop.reduce_axis add %{{.*}} [2] : f32

// (UPCAST) the 4 moves last, into registers.
// UPCAST: uop.kernel_info<global_dims = 1, local_dims = 0, upcasted = 1, dont_use_locals = false, opts = "UPCAST:0:4">
// UPCAST: uop.view %{{.*}} [#uop.view<shape = [2, 1, 4], strides = [4, 0, 1]>]
// UPCAST: uop.view %{{.*}} [#uop.view<shape = [2, 32, 4], strides = [128, 1, 32]>]
// UPCAST: uop.reduce_axis add %{{.*}} [1] : f32

// (UNROLL) the reduce axis split 8 x 4, both reduced; the 4 upcast.
// UNROLL: upcasted = 1, dont_use_locals = false, opts = "UNROLL:0:4">
// UNROLL: uop.view %{{.*}} [#uop.view<shape = [8, 8, 4], strides = [32, 4, 1]>]
// UNROLL: uop.reduce_axis add %{{.*}} [1, 2] : f32

// (GROUPTOP) 16 threads per row each sum 2 adjacent elements, store them to
// shared memory, and the group's sum is reduced from there.
// GROUPTOP: global_dims = 1, local_dims = 1, upcasted = 0, dont_use_locals = false, opts = "GROUPTOP:0:16">
// GROUPTOP: %[[IN:.*]] = uop.view %{{.*}} [#uop.view<shape = [8, 16, 2], strides = [32, 2, 1]>]
// GROUPTOP: %[[X:.*]] = uop.load %[[IN]]
// GROUPTOP: %[[PART:.*]] = uop.reduce_axis add %[[X]] [2] : f32
// GROUPTOP: %[[TMP:.*]] = uop.define_local "temp0" : !uop.ptr<f32, 16, local>
// GROUPTOP: %[[TV:.*]] = uop.view %[[TMP]] [#uop.view<shape = [8, 16, 1], strides = [0, 1, 0]>]
// GROUPTOP: %[[ST:.*]] = uop.store %[[TV]], %[[PART]]
// GROUPTOP: %[[BACK:.*]] = uop.load %[[TV]] after %[[ST]]
// GROUPTOP: %[[SUM:.*]] = uop.reduce_axis add %[[BACK]] [1] : f32
// GROUPTOP: uop.store %{{.*}}, %[[SUM]] : !uop.ptr<f32, 8>

// (GROUP) the same from the bottom: thread t sums elements t and t + 16.
// GROUP: opts = "GROUP:0:16"
// GROUP: uop.view %{{.*}} [#uop.view<shape = [8, 16, 2], strides = [32, 1, 16]>]
// GROUP: uop.define_local "temp0"

// (PADTO) rows padded to 16, the padding masked off.
// PADTO: opts = "PADTO:0:16"
// PADTO: uop.view %{{.*}} [#uop.view<shape = [16, 1], strides = [1, 0], mask = {{\[}}[0, 8], [0, 1]]>]
// PADTO: uop.view %{{.*}} [#uop.view<shape = [16, 32], strides = [32, 1], mask = {{\[}}[0, 8], [0, 32]]>]

// (NOLOCALS) no shape change; the globals will index threads directly.
// NOLOCALS: global_dims = 1, local_dims = 0, upcasted = 0, dont_use_locals = true, opts = "NOLOCALS">

// (HEURISTIC) tinygrad's pick for a small output with a long reduce.
// HEURISTIC: opts = "{{GROUPTOP}}:0:16"
// HEURISTIC: uop.kernel @own_opts attributes {uop.kernel_info = {{.*}}opts = "{{UPCAST}}:0:2"
// HEURISTIC: uop.kernel @no_opts attributes {uop.kernel_info = {{.*}}opts = ""

// (CPU) no locals: the reduce is unrolled whole; the CPU's global_dims are
// 0 (every axis is a loop).
// CPU: global_dims = 0, local_dims = 0, upcasted = 1, dont_use_locals = false, opts = "{{UNROLL}}:0:0">

// NONE: kernel_info<global_dims = 0, local_dims = 0, upcasted = 0, dont_use_locals = false, opts = "">
uop.kernel @row_sum {
  %out = uop.define_global 0 : !uop.ptr<f32, 8>
  %out_v = uop.view %out [#uop.view<shape = [8, 1], strides = [1, 0]>] : !uop.ptr<f32, 8>
  %in = uop.define_global 1 : !uop.ptr<f32, 256>
  %in_v = uop.view %in [#uop.view<shape = [8, 32], strides = [32, 1]>] : !uop.ptr<f32, 256>
  %x = uop.load %in_v : !uop.ptr<f32, 256>
  %sum = uop.reduce_axis add %x [1] : f32
  %st = uop.store %out_v, %sum : !uop.ptr<f32, 8>
  uop.sink %st
}

// A kernel's own opts win over the heuristic (and over the opts option).
uop.kernel @own_opts attributes {uop.opts = "UPCAST:0:2"} {
  %out = uop.define_global 0 : !uop.ptr<f32, 8>
  %out_v = uop.view %out [#uop.view<shape = [8], strides = [1]>] : !uop.ptr<f32, 8>
  %in = uop.define_global 1 : !uop.ptr<f32, 8>
  %in_v = uop.view %in [#uop.view<shape = [8], strides = [1]>] : !uop.ptr<f32, 8>
  %x = uop.load %in_v : !uop.ptr<f32, 8>
  %st = uop.store %out_v, %x : !uop.ptr<f32, 8>
  uop.sink %st
}

// An empty `uop.opts` means none (tinygrad's NOOPT).
uop.kernel @no_opts attributes {uop.opts = ""} {
  %out = uop.define_global 0 : !uop.ptr<f32, 8>
  %out_v = uop.view %out [#uop.view<shape = [8], strides = [1]>] : !uop.ptr<f32, 8>
  %in = uop.define_global 1 : !uop.ptr<f32, 8>
  %in_v = uop.view %in [#uop.view<shape = [8], strides = [1]>] : !uop.ptr<f32, 8>
  %x = uop.load %in_v : !uop.ptr<f32, 8>
  %st = uop.store %out_v, %x : !uop.ptr<f32, 8>
  uop.sink %st
}

// A reduce over axes of size 1 only reduces nothing once they are dropped
// (even with no opts):
// it goes away (tinygrad keeps a REDUCE_AXIS without axes).
// HEURISTIC-LABEL: uop.kernel @size_one_reduce
// HEURISTIC-NOT: uop.reduce_axis
// HEURISTIC: uop.sink
uop.kernel @size_one_reduce attributes {uop.opts = ""} {
  %out = uop.define_global 0 : !uop.ptr<f32, 8>
  %out_v = uop.view %out [#uop.view<shape = [8, 1], strides = [1, 0]>] : !uop.ptr<f32, 8>
  %in = uop.define_global 1 : !uop.ptr<f32, 8>
  %in_v = uop.view %in [#uop.view<shape = [8, 1], strides = [1, 0]>] : !uop.ptr<f32, 8>
  %x = uop.load %in_v : !uop.ptr<f32, 8>
  %sum = uop.reduce_axis add %x [1] : f32
  %st = uop.store %out_v, %sum : !uop.ptr<f32, 8>
  uop.sink %st
}

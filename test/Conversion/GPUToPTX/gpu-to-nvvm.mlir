// uop-gpu-to-nvvm: upstream's convert-gpu-to-nvvm, with its patterns built
// once for all gpu.modules. Its output is upstream's: the two are diffed on
// this file (and on both corpora, test/Integration/gpu-to-nvvm.test).
// RUN: uop-opt %s --pass-pipeline='builtin.module(gpu.module(uop-gpu-to-nvvm{index-bitwidth=0}))' -o %t.ours.mlir
// RUN: uop-opt %s --pass-pipeline='builtin.module(gpu.module(convert-gpu-to-nvvm{index-bitwidth=0}))' -o %t.upstream.mlir
// RUN: diff %t.upstream.mlir %t.ours.mlir
// RUN: FileCheck %s < %t.ours.mlir
// The index width is an option (64 by default, as the pipelines use it).
// RUN: uop-opt %s --pass-pipeline='builtin.module(gpu.module(uop-gpu-to-nvvm))' | FileCheck %s --check-prefix=WIDE

// The shared patterns: the thread id, libdevice's expf, the all_reduce that
// the rewrite before the conversion lowers to shuffles, and the constants it
// folds (2.0 + 2.0).
// CHECK-LABEL: gpu.module @kernels
// CHECK: llvm.func @__nv_expf(f32) -> f32
// CHECK: llvm.func @k(
// CHECK-SAME: nvvm.kernel
// CHECK-DAG: llvm.mlir.constant(4.000000e+00 : f32) : f32
// CHECK-DAG: nvvm.read.ptx.sreg.tid.x : i32
// CHECK: llvm.call @__nv_expf(
// CHECK: nvvm.shfl.sync bfly
// CHECK-NOT: gpu.

// A module under a data layout of its own gets patterns for it: index is
// 32 bits here, where the one above (the default layout) is 64.
// CHECK-LABEL: gpu.module @narrow
// CHECK: nvvm.read.ptx.sreg.tid.x : i32
// CHECK-NOT: llvm.sext
// CHECK: llvm.zext %{{.*}} : i32 to i64
// WIDE-LABEL: gpu.module @narrow
// WIDE: llvm.sext %{{.*}} : i32 to i64

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%out: !llvm.ptr<1>, %x: f32) kernel {
      %tid = gpu.thread_id x
      %a = arith.constant 2.0 : f32
      %b = arith.constant 2.0 : f32
      %s = arith.addf %a, %b : f32
      %m = arith.mulf %x, %s : f32
      %e = math.exp %m : f32
      %r = gpu.all_reduce add %e uniform {} : (f32) -> (f32)
      %i = arith.index_cast %tid : index to i64
      %p = llvm.getelementptr %out[%i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
      llvm.store %r, %p : f32, !llvm.ptr<1>
      gpu.return
    }
  }
  gpu.module @narrow attributes {dlti.dl_spec = #dlti.dl_spec<index = 32 : i64>} {
    gpu.func @k(%out: !llvm.ptr<1>) kernel {
      %tid = gpu.thread_id x
      %i = arith.index_castui %tid : index to i64
      %p = llvm.getelementptr %out[%i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
      %z = arith.constant 0.0 : f32
      llvm.store %z, %p : f32, !llvm.ptr<1>
      gpu.return
    }
  }
}

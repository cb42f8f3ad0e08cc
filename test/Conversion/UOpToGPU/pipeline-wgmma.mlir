// uop-pipeline-wgmma: in a kernel of one warpgroup, in an outermost scf.for
// whose iterations issue a constant number P of wgmmas, each wgmma's
// `wait_group 0` becomes `wait_group P`, and one `wait_group 0` follows the
// loop; other loops, wgmmas and kernels keep their waits.
// RUN: uop-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(uop-pipeline-wgmma))' | FileCheck %s

// Two wgmmas in an inner loop of 2 iterations: P = 4 (the WGMMA
// schedule's 128-row block with a k-step of 2 x k16).
// CHECK-LABEL: gpu.func @nested
// CHECK: scf.for
// CHECK: scf.for
// CHECK: nvvm.wgmma.mma_async
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 4
// CHECK: nvvm.wgmma.mma_async
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 4
// CHECK: scf.yield
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT: llvm.store
gpu.module @m {
  gpu.func @nested(%da: i64, %db: i64, %acc0: !llvm.struct<(f32, f32, f32, f32)>, %o: !llvm.ptr) kernel attributes {known_block_size = array<i32: 32, 4, 1>} {
    %c0 = arith.constant 0 : i32
    %c2 = arith.constant 2 : i32
    %c1 = arith.constant 1 : i32
    %c8 = arith.constant 8 : i32
    %out = scf.for %k = %c0 to %c8 step %c1 iter_args(%acc = %acc0) -> (!llvm.struct<(f32, f32, f32, f32)>) : i32 {
      %in = scf.for %u = %c0 to %c2 step %c1 iter_args(%a = %acc) -> (!llvm.struct<(f32, f32, f32, f32)>) : i32 {
        nvvm.wgmma.fence.aligned
        %r1 = nvvm.wgmma.mma_async %da, %db, %a, <m = 64, n = 8, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
        nvvm.wgmma.commit.group.sync.aligned
        nvvm.wgmma.wait.group.sync.aligned 0
        nvvm.wgmma.fence.aligned
        %r2 = nvvm.wgmma.mma_async %da, %db, %r1, <m = 64, n = 8, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
        nvvm.wgmma.commit.group.sync.aligned
        nvvm.wgmma.wait.group.sync.aligned 0
        scf.yield %r2 : !llvm.struct<(f32, f32, f32, f32)>
      }
      scf.yield %in : !llvm.struct<(f32, f32, f32, f32)>
    }
    llvm.store %out, %o : !llvm.struct<(f32, f32, f32, f32)>, !llvm.ptr
    gpu.return
  }
}

// -----

// A wgmma under an scf.if (P not a constant), and one outside any loop:
// both keep `wait_group 0`, and nothing is added.
// CHECK-LABEL: gpu.func @unchanged
// CHECK: scf.if
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: nvvm.wgmma.fence.aligned
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT: llvm.store
// CHECK-NOT: wait.group
gpu.module @m {
  gpu.func @unchanged(%da: i64, %db: i64, %acc0: !llvm.struct<(f32, f32, f32, f32)>, %p: i1, %o: !llvm.ptr) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c8 = arith.constant 8 : i32
    %out = scf.for %k = %c0 to %c8 step %c1 iter_args(%acc = %acc0) -> (!llvm.struct<(f32, f32, f32, f32)>) : i32 {
      scf.if %p {
        nvvm.wgmma.fence.aligned
        %r = nvvm.wgmma.mma_async %da, %db, %acc, <m = 64, n = 8, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
        nvvm.wgmma.commit.group.sync.aligned
        nvvm.wgmma.wait.group.sync.aligned 0
      }
      scf.yield %acc : !llvm.struct<(f32, f32, f32, f32)>
    }
    nvvm.wgmma.fence.aligned
    %r = nvvm.wgmma.mma_async %da, %db, %out, <m = 64, n = 8, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
    nvvm.wgmma.commit.group.sync.aligned
    nvvm.wgmma.wait.group.sync.aligned 0
    llvm.store %r, %o : !llvm.struct<(f32, f32, f32, f32)>, !llvm.ptr
    gpu.return
  }
}

// -----

// Blocks of two warpgroups (256 threads), and of unknown size: another
// warpgroup's wgmma may still read a buffer, so the waits stay.
// CHECK-LABEL: gpu.func @two_warpgroups
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NOT: wait.group
// CHECK-LABEL: gpu.func @unknown_block
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NOT: wait.group
gpu.module @m {
  gpu.func @two_warpgroups(%da: i64, %db: i64, %acc0: !llvm.struct<(f32, f32, f32, f32)>, %o: !llvm.ptr) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c8 = arith.constant 8 : i32
    %out = scf.for %k = %c0 to %c8 step %c1 iter_args(%acc = %acc0) -> (!llvm.struct<(f32, f32, f32, f32)>) : i32 {
      nvvm.wgmma.fence.aligned
      %r = nvvm.wgmma.mma_async %da, %db, %acc, <m = 64, n = 8, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
      nvvm.wgmma.commit.group.sync.aligned
      nvvm.wgmma.wait.group.sync.aligned 0
      scf.yield %r : !llvm.struct<(f32, f32, f32, f32)>
    }
    llvm.store %out, %o : !llvm.struct<(f32, f32, f32, f32)>, !llvm.ptr
    gpu.return
  }
  gpu.func @unknown_block(%da: i64, %db: i64, %acc0: !llvm.struct<(f32, f32, f32, f32)>, %o: !llvm.ptr) kernel {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c8 = arith.constant 8 : i32
    %out = scf.for %k = %c0 to %c8 step %c1 iter_args(%acc = %acc0) -> (!llvm.struct<(f32, f32, f32, f32)>) : i32 {
      nvvm.wgmma.fence.aligned
      %r = nvvm.wgmma.mma_async %da, %db, %acc, <m = 64, n = 8, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
      nvvm.wgmma.commit.group.sync.aligned
      nvvm.wgmma.wait.group.sync.aligned 0
      scf.yield %r : !llvm.struct<(f32, f32, f32, f32)>
    }
    llvm.store %out, %o : !llvm.struct<(f32, f32, f32, f32)>, !llvm.ptr
    gpu.return
  }
}

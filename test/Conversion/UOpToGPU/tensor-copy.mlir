// The TMA's ops on sm_90a: each gated op (one thread's) behind scf.if on its
// INDEX's gate; mbarrier.init, arrive.expect_tx and try_wait.parity (the
// parity the phase's low bit); the tile copy to the shared address as a
// shared::cluster one, through the kernel's tensor map parameter: one per
// distinct map, after the buffers and variables, in op order, and listed in
// the kernel's uop.launch entry. Off Hopper they are refused.
// RUN: uop-opt %s --split-input-file --convert-uop-to-gpu --verify-diagnostics | FileCheck %s

// CHECK: uop.launch = {tma = {block = array<i32: 128, 1, 1>, grid = array<i32: 1, 1, 1>, tensor_maps = [#uop.tensor_map<buffer = 1, element = f16, sizes = [64, 64], strides = [128], box = [64, 8], swizzle = 128>, #uop.tensor_map<buffer = 1, element = f16, sizes = [64, 64], strides = [128], box = [64, 16], swizzle = 128>]}}
// CHECK-LABEL: gpu.module @tma
// CHECK: gpu.func @tma(%{{.*}}: !llvm.ptr {{.*}}, %[[IN:.*]]: !llvm.ptr {{.*}}, %[[N:.*]]: i32, %[[MAP0:.*]]: !llvm.ptr, %[[MAP1:.*]]: !llvm.ptr) kernel
// CHECK: %[[FIRST:.*]] = arith.cmpi eq
// CHECK: scf.if %[[FIRST]] {
// CHECK: nvvm.mbarrier.init %[[BAR:.*]], %{{.*}} : !llvm.ptr<3>, i32
// CHECK: gpu.barrier
// CHECK: scf.if %[[FIRST]] {
// CHECK: nvvm.mbarrier.arrive.expect_tx %[[BAR]], %{{.*}} : !llvm.ptr<3>, i32
// CHECK: scf.if %[[FIRST]] {
// CHECK: %[[DST:.*]] = llvm.addrspacecast %{{.*}} : !llvm.ptr<3> to !llvm.ptr<7>
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[DST]], %[[MAP0]], %[[ALL:.*]], box[%{{.*}}, %{{.*}}]
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[MAP1]], %[[ALL]], box
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[MAP0]], %[[ALL]], box
// CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: %[[PARITY:.*]] = llvm.and %{{.*}}, %[[ONE]] : i32
// CHECK: nvvm.mbarrier.try_wait.parity %[[ALL]], %[[PARITY]], %{{.*}} : !llvm.ptr<3>, i32, i32
module attributes {uop.target = #uop.target<"sm_90a">} {
  uop.kernel @tma {
    %out = uop.define_global 0 : !uop.ptr<f16, 4096>
    %in = uop.define_global 1 : !uop.ptr<f16, 4096>
    %n = uop.define_var "n" [1, 8] : si32
    %s = uop.define_local "t" {swizzle = #uop.swizzle<3, 4, 3>} : !uop.ptr<f16, 4096, local>
    %m = uop.define_local "bars" : !uop.ptr<si64, 1, local>
    %l = uop.special "lidx0" 128 : si32
    %z = uop.const 0 : si32
    %first = uop.cmpeq %l, %z : si32
    %bar = uop.index %m[%z] gate %first : i1 : !uop.ptr<si64, 1, local>, si32
    %i = uop.mbarrier_init %bar count 1 : !uop.ptr<si64, 1, local>
    %ready = uop.barrier after %i
    %e = uop.mbarrier_expect_tx %bar bytes 5120 after %ready : !uop.ptr<si64, 1, local>
    %dst = uop.index %s[%z] : !uop.ptr<f16, 4096, local>, si32
    %src = uop.index %in[%z] gate %first : i1 : !uop.ptr<f16, 4096>, si32
    %all = uop.index %m[%z] : !uop.ptr<si64, 1, local>, si32
    %c0 = uop.tensor_copy %dst, %src [%z, %z] map <buffer = 1, element = f16, sizes = [64, 64], strides = [128], box = [64, 8], swizzle = 128> rows 8 cols 64 pitch 64, %all after %e : !uop.ptr<f16, 4096, local>, !uop.ptr<f16, 4096>, !uop.ptr<si64, 1, local>, si32, si32
    %c1 = uop.tensor_copy %dst, %src [%z, %n] map <buffer = 1, element = f16, sizes = [64, 64], strides = [128], box = [64, 16], swizzle = 128> rows 16 cols 64 pitch 64, %all after %c0 : !uop.ptr<f16, 4096, local>, !uop.ptr<f16, 4096>, !uop.ptr<si64, 1, local>, si32, si32
    %c2 = uop.tensor_copy %dst, %src [%n, %z] map <buffer = 1, element = f16, sizes = [64, 64], strides = [128], box = [64, 8], swizzle = 128> rows 8 cols 64 pitch 64, %all after %c1 : !uop.ptr<f16, 4096, local>, !uop.ptr<f16, 4096>, !uop.ptr<si64, 1, local>, si32, si32
    %w = uop.mbarrier_wait %all, %n after %c2 : !uop.ptr<si64, 1, local>, si32
    %b2 = uop.barrier after %w
    %pl = uop.index %s[%l] : !uop.ptr<f16, 4096, local>, si32
    %v = uop.load %pl after %b2 : !uop.ptr<f16, 4096, local>
    %po = uop.index %out[%l] : !uop.ptr<f16, 4096>, si32
    %st = uop.store %po, %v : !uop.ptr<f16, 4096>
    uop.sink %st
  }
}

// -----

module attributes {uop.target = #uop.target<"sm_80">} {
  uop.kernel @sm80 {
    %m = uop.define_local "bars" : !uop.ptr<si64, 1, local>
    %z = uop.const 0 : si32
    %bar = uop.index %m[%z] : !uop.ptr<si64, 1, local>, si32
    // expected-error @+1 {{'uop.mbarrier_init' op needs sm_90 or later, not sm_80}}
    %i = uop.mbarrier_init %bar count 1 : !uop.ptr<si64, 1, local>
    uop.sink %i
  }
}

// -----

// In clusters (kernel_info's `cluster`, one size per global axis, the last
// the grid's x): the function's known_cluster_size; a cluster barrier is
// barrier.cluster's arrive and wait; a multicast's mask is its receivers
// shifted, as the b16 ctaMask.
// CHECK-LABEL: gpu.module @multicast
// CHECK: gpu.func @multicast({{.*}}) kernel attributes {{{.*}}known_cluster_size = array<i32: 4, 2, 1>
// CHECK: nvvm.cluster.arrive {aligned}
// CHECK-NEXT: nvvm.cluster.wait {aligned}
// CHECK: %[[R:.*]] = llvm.mlir.constant(5 : i32) : i32
// CHECK: %[[S:.*]] = llvm.shl %[[R]], %{{.*}} : i32
// CHECK: %[[MASK:.*]] = llvm.trunc %[[S]] : i32 to i16
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %{{.*}}, %{{.*}}, box[%{{.*}}, %{{.*}}] multicast_mask = %[[MASK]]
module attributes {uop.target = #uop.target<"sm_90a">} {
  uop.kernel @multicast attributes {uop.kernel_info = #uop.kernel_info<global_dims = 2, local_dims = 1, upcasted = 0, dont_use_locals = false, opts = "", cluster = [2, 4]>} {
    %in = uop.define_global 0 : !uop.ptr<f16, 4096>
    %s = uop.define_local "t" {swizzle = #uop.swizzle<3, 4, 3>} : !uop.ptr<f16, 4096, local>
    %m = uop.define_local "bars" : !uop.ptr<si64, 1, local>
    %g0 = uop.special "gidx0" 4 : si32
    %g1 = uop.special "gidx1" 2 : si32
    %l = uop.special "lidx0" 128 : si32
    %z = uop.const 0 : si32
    %ready = uop.barrier cluster
    %dst = uop.index %s[%z] : !uop.ptr<f16, 4096, local>, si32
    %src = uop.index %in[%z] : !uop.ptr<f16, 4096>, si32
    %all = uop.index %m[%z] : !uop.ptr<si64, 1, local>, si32
    %c = uop.tensor_copy %dst, %src [%z, %z] map <buffer = 0, element = f16, sizes = [64, 64], strides = [128], box = [64, 8], swizzle = 128> rows 8 cols 64 pitch 64, %all multicast 5 shl %g0 : si32 after %ready : !uop.ptr<f16, 4096, local>, !uop.ptr<f16, 4096>, !uop.ptr<si64, 1, local>, si32, si32
    uop.sink %c
  }
}

// -----

module attributes {uop.target = #uop.target<"sm_80">} {
  uop.kernel @cluster_sm80 {
    // expected-error @+1 {{'uop.barrier' op waits for a thread-block cluster, which needs sm_90 or later, not sm_80}}
    %b = uop.barrier cluster
    uop.sink %b
  }
}

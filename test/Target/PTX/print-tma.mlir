// The direct printer's templates for Hopper's TMA: mbarrier init, arrive
// with expected bytes (no state: `_`), the parity wait as a loop around
// try_wait (retried until the phase completes, as upstream's op is), and a
// 2d tile copy to the CTA's shared memory through a tensor map (a kernel
// pointer, as a generic address). ptxas assembles it for sm_90a.
// RUN: uop-translate --nvvm-to-ptx %s | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t && uop-translate --nvvm-to-ptx %s -o %t/print.ptx
// RUN: %python %uop_src_root/test/check_ptxas.py %ptxas sm_90a %t 1 | FileCheck %s --check-prefix=PTXAS
// PTXAS: ptxas -arch=sm_90a: 1/1 kernels assemble (expected 1); {{.*}} spill bytes 0
// Read back (uop-translate --import-ptx), the wait loop is a test of the
// phase in a loop, the rest the ops printed.
// RUN: uop-translate --import-ptx %t/print.ptx | FileCheck %s --check-prefix=IMPORT
// IMPORT: nvvm.mbarrier.init
// IMPORT: nvvm.mbarrier.arrive.expect_tx
// IMPORT: nvvm.cp.async.bulk.tensor.shared.cluster.global
// IMPORT: ^bb{{[0-9]+}}:
// IMPORT: nvvm.mbarrier.test.wait
// IMPORT: llvm.cond_br
// In a cluster (nvvm.cluster_dim: .explicitcluster and .reqnctapercluster),
// barrier.cluster's arrive and wait, and a copy multicast to the blocks of
// a b16 mask; read back as the same ops.
// IMPORT-LABEL: llvm.func @multicast
// IMPORT-SAME: nvvm.cluster_dim = array<i32: 2, 1, 1>
// IMPORT: nvvm.cluster.arrive {aligned}
// IMPORT: nvvm.cluster.wait {aligned}
// IMPORT: nvvm.cp.async.bulk.tensor.shared.cluster.global {{.*}} multicast_mask = %{{.*}} :
// IMPORT: nvvm.cluster.arrive{{$}}
// IMPORT: nvvm.cluster.wait{{$}}

module attributes {gpu.container_module} {
  gpu.module @m [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
    llvm.mlir.global internal @tile() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<1024 x f16>
    llvm.mlir.global internal @bar() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>
    // CHECK-LABEL: .visible .entry tma(
    // CHECK: ld.param.b64 %rd[[MAP:[0-9]+]], [tma_param_1];
    // CHECK: mov.u64 %rd[[BAR:[0-9]+]], bar;
    // CHECK: mbarrier.init.shared.b64 [%rd[[BAR]]+8], %r{{[0-9]+}};
    // CHECK: mbarrier.arrive.expect_tx.shared.b64 _, [%rd[[BAR]]+8], %r{{[0-9]+}};
    // CHECK: cvta.global.u64 %rd[[GMAP:[0-9]+]], %rd{{[0-9]+}};
    // CHECK-NEXT: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd{{[0-9]+}}+128], [%rd[[GMAP]], {%r{{[0-9]+}}, %r{{[0-9]+}}}], [%rd[[BAR]]+8];
    // CHECK: $L__WAIT0_[[L:[0-9]+]]:
    // CHECK-NEXT: mbarrier.try_wait.parity.shared.b64 %p[[P:[0-9]+]], [%rd[[BAR]]+8], %r{{[0-9]+}}, %r{{[0-9]+}};
    // CHECK-NEXT: @!%p[[P]] bra $L__WAIT0_[[L]];
    llvm.func @tma(%out: !llvm.ptr, %map: !llvm.ptr) attributes {nvvm.kernel} {
      %c1 = llvm.mlir.constant(1 : i32) : i32
      %c0 = llvm.mlir.constant(0 : i32) : i32
      %x = llvm.mlir.constant(64 : i32) : i32
      %bytes = llvm.mlir.constant(1024 : i32) : i32
      %ticks = llvm.mlir.constant(10000000 : i32) : i32
      %t = llvm.mlir.addressof @tile : !llvm.ptr<3>
      %bars = llvm.mlir.addressof @bar : !llvm.ptr<3>
      %b = llvm.getelementptr %bars[0, 1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, !llvm.array<2 x i64>
      %dst = llvm.getelementptr %t[0, 64] : (!llvm.ptr<3>) -> !llvm.ptr<3>, !llvm.array<1024 x f16>
      nvvm.mbarrier.init %b, %c1 : !llvm.ptr<3>, i32
      nvvm.mbarrier.arrive.expect_tx %b, %bytes : !llvm.ptr<3>, i32
      %d = llvm.addrspacecast %dst : !llvm.ptr<3> to !llvm.ptr<7>
      nvvm.cp.async.bulk.tensor.shared.cluster.global %d, %map, %b, box[%x, %c0] : !llvm.ptr<7>, !llvm.ptr
      nvvm.mbarrier.try_wait.parity %b, %c0, %ticks : !llvm.ptr<3>, i32, i32
      %v = llvm.load %dst : !llvm.ptr<3> -> f16
      llvm.store %v, %out : f16, !llvm.ptr
      llvm.return
    }

    // CHECK-LABEL: .visible .entry multicast(
    // CHECK: .explicitcluster
    // CHECK-NEXT: .reqnctapercluster 2, 1, 1
    // CHECK: barrier.cluster.arrive.aligned;
    // CHECK-NEXT: barrier.cluster.wait.aligned;
    // CHECK: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [%rd{{[0-9]+}}], [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [%rd{{[0-9]+}}], %rs{{[0-9]+}};
    // CHECK: barrier.cluster.arrive;
    // CHECK-NEXT: barrier.cluster.wait;
    llvm.func @multicast(%map: !llvm.ptr, %shift: i32) attributes {nvvm.kernel, nvvm.cluster_dim = array<i32: 2, 1, 1>} {
      %c0 = llvm.mlir.constant(0 : i32) : i32
      %c3 = llvm.mlir.constant(3 : i32) : i32
      %bytes = llvm.mlir.constant(2048 : i32) : i32
      %c1 = llvm.mlir.constant(1 : i32) : i32
      %t = llvm.mlir.addressof @tile : !llvm.ptr<3>
      %bars = llvm.mlir.addressof @bar : !llvm.ptr<3>
      nvvm.mbarrier.init %bars, %c1 : !llvm.ptr<3>, i32
      nvvm.cluster.arrive {aligned}
      nvvm.cluster.wait {aligned}
      nvvm.mbarrier.arrive.expect_tx %bars, %bytes : !llvm.ptr<3>, i32
      %s = llvm.shl %c3, %shift : i32
      %mask = llvm.trunc %s : i32 to i16
      %d = llvm.addrspacecast %t : !llvm.ptr<3> to !llvm.ptr<7>
      nvvm.cp.async.bulk.tensor.shared.cluster.global %d, %map, %bars, box[%c0, %c0] multicast_mask = %mask : !llvm.ptr<7>, !llvm.ptr
      nvvm.cluster.arrive
      nvvm.cluster.wait
      llvm.return
    }
  }
}

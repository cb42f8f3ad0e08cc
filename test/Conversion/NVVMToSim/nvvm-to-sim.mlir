// convert-nvvm-to-sim: GPU-level LLVM/NVVM functions become host code that
// calls the simulator (SimABI.h).
// RUN: uop-opt %s --split-input-file --convert-nvvm-to-sim | FileCheck %s

// Special registers, bounds-checked loads and stores, shared memory, the
// barrier, private memory and the approximate math. Each block reports
// that the thread enters it, with the site of its first op (site 0 here).
// CHECK-LABEL: gpu.module @k
// CHECK-SAME: uop.sim_shared = array<i64: 256, 16>
// CHECK-SAME: uop.sites = ["nvvm.read.ptx.sreg.tid.x at {{[^"]*}}nvvm-to-sim.mlir:45:14", "llvm.load at
// CHECK-NOT: llvm.mlir.global
// CHECK-DAG: llvm.func @__uopsim_block(i32, i32)
// CHECK-DAG: llvm.func @__uopsim_sreg(i32) -> i32
// CHECK-DAG: llvm.func @__uopsim_check(!llvm.ptr, i64, i32, i32)
// CHECK-DAG: llvm.func @__uopsim_shared(i32) -> !llvm.ptr
// CHECK-DAG: llvm.func @__uopsim_barrier(i32)
// CHECK-DAG: llvm.func @__uopsim_alloca(i64, i64, i32) -> !llvm.ptr
// CHECK-LABEL: llvm.func @k(
// CHECK: llvm.call @__uopsim_block(%{{.*}}, %{{.*}}) : (i32, i32) -> ()
// CHECK: %[[TID:.*]] = llvm.call @__uopsim_sreg(%{{.*}}) : (i32) -> i32
// The address checked is the address accessed: one frozen value.
// CHECK: %[[P:.*]] = llvm.getelementptr %arg1[%[[TID]]]
// CHECK: %[[PF:.*]] = llvm.freeze %[[P]] : !llvm.ptr
// CHECK: llvm.call @__uopsim_check(%[[PF]], %[[FOUR:.*]], %[[S0:.*]], %{{.*}}) : (!llvm.ptr, i64, i32, i32) -> ()
// CHECK-NEXT: %[[X:.*]] = llvm.load %[[PF]] : !llvm.ptr -> f32
// CHECK: %[[SH:.*]] = llvm.call @__uopsim_shared(%{{.*}}) : (i32) -> !llvm.ptr
// CHECK: %[[SH3:.*]] = llvm.addrspacecast %[[SH]] : !llvm.ptr to !llvm.ptr<3>
// CHECK: %[[Q:.*]] = llvm.getelementptr %[[SH3]][%[[TID]]]
// CHECK: %[[QF:.*]] = llvm.freeze %[[Q]] : !llvm.ptr<3>
// CHECK: %[[QG:.*]] = llvm.addrspacecast %[[QF]] : !llvm.ptr<3> to !llvm.ptr
// CHECK: llvm.call @__uopsim_check(%[[QG]], {{.*}})
// CHECK-NEXT: llvm.store %[[X]], %[[QF]]
// CHECK: llvm.call @__uopsim_barrier(%{{.*}}) : (i32) -> ()
// CHECK-NOT: nvvm.
// CHECK: llvm.call_intrinsic "llvm.exp2.f32"
// CHECK: llvm.call_intrinsic "llvm.sqrt.f32"
// CHECK: llvm.fdiv %{{.*}}, %{{.*}} : f32
// CHECK: llvm.call @__uopsim_alloca(
// CHECK: llvm.call @__uopsim_check(
// CHECK-NEXT: llvm.store
module attributes {gpu.container_module} {
  gpu.module @k {
    llvm.mlir.global internal @smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<64 x f32>
    llvm.func @k(%out: !llvm.ptr, %in: !llvm.ptr) {
      %tid = nvvm.read.ptx.sreg.tid.x : i32
      %p = llvm.getelementptr %in[%tid] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      %x = llvm.load %p : !llvm.ptr -> f32
      %s = llvm.mlir.addressof @smem : !llvm.ptr<3>
      %q = llvm.getelementptr %s[%tid] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
      llvm.store %x, %q : f32, !llvm.ptr<3>
      nvvm.barrier0
      %e = llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"(%x) : (f32) -> f32
      %r = llvm.call_intrinsic "llvm.nvvm.sqrt.approx.f"(%e) : (f32) -> f32
      %i = llvm.inline_asm "rcp.approx.f32 $0, $1;", "=f,f" %r : (f32) -> f32
      %one = llvm.mlir.constant(1 : i32) : i32
      %a = llvm.alloca %one x f32 : (i32) -> !llvm.ptr
      llvm.store %i, %a : f32, !llvm.ptr
      %o = llvm.getelementptr %out[%tid] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      llvm.store %i, %o : f32, !llvm.ptr
      llvm.return
    }
  }
}

// -----

// mma.sync: the lane's registers go through stack words to __uopsim_mma with
// the shape and the A, B, C, D types (NVVM::MMATypes: f16 = 0, f32 = 1);
// site 0 is the block's first op, site 1 the mma.
// RUN: uop-opt %s --split-input-file --convert-nvvm-to-sim | FileCheck %s --check-prefix=MMA
// MMA-LABEL: llvm.func @mma(
// MMA-COUNT-3: llvm.alloca %{{.*}} x !llvm.array<4 x i32>
// MMA: %[[AW:.*]] = llvm.bitcast %arg0 : vector<2xf16> to i32
// MMA-NEXT: llvm.getelementptr %[[A:.*]][0]
// MMA: %[[BW:.*]] = llvm.bitcast %arg1 : vector<2xf16> to i32
// MMA-NEXT: llvm.getelementptr %[[B:.*]][0]
// MMA: %[[CW:.*]] = llvm.bitcast %arg2 : f32 to i32
// MMA-NEXT: llvm.getelementptr %[[C:.*]][0]
// MMA: %[[SITE:.*]] = llvm.mlir.constant(1 : i32)
// MMA-NEXT: %[[M:.*]] = llvm.mlir.constant(16 : i32)
// MMA-NEXT: %[[N:.*]] = llvm.mlir.constant(8 : i32)
// MMA-NEXT: %[[K:.*]] = llvm.mlir.constant(16 : i32)
// MMA-NEXT: %[[TA:.*]] = llvm.mlir.constant(0 : i32)
// MMA-NEXT: %[[TB:.*]] = llvm.mlir.constant(0 : i32)
// MMA-NEXT: %[[TC:.*]] = llvm.mlir.constant(1 : i32)
// MMA-NEXT: %[[TD:.*]] = llvm.mlir.constant(1 : i32)
// MMA-NEXT: llvm.call @__uopsim_mma(%[[SITE]], %[[M]], %[[N]], %[[K]], %[[TA]], %[[TB]], %[[TC]], %[[TD]], %[[A]], %[[B]], %[[C]], %[[D:.*]]) :
// MMA: llvm.getelementptr %[[D]][0]
// MMA: llvm.bitcast %{{.*}} : i32 to f32
// MMA: llvm.insertvalue
// MMA-NOT: nvvm.mma.sync
module attributes {gpu.container_module} {
  gpu.module @mma {
    llvm.func @mma(%a: vector<2xf16>, %b: vector<2xf16>, %c: f32, %out: !llvm.ptr) {
      %d = nvvm.mma.sync A[%a, %a, %a, %a] B[%b, %b] C[%c, %c, %c, %c]
        {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>,
         shape = #nvvm.shape<m = 16, n = 8, k = 16>}
        : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
      %d0 = llvm.extractvalue %d[0] : !llvm.struct<(f32, f32, f32, f32)>
      llvm.store %d0, %out : f32, !llvm.ptr
      llvm.return
    }
  }
}

// -----

// What the simulator cannot do becomes a call that stops the thread reaching
// it, naming the op: here a special register it has no value for, inline asm
// it does not know, and a function without a body.
// RUN: uop-opt %s --split-input-file --convert-nvvm-to-sim | FileCheck %s --check-prefix=UNSUP
// UNSUP: uop.sites = ["nvvm.read.ptx.sreg.smid at {{.*}}nvvm-to-sim.mlir:{{[0-9]+}}:{{[0-9]+}}", "llvm.inline_asm at {{.*}}", "llvm.call at {{.*}}"]
// UNSUP-LABEL: llvm.func @odd(
// UNSUP: llvm.call @__uopsim_unsupported(%{{.*}}) : (i32) -> ()
// UNSUP: llvm.mlir.poison : i32
// UNSUP: llvm.call @__uopsim_unsupported(
// UNSUP: llvm.call @__uopsim_unsupported(
// UNSUP-NOT: nvvm.
// UNSUP: gpu.module @mbar
module attributes {gpu.container_module} {
  gpu.module @odd {
    llvm.func @__nv_expf(f32) -> f32
    llvm.func @odd(%x: f32) -> f32 {
      %sm = nvvm.read.ptx.sreg.smid : i32
      %y = llvm.inline_asm "ex2.approx.ftz.f32 $0, $1;", "=f,f" %x : (f32) -> f32
      %z = llvm.call @__nv_expf(%y) : (f32) -> f32
      llvm.return %z : f32
    }
  }
}

// -----

// Undefined behaviour becomes a fault, not the host's: `unreachable` calls
// the simulator and returns (poison, in a function with a result); a branch
// condition is frozen; a division whose divisor may be 0 (or -1, signed)
// branches to a fault call and divides by a safe divisor; a division by a
// constant that cannot trap is left alone. What LLVM inferred of the
// function (noreturn, read-only arguments, ...) is dropped.
// RUN: uop-opt %s --split-input-file --convert-nvvm-to-sim | FileCheck %s --check-prefix=UB
// UB-LABEL: llvm.func @ub(
// UB-NOT: passthrough
// UB-NOT: llvm.readnone
// UB: %[[C:.*]] = llvm.freeze %arg0 : i1
// UB: llvm.cond_br %[[C]]
// UB: %[[X:.*]] = llvm.freeze %arg1 : i32
// UB: %[[D:.*]] = llvm.freeze %arg2 : i32
// UB: %[[ZERO:.*]] = llvm.icmp "eq" %[[D]]
// UB: %[[BAD:.*]] = llvm.or %[[ZERO]]
// UB: %[[SAFE:.*]] = llvm.select %[[BAD]], %{{.*}}, %[[D]] : i1, i32
// UB: llvm.cond_br %[[BAD]], ^[[FAULT:.*]], ^[[DIVIDE:.*]]
// UB: ^[[FAULT]]:
// UB: llvm.call @__uopsim_divide(
// UB: ^[[DIVIDE]]:
// UB: %[[Q:.*]] = llvm.sdiv %[[X]], %[[SAFE]] : i32
// UB: llvm.udiv %[[Q]], %{{.*}} : i32
// UB: llvm.call @__uopsim_unreachable(
// UB-NEXT: %[[P:.*]] = llvm.mlir.poison : f32
// UB-NEXT: llvm.return %[[P]] : f32
module attributes {gpu.container_module} {
  gpu.module @ub {
    llvm.func @ub(%c: i1, %x: i32, %d: i32, %p: !llvm.ptr {llvm.readnone}) -> f32 attributes {passthrough = ["noreturn"]} {
      llvm.cond_br %c, ^a, ^b
    ^a:
      %q = llvm.sdiv %x, %d : i32
      %seven = llvm.mlir.constant(7 : i32) : i32
      %r = llvm.udiv %q, %seven : i32
      %f = llvm.sitofp %r : i32 to f32
      llvm.return %f : f32
    ^b:
      llvm.unreachable
    }
  }
}

// -----

// A masked load's address and mask are frozen once: the load takes the
// values its lane-by-lane check saw. A memmove whose source is its
// destination checks one frozen address, the one it moves at.
// RUN: uop-opt %s --split-input-file --convert-nvvm-to-sim | FileCheck %s --check-prefix=FROZEN
// FROZEN-LABEL: llvm.func @frozen(
// FROZEN: %[[P:.*]] = llvm.freeze %arg0 : !llvm.ptr
// FROZEN: %[[M:.*]] = llvm.freeze %arg1 : vector<4xi1>
// FROZEN: %[[BITS:.*]] = llvm.bitcast %[[M]] : vector<4xi1> to i4
// FROZEN: llvm.call @__uopsim_check_masked(%[[P]], {{.*}})
// FROZEN-NEXT: llvm.call_intrinsic "llvm.masked.load.v4f32.p0"(%[[P]], %[[M]], %arg2)
// FROZEN: %[[N:.*]] = llvm.freeze %arg3 : i64
// FROZEN: %[[Q:.*]] = llvm.freeze %arg0 : !llvm.ptr
// FROZEN: llvm.call @__uopsim_check(%[[Q]], %[[N]], {{.*}})
// FROZEN: llvm.call @__uopsim_check(%[[Q]], %[[N]], {{.*}})
// FROZEN-NEXT: llvm.call_intrinsic "llvm.memmove.p0.p0.i64"(%[[Q]], %[[Q]], %[[N]], %{{.*}})
module attributes {gpu.container_module} {
  gpu.module @frozen {
    llvm.func @frozen(%p: !llvm.ptr, %mask: vector<4xi1>, %pass: vector<4xf32>, %n: i64) -> vector<4xf32> {
      %v = llvm.call_intrinsic "llvm.masked.load.v4f32.p0"(%p, %mask, %pass) : (!llvm.ptr, vector<4xi1>, vector<4xf32>) -> vector<4xf32>
      %false = llvm.mlir.constant(false) : i1
      llvm.call_intrinsic "llvm.memmove.p0.p0.i64"(%p, %p, %n, %false) : (!llvm.ptr, !llvm.ptr, i64, i1) -> ()
      llvm.return %v : vector<4xf32>
    }
  }
}

// -----

// The mbarrier ops and cp.async.bulk become the simulator's calls with
// their sites, addresses as generic pointers; complete_tx takes its bytes
// off (a negative tx), test_wait on a parity says so. A form the simulator
// does not model (cluster scope here) stays and is reported where a thread
// runs it.
// RUN: uop-opt %s --split-input-file --convert-nvvm-to-sim | FileCheck %s --check-prefix=MBAR
// MBAR: uop.sites = ["llvm.mlir.constant at {{[^"]*}}", "nvvm.mbarrier.init at {{.*}}", "nvvm.mbarrier.arrive at {{.*}}", "nvvm.mbarrier.expect_tx or complete_tx at {{.*}}", "nvvm.cp.async.bulk at {{.*}}", "nvvm.mbarrier.try_wait.parity at {{.*}}", "nvvm.mbarrier.test.wait at {{.*}}", "nvvm.mbarrier.arrive at {{.*}}", "nvvm.mbarrier.inval at {{.*}}", "nvvm.mbarrier.arrive at {{.*}}"
// MBAR-LABEL: llvm.func @mbar(
// MBAR: llvm.call @__uopsim_mbarrier_init(%{{.*}}, %{{.*}}, %{{.*}}) : (i32, !llvm.ptr, i32) -> ()
// MBAR: llvm.call @__uopsim_mbarrier_arrive(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (i32, !llvm.ptr, i32, i32) -> i64
// MBAR: %[[NEG:.*]] = llvm.sub %{{.*}}, %{{.*}} : i32
// MBAR: llvm.call @__uopsim_mbarrier_tx(%{{.*}}, %{{.*}}, %[[NEG]]) : (i32, !llvm.ptr, i32) -> ()
// MBAR: %[[OWN:.*]] = llvm.mlir.constant(-1 : i32) : i32
// MBAR: llvm.call @__uopsim_bulk_copy(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[OWN]]) : (i32, !llvm.ptr, !llvm.ptr, i32, !llvm.ptr, i32) -> ()
// MBAR: llvm.call @__uopsim_mbarrier_wait(%{{.*}}, %{{.*}}, %{{.*}}) : (i32, !llvm.ptr, i32) -> ()
// MBAR: %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
// MBAR: llvm.call @__uopsim_mbarrier_test(%{{.*}}, %{{.*}}, %{{.*}}, %[[ONE]]) : (i32, !llvm.ptr, i64, i32) -> i32
// MBAR: llvm.trunc %{{.*}} : i32 to i1
// MBAR: llvm.call @__uopsim_mbarrier_inval(
// MBAR: llvm.call @__uopsim_unsupported(
// MBAR-NOT: nvvm.mbarrier
// MBAR: llvm.return %{{.*}} : i1
module attributes {gpu.container_module} {
  gpu.module @mbar {
    llvm.mlir.global internal @bar() {addr_space = 3 : i32, alignment = 8 : i64} : i64
    llvm.mlir.global internal @buf() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<4 x i32>
    llvm.func @mbar(%in: !llvm.ptr<1>) -> i1 {
      %c1 = llvm.mlir.constant(1 : i32) : i32
      %c16 = llvm.mlir.constant(16 : i32) : i32
      %bar = llvm.mlir.addressof @bar : !llvm.ptr<3>
      %buf = llvm.mlir.addressof @buf : !llvm.ptr<3>
      nvvm.mbarrier.init %bar, %c1 : !llvm.ptr<3>, i32
      %token = nvvm.mbarrier.arrive.expect_tx %bar, %c16 : !llvm.ptr<3>, i32 -> i64
      nvvm.mbarrier.complete_tx %bar, %c16 : !llvm.ptr<3>, i32
      %dst = llvm.addrspacecast %buf : !llvm.ptr<3> to !llvm.ptr<7>
      nvvm.cp.async.bulk.shared.cluster.global %dst, %in, %bar, %c16 : !llvm.ptr<7>, !llvm.ptr<1>
      nvvm.mbarrier.try_wait.parity %bar, %c1, %c16 : !llvm.ptr<3>, i32, i32
      %done = nvvm.mbarrier.test.wait %bar, %c1 : !llvm.ptr<3>, i32 -> i1
      nvvm.mbarrier.arrive %bar : !llvm.ptr<3>
      nvvm.mbarrier.inval %bar : !llvm.ptr<3>
      nvvm.mbarrier.arrive %bar {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<3>
      llvm.return %done : i1
    }
  }
}

// -----

// A TMA tensor copy (tile mode, to the CTA's own shared memory) becomes a
// call with its multicast mask (-1: none; a mask zero-extended), rank and
// five coordinates, the missing ones 0; one with a predicate is reported
// unsupported where a thread runs it.
// RUN: uop-opt %s --split-input-file --convert-nvvm-to-sim | FileCheck %s --check-prefix=TMA
// TMA-LABEL: llvm.func @tma(
// TMA: %[[OWN:.*]] = llvm.mlir.constant(-1 : i32) : i32
// TMA-NEXT: %[[RANK:.*]] = llvm.mlir.constant(2 : i32) : i32
// TMA-NEXT: %[[ZERO:.*]] = llvm.mlir.constant(0 : i32) : i32
// TMA: llvm.call @__uopsim_tensor_copy(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[OWN]], %[[RANK]], %arg1, %arg2, %[[ZERO]], %[[ZERO]], %[[ZERO]]) : (i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, i32, i32, i32, i32, i32, i32, i32) -> ()
// TMA: %[[MASK:.*]] = llvm.zext %arg3 : i16 to i32
// TMA: llvm.call @__uopsim_tensor_copy(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[MASK]], %{{.*}}, %arg1, %arg2,
// TMA: llvm.call @__uopsim_unsupported(
// TMA-NOT: nvvm.cp.async.bulk.tensor
module attributes {gpu.container_module} {
  gpu.module @tma {
    llvm.mlir.global internal @bar() {addr_space = 3 : i32, alignment = 8 : i64} : i64
    llvm.mlir.global internal @buf() {addr_space = 3 : i32, alignment = 128 : i64} : !llvm.array<64 x i32>
    llvm.func @tma(%map: !llvm.ptr, %x: i32, %y: i32, %mask: i16, %p: i1) {
      %bar = llvm.mlir.addressof @bar : !llvm.ptr<3>
      %buf = llvm.mlir.addressof @buf : !llvm.ptr<3>
      %dst = llvm.addrspacecast %buf : !llvm.ptr<3> to !llvm.ptr<7>
      nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %map, %bar, box[%x, %y] : !llvm.ptr<7>, !llvm.ptr
      nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %map, %bar, box[%x, %y] multicast_mask = %mask : !llvm.ptr<7>, !llvm.ptr
      nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %map, %bar, box[%x, %y] predicate = %p : !llvm.ptr<7>, !llvm.ptr
      llvm.return
    }
  }
}

// -----

// Clusters: the cluster registers become sreg calls; barrier.cluster's
// arrive (.relaxed: 1) and wait, fence.mbarrier_init and mapa become the
// simulator's calls, mapa's result cast back to shared::cluster; an
// mbarrier.arrive through that address (release, cluster scope) is the
// simulator's arrive, which finds the block whose memory it is.
// RUN: uop-opt %s --split-input-file --convert-nvvm-to-sim | FileCheck %s --check-prefix=CLUSTER
// CLUSTER: uop.sites = [{{.*}}"nvvm.cluster.arrive at {{[^"]*}}", "nvvm.fence.mbarrier.init at {{[^"]*}}", "nvvm.cluster.arrive at {{[^"]*}}", "nvvm.cluster.wait at {{[^"]*}}", "nvvm.mapa at {{[^"]*}}", "nvvm.mbarrier.arrive at
// CLUSTER-LABEL: llvm.func @cluster(
// CLUSTER: %[[RANKREG:.*]] = llvm.mlir.constant(15 : i32) : i32
// CLUSTER: llvm.call @__uopsim_sreg(%[[RANKREG]]) : (i32) -> i32
// CLUSTER: %[[STRICT:.*]] = llvm.mlir.constant(0 : i32) : i32
// CLUSTER-NEXT: %[[S1:.*]] = llvm.mlir.constant(1 : i32) : i32
// CLUSTER-NEXT: llvm.call @__uopsim_cluster_arrive(%[[S1]], %[[STRICT]]) : (i32, i32) -> ()
// CLUSTER: llvm.call @__uopsim_fence_mbarrier_init(%{{.*}}) : (i32) -> ()
// CLUSTER-NEXT: %[[RELAXED:.*]] = llvm.mlir.constant(1 : i32) : i32
// CLUSTER-NEXT: %[[S3:.*]] = llvm.mlir.constant(3 : i32) : i32
// CLUSTER-NEXT: llvm.call @__uopsim_cluster_arrive(%[[S3]], %[[RELAXED]]) : (i32, i32) -> ()
// CLUSTER: llvm.call @__uopsim_cluster_wait(%{{.*}}) : (i32) -> ()
// CLUSTER: %[[P:.*]] = llvm.call @__uopsim_mapa(%{{.*}}, %{{.*}}, %{{.*}}) : (i32, !llvm.ptr, i32) -> !llvm.ptr
// CLUSTER-NEXT: %[[R:.*]] = llvm.addrspacecast %[[P]] : !llvm.ptr to !llvm.ptr<7>
// CLUSTER: %[[G:.*]] = llvm.addrspacecast %[[R]] : !llvm.ptr<7> to !llvm.ptr
// CLUSTER: llvm.call @__uopsim_mbarrier_arrive(%{{.*}}, %[[G]], %{{.*}}, %{{.*}}) : (i32, !llvm.ptr, i32, i32) -> i64
// CLUSTER-NOT: nvvm.
module attributes {gpu.container_module} {
  gpu.module @cluster {
    llvm.mlir.global internal @bar() {addr_space = 3 : i32, alignment = 8 : i64} : i64
    llvm.func @cluster() -> i32 {
      %c1 = llvm.mlir.constant(1 : i32) : i32
      %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
      nvvm.cluster.arrive
      nvvm.fence.mbarrier.init
      nvvm.cluster.arrive.relaxed {aligned}
      nvvm.cluster.wait
      %bar = llvm.mlir.addressof @bar : !llvm.ptr<3>
      %remote = nvvm.mapa %bar, %c1 : !llvm.ptr<3> -> !llvm.ptr<7>
      nvvm.mbarrier.arrive %remote {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>
      llvm.return %rank : i32
    }
  }
}

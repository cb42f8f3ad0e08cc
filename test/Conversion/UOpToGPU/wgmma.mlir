// Hopper's wgmma on sm_90a: uop.wgmma becomes nvvm.wgmma.mma_async with a
// matrix descriptor per operand: the tile's shared address & 0x3FFFF, >> 4
// (bits 0-13), or'ed with LBO >> 4 at bit 16, SBO >> 4 at bit 32 and the
// swizzle mode at bit 62 (1: 128B, 2: 64B, 3: 32B), as the PTX ISA's
// "Matrix Descriptor Format" gives them. The constants below are computed
// from the ISA's field positions, not from the compiler:
//   <k, 128, lbo 16, sbo 1024>    0x4000004000010000 = 4611686293305360384
//   <mn, 128, lbo 8192, sbo 1024> 0x4000004002000000 = 4611686293338849280 (MLIR's
//                                 NVGPU lowering makes this one for a 128B TMA tile)
//   <mn, 0, lbo 128, sbo 256>     0x0000001000080000 = 68720001024
//   <k, 64, lbo 16, sbo 512>      0x8000002000010000 = -9223371899415756800
//   <k, 32, lbo 16, sbo 256>      0xC000001000010000 = -4611685949707845632
// K-major A is layoutA row, MN-major B is layoutB row (PTX's imm-trans-b
// 1). A local a wgmma reads is 1024-byte aligned. The fence, commit, wait
// and proxy fence become their NVVM ops. The result's registers go into
// the accumulator vector at once (register moves); the wait's result is
// that vector, read only after the wait.
// RUN: uop-opt %s --split-input-file --convert-uop-to-gpu | FileCheck %s

// CHECK-LABEL: gpu.module @wgmma_k0
// CHECK-DAG: llvm.mlir.global internal @tb16() {addr_space = 3 : i32, alignment = 1024 : i64}
// CHECK-DAG: llvm.mlir.global internal @ta() {addr_space = 3 : i32, alignment = 1024 : i64}
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK: gpu.barrier
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: %[[AI:.*]] = llvm.ptrtoint %{{.*}} : !llvm.ptr<3> to i64
// CHECK: %[[MASK:.*]] = llvm.mlir.constant(262143 : i64) : i64
// CHECK: %[[AM:.*]] = llvm.and %[[AI]], %[[MASK]]
// CHECK: %[[FOUR:.*]] = llvm.mlir.constant(4 : i64) : i64
// CHECK: %[[AS:.*]] = llvm.lshr %[[AM]], %[[FOUR]]
// CHECK: %[[HIA:.*]] = llvm.mlir.constant(4611686293305360384 : i64) : i64
// CHECK: %[[DA:.*]] = llvm.or %[[AS]], %[[HIA]]
// CHECK: llvm.ptrtoint
// CHECK: %[[HIB:.*]] = llvm.mlir.constant(4611686293338849280 : i64) : i64
// CHECK: %[[DB:.*]] = llvm.or %{{.*}}, %[[HIB]]
// CHECK: %[[D:.*]] = nvvm.wgmma.mma_async %[[DA]], %[[DB]], %{{.*}}, <m = 64, n = 8, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK: %[[D3:.*]] = llvm.extractvalue %[[D]][3]
// CHECK: %[[V:.*]] = llvm.insertelement %[[D3]]
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: llvm.extractelement %[[V]]
module attributes {uop.target = #uop.target<"sm_90a">} {
  uop.kernel @wgmma_k0 {
    %out = uop.define_global 0 : !uop.ptr<f32, 512>
    %sa = uop.define_local "ta" : !uop.ptr<f16, 1024, local>
    %sb16 = uop.define_local "tb16" : !uop.ptr<f16, 8192, local>
    %l = uop.special "lidx0" 128 : si32
    %z = uop.const 0 : si32
    %a = uop.index %sa[%z] : !uop.ptr<f16, 1024, local>, si32
    %b = uop.index %sb16[%z] : !uop.ptr<f16, 8192, local>, si32
    %zf = uop.const 0.0 : f32
    %acc = uop.vectorize %zf, %zf, %zf, %zf : f32
    %p = uop.fence_proxy_async
    %bar = uop.barrier after %p
    %f = uop.wgmma_fence after %bar
    %d = uop.wgmma %acc, %a [<k, swizzle = 128, lbo = 16, sbo = 1024>], %b [<mn, swizzle = 128, lbo = 8192, sbo = 1024>] after %f : !uop.ptr<f16, 1024, local>, !uop.ptr<f16, 8192, local> -> vector<4xf32>
    %c = uop.wgmma_commit %d : vector<4xf32>
    %r = uop.wgmma_wait 0, %d after %c : vector<4xf32>
    %x = uop.gep %r [0] : vector<4xf32>
    %po = uop.index %out[%l] : !uop.ptr<f32, 512>, si32
    %s = uop.store %po, %x : !uop.ptr<f32, 512>
    uop.sink %s
  }
}

// -----

// The other descriptor forms: no swizzle (MN-major A: layoutA col), 64B and
// 32B swizzles, bf16, and scale-d 0.
// CHECK-LABEL: gpu.module @modes
// CHECK: llvm.mlir.constant(68720001024 : i64) : i64
// CHECK: llvm.mlir.constant(-9223371899415756800 : i64) : i64
// CHECK: nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, %{{.*}}, <m = 64, n = 16, k = 16>, D[<f32>, <zero>], A[<bf16>, <one>, <col>], B[<bf16>, <one>, <col>]
// CHECK: llvm.mlir.constant(-4611685949707845632 : i64) : i64
// CHECK: nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, %{{.*}}, <m = 64, n = 16, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
module attributes {uop.target = #uop.target<"sm_90a">} {
  uop.kernel @modes {
    %out = uop.define_global 0 : !uop.ptr<f32, 1024>
    %sa = uop.define_local "ta" : !uop.ptr<bf16, 4096, local>
    %l = uop.special "lidx0" 128 : si32
    %z = uop.const 0 : si32
    %a = uop.index %sa[%z] : !uop.ptr<bf16, 4096, local>, si32
    %zf = uop.const 0.0 : f32
    %acc = uop.vectorize %zf, %zf, %zf, %zf, %zf, %zf, %zf, %zf : f32
    %f = uop.wgmma_fence
    %d = uop.wgmma %acc, %a [<mn, swizzle = 0, lbo = 128, sbo = 256>], %a [<k, swizzle = 64, lbo = 16, sbo = 512>] zero_acc after %f : !uop.ptr<bf16, 4096, local>, !uop.ptr<bf16, 4096, local> -> vector<8xf32>
    %d2 = uop.wgmma %d, %a [<k, swizzle = 32, lbo = 16, sbo = 256>], %a [<k, swizzle = 32, lbo = 16, sbo = 256>] : !uop.ptr<bf16, 4096, local>, !uop.ptr<bf16, 4096, local> -> vector<8xf32>
    %c = uop.wgmma_commit %d, %d2 : vector<8xf32>, vector<8xf32>
    %r = uop.wgmma_wait 0, %d2 after %c : vector<8xf32>
    %x = uop.gep %r [7] : vector<8xf32>
    %po = uop.index %out[%l] : !uop.ptr<f32, 1024>, si32
    %s = uop.store %po, %x : !uop.ptr<f32, 1024>
    uop.sink %s
  }
}

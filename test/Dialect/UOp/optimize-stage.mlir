// STAGE (ours, not tinygrad's) on the 16x8x32 half matmul of
// optimize-tc.mlir: after the TC opt, the block's tiles of A (16x16, rows
// 32 elements apart in A) and B (16x8, contiguous: one run of 128) go
// through rings of 3 shared buffers with cp.async, one tile ahead, and each
// warp reads its fragments with ldmatrix (A .x4; B .x2 .trans, as B is
// contiguous along N). docs/optimize.md describes the schedule.
// RUN: uop-opt %s --uop-attach-target=chip=sm_80 --uop-optimize | FileCheck %s
// uop-lower makes the tile copies each thread's async copies, the views
// index arithmetic, and swizzles A's indices (XOR); convert-uop-to-gpu
// makes them NVVM's cp.async, commit/wait groups, barrier and ldmatrix.
// RUN: uop-opt %s --uop-attach-target=chip=sm_80 --uop-optimize --uop-lower | FileCheck %s --check-prefix=LOWER
// RUN: uop-opt %s --uop-to-ptx="to-binary=false" | FileCheck %s --check-prefix=GPU
// RUN: uop-translate --export-ptx %s | FileCheck %s --check-prefix=PTX

// CHECK-LABEL: uop.kernel @tc
// CHECK-SAME: opts = "TC:0:-1,0,1,STAGE:0:3"
// A's rows of 32 bytes: row r's 16-byte chunk XORed with bit 2 of r.
// CHECK: %[[SA:.*]] = uop.define_local "tc_a" {swizzle = #uop.swizzle<1, 4, 3>} : !uop.ptr<f16, 768, local>
// CHECK: %[[SB:.*]] = uop.define_local "tc_b" : !uop.ptr<f16, 384, local>
// Tile 0 before the loop, into buffer 0 of each ring: one group.
// CHECK: %[[D0:.*]] = uop.view %[[SA]] [#uop.view<shape = [2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2], strides = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]>]
// CHECK: %[[S0:.*]] = uop.view %{{.*}} [#uop.view<shape = [2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2], strides = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]>] : !uop.ptr<f16, 512>
// CHECK: %[[CA:.*]] = uop.copy_tile %[[D0]], %[[S0]] rows 16 cols 16 pitch 32, 16 :
// CHECK: %[[CB:.*]] = uop.copy_tile %{{.*}}, %{{.*}} rows 1 cols 128 pitch 128, 128 :
// CHECK: %[[G0:.*]] = uop.async_commit after %[[CA]], %[[CB]]
// In the loop (axis 5): tile kt + 1 into buffer (kt + 1) % 3 (a two-view
// ring), masked off after the last tile.
// CHECK: %[[RING:.*]] = uop.view %[[SA]] [#uop.view<shape = [768], strides = [1]>, #uop.view<shape = [2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2], strides = [0, 0, 0, 0, 0, 256, 0, 0, 0, 0, 0, 0], offset = 256>]
// CHECK: %[[AHEAD:.*]] = uop.view %{{.*}} [#uop.view<shape = [2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2], strides = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], offset = 16, mask = {{\[\[}}0, 2], [0, 2], [0, 2], [0, 2], [0, 2], [0, 1], [0, 2], [0, 2], [0, 2], [0, 2], [0, 2], [0, 2]]>]
// CHECK: %[[CK:.*]] = uop.copy_tile %[[RING]], %[[AHEAD]] rows 16 cols 16 pitch 32, 16 after %[[G0]]
// CHECK: %[[GK:.*]] = uop.async_commit after %[[CK]], %{{.*}}
// CHECK: %[[W:.*]] = uop.async_wait 1 after %[[GK]]
// CHECK: %[[BAR:.*]] = uop.barrier after %[[W]]
// Lane bits 0-3 step A's rows (16 elements apart), bit 4 its K half; axis
// 5 the ring.
// CHECK: %[[LA:.*]] = uop.view %[[SA]] [#uop.view<shape = [768], strides = [1]>, #uop.view<shape = [2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2], strides = [16, 32, 64, 128, 8, 256, 0, 0, 0, 0, 0, 0]>]
// CHECK: %[[FA:.*]] = uop.ldmatrix %[[LA]] count 4 after %[[BAR]] : !uop.ptr<f16, 768, local> -> vector<8xf16>
// CHECK: %[[LB:.*]] = uop.view %[[SB]] [#uop.view<shape = [384], strides = [1]>, #uop.view<shape = [2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2], strides = [8, 16, 32, 64, 0, 128, 0, 0, 0, 0, 0, 0]>]
// CHECK: %[[FB:.*]] = uop.ldmatrix %[[LB]] count 2 trans after %[[BAR]] : !uop.ptr<f16, 384, local> -> vector<4xf16>
// CHECK: uop.wmma %[[FA]], %[[FB]], %{{.*}} dims [8, 16, 16]
// CHECK-NOT: uop.contract
// CHECK: uop.reduce_axis add %{{.*}} [5] : f32

// A's 16x16 tile is 32 pieces of 16 bytes, one per thread (one copy
// each); B's 16 pieces leave half the threads idle (gated).
// LOWER: uop.async_copy %{{.*}}, %{{.*}} bytes 16 : !uop.ptr<f16, 768, local>, !uop.ptr<f16, 512>
// LOWER: uop.cmplt
// LOWER: uop.async_copy %{{.*}}, %{{.*}} bytes 16 : !uop.ptr<f16, 384, local>, !uop.ptr<f16, 256>
// LOWER: uop.xor
// LOWER: uop.ldmatrix %{{.*}} count 4 after %{{.*}} : !uop.ptr<f16, 768, local> -> vector<8xf16>

// A swizzled buffer is aligned to its swizzle's period (256 bytes here).
// GPU-DAG: llvm.mlir.global internal @tc_a() {addr_space = 3 : i32, alignment = 256 : i64} : !llvm.array<768 x f16>
// GPU-DAG: llvm.mlir.global internal @tc_b() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<384 x f16>
// GPU: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache =  cg : !llvm.ptr<3>, !llvm.ptr<1>
// GPU: nvvm.cp.async.commit.group
// GPU: nvvm.cp.async.wait.group 1
// GPU-NEXT: nvvm.barrier0
// GPU: nvvm.ldmatrix %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>}
// GPU: nvvm.ldmatrix %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<col>, num = 2 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>}
// GPU: nvvm.mma.sync

// PTX: cp.async.cg.shared.global [%{{.*}}], [%{{.*}}], 16;
// PTX: cp.async.wait_group 1;
// PTX: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX: ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32

uop.kernel @tc attributes {uop.opts = "TC:0:-1,0,1,STAGE:0:3"} {
  %out = uop.define_global 0 : !uop.ptr<f32, 128>
  %out_v = uop.view %out [#uop.view<shape = [16, 8, 1], strides = [8, 1, 0]>] : !uop.ptr<f32, 128>
  %a = uop.define_global 1 : !uop.ptr<f16, 512>
  %a_v = uop.view %a [#uop.view<shape = [16, 8, 32], strides = [32, 0, 1]>] : !uop.ptr<f16, 512>
  %b = uop.define_global 2 : !uop.ptr<f16, 256>
  %b_v = uop.view %b [#uop.view<shape = [16, 8, 32], strides = [0, 1, 8]>] : !uop.ptr<f16, 256>
  %x = uop.load %a_v : !uop.ptr<f16, 512>
  %y = uop.load %b_v : !uop.ptr<f16, 256>
  %m = uop.mul %x, %y : f16
  %f = uop.cast %m : f16 -> f32
  %sum = uop.reduce_axis add %f [2] : f32
  %st = uop.store %out_v, %sum : !uop.ptr<f32, 128>
  uop.sink %st
}

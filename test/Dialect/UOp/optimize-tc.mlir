// The TC opt on a 16x8x32 half matmul accumulating in float (out = A @ B,
// A row-major 16x32, B 32x8): tinygrad's m16n8k16 half->float tensor core.
// uop-optimize shapes the kernel (K unrolled by 2 four times, N and M over
// 5 locals of 2 and 2 upcasts) and writes the reduce as a WMMA between
// CONTRACTs of the two sources, whose views are swizzled onto the mma
// fragment layout, UNROLLed onto the C axes; the K/16 steps stay a reduce.
// RUN: uop-opt %s --uop-attach-target=chip=sm_80 --uop-optimize | FileCheck %s
// uop-expand makes the fragments vectors, the accumulator one vector, and
// the store one per lane of C; uop-devectorize folds loads and stores.
// RUN: uop-opt %s --uop-attach-target=chip=sm_80 --uop-optimize --uop-lower --uop-expand --canonicalize --cse --uop-devectorize | FileCheck %s --check-prefix=EXPAND
// A at an odd offset: its pairs are not 4-byte aligned, so no folding.
// RUN: sed -e 's/strides = \[32, 0, 1\]>/strides = [32, 0, 1], offset = 1>/' -e 's/ptr<f16, 512>/ptr<f16, 513>/g' %s | uop-opt --uop-attach-target=chip=sm_80 --uop-optimize --uop-lower --uop-expand --canonicalize --cse --uop-devectorize | FileCheck %s --check-prefix=ODD
// ODD-NOT: vector<2xf16>
// ODD-COUNT-8: uop.load %{{.*}} : !uop.ptr<f16, 513>
// ODD-NOT: vector<2xf16>
// At the GPU level: one mma.sync, in the K loop, accumulating in its C.
// RUN: uop-opt %s --uop-to-ptx="to-binary=false" | FileCheck %s --check-prefix=GPU
// Without the kernel's own opts, the heuristic tries the TC opt first; here
// it uses up M and N, so no hand-coded TC opt follows (as in tinygrad).
// RUN: sed 's/ attributes {uop.opts = .*}//' %s | uop-opt --uop-attach-target=chip=sm_80 --uop-optimize=tc-schedule=tinygrad | FileCheck %s --check-prefix=HEUR
// By default (tc-schedule=auto) the heuristic then stages the operands in
// shared memory (STAGE, optimize-stage.mlir); its 2 k-steps stay steps of 16.
// RUN: sed 's/ attributes {uop.opts = .*}//' %s | uop-opt --uop-attach-target=chip=sm_80 --uop-optimize | FileCheck %s --check-prefix=HEUR-STAGED

// CHECK-LABEL: uop.kernel @tc
// CHECK-SAME: #uop.kernel_info<global_dims = 0, local_dims = 5, upcasted = 6, dont_use_locals = false, opts = "TC:0:-1,0,1">
// CHECK: uop.view %{{.*}} [#uop.view<shape = [2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 2, 2], strides = [2, 4, 8, 16, 32, 0, 0, 0, 0, 0, 1, 64]>]
// A and B, swizzled: A's lanes hold K bits 1-2 and M bits 0-2, its
// fragment K bits 0 and 3 and M bit 3 (axes 9-11).
// CHECK: %[[AV:.*]] = uop.view %{{.*}} [#uop.view<shape = [2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2], strides = [2, 4, 32, 64, 128, 16, 0, 0, 0, 1, 256, 8]>]
// CHECK: %[[BV:.*]] = uop.view %{{.*}} [#uop.view<shape = [2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2], strides = [16, 32, 1, 2, 4, 128, 0, 0, 0, 0, 8, 64]>]
// CHECK: %[[A:.*]] = uop.load %[[AV]]
// CHECK: %[[B:.*]] = uop.load %[[BV]]
// CHECK: %[[CA:.*]] = uop.contract %[[A]] axes <(11, 2), (10, 2), (9, 2)> : f16
// CHECK: %[[CB:.*]] = uop.contract %[[B]] axes <(11, 2), (10, 2)> : f16
// CHECK: %[[Z:.*]] = uop.const dense<0.000000e+00> : vector<4xf32>
// CHECK: %[[W:.*]] = uop.wmma %[[CA]], %[[CB]], %[[Z]] dims [8, 16, 16] device "CUDA" threads 32 upcast [#uop.axes<(11, 2), (10, 2), (9, 2)>, #uop.axes<(11, 2), (10, 2)>, #uop.axes<(11, 2), (10, 2)>] reduce [6, 7, 8, 9]
// CHECK: %[[U:.*]] = uop.unroll %[[W]] axes <(11, 2), (10, 2)> : vector<4xf32>
// CHECK: uop.reduce_axis add %[[U]] [5] : f32
// CHECK-NOT: uop.mul

// EXPAND: %[[K:.*]] = uop.range %{{.*}} axis 5 reduce
// B's elements are 8 apart: four scalar loads. A's fragment is four pairs
// of consecutive halves at even indices: four 32-bit loads through a
// pointer cast, as tinygrad's devectorizer folds them.
// EXPAND-COUNT-4: uop.load %{{.*}} : !uop.ptr<f16, 256>
// EXPAND: %[[VB:.*]] = uop.vectorize %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : f16
// EXPAND-COUNT-4: uop.load %{{.*}} : !uop.ptr<vector<2xf16>, 256>
// EXPAND: %[[VA:.*]] = uop.vectorize %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : f16
// EXPAND: %[[W:.*]] = uop.wmma %[[VA]], %[[VB]], %{{.*}} dims [8, 16, 16]
// EXPAND: %[[ACC:.*]] = uop.reduce add %[[W]] [%[[K]] : si32] : vector<4xf32>
// One STORE per lane of C, at constant upcast indices; lanes 0-1 and 2-3
// are consecutive elements of a row: two vector stores of 2 (tinygrad's
// st.global.v2.f32).
// EXPAND-DAG: %[[L0:.*]] = uop.gep %[[ACC]] [0]
// EXPAND-DAG: %[[L1:.*]] = uop.gep %[[ACC]] [1]
// EXPAND-DAG: %[[L2:.*]] = uop.gep %[[ACC]] [2]
// EXPAND-DAG: %[[L3:.*]] = uop.gep %[[ACC]] [3]
// EXPAND: %[[V01:.*]] = uop.vectorize %[[L0]], %[[L1]] : f32
// EXPAND: uop.store %{{.*}}, %[[V01]] : !uop.ptr<vector<2xf32>, 64>
// EXPAND: %[[V23:.*]] = uop.vectorize %[[L2]], %[[L3]] : f32
// EXPAND: uop.store %{{.*}}, %[[V23]] : !uop.ptr<vector<2xf32>, 64>
// EXPAND: uop.sink %{{[0-9]+}}, %{{[0-9]+}}{{$}}
// EXPAND-NOT: uop.contract
// EXPAND-NOT: uop.unroll
// EXPAND-NOT: upcast

// GPU: gpu.known_block_size = array<i32: 8, 2, 2>
// GPU: llvm.br ^bb1(%{{.*}}, %{{.*}} : i32, vector<4xf32>)
// GPU: nvvm.mma.sync {{.*}} shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32)
// GPU-NOT: nvvm.mma.sync
// GPU-NOT: llvm.fadd {{.*}} : vector<4xf32>

// HEUR: opts = "TC:0:-1,0,1">
// HEUR-STAGED: opts = "TC:0:-1,0,1,STAGE:0:4">
uop.kernel @tc attributes {uop.opts = "TC:0:-1,0,1"} {
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


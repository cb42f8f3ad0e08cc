// WMMA becomes one nvvm.mma.sync with the register packing of tinygrad's
// PTX renderer (render_wmma): A, B and C elements packed in order into
// 32-bit registers, two halves per register (bf16 pairs and tf32 as i32),
// the accumulator registers unpacked in order into the result.
// RUN: uop-opt %s --split-input-file --convert-uop-to-gpu | FileCheck %s

// CHECK-LABEL: gpu.func @f16_f32
// CHECK: %[[A0:.*]] = llvm.shufflevector %[[A:.*]], %[[A]] [0, 1] : vector<8xf16>
// CHECK: %[[A1:.*]] = llvm.shufflevector %[[A]], %[[A]] [2, 3] : vector<8xf16>
// CHECK: %[[A2:.*]] = llvm.shufflevector %[[A]], %[[A]] [4, 5] : vector<8xf16>
// CHECK: %[[A3:.*]] = llvm.shufflevector %[[A]], %[[A]] [6, 7] : vector<8xf16>
// CHECK: %[[B0:.*]] = llvm.shufflevector %[[B:.*]], %[[B]] [0, 1] : vector<4xf16>
// CHECK: %[[B1:.*]] = llvm.shufflevector %[[B]], %[[B]] [2, 3] : vector<4xf16>
// CHECK: %[[C0:.*]] = llvm.extractelement %[[C:.*]][%{{.*}} : i32] : vector<4xf32>
// CHECK: %[[C1:.*]] = llvm.extractelement %[[C]]
// CHECK: %[[C2:.*]] = llvm.extractelement %[[C]]
// CHECK: %[[C3:.*]] = llvm.extractelement %[[C]]
// CHECK: %[[D:.*]] = nvvm.mma.sync A[%[[A0]], %[[A1]], %[[A2]], %[[A3]]] B[%[[B0]], %[[B1]]] C[%[[C0]], %[[C1]], %[[C2]], %[[C3]]] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK: %[[D0:.*]] = llvm.extractvalue %[[D]][0]
// CHECK: %[[R0:.*]] = llvm.insertelement %[[D0]], %{{.*}}[%{{.*}} : i32] : vector<4xf32>
// CHECK: %[[D1:.*]] = llvm.extractvalue %[[D]][1]
// CHECK: %[[R1:.*]] = llvm.insertelement %[[D1]], %[[R0]]
// CHECK: llvm.extractvalue %[[D]][2]
// CHECK: %[[D3:.*]] = llvm.extractvalue %[[D]][3]
// CHECK: %[[R3:.*]] = llvm.insertelement %[[D3]]
// CHECK: llvm.extractelement %[[R3]]
module attributes {uop.target = #uop.target<"sm_80">} {
  uop.kernel @f16_f32 {
    %z = uop.const 0 : si32
    %o = uop.define_global 0 : !uop.ptr<f32, 4>
    %h = uop.define_global 1 : !uop.ptr<f16, 1>
    %f = uop.define_global 2 : !uop.ptr<f32, 1>
    %ph = uop.index %h[%z] : !uop.ptr<f16, 1>, si32
    %x = uop.load %ph : !uop.ptr<f16, 1>
    %pf = uop.index %f[%z] : !uop.ptr<f32, 1>, si32
    %y = uop.load %pf : !uop.ptr<f32, 1>
    %a = uop.vectorize %x, %x, %x, %x, %x, %x, %x, %x : f16
    %b = uop.vectorize %x, %x, %x, %x : f16
    %c = uop.vectorize %y, %y, %y, %y : f32
    %d = uop.wmma %a, %b, %c dims [8, 16, 16] device "CUDA" threads 32
           upcast [#uop.axes<(8, 2), (9, 2), (10, 2)>, #uop.axes<(8, 2), (9, 2)>,
                   #uop.axes<(9, 2), (10, 2)>] reduce [6, 7, 8, 9]
           : vector<8xf16>, vector<4xf16>, vector<4xf32>
    %d2 = uop.gep %d [2] : vector<4xf32>
    %po = uop.index %o[%z] : !uop.ptr<f32, 4>, si32
    %s = uop.store %po, %d2 : !uop.ptr<f32, 4>
    uop.sink %s
  }
}

// -----

// bf16 pairs and tf32 inputs go in as i32; an f16 accumulator as f16 pairs,
// unpacked element by element.
// CHECK-LABEL: gpu.func @bf16_f32
// CHECK: %[[P:.*]] = llvm.shufflevector {{.*}} [0, 1] : vector<8xbf16>
// CHECK: llvm.bitcast %[[P]] : vector<2xbf16> to i32
// CHECK: nvvm.mma.sync {{.*}}multiplicandAPtxType = #nvvm.mma_type<bf16>{{.*}} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-LABEL: gpu.func @tf32_f32
// CHECK: %[[E:.*]] = llvm.extractelement {{.*}} : vector<4xf32>
// CHECK: llvm.bitcast %[[E]] : f32 to i32
// CHECK: nvvm.mma.sync {{.*}}multiplicandAPtxType = #nvvm.mma_type<tf32>{{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 8>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-LABEL: gpu.func @f16_f16
// CHECK: %[[D:.*]] = nvvm.mma.sync {{.*}} : (vector<2xf16>, vector<2xf16>, vector<2xf16>) -> !llvm.struct<(vector<2xf16>, vector<2xf16>)>
// CHECK: %[[R0:.*]] = llvm.extractvalue %[[D]][0]
// CHECK: llvm.extractelement %[[R0]]
// CHECK: llvm.extractelement %[[R0]]
// CHECK: %[[R1:.*]] = llvm.extractvalue %[[D]][1]
// bf16 and tf32 are not among sm_80's default tensor cores (tinygrad's PTX
// renderer's): this target lists them.
module attributes {uop.target = #uop.target<"sm_80", tensor_cores = [
    #uop.tensor_core<m = 16, n = 8, k = 16, dtype_in = f16, dtype_out = f16>,
    #uop.tensor_core<m = 16, n = 8, k = 16, dtype_in = bf16, dtype_out = f32>,
    #uop.tensor_core<m = 16, n = 8, k = 8, dtype_in = f32, dtype_out = f32>]>} {
  uop.kernel @bf16_f32 {
    %z = uop.const 0 : si32
    %o = uop.define_global 0 : !uop.ptr<f32, 4>
    %h = uop.define_global 1 : !uop.ptr<bf16, 1>
    %ph = uop.index %h[%z] : !uop.ptr<bf16, 1>, si32
    %x = uop.load %ph : !uop.ptr<bf16, 1>
    %y = uop.const 0.0 : f32
    %a = uop.vectorize %x, %x, %x, %x, %x, %x, %x, %x : bf16
    %b = uop.vectorize %x, %x, %x, %x : bf16
    %c = uop.vectorize %y, %y, %y, %y : f32
    %d = uop.wmma %a, %b, %c dims [8, 16, 16] device "CUDA" threads 32
           upcast [#uop.axes<(8, 2), (9, 2), (10, 2)>, #uop.axes<(8, 2), (9, 2)>,
                   #uop.axes<(9, 2), (10, 2)>] reduce [6, 7, 8, 9]
           : vector<8xbf16>, vector<4xbf16>, vector<4xf32>
    %d0 = uop.gep %d [0] : vector<4xf32>
    %po = uop.index %o[%z] : !uop.ptr<f32, 4>, si32
    %s = uop.store %po, %d0 : !uop.ptr<f32, 4>
    uop.sink %s
  }
  uop.kernel @tf32_f32 {
    %z = uop.const 0 : si32
    %o = uop.define_global 0 : !uop.ptr<f32, 4>
    %f = uop.define_global 1 : !uop.ptr<f32, 1>
    %pf = uop.index %f[%z] : !uop.ptr<f32, 1>, si32
    %x = uop.load %pf : !uop.ptr<f32, 1>
    %a = uop.vectorize %x, %x, %x, %x : f32
    %b = uop.vectorize %x, %x : f32
    %c = uop.vectorize %x, %x, %x, %x : f32
    %d = uop.wmma %a, %b, %c dims [8, 16, 8] device "CUDA" threads 32
           upcast [#uop.axes<(8, 2), (9, 2)>, #uop.axes<(8, 2)>, #uop.axes<(9, 2), (10, 2)>]
           reduce [6, 7, 8]
           : vector<4xf32>, vector<2xf32>, vector<4xf32>
    %d0 = uop.gep %d [0] : vector<4xf32>
    %po = uop.index %o[%z] : !uop.ptr<f32, 4>, si32
    %s = uop.store %po, %d0 : !uop.ptr<f32, 4>
    uop.sink %s
  }
  uop.kernel @f16_f16 {
    %z = uop.const 0 : si32
    %o = uop.define_global 0 : !uop.ptr<f16, 4>
    %h = uop.define_global 1 : !uop.ptr<f16, 1>
    %ph = uop.index %h[%z] : !uop.ptr<f16, 1>, si32
    %x = uop.load %ph : !uop.ptr<f16, 1>
    %a = uop.vectorize %x, %x, %x, %x, %x, %x, %x, %x : f16
    %b = uop.vectorize %x, %x, %x, %x : f16
    %c = uop.vectorize %x, %x, %x, %x : f16
    %d = uop.wmma %a, %b, %c dims [8, 16, 16] device "CUDA" threads 32
           upcast [#uop.axes<(8, 2), (9, 2), (10, 2)>, #uop.axes<(8, 2), (9, 2)>,
                   #uop.axes<(9, 2), (10, 2)>] reduce [6, 7, 8, 9]
           : vector<8xf16>, vector<4xf16>, vector<4xf16>
    %d3 = uop.gep %d [3] : vector<4xf16>
    %po = uop.index %o[%z] : !uop.ptr<f16, 4>, si32
    %s = uop.store %po, %d3 : !uop.ptr<f16, 4>
    uop.sink %s
  }
}

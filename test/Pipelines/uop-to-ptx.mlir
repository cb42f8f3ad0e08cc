// The uop-to-ptx pipeline, end to end: a lowered kernel to PTX through the
// gpu and nvvm dialects. uop-opt leaves a gpu.binary holding the PTX and
// the launch dimensions in uop.launch; uop-translate --export-ptx writes
// the PTX itself.
// RUN: uop-opt %s --uop-to-ptx="chip=sm_80" | FileCheck %s --check-prefix=BIN
// RUN: uop-translate --export-ptx %s --chip=sm_80 | FileCheck %s
// RUN: uop-translate --export-ptx %s --chip=sm_90a | FileCheck %s --check-prefix=HOPPER
// RUN: uop-opt %s --uop-to-ptx="chip=sm_80 to-binary=false" | FileCheck %s --check-prefix=NVVM
// RUN: not uop-opt %s --uop-to-ptx="chip=sm_61" 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not uop-translate --export-ptx %s --chip=sm_61 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// BIN: module attributes {gpu.container_module, uop.launch = {adapt = {block = array<i32: 1, 1, 1>, grid = array<i32: 16, 1, 1>}}, uop.target = #uop.target<"sm_80">}
// BIN: gpu.binary @adapt [#gpu.object<#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">, {{.*}}assembly = "

// NVVM: gpu.module @adapt [#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">]
// NVVM: llvm.func @adapt(%{{.*}}: !llvm.ptr {llvm.align = 16 : i64, llvm.noalias}, {{.*}}) attributes {gpu.kernel, {{.*}}nvvm.kernel, nvvm.maxntid = array<i32: 1, 1, 1>}
// NVVM: nvvm.read.ptx.sreg.ctaid.x

// UNKNOWN: error: unknown GPU arch 'sm_61' (known: sm_75, sm_80, sm_86, sm_87, sm_89, sm_90, sm_90a, sm_100, sm_110, sm_120)

// CHECK: // uop-mlir kernel adapt grid=16,1,1 block=1,1,1
// CHECK: .target sm_80
// CHECK: .visible .entry adapt(
// CHECK: .maxntid 1, 1, 1
// CHECK-DAG: mov.u32 {{.*}}%ctaid.x;
// Bool buffers are bytes, read as != 0; bool != is xor.pred.
// CHECK-DAG: ld.global.nc.b8 [[B:%rs[0-9]+]]
// CHECK-DAG: setp.ne.b16 {{.*}}[[B]], 0;
// CHECK-DAG: xor.pred
// CHECK-DAG: st.global.b8
// Transcendentals: the approximate instructions; half sin through f32.
// CHECK-DAG: ex2.approx.f32
// CHECK-DAG: lg2.approx.f32
// CHECK-DAG: sqrt.approx.f32
// CHECK-DAG: rcp.approx.f32
// CHECK-DAG: ex2.approx.f16
// CHECK-DAG: cvt.f32.f16
// CHECK-DAG: sin.approx.f32
// CHECK-DAG: cvt.rn.f16.f32
// Half add stays half.
// CHECK-DAG: add.rn.f16
// HOPPER: .target sm_90a
// HOPPER: ex2.approx.f32
module {
  uop.kernel @adapt {
    %c16 = uop.const 16 : si32
    %g = uop.range %c16 axis 0 global : si32
    %fo = uop.define_global 0 : !uop.ptr<f32, 16>
    %fi = uop.define_global 1 : !uop.ptr<f32, 16>
    %ho = uop.define_global 2 : !uop.ptr<f16, 16>
    %hi = uop.define_global 3 : !uop.ptr<f16, 16>
    %bo = uop.define_global 4 : !uop.ptr<i1, 16>
    %bi = uop.define_global 5 : !uop.ptr<i1, 16>
    %pfi = uop.index %fi[%g] : !uop.ptr<f32, 16>, si32
    %x = uop.load %pfi : !uop.ptr<f32, 16>
    %e = uop.exp2 %x : f32
    %l = uop.log2 %e : f32
    %q = uop.sqrt %l : f32
    %r = uop.recip %q : f32
    %pfo = uop.index %fo[%g] : !uop.ptr<f32, 16>, si32
    %s0 = uop.store %pfo, %r : !uop.ptr<f32, 16>
    %phi = uop.index %hi[%g] : !uop.ptr<f16, 16>, si32
    %h = uop.load %phi : !uop.ptr<f16, 16>
    %h1 = uop.exp2 %h : f16
    %h2 = uop.sin %h1 : f16
    %h3 = uop.add %h2, %h : f16
    %pho = uop.index %ho[%g] : !uop.ptr<f16, 16>, si32
    %s1 = uop.store %pho, %h3 : !uop.ptr<f16, 16>
    %pbi = uop.index %bi[%g] : !uop.ptr<i1, 16>, si32
    %b = uop.load %pbi : !uop.ptr<i1, 16>
    %c1 = uop.const 1 : si32
    %g1 = uop.add %g, %c1 : si32
    %gm = uop.mod %g1, %c16 : si32
    %pbj = uop.index %bi[%gm] : !uop.ptr<i1, 16>, si32
    %b2 = uop.load %pbj : !uop.ptr<i1, 16>
    %ne = uop.cmpne %b, %b2 : i1
    %pbo = uop.index %bo[%g] : !uop.ptr<i1, 16>, si32
    %s2 = uop.store %pbo, %ne : !uop.ptr<i1, 16>
    uop.sink %s0, %s1, %s2
  }
}

// uop-serialize-to-ptx: each gpu.module to a gpu.binary of PTX, as
// gpu-module-to-binary{format=isa} makes it, linking libdevice only into a
// module that calls one of its functions.
// RUN: uop-opt %s --split-input-file --uop-serialize-to-ptx="libdevice=%libdevice" | FileCheck %s
// A module that does not call libdevice never reads it: with no libdevice
// the first part still compiles, the second is an error naming the call.
// RUN: not uop-opt %s --split-input-file --uop-serialize-to-ptx="libdevice=%t.none.bc" > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=NOLIB < %t.out
// RUN: FileCheck %s --check-prefix=NOLIBERR < %t.err

// CHECK: gpu.binary @plain {{ *}}[#gpu.object<#nvvm.target<chip = "sm_80", features = "+ptx80">, properties = {O = 2 : i32}, assembly = "{{.*}}.entry plain{{.*}}st.global.b32
// CHECK: gpu.binary @second {{ *}}[#gpu.object<#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80">, properties = {O = 3 : i32}, assembly = "{{.*}}.target sm_90a{{.*}}.entry second
// CHECK-NOT: gpu.module
// NOLIB: gpu.binary @plain
// NOLIB: gpu.binary @second
module attributes {gpu.container_module} {
  gpu.module @plain [#nvvm.target<chip = "sm_80", features = "+ptx80">] {
    llvm.func @plain(%p: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      %c = llvm.mlir.constant(1.0 : f32) : f32
      llvm.store %c, %p : f32, !llvm.ptr
      llvm.return
    }
  }
  gpu.module @second [#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80">] {
    llvm.func @second(%p: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      %c = llvm.mlir.constant(2.0 : f32) : f32
      llvm.store %c, %p : f32, !llvm.ptr
      llvm.return
    }
  }
}

// -----

// libdevice's expf, linked and inlined: no call is left.
// CHECK: gpu.binary @calls {{ *}}[#gpu.object<{{.*}}assembly = "{{.*}}.entry calls{{.*}}ex2.approx
// CHECK-NOT: __nv_expf
// NOLIBERR: error: 'gpu.module' op calls libdevice's __nv_expf, but cannot read libdevice '{{.*}}none.bc'
module attributes {gpu.container_module} {
  gpu.module @calls [#nvvm.target<chip = "sm_80", features = "+ptx80">] {
    llvm.func @__nv_expf(f32) -> f32
    llvm.func @calls(%p: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      %x = llvm.load %p : !llvm.ptr -> f32
      %y = llvm.call @__nv_expf(%x) : (f32) -> f32
      llvm.store %y, %p : f32, !llvm.ptr
      llvm.return
    }
  }
}

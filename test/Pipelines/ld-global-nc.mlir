// A load through the read-only cache (ld.global.nc) only from a buffer the
// kernel does not also write: every buffer parameter is noalias, and LLVM's
// NVPTX backend uses .nc where the function only reads through it. A kernel
// that updates a buffer in place reads it with a plain ld.global.
// RUN: uop-translate --export-ptx %s --no-opt | FileCheck %s

// CHECK-LABEL: .entry inplace(
// CHECK-NOT: ld.global.nc
// CHECK: ld.global.b32
// CHECK-NOT: ld.global.nc
// CHECK: st.global.b32
// CHECK-LABEL: .entry reads_other(
// CHECK: ld.global.nc.b32
// CHECK: st.global.b32
uop.kernel @inplace {
  %b = uop.define_global 0 : !uop.ptr<f32, 64>
  %v = uop.view %b [#uop.view<shape = [64], strides = [1]>] : !uop.ptr<f32, 64>
  %x = uop.load %v : !uop.ptr<f32, 64>
  %y = uop.add %x, %x : f32
  %st = uop.store %v, %y : !uop.ptr<f32, 64>
  uop.sink %st
}

uop.kernel @reads_other {
  %o = uop.define_global 0 : !uop.ptr<f32, 64>
  %ov = uop.view %o [#uop.view<shape = [64], strides = [1]>] : !uop.ptr<f32, 64>
  %b = uop.define_global 1 : !uop.ptr<f32, 64>
  %v = uop.view %b [#uop.view<shape = [64], strides = [1]>] : !uop.ptr<f32, 64>
  %x = uop.load %v : !uop.ptr<f32, 64>
  %y = uop.add %x, %x : f32
  %st = uop.store %ov, %y : !uop.ptr<f32, 64>
  uop.sink %st
}

// The host pipeline: a kernel AST all the way to the LLVM dialect, one
// llvm.func per kernel with a pointer per buffer; the same kernel lowered
// by hand first gives the same function.
// RUN: uop-opt %s --uop-to-llvm | FileCheck %s
// RUN: uop-opt %s --uop-lower | uop-opt --uop-to-llvm | FileCheck %s
// RUN: uop-opt %s --pass-pipeline="builtin.module(uop-to-llvm{half-in-f32=false})" | FileCheck %s --check-prefix=NATIVE
// RUN: uop-opt %s --pass-pipeline="builtin.module(uop-to-llvm{check-accesses=true})" | FileCheck %s --check-prefix=CHECKED
// With check-accesses each kernel takes the checks' context last; every
// access of @scale provably stays inside its buffer, so none is checked.
// CHECKED: module attributes {uop.sites = [], uop.target = #uop.target<"host">}
// CHECKED: llvm.func @scale(%arg0: !llvm.ptr {llvm.dereferenceable = 16 : i64}, %arg1: !llvm.ptr {llvm.dereferenceable = 16 : i64}, %arg2: !llvm.ptr)

// CHECK-LABEL: llvm.func @scale(%arg0: !llvm.ptr {llvm.dereferenceable = 16 : i64}, %arg1: !llvm.ptr {llvm.dereferenceable = 16 : i64})
// CHECK: llvm.cond_br
// (Optimized for the CPU, the kernel is upcast by 4: one vector load of 4
// halves, one vector store; lowered by hand first, it is not optimized.)
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> {{(vector<4xf16>|f16)$}}
// CHECK: llvm.fpext %{{.*}} : {{(vector<4xf16> to vector<4xf32>|f16 to f32)$}}
// CHECK: llvm.fmul %{{.*}} : f32
// CHECK: llvm.fptrunc %{{.*}} : {{(vector<4xf32> to vector<4xf16>|f32 to f16)$}}
// CHECK: llvm.store %{{.*}} : {{(vector<4xf16>|f16)}}, !llvm.ptr
// CHECK-NOT: uop.
// CHECK-NOT: scf.
// CHECK-NOT: arith.

// Without half-in-f32 the multiply is a native half multiply.
// NATIVE: llvm.fmul %{{.*}} : f16
uop.kernel @scale {
  %o = uop.define_global 0 : !uop.ptr<f16, 8>
  %ov = uop.view %o [#uop.view<shape = [8], strides = [1]>] : !uop.ptr<f16, 8>
  %i = uop.define_global 1 : !uop.ptr<f16, 8>
  %iv = uop.view %i [#uop.view<shape = [8], strides = [1]>] : !uop.ptr<f16, 8>
  %x = uop.load %iv : !uop.ptr<f16, 8>
  %c = uop.const 3.0 : f16
  %y = uop.mul %x, %c : f16
  %s = uop.store %ov, %y : !uop.ptr<f16, 8>
  uop.sink %s
}

// convert-uop-to-gpu: GPU-mapped kernels to gpu.module/gpu.func.
// RUN: uop-opt %s --split-input-file --convert-uop-to-gpu | FileCheck %s

// One gpu.module per kernel holding one kernel gpu.func; buffers are
// parameters in DEFINE_GLOBAL order (not use order), noalias; SPECIALs are
// block/thread ids; the launch dimensions are on the gpu.func and in the
// module's uop.launch; reduce ranges stay loops.
// CHECK: module attributes {gpu.container_module, uop.launch = {map = {block = array<i32: 32, 1, 1>, grid = array<i32: 4, 6, 1>}}
// CHECK: gpu.module @map {
// CHECK: gpu.func @map(%[[OUT:.*]]: !llvm.ptr {llvm.align = 16 : i64, llvm.noalias}, %[[IN:.*]]: !llvm.ptr {llvm.align = 16 : i64, llvm.noalias}) kernel attributes {known_block_size = array<i32: 32, 1, 1>, known_grid_size = array<i32: 4, 6, 1>}
// CHECK-DAG: %[[BX:.*]] = gpu.block_id x
// CHECK-DAG: arith.index_castui %[[BX]] : index to i32
// CHECK-DAG: %[[BY:.*]] = gpu.block_id y
// CHECK-DAG: %[[TX:.*]] = gpu.thread_id x
// CHECK-DAG: arith.index_castui %[[TX]] : index to i32
// CHECK: scf.for
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> f32
// CHECK: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr
// CHECK: gpu.return
module attributes {uop.target = #uop.target<"sm_80">} {
  uop.kernel @map {
    %g0 = uop.special "gidx0" 4 : si32
    %g1 = uop.special "gidx1" 6 : si32
    %l0 = uop.special "lidx0" 32 : si32
    %c3 = uop.const 3 : si32
    %r = uop.range %c3 axis 3 reduce : si32
    %in = uop.define_global 1 : !uop.ptr<f32, 2304>
    %out = uop.define_global 0 : !uop.ptr<f32, 768>
    %c128 = uop.const 128 : si32
    %c32 = uop.const 32 : si32
    %a = uop.mul %g1, %c128 : si32
    %b = uop.mul %g0, %c32 : si32
    %ab = uop.add %a, %b : si32
    %i = uop.add %ab, %l0 : si32
    %c768 = uop.const 768 : si32
    %ri = uop.mul %r, %c768 : si32
    %j = uop.add %ri, %i : si32
    %pi = uop.index %in[%j] : !uop.ptr<f32, 2304>, si32
    %x = uop.load %pi : !uop.ptr<f32, 2304>
    %sum = uop.reduce add %x [%r : si32] : f32
    %po = uop.index %out[%i] : !uop.ptr<f32, 768>, si32
    %s = uop.store %po, %sum : !uop.ptr<f32, 768>
    uop.sink %s
  }
}

// -----

// A gated load is a branch around the load even where the buffer's size is
// known (the host selects instead: UOpToSCF/loops.mlir): ptxas turns it into
// a predicated load, with fewer instructions than an address select and a
// value select.
// CHECK-LABEL: gpu.func @gated_load
// CHECK: %[[ALT:.*]] = arith.constant 5.000000e-01 : f32
// CHECK: %[[P:.*]] = llvm.getelementptr %arg1
// CHECK: %[[G:.*]] = arith.cmpi slt
// CHECK-NOT: llvm.select
// CHECK: %[[V:.*]] = scf.if %[[G]] -> (f32) {
// CHECK:   %[[L:.*]] = llvm.load %[[P]] : !llvm.ptr -> f32
// CHECK:   scf.yield %[[L]] : f32
// CHECK: } else {
// CHECK:   scf.yield %[[ALT]] : f32
// CHECK: }
// CHECK-NOT: arith.select
// CHECK: llvm.store %[[V]]
module attributes {uop.target = #uop.target<"sm_80">} {
  uop.kernel @gated_load {
    %l0 = uop.special "lidx0" 8 : si32
    %c4 = uop.const 4 : si32
    %out = uop.define_global 0 : !uop.ptr<f32, 8>
    %in = uop.define_global 1 : !uop.ptr<f32, 4>
    %g = uop.cmplt %l0, %c4 : si32
    %p = uop.index %in[%l0] gate %g : i1 : !uop.ptr<f32, 4>, si32
    %alt = uop.const 0.5 : f32
    %x = uop.load %p alt %alt : f32 : !uop.ptr<f32, 4>
    %q = uop.index %out[%l0] : !uop.ptr<f32, 8>, si32
    %st = uop.store %q, %x : !uop.ptr<f32, 8>
    uop.sink %st
  }
}

// -----

// idxN (no local dims) is the global thread index; grid takes its size.
// CHECK: uop.launch = {flat = {block = array<i32: 1, 1, 1>, grid = array<i32: 64, 1, 1>}}
// CHECK: %[[B:.*]] = gpu.block_id x
// CHECK: %[[D:.*]] = gpu.block_dim x
// CHECK: %[[M:.*]] = arith.muli %[[B]], %[[D]] : index
// CHECK: %[[T:.*]] = gpu.thread_id x
// CHECK: arith.addi %[[M]], %[[T]] : index
module attributes {uop.target = #uop.target<"sm_80">} {
  uop.kernel @flat {
    %i = uop.special "idx0" 64 : si32
    %out = uop.define_global 0 : !uop.ptr<si32, 64>
    %p = uop.index %out[%i] : !uop.ptr<si32, 64>, si32
    %s = uop.store %p, %i : !uop.ptr<si32, 64>
    uop.sink %s
  }
}

// -----

// Transcendentals use PTX's approximate instructions: ex2.approx on f32 and
// f16, lg2/sin/sqrt.approx.f32 as intrinsics, rcp.approx.f32 (no intrinsic
// without ftz) as tinygrad's inline instruction; a half op other than exp2
// goes through f32. f64 SQRT and RECIP are IEEE (sqrt.rn, div.rn).
// CHECK-LABEL: gpu.func @math
// CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"(%{{.*}}) : (f32) -> f32
// CHECK: llvm.call_intrinsic "llvm.nvvm.lg2.approx.f"(%{{.*}}) : (f32) -> f32
// CHECK: llvm.call_intrinsic "llvm.nvvm.sin.approx.f"(%{{.*}}) : (f32) -> f32
// CHECK: llvm.call_intrinsic "llvm.nvvm.sqrt.approx.f"(%{{.*}}) : (f32) -> f32
// CHECK: llvm.inline_asm "rcp.approx.f32 $0, $1;", "=f,f" %{{.*}} : (f32) -> f32
// CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.f16"(%{{.*}}) : (f16) -> f16
// CHECK: %[[H:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK: llvm.call_intrinsic "llvm.nvvm.sin.approx.f"(%[[H]]) : (f32) -> f32
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: llvm.call_intrinsic "llvm.nvvm.sqrt.rn.d"(%{{.*}}) : (f64) -> f64
// CHECK: arith.divf %{{.*}}, %{{.*}} : f64
module attributes {uop.target = #uop.target<"sm_80">} {
  uop.kernel @math {
    %z = uop.const 0 : si32
    %g = uop.define_global 0 : !uop.ptr<f32, 1>
    %h = uop.define_global 1 : !uop.ptr<f16, 1>
    %d = uop.define_global 2 : !uop.ptr<f64, 1>
    %p = uop.index %g[%z] : !uop.ptr<f32, 1>, si32
    %q = uop.index %h[%z] : !uop.ptr<f16, 1>, si32
    %r = uop.index %d[%z] : !uop.ptr<f64, 1>, si32
    %x = uop.load %p : !uop.ptr<f32, 1>
    %a = uop.exp2 %x : f32
    %b = uop.log2 %a : f32
    %c = uop.sin %b : f32
    %e = uop.sqrt %c : f32
    %f = uop.recip %e : f32
    %y = uop.load %q : !uop.ptr<f16, 1>
    %y1 = uop.exp2 %y : f16
    %y2 = uop.sin %y1 : f16
    %w = uop.load %r : !uop.ptr<f64, 1>
    %w1 = uop.sqrt %w : f64
    %w2 = uop.recip %w1 : f64
    %s0 = uop.store %p, %f : !uop.ptr<f32, 1>
    %s1 = uop.store %q, %y2 : !uop.ptr<f16, 1>
    %s2 = uop.store %r, %w2 : !uop.ptr<f64, 1>
    uop.sink %s0, %s1, %s2
  }
}

// -----

// Conversions as PTX's cvt: float -> int saturates (NaN is 0), LLVM's
// fptosi.sat/fptoui.sat; f16 -> bf16 through f32, which holds both; MULACC
// is fma.rn.
// CHECK-LABEL: gpu.func @casts
// CHECK: llvm.call_intrinsic "llvm.fptosi.sat"(%{{.*}}) : (f32) -> i32
// CHECK: llvm.call_intrinsic "llvm.fptoui.sat"(%{{.*}}) : (f32) -> i8
// CHECK: %[[W:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK: arith.truncf %[[W]] : f32 to bf16
// CHECK: llvm.intr.fma(%{{.*}}, %{{.*}}, %{{.*}}) : (f32, f32, f32) -> f32
module attributes {uop.target = #uop.target<"sm_80">} {
  uop.kernel @casts {
    %z = uop.const 0 : si32
    %g = uop.define_global 0 : !uop.ptr<f32, 1>
    %gi = uop.define_global 1 : !uop.ptr<si32, 1>
    %gu = uop.define_global 2 : !uop.ptr<ui8, 1>
    %gh = uop.define_global 3 : !uop.ptr<f16, 1>
    %gb = uop.define_global 4 : !uop.ptr<bf16, 1>
    %p = uop.index %g[%z] : !uop.ptr<f32, 1>, si32
    %pi = uop.index %gi[%z] : !uop.ptr<si32, 1>, si32
    %pu = uop.index %gu[%z] : !uop.ptr<ui8, 1>, si32
    %ph = uop.index %gh[%z] : !uop.ptr<f16, 1>, si32
    %pb = uop.index %gb[%z] : !uop.ptr<bf16, 1>, si32
    %x = uop.load %p : !uop.ptr<f32, 1>
    %h = uop.load %ph : !uop.ptr<f16, 1>
    %i = uop.cast %x : f32 -> si32
    %u = uop.cast %x : f32 -> ui8
    %b = uop.cast %h : f16 -> bf16
    %m = uop.mulacc %x, %x, %x : f32
    %s0 = uop.store %pi, %i : !uop.ptr<si32, 1>
    %s1 = uop.store %pu, %u : !uop.ptr<ui8, 1>
    %s2 = uop.store %pb, %b : !uop.ptr<bf16, 1>
    %s3 = uop.store %p, %m : !uop.ptr<f32, 1>
    uop.sink %s0, %s1, %s2, %s3
  }
}

// -----

// Without approx_ops the math dialect's ops remain (libdevice calls later).
// CHECK-LABEL: gpu.func @exact
// CHECK: math.exp2 %{{.*}} : f32
// CHECK-NOT: llvm.call_intrinsic
module attributes {uop.target = #uop.target<"sm_80", approx_ops = ["sqrt"]>} {
  uop.kernel @exact {
    %z = uop.const 0 : si32
    %g = uop.define_global 0 : !uop.ptr<f32, 1>
    %p = uop.index %g[%z] : !uop.ptr<f32, 1>, si32
    %x = uop.load %p : !uop.ptr<f32, 1>
    %a = uop.exp2 %x : f32
    %s = uop.store %p, %a : !uop.ptr<f32, 1>
    uop.sink %s
  }
}

// -----

// Bool buffers are bytes: loaded as i8 and compared with 0, stored widened.
// CHECK-LABEL: gpu.func @bools
// CHECK: %[[B:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i8
// CHECK: %[[T:.*]] = arith.cmpi ne, %[[B]], %{{.*}} : i8
// CHECK: %[[N:.*]] = arith.xori %[[T]], %{{.*}} : i1
// CHECK: %[[W:.*]] = arith.extui %[[N]] : i1 to i8
// CHECK: llvm.store %[[W]], %{{.*}} : i8, !llvm.ptr
module attributes {uop.target = #uop.target<"sm_80">} {
  uop.kernel @bools {
    %z = uop.const 0 : si32
    %t = uop.const true
    %g = uop.define_global 0 : !uop.ptr<i1, 1>
    %p = uop.index %g[%z] : !uop.ptr<i1, 1>, si32
    %x = uop.load %p : !uop.ptr<i1, 1>
    %n = uop.xor %x, %t : i1
    %s = uop.store %p, %n : !uop.ptr<i1, 1>
    uop.sink %s
  }
}

// -----

// A grouped reduce: DEFINE_LOCAL is a shared-memory (addr_space 3) array of
// the gpu.module, BARRIER is gpu.barrier, between the store of the
// partial sums and the loop that reads them back.
// CHECK-LABEL: gpu.module @grouped
// CHECK: llvm.mlir.global internal @temp0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<16 x f32>
// CHECK: %[[TMP:.*]] = llvm.mlir.addressof @temp0 : !llvm.ptr<3>
// CHECK: %[[SLOT:.*]] = llvm.getelementptr %[[TMP]]
// CHECK: llvm.store %{{.*}}, %[[SLOT]] : f32, !llvm.ptr<3>
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: scf.for
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
module attributes {uop.target = #uop.target<"sm_80">} {
  uop.kernel @grouped {
    %g = uop.special "gidx0" 8 : si32
    %l = uop.special "lidx0" 16 : si32
    %c16 = uop.const 16 : si32
    %r = uop.range %c16 axis 1001 group_reduce : si32
    %out = uop.define_global 0 : !uop.ptr<f32, 8>
    %in = uop.define_global 1 : !uop.ptr<f32, 128>
    %row = uop.mul %g, %c16 : si32
    %i = uop.add %row, %l : si32
    %p = uop.index %in[%i] : !uop.ptr<f32, 128>, si32
    %x = uop.load %p : !uop.ptr<f32, 128>
    %tmp = uop.define_local "temp0" : !uop.ptr<f32, 16, local>
    %slot = uop.index %tmp[%l] : !uop.ptr<f32, 16, local>, si32
    %st = uop.store %slot, %x : !uop.ptr<f32, 16, local>
    %back = uop.index %tmp[%r] : !uop.ptr<f32, 16, local>, si32
    %bar = uop.barrier after %st
    %y = uop.load %back after %bar : !uop.ptr<f32, 16, local>
    %sum = uop.reduce add %y [%r : si32] : f32
    %c0 = uop.const 0 : si32
    %first = uop.cmpeq %l, %c0 : si32
    %o = uop.index %out[%g] gate %first : i1 : !uop.ptr<f32, 8>, si32
    %st2 = uop.store %o, %sum : !uop.ptr<f32, 8>
    uop.sink %st2
  }
}

// -----

// A symbolic kernel: its variables are i32 parameters after the buffers,
// sorted by name and named in uop.variables; a symbolic grid size is its
// bound in uop.launch's grid with its expression in `sym` (slot 1: grid y),
// and the gpu.func has no known_grid_size (only a bound is known).
// CHECK: module attributes {gpu.container_module, uop.launch = {sym = {block = array<i32: 1, 1, 1>, grid = array<i32: 4, 31, 1>, sym = [#uop.sym_entry<1 = 2 * n + 1>]}}
// CHECK-SAME: uop.variables = {sym = ["m", "n"]}
// CHECK: gpu.func @sym(%{{.*}}: !llvm.ptr {llvm.align = 16 : i64, llvm.noalias}, %[[M:.*]]: i32, %[[N:.*]]: i32) kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
// CHECK: gpu.block_id y
// CHECK: arith.addi %{{.*}}, %[[M]] overflow<nsw> : i32
module attributes {uop.target = #uop.target<"sm_80">} {
  uop.kernel @sym {
    %n = uop.define_var "n" [0, 15] : si32
    %m = uop.define_var "m" [0, 3] : si32
    %c1 = uop.const 1 : si32
    %c2 = uop.const 2 : si32
    %n2 = uop.mul %n, %c2 : si32
    %rows = uop.add %n2, %c1 : si32
    %g0 = uop.special "gidx0" 4 : si32
    %g1 = uop.special "gidx1" size %rows max 31 : si32
    %out = uop.define_global 0 : !uop.ptr<si32, 124>
    %c4 = uop.const 4 : si32
    %a = uop.mul %g1, %c4 : si32
    %i = uop.add %a, %g0 : si32
    %v = uop.add %i, %m : si32
    %p = uop.index %out[%i] : !uop.ptr<si32, 124>, si32
    %s = uop.store %p, %v : !uop.ptr<si32, 124>
    uop.sink %s
  }
}

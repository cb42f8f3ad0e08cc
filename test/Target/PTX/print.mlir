// uop-mlir's PTX printer (uop-translate --nvvm-to-ptx; uop-serialize-to-ptx{printer=direct}):
// the templates, and that ptxas accepts what they make.
// RUN: uop-translate --nvvm-to-ptx %s | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t && uop-translate --nvvm-to-ptx %s -o %t/print.ptx
// RUN: %python %uop_src_root/test/check_ptxas.py %ptxas sm_80 %t 1 | FileCheck %s --check-prefix=PTXAS
// PTXAS: ptxas -arch=sm_80: 1/1 kernels assemble (expected 1); {{.*}} spill bytes 0

module attributes {gpu.container_module} {
  gpu.module @m [#nvvm.target<chip = "sm_80", features = "+ptx80">] {
    // CHECK: .version 8.0
    // CHECK-NEXT: .target sm_80
    // CHECK-NEXT: .address_size 64
    // CHECK: .shared .align 16 .b8 tile[256];
    // CHECK-NEXT: .extern .shared .align 16 .b8 dyn[];
    llvm.mlir.global internal @tile() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<64 x f32>

    // Memory: kernel pointers are global; a buffer the kernel never writes
    // is read through the non-coherent path; constant offsets fold into
    // the address; vectors are one access.
    // CHECK-LABEL: .visible .entry memory(
    // CHECK-NEXT: .param .u64 .ptr .align 16 memory_param_0,
    // CHECK-NEXT: .param .u64 .ptr .align 16 memory_param_1
    // CHECK-NEXT: )
    // CHECK-NEXT: .maxntid 32, 1, 1
    // CHECK: ld.param.b64 %rd1, [memory_param_0];
    // CHECK-NEXT: cvta.to.global.u64 %[[OUT:rd[0-9]+]], %rd1;
    // CHECK: cvta.to.global.u64 %[[IN:rd[0-9]+]], %rd3;
    // CHECK: mov.u32 %[[TID:r[0-9]+]], %tid.x;
    // CHECK: mul.wide.s32 %[[OFF:rd[0-9]+]], %[[TID]], 16;
    // CHECK-NEXT: add.s64 %[[P:rd[0-9]+]], %[[IN]], %[[OFF]];
    // CHECK-NEXT: ld.global.nc.v4.b32 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [%[[P]]];
    // CHECK-NEXT: ld.global.nc.b32 %[[S:r[0-9]+]], [%[[IN]]+12];
    // CHECK-NEXT: ld.global.b32 %{{r[0-9]+}}, [%[[OUT]]+4];
    // CHECK-NEXT: mov.u64 %[[TILE:rd[0-9]+]], tile;
    // CHECK: st.shared.b32 [{{%rd[0-9]+}}], %[[S]];
    // CHECK-NEXT: bar.sync 0;
    // CHECK: st.global.v4.b32 [%{{rd[0-9]+}}], {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}};
    // A vector of 8 halves is 4 words: one v4 access, each word unpacked.
    // CHECK: ld.global.nc.v4.b32 {%[[W0:r[0-9]+]], %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [%[[IN]]+32];
    // CHECK-NEXT: mov.b32 {%rs{{[0-9]+}}, %rs{{[0-9]+}}}, %[[W0]];
    // CHECK: ret;
    llvm.func @memory(%out: !llvm.ptr {llvm.align = 16 : i64, llvm.noalias}, %in: !llvm.ptr {llvm.align = 16 : i64, llvm.noalias}) attributes {nvvm.kernel, nvvm.maxntid = array<i32: 32, 1, 1>} {
      %tid = nvvm.read.ptx.sreg.tid.x : i32
      %p = llvm.getelementptr %in[%tid] : (!llvm.ptr, i32) -> !llvm.ptr, vector<4xf32>
      %v = llvm.load %p : !llvm.ptr -> vector<4xf32>
      %q = llvm.getelementptr %in[3] : (!llvm.ptr) -> !llvm.ptr, f32
      %s = llvm.load %q : !llvm.ptr -> f32
      %r = llvm.getelementptr %out[1] : (!llvm.ptr) -> !llvm.ptr, f32
      %old = llvm.load %r : !llvm.ptr -> f32
      %sh = llvm.mlir.addressof @tile : !llvm.ptr<3>
      %st = llvm.getelementptr %sh[0, %tid] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, !llvm.array<64 x f32>
      llvm.store %s, %st : f32, !llvm.ptr<3>
      nvvm.barrier0
      %o = llvm.getelementptr %out[%tid] : (!llvm.ptr, i32) -> !llvm.ptr, vector<4xf32>
      llvm.store %v, %o : vector<4xf32>, !llvm.ptr
      %h = llvm.getelementptr %in[2] : (!llvm.ptr) -> !llvm.ptr, vector<8xf16>
      %hv = llvm.load %h : !llvm.ptr -> vector<8xf16>
      %c0 = llvm.mlir.constant(0 : i32) : i32
      %h0 = llvm.extractelement %hv[%c0 : i32] : vector<8xf16>
      %hs = llvm.getelementptr %out[8] : (!llvm.ptr) -> !llvm.ptr, f16
      llvm.store %h0, %hs : f16, !llvm.ptr
      llvm.return
    }

    // An index x + c goes into the address as x's and an offset of c
    // elements, so x + 1 and x + 2 share x's address: always for an i64
    // index (the address wraps as the index does), for an i32 one only
    // when the add is nsw (sign extension does not distribute over a
    // wrapping add). An add so folded is not printed when nothing else
    // reads it.
    // CHECK-LABEL: .visible .entry indexed(
    // CHECK: mov.u32 %[[TID:r[0-9]+]], %tid.x;
    // CHECK-NOT: add.s32
    // CHECK: mul.wide.s32 %[[OFF:rd[0-9]+]], %[[TID]], 4;
    // CHECK-NEXT: add.s64 %[[P:rd[0-9]+]], %[[IN:rd[0-9]+]], %[[OFF]];
    // CHECK-NEXT: ld.global.nc.b32 %{{r[0-9]+}}, [%[[P]]+8];
    // CHECK: add.s32 %[[WRAP:r[0-9]+]], %[[TID]], %{{r[0-9]+}};
    // CHECK-NEXT: mul.wide.s32 %[[OFF1:rd[0-9]+]], %[[WRAP]], 4;
    // CHECK-NEXT: add.s64 %[[P1:rd[0-9]+]], %[[IN]], %[[OFF1]];
    // CHECK-NEXT: ld.global.nc.b32 %{{r[0-9]+}}, [%[[P1]]];
    // CHECK-NOT: add.s64
    // CHECK: mul.lo.s64 %[[OFF64:rd[0-9]+]], %[[WIDE:rd[0-9]+]], 4;
    // CHECK-NEXT: add.s64 %[[P2:rd[0-9]+]], %[[IN]], %[[OFF64]];
    // CHECK-NEXT: ld.global.nc.b32 %{{r[0-9]+}}, [%[[P2]]+-12];
    llvm.func @indexed(%out: !llvm.ptr {llvm.noalias}, %in: !llvm.ptr {llvm.noalias}) attributes {nvvm.kernel} {
      %tid = nvvm.read.ptx.sreg.tid.x range <i32, 0, 32> : i32
      %c1 = llvm.mlir.constant(1 : i32) : i32
      %c2 = llvm.mlir.constant(2 : i32) : i32
      %cm3 = llvm.mlir.constant(-3 : i64) : i64
      %i2 = llvm.add %c2, %tid overflow<nsw> : i32
      %p2 = llvm.getelementptr %in[%i2] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      %v2 = llvm.load %p2 : !llvm.ptr -> f32
      %i1 = llvm.add %tid, %c1 : i32
      %p1 = llvm.getelementptr %in[%i1] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      %v1 = llvm.load %p1 : !llvm.ptr -> f32
      %wide = llvm.sext %tid : i32 to i64
      %j = llvm.add %wide, %cm3 : i64
      %pj = llvm.getelementptr %in[%j] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %vj = llvm.load %pj : !llvm.ptr -> f32
      %s = llvm.fadd %v1, %v2 : f32
      %t = llvm.fadd %s, %vj : f32
      llvm.store %t, %out : f32, !llvm.ptr
      llvm.return
    }

    // Block arguments are a parallel copy: swapping two of them goes
    // through temporaries. A conditional branch with arguments for both
    // successors copies on its own edges.
    // CHECK-LABEL: .visible .entry swap(
    // CHECK: $L__BB0_1:
    // CHECK: setp.ge.s32 %[[DONE:p[0-9]+]],
    // CHECK-NEXT: @!%[[DONE]] bra $L__EDGE0_1;
    // CHECK-NEXT: mov.b32 %[[R:r[0-9]+]], %[[A:r[0-9]+]];
    // CHECK-NEXT: bra.uni $L__BB0_2;
    // CHECK-NEXT: $L__EDGE0_1:
    // CHECK-NEXT: mov.b32 %[[T1:r[0-9]+]], %[[NEXT:r[0-9]+]];
    // CHECK-NEXT: mov.b32 %[[T2:r[0-9]+]], %[[B:r[0-9]+]];
    // CHECK-NEXT: mov.b32 %[[T3:r[0-9]+]], %[[A]];
    // CHECK-NEXT: mov.b32 %[[I:r[0-9]+]], %[[T1]];
    // CHECK-NEXT: mov.b32 %[[A]], %[[T2]];
    // CHECK-NEXT: mov.b32 %[[B]], %[[T3]];
    // CHECK-NEXT: bra.uni $L__BB0_1;
    // CHECK-NEXT: $L__BB0_2:
    // CHECK-NEXT: st.global.b32 [%rd{{[0-9]+}}], %[[R]];
    llvm.func @swap(%out: !llvm.ptr, %n: i32) attributes {nvvm.kernel} {
      %c0 = llvm.mlir.constant(0 : i32) : i32
      %c1 = llvm.mlir.constant(1 : i32) : i32
      llvm.br ^loop(%c0, %c1, %c0 : i32, i32, i32)
    ^loop(%i: i32, %a: i32, %b: i32):
      %next = llvm.add %i, %c1 : i32
      %done = llvm.icmp "sge" %next, %n : i32
      llvm.cond_br %done, ^exit(%a : i32), ^loop(%next, %b, %a : i32, i32, i32)
    ^exit(%r: i32):
      llvm.store %r, %out : i32, !llvm.ptr
      llvm.return
    }

    // A loop header (pure ops and a conditional branch, entered by
    // unconditional branches only) is printed in place of each branch into
    // it: the loop is tested at its bottom, as LLVM and tinygrad write loops.
    // CHECK-LABEL: .visible .entry rotated(
    // CHECK: setp.lt.s32 %[[P0:p[0-9]+]], %[[I:r[0-9]+]], %[[N:r[0-9]+]];
    // CHECK-NEXT: @!%[[P0]] bra $L__BB0_[[EXIT:[0-9]+]];
    // CHECK-NEXT: $L__BB0_[[BODY:[0-9]+]]:
    // CHECK: setp.lt.s32 %[[P1:p[0-9]+]], %[[I]], %[[N]];
    // CHECK-NEXT: mov.pred %[[P0]], %[[P1]];
    // CHECK-NEXT: @%[[P0]] bra $L__BB0_[[BODY]];
    // CHECK-NEXT: $L__BB0_[[EXIT]]:
    // CHECK-NEXT: st.global.b32
    llvm.func @rotated(%out: !llvm.ptr, %n: i32) attributes {nvvm.kernel} {
      %c0 = llvm.mlir.constant(0 : i32) : i32
      %c1 = llvm.mlir.constant(1 : i32) : i32
      %f0 = llvm.mlir.constant(0.0 : f32) : f32
      llvm.br ^header(%c0, %f0 : i32, f32)
    ^header(%i: i32, %acc: f32):
      %more = llvm.icmp "slt" %i, %n : i32
      llvm.cond_br %more, ^body, ^exit
    ^body:
      %p = llvm.getelementptr %out[%i] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      %v = llvm.load %p : !llvm.ptr -> f32
      %s = llvm.fadd %acc, %v : f32
      %next = llvm.add %i, %c1 : i32
      llvm.br ^header(%next, %s : i32, f32)
    ^exit:
      llvm.store %acc, %out : f32, !llvm.ptr
      llvm.return
    }

    // A back edge marked not to be unrolled again (uop-unroll-loops' mark,
    // carried by convert-cf-to-llvm): `.pragma "nounroll"` at the head of
    // the loop ptxas sees, the body the rotated test branches back to. The
    // unmarked loop above has none.
    // CHECK-NOT: .pragma
    // CHECK-LABEL: .visible .entry marked(
    // CHECK: @!%[[P0:p[0-9]+]] bra $L__BB0_[[EXIT:[0-9]+]];
    // CHECK-NEXT: $L__BB0_[[BODY:[0-9]+]]:
    // CHECK-NEXT: .pragma "nounroll";
    // CHECK: @%[[P0]] bra $L__BB0_[[BODY]];
    // CHECK-NOT: .pragma
    // CHECK: ret;
    llvm.func @marked(%out: !llvm.ptr, %n: i32) attributes {nvvm.kernel} {
      %c0 = llvm.mlir.constant(0 : i32) : i32
      %c1 = llvm.mlir.constant(1 : i32) : i32
      %f0 = llvm.mlir.constant(0.0 : f32) : f32
      llvm.br ^header(%c0, %f0 : i32, f32)
    ^header(%i: i32, %acc: f32):
      %more = llvm.icmp "slt" %i, %n : i32
      llvm.cond_br %more, ^body, ^exit
    ^body:
      %p = llvm.getelementptr %out[%i] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      %v = llvm.load %p : !llvm.ptr -> f32
      %s = llvm.fadd %acc, %v : f32
      %next = llvm.add %i, %c1 : i32
      llvm.br ^header(%next, %s : i32, f32) {llvm.loop_annotation = #llvm.loop_annotation<unroll = <disable = true>>}
    ^exit:
      llvm.store %acc, %out : f32, !llvm.ptr
      llvm.return
    }

    // i8 lives in 16 bits with an unspecified upper byte: compares and
    // divisions extend it first. bf16 goes through f32. Saturating
    // float-to-int conversions clamp and send NaN to 0.
    // CHECK-LABEL: .visible .entry narrow(
    // CHECK: ld.param.u8 %[[X:rs[0-9]+]], [narrow_param_1];
    // CHECK: cvt.s16.s8 %[[XS:rs[0-9]+]], %[[X]];
    // CHECK-NEXT: cvt.s16.s8 %[[YS:rs[0-9]+]], %[[Y:rs[0-9]+]];
    // CHECK-NEXT: div.s16 %{{rs[0-9]+}}, %[[XS]], %[[YS]];
    // CHECK: cvt.s16.s8
    // CHECK-NEXT: cvt.s16.s8
    // CHECK-NEXT: setp.lt.s16
    // CHECK: cvt.u32.u16 %[[W:r[0-9]+]], %[[BF:rs[0-9]+]];
    // CHECK-NEXT: shl.b32 %{{r[0-9]+}}, %[[W]], 16;
    // CHECK: setp.gtu.f32
    // CHECK: cvt.rzi.s8.f32 %[[C:rs[0-9]+]], %[[F:r[0-9]+]];
    // CHECK-NEXT: setp.lt.f32 %[[LO:p[0-9]+]], %[[F]], 0fC3000000;
    // CHECK-NEXT: selp.b16 %[[C1:rs[0-9]+]], -128, %[[C]], %[[LO]];
    // CHECK-NEXT: setp.gt.f32 %[[HI:p[0-9]+]], %[[F]], 0f42FE0000;
    // CHECK-NEXT: selp.b16 %[[C2:rs[0-9]+]], 127, %[[C1]], %[[HI]];
    // CHECK-NEXT: setp.nan.f32 %[[NAN:p[0-9]+]], %[[F]], %[[F]];
    // CHECK-NEXT: selp.b16 %{{rs[0-9]+}}, 0, %[[C2]], %[[NAN]];
    // CHECK: cvt.rn.f32.s32 %[[I2F:r[0-9]+]],
    // CHECK-NEXT: cvt.rn.bf16.f32 %{{rs[0-9]+}}, %[[I2F]];
    // CHECK: add.rn.f32
    // CHECK-NEXT: cvt.rn.bf16.f32
    llvm.func @narrow(%out: !llvm.ptr, %x: i8, %y: i8, %f: f32, %b: bf16, %k: i32) attributes {nvvm.kernel} {
      %q = llvm.sdiv %x, %y : i8
      %lt = llvm.icmp "slt" %x, %y : i8
      %z = llvm.zext %lt : i1 to i8
      %s = llvm.add %q, %z : i8
      llvm.store %s, %out : i8, !llvm.ptr
      %w = llvm.fpext %b : bf16 to f32
      %cmp = llvm.fcmp "ugt" %w, %f : f32
      %sel = llvm.select %cmp, %w, %f : i1, f32
      %c = llvm.call_intrinsic "llvm.fptosi.sat"(%sel) : (f32) -> i8
      %o1 = llvm.getelementptr %out[1] : (!llvm.ptr) -> !llvm.ptr, i8
      llvm.store %c, %o1 : i8, !llvm.ptr
      %kb = llvm.sitofp %k : i32 to bf16
      %sum = llvm.fadd %kb, %b : bf16
      %o2 = llvm.getelementptr %out[2] : (!llvm.ptr) -> !llvm.ptr, bf16
      llvm.store %sum, %o2 : bf16, !llvm.ptr
      llvm.return
    }

    // Tensor cores: cp.async into shared memory, ldmatrix, mma.sync on
    // packed halves.
    // CHECK-LABEL: .visible .entry tensor(
    // CHECK: cp.async.cg.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}+16], 16;
    // CHECK-NEXT: cp.async.commit_group;
    // CHECK-NEXT: cp.async.wait_group 0;
    // CHECK: ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [%rd{{[0-9]+}}];
    // CHECK: ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%r{{[0-9]+}}, %r{{[0-9]+}}}, [%rd{{[0-9]+}}+64];
    // CHECK: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}};
    llvm.func @tensor(%out: !llvm.ptr {llvm.noalias}, %in: !llvm.ptr {llvm.noalias}) attributes {nvvm.kernel, nvvm.maxntid = array<i32: 32, 1, 1>} {
      %sh = llvm.mlir.addressof @tile : !llvm.ptr<3>
      %g = llvm.addrspacecast %in : !llvm.ptr to !llvm.ptr<1>
      %g1 = llvm.getelementptr %g[1] : (!llvm.ptr<1>) -> !llvm.ptr<1>, vector<4xf32>
      nvvm.cp.async.shared.global %sh, %g1, 16, cache = cg : !llvm.ptr<3>, !llvm.ptr<1>
      nvvm.cp.async.commit.group
      nvvm.cp.async.wait.group 0
      %a = nvvm.ldmatrix %sh {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
      %sh64 = llvm.getelementptr %sh[64] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
      %b = nvvm.ldmatrix %sh64 {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<col>, num = 2 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32)>
      %a0 = llvm.extractvalue %a[0] : !llvm.struct<(i32, i32, i32, i32)>
      %a1 = llvm.extractvalue %a[1] : !llvm.struct<(i32, i32, i32, i32)>
      %a2 = llvm.extractvalue %a[2] : !llvm.struct<(i32, i32, i32, i32)>
      %a3 = llvm.extractvalue %a[3] : !llvm.struct<(i32, i32, i32, i32)>
      %b0 = llvm.extractvalue %b[0] : !llvm.struct<(i32, i32)>
      %b1 = llvm.extractvalue %b[1] : !llvm.struct<(i32, i32)>
      %ha0 = llvm.bitcast %a0 : i32 to vector<2xf16>
      %ha1 = llvm.bitcast %a1 : i32 to vector<2xf16>
      %ha2 = llvm.bitcast %a2 : i32 to vector<2xf16>
      %ha3 = llvm.bitcast %a3 : i32 to vector<2xf16>
      %hb0 = llvm.bitcast %b0 : i32 to vector<2xf16>
      %hb1 = llvm.bitcast %b1 : i32 to vector<2xf16>
      %z = llvm.mlir.constant(0.0 : f32) : f32
      %d = nvvm.mma.sync A[%ha0, %ha1, %ha2, %ha3] B[%hb0, %hb1] C[%z, %z, %z, %z] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
      %d0 = llvm.extractvalue %d[0] : !llvm.struct<(f32, f32, f32, f32)>
      llvm.store %d0, %out : f32, !llvm.ptr
      llvm.return
    }

    // Cases a review found (none in the corpora): an i8 shift amount is
    // cleaned too; a scalar condition selects every lane; a struct field
    // that is a vector is all its lanes; sitofp of i1 true is -1.0; a
    // generic pointer into shared memory leaves as a generic address.
    // CHECK-LABEL: .visible .entry review(
    // CHECK: cvt.u16.u32 %[[S8:rs[0-9]+]], %{{r[0-9]+}};
    // CHECK: and.b16 %[[AMT:rs[0-9]+]], %[[S8]], 255;
    // CHECK-NEXT: cvt.u32.u16 %[[A32:r[0-9]+]], %[[AMT]];
    // CHECK-NEXT: shr.u16 %{{rs[0-9]+}}, %{{rs[0-9]+}}, %[[A32]];
    // CHECK-COUNT-4: selp.b32
    // CHECK: st.global.v4.b32
    // CHECK: st.global.v2.b16 [%{{rd[0-9]+}}+16], {%[[F0:rs[0-9]+]], %[[F1:rs[0-9]+]]};
    // CHECK: selp.b32 %{{r[0-9]+}}, 0fBF800000, 0f00000000, %{{p[0-9]+}};
    // CHECK: mov.u64 %[[DYN:rd[0-9]+]], dyn;
    // CHECK-NEXT: cvta.shared.u64 %[[GEN:rd[0-9]+]], %[[DYN]];
    // CHECK-NEXT: st.global.b64 [%{{rd[0-9]+}}+32], %[[GEN]];
    llvm.mlir.global external @dyn() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
    llvm.func @review(%out: !llvm.ptr, %a: i8, %s32: i32) attributes {nvvm.kernel} {
      %zero = llvm.mlir.constant(0 : i32) : i32
      %c = llvm.icmp "ne" %s32, %zero : i32
      %h = llvm.load %out : !llvm.ptr -> vector<2xf16>
      %s = llvm.trunc %s32 : i32 to i8
      %r = llvm.lshr %a, %s : i8
      llvm.store %r, %out : i8, !llvm.ptr
      %x = llvm.load %out : !llvm.ptr -> vector<4xf32>
      %y = llvm.fadd %x, %x : vector<4xf32>
      %sel = llvm.select %c, %x, %y : i1, vector<4xf32>
      llvm.store %sel, %out : vector<4xf32>, !llvm.ptr
      %u = llvm.mlir.undef : !llvm.struct<(vector<2xf16>, vector<2xf16>)>
      %agg = llvm.insertvalue %h, %u[1] : !llvm.struct<(vector<2xf16>, vector<2xf16>)>
      %f = llvm.extractvalue %agg[1] : !llvm.struct<(vector<2xf16>, vector<2xf16>)>
      %o16 = llvm.getelementptr %out[16] : (!llvm.ptr) -> !llvm.ptr, i8
      llvm.store %f, %o16 : vector<2xf16>, !llvm.ptr
      %m = llvm.sitofp %c : i1 to f32
      %o24 = llvm.getelementptr %out[24] : (!llvm.ptr) -> !llvm.ptr, i8
      llvm.store %m, %o24 : f32, !llvm.ptr
      %sh = llvm.mlir.addressof @dyn : !llvm.ptr<3>
      %g = llvm.addrspacecast %sh : !llvm.ptr<3> to !llvm.ptr
      %bits = llvm.ptrtoint %g : !llvm.ptr to i64
      %o32 = llvm.getelementptr %out[32] : (!llvm.ptr) -> !llvm.ptr, i8
      llvm.store %bits, %o32 : i64, !llvm.ptr
      llvm.return
    }

    // Inline asm: operands substituted, a tied input moved into its
    // output first, an 'n' operand as its value.
    // CHECK-LABEL: .visible .entry asm(
    // CHECK: ld.param.b32 %[[X:r[0-9]+]], [asm_param_1];
    // CHECK: mov.b32 %[[O:r[0-9]+]], %[[X]];
    // CHECK-NEXT: // begin inline asm
    // CHECK-NEXT: add.s32 %[[O]], %[[O]], 7;
    // CHECK-NEXT: // end inline asm
    llvm.func @asm(%out: !llvm.ptr, %x: i32) attributes {nvvm.kernel} {
      %c7 = llvm.mlir.constant(7 : i32) : i32
      %r = llvm.inline_asm has_side_effects "add.s32 $0, $1, $2;", "=r,0,n" %x, %c7 : (i32, i32) -> i32
      llvm.store %r, %out : i32, !llvm.ptr
      llvm.return
    }
  }
}

// Round trip of every uop op: custom form -> print -> parse again, and the
// generic form parses back to the same thing.
// RUN: uop-opt %s | uop-opt | FileCheck %s
// RUN: uop-opt %s --mlir-print-op-generic | uop-opt | FileCheck %s
// Every op of the dialect has a CHECK line here (enforced by ops-covered.test).

// CHECK-LABEL: uop.kernel @defines
uop.kernel @defines {
  // CHECK: %[[G:.*]] = uop.define_global 0 : !uop.ptr<f32, 400>
  %g = uop.define_global 0 : !uop.ptr<f32, 400>
  // CHECK: %[[L:.*]] = uop.define_local "temp0" : !uop.ptr<f32, 16, local>
  %l = uop.define_local "temp0" : !uop.ptr<f32, 16, local>
  // CHECK: uop.cluster_map %[[L]] blocks 2 : !uop.ptr<f32, 16, local> -> !uop.ptr<f32, 32, cluster>
  %cl = uop.cluster_map %l blocks 2 : !uop.ptr<f32, 16, local> -> !uop.ptr<f32, 32, cluster>
  // CHECK: %[[RK:.*]] = uop.const 1 : si32
  %rk = uop.const 1 : si32
  // CHECK: uop.cluster_map %[[L]] rank %[[RK]] blocks 2 : !uop.ptr<f32, 16, local>, si32 -> !uop.ptr<f32, 16, cluster>
  %cp = uop.cluster_map %l rank %rk blocks 2 : !uop.ptr<f32, 16, local>, si32 -> !uop.ptr<f32, 16, cluster>
  // CHECK: %[[END:.*]] = uop.const 16 : si32
  %end = uop.const 16 : si32
  // CHECK: %[[R:.*]] = uop.range %[[END]] axis 2 reduce : si32
  %r = uop.range %end axis 2 reduce : si32
  // CHECK: uop.range %[[END]] axis 0 global : si32
  %r0 = uop.range %end axis 0 global : si32
  // CHECK: %[[Z:.*]] = uop.const 0.000000e+00 : f32
  %zero = uop.const 0.0 : f32
  // CHECK: %[[ACC:.*]] = uop.define_reg %[[Z]] [%[[R]] : si32] id 0 : f32
  %acc = uop.define_reg %zero [%r : si32] id 0 : f32
  // CHECK: uop.define_reg %[[Z]] [] id 1 : f32
  %acc1 = uop.define_reg %zero [] id 1 : f32
  // CHECK: uop.define_var "n" [1, 10] : si32
  %n = uop.define_var "n" [1, 10] : si32
  // CHECK: uop.special "gidx0" 16 : si32
  %gid = uop.special "gidx0" 16 : si32
  // CHECK: uop.special "lidx2" 4 : si32
  %lid = uop.special "lidx2" 4 : si32
  // CHECK: uop.special "gidx1" size %{{.*}} max 10 : si32
  %gsym = uop.special "gidx1" size %n max 10 : si32
  // CHECK: %[[IDX:.*]] = uop.index %[[G]][%[[R]]] : !uop.ptr<f32, 400>, si32
  %p = uop.index %g[%r] : !uop.ptr<f32, 400>, si32
  // CHECK: %[[LD:.*]] = uop.load %[[IDX]] : !uop.ptr<f32, 400>
  %x = uop.load %p : !uop.ptr<f32, 400>
  // CHECK: %[[SUM:.*]] = uop.reduce add %[[LD]] [%[[R]] : si32] : f32
  %sum = uop.reduce add %x [%r : si32] : f32
  // A horizontal reduction: a vector source, a scalar result.
  // CHECK: uop.reduce max %{{.*}} [%[[R]] : si32] : vector<2xf32> -> f32
  %pair = uop.vectorize %x, %x : f32
  %hmax = uop.reduce max %pair [%r : si32] : vector<2xf32> -> f32
  // CHECK: uop.assign %[[ACC]], %[[SUM]] : f32, f32
  %a = uop.assign %acc, %sum : f32, f32
  // CHECK: %[[E:.*]] = uop.endrange %[[R]] : si32
  %e = uop.endrange %r : si32
  // CHECK: uop.store %[[IDX]], %[[SUM]] : !uop.ptr<f32, 400>
  %s = uop.store %p, %sum : !uop.ptr<f32, 400>
  // CHECK: uop.sink %{{.*}}, %[[E]]
  uop.sink %s, %e
}

// CHECK-LABEL: uop.kernel @views
uop.kernel @views {
  %g = uop.define_global 0 : !uop.ptr<f32, 16>
  // CHECK: %[[V:.*]] = uop.view %{{.*}} [#uop.view<shape = [4, 4], strides = [1, 4]>] : !uop.ptr<f32, 16>
  %v = uop.view %g [#uop.view<shape = [4, 4], strides = [1, 4]>] : !uop.ptr<f32, 16>
  // CHECK: uop.view %{{.*}} [#uop.view<shape = [2, 8], strides = [8, 1]>, #uop.view<shape = [4, 4], strides = [4, 1], offset = 1, mask = {{\[\[}}0, 3], [1, 4]]>] : !uop.ptr<f32, 16>
  %v2 = uop.view %g [#uop.view<shape = [2, 8], strides = [8, 1]>, #uop.view<shape = [4, 4], strides = [4, 1], offset = 1, mask = [[0, 3], [1, 4]]>] : !uop.ptr<f32, 16>
  // CHECK: %[[SV:.*]] = uop.view [#uop.view<shape = [4, 4], strides = [0, 0], mask = {{\[\[}}0, 2], [0, 4]]>] : !uop.void
  %sv = uop.view [#uop.view<shape = [4, 4], strides = [0, 0], mask = [[0, 2], [0, 4]]>] : !uop.void
  // CHECK: %[[OK:.*]] = uop.valid %[[SV]]
  %ok = uop.valid %sv
  // CHECK: %[[C:.*]] = uop.shaped_const %[[SV]], 1.000000e+00 : f32
  %c = uop.shaped_const %sv, 1.0 : f32
  // CHECK: %[[X:.*]] = uop.load %[[V]] : !uop.ptr<f32, 16>
  %x = uop.load %v : !uop.ptr<f32, 16>
  // CHECK: uop.where %[[OK]], %[[X]], %[[C]] : f32
  %w = uop.where %ok, %x, %c : f32
  // CHECK: uop.reduce_axis add %{{.*}} [1] : f32
  %r = uop.reduce_axis add %w [1] : f32
  // CHECK: uop.reduce_axis max %{{.*}} [1] : f32
  %m = uop.reduce_axis max %w [1] : f32
  // CHECK: uop.reduce_axis mul %{{.*}} [1] : f32
  %p = uop.reduce_axis mul %w [1] : f32
  %out = uop.define_global 1 : !uop.ptr<f32, 4>
  %ov = uop.view %out [#uop.view<shape = [4, 1], strides = [1, 0]>] : !uop.ptr<f32, 4>
  %rm = uop.add %r, %m : f32
  %rmp = uop.add %rm, %p : f32
  // CHECK: %[[ST:.*]] = uop.store
  %s = uop.store %ov, %rmp : !uop.ptr<f32, 4>
  // CHECK: uop.load %{{.*}} after %[[ST]] : !uop.ptr<f32, 4>
  %again = uop.load %ov after %s : !uop.ptr<f32, 4>
  uop.sink %s
}

// CHECK-LABEL: func.func @alu
func.func @alu(%f: f32, %g: f32, %i: si32, %j: si32, %u: ui32, %b: i1, %h: f16, %v: vector<4xf32>,
                %u64: ui64) {
  // CHECK: uop.exp2 %{{.*}} : f32
  %0 = uop.exp2 %f : f32
  // CHECK: uop.log2 %{{.*}} : f32
  %1 = uop.log2 %f : f32
  // CHECK: uop.sin %{{.*}} : f32
  %2 = uop.sin %f : f32
  // CHECK: uop.sqrt %{{.*}} : f16
  %3 = uop.sqrt %h : f16
  // CHECK: uop.recip %{{.*}} : vector<4xf32>
  %4 = uop.recip %v : vector<4xf32>
  // CHECK: uop.neg %{{.*}} : si32
  %5 = uop.neg %i : si32
  // CHECK: uop.add %{{.*}}, %{{.*}} : f32
  %6 = uop.add %f, %g : f32
  // CHECK: uop.sub %{{.*}}, %{{.*}} : si32
  %7 = uop.sub %i, %j : si32
  // CHECK: uop.mul %{{.*}}, %{{.*}} : vector<4xf32>
  %8 = uop.mul %v, %v : vector<4xf32>
  // CHECK: uop.fdiv %{{.*}}, %{{.*}} : f32
  %9 = uop.fdiv %f, %g : f32
  // CHECK: uop.idiv %{{.*}}, %{{.*}} : si32
  %10 = uop.idiv %i, %j : si32
  // CHECK: uop.mod %{{.*}}, %{{.*}} : ui32
  %11 = uop.mod %u, %u : ui32
  // CHECK: uop.max %{{.*}}, %{{.*}} : f32
  %12 = uop.max %f, %g : f32
  // CHECK: uop.pow %{{.*}}, %{{.*}} : f32
  %13 = uop.pow %f, %g : f32
  // CHECK: uop.shl %{{.*}}, %{{.*}} : si32, si32
  %14 = uop.shl %i, %j : si32, si32
  // CHECK: uop.shr %{{.*}}, %{{.*}} : si32, ui32
  %15 = uop.shr %i, %u : si32, ui32
  // CHECK: uop.and %{{.*}}, %{{.*}} : i1
  %16 = uop.and %b, %b : i1
  // CHECK: uop.or %{{.*}}, %{{.*}} : ui32
  %17 = uop.or %u, %u : ui32
  // CHECK: uop.xor %{{.*}}, %{{.*}} : si32
  %18 = uop.xor %i, %j : si32
  // CHECK: uop.threefry %{{.*}}, %{{.*}} : ui64
  %tf = uop.threefry %u64, %u64 : ui64
  // CHECK: uop.cmplt %{{.*}}, %{{.*}} : f32
  %19 = uop.cmplt %f, %g : f32
  // CHECK: uop.cmpne %{{.*}}, %{{.*}} : vector<4xf32>
  %20 = uop.cmpne %v, %v : vector<4xf32>
  // CHECK: uop.cmpeq %{{.*}}, %{{.*}} : si32
  %21 = uop.cmpeq %i, %j : si32
  // CHECK: uop.where %{{.*}}, %{{.*}}, %{{.*}} : vector<4xf32>
  %22 = uop.where %20, %v, %8 : vector<4xf32>
  // CHECK: uop.mulacc %{{.*}}, %{{.*}}, %{{.*}} : f32
  %23 = uop.mulacc %f, %g, %6 : f32
  // CHECK: uop.cast %{{.*}} : f32 -> f16
  %24 = uop.cast %f : f32 -> f16
  // CHECK: uop.cast %{{.*}} : vector<4xf32> -> vector<4xsi32>
  %25 = uop.cast %v : vector<4xf32> -> vector<4xsi32>
  // CHECK: uop.bitcast %{{.*}} : f32 -> ui32
  %26 = uop.bitcast %f : f32 -> ui32
  // CHECK: uop.bitcast %{{.*}} : vector<4xf32> -> vector<8xbf16>
  %27 = uop.bitcast %v : vector<4xf32> -> vector<8xbf16>
  // CHECK: uop.const -3 : si8
  %28 = uop.const -3 : si8
  // CHECK: uop.const 255 : ui8
  %29 = uop.const 255 : ui8
  // CHECK: uop.const true
  %30 = uop.const true
  // CHECK: uop.const 0x7F800000 : f32
  %31 = uop.const 0x7F800000 : f32
  // CHECK: uop.const 0x7FC00000 : f32
  %32 = uop.const 0x7FC00000 : f32
  // CHECK: uop.const dense<0.000000e+00> : vector<4xf32>
  %33 = uop.const dense<0.0> : vector<4xf32>
  // CHECK: uop.const 1.500000e+00 : bf16
  %34 = uop.const 1.5 : bf16
  // CHECK: uop.const 18446744073709551615 : ui64
  %35 = uop.const 18446744073709551615 : ui64
  // CHECK: uop.vconst dense<[0, 1, 2, 3]> : vector<4xsi32>
  %36 = uop.vconst dense<[0, 1, 2, 3]> : vector<4xsi32>
  // CHECK: uop.noop %{{.*}} : (f32) -> f32
  %37 = uop.noop %f : (f32) -> f32
  return
}

// CHECK-LABEL: func.func @vectors
func.func @vectors(%a: f32, %b: f32, %v: vector<4xf32>, %h: vector<8xf16>, %h4: vector<4xf16>) {
  // CHECK: uop.vectorize %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : f32
  %0 = uop.vectorize %a, %b, %a, %b : f32
  // CHECK: uop.gep %{{.*}} [2] : vector<4xf32>
  %1 = uop.gep %0 [2] : vector<4xf32>
  // CHECK: uop.gep %{{.*}} [0, 1] : vector<4xf32>
  %2 = uop.gep %0 [0, 1] : vector<4xf32>
  // CHECK: uop.cat %{{.*}}, %{{.*}} : vector<2xf32>, vector<2xf32>
  %3 = uop.cat %2, %2 : vector<2xf32>, vector<2xf32>
  // CHECK: uop.unroll %{{.*}} axes <(2, 4)> : vector<4xf32>
  %4 = uop.unroll %3 axes <(2, 4)> : vector<4xf32>
  // CHECK: uop.contract %{{.*}} axes <(3, 2), (4, 2)> : f32
  %5 = uop.contract %4 axes <(3, 2), (4, 2)> : f32
  %6 = uop.add %5, %v : vector<4xf32>
  // CHECK: uop.wmma %{{.*}}, %{{.*}}, %{{.*}} dims [8, 16, 16] device "CUDA" threads 32 upcast [#uop.axes<(8, 2), (9, 2), (10, 2)>, #uop.axes<(8, 2), (9, 2)>, #uop.axes<(9, 2), (10, 2)>] reduce [6, 7, 8, 9] : vector<8xf16>, vector<4xf16>, vector<4xf32>
  %7 = uop.wmma %h, %h4, %6 dims [8, 16, 16] device "CUDA" threads 32
         upcast [#uop.axes<(8, 2), (9, 2), (10, 2)>, #uop.axes<(8, 2), (9, 2)>, #uop.axes<(9, 2), (10, 2)>]
         reduce [6, 7, 8, 9] : vector<8xf16>, vector<4xf16>, vector<4xf32>
  return
}

// CHECK-LABEL: uop.kernel @lowered
uop.kernel @lowered {
  %g = uop.define_global 0 : !uop.ptr<f32, 64>
  %l = uop.define_local "temp0" : !uop.ptr<f32, 16, local>
  %lid = uop.special "lidx0" 16 : si32
  %c4 = uop.const 4 : si32
  %i = uop.mul %lid, %c4 : si32
  // CHECK: %[[LP:.*]] = uop.index %{{.*}}[%{{.*}}] : !uop.ptr<f32, 16, local>, si32
  %lp = uop.index %l[%lid] : !uop.ptr<f32, 16, local>, si32
  %zero = uop.const 0.0 : f32
  // CHECK: %[[LS:.*]] = uop.store %[[LP]], %{{.*}} : !uop.ptr<f32, 16, local>
  %ls = uop.store %lp, %zero : !uop.ptr<f32, 16, local>
  // CHECK: %[[B:.*]] = uop.barrier after %[[LS]]
  %b = uop.barrier after %ls
  // CHECK: uop.barrier{{$}}
  %b2 = uop.barrier
  // CHECK: uop.load %[[LP]] after %[[B]] : !uop.ptr<f32, 16, local>
  %lx = uop.load %lp after %b : !uop.ptr<f32, 16, local>
  %c8 = uop.const 8 : si32
  // CHECK: %[[OK:.*]] = uop.cmplt %{{.*}}, %{{.*}} : si32
  %ok = uop.cmplt %lid, %c8 : si32
  // CHECK: %[[GP:.*]] = uop.index %{{.*}}[%{{.*}}] gate %[[OK]] : i1 : !uop.ptr<f32, 64>, si32
  %gp = uop.index %g[%i] gate %ok : i1 : !uop.ptr<f32, 64>, si32
  // CHECK: uop.load %[[GP]] alt %{{.*}} : f32 : !uop.ptr<f32, 64>
  %gx = uop.load %gp alt %zero : f32 : !uop.ptr<f32, 64>
  %y = uop.add %gx, %lx : f32
  // CHECK: uop.store %[[GP]], %{{.*}} gate %[[OK]] : i1 : !uop.ptr<f32, 64>
  %s1 = uop.store %gp, %y gate %ok : i1 : !uop.ptr<f32, 64>
  // CHECK: %[[IF:.*]] = uop.if %[[OK]] after %[[B]]
  %if = uop.if %ok after %b
  // CHECK: uop.store %{{.*}}, %{{.*}} under %[[IF]] : !uop.ptr<f32, 64>
  %s2 = uop.store %gp, %y under %if : !uop.ptr<f32, 64>
  // CHECK: uop.endif %[[IF]]
  %ei = uop.endif %if
  // Vector access: a vector of offsets, a pointer cast for a float4 load.
  %iv = uop.vconst dense<[0, 1, 2, 3]> : vector<4xsi32>
  // CHECK: %[[VP:.*]] = uop.index %{{.*}}[%{{.*}}] : !uop.ptr<f32, 64>, vector<4xsi32>
  %vp = uop.index %g[%iv] : !uop.ptr<f32, 64>, vector<4xsi32>
  // CHECK: uop.load %[[VP]] : !uop.ptr<f32, 64, global, vec 4>
  %vx = uop.load %vp : !uop.ptr<f32, 64, global, vec 4>
  // CHECK: %[[P4:.*]] = uop.cast %{{.*}} : !uop.ptr<f32, 64> -> !uop.ptr<vector<4xf32>, 16>
  %p4 = uop.cast %gp : !uop.ptr<f32, 64> -> !uop.ptr<vector<4xf32>, 16>
  // CHECK: uop.load %[[P4]] : !uop.ptr<vector<4xf32>, 16>
  %x4 = uop.load %p4 : !uop.ptr<vector<4xf32>, 16>
  // CHECK: %[[PC:.*]] = uop.ptrcat %{{.*}}, %{{.*}} : !uop.ptr<f32, 64>, !uop.ptr<f32, 64>
  %pc = uop.ptrcat %gp, %gp : !uop.ptr<f32, 64>, !uop.ptr<f32, 64>
  // CHECK: uop.gep %[[PC]] [1] : !uop.ptr<f32, 64, global, vec 2>
  %p1 = uop.gep %pc [1] : !uop.ptr<f32, 64, global, vec 2>
  // CHECK: uop.vectorize %{{.*}}, %{{.*}} : !uop.ptr<f32, 64>
  %pv = uop.vectorize %gp, %gp : !uop.ptr<f32, 64>
  uop.sink %s1, %s2, %ei
}

// CHECK-LABEL: func.func @tensor_graph
func.func @tensor_graph() -> tensor<4x2xf32> {
  // CHECK: %[[BUF:.*]] = uop.buffer "CPU" unique 0 : tensor<16xf32>
  %b = uop.buffer "CPU" unique 0 : tensor<16xf32>
  // CHECK: %[[R:.*]] = uop.reshape %[[BUF]] : tensor<16xf32> -> tensor<4x4xf32>
  %r = uop.reshape %b : tensor<16xf32> -> tensor<4x4xf32>
  // CHECK: uop.permute %[[R]] [1, 0] : tensor<4x4xf32> -> tensor<4x4xf32>
  %p = uop.permute %r [1, 0] : tensor<4x4xf32> -> tensor<4x4xf32>
  // CHECK: %[[S:.*]] = uop.shrink %{{.*}} begin [0, 1] end [4, 3] : tensor<4x4xf32> -> tensor<4x2xf32>
  %s = uop.shrink %p begin [0, 1] end [4, 3] : tensor<4x4xf32> -> tensor<4x2xf32>
  // CHECK: uop.pad %[[S]] low [1, 0] high [0, 2] : tensor<4x2xf32> -> tensor<5x4xf32>
  %pd = uop.pad %s low [1, 0] high [0, 2] : tensor<4x2xf32> -> tensor<5x4xf32>
  // CHECK: uop.flip %{{.*}} [true, false] : tensor<5x4xf32>
  %f = uop.flip %pd [true, false] : tensor<5x4xf32>
  // CHECK: %[[RA:.*]] = uop.reduce_axis add %{{.*}} [0] : tensor<5x4xf32>
  %ra = uop.reduce_axis add %f [0] : tensor<5x4xf32>
  // CHECK: uop.expand %[[RA]] : tensor<1x4xf32> -> tensor<3x4xf32>
  %e = uop.expand %ra : tensor<1x4xf32> -> tensor<3x4xf32>
  // CHECK: uop.view %[[BUF]] [#uop.view<shape = [2, 8], strides = [8, 1]>] : tensor<16xf32> -> tensor<2x8xf32>
  %v = uop.view %b [#uop.view<shape = [2, 8], strides = [8, 1]>] : tensor<16xf32> -> tensor<2x8xf32>
  // CHECK: %[[C:.*]] = uop.contiguous %{{.*}} : tensor<4x2xf32>
  %c = uop.contiguous %s : tensor<4x2xf32>
  // CHECK: uop.copy %[[C]] to "CUDA" : tensor<4x2xf32>
  %cp = uop.copy %c to "CUDA" : tensor<4x2xf32>
  // ALU ops work on tensors too; comparisons give tensors of bool.
  // CHECK: %[[SUM:.*]] = uop.add %[[C]], %[[C]] : tensor<4x2xf32>
  %sum = uop.add %c, %c : tensor<4x2xf32>
  // CHECK: %[[LT:.*]] = uop.cmplt %[[C]], %[[SUM]] : tensor<4x2xf32>
  %lt = uop.cmplt %c, %sum : tensor<4x2xf32>
  // CHECK: uop.where %[[LT]], %[[C]], %[[SUM]] : tensor<4x2xf32>
  %sel = uop.where %lt, %c, %sum : tensor<4x2xf32>
  // CHECK: uop.cast %[[SUM]] : tensor<4x2xf32> -> tensor<4x2xf16>
  %h = uop.cast %sum : tensor<4x2xf32> -> tensor<4x2xf16>
  // CHECK: uop.const dense<1.000000e+00> : tensor<4x2xf32>
  %one = uop.const dense<1.0> : tensor<4x2xf32>
  // CHECK: uop.assign %[[C]], %{{.*}} : tensor<4x2xf32>, tensor<4x2xf32>
  %a = uop.assign %c, %cp : tensor<4x2xf32>, tensor<4x2xf32>
  // CHECK: uop.assign %[[C]], %{{.*}} after %{{.*}} : tensor<4x2xf32> : tensor<4x2xf32>, tensor<4x2xf32>
  %a2 = uop.assign %c, %cp after %a : tensor<4x2xf32> : tensor<4x2xf32>, tensor<4x2xf32>
  // CHECK: uop.detach %[[C]] : tensor<4x2xf32>
  %d = uop.detach %c : tensor<4x2xf32>
  // CHECK: uop.contiguous_backward %[[C]] : tensor<4x2xf32>
  %cb = uop.contiguous_backward %c : tensor<4x2xf32>
  // A tensor constant says its device (tinygrad's CONST(VIEW(DEVICE))).
  // CHECK: uop.const dense<2.000000e+00> : tensor<f32> {uop.device = "CPU"}
  %two = uop.const dense<2.0> : tensor<f32> {uop.device = "CPU"}
  // kernelize's fuse mark on a reduce.
  // CHECK: uop.reduce_axis add %[[C]] [1] fuse : tensor<4x2xf32>
  %rf = uop.reduce_axis add %c [1] fuse : tensor<4x2xf32>
  return %a2 : tensor<4x2xf32>
}

// A schedule (uop-kernelize's output): kernels run on memref buffers.
uop.kernel @fill {
  %0 = uop.define_global 0 : !uop.ptr<f32, 4>
  %1 = uop.view %0 [#uop.view<shape = [4], strides = [1]>] : !uop.ptr<f32, 4>
  %2 = uop.view [#uop.view<shape = [4], strides = [0]>] : !uop.void
  %3 = uop.shaped_const %2, 1.000000e+00 : f32
  %4 = uop.store %1, %3 : !uop.ptr<f32, 4>
  uop.sink %4
}
// CHECK-LABEL: func.func @schedule
// CHECK-SAME: {uop.device = "CPU", uop.unique = 0 : i64}
// CHECK-SAME: uop.outputs = [{st = #uop.st<[#uop.view<shape = [4], strides = [1]>]>, unique = 0 : i64}]
func.func @schedule(%out: memref<4xf32> {uop.device = "CPU", uop.unique = 0 : i64})
    attributes {uop.outputs = [{st = #uop.st<[#uop.view<shape = [4], strides = [1]>]>, unique = 0 : i64}]} {
  // CHECK: uop.exec @fill(%{{.*}}) : memref<4xf32>
  uop.exec @fill(%out) : memref<4xf32>
  return
}

// Staged tensor-core operands: a swizzled shared tile, the block's copy into
// it (AST form, VIEW operands), each thread's cp.async (lowered form, INDEX
// operands), commit and wait, and ldmatrix.
// CHECK-LABEL: uop.kernel @staged
uop.kernel @staged {
  %g = uop.define_global 0 : !uop.ptr<f16, 4096>
  // CHECK: uop.define_local "tc_a" {swizzle = #uop.swizzle<2, 4, 3>} : !uop.ptr<f16, 2048, local>
  %s = uop.define_local "tc_a" {swizzle = #uop.swizzle<2, 4, 3>} : !uop.ptr<f16, 2048, local>
  %gv = uop.view %g [#uop.view<shape = [2], strides = [2048]>] : !uop.ptr<f16, 4096>
  %sv = uop.view %s [#uop.view<shape = [2], strides = [0]>] : !uop.ptr<f16, 2048, local>
  // CHECK: %[[T:.*]] = uop.copy_tile %{{.*}}, %{{.*}} rows 64 cols 32 pitch 64, 32 : !uop.ptr<f16, 2048, local>, !uop.ptr<f16, 4096>
  %t = uop.copy_tile %sv, %gv rows 64 cols 32 pitch 64, 32 : !uop.ptr<f16, 2048, local>, !uop.ptr<f16, 4096>
  %i = uop.const 8 : si32
  %gi = uop.index %g[%i] : !uop.ptr<f16, 4096>, si32
  %si = uop.index %s[%i] : !uop.ptr<f16, 2048, local>, si32
  // CHECK: %[[C:.*]] = uop.async_copy %{{.*}}, %{{.*}} bytes 16 after %[[T]] : !uop.ptr<f16, 2048, local>, !uop.ptr<f16, 4096>
  %c = uop.async_copy %si, %gi bytes 16 after %t : !uop.ptr<f16, 2048, local>, !uop.ptr<f16, 4096>
  // CHECK: %[[G:.*]] = uop.async_commit after %[[C]]
  %cg = uop.async_commit after %c
  // CHECK: uop.async_commit{{$}}
  %empty = uop.async_commit
  // CHECK: %[[W:.*]] = uop.async_wait 1 after %[[G]]
  %w = uop.async_wait 1 after %cg
  %b = uop.barrier after %w
  // CHECK: uop.ldmatrix %{{.*}} count 4 after %{{.*}} : !uop.ptr<f16, 2048, local> -> vector<8xf16>
  %a = uop.ldmatrix %si count 4 after %b : !uop.ptr<f16, 2048, local> -> vector<8xf16>
  // CHECK: uop.ldmatrix %{{.*}} count 2 trans : !uop.ptr<f16, 2048, local> -> vector<4xf16>
  %bt = uop.ldmatrix %si count 2 trans : !uop.ptr<f16, 2048, local> -> vector<4xf16>
  uop.sink
}

// Hopper's TMA: a ring of mbarriers, initialized, announced and waited on;
// a tile copy in AST form (VIEW operands, the phase a sourceless VIEW) and
// lowered (INDEX operands, the box's column and row, the tensor map).
// CHECK-LABEL: uop.kernel @tma
uop.kernel @tma {
  %g = uop.define_global 0 : !uop.ptr<f16, 4096>
  %s = uop.define_local "t" {swizzle = #uop.swizzle<2, 4, 3>} : !uop.ptr<f16, 2048, local>
  %m = uop.define_local "bars" : !uop.ptr<si64, 2, local>
  %gv = uop.view %g [#uop.view<shape = [2], strides = [2048]>] : !uop.ptr<f16, 4096>
  %sv = uop.view %s [#uop.view<shape = [2], strides = [0]>] : !uop.ptr<f16, 2048, local>
  %mv = uop.view %m [#uop.view<shape = [2], strides = [1]>] : !uop.ptr<si64, 2, local>
  %pv = uop.view [#uop.view<shape = [2], strides = [1]>] : !uop.void
  // CHECK: %[[I:.*]] = uop.mbarrier_init %{{.*}} count 1 : !uop.ptr<si64, 2, local>
  %init = uop.mbarrier_init %mv count 1 : !uop.ptr<si64, 2, local>
  // CHECK: %[[E:.*]] = uop.mbarrier_expect_tx %{{.*}} bytes 4096 after %[[I]] : !uop.ptr<si64, 2, local>
  %e = uop.mbarrier_expect_tx %mv bytes 4096 after %init : !uop.ptr<si64, 2, local>
  // CHECK: %[[T:.*]] = uop.tensor_copy %{{.*}}, %{{.*}} rows 64 cols 32 pitch 64, %{{.*}} after %[[E]] : !uop.ptr<f16, 2048, local>, !uop.ptr<f16, 4096>, !uop.ptr<si64, 2, local>
  %t = uop.tensor_copy %sv, %gv rows 64 cols 32 pitch 64, %mv after %e : !uop.ptr<f16, 2048, local>, !uop.ptr<f16, 4096>, !uop.ptr<si64, 2, local>
  // CHECK: uop.mbarrier_wait %{{.*}}, %{{.*}} after %[[T]] : !uop.ptr<si64, 2, local>, !uop.void
  %w = uop.mbarrier_wait %mv, %pv after %t : !uop.ptr<si64, 2, local>, !uop.void
  %i = uop.const 0 : si32
  %gi = uop.index %g[%i] : !uop.ptr<f16, 4096>, si32
  %si = uop.index %s[%i] : !uop.ptr<f16, 2048, local>, si32
  %mi = uop.index %m[%i] : !uop.ptr<si64, 2, local>, si32
  // CHECK: uop.tensor_copy %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] map <buffer = 0, element = f16, sizes = [64, 64], strides = [128], box = [32, 64], swizzle = 64> rows 64 cols 32 pitch 64, %{{.*}} : !uop.ptr<f16, 2048, local>, !uop.ptr<f16, 4096>, !uop.ptr<si64, 2, local>, si32, si32
  %tl = uop.tensor_copy %si, %gi [%i, %i] map #uop.tensor_map<buffer = 0, element = f16, sizes = [64, 64], strides = [128], box = [32, 64], swizzle = 64> rows 64 cols 32 pitch 64, %mi : !uop.ptr<f16, 2048, local>, !uop.ptr<f16, 4096>, !uop.ptr<si64, 2, local>, si32, si32
  // CHECK: uop.mbarrier_wait %{{.*}}, %{{.*}} : !uop.ptr<si64, 2, local>, si32
  %wl = uop.mbarrier_wait %mi, %i : !uop.ptr<si64, 2, local>, si32
  // In a cluster: a share multicast to the blocks of mask 5 << shift (the
  // shift a sourceless VIEW, then an integer), and the cluster's barrier.
  // CHECK: uop.tensor_copy %{{.*}}, %{{.*}} rows 32 cols 32 pitch 64, %{{.*}} multicast 5 shl %{{.*}} : !uop.void : !uop.ptr<f16, 2048, local>, !uop.ptr<f16, 4096>, !uop.ptr<si64, 2, local>
  %tm = uop.tensor_copy %sv, %gv rows 32 cols 32 pitch 64, %mv multicast 5 shl %pv : !uop.void : !uop.ptr<f16, 2048, local>, !uop.ptr<f16, 4096>, !uop.ptr<si64, 2, local>
  // CHECK: uop.tensor_copy %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] map <{{.*}}> rows 32 cols 32 pitch 64, %{{.*}} multicast 5 shl %{{.*}} : si32 : !uop.ptr<f16, 2048, local>, !uop.ptr<f16, 4096>, !uop.ptr<si64, 2, local>, si32, si32
  %tml = uop.tensor_copy %si, %gi [%i, %i] map #uop.tensor_map<buffer = 0, element = f16, sizes = [64, 64], strides = [128], box = [32, 32], swizzle = 64> rows 32 cols 32 pitch 64, %mi multicast 5 shl %i : si32 : !uop.ptr<f16, 2048, local>, !uop.ptr<f16, 4096>, !uop.ptr<si64, 2, local>, si32, si32
  // CHECK: uop.barrier cluster after %{{.*}}, %{{.*}}{{$}}
  %cb = uop.barrier cluster after %tm, %tml
  uop.sink
}

// Hopper's wgmma: fence, the multiply with each tile's descriptor layout,
// commit, wait (which gives the retired accumulator), and the proxy fence.
// CHECK-LABEL: uop.kernel @wgmma
uop.kernel @wgmma {
  %sa = uop.define_local "a" : !uop.ptr<f16, 4096, local>
  %sb = uop.define_local "b" : !uop.ptr<f16, 8192, local>
  %i = uop.const 0 : si32
  %a = uop.index %sa[%i] : !uop.ptr<f16, 4096, local>, si32
  %b = uop.index %sb[%i] : !uop.ptr<f16, 8192, local>, si32
  %z = uop.const 0.0 : f32
  %acc = uop.vectorize %z, %z, %z, %z : f32
  // CHECK: %[[P:.*]] = uop.fence_proxy_async{{$}}
  %p = uop.fence_proxy_async
  %bar = uop.barrier after %p
  // CHECK: %[[F:.*]] = uop.wgmma_fence after %{{.*}}
  %f = uop.wgmma_fence after %bar
  // CHECK: %[[D:.*]] = uop.wgmma %{{.*}}, %{{.*}}[<k, swizzle = 128, lbo = 16, sbo = 1024>], %{{.*}}[<mn, swizzle = 0, lbo = 128, sbo = 256>] zero_acc after %[[F]] : !uop.ptr<f16, 4096, local>, !uop.ptr<f16, 8192, local> -> vector<4xf32>
  %d = uop.wgmma %acc, %a [#uop.wgmma_tile<k, swizzle = 128, lbo = 16, sbo = 1024>], %b [#uop.wgmma_tile<mn, swizzle = 0, lbo = 128, sbo = 256>] zero_acc after %f : !uop.ptr<f16, 4096, local>, !uop.ptr<f16, 8192, local> -> vector<4xf32>
  // CHECK: %[[C:.*]] = uop.wgmma_commit %[[D]] : vector<4xf32>
  %c = uop.wgmma_commit %d : vector<4xf32>
  // CHECK: uop.wgmma_wait 0, %[[D]] after %[[C]] : vector<4xf32>
  %r = uop.wgmma_wait 0, %d after %c : vector<4xf32>
  uop.sink
}

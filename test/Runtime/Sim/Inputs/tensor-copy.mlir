// GPU-level kernels for ../tensor-copy.test: TMA tensor copies
// (cp.async.bulk.tensor, tile mode) on the simulator. Each good kernel
// copies boxes of its tensor map into shared memory, completing on one
// mbarrier, and writes the shared memory out as it lies: buffer 0 is out,
// buffer 1 the tensor.
module attributes {gpu.container_module, uop.launch = {
    sw128_f32_2d = {grid = array<i32: 1, 1, 1>, block = array<i32: 128, 1, 1>, tensor_maps = [
      #uop.tensor_map<buffer = 1, element = f32, sizes = [40, 20], strides = [160], box = [32, 8], swizzle = 128>]},
    sw64_f16_3d = {grid = array<i32: 1, 1, 1>, block = array<i32: 128, 1, 1>, tensor_maps = [
      #uop.tensor_map<buffer = 1, element = f16, sizes = [32, 6, 4], strides = [64, 384], box = [32, 4, 2], swizzle = 64>]},
    none_f32_1d = {grid = array<i32: 1, 1, 1>, block = array<i32: 16, 1, 1>, tensor_maps = [
      #uop.tensor_map<buffer = 1, element = f32, sizes = [100], strides = [], box = [16], swizzle = 0>]},
    wrong_rank = {grid = array<i32: 1, 1, 1>, block = array<i32: 1, 1, 1>, tensor_maps = [
      #uop.tensor_map<buffer = 1, element = f32, sizes = [8, 8], strides = [32], box = [4, 4], swizzle = 0>]},
    unaligned = {grid = array<i32: 1, 1, 1>, block = array<i32: 1, 1, 1>, tensor_maps = [
      #uop.tensor_map<buffer = 1, element = f32, sizes = [100], strides = [], box = [16], swizzle = 0>]},
    not_a_map = {grid = array<i32: 1, 1, 1>, block = array<i32: 1, 1, 1>, tensor_maps = [
      #uop.tensor_map<buffer = 1, element = f32, sizes = [100], strides = [], box = [16], swizzle = 0>]},
    outside_shared = {grid = array<i32: 1, 1, 1>, block = array<i32: 1, 1, 1>, tensor_maps = [
      #uop.tensor_map<buffer = 1, element = f32, sizes = [100], strides = [], box = [64], swizzle = 0>]}}} {

  // Boxes of 8 rows of 32 floats at (16, 16) and (-8, -4), 128B-swizzled,
  // to shared bytes 0 and 1152; out[0..255] and out[256..511] are their
  // 1024 bytes each.
  gpu.module @sw128_f32_2d {
    llvm.mlir.global internal @buf() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<640 x f32>
    llvm.mlir.global internal @bar() {addr_space = 3 : i32, alignment = 8 : i64} : i64
    llvm.func @sw128_f32_2d(%out: !llvm.ptr, %in: !llvm.ptr, %map: !llvm.ptr) attributes {nvvm.kernel} {
      %c0 = llvm.mlir.constant(0 : i32) : i32
      %c1 = llvm.mlir.constant(1 : i32) : i32
      %c16 = llvm.mlir.constant(16 : i32) : i32
      %cm8 = llvm.mlir.constant(-8 : i32) : i32
      %cm4 = llvm.mlir.constant(-4 : i32) : i32
      %c128 = llvm.mlir.constant(128 : i32) : i32
      %c256 = llvm.mlir.constant(256 : i32) : i32
      %c288 = llvm.mlir.constant(288 : i32) : i32
      %bytes = llvm.mlir.constant(2048 : i32) : i32
      %ticks = llvm.mlir.constant(1000000 : i32) : i32
      %t = nvvm.read.ptx.sreg.tid.x : i32
      %buf = llvm.mlir.addressof @buf : !llvm.ptr<3>
      %bar = llvm.mlir.addressof @bar : !llvm.ptr<3>
      %lead = llvm.icmp "eq" %t, %c0 : i32
      llvm.cond_br %lead, ^init, ^start
    ^init:
      nvvm.mbarrier.init %bar, %c1 : !llvm.ptr<3>, i32
      llvm.br ^start
    ^start:
      nvvm.barrier0
      llvm.cond_br %lead, ^copy, ^wait
    ^copy:
      nvvm.mbarrier.arrive.expect_tx %bar, %bytes : !llvm.ptr<3>, i32
      %a = llvm.addrspacecast %buf : !llvm.ptr<3> to !llvm.ptr<7>
      %bs = llvm.getelementptr %buf[0, 288] : (!llvm.ptr<3>) -> !llvm.ptr<3>, !llvm.array<640 x f32>
      %b = llvm.addrspacecast %bs : !llvm.ptr<3> to !llvm.ptr<7>
      nvvm.cp.async.bulk.tensor.shared.cluster.global %a, %map, %bar, box[%c16, %c16] : !llvm.ptr<7>, !llvm.ptr
      nvvm.cp.async.bulk.tensor.shared.cluster.global %b, %map, %bar, box[%cm8, %cm4] : !llvm.ptr<7>, !llvm.ptr
      llvm.br ^wait
    ^wait:
      nvvm.mbarrier.try_wait.parity %bar, %c0, %ticks : !llvm.ptr<3>, i32, i32
      llvm.br ^loop(%c0 : i32)
    ^loop(%i: i32):
      %more = llvm.icmp "slt" %i, %c256 : i32
      llvm.cond_br %more, ^body, ^exit
    ^body:
      // out[j] = shared word j (box A), out[256 + j] = shared word 288 + j (box B)
      %j = llvm.add %i, %t : i32
      %pa = llvm.getelementptr %buf[0, %j] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, !llvm.array<640 x f32>
      %va = llvm.load %pa : !llvm.ptr<3> -> f32
      %oa = llvm.getelementptr %out[%j] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      llvm.store %va, %oa : f32, !llvm.ptr
      %jb = llvm.add %j, %c288 : i32
      %pb = llvm.getelementptr %buf[0, %jb] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, !llvm.array<640 x f32>
      %vb = llvm.load %pb : !llvm.ptr<3> -> f32
      %ob = llvm.add %j, %c256 : i32
      %pob = llvm.getelementptr %out[%ob] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      llvm.store %vb, %pob : f32, !llvm.ptr
      %next = llvm.add %i, %c128 : i32
      llvm.br ^loop(%next : i32)
    ^exit:
      llvm.return
    }
  }

  // A box of 2 x 4 rows of 32 halves at (0, 3, 3), 64B-swizzled; out is
  // its 512 bytes.
  gpu.module @sw64_f16_3d {
    llvm.mlir.global internal @buf() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<256 x f16>
    llvm.mlir.global internal @bar() {addr_space = 3 : i32, alignment = 8 : i64} : i64
    llvm.func @sw64_f16_3d(%out: !llvm.ptr, %in: !llvm.ptr, %map: !llvm.ptr) attributes {nvvm.kernel} {
      %c0 = llvm.mlir.constant(0 : i32) : i32
      %c1 = llvm.mlir.constant(1 : i32) : i32
      %c3 = llvm.mlir.constant(3 : i32) : i32
      %c128 = llvm.mlir.constant(128 : i32) : i32
      %bytes = llvm.mlir.constant(512 : i32) : i32
      %ticks = llvm.mlir.constant(1000000 : i32) : i32
      %t = nvvm.read.ptx.sreg.tid.x : i32
      %buf = llvm.mlir.addressof @buf : !llvm.ptr<3>
      %bar = llvm.mlir.addressof @bar : !llvm.ptr<3>
      %lead = llvm.icmp "eq" %t, %c0 : i32
      llvm.cond_br %lead, ^init, ^start
    ^init:
      nvvm.mbarrier.init %bar, %c1 : !llvm.ptr<3>, i32
      llvm.br ^start
    ^start:
      nvvm.barrier0
      llvm.cond_br %lead, ^copy, ^wait
    ^copy:
      nvvm.mbarrier.arrive.expect_tx %bar, %bytes : !llvm.ptr<3>, i32
      %a = llvm.addrspacecast %buf : !llvm.ptr<3> to !llvm.ptr<7>
      nvvm.cp.async.bulk.tensor.shared.cluster.global %a, %map, %bar, box[%c0, %c3, %c3] : !llvm.ptr<7>, !llvm.ptr
      llvm.br ^wait
    ^wait:
      nvvm.mbarrier.try_wait.parity %bar, %c0, %ticks : !llvm.ptr<3>, i32, i32
      %j1 = llvm.add %t, %c128 : i32
      %p0 = llvm.getelementptr %buf[0, %t] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, !llvm.array<256 x f16>
      %p1 = llvm.getelementptr %buf[0, %j1] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, !llvm.array<256 x f16>
      %v0 = llvm.load %p0 : !llvm.ptr<3> -> f16
      %v1 = llvm.load %p1 : !llvm.ptr<3> -> f16
      %o0 = llvm.getelementptr %out[%t] : (!llvm.ptr, i32) -> !llvm.ptr, f16
      %o1 = llvm.getelementptr %out[%j1] : (!llvm.ptr, i32) -> !llvm.ptr, f16
      llvm.store %v0, %o0 : f16, !llvm.ptr
      llvm.store %v1, %o1 : f16, !llvm.ptr
      llvm.return
    }
  }

  // A box of 16 floats at 90, unswizzled: the last 6 are past the end.
  gpu.module @none_f32_1d {
    llvm.mlir.global internal @buf() {addr_space = 3 : i32, alignment = 128 : i64} : !llvm.array<16 x f32>
    llvm.mlir.global internal @bar() {addr_space = 3 : i32, alignment = 8 : i64} : i64
    llvm.func @none_f32_1d(%out: !llvm.ptr, %in: !llvm.ptr, %map: !llvm.ptr) attributes {nvvm.kernel} {
      %c0 = llvm.mlir.constant(0 : i32) : i32
      %c1 = llvm.mlir.constant(1 : i32) : i32
      %c90 = llvm.mlir.constant(90 : i32) : i32
      %bytes = llvm.mlir.constant(64 : i32) : i32
      %ticks = llvm.mlir.constant(1000000 : i32) : i32
      %t = nvvm.read.ptx.sreg.tid.x : i32
      %buf = llvm.mlir.addressof @buf : !llvm.ptr<3>
      %bar = llvm.mlir.addressof @bar : !llvm.ptr<3>
      %lead = llvm.icmp "eq" %t, %c0 : i32
      llvm.cond_br %lead, ^init, ^start
    ^init:
      nvvm.mbarrier.init %bar, %c1 : !llvm.ptr<3>, i32
      llvm.br ^start
    ^start:
      nvvm.barrier0
      llvm.cond_br %lead, ^copy, ^wait
    ^copy:
      nvvm.mbarrier.arrive.expect_tx %bar, %bytes : !llvm.ptr<3>, i32
      %a = llvm.addrspacecast %buf : !llvm.ptr<3> to !llvm.ptr<7>
      nvvm.cp.async.bulk.tensor.shared.cluster.global %a, %map, %bar, box[%c90] : !llvm.ptr<7>, !llvm.ptr
      llvm.br ^wait
    ^wait:
      nvvm.mbarrier.try_wait.parity %bar, %c0, %ticks : !llvm.ptr<3>, i32, i32
      %p = llvm.getelementptr %buf[0, %t] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, !llvm.array<16 x f32>
      %v = llvm.load %p : !llvm.ptr<3> -> f32
      %o = llvm.getelementptr %out[%t] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      llvm.store %v, %o : f32, !llvm.ptr
      llvm.return
    }
  }

  // Misuses, each one copy by one thread. A 1d copy with a 2d map:
  gpu.module @wrong_rank {
    llvm.mlir.global internal @buf() {addr_space = 3 : i32, alignment = 128 : i64} : !llvm.array<16 x f32>
    llvm.mlir.global internal @bar() {addr_space = 3 : i32, alignment = 8 : i64} : i64
    llvm.func @wrong_rank(%out: !llvm.ptr, %in: !llvm.ptr, %map: !llvm.ptr) attributes {nvvm.kernel} {
      %c0 = llvm.mlir.constant(0 : i32) : i32
      %c1 = llvm.mlir.constant(1 : i32) : i32
      %buf = llvm.mlir.addressof @buf : !llvm.ptr<3>
      %bar = llvm.mlir.addressof @bar : !llvm.ptr<3>
      nvvm.mbarrier.init %bar, %c1 : !llvm.ptr<3>, i32
      %a = llvm.addrspacecast %buf : !llvm.ptr<3> to !llvm.ptr<7>
      nvvm.cp.async.bulk.tensor.shared.cluster.global %a, %map, %bar, box[%c0] : !llvm.ptr<7>, !llvm.ptr
      llvm.return
    }
  }

  // A box to shared byte 16, not on a 128-byte boundary:
  gpu.module @unaligned {
    llvm.mlir.global internal @buf() {addr_space = 3 : i32, alignment = 128 : i64} : !llvm.array<32 x f32>
    llvm.mlir.global internal @bar() {addr_space = 3 : i32, alignment = 8 : i64} : i64
    llvm.func @unaligned(%out: !llvm.ptr, %in: !llvm.ptr, %map: !llvm.ptr) attributes {nvvm.kernel} {
      %c0 = llvm.mlir.constant(0 : i32) : i32
      %c1 = llvm.mlir.constant(1 : i32) : i32
      %buf = llvm.mlir.addressof @buf : !llvm.ptr<3>
      %bar = llvm.mlir.addressof @bar : !llvm.ptr<3>
      nvvm.mbarrier.init %bar, %c1 : !llvm.ptr<3>, i32
      %s = llvm.getelementptr %buf[0, 4] : (!llvm.ptr<3>) -> !llvm.ptr<3>, !llvm.array<32 x f32>
      %a = llvm.addrspacecast %s : !llvm.ptr<3> to !llvm.ptr<7>
      nvvm.cp.async.bulk.tensor.shared.cluster.global %a, %map, %bar, box[%c0] : !llvm.ptr<7>, !llvm.ptr
      llvm.return
    }
  }

  // A buffer's address given as the tensor map:
  gpu.module @not_a_map {
    llvm.mlir.global internal @buf() {addr_space = 3 : i32, alignment = 128 : i64} : !llvm.array<16 x f32>
    llvm.mlir.global internal @bar() {addr_space = 3 : i32, alignment = 8 : i64} : i64
    llvm.func @not_a_map(%out: !llvm.ptr, %in: !llvm.ptr, %map: !llvm.ptr) attributes {nvvm.kernel} {
      %c0 = llvm.mlir.constant(0 : i32) : i32
      %c1 = llvm.mlir.constant(1 : i32) : i32
      %buf = llvm.mlir.addressof @buf : !llvm.ptr<3>
      %bar = llvm.mlir.addressof @bar : !llvm.ptr<3>
      nvvm.mbarrier.init %bar, %c1 : !llvm.ptr<3>, i32
      %a = llvm.addrspacecast %buf : !llvm.ptr<3> to !llvm.ptr<7>
      nvvm.cp.async.bulk.tensor.shared.cluster.global %a, %in, %bar, box[%c0] : !llvm.ptr<7>, !llvm.ptr
      llvm.return
    }
  }

  // A 256-byte box into a 64-byte shared variable:
  gpu.module @outside_shared {
    llvm.mlir.global internal @buf() {addr_space = 3 : i32, alignment = 128 : i64} : !llvm.array<16 x f32>
    llvm.mlir.global internal @bar() {addr_space = 3 : i32, alignment = 8 : i64} : i64
    llvm.func @outside_shared(%out: !llvm.ptr, %in: !llvm.ptr, %map: !llvm.ptr) attributes {nvvm.kernel} {
      %c0 = llvm.mlir.constant(0 : i32) : i32
      %c1 = llvm.mlir.constant(1 : i32) : i32
      %buf = llvm.mlir.addressof @buf : !llvm.ptr<3>
      %bar = llvm.mlir.addressof @bar : !llvm.ptr<3>
      nvvm.mbarrier.init %bar, %c1 : !llvm.ptr<3>, i32
      %a = llvm.addrspacecast %buf : !llvm.ptr<3> to !llvm.ptr<7>
      nvvm.cp.async.bulk.tensor.shared.cluster.global %a, %map, %bar, box[%c0] : !llvm.ptr<7>, !llvm.ptr
      llvm.return
    }
  }
}

// GPU-level kernels for ../mbarrier.test: mbarriers and cp.async.bulk on the
// simulator. Buffers: 0 = out (f32[64]), 1 = in (f32[256], 0..255).
module attributes {gpu.container_module, uop.launch = {
    pipeline = {grid = array<i32: 2, 1, 1>, block = array<i32: 64, 1, 1>},
    test_wait = {grid = array<i32: 1, 1, 1>, block = array<i32: 64, 1, 1>},
    read_unwaited = {grid = array<i32: 1, 1, 1>, block = array<i32: 64, 1, 1>},
    read_in_flight = {grid = array<i32: 1, 1, 1>, block = array<i32: 1, 1, 1>},
    short_tx = {grid = array<i32: 1, 1, 1>, block = array<i32: 64, 1, 1>},
    missing_arrival = {grid = array<i32: 1, 1, 1>, block = array<i32: 64, 1, 1>},
    no_init = {grid = array<i32: 1, 1, 1>, block = array<i32: 1, 1, 1>},
    extra_arrivals = {grid = array<i32: 1, 1, 1>, block = array<i32: 1, 1, 1>},
    store_to_mbarrier = {grid = array<i32: 1, 1, 1>, block = array<i32: 1, 1, 1>},
    odd_bytes = {grid = array<i32: 1, 1, 1>, block = array<i32: 1, 1, 1>}}} {

  // out[t] = in[t] + in[64 + t] + in[128 + t] + in[192 + t], the four
  // 64-float chunks streamed through two shared stages: thread 0 copies
  // chunk c into stage c % 2 with cp.async.bulk, completing on full[c % 2];
  // every thread waits for that phase (parity (c / 2) % 2), adds its
  // element and arrives on empty[c % 2]; before refilling a stage thread 0
  // waits for the 64 arrivals of the chunk before. Wrong without the
  // phases: a thread would read a stage before its chunk landed (the
  // simulator's 0xA5 garbage, or the chunk before) or thread 0 overwrite
  // one still being read.
  gpu.module @pipeline {
    llvm.mlir.global internal @buf() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<128 x f32>
    llvm.mlir.global internal @full() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>
    llvm.mlir.global internal @empty() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>
    llvm.func @pipeline(%out: !llvm.ptr, %in: !llvm.ptr) attributes {nvvm.kernel} {
      %c0 = llvm.mlir.constant(0 : i32) : i32
      %c1 = llvm.mlir.constant(1 : i32) : i32
      %c2 = llvm.mlir.constant(2 : i32) : i32
      %c4 = llvm.mlir.constant(4 : i32) : i32
      %c64 = llvm.mlir.constant(64 : i32) : i32
      %bytes = llvm.mlir.constant(256 : i32) : i32
      %ticks = llvm.mlir.constant(1000000 : i32) : i32
      %zero = llvm.mlir.constant(0.0 : f32) : f32
      %t = nvvm.read.ptx.sreg.tid.x : i32
      %buf = llvm.mlir.addressof @buf : !llvm.ptr<3>
      %full = llvm.mlir.addressof @full : !llvm.ptr<3>
      %empty = llvm.mlir.addressof @empty : !llvm.ptr<3>
      %full1 = llvm.getelementptr %full[0, 1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, !llvm.array<2 x i64>
      %empty1 = llvm.getelementptr %empty[0, 1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, !llvm.array<2 x i64>
      %global = llvm.addrspacecast %in : !llvm.ptr to !llvm.ptr<1>
      %lead = llvm.icmp "eq" %t, %c0 : i32
      llvm.cond_br %lead, ^init, ^start
    ^init:
      nvvm.mbarrier.init %full, %c1 : !llvm.ptr<3>, i32
      nvvm.mbarrier.init %full1, %c1 : !llvm.ptr<3>, i32
      nvvm.mbarrier.init %empty, %c64 : !llvm.ptr<3>, i32
      nvvm.mbarrier.init %empty1, %c64 : !llvm.ptr<3>, i32
      llvm.br ^start
    ^start:
      nvvm.barrier0
      llvm.br ^loop(%c0, %zero : i32, f32)
    ^loop(%c: i32, %acc: f32):
      %more = llvm.icmp "slt" %c, %c4 : i32
      llvm.cond_br %more, ^body, ^exit
    ^body:
      %s = llvm.and %c, %c1 : i32
      %round = llvm.lshr %c, %c1 : i32
      %parity = llvm.and %round, %c1 : i32
      %fullS = llvm.getelementptr %full[0, %s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, !llvm.array<2 x i64>
      %emptyS = llvm.getelementptr %empty[0, %s] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, !llvm.array<2 x i64>
      %stage = llvm.mul %s, %c64 : i32
      llvm.cond_br %lead, ^produce, ^consume
    ^produce:
      %reuse = llvm.icmp "sge" %c, %c2 : i32
      llvm.cond_br %reuse, ^drain, ^copy
    ^drain:
      %before = llvm.xor %parity, %c1 : i32
      nvvm.mbarrier.try_wait.parity %emptyS, %before, %ticks : !llvm.ptr<3>, i32, i32
      llvm.br ^copy
    ^copy:
      nvvm.mbarrier.arrive.expect_tx %fullS, %bytes : !llvm.ptr<3>, i32
      %dst = llvm.getelementptr %buf[0, %stage] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, !llvm.array<128 x f32>
      %first = llvm.mul %c, %c64 : i32
      %src = llvm.getelementptr %global[%first] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
      %cl_dst = llvm.addrspacecast %dst : !llvm.ptr<3> to !llvm.ptr<7>
      nvvm.cp.async.bulk.shared.cluster.global %cl_dst, %src, %fullS, %bytes : !llvm.ptr<7>, !llvm.ptr<1>
      llvm.br ^consume
    ^consume:
      nvvm.mbarrier.try_wait.parity %fullS, %parity, %ticks : !llvm.ptr<3>, i32, i32
      %i = llvm.add %stage, %t : i32
      %p = llvm.getelementptr %buf[0, %i] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, !llvm.array<128 x f32>
      %v = llvm.load %p : !llvm.ptr<3> -> f32
      %acc2 = llvm.fadd %acc, %v : f32
      nvvm.mbarrier.arrive %emptyS : !llvm.ptr<3>
      %next = llvm.add %c, %c1 : i32
      llvm.br ^loop(%next, %acc2 : i32, f32)
    ^exit:
      %o = llvm.getelementptr %out[%t] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      llvm.store %acc, %o : f32, !llvm.ptr
      llvm.return
    }
  }

  // test_wait with arrive's state token, spinning: every thread arrives,
  // then polls until the phase it arrived in completes (the last arrival
  // completes it); out[t] = in[t] read after a bulk copy thread 0 issued
  // before arriving.
  gpu.module @test_wait {
    llvm.mlir.global internal @buf() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<64 x f32>
    llvm.mlir.global internal @bar() {addr_space = 3 : i32, alignment = 8 : i64} : i64
    llvm.func @test_wait(%out: !llvm.ptr, %in: !llvm.ptr) attributes {nvvm.kernel} {
      %c0 = llvm.mlir.constant(0 : i32) : i32
      %c64 = llvm.mlir.constant(64 : i32) : i32
      %bytes = llvm.mlir.constant(256 : i32) : i32
      %t = nvvm.read.ptx.sreg.tid.x : i32
      %buf = llvm.mlir.addressof @buf : !llvm.ptr<3>
      %bar = llvm.mlir.addressof @bar : !llvm.ptr<3>
      %global = llvm.addrspacecast %in : !llvm.ptr to !llvm.ptr<1>
      %lead = llvm.icmp "eq" %t, %c0 : i32
      llvm.cond_br %lead, ^init, ^start
    ^init:
      nvvm.mbarrier.init %bar, %c64 : !llvm.ptr<3>, i32
      llvm.br ^start
    ^start:
      nvvm.barrier0
      llvm.cond_br %lead, ^copy, ^arrive
    ^copy:
      nvvm.mbarrier.expect_tx %bar, %bytes : !llvm.ptr<3>, i32
      %cl_buf = llvm.addrspacecast %buf : !llvm.ptr<3> to !llvm.ptr<7>
      nvvm.cp.async.bulk.shared.cluster.global %cl_buf, %global, %bar, %bytes : !llvm.ptr<7>, !llvm.ptr<1>
      llvm.br ^arrive
    ^arrive:
      %token = nvvm.mbarrier.arrive %bar : !llvm.ptr<3> -> i64
      llvm.br ^poll
    ^poll:
      %done = nvvm.mbarrier.test.wait %bar, %token : !llvm.ptr<3>, i64 -> i1
      llvm.cond_br %done, ^read, ^poll
    ^read:
      %p = llvm.getelementptr %buf[0, %t] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, !llvm.array<64 x f32>
      %v = llvm.load %p : !llvm.ptr<3> -> f32
      %o = llvm.getelementptr %out[%t] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      llvm.store %v, %o : f32, !llvm.ptr
      llvm.return
    }
  }

  // Thread 0 copies and waits; the others read without waiting: the data
  // has landed (the phase completed) but is not theirs to read yet.
  gpu.module @read_unwaited {
    llvm.mlir.global internal @buf() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<64 x f32>
    llvm.mlir.global internal @bar() {addr_space = 3 : i32, alignment = 8 : i64} : i64
    llvm.func @read_unwaited(%out: !llvm.ptr, %in: !llvm.ptr) attributes {nvvm.kernel} {
      %c0 = llvm.mlir.constant(0 : i32) : i32
      %c1 = llvm.mlir.constant(1 : i32) : i32
      %bytes = llvm.mlir.constant(256 : i32) : i32
      %ticks = llvm.mlir.constant(1000000 : i32) : i32
      %t = nvvm.read.ptx.sreg.tid.x : i32
      %buf = llvm.mlir.addressof @buf : !llvm.ptr<3>
      %bar = llvm.mlir.addressof @bar : !llvm.ptr<3>
      %global = llvm.addrspacecast %in : !llvm.ptr to !llvm.ptr<1>
      %lead = llvm.icmp "eq" %t, %c0 : i32
      llvm.cond_br %lead, ^copy, ^start
    ^copy:
      nvvm.mbarrier.init %bar, %c1 : !llvm.ptr<3>, i32
      nvvm.mbarrier.arrive.expect_tx %bar, %bytes : !llvm.ptr<3>, i32
      %cl_buf = llvm.addrspacecast %buf : !llvm.ptr<3> to !llvm.ptr<7>
      nvvm.cp.async.bulk.shared.cluster.global %cl_buf, %global, %bar, %bytes : !llvm.ptr<7>, !llvm.ptr<1>
      nvvm.mbarrier.try_wait.parity %bar, %c0, %ticks : !llvm.ptr<3>, i32, i32
      llvm.br ^start
    ^start:
      %p = llvm.getelementptr %buf[0, %t] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, !llvm.array<64 x f32>
      %v = llvm.load %p : !llvm.ptr<3> -> f32
      %o = llvm.getelementptr %out[%t] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      llvm.store %v, %o : f32, !llvm.ptr
      llvm.return
    }
  }

  // The copy is issued before the arrival that announces its bytes: the
  // phase has not completed when the thread reads, so nothing has landed.
  gpu.module @read_in_flight {
    llvm.mlir.global internal @buf() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<64 x f32>
    llvm.mlir.global internal @bar() {addr_space = 3 : i32, alignment = 8 : i64} : i64
    llvm.func @read_in_flight(%out: !llvm.ptr, %in: !llvm.ptr) attributes {nvvm.kernel} {
      %c1 = llvm.mlir.constant(1 : i32) : i32
      %bytes = llvm.mlir.constant(256 : i32) : i32
      %buf = llvm.mlir.addressof @buf : !llvm.ptr<3>
      %bar = llvm.mlir.addressof @bar : !llvm.ptr<3>
      %global = llvm.addrspacecast %in : !llvm.ptr to !llvm.ptr<1>
      nvvm.mbarrier.init %bar, %c1 : !llvm.ptr<3>, i32
      %cl_buf = llvm.addrspacecast %buf : !llvm.ptr<3> to !llvm.ptr<7>
      nvvm.cp.async.bulk.shared.cluster.global %cl_buf, %global, %bar, %bytes : !llvm.ptr<7>, !llvm.ptr<1>
      %v = llvm.load %buf : !llvm.ptr<3> -> f32
      llvm.store %v, %out : f32, !llvm.ptr
      nvvm.mbarrier.arrive.expect_tx %bar, %bytes : !llvm.ptr<3>, i32
      llvm.return
    }
  }

  // expect_tx announces 128 bytes, the copy brings 256: the transaction
  // count ends at -128 and the phase never completes.
  gpu.module @short_tx {
    llvm.mlir.global internal @buf() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<64 x f32>
    llvm.mlir.global internal @bar() {addr_space = 3 : i32, alignment = 8 : i64} : i64
    llvm.func @short_tx(%out: !llvm.ptr, %in: !llvm.ptr) attributes {nvvm.kernel} {
      %c0 = llvm.mlir.constant(0 : i32) : i32
      %c1 = llvm.mlir.constant(1 : i32) : i32
      %half = llvm.mlir.constant(128 : i32) : i32
      %bytes = llvm.mlir.constant(256 : i32) : i32
      %ticks = llvm.mlir.constant(1000000 : i32) : i32
      %t = nvvm.read.ptx.sreg.tid.x : i32
      %buf = llvm.mlir.addressof @buf : !llvm.ptr<3>
      %bar = llvm.mlir.addressof @bar : !llvm.ptr<3>
      %global = llvm.addrspacecast %in : !llvm.ptr to !llvm.ptr<1>
      %lead = llvm.icmp "eq" %t, %c0 : i32
      llvm.cond_br %lead, ^copy, ^wait
    ^copy:
      nvvm.mbarrier.init %bar, %c1 : !llvm.ptr<3>, i32
      nvvm.mbarrier.arrive.expect_tx %bar, %half : !llvm.ptr<3>, i32
      %cl_buf = llvm.addrspacecast %buf : !llvm.ptr<3> to !llvm.ptr<7>
      nvvm.cp.async.bulk.shared.cluster.global %cl_buf, %global, %bar, %bytes : !llvm.ptr<7>, !llvm.ptr<1>
      llvm.br ^wait
    ^wait:
      nvvm.barrier0
      nvvm.mbarrier.try_wait.parity %bar, %c0, %ticks : !llvm.ptr<3>, i32, i32
      llvm.return
    }
  }

  // The barrier expects 64 arrivals; thread 63 never arrives.
  gpu.module @missing_arrival {
    llvm.mlir.global internal @bar() {addr_space = 3 : i32, alignment = 8 : i64} : i64
    llvm.func @missing_arrival(%out: !llvm.ptr, %in: !llvm.ptr) attributes {nvvm.kernel} {
      %c0 = llvm.mlir.constant(0 : i32) : i32
      %c63 = llvm.mlir.constant(63 : i32) : i32
      %c64 = llvm.mlir.constant(64 : i32) : i32
      %ticks = llvm.mlir.constant(1000000 : i32) : i32
      %t = nvvm.read.ptx.sreg.tid.x : i32
      %bar = llvm.mlir.addressof @bar : !llvm.ptr<3>
      %lead = llvm.icmp "eq" %t, %c0 : i32
      llvm.cond_br %lead, ^init, ^start
    ^init:
      nvvm.mbarrier.init %bar, %c64 : !llvm.ptr<3>, i32
      llvm.br ^start
    ^start:
      nvvm.barrier0
      %last = llvm.icmp "eq" %t, %c63 : i32
      llvm.cond_br %last, ^wait, ^arrive
    ^arrive:
      nvvm.mbarrier.arrive %bar : !llvm.ptr<3>
      llvm.br ^wait
    ^wait:
      nvvm.mbarrier.try_wait.parity %bar, %c0, %ticks : !llvm.ptr<3>, i32, i32
      llvm.return
    }
  }

  // An arrival at shared bytes no mbarrier.init made an mbarrier.
  gpu.module @no_init {
    llvm.mlir.global internal @bar() {addr_space = 3 : i32, alignment = 8 : i64} : i64
    llvm.func @no_init(%out: !llvm.ptr, %in: !llvm.ptr) attributes {nvvm.kernel} {
      %bar = llvm.mlir.addressof @bar : !llvm.ptr<3>
      nvvm.mbarrier.arrive %bar : !llvm.ptr<3>
      llvm.return
    }
  }

  // Two arrivals at once where the phase waits for one.
  gpu.module @extra_arrivals {
    llvm.mlir.global internal @bar() {addr_space = 3 : i32, alignment = 8 : i64} : i64
    llvm.func @extra_arrivals(%out: !llvm.ptr, %in: !llvm.ptr) attributes {nvvm.kernel} {
      %c1 = llvm.mlir.constant(1 : i32) : i32
      %c2 = llvm.mlir.constant(2 : i32) : i32
      %bar = llvm.mlir.addressof @bar : !llvm.ptr<3>
      nvvm.mbarrier.init %bar, %c1 : !llvm.ptr<3>, i32
      nvvm.mbarrier.arrive %bar, %c2 : !llvm.ptr<3>
      llvm.return
    }
  }

  // An ordinary store into an mbarrier's 8 bytes.
  gpu.module @store_to_mbarrier {
    llvm.mlir.global internal @bar() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i32>
    llvm.func @store_to_mbarrier(%out: !llvm.ptr, %in: !llvm.ptr) attributes {nvvm.kernel} {
      %c1 = llvm.mlir.constant(1 : i32) : i32
      %bar = llvm.mlir.addressof @bar : !llvm.ptr<3>
      nvvm.mbarrier.init %bar, %c1 : !llvm.ptr<3>, i32
      %hi = llvm.getelementptr %bar[0, 1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, !llvm.array<2 x i32>
      llvm.store %c1, %hi : i32, !llvm.ptr<3>
      %x = llvm.load %hi : !llvm.ptr<3> -> i32
      llvm.store %x, %out : i32, !llvm.ptr
      llvm.return
    }
  }

  // A bulk copy of 24 bytes (not a multiple of 16).
  gpu.module @odd_bytes {
    llvm.mlir.global internal @buf() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<64 x f32>
    llvm.mlir.global internal @bar() {addr_space = 3 : i32, alignment = 8 : i64} : i64
    llvm.func @odd_bytes(%out: !llvm.ptr, %in: !llvm.ptr) attributes {nvvm.kernel} {
      %c1 = llvm.mlir.constant(1 : i32) : i32
      %bytes = llvm.mlir.constant(24 : i32) : i32
      %buf = llvm.mlir.addressof @buf : !llvm.ptr<3>
      %bar = llvm.mlir.addressof @bar : !llvm.ptr<3>
      %global = llvm.addrspacecast %in : !llvm.ptr to !llvm.ptr<1>
      nvvm.mbarrier.init %bar, %c1 : !llvm.ptr<3>, i32
      %cl_buf = llvm.addrspacecast %buf : !llvm.ptr<3> to !llvm.ptr<7>
      nvvm.cp.async.bulk.shared.cluster.global %cl_buf, %global, %bar, %bytes : !llvm.ptr<7>, !llvm.ptr<1>
      llvm.return
    }
  }
}

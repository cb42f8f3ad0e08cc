// GPU-level kernels for ../cluster.test: thread block clusters (sm_90) on
// the simulator. Each kernel's nvvm.cluster_dim is its cluster shape.
// exchange and remote_arrive are correct; the others each misuse the
// cluster once.
module attributes {gpu.container_module, uop.launch = {
    exchange = {grid = array<i32: 4, 2, 1>, block = array<i32: 32, 1, 1>},
    remote_arrive = {grid = array<i32: 8, 1, 1>, block = array<i32: 32, 1, 1>},
    init_unreleased = {grid = array<i32: 2, 1, 1>, block = array<i32: 32, 1, 1>},
    relaxed_unfenced = {grid = array<i32: 2, 1, 1>, block = array<i32: 32, 1, 1>},
    mapa_rank = {grid = array<i32: 2, 1, 1>, block = array<i32: 32, 1, 1>},
    exited = {grid = array<i32: 2, 1, 1>, block = array<i32: 32, 1, 1>},
    wait_first = {grid = array<i32: 2, 1, 1>, block = array<i32: 32, 1, 1>},
    stuck = {grid = array<i32: 2, 1, 1>, block = array<i32: 32, 1, 1>},
    multicast_bulk = {grid = array<i32: 4, 1, 1>, block = array<i32: 32, 1, 1>},
    multicast_tma = {grid = array<i32: 2, 1, 1>, block = array<i32: 128, 1, 1>, tensor_maps = [
      #uop.tensor_map<buffer = 1, element = f32, sizes = [32, 8], strides = [128], box = [32, 4], swizzle = 0>]},
    multicast_unreleased = {grid = array<i32: 2, 1, 1>, block = array<i32: 32, 1, 1>},
    multicast_mask = {grid = array<i32: 2, 1, 1>, block = array<i32: 32, 1, 1>},
    lead = {grid = array<i32: 4, 1, 1>, block = array<i32: 32, 1, 1>}}} {

  // 2x2 clusters. Each thread writes ctaid.x * 1000 + ctaid.y * 100 + tid
  // to its word of shared memory; after a cluster barrier it reads the same
  // word of the next block of its cluster (rank + 1, through mapa) and
  // writes, per thread, 4 words: that value, its rank, its cluster's place
  // and count (clusterid + 10 * clusterid.y + 100 * nclusterid.x + 1000 *
  // nclusterid.y) and its place in the cluster (cluster_ctaid.x + 10 * .y +
  // 100 * cluster_nctaid.x + 1000 * .y). A second cluster barrier keeps
  // each block's shared memory alive until the others have read it.
  gpu.module @exchange {
    llvm.mlir.global internal @buf() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<32 x i32>
    llvm.func @exchange(%out: !llvm.ptr) attributes {nvvm.kernel, nvvm.cluster_dim = array<i32: 2, 2, 1>} {
      %c1 = llvm.mlir.constant(1 : i32) : i32
      %c4 = llvm.mlir.constant(4 : i32) : i32
      %c10 = llvm.mlir.constant(10 : i32) : i32
      %c32 = llvm.mlir.constant(32 : i32) : i32
      %c100 = llvm.mlir.constant(100 : i32) : i32
      %c1000 = llvm.mlir.constant(1000 : i32) : i32
      %t = nvvm.read.ptx.sreg.tid.x : i32
      %bx = nvvm.read.ptx.sreg.ctaid.x : i32
      %by = nvvm.read.ptx.sreg.ctaid.y : i32
      %buf = llvm.mlir.addressof @buf : !llvm.ptr<3>
      %mine = llvm.getelementptr %buf[0, %t] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, !llvm.array<32 x i32>
      %vx = llvm.mul %bx, %c1000 : i32
      %vy = llvm.mul %by, %c100 : i32
      %vxy = llvm.add %vx, %vy : i32
      %v = llvm.add %vxy, %t : i32
      llvm.store %v, %mine : i32, !llvm.ptr<3>
      nvvm.cluster.arrive
      nvvm.cluster.wait
      %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
      %n = nvvm.read.ptx.sreg.cluster.nctarank : i32
      %next = llvm.add %rank, %c1 : i32
      %peer = llvm.urem %next, %n : i32
      %remote = nvvm.mapa %mine, %peer : !llvm.ptr<3> -> !llvm.ptr<7>
      %got = llvm.load %remote : !llvm.ptr<7> -> i32
      // Where the cluster is: clusterid + 10 * clusterid.y + 100 * nclusterid.x + 1000 * nclusterid.y
      %cx = nvvm.read.ptx.sreg.clusterid.x : i32
      %cy = nvvm.read.ptx.sreg.clusterid.y : i32
      %ncx = nvvm.read.ptx.sreg.nclusterid.x : i32
      %ncy = nvvm.read.ptx.sreg.nclusterid.y : i32
      %cy10 = llvm.mul %cy, %c10 : i32
      %ncx100 = llvm.mul %ncx, %c100 : i32
      %ncy1000 = llvm.mul %ncy, %c1000 : i32
      %w2a = llvm.add %cx, %cy10 : i32
      %w2b = llvm.add %w2a, %ncx100 : i32
      %w2 = llvm.add %w2b, %ncy1000 : i32
      // Where the block is in it.
      %ix = nvvm.read.ptx.sreg.cluster.ctaid.x : i32
      %iy = nvvm.read.ptx.sreg.cluster.ctaid.y : i32
      %nx = nvvm.read.ptx.sreg.cluster.nctaid.x : i32
      %ny = nvvm.read.ptx.sreg.cluster.nctaid.y : i32
      %iy10 = llvm.mul %iy, %c10 : i32
      %nx100 = llvm.mul %nx, %c100 : i32
      %ny1000 = llvm.mul %ny, %c1000 : i32
      %w3a = llvm.add %ix, %iy10 : i32
      %w3b = llvm.add %w3a, %nx100 : i32
      %w3 = llvm.add %w3b, %ny1000 : i32
      // out[((ctaid.y * 4 + ctaid.x) * 32 + tid) * 4 + 0..3]
      %row = llvm.mul %by, %c4 : i32
      %b = llvm.add %row, %bx : i32
      %bt = llvm.mul %b, %c32 : i32
      %th = llvm.add %bt, %t : i32
      %base = llvm.mul %th, %c4 : i32
      %o0 = llvm.getelementptr %out[%base] : (!llvm.ptr, i32) -> !llvm.ptr, i32
      llvm.store %got, %o0 : i32, !llvm.ptr
      %o1 = llvm.getelementptr %o0[1] : (!llvm.ptr) -> !llvm.ptr, i32
      llvm.store %rank, %o1 : i32, !llvm.ptr
      %o2 = llvm.getelementptr %o0[2] : (!llvm.ptr) -> !llvm.ptr, i32
      llvm.store %w2, %o2 : i32, !llvm.ptr
      %o3 = llvm.getelementptr %o0[3] : (!llvm.ptr) -> !llvm.ptr, i32
      llvm.store %w3, %o3 : i32, !llvm.ptr
      nvvm.cluster.arrive {aligned}
      nvvm.cluster.wait {aligned}
      llvm.return
    }
  }

  // Clusters of 4, as CUTLASS releases a buffer to the block that fills
  // it: block 0's thread 0 makes an mbarrier expecting 3 arrivals and
  // publishes it with fence.mbarrier_init and a relaxed cluster arrive;
  // after the cluster wait, thread 0 of each other block writes rank * 7 +
  // 100 * clusterid to word `rank` of block 0's data and arrives on block
  // 0's mbarrier (mapa, mbarrier.arrive.release.cluster). Block 0's thread
  // 0 waits for the phase and writes out[4 * clusterid + 1..3] from its
  // data, and out[4 * clusterid] = 100 * clusterid + 1.
  gpu.module @remote_arrive {
    llvm.mlir.global internal @bar() {addr_space = 3 : i32, alignment = 8 : i64} : i64
    llvm.mlir.global internal @data() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<4 x i32>
    llvm.func @remote_arrive(%out: !llvm.ptr) attributes {nvvm.kernel, nvvm.cluster_dim = array<i32: 4, 1, 1>} {
      %c0 = llvm.mlir.constant(0 : i32) : i32
      %c1 = llvm.mlir.constant(1 : i32) : i32
      %c3 = llvm.mlir.constant(3 : i32) : i32
      %c4 = llvm.mlir.constant(4 : i32) : i32
      %c7 = llvm.mlir.constant(7 : i32) : i32
      %c100 = llvm.mlir.constant(100 : i32) : i32
      %ticks = llvm.mlir.constant(1000000 : i32) : i32
      %t = nvvm.read.ptx.sreg.tid.x : i32
      %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
      %cid = nvvm.read.ptx.sreg.clusterid.x : i32
      %cid100 = llvm.mul %cid, %c100 : i32
      %bar = llvm.mlir.addressof @bar : !llvm.ptr<3>
      %data = llvm.mlir.addressof @data : !llvm.ptr<3>
      %lead = llvm.icmp "eq" %t, %c0 : i32
      %root = llvm.icmp "eq" %rank, %c0 : i32
      %leadRoot = llvm.and %lead, %root : i1
      llvm.cond_br %leadRoot, ^init, ^sync
    ^init:
      nvvm.mbarrier.init %bar, %c3 : !llvm.ptr<3>, i32
      nvvm.fence.mbarrier.init
      llvm.br ^sync
    ^sync:
      nvvm.cluster.arrive.relaxed
      nvvm.cluster.wait
      %notRoot = llvm.icmp "ne" %rank, %c0 : i32
      %leadOther = llvm.and %lead, %notRoot : i1
      llvm.cond_br %leadOther, ^give, ^take
    ^give:
      %mine = llvm.getelementptr %data[0, %rank] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, !llvm.array<4 x i32>
      %slot = nvvm.mapa %mine, %c0 : !llvm.ptr<3> -> !llvm.ptr<7>
      %r7 = llvm.mul %rank, %c7 : i32
      %val = llvm.add %r7, %cid100 : i32
      llvm.store %val, %slot : i32, !llvm.ptr<7>
      %rbar = nvvm.mapa %bar, %c0 : !llvm.ptr<3> -> !llvm.ptr<7>
      nvvm.mbarrier.arrive %rbar {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>
      llvm.return
    ^take:
      llvm.cond_br %leadRoot, ^wait, ^done
    ^wait:
      nvvm.mbarrier.try_wait.parity %bar, %c0, %ticks : !llvm.ptr<3>, i32, i32
      %at = llvm.mul %cid, %c4 : i32
      %o0 = llvm.getelementptr %out[%at] : (!llvm.ptr, i32) -> !llvm.ptr, i32
      %first = llvm.add %cid100, %c1 : i32
      llvm.store %first, %o0 : i32, !llvm.ptr
      llvm.br ^copy(%c1 : i32)
    ^copy(%i: i32):
      %more = llvm.icmp "ule" %i, %c3 : i32
      llvm.cond_br %more, ^body, ^done
    ^body:
      %pd = llvm.getelementptr %data[0, %i] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, !llvm.array<4 x i32>
      %d = llvm.load %pd : !llvm.ptr<3> -> i32
      %oi = llvm.getelementptr %o0[%i] : (!llvm.ptr, i32) -> !llvm.ptr, i32
      llvm.store %d, %oi : i32, !llvm.ptr
      %i1 = llvm.add %i, %c1 : i32
      llvm.br ^copy(%i1 : i32)
    ^done:
      llvm.return
    }
  }

  // Multicast (clusters of 2, two clusters): each block makes its mbarrier,
  // expecting 128 bytes, and publishes it to the other block (fence and
  // relaxed cluster arrive); then block r's thread 0 copies in[16r ..
  // 16r+15] (64 bytes) to words 16r.. of buf in both blocks
  // (cp.async.bulk ... .multicast::cluster, mask 0b11). Each block waits
  // for its phase and writes its 32 words to out[32 * ctaid + tid].
  gpu.module @multicast_bulk {
    llvm.mlir.global internal @bar() {addr_space = 3 : i32, alignment = 8 : i64} : i64
    llvm.mlir.global internal @buf() {addr_space = 3 : i32, alignment = 128 : i64} : !llvm.array<32 x i32>
    llvm.func @multicast_bulk(%out: !llvm.ptr, %in: !llvm.ptr<1>) attributes {nvvm.kernel, nvvm.cluster_dim = array<i32: 2, 1, 1>} {
      %c0 = llvm.mlir.constant(0 : i32) : i32
      %c1 = llvm.mlir.constant(1 : i32) : i32
      %c16 = llvm.mlir.constant(16 : i32) : i32
      %c32 = llvm.mlir.constant(32 : i32) : i32
      %c64 = llvm.mlir.constant(64 : i32) : i32
      %c128 = llvm.mlir.constant(128 : i32) : i32
      %both = llvm.mlir.constant(3 : i16) : i16
      %ticks = llvm.mlir.constant(1000000 : i32) : i32
      %t = nvvm.read.ptx.sreg.tid.x : i32
      %b = nvvm.read.ptx.sreg.ctaid.x : i32
      %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
      %bar = llvm.mlir.addressof @bar : !llvm.ptr<3>
      %buf = llvm.mlir.addressof @buf : !llvm.ptr<3>
      %lead = llvm.icmp "eq" %t, %c0 : i32
      llvm.cond_br %lead, ^init, ^sync
    ^init:
      nvvm.mbarrier.init %bar, %c1 : !llvm.ptr<3>, i32
      nvvm.fence.mbarrier.init
      llvm.br ^sync
    ^sync:
      nvvm.cluster.arrive.relaxed
      nvvm.cluster.wait
      llvm.cond_br %lead, ^copy, ^wait
    ^copy:
      nvvm.mbarrier.arrive.expect_tx %bar, %c128 : !llvm.ptr<3>, i32
      %word = llvm.mul %rank, %c16 : i32
      %dst3 = llvm.getelementptr %buf[0, %word] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, !llvm.array<32 x i32>
      %dst = llvm.addrspacecast %dst3 : !llvm.ptr<3> to !llvm.ptr<7>
      %src = llvm.getelementptr %in[%word] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
      nvvm.cp.async.bulk.shared.cluster.global %dst, %src, %bar, %c64 multicast_mask = %both : !llvm.ptr<7>, !llvm.ptr<1>
      llvm.br ^wait
    ^wait:
      nvvm.mbarrier.try_wait.parity %bar, %c0, %ticks : !llvm.ptr<3>, i32, i32
      %p = llvm.getelementptr %buf[0, %t] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, !llvm.array<32 x i32>
      %v = llvm.load %p : !llvm.ptr<3> -> i32
      %row = llvm.mul %b, %c32 : i32
      %at = llvm.add %row, %t : i32
      %o = llvm.getelementptr %out[%at] : (!llvm.ptr, i32) -> !llvm.ptr, i32
      llvm.store %v, %o : i32, !llvm.ptr
      llvm.return
    }
  }

  // TMA multicast (one cluster of 2): block r's thread 0 copies rows 4r ..
  // 4r+3 of the 8 x 32 float tensor (a 4 x 32 box) to bytes 512r.. of buf
  // in both blocks; each block expects 1024 bytes and writes its buf to
  // out[256 * rank ..].
  gpu.module @multicast_tma {
    llvm.mlir.global internal @bar() {addr_space = 3 : i32, alignment = 8 : i64} : i64
    llvm.mlir.global internal @buf() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<256 x f32>
    llvm.func @multicast_tma(%out: !llvm.ptr, %in: !llvm.ptr, %map: !llvm.ptr) attributes {nvvm.kernel, nvvm.cluster_dim = array<i32: 2, 1, 1>} {
      %c0 = llvm.mlir.constant(0 : i32) : i32
      %c1 = llvm.mlir.constant(1 : i32) : i32
      %c4 = llvm.mlir.constant(4 : i32) : i32
      %c128 = llvm.mlir.constant(128 : i32) : i32
      %c256 = llvm.mlir.constant(256 : i32) : i32
      %bytes = llvm.mlir.constant(1024 : i32) : i32
      %both = llvm.mlir.constant(3 : i16) : i16
      %ticks = llvm.mlir.constant(1000000 : i32) : i32
      %t = nvvm.read.ptx.sreg.tid.x : i32
      %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
      %bar = llvm.mlir.addressof @bar : !llvm.ptr<3>
      %buf = llvm.mlir.addressof @buf : !llvm.ptr<3>
      %lead = llvm.icmp "eq" %t, %c0 : i32
      llvm.cond_br %lead, ^init, ^sync
    ^init:
      nvvm.mbarrier.init %bar, %c1 : !llvm.ptr<3>, i32
      nvvm.fence.mbarrier.init
      llvm.br ^sync
    ^sync:
      nvvm.cluster.arrive.relaxed
      nvvm.cluster.wait
      llvm.cond_br %lead, ^copy, ^wait
    ^copy:
      nvvm.mbarrier.arrive.expect_tx %bar, %bytes : !llvm.ptr<3>, i32
      %word = llvm.mul %rank, %c128 : i32
      %y = llvm.mul %rank, %c4 : i32
      %dst3 = llvm.getelementptr %buf[0, %word] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, !llvm.array<256 x f32>
      %dst = llvm.addrspacecast %dst3 : !llvm.ptr<3> to !llvm.ptr<7>
      nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %map, %bar, box[%c0, %y] multicast_mask = %both : !llvm.ptr<7>, !llvm.ptr
      llvm.br ^wait
    ^wait:
      nvvm.mbarrier.try_wait.parity %bar, %c0, %ticks : !llvm.ptr<3>, i32, i32
      %base = llvm.mul %rank, %c256 : i32
      llvm.br ^loop(%t : i32)
    ^loop(%i: i32):
      %more = llvm.icmp "slt" %i, %c256 : i32
      llvm.cond_br %more, ^body, ^exit
    ^body:
      %p = llvm.getelementptr %buf[0, %i] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, !llvm.array<256 x f32>
      %v = llvm.load %p : !llvm.ptr<3> -> f32
      %at = llvm.add %base, %i : i32
      %o = llvm.getelementptr %out[%at] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      llvm.store %v, %o : f32, !llvm.ptr
      %next = llvm.add %i, %c128 : i32
      llvm.br ^loop(%next : i32)
    ^exit:
      llvm.return
    }
  }

  // Misuses, in clusters of 2.

  // Block 1 arrives on block 0's mbarrier with no cluster barrier between
  // its init and the arrive.
  gpu.module @init_unreleased {
    llvm.mlir.global internal @bar() {addr_space = 3 : i32, alignment = 8 : i64} : i64
    llvm.func @init_unreleased() attributes {nvvm.kernel, nvvm.cluster_dim = array<i32: 2, 1, 1>} {
      %c0 = llvm.mlir.constant(0 : i32) : i32
      %c1 = llvm.mlir.constant(1 : i32) : i32
      %ticks = llvm.mlir.constant(1000000 : i32) : i32
      %t = nvvm.read.ptx.sreg.tid.x : i32
      %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
      %bar = llvm.mlir.addressof @bar : !llvm.ptr<3>
      %lead = llvm.icmp "eq" %t, %c0 : i32
      %root = llvm.icmp "eq" %rank, %c0 : i32
      llvm.cond_br %lead, ^leader, ^done
    ^leader:
      llvm.cond_br %root, ^init, ^arrive
    ^init:
      nvvm.mbarrier.init %bar, %c1 : !llvm.ptr<3>, i32
      nvvm.mbarrier.try_wait.parity %bar, %c0, %ticks : !llvm.ptr<3>, i32, i32
      llvm.return
    ^arrive:
      %rbar = nvvm.mapa %bar, %c0 : !llvm.ptr<3> -> !llvm.ptr<7>
      nvvm.mbarrier.arrive %rbar {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>
      llvm.return
    ^done:
      llvm.return
    }
  }

  // The init is followed by a relaxed cluster arrive but no
  // fence.mbarrier_init: the arrive does not release it.
  gpu.module @relaxed_unfenced {
    llvm.mlir.global internal @bar() {addr_space = 3 : i32, alignment = 8 : i64} : i64
    llvm.func @relaxed_unfenced() attributes {nvvm.kernel, nvvm.cluster_dim = array<i32: 2, 1, 1>} {
      %c0 = llvm.mlir.constant(0 : i32) : i32
      %c1 = llvm.mlir.constant(1 : i32) : i32
      %ticks = llvm.mlir.constant(1000000 : i32) : i32
      %t = nvvm.read.ptx.sreg.tid.x : i32
      %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
      %bar = llvm.mlir.addressof @bar : !llvm.ptr<3>
      %lead = llvm.icmp "eq" %t, %c0 : i32
      %root = llvm.icmp "eq" %rank, %c0 : i32
      %leadRoot = llvm.and %lead, %root : i1
      llvm.cond_br %leadRoot, ^init, ^sync
    ^init:
      nvvm.mbarrier.init %bar, %c1 : !llvm.ptr<3>, i32
      llvm.br ^sync
    ^sync:
      nvvm.cluster.arrive.relaxed
      nvvm.cluster.wait
      %notRoot = llvm.icmp "ne" %rank, %c0 : i32
      %leadOther = llvm.and %lead, %notRoot : i1
      llvm.cond_br %leadOther, ^arrive, ^take
    ^arrive:
      %rbar = nvvm.mapa %bar, %c0 : !llvm.ptr<3> -> !llvm.ptr<7>
      nvvm.mbarrier.arrive %rbar {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>
      llvm.return
    ^take:
      llvm.cond_br %leadRoot, ^wait, ^done
    ^wait:
      nvvm.mbarrier.try_wait.parity %bar, %c0, %ticks : !llvm.ptr<3>, i32, i32
      llvm.return
    ^done:
      llvm.return
    }
  }

  // mapa to block 2 of a cluster of 2.
  gpu.module @mapa_rank {
    llvm.mlir.global internal @buf() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<32 x i32>
    llvm.func @mapa_rank(%out: !llvm.ptr) attributes {nvvm.kernel, nvvm.cluster_dim = array<i32: 2, 1, 1>} {
      %c2 = llvm.mlir.constant(2 : i32) : i32
      %buf = llvm.mlir.addressof @buf : !llvm.ptr<3>
      %remote = nvvm.mapa %buf, %c2 : !llvm.ptr<3> -> !llvm.ptr<7>
      %v = llvm.load %remote : !llvm.ptr<7> -> i32
      llvm.store %v, %out : i32, !llvm.ptr
      llvm.return
    }
  }

  // Block 0 exits at once; block 1 then reads its shared memory.
  gpu.module @exited {
    llvm.mlir.global internal @buf() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<32 x i32>
    llvm.func @exited(%out: !llvm.ptr) attributes {nvvm.kernel, nvvm.cluster_dim = array<i32: 2, 1, 1>} {
      %c0 = llvm.mlir.constant(0 : i32) : i32
      %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
      %root = llvm.icmp "eq" %rank, %c0 : i32
      llvm.cond_br %root, ^done, ^read
    ^read:
      nvvm.barrier0
      %buf = llvm.mlir.addressof @buf : !llvm.ptr<3>
      %remote = nvvm.mapa %buf, %c0 : !llvm.ptr<3> -> !llvm.ptr<7>
      %v = llvm.load %remote : !llvm.ptr<7> -> i32
      llvm.store %v, %out : i32, !llvm.ptr
      llvm.return
    ^done:
      llvm.return
    }
  }

  // barrier.cluster.wait with no arrive before it.
  gpu.module @wait_first {
    llvm.func @wait_first() attributes {nvvm.kernel, nvvm.cluster_dim = array<i32: 2, 1, 1>} {
      nvvm.cluster.wait
      nvvm.cluster.arrive
      llvm.return
    }
  }

  // Block 1's thread 0 waits at the block's barrier, which its other
  // threads never reach: they, and block 0, wait at the cluster barrier it
  // never arrives at.
  gpu.module @stuck {
    llvm.func @stuck() attributes {nvvm.kernel, nvvm.cluster_dim = array<i32: 2, 1, 1>} {
      %c0 = llvm.mlir.constant(0 : i32) : i32
      %c1 = llvm.mlir.constant(1 : i32) : i32
      %t = nvvm.read.ptx.sreg.tid.x : i32
      %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
      %lead = llvm.icmp "eq" %t, %c0 : i32
      %one = llvm.icmp "eq" %rank, %c1 : i32
      %odd = llvm.and %lead, %one : i1
      llvm.cond_br %odd, ^alone, ^sync
    ^alone:
      nvvm.barrier0
      llvm.br ^sync
    ^sync:
      nvvm.cluster.arrive
      nvvm.cluster.wait
      llvm.return
    }
  }

  // Block 1's init is followed by a relaxed cluster arrive without the
  // fence: block 0's multicast into it completes on an mbarrier no cluster
  // barrier has ordered before the copy.
  gpu.module @multicast_unreleased {
    llvm.mlir.global internal @bar() {addr_space = 3 : i32, alignment = 8 : i64} : i64
    llvm.mlir.global internal @buf() {addr_space = 3 : i32, alignment = 128 : i64} : !llvm.array<16 x i32>
    llvm.func @multicast_unreleased(%in: !llvm.ptr<1>) attributes {nvvm.kernel, nvvm.cluster_dim = array<i32: 2, 1, 1>} {
      %c0 = llvm.mlir.constant(0 : i32) : i32
      %c1 = llvm.mlir.constant(1 : i32) : i32
      %c64 = llvm.mlir.constant(64 : i32) : i32
      %both = llvm.mlir.constant(3 : i16) : i16
      %t = nvvm.read.ptx.sreg.tid.x : i32
      %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
      %bar = llvm.mlir.addressof @bar : !llvm.ptr<3>
      %buf = llvm.mlir.addressof @buf : !llvm.ptr<3>
      %lead = llvm.icmp "eq" %t, %c0 : i32
      llvm.cond_br %lead, ^init, ^sync
    ^init:
      nvvm.mbarrier.init %bar, %c1 : !llvm.ptr<3>, i32
      llvm.br ^sync
    ^sync:
      nvvm.cluster.arrive.relaxed
      nvvm.cluster.wait
      %root = llvm.icmp "eq" %rank, %c0 : i32
      %leadRoot = llvm.and %lead, %root : i1
      llvm.cond_br %leadRoot, ^copy, ^done
    ^copy:
      %dst = llvm.addrspacecast %buf : !llvm.ptr<3> to !llvm.ptr<7>
      nvvm.cp.async.bulk.shared.cluster.global %dst, %in, %bar, %c64 multicast_mask = %both : !llvm.ptr<7>, !llvm.ptr<1>
      llvm.return
    ^done:
      llvm.return
    }
  }

  // A multicast mask naming block 2 of a cluster of 2.
  gpu.module @multicast_mask {
    llvm.mlir.global internal @bar() {addr_space = 3 : i32, alignment = 8 : i64} : i64
    llvm.mlir.global internal @buf() {addr_space = 3 : i32, alignment = 128 : i64} : !llvm.array<16 x i32>
    llvm.func @multicast_mask(%in: !llvm.ptr<1>) attributes {nvvm.kernel, nvvm.cluster_dim = array<i32: 2, 1, 1>} {
      %c1 = llvm.mlir.constant(1 : i32) : i32
      %c64 = llvm.mlir.constant(64 : i32) : i32
      %mask = llvm.mlir.constant(5 : i16) : i16
      %bar = llvm.mlir.addressof @bar : !llvm.ptr<3>
      %buf = llvm.mlir.addressof @buf : !llvm.ptr<3>
      nvvm.mbarrier.init %bar, %c1 : !llvm.ptr<3>, i32
      %dst = llvm.addrspacecast %buf : !llvm.ptr<3> to !llvm.ptr<7>
      nvvm.cp.async.bulk.shared.cluster.global %dst, %in, %bar, %c64 multicast_mask = %mask : !llvm.ptr<7>, !llvm.ptr<1>
      llvm.return
    }
  }

  // Two clusters of 2: each block's thread 0 takes a ticket (an atomic
  // add on a global counter) before a cluster barrier and writes it to its
  // word. Which block of a cluster runs first is the simulator's choice:
  // the tickets show its order.
  gpu.module @lead {
    llvm.func @lead(%out: !llvm.ptr<1>, %counter: !llvm.ptr<1>) attributes {nvvm.kernel, nvvm.cluster_dim = array<i32: 2, 1, 1>} {
      %c0 = llvm.mlir.constant(0 : i32) : i32
      %c1 = llvm.mlir.constant(1 : i32) : i32
      %t = nvvm.read.ptx.sreg.tid.x : i32
      %bx = nvvm.read.ptx.sreg.ctaid.x : i32
      %first = llvm.icmp "eq" %t, %c0 : i32
      llvm.cond_br %first, ^ticket, ^wait
    ^ticket:
      %n = llvm.atomicrmw add %counter, %c1 monotonic : !llvm.ptr<1>, i32
      %word = llvm.getelementptr %out[%bx] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
      llvm.store %n, %word : i32, !llvm.ptr<1>
      llvm.br ^wait
    ^wait:
      nvvm.cluster.arrive
      nvvm.cluster.wait
      llvm.return
    }
  }
}

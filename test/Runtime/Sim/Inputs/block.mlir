// GPU-level kernels (the form convert-gpu-to-nvvm leaves) for the simulator
// tests in ../sim-block.test: one that needs shared memory and the barrier to
// be right, and one per fault the simulator must catch. Buffers: 0 = out
// (f32[65]), 1 = in (f32[64], 0..63).
// A bad launch entry is in bad-launch.mlir: a module with one does not verify.
module attributes {gpu.container_module, uop.launch = {
    reverse = {grid = array<i32: 1, 1, 1>, block = array<i32: 64, 1, 1>},
    oob_global = {grid = array<i32: 1, 1, 1>, block = array<i32: 64, 1, 1>},
    oob_shared = {grid = array<i32: 2, 1, 1>, block = array<i32: 64, 1, 1>},
    barrier_exit = {grid = array<i32: 1, 1, 1>, block = array<i32: 64, 1, 1>},
    mma_partial_warp = {grid = array<i32: 1, 1, 1>, block = array<i32: 16, 1, 1>},
    mma_lane_exit = {grid = array<i32: 1, 1, 1>, block = array<i32: 32, 1, 1>},
    unsupported = {grid = array<i32: 1, 1, 1>, block = array<i32: 4, 1, 1>},
    shared_fresh = {grid = array<i32: 2, 1, 1>, block = array<i32: 1, 1, 1>}}} {

  // out[0] = sum(in); out[1 + t] = in[63 - t], read back from shared memory
  // another thread wrote: wrong without a working barrier (each thread would
  // read the 0xA5 garbage of a slot not yet written) or per-block shared.
  gpu.module @reverse {
    llvm.mlir.global internal @smem() {addr_space = 3 : i32, alignment = 4 : i64} : !llvm.array<64 x f32>
    llvm.func @reverse(%out: !llvm.ptr, %in: !llvm.ptr) {
      %c0 = llvm.mlir.constant(0 : i32) : i32
      %c1 = llvm.mlir.constant(1 : i32) : i32
      %c63 = llvm.mlir.constant(63 : i32) : i32
      %c64 = llvm.mlir.constant(64 : i32) : i32
      %zero = llvm.mlir.constant(0.0 : f32) : f32
      %t = nvvm.read.ptx.sreg.tid.x : i32
      %s = llvm.mlir.addressof @smem : !llvm.ptr<3>
      %pi = llvm.getelementptr %in[%t] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      %x = llvm.load %pi : !llvm.ptr -> f32
      %ps = llvm.getelementptr %s[%t] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
      llvm.store %x, %ps : f32, !llvm.ptr<3>
      nvvm.barrier0
      %r = llvm.sub %c63, %t : i32
      %pr = llvm.getelementptr %s[%r] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
      %y = llvm.load %pr : !llvm.ptr<3> -> f32
      %o = llvm.add %t, %c1 : i32
      %po = llvm.getelementptr %out[%o] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      llvm.store %y, %po : f32, !llvm.ptr
      %first = llvm.icmp "eq" %t, %c0 : i32
      llvm.cond_br %first, ^sum(%c0, %zero : i32, f32), ^done
    ^sum(%i: i32, %acc: f32):
      %more = llvm.icmp "slt" %i, %c64 : i32
      llvm.cond_br %more, ^body, ^store(%acc : f32)
    ^body:
      %pj = llvm.getelementptr %s[%i] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
      %v = llvm.load %pj : !llvm.ptr<3> -> f32
      %acc2 = llvm.fadd %acc, %v : f32
      %i2 = llvm.add %i, %c1 : i32
      llvm.br ^sum(%i2, %acc2 : i32, f32)
    ^store(%total: f32):
      llvm.store %total, %out : f32, !llvm.ptr
      llvm.br ^done
    ^done:
      llvm.return
    }
  }

  // in[t + 1]: thread 63 reads one element past the end.
  gpu.module @oob_global {
    llvm.func @oob_global(%out: !llvm.ptr, %in: !llvm.ptr) {
      %c1 = llvm.mlir.constant(1 : i32) : i32
      %t = nvvm.read.ptx.sreg.tid.x : i32
      %i = llvm.add %t, %c1 : i32
      %p = llvm.getelementptr %in[%i] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      %x = llvm.load %p : !llvm.ptr -> f32
      llvm.store %x, %out : f32, !llvm.ptr
      llvm.return
    }
  }

  // smem[t + ctaid] = in[0], then out[t] = smem[t]: in block 1, thread 63
  // writes past the 64 floats. (The store is read back, so LLVM's optimizer
  // keeps it.)
  gpu.module @oob_shared {
    llvm.mlir.global internal @smem() {addr_space = 3 : i32, alignment = 4 : i64} : !llvm.array<64 x f32>
    llvm.func @oob_shared(%out: !llvm.ptr, %in: !llvm.ptr) {
      %t = nvvm.read.ptx.sreg.tid.x : i32
      %b = nvvm.read.ptx.sreg.ctaid.x : i32
      %i = llvm.add %t, %b : i32
      %s = llvm.mlir.addressof @smem : !llvm.ptr<3>
      %p = llvm.getelementptr %s[%i] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
      %x = llvm.load %in : !llvm.ptr -> f32
      llvm.store %x, %p : f32, !llvm.ptr<3>
      nvvm.barrier0
      %q = llvm.getelementptr %s[%t] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
      %y = llvm.load %q : !llvm.ptr<3> -> f32
      %o = llvm.getelementptr %out[%t] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      llvm.store %y, %o : f32, !llvm.ptr
      llvm.return
    }
  }

  // Thread 5 returns before the barrier the others wait at.
  gpu.module @barrier_exit {
    llvm.func @barrier_exit(%out: !llvm.ptr, %in: !llvm.ptr) {
      %c5 = llvm.mlir.constant(5 : i32) : i32
      %t = nvvm.read.ptx.sreg.tid.x : i32
      %quit = llvm.icmp "eq" %t, %c5 : i32
      llvm.cond_br %quit, ^exit, ^wait
    ^wait:
      nvvm.barrier0
      llvm.br ^exit
    ^exit:
      llvm.return
    }
  }

  // mma.sync needs a whole warp; this block has 16 threads.
  gpu.module @mma_partial_warp {
    llvm.func @mma_partial_warp(%out: !llvm.ptr, %in: !llvm.ptr) {
      %h = llvm.mlir.constant(dense<1.0> : vector<2xf16>) : vector<2xf16>
      %f = llvm.mlir.constant(0.0 : f32) : f32
      %d = nvvm.mma.sync A[%h, %h, %h, %h] B[%h, %h] C[%f, %f, %f, %f]
        {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>,
         shape = #nvvm.shape<m = 16, n = 8, k = 16>}
        : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
      llvm.return
    }
  }

  // Lane 7 leaves before the warp's mma.sync.
  gpu.module @mma_lane_exit {
    llvm.func @mma_lane_exit(%out: !llvm.ptr, %in: !llvm.ptr) {
      %c7 = llvm.mlir.constant(7 : i32) : i32
      %t = nvvm.read.ptx.sreg.tid.x : i32
      %quit = llvm.icmp "eq" %t, %c7 : i32
      llvm.cond_br %quit, ^exit, ^mma
    ^mma:
      %h = llvm.mlir.constant(dense<1.0> : vector<2xf16>) : vector<2xf16>
      %f = llvm.mlir.constant(0.0 : f32) : f32
      %d = nvvm.mma.sync A[%h, %h, %h, %h] B[%h, %h] C[%f, %f, %f, %f]
        {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>,
         shape = #nvvm.shape<m = 16, n = 8, k = 16>}
        : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
      llvm.br ^exit
    ^exit:
      llvm.return
    }
  }

  // %smid has no meaning on the simulator: the first thread to read it stops.
  gpu.module @unsupported {
    llvm.func @unsupported(%out: !llvm.ptr, %in: !llvm.ptr) {
      %sm = nvvm.read.ptx.sreg.smid : i32
      %x = llvm.uitofp %sm : i32 to f32
      llvm.store %x, %out : f32, !llvm.ptr
      llvm.return
    }
  }

  // Block 0 writes smem[0]; block 1 only reads it: it must see its own,
  // never-written copy (0xA5 bytes), not block 0's 1.0. Out: f32[2].
  gpu.module @shared_fresh {
    llvm.mlir.global internal @smem() {addr_space = 3 : i32, alignment = 4 : i64} : !llvm.array<1 x f32>
    llvm.func @shared_fresh(%out: !llvm.ptr, %in: !llvm.ptr) {
      %c0 = llvm.mlir.constant(0 : i32) : i32
      %one = llvm.mlir.constant(1.0 : f32) : f32
      %b = nvvm.read.ptx.sreg.ctaid.x : i32
      %s = llvm.mlir.addressof @smem : !llvm.ptr<3>
      %first = llvm.icmp "eq" %b, %c0 : i32
      llvm.cond_br %first, ^write, ^read
    ^write:
      llvm.store %one, %s : f32, !llvm.ptr<3>
      llvm.br ^read
    ^read:
      %v = llvm.load %s : !llvm.ptr<3> -> f32
      %p = llvm.getelementptr %out[%b] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      llvm.store %v, %p : f32, !llvm.ptr
      llvm.return
    }
  }

  // A parameter that is neither a buffer nor an i32 variable.
  gpu.module @scalar_param {
    llvm.func @scalar_param(%out: !llvm.ptr, %n: f32) attributes {
        gpu.known_grid_size = array<i32: 1, 1, 1>, gpu.known_block_size = array<i32: 1, 1, 1>} {
      llvm.return
    }
  }
}

// GPU-level kernels whose memory behaviour is known, for the simulator's
// counters (../counters.test). Buffers: 0 = out (f32[16384]), 1 = in
// (f32[16384]). Each block is one warp (32 threads) but `copy`'s.
module attributes {gpu.container_module, uop.launch = {
    coalesced = {grid = array<i32: 1, 1, 1>, block = array<i32: 32, 1, 1>},
    strided = {grid = array<i32: 1, 1, 1>, block = array<i32: 32, 1, 1>},
    conflicts = {grid = array<i32: 1, 1, 1>, block = array<i32: 32, 1, 1>},
    copy = {grid = array<i32: 64, 1, 1>, block = array<i32: 256, 1, 1>}}} {

  // out[t] = in[t]: one request of 128 bytes each way, 4 sectors (the fewest).
  gpu.module @coalesced {
    llvm.func @coalesced(%out: !llvm.ptr, %in: !llvm.ptr) {
      %t = nvvm.read.ptx.sreg.tid.x : i32
      %pi = llvm.getelementptr %in[%t] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      %x = llvm.load %pi : !llvm.ptr -> f32
      %po = llvm.getelementptr %out[%t] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      llvm.store %x, %po : f32, !llvm.ptr
      llvm.return
    }
  }

  // out[t] = in[32 t]: the load's 32 lanes touch 32 sectors where 4 would do.
  gpu.module @strided {
    llvm.func @strided(%out: !llvm.ptr, %in: !llvm.ptr) {
      %c32 = llvm.mlir.constant(32 : i32) : i32
      %t = nvvm.read.ptx.sreg.tid.x : i32
      %i = llvm.mul %t, %c32 : i32
      %pi = llvm.getelementptr %in[%i] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      %x = llvm.load %pi : !llvm.ptr -> f32
      %po = llvm.getelementptr %out[%t] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      llvm.store %x, %po : f32, !llvm.ptr
      llvm.return
    }
  }

  // smem[32 t] = in[t], barrier, out[t] = smem[32 t]: every lane's word is
  // in bank 0, so the store and the load each take 32 wavefronts, not 1.
  gpu.module @conflicts {
    llvm.mlir.global internal @smem() {addr_space = 3 : i32, alignment = 4 : i64} : !llvm.array<1024 x f32>
    llvm.func @conflicts(%out: !llvm.ptr, %in: !llvm.ptr) {
      %c32 = llvm.mlir.constant(32 : i32) : i32
      %t = nvvm.read.ptx.sreg.tid.x : i32
      %i = llvm.mul %t, %c32 : i32
      %pi = llvm.getelementptr %in[%t] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      %x = llvm.load %pi : !llvm.ptr -> f32
      %s = llvm.mlir.addressof @smem : !llvm.ptr<3>
      %ps = llvm.getelementptr %s[%i] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
      llvm.store %x, %ps : f32, !llvm.ptr<3>
      nvvm.barrier0
      %y = llvm.load %ps : !llvm.ptr<3> -> f32
      %po = llvm.getelementptr %out[%t] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      llvm.store %y, %po : f32, !llvm.ptr
      llvm.return
    }
  }

  // out[i] = in[i] for 16384 floats by 64 blocks of 256 threads: 64 KiB read
  // and 64 KiB written once, which is all an estimate's DRAM term sees.
  gpu.module @copy {
    llvm.func @copy(%out: !llvm.ptr, %in: !llvm.ptr) {
      %c256 = llvm.mlir.constant(256 : i32) : i32
      %t = nvvm.read.ptx.sreg.tid.x : i32
      %b = nvvm.read.ptx.sreg.ctaid.x : i32
      %base = llvm.mul %b, %c256 : i32
      %i = llvm.add %base, %t : i32
      %pi = llvm.getelementptr %in[%i] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      %x = llvm.load %pi : !llvm.ptr -> f32
      %po = llvm.getelementptr %out[%i] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      llvm.store %x, %po : f32, !llvm.ptr
      llvm.return
    }
  }
}

// GPU-level kernels calling LLVM's memory intrinsics and trap, for the
// simulator (../sim-block.test). Buffers: 0 = out (f32[65]), 1 = in (64
// values of 4 bytes).
module attributes {gpu.container_module, uop.launch = {
    copy = {grid = array<i32: 1, 1, 1>, block = array<i32: 1, 1, 1>},
    copy_past_end = {grid = array<i32: 1, 1, 1>, block = array<i32: 1, 1, 1>},
    fill_sized = {grid = array<i32: 1, 1, 1>, block = array<i32: 1, 1, 1>},
    trap = {grid = array<i32: 1, 1, 1>, block = array<i32: 1, 1, 1>},
    masked = {grid = array<i32: 1, 1, 1>, block = array<i32: 1, 1, 1>}}} {
  // LLVM's memory intrinsics are checked as loads and stores are. out[1..64]
  // = in (256 bytes: in bounds); 260 bytes read past in's end; a memset of
  // in[0]'s bits as an i64 length (negative, or past out's end).
  gpu.module @copy {
    llvm.func @copy(%out: !llvm.ptr, %in: !llvm.ptr) {
      %n = llvm.mlir.constant(256 : i64) : i64
      %o = llvm.getelementptr %out[1] : (!llvm.ptr) -> !llvm.ptr, f32
      "llvm.intr.memcpy"(%o, %in, %n) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
      llvm.return
    }
  }
  gpu.module @copy_past_end {
    llvm.func @copy_past_end(%out: !llvm.ptr, %in: !llvm.ptr) {
      %n = llvm.mlir.constant(260 : i64) : i64
      "llvm.intr.memcpy"(%out, %in, %n) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
      llvm.return
    }
  }
  gpu.module @fill_sized {
    llvm.func @fill_sized(%out: !llvm.ptr, %in: !llvm.ptr) {
      %n = llvm.load %in : !llvm.ptr -> i64
      %z = llvm.mlir.constant(0 : i8) : i8
      "llvm.intr.memset"(%out, %z, %n) <{isVolatile = false}> : (!llvm.ptr, i8, i64) -> ()
      llvm.return
    }
  }

  // PTX's trap aborts the kernel: an error, not the host's SIGILL.
  gpu.module @trap {
    llvm.func @trap(%out: !llvm.ptr, %in: !llvm.ptr) {
      "llvm.intr.trap"() : () -> ()
      llvm.return
    }
  }

  // A masked vector load at in[62] (LLVM's vectorizer makes these): lanes 2
  // and 3 would be past in's end, so only lanes the mask in out[0] (an i32)
  // enables are checked; out[1..4] = the loaded vector.
  gpu.module @masked {
    llvm.func @masked(%out: !llvm.ptr, %in: !llvm.ptr) {
      %bits = llvm.load volatile %out : !llvm.ptr -> i32
      %four = llvm.trunc %bits : i32 to i4
      %mask = llvm.bitcast %four : i4 to vector<4xi1>
      %p = llvm.getelementptr %in[62] : (!llvm.ptr) -> !llvm.ptr, f32
      %zero = llvm.mlir.constant(dense<0.0> : vector<4xf32>) : vector<4xf32>
      %v = llvm.intr.masked.load %p, %mask, %zero {alignment = 4 : i32} : (!llvm.ptr, vector<4xi1>, vector<4xf32>) -> vector<4xf32>
      %o = llvm.getelementptr %out[1] : (!llvm.ptr) -> !llvm.ptr, f32
      llvm.store %v, %o {alignment = 4 : i64} : vector<4xf32>, !llvm.ptr
      llvm.return
    }
  }
}

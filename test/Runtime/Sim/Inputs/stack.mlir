// GPU-level kernels with private memory and calls, for the simulator
// (../stack.test). Buffers: 0 = out (f32[4] or i64), 1 = in (i32[4] or i64).
module attributes {gpu.container_module, uop.launch = {
    private_array = {grid = array<i32: 1, 1, 1>, block = array<i32: 4, 1, 1>},
    private_sized = {grid = array<i32: 1, 1, 1>, block = array<i32: 1, 1, 1>},
    recursion = {grid = array<i32: 1, 1, 1>, block = array<i32: 1, 1, 1>}}} {
  // A private array indexed at run time (so LLVM keeps it in memory), with
  // the lifetime markers LLVM's inliner writes: out[t] = a[in[t]] after
  // a[t] = 2, each thread its own copy.
  gpu.module @private_array {
    llvm.func @private_array(%out: !llvm.ptr, %in: !llvm.ptr) {
      %one = llvm.mlir.constant(1 : i64) : i64
      %t = nvvm.read.ptx.sreg.tid.x : i32
      %a = llvm.alloca %one x !llvm.array<4 x f32> : (i64) -> !llvm.ptr
      llvm.intr.lifetime.start %a : !llvm.ptr
      %x = llvm.mlir.constant(2.0 : f32) : f32
      %pa = llvm.getelementptr %a[0, %t] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<4 x f32>
      llvm.store volatile %x, %pa : f32, !llvm.ptr
      %pi = llvm.getelementptr %in[%t] : (!llvm.ptr, i32) -> !llvm.ptr, i32
      %j = llvm.load %pi : !llvm.ptr -> i32
      %pb = llvm.getelementptr %a[0, %j] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<4 x f32>
      %y = llvm.load volatile %pb : !llvm.ptr -> f32
      llvm.intr.lifetime.end %a : !llvm.ptr
      %po = llvm.getelementptr %out[%t] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      llvm.store %y, %po : f32, !llvm.ptr
      llvm.return
    }
  }

  // A private allocation of in[0] floats.
  gpu.module @private_sized {
    llvm.func @private_sized(%out: !llvm.ptr, %in: !llvm.ptr) {
      %n = llvm.load %in : !llvm.ptr -> i64
      %a = llvm.alloca %n x f32 : (i64) -> !llvm.ptr
      %x = llvm.mlir.constant(1.0 : f32) : f32
      llvm.store volatile %x, %a : f32, !llvm.ptr
      %y = llvm.load volatile %a : !llvm.ptr -> f32
      llvm.store %y, %out : f32, !llvm.ptr
      llvm.return
    }
  }

  // fib(in[0]), with two recursive calls (LLVM cannot make a loop of them).
  gpu.module @recursion {
    llvm.func @fib(%n: i64) -> i64 {
      %one = llvm.mlir.constant(1 : i64) : i64
      %two = llvm.mlir.constant(2 : i64) : i64
      %small = llvm.icmp "ult" %n, %two : i64
      llvm.cond_br %small, ^base, ^step
    ^base:
      llvm.return %n : i64
    ^step:
      %a = llvm.sub %n, %one : i64
      %b = llvm.sub %n, %two : i64
      %fa = llvm.call @fib(%a) : (i64) -> i64
      %fb = llvm.call @fib(%b) : (i64) -> i64
      %s = llvm.add %fa, %fb : i64
      llvm.return %s : i64
    }
    llvm.func @recursion(%out: !llvm.ptr, %in: !llvm.ptr) {
      %n = llvm.load %in : !llvm.ptr -> i64
      %r = llvm.call @fib(%n) : (i64) -> i64
      llvm.store %r, %out : i64, !llvm.ptr
      llvm.return
    }
  }
}

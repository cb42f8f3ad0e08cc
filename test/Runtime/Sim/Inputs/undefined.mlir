// GPU-level kernels with undefined behaviour for the simulator
// (../undefined.test). Buffers: 0 = out (f32[65]), 1 = in (f32[64]); for the
// divisions, out i32[4] and in i32[4].
// An address or a branch condition made from llvm.mlir.undef or poison is
// refused before the run (LLVM's optimizer would delete the load, or make the
// store or branch 'unreachable', without a word). One that only LLVM finds
// undefined (a slot never stored to) is a fault where a thread reaches it.
module attributes {gpu.container_module, uop.launch = {
    undef_load = {grid = array<i32: 1, 1, 1>, block = array<i32: 4, 1, 1>},
    undef_store = {grid = array<i32: 1, 1, 1>, block = array<i32: 4, 1, 1>},
    undef_index = {grid = array<i32: 1, 1, 1>, block = array<i32: 4, 1, 1>},
    unset_address = {grid = array<i32: 1, 1, 1>, block = array<i32: 4, 1, 1>},
    unset_branch = {grid = array<i32: 1, 1, 1>, block = array<i32: 4, 1, 1>},
    undef_branch = {grid = array<i32: 1, 1, 1>, block = array<i32: 4, 1, 1>},
    divide = {grid = array<i32: 1, 1, 1>, block = array<i32: 4, 1, 1>},
    remainder = {grid = array<i32: 1, 1, 1>, block = array<i32: 4, 1, 1>},
    divide_min = {grid = array<i32: 1, 1, 1>, block = array<i32: 4, 1, 1>},
    divide_lanes = {grid = array<i32: 1, 1, 1>, block = array<i32: 1, 1, 1>}}} {
  // Undefined where written: an error at the op.
  gpu.module @undef_load {
    llvm.func @undef_load(%out: !llvm.ptr, %in: !llvm.ptr) {
      %p = llvm.mlir.undef : !llvm.ptr
      %x = llvm.load %p : !llvm.ptr -> f32
      llvm.store %x, %out : f32, !llvm.ptr
      llvm.return
    }
  }
  gpu.module @undef_store {
    llvm.func @undef_store(%out: !llvm.ptr, %in: !llvm.ptr) {
      %p = llvm.mlir.poison : !llvm.ptr
      %x = llvm.load %in : !llvm.ptr -> f32
      llvm.store %x, %p : f32, !llvm.ptr
      llvm.return
    }
  }
  gpu.module @undef_index {
    llvm.func @undef_index(%out: !llvm.ptr, %in: !llvm.ptr) {
      %i = llvm.mlir.undef : i32
      %p = llvm.getelementptr %in[%i] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      %x = llvm.load %p : !llvm.ptr -> f32
      llvm.store %x, %out : f32, !llvm.ptr
      llvm.return
    }
  }
  gpu.module @undef_branch {
    llvm.func @undef_branch(%out: !llvm.ptr, %in: !llvm.ptr) {
      %c = llvm.mlir.undef : i1
      %one = llvm.mlir.constant(1.0 : f32) : f32
      %two = llvm.mlir.constant(2.0 : f32) : f32
      llvm.cond_br %c, ^a, ^b
    ^a:
      llvm.store %one, %out : f32, !llvm.ptr
      llvm.return
    ^b:
      llvm.store %two, %out : f32, !llvm.ptr
      llvm.return
    }
  }
  // Undefined once LLVM has promoted the slot: a fault when reached.
  gpu.module @unset_address {
    llvm.func @unset_address(%out: !llvm.ptr, %in: !llvm.ptr) {
      %one = llvm.mlir.constant(1 : i64) : i64
      %slot = llvm.alloca %one x !llvm.ptr : (i64) -> !llvm.ptr
      %p = llvm.load %slot : !llvm.ptr -> !llvm.ptr
      %x = llvm.load %in : !llvm.ptr -> f32
      llvm.store %x, %p : f32, !llvm.ptr
      llvm.return
    }
  }
  gpu.module @unset_branch {
    llvm.func @unset_branch(%out: !llvm.ptr, %in: !llvm.ptr) {
      %one = llvm.mlir.constant(1 : i64) : i64
      %slot = llvm.alloca %one x i1 : (i64) -> !llvm.ptr
      %c = llvm.load %slot : !llvm.ptr -> i1
      %x = llvm.mlir.constant(1.0 : f32) : f32
      %y = llvm.mlir.constant(2.0 : f32) : f32
      llvm.cond_br %c, ^a, ^b
    ^a:
      llvm.store %x, %out : f32, !llvm.ptr
      llvm.return
    ^b:
      llvm.store %y, %out : f32, !llvm.ptr
      llvm.return
    }
  }

  // Integer division by a divisor read from `in` (as i32 bits): by zero, or
  // the minimum value by -1, is a fault when reached (the host's divide
  // instruction would trap); by anything else, the quotient.
  gpu.module @divide {
    llvm.func @divide(%out: !llvm.ptr, %in: !llvm.ptr) {
      %t = nvvm.read.ptx.sreg.tid.x : i32
      %pi = llvm.getelementptr %in[%t] : (!llvm.ptr, i32) -> !llvm.ptr, i32
      %d = llvm.load %pi : !llvm.ptr -> i32
      %c = llvm.mlir.constant(100 : i32) : i32
      %q = llvm.sdiv %c, %d : i32
      %po = llvm.getelementptr %out[%t] : (!llvm.ptr, i32) -> !llvm.ptr, i32
      llvm.store %q, %po : i32, !llvm.ptr
      llvm.return
    }
  }
  gpu.module @remainder {
    llvm.func @remainder(%out: !llvm.ptr, %in: !llvm.ptr) {
      %t = nvvm.read.ptx.sreg.tid.x : i32
      %pi = llvm.getelementptr %in[%t] : (!llvm.ptr, i32) -> !llvm.ptr, i32
      %d = llvm.load %pi : !llvm.ptr -> i32
      %q = llvm.urem %t, %d : i32
      %po = llvm.getelementptr %out[%t] : (!llvm.ptr, i32) -> !llvm.ptr, i32
      llvm.store %q, %po : i32, !llvm.ptr
      llvm.return
    }
  }
  gpu.module @divide_min {
    llvm.func @divide_min(%out: !llvm.ptr, %in: !llvm.ptr) {
      %t = nvvm.read.ptx.sreg.tid.x : i32
      %pi = llvm.getelementptr %in[%t] : (!llvm.ptr, i32) -> !llvm.ptr, i32
      %d = llvm.load %pi : !llvm.ptr -> i32
      %min = llvm.mlir.constant(-2147483648 : i32) : i32
      %q = llvm.sdiv %min, %d : i32
      %po = llvm.getelementptr %out[%t] : (!llvm.ptr, i32) -> !llvm.ptr, i32
      llvm.store %q, %po : i32, !llvm.ptr
      llvm.return
    }
  }
  // Four lanes at once: one zero lane is enough.
  gpu.module @divide_lanes {
    llvm.func @divide_lanes(%out: !llvm.ptr, %in: !llvm.ptr) {
      %d = llvm.load %in : !llvm.ptr -> vector<4xi32>
      %c = llvm.mlir.constant(dense<100> : vector<4xi32>) : vector<4xi32>
      %q = llvm.sdiv %c, %d : vector<4xi32>
      llvm.store %q, %out : vector<4xi32>, !llvm.ptr
      llvm.return
    }
  }
}

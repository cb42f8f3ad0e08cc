// What uop-mlir's PTX printer has no template for is an error at the op,
// never different code.
// RUN: uop-translate --nvvm-to-ptx %s --split-input-file --verify-diagnostics
// The same errors from uop-serialize-to-ptx{printer=direct}, and an unknown printer.
// RUN: not uop-opt %s --split-input-file --uop-serialize-to-ptx=printer=direct 2>&1 | FileCheck %s --check-prefix=PASS
// PASS: 'llvm.frem' op has no PTX template: no template for this op
// RUN: not uop-opt %s --split-input-file --uop-serialize-to-ptx=printer=nvcc 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: unknown printer 'nvcc' (known: llvm, direct)

module attributes {gpu.container_module} {
  gpu.module @m [#nvvm.target<chip = "sm_80", features = "+ptx80">] {
    llvm.func @k(%out: !llvm.ptr, %x: f32) attributes {nvvm.kernel} {
      // expected-error @+1 {{'llvm.frem' op has no PTX template: no template for this op}}
      %r = llvm.frem %x, %x : f32
      llvm.store %r, %out : f32, !llvm.ptr
      llvm.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m [#nvvm.target<chip = "sm_80", features = "+ptx80">] {
    llvm.func @k(%out: !llvm.ptr, %i: i32) attributes {nvvm.kernel} {
      %v = llvm.load %out : !llvm.ptr -> vector<4xf32>
      // expected-error @+1 {{'llvm.extractelement' op has no PTX template: extractelement at a dynamic position}}
      %r = llvm.extractelement %v[%i : i32] : vector<4xf32>
      llvm.store %r, %out : f32, !llvm.ptr
      llvm.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m [#nvvm.target<chip = "sm_80", features = "+ptx80">] {
    llvm.func @k(%out: !llvm.ptr, %x: f32) attributes {nvvm.kernel} {
      // expected-error @+1 {{'llvm.atomicrmw' op has no PTX template: no template for this op}}
      %r = llvm.atomicrmw fadd %out, %x monotonic : !llvm.ptr, f32
      llvm.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m [#nvvm.target<chip = "sm_80", features = "+ptx80">] {
    llvm.func @__nv_expf(f32) -> f32
    llvm.func @k(%out: !llvm.ptr, %x: f32) attributes {nvvm.kernel} {
      // expected-error @+1 {{'llvm.call' op has no PTX template: no template for this op}}
      %r = llvm.call @__nv_expf(%x) : (f32) -> f32
      llvm.store %r, %out : f32, !llvm.ptr
      llvm.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m [#nvvm.target<chip = "sm_80", features = "+ptx80">] {
    // expected-error @+1 {{'llvm.func' op has no PTX template: a device function (only kernels are printed)}}
    llvm.func @helper(%x: f32) -> f32 {
      llvm.return %x : f32
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m [#nvvm.target<chip = "sm_80", features = "+ptx80">] {
    // expected-error @+1 {{'llvm.mlir.global' op has no PTX template: only uninitialized shared (addr_space = 3) globals are printed}}
    llvm.mlir.global internal constant @table(dense<1.0> : vector<4xf32>) {addr_space = 1 : i32} : vector<4xf32>
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m [#nvvm.target<chip = "sm_80", features = "+ptx80">] {
    llvm.func @k(%out: !llvm.ptr, %x: f64) attributes {nvvm.kernel} {
      // expected-error @+1 {{'llvm.fptrunc' op has no PTX template: a conversion to bf16 from other than f32 below sm_90}}
      %r = llvm.fptrunc %x : f64 to bf16
      llvm.store %r, %out : bf16, !llvm.ptr
      llvm.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  // expected-error @+1 {{'gpu.module' op needs a +ptxNN feature in its #nvvm.target to be printed as PTX (features: "")}}
  gpu.module @m [#nvvm.target<chip = "sm_80">] {
  }
}

// -----

// expected-error @+1 {{--nvvm-to-ptx: no gpu.module to print}}
module {
}

// -----

// A TMA copy with an L2 cache hint has no template yet.
module attributes {gpu.container_module} {
  gpu.module @m [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
    llvm.mlir.global internal @bar() {addr_space = 3 : i32, alignment = 8 : i64} : i64
    llvm.mlir.global internal @tile() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<1024 x f16>
    llvm.func @k(%map: !llvm.ptr) attributes {nvvm.kernel} {
      %c0 = llvm.mlir.constant(0 : i32) : i32
      %hint = llvm.mlir.constant(0 : i64) : i64
      %b = llvm.mlir.addressof @bar : !llvm.ptr<3>
      %t = llvm.mlir.addressof @tile : !llvm.ptr<3>
      %d = llvm.addrspacecast %t : !llvm.ptr<3> to !llvm.ptr<7>
      // expected-error @+1 {{'nvvm.cp.async.bulk.tensor.shared.cluster.global' op has no PTX template: cp.async.bulk.tensor other than a tile to the CTA's own shared memory (or multicast to the cluster's) without cache hint or predicate}}
      nvvm.cp.async.bulk.tensor.shared.cluster.global %d, %map, %b, box[%c0, %c0] l2_cache_hint = %hint : !llvm.ptr<7>, !llvm.ptr
      llvm.return
    }
  }
}

// uop-serialize-to-ptx's errors.
// RUN: uop-opt %s --split-input-file --uop-serialize-to-ptx --verify-diagnostics

module attributes {gpu.container_module} {
  // expected-error @+1 {{'gpu.module' op needs exactly one #nvvm.target to be compiled to PTX}}
  gpu.module @untargeted {
  }
}

// -----

module attributes {gpu.container_module} {
  // expected-error @+1 {{'gpu.module' op needs exactly one #nvvm.target to be compiled to PTX}}
  gpu.module @two [#nvvm.target<chip = "sm_80">, #nvvm.target<chip = "sm_90a">] {
  }
}

// -----

module attributes {gpu.container_module} {
  // expected-error @+1 {{'gpu.module' op has #nvvm.target link files, which uop-serialize-to-ptx does not link}}
  gpu.module @linked [#nvvm.target<chip = "sm_80", link = ["extra.bc"]>] {
  }
}

// -----

// LLVM aborts on what it cannot compile (here cp.async.bulk to a shared::cta
// address, which needs PTX 8.6, at sm_90a's PTX 8.0: no instruction
// selection pattern): the pass recovers and fails on the module, and the
// process does not crash (`not` fails on a crash).
// RUN: not uop-opt %s --split-input-file --uop-serialize-to-ptx 2>&1 | FileCheck %s --check-prefix=FATAL
// FATAL: LLVM ERROR: Cannot select
// FATAL: error: 'gpu.module' op LLVM stopped with a fatal error (the LLVM ERROR above) compiling it to PTX for sm_90a (features '+ptx80'): it uses an operation LLVM cannot compile for that chip and PTX version
module attributes {gpu.container_module} {
  // expected-error @+1 {{'gpu.module' op LLVM stopped with a fatal error (the LLVM ERROR above) compiling it to PTX for sm_90a}}
  gpu.module @unselectable [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
    llvm.mlir.global internal @buf() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<4 x i32>
    llvm.mlir.global internal @bar() {addr_space = 3 : i32, alignment = 8 : i64} : i64
    llvm.func @unselectable(%in: !llvm.ptr<1>) attributes {nvvm.kernel} {
      %c16 = llvm.mlir.constant(16 : i32) : i32
      %buf = llvm.mlir.addressof @buf : !llvm.ptr<3>
      %bar = llvm.mlir.addressof @bar : !llvm.ptr<3>
      nvvm.cp.async.bulk.shared.cluster.global %buf, %in, %bar, %c16 : !llvm.ptr<3>, !llvm.ptr<1>
      llvm.return
    }
  }
}

// RUN: uop-opt %s --split-input-file --uop-check-host-accesses --verify-diagnostics

// An op that touches memory other than a load or a store cannot be checked.
func.func @memset(%buf: !llvm.ptr) {
  %c0 = llvm.mlir.constant(0 : i8) : i8
  %n = llvm.mlir.constant(16 : i64) : i64
  // expected-error @+1 {{uop-check-host-accesses: cannot check the memory this op touches: llvm.intr.memset}}
  "llvm.intr.memset"(%buf, %c0, %n) <{isVolatile = false}> : (!llvm.ptr, i8, i64) -> ()
  return
}

// -----

// An address that is not a GEP/select chain from one buffer.
func.func @two_buffers(%a: !llvm.ptr, %b: !llvm.ptr) {
  %c = llvm.mlir.constant(true) : i1
  %p = arith.select %c, %a, %b : !llvm.ptr
  // expected-error @+1 {{uop-check-host-accesses: cannot tell which buffer this address is in}}
  %v = llvm.load %p : !llvm.ptr -> f32
  return
}

// -----

// Kernels take their buffer pointers, then their variables.
// expected-error @+1 {{uop-check-host-accesses: takes kernels whose arguments are buffer pointers, then integers (convert-uop-to-scf's), not 'i32'}}
func.func @scalar(%n: i32, %buf: !llvm.ptr) {
  return
}

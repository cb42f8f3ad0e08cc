//===- Passes.td - uop conversion passes ------------------------------------===//

#ifndef UOP_CONVERSION_PASSES_TD
#define UOP_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertUOpToSCF : Pass<"convert-uop-to-scf", "::mlir::ModuleOp"> {
  let summary = "Lowered uop kernels to func, scf loops, arith/math and LLVM memory ops";
  let description = [{
    Converts every lowered `uop.kernel` (the output of `uop-lower`: RANGEs,
    INDEX, LOAD/STORE, REDUCE and ALU ops, no VIEWs) into a `func.func` of the
    same name taking one `!llvm.ptr` per DEFINE_GLOBAL index, in index order.

    Placement follows tinygrad's linearizer: each STORE runs inside one
    `scf.for` per range it depends on, ordered by axis number; each REDUCE is
    a nest of `scf.for` over its ranges carrying the accumulator as an
    iter_arg, started from the identity (0, 1, or the dtype's lowest value);
    every other op is emitted once, in the innermost loop among the ranges it
    depends on, so loop-invariant work is hoisted by construction. A gated
    LOAD/STORE is an `scf.if` (a gated-off load gives its alt value, or 0).

    Values follow tinygrad's semantics (docs/semantics.md): integer ops wrap;
    IDIV/MOD truncate toward zero, with x/0 = x%0 = 0; shifts by the width or
    more give 0 (or the sign); MAX is `a < b ? b : a`; float compares are
    ordered except CMPNE; float-to-int casts truncate and wrap; bool is a
    byte in memory. With `half-in-f32` (the default, tinygrad's C backend)
    f16 and bf16 are computed in f32 and rounded at casts, stores and half
    accumulators.

    ```mlir
    // uop.store %p, %x inside ranges r0 (axis 0) and r1 (axis 1) becomes
    scf.for %i = %c0 to %c4 step %c1 : i32 {
      scf.for %j = %c0 to %c8 step %c1 : i32 {
        ...
        llvm.store %x, %p : f32, !llvm.ptr
      }
    }
    ```
  }];
  let options = [
    Option<"halfInF32", "half-in-f32", "bool", /*default=*/"true",
           "Compute f16/bf16 in f32, rounding at casts, stores and accumulators">
  ];
  let dependentDialects = ["::mlir::func::FuncDialect", "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect", "::mlir::math::MathDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

#endif

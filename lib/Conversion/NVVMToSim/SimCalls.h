//===- SimCalls.h - calls into the simulator's ABI --------------*- C++ -*-===//
#ifndef UOP_LIB_CONVERSION_NVVMTOSIM_SIMCALLS_H
#define UOP_LIB_CONVERSION_NVVMTOSIM_SIMCALLS_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::uop::sim {

/// Declares `name` (once, in `table`) and calls it at `b` with `args`.
inline LLVM::CallOp callSimFunction(OpBuilder &b, Operation *table, Location loc, StringRef name,
                                    Type result, ValueRange args) {
  auto fn = dyn_cast_or_null<LLVM::LLVMFuncOp>(SymbolTable::lookupSymbolIn(table, name));
  if (!fn) {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(&table->getRegion(0).front());
    fn = LLVM::LLVMFuncOp::create(
        b, table->getLoc(), name,
        LLVM::LLVMFunctionType::get(result, llvm::to_vector(args.getTypes())));
  }
  return LLVM::CallOp::create(b, loc, fn, args);
}

/// The integer constant `v` of type `t`, at `b`.
inline Value simConstant(OpBuilder &b, Location loc, Type t, int64_t v) {
  return LLVM::ConstantOp::create(b, loc, t, b.getIntegerAttr(t, v));
}

/// `p` as a generic pointer (the simulator's functions take host
/// addresses, which every address space's are on the simulator).
inline Value genericPointer(OpBuilder &b, Location loc, Value p) {
  if (cast<LLVM::LLVMPointerType>(p.getType()).getAddressSpace() == 0)
    return p;
  return LLVM::AddrSpaceCastOp::create(b, loc, LLVM::LLVMPointerType::get(b.getContext()), p);
}

} // namespace mlir::uop::sim

#endif

//===- IndexSum.cpp - an address index as a sum of values -----------------===//

#include "IndexSum.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::uop;

static bool isNSW(Operation *op) {
  auto flags = dyn_cast<arith::ArithIntegerOverflowFlagsInterface>(op);
  if (flags)
    return flags.hasNoSignedWrap();
  auto llvmFlags = dyn_cast<LLVM::IntegerOverflowFlagsInterface>(op);
  return llvmFlags && llvmFlags.hasNoSignedWrap();
}

static std::optional<IndexSum> sumOf(Value v, unsigned depth) {
  if (!v.getType().isIndex() && v.getType().getIntOrFloatBitWidth() > 64)
    return std::nullopt;
  if (std::optional<int64_t> c = getConstantIntValue(v))
    return IndexSum::ofConstant(*c);
  Operation *op = v.getDefiningOp();
  if (!op || depth > 8 || !isNSW(op))
    return IndexSum::ofVariable(v);
  auto combine = [&](int64_t rhsScale) -> std::optional<IndexSum> {
    std::optional<IndexSum> lhs = sumOf(op->getOperand(0), depth + 1),
                            rhs = sumOf(op->getOperand(1), depth + 1);
    rhs = rhs ? rhs->times(rhsScale) : std::nullopt;
    return lhs && rhs ? lhs->plus(*rhs) : std::nullopt;
  };
  if (isa<arith::AddIOp, LLVM::AddOp>(op))
    return combine(1);
  if (isa<arith::SubIOp, LLVM::SubOp>(op))
    return combine(-1);
  if (isa<arith::MulIOp, LLVM::MulOp>(op))
    for (unsigned i = 0; i < 2; ++i)
      if (std::optional<int64_t> c = getConstantIntValue(op->getOperand(i))) {
        std::optional<IndexSum> other = sumOf(op->getOperand(1 - i), depth + 1);
        return other ? other->times(*c) : std::nullopt;
      }
  return IndexSum::ofVariable(v);
}

std::optional<IndexSum> mlir::uop::indexSumOf(Value v) { return sumOf(v, 0); }

void mlir::uop::eraseDeadChains(ArrayRef<Operation *> roots, Block *within) {
  llvm::SetVector<Operation *> worklist(roots.begin(), roots.end());
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if ((within && op->getBlock() != within) || !isOpTriviallyDead(op))
      continue;
    SmallVector<Operation *> defs;
    for (Value v : op->getOperands())
      if (Operation *def = v.getDefiningOp())
        defs.push_back(def);
    op->erase();
    // An op is dead only once its last user is erased: it never comes back.
    worklist.insert(defs.begin(), defs.end());
  }
}

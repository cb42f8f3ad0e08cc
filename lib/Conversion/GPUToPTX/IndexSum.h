//===- IndexSum.h - an address index as a sum of values ---------*- C++ -*-===//
//
// The direct printer's loop passes read a load's index as values times
// constants plus a constant: uop-vectorize-loads to find neighbouring
// elements, uop-pointer-inductions to find what an address steps by.
//
//===----------------------------------------------------------------------===//
#ifndef UOP_CONVERSION_GPUTOPTX_INDEXSUM_H
#define UOP_CONVERSION_GPUTOPTX_INDEXSUM_H

#include "uop/Dialect/UOp/Utils/AffineSum.h"

#include "mlir/IR/Value.h"

namespace mlir::uop {

/// An index as the sum of values times constants plus a constant, exact:
/// only nsw adds, subtracts and multiplies by constants are looked through.
struct IndexSum : sym::LinearSum<Value, IndexSum> {};

/// `v` as a sum; std::nullopt on int64 overflow. An index wider than 64
/// bits is not taken apart (its constants may not fit).
std::optional<IndexSum> indexSumOf(Value v);

/// Erases the ops of `roots` that have no uses, and then the ops that
/// computed their operands and are dead in turn (pure ops only); with
/// `within`, only ops of that block.
void eraseDeadChains(ArrayRef<Operation *> roots, Block *within = nullptr);

} // namespace mlir::uop

#endif

//===- GreedyWithRanges.h - a greedy rewrite whose range queries share walks -*- C++ -*-===//
//
// The uop folders (tinygrad's min == max rule) and the rules that need a
// bound on a value ask for integer ranges; a greedy rewrite that folds or
// runs such rules keeps a RangeMemo for the run (UOpRanges.h).
//
//===----------------------------------------------------------------------===//
#ifndef UOP_LIB_DIALECT_UOP_TRANSFORMS_GREEDYWITHRANGES_H
#define UOP_LIB_DIALECT_UOP_TRANSFORMS_GREEDYWITHRANGES_H

#include "uop/Dialect/UOp/IR/UOpRanges.h"

#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cassert>

namespace mlir::uop {

/// applyPatternsGreedily with a RangeMemo as the driver's listener, so that
/// the run's range queries share their walks and a rewrite forgets what it
/// invalidates.
/// With `staleRanges` (tests), every range query is also answered by a
/// fresh walk; each that the memo answered otherwise is an error at its
/// value, and their number is stored there.
inline LogicalResult applyPatternsWithRanges(Operation *op, const FrozenRewritePatternSet &patterns,
                                             GreedyRewriteConfig config,
                                             unsigned *staleRanges = nullptr) {
  assert(!config.getListener() && "the RangeMemo is the driver's listener");
  RangeMemo memo;
  memo.checkAgainstFreshWalks = staleRanges;
  config.setListener(&memo);
  LogicalResult converged = applyPatternsGreedily(op, patterns, config);
  if (staleRanges) {
    for (Location loc : memo.stale)
      emitError(loc) << "the range remembered for this value differs from a fresh walk's";
    *staleRanges = memo.stale.size();
  }
  return converged;
}

} // namespace mlir::uop

#endif

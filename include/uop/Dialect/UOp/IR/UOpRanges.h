//===- UOpRanges.h - tinygrad's vmin/vmax through MLIR's range interface -*- C++ -*-===//
//
// Every integer or bool uop op implements InferIntRangeInterface
// (UOpRanges.cpp); upstream's IntegerRangeAnalysis and the rewrite rules
// read the same definitions. getIntRange walks the use-def graph the way
// tinygrad's vmin/vmax does, for rules that need a bound on one value; a
// RangeMemo keeps what the walks found across the folds of one rewrite run.
//
//===----------------------------------------------------------------------===//
#ifndef UOP_DIALECT_UOP_IR_UOPRANGES_H
#define UOP_DIALECT_UOP_IR_UOPRANGES_H

#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/InferIntRangeInterface.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>

namespace mlir::uop {

/// The range of a scalar integer or bool value, from its defining ops'
/// range interfaces (any value they do not bound is the full range).
/// std::nullopt for values that are not scalar integers or bools.
std::optional<ConstantIntRanges> getIntRange(Value v);

/// While one is alive, getIntRange on its thread remembers every range it
/// finds, across queries. Without it each query walks its value's operands
/// afresh; in canonicalize, where every integer op's folder asks for its own
/// range (tinygrad's min == max rule), that is the same index math again
/// for each op. As the rewrite driver's listener it keeps the ranges a
/// fresh walk would find: when an op is modified or replaced, the values
/// computed from it are forgotten unless its range stayed the same (a
/// range is a function of the operands' ranges only, so theirs did too);
/// an erased op's values are forgotten. Patterns must change the IR through
/// the rewriter, as the greedy driver requires.
class RangeMemo final : public RewriterBase::Listener {
public:
  RangeMemo();
  ~RangeMemo() override;
  RangeMemo(const RangeMemo &) = delete;
  RangeMemo &operator=(const RangeMemo &) = delete;

  void notifyOperationModified(Operation *op) override;
  void notifyOperationReplaced(Operation *op, ValueRange replacement) override;
  void notifyOperationErased(Operation *op) override { forgetFrom(op->getResults()); }

  /// The ranges found so far. A value is here only with every operand the
  /// walk reached (so forgetting can stop at a value that is not here).
  llvm::DenseMap<Value, ConstantIntRanges> ranges;

  /// For tests: when set, every query also walks afresh, and where the two
  /// answers differ the value's location is kept in `stale`
  /// (uop-canonicalize{test-ranges}).
  bool checkAgainstFreshWalks = false;
  llvm::SmallVector<Location> stale;

private:
  /// Forgets `values` and every remembered value computed from them.
  void forgetFrom(ValueRange values);
  /// Forgets `v`'s range, and what was computed from `v` unless `now` (`v`
  /// after a modification, or what replaces it) has the same range.
  void refresh(Value v, Value now);
  RangeMemo *outer; // the one this replaced on the thread, if any
};

/// tinygrad's (vmin, vmax) of a scalar integer value, read with the
/// value's signedness; std::nullopt when not an integer or when a bound of
/// a ui64 does not fit in int64.
struct VRange {
  int64_t min, max;
};
std::optional<VRange> getVRange(Value v);

} // namespace mlir::uop

#endif

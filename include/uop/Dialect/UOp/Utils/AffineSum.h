//===- AffineSum.h - sums of variables times constants ----------*- C++ -*-===//
//
// constant + sum(coefficient * variable), variables by name: the form of a
// symbolic view entry (read from tinygrad's JSON by the importer) and of a
// symbolic launch size (read from uop ops by convert-uop-to-gpu). Arithmetic
// is checked: std::nullopt when a value leaves int64.
//
//===----------------------------------------------------------------------===//
#ifndef UOP_DIALECT_UOP_UTILS_AFFINESUM_H
#define UOP_DIALECT_UOP_UTILS_AFFINESUM_H

#include "uop/Dialect/UOp/IR/UOpAttrs.h"

#include <optional>
#include <string>
#include <utility>

namespace mlir::uop::sym {

struct AffineSum {
  int64_t constant = 0;
  /// (variable, coefficient) in order of first appearance; no coefficient is 0.
  SmallVector<std::pair<std::string, int64_t>> terms;

  static AffineSum ofVariable(StringRef name) { return {0, {{name.str(), 1}}}; }
  bool isConstant() const { return terms.empty(); }

  /// this + other
  std::optional<AffineSum> plus(const AffineSum &other) const;
  /// this * c
  std::optional<AffineSum> times(int64_t c) const;

  /// As the #uop.sym_entry of `slot` (there must be a term).
  SymEntryAttr toAttr(MLIRContext *ctx, int64_t slot) const;
};

} // namespace mlir::uop::sym

#endif

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
  static AffineSum ofConstant(int64_t c) { return {c, {}}; }
  /// The entry of `slot` of a view: its symbolic entry, else the integer.
  static AffineSum ofEntry(ViewAttr view, int64_t slot);
  static AffineSum of(SymEntryAttr entry);
  bool isConstant() const { return terms.empty(); }
  bool isConstant(int64_t c) const { return terms.empty() && constant == c; }

  /// this + other
  std::optional<AffineSum> plus(const AffineSum &other) const;
  /// this * c
  std::optional<AffineSum> times(int64_t c) const;
  /// this * other, where one of them is a constant (else not affine).
  std::optional<AffineSum> times(const AffineSum &other) const;
  /// The smallest and largest values over the variables' ranges, checked.
  std::optional<std::pair<int64_t, int64_t>>
  bounds(function_ref<std::pair<int64_t, int64_t>(StringRef)> range) const;

  /// The same sum (terms in any order).
  bool operator==(const AffineSum &other) const;
  bool operator!=(const AffineSum &other) const { return !(*this == other); }

  /// As the #uop.sym_entry of `slot` (there must be a term).
  SymEntryAttr toAttr(MLIRContext *ctx, int64_t slot) const;
};

} // namespace mlir::uop::sym

#endif

//===- AffineSum.h - sums of variables times constants ----------*- C++ -*-===//
//
// constant + sum(coefficient * variable), checked: std::nullopt when a value
// leaves int64. LinearSum is the arithmetic over any kind of variable;
// AffineSum's variables are names, the form of a symbolic view entry (read
// from tinygrad's JSON by the importer) and of a symbolic launch size (read
// from uop ops by convert-uop-to-gpu). uop-vectorize-loads keys its index
// sums by SSA value.
//
//===----------------------------------------------------------------------===//
#ifndef UOP_DIALECT_UOP_UTILS_AFFINESUM_H
#define UOP_DIALECT_UOP_UTILS_AFFINESUM_H

#include "uop/Dialect/UOp/IR/UOpAttrs.h"

#include "llvm/Support/CheckedArithmetic.h"

#include <optional>
#include <string>
#include <utility>

namespace mlir::uop::sym {

/// The sum over variables of type Key; its operations return Derived, the
/// type deriving from it.
template <typename Key, typename Derived> struct LinearSum {
  int64_t constant = 0;
  /// (variable, coefficient) in order of first appearance; no coefficient is 0.
  SmallVector<std::pair<Key, int64_t>> terms;

  static Derived ofVariable(Key variable) {
    Derived out;
    out.terms.push_back({std::move(variable), 1});
    return out;
  }
  static Derived ofConstant(int64_t c) {
    Derived out;
    out.constant = c;
    return out;
  }
  bool isConstant() const { return terms.empty(); }
  bool isConstant(int64_t c) const { return terms.empty() && constant == c; }

  /// this + other
  std::optional<Derived> plus(const LinearSum &other) const {
    std::optional<int64_t> k = llvm::checkedAdd(constant, other.constant);
    if (!k)
      return std::nullopt;
    Derived out = ofConstant(*k);
    out.terms = terms;
    for (const auto &term : other.terms) {
      auto it = llvm::find_if(out.terms, [&](auto &t) { return t.first == term.first; });
      if (it == out.terms.end()) {
        out.terms.push_back(term);
      } else if (std::optional<int64_t> sum = llvm::checkedAdd(it->second, term.second)) {
        it->second = *sum;
      } else {
        return std::nullopt;
      }
    }
    llvm::erase_if(out.terms, [](auto &t) { return t.second == 0; });
    return out;
  }
  /// this * c
  std::optional<Derived> times(int64_t c) const {
    std::optional<int64_t> k = llvm::checkedMul(constant, c);
    if (!k)
      return std::nullopt;
    Derived out = ofConstant(*k);
    for (const auto &[variable, coef] : terms) {
      std::optional<int64_t> product = llvm::checkedMul(coef, c);
      if (!product)
        return std::nullopt;
      if (*product)
        out.terms.push_back({variable, *product});
    }
    return out;
  }
  /// this * other, where one of them is a constant (else not affine).
  std::optional<Derived> times(const LinearSum &other) const {
    if (other.isConstant())
      return times(other.constant);
    if (isConstant())
      return other.times(constant);
    return std::nullopt;
  }
  /// The smallest and largest values over the variables' ranges, checked.
  std::optional<std::pair<int64_t, int64_t>>
  bounds(function_ref<std::pair<int64_t, int64_t>(const Key &)> range) const {
    // Each partial sum of any evaluation lies between the two partial sums
    // here, so checking these checks every evaluation in the ranges.
    std::optional<int64_t> lower = constant, upper = constant;
    for (const auto &[variable, coef] : terms) {
      auto [lo, hi] = range(variable);
      std::optional<int64_t> small = llvm::checkedMul(coef, coef > 0 ? lo : hi),
                             large = llvm::checkedMul(coef, coef > 0 ? hi : lo);
      lower = lower && small ? llvm::checkedAdd(*lower, *small) : std::nullopt;
      upper = upper && large ? llvm::checkedAdd(*upper, *large) : std::nullopt;
    }
    if (!lower || !upper)
      return std::nullopt;
    return std::make_pair(*lower, *upper);
  }

  /// The same terms (in any order), whatever the constants.
  bool sameTerms(const LinearSum &other) const {
    return terms.size() == other.terms.size() &&
           llvm::all_of(terms, [&](const auto &t) { return llvm::is_contained(other.terms, t); });
  }
  /// The same sum (terms in any order).
  bool operator==(const LinearSum &other) const {
    return constant == other.constant && sameTerms(other);
  }
  bool operator!=(const LinearSum &other) const { return !(*this == other); }
};

/// A sum over named variables.
struct AffineSum : LinearSum<std::string, AffineSum> {
  static AffineSum ofVariable(StringRef name) { return LinearSum::ofVariable(name.str()); }
  /// The entry of `slot` of a view: its symbolic entry, else the integer.
  static AffineSum ofEntry(ViewAttr view, int64_t slot);
  static AffineSum of(SymEntryAttr entry);

  /// As the #uop.sym_entry of `slot` (there must be a term).
  SymEntryAttr toAttr(MLIRContext *ctx, int64_t slot) const;
};

} // namespace mlir::uop::sym

#endif

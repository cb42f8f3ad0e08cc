//===- AffineSum.cpp - sums of variables times constants ------------------===//

#include "uop/Dialect/UOp/Utils/AffineSum.h"

#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace mlir::uop;
using namespace mlir::uop::sym;

std::optional<AffineSum> AffineSum::plus(const AffineSum &other) const {
  std::optional<int64_t> k = llvm::checkedAdd(constant, other.constant);
  if (!k)
    return std::nullopt;
  AffineSum out{*k, terms};
  for (const auto &[name, coef] : other.terms) {
    auto it = llvm::find_if(out.terms, [&](auto &t) { return t.first == name; });
    if (it == out.terms.end()) {
      out.terms.push_back({name, coef});
    } else if (std::optional<int64_t> sum = llvm::checkedAdd(it->second, coef)) {
      it->second = *sum;
    } else {
      return std::nullopt;
    }
  }
  llvm::erase_if(out.terms, [](auto &t) { return t.second == 0; });
  return out;
}

std::optional<AffineSum> AffineSum::times(int64_t c) const {
  std::optional<int64_t> k = llvm::checkedMul(constant, c);
  if (!k)
    return std::nullopt;
  AffineSum out{*k, {}};
  for (const auto &[name, coef] : terms) {
    std::optional<int64_t> product = llvm::checkedMul(coef, c);
    if (!product)
      return std::nullopt;
    if (*product)
      out.terms.push_back({name, *product});
  }
  return out;
}

std::optional<AffineSum> AffineSum::times(const AffineSum &other) const {
  if (other.isConstant())
    return times(other.constant);
  if (isConstant())
    return other.times(constant);
  return std::nullopt;
}

std::optional<std::pair<int64_t, int64_t>>
AffineSum::bounds(function_ref<std::pair<int64_t, int64_t>(StringRef)> range) const {
  // Each partial sum of any evaluation lies between the two partial sums
  // here, so checking these checks every evaluation in the ranges.
  std::optional<int64_t> lower = constant, upper = constant;
  for (const auto &[name, coef] : terms) {
    auto [lo, hi] = range(name);
    std::optional<int64_t> small = llvm::checkedMul(coef, coef > 0 ? lo : hi),
                           large = llvm::checkedMul(coef, coef > 0 ? hi : lo);
    lower = lower && small ? llvm::checkedAdd(*lower, *small) : std::nullopt;
    upper = upper && large ? llvm::checkedAdd(*upper, *large) : std::nullopt;
  }
  if (!lower || !upper)
    return std::nullopt;
  return std::make_pair(*lower, *upper);
}

bool AffineSum::operator==(const AffineSum &other) const {
  if (constant != other.constant || terms.size() != other.terms.size())
    return false;
  return llvm::all_of(terms, [&](const auto &t) { return llvm::is_contained(other.terms, t); });
}

AffineSum AffineSum::ofEntry(ViewAttr view, int64_t slot) {
  SymEntryAttr e = view.getSymAt(slot);
  return e ? of(e) : ofConstant(view.getEntry(slot));
}

AffineSum AffineSum::of(SymEntryAttr e) {
  AffineSum out{e.getConstant(), {}};
  for (auto [c, var] : llvm::zip(e.getCoefs(), e.getVars()))
    if (c)
      out.terms.push_back({var.getValue().str(), c});
  return out;
}

SymEntryAttr AffineSum::toAttr(MLIRContext *ctx, int64_t slot) const {
  SmallVector<int64_t> coefs;
  SmallVector<StringAttr> vars;
  for (const auto &[name, coef] : terms) {
    vars.push_back(StringAttr::get(ctx, name));
    coefs.push_back(coef);
  }
  return SymEntryAttr::get(ctx, slot, constant, coefs, vars);
}

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

SymEntryAttr AffineSum::toAttr(MLIRContext *ctx, int64_t slot) const {
  SmallVector<int64_t> coefs;
  SmallVector<StringAttr> vars;
  for (const auto &[name, coef] : terms) {
    vars.push_back(StringAttr::get(ctx, name));
    coefs.push_back(coef);
  }
  return SymEntryAttr::get(ctx, slot, constant, coefs, vars);
}

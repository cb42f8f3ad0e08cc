//===- AffineSum.cpp - sums of variables times constants ------------------===//

#include "uop/Dialect/UOp/Utils/AffineSum.h"

using namespace mlir;
using namespace mlir::uop;
using namespace mlir::uop::sym;

AffineSum AffineSum::ofEntry(ViewAttr view, int64_t slot) {
  SymEntryAttr e = view.getSymAt(slot);
  return e ? of(e) : ofConstant(view.getEntry(slot));
}

AffineSum AffineSum::of(SymEntryAttr e) {
  AffineSum out = ofConstant(e.getConstant());
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

//===- VectorRules.cpp - tinygrad's gep_pushing: GEP and VECTORIZE --------===//

#include "Rules.h"

using namespace mlir;
using namespace mlir::uop;
using namespace mlir::uop::sym;

/// GEP of a splat constant is the constant; GEP of one lane of a VECTORIZE
/// is that source; GEP of every lane in order is the vector.
OpFoldResult GepOp::fold(FoldAdaptor adaptor) {
  ArrayRef<int64_t> idx = getIndices();
  Type t = getType();
  if (auto splat = dyn_cast_or_null<SplatElementsAttr>(adaptor.getSrc())) {
    if (auto vt = dyn_cast<VectorType>(t))
      return SplatElementsAttr::get(vt, splat.getSplatValue<Attribute>());
    return splat.getSplatValue<Attribute>();
  }
  if (auto vec = getSrc().getDefiningOp<VectorizeOp>(); vec && idx.size() == 1)
    return vec.getSrcs()[idx[0]];
  bool inOrder =
      (int64_t)idx.size() == getVCount(getSrc().getType()) &&
      llvm::all_of(llvm::enumerate(idx), [](auto p) { return (int64_t)p.index() == p.value(); });
  if (inOrder && !isa<PtrType>(t))
    return getSrc();
  return {};
}

/// VECTORIZE of one constant n times is that constant as a splat;
/// VECTORIZE(GEP(x, 0), ..., GEP(x, n-1)) is x.
OpFoldResult VectorizeOp::fold(FoldAdaptor adaptor) {
  auto vt = dyn_cast<VectorType>(getType());
  if (!vt || adaptor.getSrcs().empty())
    return {};
  auto first = getSrcs()[0].getDefiningOp<GepOp>();
  if (first && first.getSrc().getType() == getType() &&
      llvm::all_of(llvm::enumerate(getSrcs()), [&](auto p) {
        auto g = p.value().template getDefiningOp<GepOp>();
        return g && g.getSrc() == first.getSrc() &&
               g.getIndices() == ArrayRef<int64_t>{(int64_t)p.index()};
      }))
    return first.getSrc();
  if (!adaptor.getSrcs()[0])
    return {};
  Attribute scalar = adaptor.getSrcs()[0];
  if (!llvm::all_of(adaptor.getSrcs(), [&](Attribute a) { return a == scalar; }))
    return {};
  return SplatElementsAttr::get(vt, scalar);
}

namespace {

/// GEP(GEP(x, i2), i1) -> GEP(x, i2[i1])
LogicalResult gepOfGep(GepOp op, PatternRewriter &rw) {
  auto inner = op.getSrc().getDefiningOp<GepOp>();
  if (!inner)
    return failure();
  SmallVector<int64_t> idx;
  for (int64_t i : op.getIndices())
    idx.push_back(inner.getIndices()[i]);
  rw.replaceOpWithNewOp<GepOp>(op, inner.getSrc(), idx);
  return success();
}

/// GEP(VECTORIZE(s...), idx) -> VECTORIZE(s[idx]...)
LogicalResult gepOfVectorize(GepOp op, PatternRewriter &rw) {
  auto vec = op.getSrc().getDefiningOp<VectorizeOp>();
  if (!vec || op.getIndices().size() < 2)
    return failure();
  SmallVector<Value> srcs;
  for (int64_t i : op.getIndices())
    srcs.push_back(vec.getSrcs()[i]);
  rw.replaceOpWithNewOp<VectorizeOp>(op, op.getType(), srcs);
  return success();
}

/// VECTORIZE(GEP(x, i0), GEP(x, i1), ...) -> GEP(x, [i0, i1, ...])
LogicalResult vectorizeOfGeps(VectorizeOp op, PatternRewriter &rw) {
  Value x;
  SmallVector<int64_t> idx;
  for (Value s : op.getSrcs()) {
    auto gep = s.getDefiningOp<GepOp>();
    if (!gep || gep.getIndices().size() != 1 || (x && gep.getSrc() != x))
      return failure();
    x = gep.getSrc();
    idx.push_back(gep.getIndices()[0]);
  }
  rw.replaceOpWithNewOp<GepOp>(op, x, idx);
  return success();
}

} // namespace

void sym::populateVectorPatterns(RewritePatternSet &patterns) {
  patterns.add(gepOfGep);
  patterns.add(gepOfVectorize);
  patterns.add(vectorizeOfGeps);
}

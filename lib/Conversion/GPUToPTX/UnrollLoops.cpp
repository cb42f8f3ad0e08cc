//===- UnrollLoops.cpp - short loops unrolled, for the direct printer -----===//
//
// LLVM unrolls a kernel's short loops before its NVPTX back end; the direct
// printer has no LLVM, and ptxas, left to unroll a rolled loop itself,
// unrolls it deeply and keeps every copy's loads in registers at once
// (issue 23: softmax k0 58 registers, LLVM's PTX 21). This pass unrolls as
// LLVM would and marks the loop so that ptxas does not unroll it again.
//
//===----------------------------------------------------------------------===//

#include "uop/Conversion/Passes.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/Support/CheckedArithmetic.h"

namespace mlir::uop {
#define GEN_PASS_DEF_UOPUNROLLLOOPS
#include "uop/Conversion/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;
using namespace mlir::uop;

namespace {

/// The loop's trip count, if its bounds are constants and its step positive
/// (and its type at most 64 bits wide, as the constants are read).
std::optional<int64_t> tripCount(scf::ForOp loop) {
  Type type = loop.getInductionVar().getType();
  if (!type.isIndex() && type.getIntOrFloatBitWidth() > 64)
    return std::nullopt;
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound()),
                         ub = getConstantIntValue(loop.getUpperBound()),
                         step = getConstantIntValue(loop.getStep());
  if (!lb || !ub || !step || *step <= 0 || loop.getUnsignedCmp())
    return std::nullopt;
  std::optional<int64_t> span = llvm::checkedSub(*ub, *lb);
  if (!span)
    return std::nullopt;
  return *span <= 0 ? 0 : (*span - 1) / *step + 1;
}

/// The body's op count, or nullopt if an op in it has regions.
std::optional<unsigned> straightLineSize(scf::ForOp loop) {
  unsigned size = 0;
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (op.getNumRegions())
      return std::nullopt;
    ++size;
  }
  return size;
}

/// Clones `ops` (a loop body without its yield) at `b`'s insertion point,
/// for the induction value `iv` and iteration arguments `carried`; returns
/// what the copy yields.
SmallVector<Value> cloneIteration(scf::ForOp loop, ArrayRef<Operation *> ops, OpBuilder &b,
                                  Value iv, ValueRange carried) {
  IRMapping map;
  map.map(loop.getInductionVar(), iv);
  map.map(loop.getRegionIterArgs(), carried);
  for (Operation *op : ops)
    b.clone(*op, map);
  return llvm::map_to_vector(loop.getBody()->getTerminator()->getOperands(),
                             [&](Value v) { return map.lookupOrDefault(v); });
}

SmallVector<Operation *> bodyOps(scf::ForOp loop) {
  return llvm::map_to_vector(loop.getBody()->without_terminator(),
                             [](Operation &op) { return &op; });
}

Value constant(OpBuilder &b, Location loc, Type type, int64_t value) {
  return arith::ConstantOp::create(b, loc, type, b.getIntegerAttr(type, value));
}

/// Appends copies 1..factor-1 of the body to it and multiplies the step by
/// `factor`, which divides the trip count. Copy k sees `iv + k * step`: no
/// copy runs past the last iteration, so the add cannot wrap.
void unrollByFactor(scf::ForOp loop, int64_t step, int64_t factor) {
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  Value iv = loop.getInductionVar();
  Type type = iv.getType();
  Location loc = loop.getLoc();
  SmallVector<Operation *> ops = bodyOps(loop);
  OpBuilder b(yield);
  SmallVector<Value> carried(yield.getOperands());
  for (int64_t k = 1; k < factor; ++k) {
    Value ivK = arith::AddIOp::create(b, loc, iv, constant(b, loc, type, k * step),
                                      arith::IntegerOverflowFlags::nsw);
    carried = cloneIteration(loop, ops, b, ivK, carried);
  }
  yield.getResultsMutable().assign(carried);
  b.setInsertionPoint(loop);
  loop.getStepMutable().assign(constant(b, loc, type, step * factor));
}

/// Replaces the loop by its `trips` iterations, each with its induction
/// value a constant.
void unrollFully(scf::ForOp loop, int64_t lb, int64_t step, int64_t trips) {
  Type type = loop.getInductionVar().getType();
  SmallVector<Operation *> ops = bodyOps(loop);
  OpBuilder b(loop);
  SmallVector<Value> carried(loop.getInitArgs());
  for (int64_t k = 0; k < trips; ++k)
    carried =
        cloneIteration(loop, ops, b, constant(b, loop.getLoc(), type, lb + k * step), carried);
  loop.replaceAllUsesWith(carried);
  loop.erase();
}

struct UnrollLoopsPass : public uop::impl::UOpUnrollLoopsBase<UnrollLoopsPass> {
  using Base::Base;

  /// The factor to unroll by: the trip count (fully), a power of two whose
  /// multiple of `step` the induction variable's type holds, or 1.
  int64_t factorFor(int64_t trips, unsigned size, int64_t step, Type type) const {
    if (size == 0 || trips < 2)
      return 1;
    if (trips <= budget / size)
      return trips;
    unsigned bits = type.isIndex() ? 64 : type.getIntOrFloatBitWidth();
    int64_t factor = 1;
    for (int64_t f = 2; f <= maxFactor && f <= budget / size; f *= 2) {
      std::optional<int64_t> newStep = llvm::checkedMul(step, f);
      if (trips % f == 0 && newStep && APInt::getSignedMaxValue(bits).sge(*newStep))
        factor = f;
    }
    return factor;
  }

  void runOnOperation() override {
    // Inner loops first: an outer loop is straight-line code once the loop
    // in it is unrolled fully.
    SmallVector<scf::ForOp> loops;
    getOperation()->walk([&](scf::ForOp loop) { loops.push_back(loop); });
    MLIRContext *ctx = &getContext();
    auto noUnroll = LLVM::LoopAnnotationAttr::get(
        ctx, {}, {}, {},
        LLVM::LoopUnrollAttr::get(ctx, BoolAttr::get(ctx, true), {}, {}, {}, {}, {}, {}), {}, {},
        {}, {}, {}, {}, {}, {}, {}, {}, {});
    for (scf::ForOp loop : loops) {
      std::optional<int64_t> trips = tripCount(loop);
      std::optional<unsigned> size = straightLineSize(loop);
      if (!trips || !size)
        continue;
      int64_t step = *getConstantIntValue(loop.getStep());
      int64_t factor = factorFor(*trips, *size, step, loop.getInductionVar().getType());
      if (factor < 2)
        continue;
      if (factor == *trips) {
        unrollFully(loop, *getConstantIntValue(loop.getLowerBound()), step, factor);
        continue;
      }
      unrollByFactor(loop, step, factor);
      loop->setAttr("llvm.loop_annotation", noUnroll);
    }
  }
};

} // namespace

//===- PointerInductions.cpp - a loop's addresses as stepped pointers -----===//
//
// LLVM's loop strength reduction turns an address base[inv + c*i + k] in a
// loop over i into a pointer that steps by c elements per iteration, before
// its NVPTX back end; the direct printer has no LLVM, and ptxas, given the
// index math, keeps the base and the invariant part live through the loop
// (conv3x3: 56 registers; with pointers and uop-recompute-after-loops, 48,
// nvcc's figure).
//
//===----------------------------------------------------------------------===//

#include "IndexSum.h"
#include "uop/Conversion/Passes.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::uop {
#define GEN_PASS_DEF_UOPPOINTERINDUCTIONS
#include "uop/Conversion/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;
using namespace mlir::uop;

namespace {

/// base[index] in the loop, with index = terms + c * iv + constant, the
/// terms defined outside the loop.
struct Address {
  LLVM::GEPOp gep;
  IndexSum initial;     // the index at the loop's lower bound
  int64_t perIteration; // c * step
};

/// The geps of `loop`'s body, outside its nested loops, whose one index is
/// affine in the induction variable with loop-invariant other terms.
SmallVector<Address> addressesIn(scf::ForOp loop, int64_t step) {
  SmallVector<Address> out;
  Value iv = loop.getInductionVar();
  std::optional<IndexSum> lowerBound = indexSumOf(loop.getLowerBound());
  if (!lowerBound)
    return out;
  loop.getBody()->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<LoopLikeOpInterface>(op))
      return WalkResult::skip();
    auto gep = dyn_cast<LLVM::GEPOp>(op);
    if (!gep || gep.getIndices().size() != 1 || !isa<Value>(gep.getIndices()[0]) ||
        !loop.isDefinedOutsideOfLoop(gep.getBase()))
      return WalkResult::advance();
    std::optional<IndexSum> sum = indexSumOf(cast<Value>(gep.getIndices()[0]));
    if (!sum)
      return WalkResult::advance();
    auto ivTerm = llvm::find_if(sum->terms, [&](auto &t) { return t.first == iv; });
    if (ivTerm == sum->terms.end())
      return WalkResult::advance();
    // The iv's term at the lower bound goes into the initial pointer.
    int64_t coefficient = ivTerm->second;
    std::optional<int64_t> perIteration = llvm::checkedMul(coefficient, step);
    sum->terms.erase(ivTerm);
    std::optional<IndexSum> atLowerBound = lowerBound->times(coefficient);
    sum = atLowerBound ? sum->plus(*atLowerBound) : std::nullopt;
    if (!sum)
      return WalkResult::advance();
    // Each other term is loop-invariant and at most 32 bits wide, so the
    // initial pointer's index is exact in 64 bits (bounds checks that).
    bool invariant = llvm::all_of(sum->terms, [&](auto &t) {
      Type type = t.first.getType();
      return loop.isDefinedOutsideOfLoop(t.first) && type.isSignlessInteger() &&
             type.getIntOrFloatBitWidth() <= 32;
    });
    auto range = [](const Value &v) {
      unsigned bits = v.getType().getIntOrFloatBitWidth();
      return std::make_pair(-(int64_t(1) << (bits - 1)), (int64_t(1) << (bits - 1)) - 1);
    };
    if (perIteration && invariant && sum->bounds(range))
      out.push_back({gep, std::move(*sum), *perIteration});
    return WalkResult::advance();
  });
  return out;
}

/// sext(v) * c in i64; exact (bounds checked every product and partial sum).
Value scaled(OpBuilder &b, Location loc, Value v, int64_t c) {
  Type i64 = b.getI64Type();
  if (v.getType() != i64)
    v = arith::ExtSIOp::create(b, loc, i64, v);
  if (c == 1)
    return v;
  return arith::MulIOp::create(b, loc, v, arith::ConstantIntOp::create(b, loc, i64, c),
                               arith::IntegerOverflowFlags::nsw);
}

struct PointerInductions : public mlir::uop::impl::UOpPointerInductionsBase<PointerInductions> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation()->walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops)
      rewrite(loop);
  }

  void rewrite(scf::ForOp loop) {
    std::optional<int64_t> step = getConstantIntValue(loop.getStep());
    Type ivType = loop.getInductionVar().getType();
    if (!step || !ivType.isSignlessInteger() || ivType.getIntOrFloatBitWidth() > 32)
      return;
    std::optional<APInt> trips = loop.getStaticTripCount();
    if (trips && trips->ule(maxUnrolledTrips))
      return;
    // One pointer per base, element type, stride and invariant terms; the
    // addresses of a group differ in their constant only.
    SmallVector<SmallVector<Address>> groups;
    for (Address &a : addressesIn(loop, *step)) {
      auto same = [&](SmallVector<Address> &g) {
        Address &f = g.front();
        return f.gep.getBase() == a.gep.getBase() && f.gep.getElemType() == a.gep.getElemType() &&
               f.gep.getType() == a.gep.getType() && f.perIteration == a.perIteration &&
               f.initial.sameTerms(a.initial);
      };
      auto g = llvm::find_if(groups, same);
      if (g == groups.end())
        groups.push_back({a});
      else
        g->push_back(a);
    }
    // A pointer pays where it replaces its base in the loop: a base and k
    // invariant indices are k + 2 registers, k pointers 2k. So only a base
    // all of whose uses in the loop are one group's addresses gets one.
    llvm::erase_if(groups, [&](SmallVector<Address> &g) {
      Value base = g.front().gep.getBase();
      size_t usesInLoop = llvm::count_if(
          base.getUsers(), [&](Operation *user) { return loop->isProperAncestor(user); });
      return usesInLoop != g.size() || llvm::any_of(g, [&](Address &a) {
               std::optional<int64_t> offset =
                   llvm::checkedSub(a.initial.constant, g.front().initial.constant);
               return !offset || !llvm::isInt<32>(*offset) || !llvm::isInt<32>(a.perIteration);
             });
    });
    if (groups.empty())
      return;

    // Before the loop: each group's pointer at the lower bound, its first
    // address's constant included. No inbounds: a group's pointer need not
    // point into the buffer, only its addresses do.
    IRRewriter b(loop);
    Location loc = loop.getLoc();
    SmallVector<Value> inits;
    for (SmallVector<Address> &g : groups) {
      const IndexSum &index = g.front().initial;
      // In the order bounds() checked: the constant, then the terms.
      Value sum;
      if (index.constant != 0 || index.terms.empty())
        sum = arith::ConstantIntOp::create(b, loc, b.getI64Type(), index.constant);
      for (auto [v, c] : index.terms) {
        Value term = scaled(b, loc, v, c);
        sum =
            sum ? arith::AddIOp::create(b, loc, sum, term, arith::IntegerOverflowFlags::nsw) : term;
      }
      LLVM::GEPOp gep = g.front().gep;
      inits.push_back(LLVM::GEPOp::create(b, loc, gep.getType(), gep.getElemType(), gep.getBase(),
                                          ValueRange{sum}));
    }
    FailureOr<LoopLikeOpInterface> grown = loop.replaceWithAdditionalYields(
        b, inits, /*replaceInitOperandUsesInLoop=*/false,
        [&](OpBuilder &y, Location yLoc, ArrayRef<BlockArgument> pointers) {
          SmallVector<Value> next;
          for (auto [g, p] : llvm::zip(groups, pointers)) {
            LLVM::GEPOp gep = g.front().gep;
            next.push_back(
                LLVM::GEPOp::create(y, yLoc, gep.getType(), gep.getElemType(), p,
                                    ArrayRef<LLVM::GEPArg>{int32_t(g.front().perIteration)}));
          }
          return next;
        });
    if (failed(grown))
      return;
    auto newLoop = cast<scf::ForOp>(*grown);
    ArrayRef<BlockArgument> pointers = newLoop.getRegionIterArgs().take_back(groups.size());
    SmallVector<Operation *> dead;
    for (auto [g, p] : llvm::zip(groups, pointers)) {
      for (Address &a : g) {
        b.setInsertionPoint(a.gep);
        int64_t offset = a.initial.constant - g.front().initial.constant;
        Value address = p;
        if (offset != 0)
          address = LLVM::GEPOp::create(b, a.gep.getLoc(), a.gep.getType(), a.gep.getElemType(), p,
                                        ArrayRef<LLVM::GEPArg>{int32_t(offset)});
        a.gep.replaceAllUsesWith(address);
        dead.push_back(a.gep);
      }
    }
    eraseDeadChains(dead);
  }
};

} // namespace

//===- GroupLoopInvariants.cpp - a loop's sums add its invariant terms first
//
// tinygrad's index sums (and ours) add their terms in the view's axis order,
// so a loop's address is ((a + r*s) + b) + c with only r*s varying. LLVM's
// reassociation adds a + b + c first and hoists it; the direct printer has
// no LLVM, and ptxas, given the sum as written, keeps a, b and c live through
// the loop (conv3x3: 64 registers against 56). This pass reorders each sum
// in a loop so that its terms are added outermost loop first, constants
// last, as LLVM's reassociation ranks them.
//
//===----------------------------------------------------------------------===//

#include "uop/Conversion/Passes.h"

#include "mlir/IR/Matchers.h"

namespace mlir::uop {
#define GEN_PASS_DEF_UOPGROUPLOOPINVARIANTS
#include "uop/Conversion/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;
using namespace mlir::uop;

namespace {

/// How many scf.for loops enclose the point where `v` is defined.
unsigned loopDepth(Value v) {
  Operation *at = v.getDefiningOp();
  if (!at)
    at = cast<BlockArgument>(v).getOwner()->getParentOp();
  unsigned depth = 0;
  for (; at; at = at->getParentOp())
    depth += isa<scf::ForOp>(at);
  return depth;
}

/// Whether `v` is an add the chain goes on through into `user`: in the same
/// block, and used by nothing else.
bool inChain(Value v, arith::AddIOp user) {
  auto add = v.getDefiningOp<arith::AddIOp>();
  return add && add->getBlock() == user->getBlock() && add->hasOneUse();
}

/// The chain's terms in the order it adds them, and its adds, innermost
/// first.
void flatten(arith::AddIOp add, SmallVectorImpl<Value> &terms,
             SmallVectorImpl<arith::AddIOp> &adds) {
  for (Value v : {add.getLhs(), add.getRhs()}) {
    if (inChain(v, add))
      flatten(v.getDefiningOp<arith::AddIOp>(), terms, adds);
    else
      terms.push_back(v);
  }
  adds.push_back(add);
}

/// Reorders the sum `root` computes, if its terms are not already added
/// outermost loop first. The constants must already come last (the
/// canonicalization moves them out): the adds of constants are then kept,
/// flags and all, since modulo 2^n every order gives the same sum before
/// them. The adds before them are rebuilt without flags (a new partial sum
/// may wrap where none of the old ones did).
void regroup(arith::AddIOp root) {
  SmallVector<Value> terms;
  SmallVector<arith::AddIOp> adds;
  flatten(root, terms, adds);
  if (terms.size() < 3)
    return;
  auto isConst = [](Value v) { return matchPattern(v, m_Constant()); };
  size_t variable = terms.size();
  while (variable > 0 && isConst(terms[variable - 1]))
    --variable;
  if (llvm::any_of(ArrayRef(terms).take_front(variable), isConst) || variable < 3)
    return;
  // Adds whose lhs is the sum so far and whose rhs is a term: the chain is
  // a left fold, and adds[k] yields the sum of terms 0..k+1.
  for (auto [k, add] : llvm::enumerate(adds))
    if (add.getRhs() != terms[k + 1])
      return;
  // By depth, then in the order written.
  SmallVector<std::pair<unsigned, size_t>> ranks;
  for (size_t i = 0; i < variable; ++i)
    ranks.push_back({loopDepth(terms[i]), i});
  if (llvm::is_sorted(ranks))
    return;
  llvm::sort(ranks);
  SmallVector<Value> sorted = llvm::map_to_vector(ranks, [&](auto r) { return terms[r.second]; });
  arith::AddIOp last = adds[variable - 2];
  OpBuilder b(last);
  Value sum = sorted.front();
  for (Value term : ArrayRef(sorted).drop_front())
    sum = arith::AddIOp::create(b, last.getLoc(), sum, term);
  last.replaceAllUsesWith(sum);
  for (arith::AddIOp dead : llvm::reverse(ArrayRef(adds).take_front(variable - 1)))
    dead.erase();
}

struct GroupLoopInvariants
    : public mlir::uop::impl::UOpGroupLoopInvariantsBase<GroupLoopInvariants> {
  void runOnOperation() override {
    // The chains' roots: adds in a loop that no add of their block sums on.
    SmallVector<arith::AddIOp> roots;
    getOperation()->walk([&](arith::AddIOp add) {
      if (!add->getParentOfType<scf::ForOp>())
        return;
      bool inner = llvm::any_of(add->getUsers(), [&](Operation *user) {
        auto next = dyn_cast<arith::AddIOp>(user);
        return next && inChain(add.getResult(), next);
      });
      if (!inner)
        roots.push_back(add);
    });
    for (arith::AddIOp root : roots)
      regroup(root);
  }
};

} // namespace

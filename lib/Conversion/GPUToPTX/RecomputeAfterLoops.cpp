//===- RecomputeAfterLoops.cpp - what follows a loop recomputes its inputs -===//
//
// A kernel's store after its reduction loop addresses the output with index
// math from the thread and block ids, most of it computed before the loop
// for the loop's own addresses. Held in registers through the loop, those
// values cost ptxas registers the loop needs (conv3x3: with pointer
// inductions and this, 56 -> 48, nvcc's figure; nvcc's PTX recomputes them
// after the loop the same way). The direct printer has no LLVM and no later
// CSE to merge the copies back.
//
//===----------------------------------------------------------------------===//

#include "IndexSum.h"
#include "uop/Conversion/Passes.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::uop {
#define GEN_PASS_DEF_UOPRECOMPUTEAFTERLOOPS
#include "uop/Conversion/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;
using namespace mlir::uop;

namespace {

/// The most ops one value's recomputation may take.
constexpr unsigned kMaxOps = 64;

class Recomputer {
public:
  explicit Recomputer(scf::ForOp loop) : loop(loop), b(loop->getContext()) {
    b.setInsertionPointAfter(loop);
  }

  /// Rewrites the uses after the loop of values defined before it that the
  /// loop does not use.
  void run() {
    SmallVector<Operation *> replaced;
    for (Operation *op = loop->getNextNode(); op; op = op->getNextNode())
      op->walk([&](Operation *user) {
        for (OpOperand &use : user->getOpOperands())
          if (before(use.get()) && !liveInLoop(use.get()) && recomputable(use.get())) {
            replaced.push_back(use.get().getDefiningOp());
            use.set(copy(use.get()));
          }
      });
    // The originals that only the uses after the loop needed.
    eraseDeadChains(replaced, loop->getBlock());
  }

private:
  /// Defined by an op of the loop's block before the loop.
  bool before(Value v) const {
    Operation *def = v.getDefiningOp();
    return def && def->getBlock() == loop->getBlock() && def->isBeforeInBlock(loop);
  }

  /// Held in a register through the loop anyway: used in it, a function
  /// argument, or a constant (which the printer writes as an immediate).
  bool liveInLoop(Value v) const {
    if (isa<BlockArgument>(v) || matchPattern(v, m_Constant()))
      return true;
    return llvm::any_of(v.getUsers(), [&](Operation *user) { return loop->isAncestor(user); });
  }

  /// Whether `v` can be recomputed after the loop from values live through
  /// it, by at most kMaxOps ops that are pure and have no regions.
  bool recomputable(Value v) {
    auto known = verdicts.find(v);
    if (known != verdicts.end())
      return known->second;
    llvm::SmallPtrSet<Operation *, 16> ops;
    SmallVector<Value> worklist{v};
    bool ok = true;
    while (ok && !worklist.empty()) {
      Value next = worklist.pop_back_val();
      if (liveInLoop(next))
        continue;
      Operation *def = next.getDefiningOp();
      ok = def && before(next) && def->getNumRegions() == 0 && isPure(def);
      if (ok && ops.insert(def).second) {
        ok = ops.size() <= kMaxOps;
        llvm::append_range(worklist, def->getOperands());
      }
    }
    verdicts[v] = ok;
    return ok;
  }

  /// `v`, recomputed right after the loop (once).
  Value copy(Value v) {
    if (liveInLoop(v))
      return v;
    if (Value done = copies.lookupOrNull(v))
      return done;
    Operation *def = v.getDefiningOp();
    for (Value operand : def->getOperands())
      copies.map(operand, copy(operand));
    b.clone(*def, copies);
    return copies.lookup(v);
  }

  scf::ForOp loop;
  OpBuilder b;
  DenseMap<Value, bool> verdicts;
  IRMapping copies;
};

struct RecomputeAfterLoops
    : public mlir::uop::impl::UOpRecomputeAfterLoopsBase<RecomputeAfterLoops> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation()->walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops)
      Recomputer(loop).run();
  }
};

} // namespace

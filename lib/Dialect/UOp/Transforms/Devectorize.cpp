//===- Devectorize.cpp - uop-devectorize: vector loads and stores ---------===//
//
// tinygrad's devectorizer (seed 001) on expanded kernels: the loads and the
// stores of a kernel that access consecutive elements become vector
// accesses (LoadStoreFolding.cpp). It runs after canonicalize and CSE, so
// the copies uop-expand made share their index math and gates. See
// Passes.td.
//
//===----------------------------------------------------------------------===//

#include "LoadStoreFolding.h"

#include "uop/Dialect/UOp/Transforms/Passes.h"

#include "mlir/Analysis/TopologicalSortUtils.h"
#include "mlir/IR/Builders.h"

namespace mlir::uop {
#define GEN_PASS_DEF_UOPDEVECTORIZE
#include "uop/Dialect/UOp/Transforms/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;
using namespace mlir::uop;

namespace {

/// The operands of the SINK or of a BARRIER with their stores folded, each
/// vector store where its earliest lane was, the rest in their order.
SmallVector<Value> foldStoreOperands(OpBuilder &b, OperandRange operands) {
  SmallVector<Value> stores;
  for (Value v : operands)
    if (auto store = v.getDefiningOp<StoreOp>(); store && store->hasOneUse())
      stores.push_back(v);
  if (stores.size() < 2)
    return SmallVector<Value>(operands);
  SmallVector<Value> folded = foldStores(b, stores), out;
  size_t next = 0;
  for (Value v : operands) {
    if (next < stores.size() && v == stores[next]) {
      if (Value replacement = folded[next++])
        out.push_back(replacement);
      continue;
    }
    out.push_back(v);
  }
  return out;
}

struct UOpDevectorizePass : mlir::uop::impl::UOpDevectorizeBase<UOpDevectorizePass> {
  void runOnOperation() override {
    KernelOp kernel = getOperation();
    Block &body = kernel.getBodyBlock();
    if (body.empty() || !isa<SinkOp>(body.back()) || !body.getOps<ViewOp>().empty())
      return; // (only lowered kernels)
    auto sink = cast<SinkOp>(body.back());
    OpBuilder b(sink);

    // Loads: made at the end, then the body is sorted so they come first.
    SmallVector<Value> loads;
    for (LoadOp load : body.getOps<LoadOp>())
      loads.push_back(load.getResult());
    SmallVector<Value> folded = foldLoads(b, loads);
    bool changed = false;
    for (auto [load, replacement] : llvm::zip(loads, folded))
      if (replacement != load) {
        load.replaceAllUsesWith(replacement);
        changed = true;
      }

    // Stores: the SINK's, and those each BARRIER waits for.
    auto refold = [&](Operation *user) {
      b.setInsertionPoint(user);
      SmallVector<Value> after = foldStoreOperands(b, user->getOperands());
      if (!llvm::equal(after, user->getOperands())) {
        user->setOperands(after);
        changed = true;
      }
    };
    for (BarrierOp barrier : llvm::to_vector(body.getOps<BarrierOp>()))
      refold(barrier);
    refold(sink);
    if (!changed)
      return;
    // (the folded lanes: loads, and stores nothing waits for any more)
    for (Operation &op : llvm::make_early_inc_range(llvm::reverse(body)))
      if (isOpTriviallyDead(&op) || (isa<StoreOp>(op) && op.use_empty()))
        op.erase();
    if (!sortTopologically(&body)) {
      kernel.emitOpError() << "uop-devectorize made a cycle (an internal error)";
      return signalPassFailure();
    }
  }
};

} // namespace

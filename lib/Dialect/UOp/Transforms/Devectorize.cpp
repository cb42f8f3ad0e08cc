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

#include "uop/Dialect/UOp/Utils/Symbolic.h"

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
SmallVector<Value> foldStoreOperands(OpBuilder &b, OperandRange all) {
  // A store whose gate is false stores nothing (a copy the expander made
  // for values a mask leaves out): it goes, and keeps no lanes apart.
  SmallVector<Value> operands;
  for (Value v : all) {
    auto store = v.getDefiningOp<StoreOp>();
    IndexOp index = store ? getIndexOfPointer(store.getPtr()) : IndexOp();
    if (!index || !index.getGate() || sym::intConst(index.getGate()) != 0)
      operands.push_back(v);
  }
  SmallVector<Value> stores;
  for (Value v : operands)
    if (auto store = v.getDefiningOp<StoreOp>(); store && store->hasOneUse())
      stores.push_back(v);
  if (stores.size() < 2)
    return operands;
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

/// tinygrad's graph has each LOAD once (UOps are hash-consed): LOADs of one
/// pointer with one alt and the same deps become the first of them. CSE
/// keeps them apart where a STORE sits between them in the block, though a
/// kernel orders its memory by deps, not by the block. Merged, each element
/// is one lane of one chunk (a second lane at an element folds with nothing)
/// and a gated load one branch on the GPU, not one per copy the expander
/// made of its users. Returns whether a load went.
bool mergeLoads(Block &body) {
  DenseMap<Value, SmallVector<LoadOp, 1>> firstOf; // pointer -> its distinct loads
  bool changed = false;
  for (LoadOp load : llvm::make_early_inc_range(body.getOps<LoadOp>())) {
    SmallVector<LoadOp, 1> &seen = firstOf[load.getPtr()];
    auto same = llvm::find_if(seen, [&](LoadOp first) {
      return OperationEquivalence::isEquivalentTo(first, load,
                                                  OperationEquivalence::IgnoreLocations);
    });
    if (same == seen.end()) {
      seen.push_back(load);
      continue;
    }
    load.replaceAllUsesWith(same->getResult());
    load.erase();
    changed = true;
  }
  return changed;
}

struct UOpDevectorizePass : mlir::uop::impl::UOpDevectorizeBase<UOpDevectorizePass> {
  void runOnOperation() override {
    KernelOp kernel = getOperation();
    Block &body = kernel.getBodyBlock();
    if (body.empty() || !isa<SinkOp>(body.back()) || !body.getOps<ViewOp>().empty())
      return; // (only lowered kernels)
    auto sink = cast<SinkOp>(body.back());
    OpBuilder b(sink);

    bool changed = mergeLoads(body);
    // Loads: made at the end, then the body is sorted so they come first.
    SmallVector<Value> loads;
    for (LoadOp load : body.getOps<LoadOp>())
      loads.push_back(load.getResult());
    SmallVector<Value> folded = foldLoads(b, loads);
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

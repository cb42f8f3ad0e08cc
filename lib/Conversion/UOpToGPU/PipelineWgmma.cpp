//===- PipelineWgmma.cpp - a reduce loop's wgmmas kept in flight ----------===//
//
// convert-uop-to-gpu waits for each wgmma right after issuing it; here the
// waits in a reduce loop let one step's wgmmas run on into the next step
// (Passes.td says why the schedule's buffers allow it).
//
//===----------------------------------------------------------------------===//

#include "uop/Conversion/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::uop {
#define GEN_PASS_DEF_UOPPIPELINEWGMMA
#include "uop/Conversion/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;
using namespace mlir::uop;

namespace {

/// The `wait_group 0` that waits for `op` alone: the commit and wait right
/// after it (with only ops that do not touch its result between).
NVVM::WgmmaWaitGroupSyncOp waitOf(NVVM::WgmmaMmaAsyncOp op) {
  Operation *next = op->getNextNode();
  while (next && !isa<NVVM::WgmmaGroupSyncAlignedOp, NVVM::WgmmaMmaAsyncOp>(next))
    next = next->getNextNode();
  auto commit = dyn_cast_or_null<NVVM::WgmmaGroupSyncAlignedOp>(next);
  auto wait =
      commit ? dyn_cast_or_null<NVVM::WgmmaWaitGroupSyncOp>(commit->getNextNode()) : nullptr;
  return wait && wait.getGroup() == 0 ? wait : nullptr;
}

/// The wgmmas one iteration of `loop` issues, or nothing if that is not a
/// constant; their waits go into `waits`.
std::optional<int64_t> wgmmasPerIteration(scf::ForOp loop,
                                          SmallVectorImpl<NVVM::WgmmaWaitGroupSyncOp> &waits) {
  int64_t count = 0;
  bool constant = true;
  loop.getBody()->walk([&](NVVM::WgmmaMmaAsyncOp op) {
    int64_t times = 1;
    for (Operation *p = op->getParentOp(); p != loop && constant; p = p->getParentOp()) {
      auto inner = dyn_cast<scf::ForOp>(p);
      std::optional<APInt> trips = inner ? inner.getStaticTripCount() : std::nullopt;
      if (!trips || trips->getActiveBits() > 16)
        constant = false;
      else
        times *= trips->getZExtValue();
    }
    NVVM::WgmmaWaitGroupSyncOp wait = waitOf(op);
    constant &= static_cast<bool>(wait);
    if (wait)
      waits.push_back(wait);
    count += times;
  });
  if (!constant || !count)
    return std::nullopt;
  return count;
}

/// Whether `op`'s kernel runs blocks of one warpgroup: then each wgmma is
/// the whole block's one operation, and a thread whose wait_group retired it
/// has seen it complete for every thread.
bool blockIsOneWarpgroup(Operation *op) {
  auto func = op->getParentOfType<gpu::GPUFuncOp>();
  DenseI32ArrayAttr block = func ? func.getKnownBlockSizeAttr() : nullptr;
  if (!block)
    return false;
  int64_t threads = 1;
  for (int32_t d : block.asArrayRef())
    threads *= d;
  return threads <= 128;
}

/// Whether `loop` waits on a cluster barrier: its blocks then write each
/// other's buffers, and each block's barrier of step k vouches only for
/// the wgmmas it retired before it (Passes.td).
bool waitsForCluster(scf::ForOp loop) {
  return loop.getBody()
      ->walk([](NVVM::ClusterWaitOp) { return WalkResult::interrupt(); })
      .wasInterrupted();
}

struct PipelineWgmma : uop::impl::UOpPipelineWgmmaBase<PipelineWgmma> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation()->walk<WalkOrder::PreOrder>([&](scf::ForOp loop) {
      bool hasWgmma = false;
      loop.getBody()->walk([&](NVVM::WgmmaMmaAsyncOp) {
        hasWgmma = true;
        return WalkResult::interrupt();
      });
      if (!hasWgmma)
        return WalkResult::advance();
      loops.push_back(loop);
      return WalkResult::skip(); // the outermost loop only
    });
    for (scf::ForOp loop : loops) {
      if (!blockIsOneWarpgroup(loop) || waitsForCluster(loop))
        continue;
      SmallVector<NVVM::WgmmaWaitGroupSyncOp> waits;
      std::optional<int64_t> perIteration = wgmmasPerIteration(loop, waits);
      if (!perIteration)
        continue;
      for (NVVM::WgmmaWaitGroupSyncOp wait : waits)
        wait.setGroup(*perIteration);
      OpBuilder b(loop->getContext());
      b.setInsertionPointAfter(loop);
      NVVM::WgmmaWaitGroupSyncOp::create(b, loop.getLoc(), 0);
    }
  }
};

} // namespace

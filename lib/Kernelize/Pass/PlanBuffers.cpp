//===- PlanBuffers.cpp - uop-plan-buffers (tinygrad's memory_planner) -----===//

#include "TLSF.h"
#include "uop/Kernelize/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::uop {
#define GEN_PASS_DEF_UOPPLANBUFFERS
#include "uop/Kernelize/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;
using namespace mlir::uop;

namespace {

int64_t roundUp(int64_t x, int64_t a) { return (x + a - 1) / a * a; }

int64_t bytesOf(MemRefType t) {
  Type e = t.getElementType();
  int64_t w = e.isInteger(1) ? 1 : e.getIntOrFloatBitWidth() / 8;
  return t.getNumElements() * w;
}

/// _internal_memory_planner for a device with _offset: each planned buffer's
/// offset in the arena (TLSF, 4 KiB blocks, from its first use to after its
/// last), and the arena's size.
struct Plan {
  llvm::MapVector<Value, int64_t> offsets;
  int64_t arena = 0, unplanned = 0;
};

FailureOr<Plan> plan(func::FuncOp f) {
  // Buffers the schedule allocates, minus those a copy touches.
  llvm::SetVector<Value> candidates;
  for (auto alloc : f.getBody().getOps<memref::AllocOp>())
    candidates.insert(alloc.getResult());
  for (auto copy : f.getBody().getOps<memref::CopyOp>()) {
    candidates.remove(copy.getSource());
    candidates.remove(copy.getTarget());
  }
  llvm::MapVector<Value, int64_t> first, last;
  int64_t i = 0;
  for (Operation &op : f.getBody().front()) {
    if (isa<memref::AllocOp, memref::DeallocOp, func::ReturnOp>(op))
      continue;
    for (Value v : op.getOperands())
      if (candidates.contains(v)) {
        first.insert({v, i});
        last[v] = i;
      }
    ++i;
  }
  // Events sorted by (time, is_open): at one time, frees before allocations;
  // otherwise in first-appearance order (Python's stable sort).
  struct Event {
    int64_t time;
    bool open;
    Value buf;
  };
  std::vector<Event> events;
  for (auto [v, t] : first)
    events.push_back({t, true, v});
  for (auto [v, t] : first)
    events.push_back({last[v] + 1, false, v});
  std::stable_sort(events.begin(), events.end(), [](const Event &a, const Event &b) {
    return a.time != b.time ? a.time < b.time : (!a.open && b.open);
  });
  kernelize::TLSFAllocator tlsf(int64_t(1) << 44, 0x1000, 32);
  Plan p;
  for (const Event &e : events) {
    int64_t bytes = bytesOf(cast<MemRefType>(e.buf.getType()));
    if (e.open) {
      std::optional<int64_t> off = tlsf.alloc(roundUp(bytes, 0x1000));
      if (!off)
        return f.emitError() << "uop-plan-buffers: the arena is full";
      p.offsets[e.buf] = *off;
      p.unplanned += bytes;
    } else {
      tlsf.free(p.offsets[e.buf]);
    }
    p.arena = std::max(p.arena, p.offsets[e.buf] + bytes);
  }
  p.arena = roundUp(p.arena, 0x1000);
  return p;
}

struct PlanBuffersPass : uop::impl::UOpPlanBuffersBase<PlanBuffersPass> {
  void runOnOperation() override {
    for (auto f : getOperation().getOps<func::FuncOp>()) {
      if (!f->hasAttr("uop.outputs"))
        continue;
      FailureOr<Plan> p = plan(f);
      if (failed(p))
        return signalPassFailure();
      if (p->offsets.empty())
        continue;
      OpBuilder b(f.getContext());
      Block &body = f.getBody().front();
      b.setInsertionPointToStart(&body);
      Location loc = f.getLoc();
      auto arenaType = MemRefType::get({p->arena}, b.getI8Type());
      Value arena = memref::AllocOp::create(b, loc, arenaType);
      for (auto [v, off] : p->offsets) {
        auto alloc = v.getDefiningOp<memref::AllocOp>();
        b.setInsertionPoint(alloc);
        Value offset = arith::ConstantIndexOp::create(b, loc, off);
        auto view = memref::ViewOp::create(b, loc, alloc.getType(), arena, offset, ValueRange{});
        view->setAttrs(alloc->getDiscardableAttrDictionary());
        for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
          if (isa<memref::DeallocOp>(user))
            user->erase();
        alloc.replaceAllUsesWith(view.getResult());
        alloc.erase();
      }
      b.setInsertionPoint(body.getTerminator());
      memref::DeallocOp::create(b, loc, arena);
      emitRemark(loc) << "uop-plan-buffers: " << p->offsets.size() << " buffers of " << p->unplanned
                      << " bytes in an arena of " << p->arena << " bytes";
    }
  }
};

} // namespace

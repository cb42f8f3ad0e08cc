//===- MemoryRules.cpp - tinygrad's gated INDEX, LOAD and STORE folding ---===//

#include "Rules.h"

using namespace mlir;
using namespace mlir::uop;
using namespace mlir::uop::sym;

/// INDEX with a gate that is always true is the INDEX without one.
OpFoldResult IndexOp::fold(FoldAdaptor) {
  if (getGate() && isScalarDType(getGate().getType()) && isConst(getGate(), 1)) {
    getGateMutable().clear();
    return getResult();
  }
  return {};
}

namespace {

bool gateIsFalse(Value ptr) {
  IndexOp index = getIndexOfPointer(ptr);
  return index && index.getGate() && isScalarDType(index.getGate().getType()) &&
         isConst(index.getGate(), 0);
}

/// Drops a STORE that only the SINK (or nothing) uses.
LogicalResult eraseStore(StoreOp store, PatternRewriter &rw) {
  SmallVector<SinkOp> sinks;
  for (Operation *user : store->getUsers()) {
    auto sink = dyn_cast<SinkOp>(user);
    if (!sink)
      return failure();
    sinks.push_back(sink);
  }
  for (SinkOp sink : sinks)
    rw.modifyOpInPlace(sink, [&] {
      SmallVector<Value> keep;
      for (Value v : sink.getSrcs())
        if (v != store.getResult())
          keep.push_back(v);
      sink.getSrcsMutable().assign(keep);
    });
  rw.eraseOp(store);
  return success();
}

/// A LOAD through a gate that is always false is its alt value (0 without one).
LogicalResult loadGatedOff(LoadOp op, PatternRewriter &rw) {
  if (!gateIsFalse(op.getPtr()) || !isScalarDType(op.getType()))
    return failure();
  Value alt = op.getAlt();
  if (!alt)
    alt = ConstOp::create(rw, op.getLoc(), op.getType(),
                          cast<TypedAttr>(rw.getZeroAttr(op.getType())));
  rw.replaceOp(op, alt);
  return success();
}

/// A STORE through a gate that is always false does nothing.
LogicalResult storeGatedOff(StoreOp op, PatternRewriter &rw) {
  if (!gateIsFalse(op.getPtr()) && !(op.getGate() && isConst(op.getGate(), 0)))
    return failure();
  return eraseStore(op, rw);
}

/// STORE(p, LOAD(p)) writes what is there: nothing.
LogicalResult storeOfItsLoad(StoreOp op, PatternRewriter &rw) {
  auto load = op.getValue().getDefiningOp<LoadOp>();
  if (!load || load.getPtr() != op.getPtr() || !op.getPtr().getDefiningOp<IndexOp>() ||
      op.getGate() || op.getUnder())
    return failure();
  return eraseStore(op, rw);
}

} // namespace

void sym::populateMemoryPatterns(RewritePatternSet &patterns) {
  patterns.add(loadGatedOff);
  patterns.add(storeGatedOff);
  patterns.add(storeOfItsLoad);
}

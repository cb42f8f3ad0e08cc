//===- TensorCopyOps.cpp - TMA tile copies and the mbarriers they complete on ===//
//
// What each op checks is what its PTX instruction requires (an mbarrier is
// a shared 64-bit word; cp.async.bulk.tensor copies boxes of 1 to 256 rows
// whose rows are whole 16-byte pieces), so that a verified op lowers.
//
//===----------------------------------------------------------------------===//

#include "uop/Dialect/UOp/IR/UOpOps.h"

#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace mlir::uop;

/// `bar` points at mbarriers: 64-bit integers in shared memory.
static LogicalResult checkMBarrier(Operation *op, Value bar) {
  auto t = cast<PtrType>(bar.getType());
  if (t.getAddressSpace() != AddressSpace::local || t.getVcount() != 1 ||
      !t.getElementType().isInteger(64))
    return op->emitOpError() << "needs mbarriers: a pointer to 64-bit integers in local memory, "
                                "not "
                             << t;
  return success();
}

LogicalResult MBarrierInitOp::verify() { return checkMBarrier(*this, getBar()); }

LogicalResult MBarrierExpectTxOp::verify() { return checkMBarrier(*this, getBar()); }

LogicalResult MBarrierWaitOp::verify() { return checkMBarrier(*this, getBar()); }

LogicalResult TensorCopyOp::verify() {
  if (failed(checkMBarrier(*this, getBar())))
    return failure();
  auto dst = cast<PtrType>(getDst().getType()), src = cast<PtrType>(getSrc().getType());
  if (dst.getAddressSpace() != AddressSpace::local || src.getAddressSpace() != AddressSpace::global)
    return emitOpError() << "copies from global into local memory, not from " << src << " into "
                         << dst;
  if (dst.getElementType() != src.getElementType() || dst.getVcount() != 1 || src.getVcount() != 1)
    return emitOpError() << "copies between pointers to the same scalars, not " << src << " and "
                         << dst;
  Type elem = src.getElementType();
  int64_t bytes = elem.isIntOrFloat() ? elem.getIntOrFloatBitWidth() / 8 : 0;
  if (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8)
    return emitOpError() << "copies elements of 1, 2, 4 or 8 bytes, not " << elem;
  if (getCols() * bytes % 16 != 0)
    return emitOpError() << "copies rows of " << getCols() * bytes
                         << " bytes: the TMA copies whole 16-byte pieces";
  if (getPitch() < getCols() || getPitch() * bytes % 16 != 0)
    return emitOpError() << "reads rows " << getPitch() << " elements apart: at least the "
                         << getCols() << " a row has, and a multiple of 16 bytes";
  if (!getCoords().empty() && getCoords().size() != 2)
    return emitOpError() << "takes the tile's column and row, not " << getCoords().size()
                         << " coordinates";
  if (getCoords().empty() != !getMap())
    return emitOpError() << "has coordinates and a tensor map after uop-lower, neither before";
  // (the parser reads the mask and the shift together; a builder may not)
  if (static_cast<bool>(getShift()) != getReceivers().has_value())
    return emitOpError() << "multicasts to a mask and a shift of it, or neither";
  if (getShift() && isa<VoidType>(getShift().getType()) != getCoords().empty())
    return emitOpError() << "shifts its multicast mask by a VIEW's index before uop-lower, by an "
                            "integer after";
  if (TensorMapAttr map = getMapAttr()) {
    auto cols = static_cast<int64_t>(getCols()), rows = static_cast<int64_t>(getRows()),
         rowBytes = static_cast<int64_t>(getPitch() * bytes);
    if (map.getElement() != elem || map.getRank() != 2 || map.getBox()[0] != cols ||
        map.getBox()[1] != rows || map.getStrides()[0] != rowBytes)
      return emitOpError() << "copies " << getRows() << " rows of " << getCols() << " elements, "
                           << getPitch() << " apart, not boxes of " << map;
  }
  return success();
}

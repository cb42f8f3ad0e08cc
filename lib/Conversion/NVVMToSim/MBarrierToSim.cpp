//===- MBarrierToSim.cpp - mbarriers, bulk copies, clusters as sim calls --===//
//
// Each supported op becomes one call of its SimABI.h function (without the
// site, which convert-nvvm-to-sim adds from the call's location once LLVM
// has been through the device IR). Addresses are passed as generic
// pointers: the simulator's shared memory is host memory.
//
//===----------------------------------------------------------------------===//

#include "uop/Conversion/NVVMToSim/MBarrierToSim.h"
#include "uop/Conversion/NVVMToSim/SimABI.h"

#include "SimCalls.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::uop::sim;

namespace {

/// Address spaces the simulator's calls take: generic or the CTA's shared
/// memory.
bool isLocal(Value ptr) {
  unsigned space = cast<LLVM::LLVMPointerType>(ptr.getType()).getAddressSpace();
  return space == 0 || space == static_cast<unsigned>(NVVM::NVVMMemorySpace::Shared);
}

/// A shared::cluster address the simulator takes as a copy's destination:
/// one cast from the CTA's own shared memory, as PTX before 8.6 needs for
/// cp.async.bulk's destination even within the CTA (a multicast names the
/// other blocks by its mask, at the same offset).
bool isOwnCluster(Value ptr) {
  auto cast = ptr.getDefiningOp<LLVM::AddrSpaceCastOp>();
  return isLocal(ptr) || (cast && isLocal(cast.getArg()));
}

/// Any shared::cluster address: the simulator's are host addresses in
/// some CTA's shared memory, which it finds.
bool isCluster(Value ptr) {
  return cast<LLVM::LLVMPointerType>(ptr.getType()).getAddressSpace() ==
         static_cast<unsigned>(NVVM::NVVMMemorySpace::SharedCluster);
}

struct CallRewriter {
  CallRewriter(Operation *table) : table(table), b(table->getContext()) {
    MLIRContext *ctx = table->getContext();
    i32 = b.getI32Type();
    i64 = b.getI64Type();
    voidTy = LLVM::LLVMVoidType::get(ctx);
  }

  /// Replaces `op` by a call of `fn` (its kPreSuffix name) returning
  /// `result` (void if null), which replaces the op's result if it has one
  /// (arrive's is optional; the function returns it either way), truncated
  /// (test_wait's i1) or cast to the op's address space (mapa's).
  void replace(Operation *op, StringRef fn, Type result, ArrayRef<Value> args) {
    b.setInsertionPoint(op);
    Location loc = op->getLoc();
    SmallVector<Value> all;
    for (Value v : args)
      all.push_back(isa<LLVM::LLVMPointerType>(v.getType()) ? genericPointer(b, loc, v) : v);
    std::string name = (fn + kPreSuffix).str();
    LLVM::CallOp call = callSimFunction(b, table, loc, name, result ? result : voidTy, all);
    if (result && op->getNumResults() == 1) {
      Value v = call.getResult();
      Type type = op->getResult(0).getType();
      if (type != result)
        v = isa<LLVM::LLVMPointerType>(type)
                ? LLVM::AddrSpaceCastOp::create(b, loc, type, v).getResult()
                : LLVM::TruncOp::create(b, loc, type, v).getResult();
      op->getResult(0).replaceAllUsesWith(v);
    }
    op->erase();
  }
  /// The i32 constant `v`, made before `op`.
  Value i32Of(Operation *op, int64_t v) {
    b.setInsertionPoint(op);
    return simConstant(b, op->getLoc(), i32, v);
  }
  /// A copy's multicast mask (i16) as the simulator takes it, or
  /// kNoMulticast.
  Value mask(Operation *op, Value ctaMask) {
    if (!ctaMask)
      return i32Of(op, kNoMulticast);
    b.setInsertionPoint(op);
    return LLVM::ZExtOp::create(b, op->getLoc(), i32, ctaMask);
  }

  Operation *table;
  OpBuilder b;
  Type i32, i64, voidTy;
};

/// What kTensorCopyFn takes: five coordinates (PTX's tensors have at most
/// five dimensions).
constexpr unsigned kMaxTensorRank = 5;

bool ctaScope(NVVM::MemScopeKind scope) { return scope == NVVM::MemScopeKind::CTA; }

} // namespace

void mlir::uop::sim::rewriteMBarriersForSim(Operation *table) {
  SmallVector<Operation *> ops;
  table->walk([&](Operation *op) {
    if (isa<NVVM::MBarrierInitOp, NVVM::MBarrierArriveOp, NVVM::MBarrierArriveExpectTxOp,
            NVVM::MBarrierExpectTxOp, NVVM::MBarrierCompleteTxOp, NVVM::MBarrierTryWaitParityOp,
            NVVM::MBarrierTestWaitOp, NVVM::MBarrierInvalOp,
            NVVM::CpAsyncBulkGlobalToSharedClusterOp,
            NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp, NVVM::ClusterArriveOp,
            NVVM::ClusterArriveRelaxedOp, NVVM::ClusterWaitOp, NVVM::FenceMbarrierInitOp,
            NVVM::MapaOp>(op))
      ops.push_back(op);
  });
  CallRewriter r(table);
  for (Operation *op : ops) {
    if (auto init = dyn_cast<NVVM::MBarrierInitOp>(op)) {
      if (!init.getPredicate() && isLocal(init.getAddr()))
        r.replace(op, kMbarrierInitFn, nullptr, {init.getAddr(), init.getCount()});
    } else if (auto arrive = dyn_cast<NVVM::MBarrierArriveOp>(op)) {
      // Also a remote arrive (mapa's address, .release.cluster), as CUTLASS
      // releases a buffer to the CTA that multicasts into it.
      if ((isLocal(arrive.getAddr()) ? ctaScope(arrive.getScope()) : isCluster(arrive.getAddr())) &&
          !arrive.getRelaxed())
        r.replace(op, kMbarrierArriveFn, r.i64,
                  {arrive.getAddr(), arrive.getCount() ? arrive.getCount() : r.i32Of(op, 1),
                   r.i32Of(op, 0)});
    } else if (auto arrive = dyn_cast<NVVM::MBarrierArriveExpectTxOp>(op)) {
      if (!arrive.getPredicate() && isLocal(arrive.getAddr()) && ctaScope(arrive.getScope()) &&
          !arrive.getRelaxed())
        r.replace(op, kMbarrierArriveFn, r.i64,
                  {arrive.getAddr(), r.i32Of(op, 1), arrive.getTxcount()});
    } else if (auto expect = dyn_cast<NVVM::MBarrierExpectTxOp>(op)) {
      if (isLocal(expect.getAddr()) && ctaScope(expect.getScope()))
        r.replace(op, kMbarrierTxFn, nullptr, {expect.getAddr(), expect.getTxcount()});
    } else if (auto complete = dyn_cast<NVVM::MBarrierCompleteTxOp>(op)) {
      if (isLocal(complete.getAddr()) && ctaScope(complete.getScope())) {
        r.b.setInsertionPoint(op);
        Value negative =
            LLVM::SubOp::create(r.b, op->getLoc(), r.i32Of(op, 0), complete.getTxcount());
        r.replace(op, kMbarrierTxFn, nullptr, {complete.getAddr(), negative});
      }
    } else if (auto wait = dyn_cast<NVVM::MBarrierTryWaitParityOp>(op)) {
      if (isLocal(wait.getAddr()))
        r.replace(op, kMbarrierWaitFn, nullptr, {wait.getAddr(), wait.getPhase()});
    } else if (auto test = dyn_cast<NVVM::MBarrierTestWaitOp>(op)) {
      if (isLocal(test.getAddr()) && ctaScope(test.getScope()) && !test.getRelaxed()) {
        Value state = test.getStateOrPhase();
        bool parity = state.getType() == r.i32;
        if (parity) {
          r.b.setInsertionPoint(op);
          state = LLVM::ZExtOp::create(r.b, op->getLoc(), r.i64, state);
        }
        r.replace(op, kMbarrierTestFn, r.i32, {test.getAddr(), state, r.i32Of(op, parity)});
      }
    } else if (auto inval = dyn_cast<NVVM::MBarrierInvalOp>(op)) {
      if (isLocal(inval.getAddr()))
        r.replace(op, kMbarrierInvalFn, nullptr, {inval.getAddr()});
    } else if (auto copy = dyn_cast<NVVM::CpAsyncBulkGlobalToSharedClusterOp>(op)) {
      // To the CTA's own shared memory, and the others' of a multicast.
      if (isOwnCluster(copy.getDstMem()))
        r.replace(op, kBulkCopyFn, nullptr,
                  {copy.getDstMem(), copy.getSrcMem(), copy.getSize(), copy.getMbar(),
                   r.mask(op, copy.getMulticastMask())});
    } else if (auto copy = dyn_cast<NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp>(op)) {
      // Tile mode to the CTA's own shared memory (and a multicast's); no
      // predicate (the op's verifier bounds the coordinates at 5).
      if (copy.getMode() == NVVM::TMALoadMode::TILE && !copy.getPredicate() && !copy.getGroup() &&
          isOwnCluster(copy.getDstMem())) {
        SmallVector<Value> args = {copy.getDstMem(), copy.getTmaDescriptor(), copy.getMbar(),
                                   r.mask(op, copy.getMulticastMask()),
                                   r.i32Of(op, copy.getCoordinates().size())};
        Value zero = r.i32Of(op, 0);
        for (unsigned i = 0; i < kMaxTensorRank; ++i)
          args.push_back(i < copy.getCoordinates().size() ? copy.getCoordinates()[i] : zero);
        r.replace(op, kTensorCopyFn, nullptr, args);
      }
    } else if (isa<NVVM::ClusterArriveOp>(op)) {
      r.replace(op, kClusterArriveFn, nullptr, {r.i32Of(op, 0)});
    } else if (isa<NVVM::ClusterArriveRelaxedOp>(op)) {
      r.replace(op, kClusterArriveFn, nullptr, {r.i32Of(op, 1)});
    } else if (isa<NVVM::ClusterWaitOp>(op)) {
      r.replace(op, kClusterWaitFn, nullptr, {});
    } else if (isa<NVVM::FenceMbarrierInitOp>(op)) {
      r.replace(op, kFenceMbarrierInitFn, nullptr, {});
    } else if (auto mapa = dyn_cast<NVVM::MapaOp>(op)) {
      // The host address in the other CTA's shared memory.
      r.replace(op, kMapaFn, LLVM::LLVMPointerType::get(op->getContext()),
                {mapa.getA(), mapa.getB()});
    }
  }
}

//===- CheckHostAccesses.cpp - keep host kernels inside their buffers -----===//
//
// The verifier proves a kernel's views stay inside buffers of known size, but
// a hand-written lowered kernel's index math, or a caller's buffer smaller
// than the kernel's type, are only known at run time. This pass makes every
// load and store of a kernel convert-uop-to-scf made compare its byte range
// with its buffer's size, read from a context argument the caller fills
// (CheckedABI.h). An access outside goes to scratch memory instead and is
// counted, so a checked kernel never touches memory outside its buffers, and
// the caller reports the first fault by its site (`uop.sites`).
//
//===----------------------------------------------------------------------===//

#include "uop/Conversion/Passes.h"

#include "uop/Conversion/Common/Sites.h"
#include "uop/Conversion/UOpToSCF/CheckedABI.h"
#include "uop/Dialect/UOp/IR/UOpDialect.h"

#include "mlir/Analysis/DataFlow/ConstantPropagationAnalysis.h"
#include "mlir/Analysis/DataFlow/DeadCodeAnalysis.h"
#include "mlir/Analysis/DataFlow/IntegerRangeAnalysis.h"
#include "mlir/Analysis/DataFlowFramework.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::uop {
#define GEN_PASS_DEF_UOPCHECKHOSTACCESSES
#include "uop/Conversion/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;
using namespace mlir::uop;

namespace {

/// The buffer argument `addr` points into: every path from it to the
/// function's entry goes through GEPs, and selects whose two sides point into
/// the same buffer (a gated load reads the buffer's start where its gate is
/// off). Null when it is anything else.
BlockArgument bufferOf(Value addr, Block &entry) {
  if (auto gep = addr.getDefiningOp<LLVM::GEPOp>())
    return bufferOf(gep.getBase(), entry);
  Operation *def = addr.getDefiningOp();
  if (isa_and_nonnull<LLVM::SelectOp, arith::SelectOp>(def)) {
    BlockArgument t = bufferOf(def->getOperand(1), entry);
    return t == bufferOf(def->getOperand(2), entry) ? t : BlockArgument();
  }
  auto arg = dyn_cast<BlockArgument>(addr);
  return arg && arg.getOwner() == &entry ? arg : BlockArgument();
}

/// Whether `op` may read or write memory itself (an op with regions answers
/// for its own effects only; the walk visits what is inside). An op that
/// does not say is taken to.
bool touchesMemory(Operation *op) {
  if (op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
    return false;
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  return !effects || effects.hasEffect<MemoryEffects::Read>() ||
         effects.hasEffect<MemoryEffects::Write>();
}

class KernelChecker {
public:
  KernelChecker(func::FuncOp func, SiteTable &sites)
      : func(func), sites(sites), dl(DataLayout::closest(func)),
        b(func.getContext()), layout{numBufferArguments(func)} {}

  /// convert-uop-to-scf's kernels take their buffers, then their variables.
  static int64_t numBufferArguments(func::FuncOp func) {
    return llvm::count_if(func.getArgumentTypes(), llvm::IsaPred<LLVM::LLVMPointerType>);
  }

  LogicalResult run() {
    Block &entry = func.front();
    for (BlockArgument arg : entry.getArguments())
      if (arg.getArgNumber() < layout.numBuffers ? !isa<LLVM::LLVMPointerType>(arg.getType())
                                                 : !arg.getType().isInteger())
        return func.emitError("uop-check-host-accesses: takes kernels whose arguments are "
                              "buffer pointers, then integers (convert-uop-to-scf's), not ")
               << arg.getType();
    // Which accesses provably stay inside a buffer of known size, from the
    // ranges of their indices; asked before the IR changes.
    DataFlowSolver solver;
    solver.load<dataflow::DeadCodeAnalysis>();
    solver.load<dataflow::SparseConstantPropagation>();
    solver.load<dataflow::IntegerRangeAnalysis>();
    bool solved = succeeded(solver.initializeAndRun(func));
    SmallVector<Operation *> accesses;
    WalkResult walk = func.walk([&](Operation *op) {
      if (isa<LLVM::LoadOp, LLVM::StoreOp>(op)) {
        if (!solved || !provenInside(op, solver, entry))
          accesses.push_back(op);
        return WalkResult::advance();
      }
      if (op != func && touchesMemory(op)) {
        op->emitError("uop-check-host-accesses: cannot check the memory this op touches: ")
            << op->getName();
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return failure();

    // The context: one more argument, and each buffer's size read once.
    Type ptr = LLVM::LLVMPointerType::get(func.getContext());
    i64 = b.getI64Type();
    Location loc = func.getLoc();
    if (failed(func.insertArgument(func.getNumArguments(), ptr, DictionaryAttr(), loc)))
      return failure();
    context = entry.getArguments().back();
    b.setInsertionPointToStart(&entry);
    for (int64_t i = 0; i < layout.numBuffers; ++i)
      bufferBytes.push_back(LLVM::LoadOp::create(b, loc, i64, word(layout.bufferBytes(i))));
    scratch = word(layout.scratch());

    for (Operation *op : accesses)
      if (failed(check(op, entry)))
        return failure();
    return success();
  }

private:
  func::FuncOp func;
  SiteTable &sites;
  DataLayout dl;
  OpBuilder b;
  checked::ContextLayout layout;
  Type i64;
  Value context, scratch;
  SmallVector<Value> bufferBytes;

  /// Whether `op`'s address is `gep %buffer[%i]` into a buffer of known size
  /// (`llvm.dereferenceable`, which the caller guarantees) with every value
  /// of %i in range.
  bool provenInside(Operation *op, DataFlowSolver &solver, Block &entry) {
    auto load = dyn_cast<LLVM::LoadOp>(op);
    Value addr = load ? load.getAddr() : cast<LLVM::StoreOp>(op).getAddr();
    Type accessed = load ? load.getType() : cast<LLVM::StoreOp>(op).getValue().getType();
    auto gep = addr.getDefiningOp<LLVM::GEPOp>();
    if (!gep || gep.getIndices().size() != 1)
      return false;
    auto buffer = dyn_cast<BlockArgument>(gep.getBase());
    if (!buffer || buffer.getOwner() != &entry)
      return false;
    auto bytes = func.getArgAttrOfType<IntegerAttr>(
        buffer.getArgNumber(), LLVM::LLVMDialect::getDereferenceableAttrName());
    if (!bytes)
      return false;
    __int128 lo, hi;
    auto index = gep.getIndices()[0];
    if (auto c = dyn_cast<IntegerAttr>(index)) {
      lo = hi = c.getInt();
    } else {
      auto *range = solver.lookupState<dataflow::IntegerValueRangeLattice>(cast<Value>(index));
      if (!range || range->getValue().isUninitialized())
        return false;
      const ConstantIntRanges &r = range->getValue().getValue();
      lo = r.smin().getSExtValue();
      hi = r.smax().getSExtValue();
    }
    __int128 size = dl.getTypeSize(gep.getElemType()), width = dl.getTypeSize(accessed);
    return lo >= 0 && hi * size + width <= bytes.getInt();
  }

  /// The address of context word `index`.
  Value word(int64_t index) {
    return LLVM::GEPOp::create(b, func.getLoc(), context.getType(), i64, context,
                               ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(index)});
  }
  Value constant(int64_t v) { return arith::ConstantIntOp::create(b, func.getLoc(), i64, v); }

  /// `op` reads or writes its bytes at `addr` only when they lie inside its
  /// buffer; else the scratch words, and the fault is recorded.
  LogicalResult check(Operation *op, Block &entry) {
    auto load = dyn_cast<LLVM::LoadOp>(op);
    OpOperand &addr = load ? load.getAddrMutable() : cast<LLVM::StoreOp>(op).getAddrMutable();
    Type accessed = load ? load.getType() : cast<LLVM::StoreOp>(op).getValue().getType();
    int64_t width = static_cast<int64_t>(dl.getTypeSize(accessed));
    if (width > checked::ContextLayout::kScratchBytes)
      return op->emitError("uop-check-host-accesses: an access of ")
             << width << " bytes is wider than the checks allow ("
             << checked::ContextLayout::kScratchBytes << ")";
    BlockArgument buffer = bufferOf(addr.get(), entry);
    if (!buffer)
      return op->emitError("uop-check-host-accesses: cannot tell which buffer this address is in");

    Location loc = op->getLoc();
    b.setInsertionPoint(op);
    Value offset = arith::SubIOp::create(b, loc, LLVM::PtrToIntOp::create(b, loc, i64, addr.get()),
                                         LLVM::PtrToIntOp::create(b, loc, i64, buffer));
    // offset + width <= bytes, unsigned (a negative offset is huge), without
    // overflow: width <= bytes and offset <= bytes - width.
    Value bytes = bufferBytes[buffer.getArgNumber()], w = constant(width);
    Value inside = arith::AndIOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, bytes, w),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, offset,
                              arith::SubIOp::create(b, loc, bytes, w)));
    addr.set(arith::SelectOp::create(b, loc, inside, addr.get(), scratch));

    Value outside = arith::XOrIOp::create(b, loc, inside, arith::ConstantIntOp::create(b, loc, 1, 1));
    auto record = scf::IfOp::create(b, loc, outside, /*withElseRegion=*/false);
    b.setInsertionPointToStart(record.thenBlock());
    Value countAddr = word(layout.faultCount());
    Value count = LLVM::LoadOp::create(b, loc, i64, countAddr);
    auto first = scf::IfOp::create(
        b, loc, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, count, constant(0)),
        /*withElseRegion=*/false);
    b.setInsertionPointToStart(first.thenBlock());
    LLVM::StoreOp::create(b, loc, constant(sites.add(op)), word(layout.faultSite()));
    LLVM::StoreOp::create(b, loc, constant(buffer.getArgNumber()), word(layout.faultBuffer()));
    LLVM::StoreOp::create(b, loc, offset, word(layout.faultOffset()));
    b.setInsertionPointAfter(first);
    LLVM::StoreOp::create(b, loc, arith::AddIOp::create(b, loc, count, constant(1)), countAddr);
    return success();
  }
};

struct UOpCheckHostAccessesPass
    : mlir::uop::impl::UOpCheckHostAccessesBase<UOpCheckHostAccessesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SiteTable sites;
    for (auto func : module.getOps<func::FuncOp>())
      if (!func.isExternal() && failed(KernelChecker(func, sites).run()))
        return signalPassFailure();
    Builder b(module.getContext());
    UOpDialect::SitesAttrHelper(module.getContext()).setAttr(module, sites.toAttr(b));
  }
};

} // namespace

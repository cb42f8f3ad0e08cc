//===- UOpKernel.cpp - uop.kernel and the kernel-wide AST rules -----------===//
//
// tinygrad's ast_spec and verify_sink_dims: shapes flow from VIEWs through the
// AST (UOp.st, Utils/AstShapes.h); every op's shaped sources agree,
// REDUCE_AXIS axes are inside the rank, VIEWs with a source sit only on
// DEFINE_GLOBAL/DEFINE_LOCAL, and across the kernel each dimension is 1 or
// one common size.
//
//===----------------------------------------------------------------------===//

#include "uop/Dialect/UOp/IR/UOpOps.h"
#include "uop/Dialect/UOp/Utils/AstShapes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::uop;

void KernelOp::build(OpBuilder &builder, OperationState &state, StringRef name) {
  state.addAttribute(getSymNameAttrName(state.name), builder.getStringAttr(name));
  state.addRegion()->emplaceBlock();
}

SinkOp KernelOp::getSink() { return dyn_cast<SinkOp>(getBodyBlock().getTerminator()); }

namespace {
/// A VIEW with a source in a kernel AST views a buffer: a DEFINE_GLOBAL, a
/// DEFINE_LOCAL or a cluster's DEFINE_LOCALs (CLUSTER_MAP).
LogicalResult checkViewSources(Block &body) {
  for (ViewOp view : body.getOps<ViewOp>())
    if (Value src = view.getSrc();
        src && isa<PtrType>(src.getType()) &&
        !isa_and_present<DefineGlobalOp, DefineLocalOp, ClusterMapOp>(src.getDefiningOp()))
      return view.emitOpError() << "in a kernel AST may only view a uop.define_global, "
                                   "uop.define_local or uop.cluster_map";
  return success();
}

/// verify_sink_dims: across every shaped value, each dimension is 1 or n.
LogicalResult checkDims(Block &body, const AstShapes &shapes) {
  SmallVector<std::pair<int64_t, Operation *>> sizeAt; // per dim: the n and who set it
  for (Operation &op : body) {
    for (Value r : op.getResults()) {
      const SmallVector<int64_t> *s = shapes.lookup(r);
      if (!s)
        continue;
      if (s->size() != sizeAt.size() && !sizeAt.empty())
        return op.emitOpError() << "has rank " << s->size() << " but the kernel has rank "
                                << sizeAt.size();
      sizeAt.resize(s->size(), {1, nullptr});
      for (auto [i, d] : llvm::enumerate(*s)) {
        if (d == 1)
          continue;
        if (sizeAt[i].first == 1) {
          sizeAt[i] = {d, &op};
          continue;
        }
        if (sizeAt[i].first != d) {
          InFlightDiagnostic diag =
              op.emitOpError() << "dimension " << i << " has size " << d << " but elsewhere "
                               << sizeAt[i].first << "; each dimension of a kernel must be 1 or n";
          diag.attachNote(sizeAt[i].second->getLoc()) << "size " << sizeAt[i].first << " here";
          return diag;
        }
      }
    }
  }
  return success();
}
} // namespace

LogicalResult KernelOp::verifyRegions() {
  // The kernel becomes a PTX entry and a host function of this name.
  StringRef name = getSymName();
  if (name.empty() || llvm::isDigit(name.front()) ||
      !llvm::all_of(name, [](char c) { return llvm::isAlnum(c) || c == '_'; }))
    return emitOpError() << "name '" << name
                         << "' must be an identifier ([A-Za-z_][A-Za-z0-9_]*): PTX and the host "
                            "function are named after it";
  Block &body = getBodyBlock();
  if (body.getNumArguments() != 0)
    return emitOpError() << "body takes no arguments: buffers are uop.define_global ops";
  if (body.empty() || !isa<SinkOp>(body.back()))
    return emitOpError() << "body must end in uop.sink";

  DenseMap<int64_t, DefineGlobalOp> byIndex;
  for (auto def : body.getOps<DefineGlobalOp>()) {
    auto [it, inserted] = byIndex.try_emplace(def.getIndex(), def);
    if (!inserted) {
      InFlightDiagnostic diag = def.emitOpError()
                                << "buffer index " << def.getIndex() << " is defined twice";
      diag.attachNote(it->second.getLoc()) << "first defined here";
      return diag;
    }
  }
  if (failed(checkViewSources(body)))
    return failure();
  FailureOr<AstShapes> shapes = AstShapes::infer(body);
  return success(succeeded(shapes) && succeeded(checkDims(body, *shapes)));
}

//===----------------------------------------------------------------------===//
// ExecOp
//===----------------------------------------------------------------------===//

LogicalResult ExecOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto kernel = symbolTable.lookupNearestSymbolFrom<KernelOp>(*this, getKernelAttr());
  if (!kernel)
    return emitOpError() << "'" << getKernel() << "' is not a uop.kernel";
  // The kernel's buffer parameters, by DEFINE_GLOBAL index.
  llvm::SmallDenseMap<int64_t, PtrType> params;
  kernel.getBodyBlock().walk(
      [&](DefineGlobalOp g) { params[g.getIndex()] = cast<PtrType>(g.getType()); });
  if (params.size() != getBuffers().size())
    return emitOpError() << "binds " << getBuffers().size() << " buffers, but '" << getKernel()
                         << "' has " << params.size();
  for (auto [i, buf] : llvm::enumerate(getBuffers())) {
    auto it = params.find(i);
    if (it == params.end())
      return emitOpError() << "'" << getKernel() << "' has no DEFINE_GLOBAL " << i;
    auto type = cast<MemRefType>(buf.getType());
    PtrType ptr = it->second;
    if (type.getRank() != 1 || type.getElementType() != ptr.getElementType() ||
        (ptr.getSize() != PtrType::kUnknownSize && type.getNumElements() != ptr.getSize()))
      return emitOpError() << "buffer " << i << " is " << type << ", but '" << getKernel()
                           << "' takes " << ptr;
  }
  return success();
}

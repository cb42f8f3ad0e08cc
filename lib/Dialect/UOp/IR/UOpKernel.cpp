//===- UOpKernel.cpp - uop.kernel and the kernel-wide AST rules -----------===//
//
// tinygrad's ast_spec and verify_sink_dims: shapes flow from VIEWs through the
// AST (UOp.st); every op's shaped sources agree, REDUCE_AXIS axes are inside
// the rank, VIEWs with a source sit only on DEFINE_GLOBAL/DEFINE_LOCAL, and
// across the kernel each dimension is 1 or one common size.
//
//===----------------------------------------------------------------------===//

#include "uop/Dialect/UOp/IR/UOpOps.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::uop;

void KernelOp::build(OpBuilder &builder, OperationState &state, StringRef name) {
  state.addAttribute(getSymNameAttrName(state.name), builder.getStringAttr(name));
  state.addRegion()->emplaceBlock();
}

SinkOp KernelOp::getSink() { return dyn_cast<SinkOp>(getBodyBlock().getTerminator()); }

namespace {
using Shape = SmallVector<int64_t>;

std::string str(ArrayRef<int64_t> shape) {
  std::string s = "(";
  for (auto [i, d] : llvm::enumerate(shape))
    s += (i ? ", " : "") + std::to_string(d);
  return s + ")";
}

/// Computes tinygrad's UOp.shape for each value of a kernel body, in order,
/// reporting the first op that breaks ast_spec.
class AstShapes {
public:
  LogicalResult run(Block &body) {
    for (Operation &op : body)
      if (failed(visit(op)))
        return failure();
    return checkDims(body);
  }

private:
  const Shape *get(Value v) const {
    auto it = shapes.find(v);
    return it == shapes.end() ? nullptr : &it->second;
  }

  /// The shape the shaped values among `vals` share (null if none is
  /// shaped); an error at `op` naming `what` if they differ.
  FailureOr<const Shape *> commonShape(Operation *op, ValueRange vals, StringRef what) const {
    const Shape *common = nullptr;
    for (Value v : vals) {
      const Shape *s = get(v);
      if (!s)
        continue;
      if (common && *common != *s)
        return op->emitOpError() << what << " must have one shape, got " << str(*common) << " and "
                                 << str(*s);
      common = s;
    }
    return common;
  }

  /// BufferOps (LOAD, STORE, VALID, CONST, DEFINE_VAR) take the shape of a
  /// direct VIEW source only.
  static bool takesViewShape(Operation &op) {
    return isa<LoadOp, StoreOp, ValidOp, ShapedConstOp, DefineVarOp>(op);
  }

  LogicalResult visit(Operation &op) {
    if (auto view = dyn_cast<ViewOp>(op)) {
      if (Value src = view.getSrc(); src && isa<PtrType>(src.getType()) &&
                                     !src.getDefiningOp<DefineGlobalOp>() &&
                                     !src.getDefiningOp<DefineLocalOp>())
        return op.emitOpError() << "in a kernel AST may only view a uop.define_global or "
                                   "uop.define_local";
      setShape(view.getResult(), view.getShape());
      return success();
    }
    if (isa<SinkOp>(op))
      return checkSink(cast<SinkOp>(op));
    // Every other op: all shaped sources agree (ast_spec's all_same).
    FailureOr<const Shape *> common = commonShape(&op, op.getOperands(), "sources");
    if (failed(common))
      return failure();
    if (takesViewShape(op)) {
      for (Value v : op.getOperands())
        if (auto view = v.getDefiningOp<ViewOp>()) {
          setAll(op, view.getShape());
          break;
        }
      return success();
    }
    if (auto assign = dyn_cast<AssignOp>(op)) {
      if (const Shape *s = get(assign.getTarget()))
        setAll(op, Shape(*s));
      return success();
    }
    if (!*common)
      return success();
    Shape shape = **common;
    // REDUCE_AXIS and WMMA reduce their axes (tinygrad's axis_arg).
    ArrayRef<int64_t> reduced;
    if (auto red = dyn_cast<ReduceAxisOp>(op))
      reduced = red.getAxes();
    else if (auto wmma = dyn_cast<WmmaOp>(op))
      reduced = wmma.getReduceAxes();
    for (int64_t a : reduced)
      if (a < 0 || a >= (int64_t)shape.size())
        return op.emitOpError() << "axis " << a << " is out of range for the shape " << str(shape);
    for (int64_t a : reduced)
      shape[a] = 1;
    setAll(op, shape);
    return success();
  }

  LogicalResult checkSink(SinkOp sink) {
    return success(succeeded(commonShape(sink, sink.getSrcs(), "stores")));
  }

  /// verify_sink_dims: across every shaped value, each dimension is 1 or n.
  LogicalResult checkDims(Block &body) {
    SmallVector<std::pair<int64_t, Operation *>> sizeAt; // per dim: the n and who set it
    for (Operation &op : body) {
      for (Value r : op.getResults()) {
        const Shape *s = get(r);
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
            InFlightDiagnostic diag = op.emitOpError()
                                      << "dimension " << i << " has size " << d << " but elsewhere "
                                      << sizeAt[i].first
                                      << "; each dimension of a kernel must be 1 or n";
            diag.attachNote(sizeAt[i].second->getLoc()) << "size " << sizeAt[i].first << " here";
            return diag;
          }
        }
      }
    }
    return success();
  }

  void setShape(Value v, ArrayRef<int64_t> s) { shapes[v] = Shape(s); }
  void setAll(Operation &op, ArrayRef<int64_t> s) {
    for (Value r : op.getResults())
      setShape(r, s);
  }

  DenseMap<Value, Shape> shapes;
};
} // namespace

LogicalResult KernelOp::verifyRegions() {
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
  return AstShapes().run(body);
}

//===- AstShapes.cpp - tinygrad's UOp.shape of a kernel AST ---------------===//

#include "uop/Dialect/UOp/Utils/AstShapes.h"

#include "uop/Dialect/UOp/IR/UOpOps.h"

using namespace mlir;
using namespace mlir::uop;

std::string AstShapes::str(ArrayRef<int64_t> shape) {
  std::string s = "(";
  for (auto [i, d] : llvm::enumerate(shape))
    s += (i ? ", " : "") + std::to_string(d);
  return s + ")";
}

FailureOr<AstShapes> AstShapes::infer(Block &body) {
  AstShapes out;
  // (by value: `s` may point into the map it is inserted into)
  auto setAll = [&](Operation &op, SmallVector<int64_t> s) {
    for (Value r : op.getResults())
      out.shapes[r] = s;
  };
  for (Operation &op : body) {
    if (auto view = dyn_cast<ViewOp>(op)) {
      setAll(op, SmallVector<int64_t>(view.getShape()));
      continue;
    }
    // All shaped sources agree (ast_spec's all_same); for the SINK, its
    // stores.
    const SmallVector<int64_t> *common = nullptr;
    for (Value v : op.getOperands()) {
      const SmallVector<int64_t> *s = out.lookup(v);
      if (!s)
        continue;
      if (common && *common != *s)
        return op.emitOpError() << (isa<SinkOp>(op) ? "stores" : "sources")
                                << " must have one shape, got " << str(*common) << " and "
                                << str(*s);
      common = s;
    }
    if (auto buffer = dyn_cast<BufferOpInterface>(op)) {
      if (ViewOp view = buffer.getView())
        setAll(op, SmallVector<int64_t>(view.getShape()));
      continue;
    }
    if (auto assign = dyn_cast<AssignOp>(op)) {
      if (const SmallVector<int64_t> *s = out.lookup(assign.getTarget()))
        setAll(op, *s);
      continue;
    }
    if (!common || isa<SinkOp>(op))
      continue;
    SmallVector<int64_t> shape = *common;
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
  }
  return out;
}

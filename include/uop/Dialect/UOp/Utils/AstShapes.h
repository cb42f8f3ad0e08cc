//===- AstShapes.h - tinygrad's UOp.shape of a kernel AST -------*- C++ -*-===//
//
// Shapes flow from the VIEWs through a kernel AST (tinygrad's UOp.st): a
// VIEW has its own shape, a buffer op (LOAD, STORE, VALID, shaped CONST,
// DEFINE_VAR) its VIEW's, ASSIGN its target's, and every other op the one
// shape its shaped sources share, with the axes a REDUCE_AXIS or WMMA
// reduces set to 1. The kernel verifier and the optimizer both read them.
//
//===----------------------------------------------------------------------===//
#ifndef UOP_DIALECT_UOP_UTILS_ASTSHAPES_H
#define UOP_DIALECT_UOP_UTILS_ASTSHAPES_H

#include "mlir/IR/Block.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace mlir::uop {

class AstShapes {
public:
  /// The shapes of the values of `body`, in order; an error at the first op
  /// whose shaped sources have different shapes or that reduces an axis
  /// outside its shape (tinygrad's ast_spec), and failure.
  static FailureOr<AstShapes> infer(Block &body);

  /// The shape of `v`; null where no VIEW reaches it.
  const SmallVector<int64_t> *lookup(Value v) const {
    auto it = shapes.find(v);
    return it == shapes.end() ? nullptr : &it->second;
  }

  /// "(4, 1, 16)", as diagnostics print a shape.
  static std::string str(ArrayRef<int64_t> shape);

private:
  DenseMap<Value, SmallVector<int64_t>> shapes;
};

} // namespace mlir::uop

#endif

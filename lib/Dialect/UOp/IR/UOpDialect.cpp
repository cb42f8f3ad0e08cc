//===- UOpDialect.cpp - uop dialect registration ---------------------------===//

#include "uop/Dialect/UOp/IR/UOpDialect.h"
#include "uop/Dialect/UOp/IR/UOpAttrs.h"
#include "uop/Dialect/UOp/IR/UOpOps.h"
#include "uop/Dialect/UOp/IR/UOpTypes.h"

using namespace mlir;
using namespace mlir::uop;

#include "uop/Dialect/UOp/IR/UOpOpsDialect.cpp.inc"
#include "uop/Dialect/UOp/IR/UOpOpsEnums.cpp.inc"

void UOpDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "uop/Dialect/UOp/IR/UOpOps.cpp.inc"
      >();
  registerTypes();
  registerAttributes();
}

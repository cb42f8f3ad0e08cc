//===- AttachTarget.cpp - uop-attach-target -------------------------------===//

#include "uop/Dialect/UOp/IR/UOpAttrs.h"
#include "uop/Dialect/UOp/Transforms/Passes.h"

namespace mlir::uop {
#define GEN_PASS_DEF_UOPATTACHTARGET
#include "uop/Dialect/UOp/Transforms/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;
using namespace mlir::uop;

namespace {
struct UOpAttachTargetPass : mlir::uop::impl::UOpAttachTargetBase<UOpAttachTargetPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    TargetAttr target = TargetAttr::getForChip(&getContext(), chip);
    if (!target) {
      module.emitError() << TargetAttr::unknownChipMessage(chip);
      return signalPassFailure();
    }
    module->setAttr(TargetAttr::kModuleAttrName, target);
  }
};
} // namespace

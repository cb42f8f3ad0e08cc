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
    TargetAttr target = TargetAttr::getDefaults(&getContext(), chip);
    if (!target) {
      module.emitError() << TargetAttr::unknownChipMessage(chip) << " (or \"host\")";
      return signalPassFailure();
    }
    // A module's own target for this chip (its limits, its tensor cores)
    // is kept; the chip's defaults replace a target for another chip.
    UOpDialect::TargetAttrHelper attr(&getContext());
    TargetAttr own = attr.getAttr(module);
    if (!own || own.getChip() != chip)
      attr.setAttr(module, target);
  }
};
} // namespace

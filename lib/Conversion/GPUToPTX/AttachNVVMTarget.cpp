//===- AttachNVVMTarget.cpp - an #nvvm.target where a gpu.module has none -===//
//
// Upstream's nvvm-attach-target appends its target to the ones a gpu.module
// already has; a module written for a target of its own then carries two,
// and would be compiled twice. This pass leaves such a module alone.
//
//===----------------------------------------------------------------------===//

#include "uop/Conversion/Passes.h"
#include "uop/Dialect/UOp/IR/UOpAttrs.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir::uop {
#define GEN_PASS_DEF_UOPATTACHNVVMTARGET
#include "uop/Conversion/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;
using namespace mlir::uop;

namespace {
struct AttachNVVMTargetPass : public uop::impl::UOpAttachNVVMTargetBase<AttachNVVMTargetPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (!llvm::is_contained(TargetAttr::getKnownChips(), chip)) {
      module.emitError("uop-attach-nvvm-target: ") << TargetAttr::unknownChipMessage(chip);
      return signalPassFailure();
    }
    if (optLevel > 3) {
      module.emitError("uop-attach-nvvm-target: no LLVM optimization level ")
          << static_cast<unsigned>(optLevel) << " (0 to 3)";
      return signalPassFailure();
    }
    StringRef ptxFeatures = features.empty() ? TargetAttr::getPTXFeatures(chip) : features;
    auto target = NVVM::NVVMTargetAttr::get(&getContext(), optLevel, "nvptx64-nvidia-cuda", chip,
                                            ptxFeatures);
    for (auto gpuModule : module.getOps<gpu::GPUModuleOp>())
      if (!gpuModule.getTargetsAttr() || gpuModule.getTargetsAttr().empty()) {
        gpuModule.setTargetsAttr(ArrayAttr::get(&getContext(), {target}));
        // The target makes the NVVM ops answer for the chip (an sm_90 op
        // on sm_80 is invalid now): checked here, whether or not the pass
        // manager verifies after each pass, so that no runtime simulates,
        // and no backend compiles, an op the chip does not have. Only the
        // target's check (gpu.module's verifier calls it): verifying the
        // whole module took 4% of a one-kernel compile.
        if (failed(target.verifyTarget(gpuModule)))
          return signalPassFailure();
      }
  }
};
} // namespace

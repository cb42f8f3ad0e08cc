//===- Runner.cpp - compile uop kernels and run them on a target ----------===//

#include "Targets.h"

#include "uop/Dialect/UOp/IR/UOpDialect.h"
#include "uop/Dialect/UOp/IR/UOpOps.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;
using namespace mlir::uop;

CompiledKernel::~CompiledKernel() = default;

Runner::~Runner() = default;

std::string Runner::describe() const {
  std::string chip = getChip().str();
  return chip.empty() ? getName().str() : (getName() + " for " + chip).str();
}

namespace {
/// Copies what uop-optimize decided (the kernel_info it leaves on the
/// kernel for uop-lower) out of a pipeline that then lowers the kernel away.
class AppliedOptsRecorder final : public PassInstrumentation {
public:
  explicit AppliedOptsRecorder(std::optional<std::string> *out) : out(out) {}
  void runAfterPass(Pass *pass, Operation *op) override {
    if (pass->getArgument() != "uop-optimize")
      return;
    if (auto info = UOpDialect::KernelInfoAttrHelper(op->getContext()).getAttr(op))
      *out = info.getOpts().str();
  }

private:
  std::optional<std::string> *out;
};
} // namespace

FailureOr<std::unique_ptr<PassManager>>
Runner::makePassManager(MLIRContext *ctx, std::optional<std::string> *appliedOpts) const {
  auto pm = std::make_unique<PassManager>(ctx);
  pm->enableVerifier(verifyEachByDefault());
  if (appliedOpts)
    pm->addInstrumentation(std::make_unique<AppliedOptsRecorder>(appliedOpts));
  if (passManagerSetup && failed(passManagerSetup(*pm)))
    return failure();
  return pm;
}

void mlir::uop::keepOnlyKernel(ModuleOp module, StringRef name) {
  for (KernelOp other : llvm::make_early_inc_range(module.getOps<KernelOp>()))
    if (other.getSymName() != name)
      other.erase();
}

FailureOr<GPUKernel> mlir::uop::lowerToGPUKernel(ModuleOp module, StringRef name, StringRef chip,
                                                 const KernelCodegenOptions &codegen,
                                                 StringRef runner, PassManager &pm) {
  std::vector<KernelVariable> declared = declaredVariables(module, name);
  if (!module.getOps<KernelOp>().empty()) {
    keepOnlyKernel(module, name);
    UOpToPTXOptions options;
    options.setCodegen(codegen);
    options.chip = chip.str();
    options.optLevel = codegen.deviceOptLevel;
    options.toBinary = false;
    buildUOpToPTXPipeline(pm, options);
  } else {
    // gpu.funcs still to convert, or LLVM-level gpu.modules without the
    // NVVM target the PTX step needs: the GPU-to-NVVM stage does both.
    bool hasGPUFuncs = false, missingTarget = false;
    module.walk([&](gpu::GPUFuncOp) { hasGPUFuncs = true; });
    for (auto m : module.getOps<gpu::GPUModuleOp>())
      missingTarget |= !m.getTargetsAttr() || m.getTargetsAttr().empty();
    if (hasGPUFuncs || missingTarget)
      buildGPUToNVVMStage(pm, chip, codegen.deviceOptLevel);
  }
  if (failed(pm.run(module)))
    return failure();
  return findGPUKernel(module, name, runner, declared);
}

llvm::Expected<std::unique_ptr<Runner>> mlir::uop::createRunner(MLIRContext *ctx, StringRef target,
                                                                StringRef chip,
                                                                std::string *whyNotCUDA) {
  if (target != "cpu" && target != "sim" && target != "cuda" && target != "auto")
    return llvm::createStringError("unknown target '" + target +
                                   "' (available: cpu, sim, cuda, auto)");
  if (!chip.empty() && !TargetAttr::getForChip(ctx, chip))
    return llvm::createStringError(llvm::Twine(TargetAttr::unknownChipMessage(chip)));
  if (target == "cpu")
    return createCPURunner();
  if (target == "sim")
    return createSimRunner(chip.empty() ? StringRef(TargetAttr::kDefaultChip) : chip);
  llvm::Expected<std::unique_ptr<Runner>> gpu = createCUDARunner(ctx, chip);
  if (gpu)
    return gpu;
  std::string why = llvm::toString(gpu.takeError());
  if (target == "cuda")
    return llvm::createStringError("no usable CUDA GPU: " + why);
  // auto: the simulator instead
  if (whyNotCUDA)
    *whyNotCUDA = why;
  return createSimRunner(chip.empty() ? StringRef(TargetAttr::kDefaultChip) : chip);
}

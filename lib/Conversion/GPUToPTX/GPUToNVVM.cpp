//===- GPUToNVVM.cpp - uop-gpu-to-nvvm ------------------------------------===//
//
// Upstream's convert-gpu-to-nvvm, with its patterns built once per pass
// manager instead of once per gpu.module (tinygrad compiles a kernel per
// module). The patterns are upstream's; see Passes.td.
//
//===----------------------------------------------------------------------===//

#include "uop/Conversion/Passes.h"

#include "mlir/Conversion/ConvertToLLVM/ToLLVMInterface.h"
#include "mlir/Conversion/ConvertToLLVM/ToLLVMPass.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/LoweringOptions.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::uop {
#define GEN_PASS_DEF_UOPGPUTONVVM
#include "uop/Conversion/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;
using namespace mlir::uop;

namespace {

/// What the conversion needs, immutable once built, so that the threads
/// converting several modules at once can share it (as upstream's
/// convert-to-llvm shares its own).
struct Lowering {
  std::shared_ptr<const LLVMTypeConverter> converter;
  std::shared_ptr<const ConversionTarget> target;
  std::shared_ptr<const FrozenRewritePatternSet> patterns;

  /// Upstream's convert-gpu-to-nvvm's patterns and legality, for modules
  /// whose data layout is `layout`.
  static Lowering build(MLIRContext *ctx, const DataLayout &layout, unsigned indexBitwidth) {
    LowerToLLVMOptions options(ctx, layout);
    if (indexBitwidth != kDeriveIndexBitwidthFromDataLayout)
      options.overrideIndexBitwidth(indexBitwidth);
    auto converter = std::make_shared<LLVMTypeConverter>(ctx, options);
    configureGpuToNVVMTypeConverter(*converter);
    auto target = std::make_shared<LLVMConversionTarget>(*ctx);
    RewritePatternSet patterns(ctx);
    // Above the generic lowerings, as upstream orders them.
    populateGpuToNVVMConversionPatterns(*converter, patterns, /*benefit=*/10);
    for (Dialect *dialect : ctx->getLoadedDialects()) {
      // Math ops become libdevice calls (above), not LLVM intrinsics.
      if (isa<math::MathDialect>(dialect))
        continue;
      if (auto *iface = dyn_cast<ConvertToLLVMPatternInterface>(dialect))
        iface->populateConvertToLLVMConversionPatterns(*target, *converter, patterns);
    }
    populateGpuWMMAToNVVMConversionPatterns(*converter, patterns);
    configureGpuToNVVMConversionLegality(*target);
    return Lowering{std::move(converter), std::move(target),
                    std::make_shared<FrozenRewritePatternSet>(std::move(patterns))};
  }
};

/// Whether a data layout spec on `op` or an enclosing op applies to it.
bool hasOwnDataLayout(Operation *op) {
  for (; op; op = op->getParentOp())
    if (auto iface = dyn_cast<DataLayoutOpInterface>(op); iface && iface.getDataLayoutSpec())
      return true;
  return false;
}

struct GPUToNVVMPass : public uop::impl::UOpGPUToNVVMBase<GPUToNVVMPass> {
  using Base::Base;

  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    registerConvertToLLVMDependentDialectLoading(registry);
  }

  LogicalResult initialize(MLIRContext *ctx) override {
    shared = Lowering::build(ctx, DataLayout(), indexBitwidth);
    dialectsAtInit = ctx->getLoadedDialects().size();
    RewritePatternSet rewrites(ctx);
    populateGpuRewritePatterns(rewrites);
    vector::populateVectorFromElementsUnrollPatterns(rewrites);
    gpuRewrites = std::make_shared<FrozenRewritePatternSet>(std::move(rewrites));
    return success();
  }

  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    // As upstream: C wrappers for host-callable functions.
    for (auto func : module.getOps<func::FuncOp>())
      func->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(), UnitAttr::get(&getContext()));

    // Upstream's rewrite within the GPU and vector dialects first. Its
    // folding matters (the direct printer's loops leave constants to fold
    // and merge); its region simplification did not, on either corpus, and
    // cost a third of it.
    GreedyRewriteConfig greedy;
    greedy.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    if (failed(applyPatternsGreedily(module, *gpuRewrites, greedy)))
      return signalPassFailure();

    // The shared patterns, unless this module needs others: a data layout
    // of its own, or a dialect loaded since they were built (a pass manager
    // run again on a new input), whose lowering they would lack.
    bool ownPatterns =
        hasOwnDataLayout(module) || getContext().getLoadedDialects().size() != dialectsAtInit;
    Lowering lowering =
        ownPatterns
            ? Lowering::build(&getContext(),
                              DataLayout(cast<DataLayoutOpInterface>(module.getOperation())),
                              indexBitwidth)
            : shared;
    // Without rollback the driver keeps no undo state (a fifth of the pass
    // on the matmul); a pattern that failed after rewriting would then be a
    // fatal error, and none of upstream's does on our inputs (Passes.td).
    ConversionConfig config;
    config.allowPatternRollback = false;
    if (failed(applyPartialConversion(module, *lowering.target, *lowering.patterns, config)))
      signalPassFailure();
  }

  Lowering shared;
  size_t dialectsAtInit = 0;
  std::shared_ptr<const FrozenRewritePatternSet> gpuRewrites;
};

} // namespace

//===- Stages.cpp - the named stages the pipelines are made of ------------===//
//
// Each stage is written here once; the pipelines (Pipelines.cpp) and the
// runtime targets (CPU, simulator, CUDA) string them together.
//
//===----------------------------------------------------------------------===//

#include "uop/Pipelines/Pipelines.h"

#include "uop/Conversion/Passes.h"
#include "uop/Dialect/UOp/IR/UOpAttrs.h"
#include "uop/Dialect/UOp/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::uop;

/// uop-canonicalize where there is no CFG: on a kernel, whose body is one
/// block without nested regions, and on the gpu.funcs convert-uop-to-gpu
/// makes (scf loops and ifs, before scf-to-cf). Region simplification would
/// find nothing there and cost a liveness analysis per iteration (a tenth of
/// the pass on the matmul; after convert-uop-to-gpu, 1.1 -> 0.6 ms on
/// attention k0, the same PTX on every kernel).
static UOpCanonicalizeOptions noCFG() {
  UOpCanonicalizeOptions options;
  options.regionSimplifyLevel = GreedySimplifyRegionLevel::Disabled;
  return options;
}

void mlir::uop::buildKernelCodegenStage(OpPassManager &pm, const KernelCodegenOptions &options,
                                        std::shared_ptr<CanonicalPatternCache> canonical) {
  if (!canonical)
    canonical = std::make_shared<CanonicalPatternCache>();
  OpPassManager &kernel = pm.nest<KernelOp>();
  if (options.optimize) {
    UOpOptimizeOptions optimize;
    optimize.opts = options.opts;
    optimize.heuristic = options.heuristic;
    optimize.tcSchedule = options.tcSchedule;
    kernel.addPass(createUOpOptimize(optimize));
  }
  kernel.addPass(createUOpLower());
  // tinygrad's symbolic rules before the expander too, as tinygrad runs
  // them with it: an index the rules simplify over a range is then
  // simplified once, not in each copy (conv3x3: expand, CSE and canonicalize
  // 15.1 -> 5.9 ms; the same PTX on every kernel of both corpora).
  kernel.addPass(createUOpCanonicalize(canonical, noCFG()));
  kernel.addPass(createUOpExpand());
  // The expander hash-conses its copies, loads too, so canonicalize sees
  // nearly every expression once without a CSE first (one cost more than it
  // saved: the same PTX on every kernel). CSE then merges what canonicalize
  // made alike (a load two copies share becomes one, before a gate puts
  // each behind its own branch).
  kernel.addPass(createUOpCanonicalize(canonical, noCFG()));
  kernel.addPass(createCSEPass());
  kernel.addPass(createUOpDevectorize());
}

/// tinygrad's final rewrite for the module's target: the decompositions of
/// what it lacks, then MULACC where it fuses. On the host CSE first: there a
/// product's uses decide, and tinygrad's graph has each expression once.
/// (A GPU's rule looks at no uses; the CSE after convert-uop-to-gpu merges
/// what the decompositions made twice: the same PTX on every kernel.)
static void addTargetRewrites(OpPassManager &kernel, bool host) {
  kernel.addPass(createUOpDecomposeMath());
  if (host) {
    kernel.addPass(createCSEPass());
    kernel.addPass(createUOpCExpressions());
  }
  kernel.addPass(createUOpFuseMulAcc());
}

void mlir::uop::buildHostToLLVMStage(OpPassManager &pm, bool halfInF32, bool checkAccesses,
                                     std::shared_ptr<CanonicalPatternCache> canonical) {
  if (!canonical)
    canonical = std::make_shared<CanonicalPatternCache>();
  UOpAttachTargetOptions host;
  host.chip = TargetAttr::kHostChip.str();
  pm.addPass(createUOpAttachTarget(host));
  addTargetRewrites(pm.nest<KernelOp>(), /*host=*/true);
  ConvertUOpToSCFOptions toSCF;
  toSCF.halfInF32 = halfInF32;
  pm.addPass(createConvertUOpToSCF(toSCF));
  if (checkAccesses)
    pm.addPass(createUOpCheckHostAccesses());
  pm.addPass(createUOpCanonicalize(canonical));
  pm.addPass(createCSEPass());
  pm.addPass(createSCFToControlFlowPass());
  // bf16 <-> f32 as integer ops: LLVM would otherwise call a runtime helper.
  arith::ArithExpandOpsPassOptions expand;
  expand.includeBf16 = true;
  pm.addPass(arith::createArithExpandOpsPass(expand));
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void mlir::uop::buildGPUMappingStage(OpPassManager &pm,
                                     std::shared_ptr<CanonicalPatternCache> canonical) {
  if (!canonical)
    canonical = std::make_shared<CanonicalPatternCache>();
  // tinygrad's symbolic rules again after legalizing: the index math the
  // mapping adds (sizes of 1 fold away).
  OpPassManager &kernel = pm.nest<KernelOp>();
  kernel.addPass(createUOpGPUDims());
  addTargetRewrites(kernel, /*host=*/false);
  kernel.addPass(createUOpTargetLegalize());
  kernel.addPass(createUOpCanonicalize(canonical, noCFG()));
  pm.addPass(createConvertUOpToGPU());
  pm.addPass(createUOpCanonicalize(canonical, noCFG()));
  pm.addPass(createCSEPass());
}

void mlir::uop::buildDirectPrinterLoopStage(OpPassManager &pm) {
  // The PTX's shape ptxas takes from LLVM on the other path: short loops
  // unrolled and marked done (else ptxas unrolls them deeper, every copy's
  // loads live at once), their neighbouring loads one vector load, a
  // loop's addresses stepped pointers, its sums adding their invariant
  // terms first, and what follows a loop recomputing its inputs there.
  OpPassManager &gpuModule = pm.nest<gpu::GPUModuleOp>();
  gpuModule.addPass(createUOpUnrollLoops());
  gpuModule.addPass(createUOpVectorizeLoads());
  gpuModule.addPass(createUOpPointerInductions());
  gpuModule.addPass(createUOpGroupLoopInvariants());
  gpuModule.addPass(createUOpRecomputeAfterLoops());
}

void mlir::uop::buildWgmmaPipeliningStage(OpPassManager &pm) {
  pm.addNestedPass<gpu::GPUModuleOp>(createUOpPipelineWgmma());
}

void mlir::uop::buildGPUToNVVMStage(OpPassManager &pm, StringRef chip, unsigned optLevel) {
  pm.addPass(createSCFToControlFlowPass());
  // A gpu.module with a target of its own keeps it.
  UOpAttachNVVMTargetOptions nvvm;
  nvvm.chip = chip.str();
  nvvm.optLevel = optLevel;
  pm.addPass(createUOpAttachNVVMTarget(nvvm));
  // convert-gpu-to-nvvm's patterns, built once for all the modules.
  pm.addNestedPass<gpu::GPUModuleOp>(createUOpGPUToNVVM());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void mlir::uop::buildGPUToBinaryStage(OpPassManager &pm, StringRef printer) {
  // The NVVM ops that have no LLVM intrinsic (wgmma.mma_async) become
  // inline PTX; after the point the simulator takes its IR, which runs them.
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertNVVMToLLVMPass());
  UOpSerializeToPTXOptions serialize;
  serialize.printer = printer.str();
  pm.addPass(createUOpSerializeToPTX(serialize));
}

//===- CompileToPTX.cpp - a module's kernels as PTX and launch dims -------===//

#include "uop/Pipelines/Pipelines.h"

#include "uop/Conversion/Passes.h"
#include "uop/Dialect/UOp/IR/UOpDialect.h"
#include "uop/Dialect/UOp/IR/UOpOps.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Verifier.h"

using namespace mlir;
using namespace mlir::uop;

FailureOr<std::unique_ptr<PTXCompiler>>
PTXCompiler::create(MLIRContext *ctx, const UOpToPTXOptions &options,
                    function_ref<LogicalResult(PassManager &)> configure) {
  // Options the passes would refuse only once a module runs: a compiler that
  // cannot work is not made.
  if (!llvm::is_contained(TargetAttr::getKnownChips(), options.chip))
    return emitError(UnknownLoc::get(ctx)) << TargetAttr::unknownChipMessage(options.chip);
  if (options.optLevel > 3)
    return emitError(UnknownLoc::get(ctx))
           << "no LLVM optimization level " << static_cast<unsigned>(options.optLevel)
           << " (0 to 3)";
  if (!isKnownPTXPrinter(options.printer))
    return emitError(UnknownLoc::get(ctx))
           << "unknown PTX printer '" << options.printer << "' (known: llvm, direct)";
  std::unique_ptr<PTXCompiler> compiler(new PTXCompiler(ctx, options.chip));
  compiler->pm.enableVerifier(verifyEachByDefault());
  if (configure && failed(configure(compiler->pm)))
    return failure();
  // The PTX text is what the pipeline is for here, whatever the options say.
  UOpToPTXOptions withBinary;
  withBinary.setCodegen(options.codegen());
  withBinary.chip = options.chip;
  withBinary.optLevel = options.optLevel;
  withBinary.toBinary = true;
  withBinary.printer = options.printer;
  buildUOpToPTXPipeline(compiler->pm, withBinary);
  return compiler;
}

FailureOr<std::vector<PTXKernel>> PTXCompiler::compile(ModuleOp module) {
  MLIRContext *ctx = module.getContext();
  if (ctx != pm.getContext())
    return emitError(UnknownLoc::get(pm.getContext()))
           << "the module is of another context than the compiler's";
  // The input is verified here; after each pass only if verifyEachByDefault().
  if (failed(verify(module)))
    return failure();
  // The variables' bounds, as the kernels declare them.
  llvm::StringMap<std::vector<KernelVariable>> declared;
  for (auto kernel : module.getOps<KernelOp>())
    declared[kernel.getSymName()] = declaredVariables(module, kernel.getSymName());
  if (failed(pm.run(module)))
    return failure();

  DictionaryAttr launch = UOpDialect::LaunchAttrHelper(ctx).getAttr(module);
  DictionaryAttr variables = UOpDialect::VariablesAttrHelper(ctx).getAttr(module);
  std::vector<PTXKernel> kernels;
  for (auto bin : module.getOps<gpu::BinaryOp>()) {
    PTXKernel k;
    k.name = bin.getSymName().str();
    k.chip = chip;
    k.ptx = cast<gpu::ObjectAttr>(bin.getObjects()[0]).getObject().getValue().str();
    if (std::optional<LaunchDims> dims = LaunchDims::read(launch ? launch.get(k.name) : nullptr))
      k.launch = *dims;
    auto names = variables ? variables.getAs<ArrayAttr>(k.name) : ArrayAttr();
    k.variables = takenVariables(module, k.name, /*numBuffers=*/0, names ? names.size() : 0,
                                 declared.lookup(k.name));
    kernels.push_back(std::move(k));
  }
  if (kernels.empty())
    return emitError(module.getLoc()) << "no kernel to compile";
  return kernels;
}

FailureOr<std::vector<PTXKernel>>
mlir::uop::compileToPTX(ModuleOp module, const UOpToPTXOptions &options,
                        function_ref<LogicalResult(PassManager &)> configure) {
  FailureOr<std::unique_ptr<PTXCompiler>> compiler =
      PTXCompiler::create(module.getContext(), options, configure);
  if (failed(compiler))
    return failure();
  return (*compiler)->compile(module);
}

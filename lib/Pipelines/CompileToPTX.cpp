//===- CompileToPTX.cpp - a module's kernels as PTX and launch dims -------===//

#include "uop/Pipelines/Pipelines.h"

#include "uop/Dialect/UOp/IR/UOpDialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

using namespace mlir;
using namespace mlir::uop;

FailureOr<std::vector<PTXKernel>>
mlir::uop::compileToPTX(ModuleOp module, const UOpToPTXOptions &options,
                        function_ref<LogicalResult(PassManager &)> configure) {
  MLIRContext *ctx = module.getContext();
  PassManager pm(ctx);
  if (configure && failed(configure(pm)))
    return failure();
  // The PTX text is what the pipeline is for here, whatever the options say.
  UOpToPTXOptions withBinary;
  withBinary.setCodegen(options.codegen());
  withBinary.chip = options.chip;
  withBinary.optLevel = options.optLevel;
  withBinary.toBinary = true;
  buildUOpToPTXPipeline(pm, withBinary);
  if (failed(pm.run(module)))
    return failure();

  DictionaryAttr launch = UOpDialect::LaunchAttrHelper(ctx).getAttr(module);
  std::vector<PTXKernel> kernels;
  for (auto bin : module.getOps<gpu::BinaryOp>()) {
    PTXKernel k;
    k.name = bin.getSymName().str();
    k.chip = options.chip;
    k.ptx = cast<gpu::ObjectAttr>(bin.getObjects()[0]).getObject().getValue().str();
    if (auto dims = launch ? launch.getAs<DictionaryAttr>(k.name) : DictionaryAttr()) {
      llvm::copy(cast<DenseI32ArrayAttr>(dims.get("grid")).asArrayRef(), k.grid.begin());
      llvm::copy(cast<DenseI32ArrayAttr>(dims.get("block")).asArrayRef(), k.block.begin());
    }
    kernels.push_back(std::move(k));
  }
  if (kernels.empty())
    return emitError(module.getLoc()) << "no kernel to compile";
  return kernels;
}

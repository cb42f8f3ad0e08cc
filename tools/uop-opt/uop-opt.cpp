//===- uop-opt.cpp - the uop-mlir optimizer driver ------------------------===//
//
// mlir-opt with the uop dialect and uop-mlir's passes added. Every upstream
// dialect, extension and pass is registered too, so pipelines can mix uop
// with the gpu/nvvm/llvm dialects the PTX path lowers through.
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

#include "uop/Conversion/Passes.h"
#include "uop/Dialect/UOp/IR/UOpDialect.h"
#include "uop/Dialect/UOp/Transforms/Passes.h"
#include "uop/Kernelize/Passes.h"
#include "uop/Pipelines/Pipelines.h"
#include "uop/Support/Stack.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::uop::registerUOpPasses();
  mlir::uop::registerUOpKernelizePasses();
  mlir::uop::registerUOpConversionPasses();
  mlir::uop::registerUOpPipelines();
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::uop::registerUOpPTXDependencies(registry);
  registry.insert<mlir::uop::UOpDialect>();
  return mlir::uop::runOnToolStack([&] {
    return mlir::asMainReturnCode(
        mlir::MlirOptMain(argc, argv, "uop-mlir optimizer driver\n", registry));
  });
}

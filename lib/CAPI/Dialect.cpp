//===- Dialect.cpp - uop-c: the dialect handle and registration -----------===//

#include "uop-c/Dialect.h"

#include "uop/Conversion/Passes.h"
#include "uop/Dialect/UOp/IR/UOpDialect.h"
#include "uop/Dialect/UOp/Transforms/Passes.h"
#include "uop/Kernelize/Passes.h"
#include "uop/Pipelines/Pipelines.h"
#include "uop/Runtime/Runner.h"
#include "uop/Support/Version.h"
#include "uop/Target/Tinygrad/TinygradJSON.h"

#include "mlir/CAPI/Diagnostics.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/CAPI/Support.h"
#include "mlir/CAPI/Utils.h"
#include "mlir/InitAllPasses.h"

#include <mutex>

using namespace mlir;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(UOp, uop, mlir::uop::UOpDialect)

void uopRegisterRequiredDialects(MlirDialectRegistry registry) {
  unwrap(registry)->insert<uop::UOpDialect, func::FuncDialect, memref::MemRefDialect>();
  uop::registerUOpPTXDependencies(*unwrap(registry));
}

void uopRegisterAllPasses() {
  // Registering twice would assert in the pass registry.
  static std::once_flag once;
  std::call_once(once, [] {
    registerAllPasses();
    uop::registerUOpPasses();
    uop::registerUOpConversionPasses();
    uop::registerUOpPipelines();
    uop::registerUOpKernelizePasses();
  });
}

MlirContext uopContextCreate() {
  DialectRegistry registry;
  registry.insert<uop::UOpDialect, func::FuncDialect, memref::MemRefDialect>();
  uop::registerUOpPTXDependencies(registry);
  auto *ctx = new MLIRContext(registry);
  ctx->loadDialect<uop::UOpDialect>();
  return wrap(ctx);
}

MlirStringRef uopGetVersion() { return mlirStringRefCreateFromCString(UOP_MLIR_VERSION); }

void uopDiagnosticPrint(MlirDiagnostic diagnostic, MlirStringCallback callback, void *userData) {
  detail::CallbackOstream os(callback, userData);
  uop::printLocatedDiagnostic(unwrap(diagnostic), os);
}

void uopChipForComputeCapability(MlirContext context, int major, int minor,
                                 MlirStringCallback callback, void *userData) {
  std::string chip = uop::chipForComputeCapability(unwrap(context), major, minor);
  callback(wrap(StringRef(chip)), userData);
}

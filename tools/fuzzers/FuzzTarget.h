//===- FuzzTarget.h - what the uop-mlir fuzz targets share ------*- C++ -*-===//
//
// Each target takes one input, builds a fresh context (so runs do not grow a
// shared one), and must end in success or in diagnostics; anything else is a
// finding: a crash, a sanitizer report, or an error the user could not place
// (a diagnostic without a file location). scripts/fuzz.sh runs the targets.
//
//===----------------------------------------------------------------------===//
#ifndef UOP_TOOLS_FUZZERS_FUZZTARGET_H
#define UOP_TOOLS_FUZZERS_FUZZTARGET_H

#include "uop/Dialect/UOp/IR/UOpDialect.h"
#include "uop/Pipelines/Pipelines.h"
#include "uop/Runtime/Runner.h"
#include "uop/Support/Stack.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

namespace mlir::uop::fuzz {

/// A context with what the tools load, no threads (a fuzzer wants one
/// deterministic thread), and a handler that drops diagnostics after
/// checking that each error can be placed in the input.
class FuzzContext {
public:
  FuzzContext() : ctx(makeRegistry(), MLIRContext::Threading::DISABLED) {
    ctx.loadDialect<UOpDialect>();
    ctx.printOpOnDiagnostic(false);
    ctx.getDiagEngine().registerHandler([](Diagnostic &d) {
      if (d.getSeverity() == DiagnosticSeverity::Error && !hasFileLocation(d.getLocation())) {
        llvm::errs() << "fuzz finding: an error without a file location: " << d << "\n";
        std::abort();
      }
    });
  }
  MLIRContext *get() { return &ctx; }

private:
  static DialectRegistry makeRegistry() {
    DialectRegistry registry;
    registry.insert<UOpDialect>();
    registerUOpPTXDependencies(registry);
    return registry;
  }
  static bool hasFileLocation(Location loc) {
    return static_cast<bool>(loc->findInstanceOf<FileLineColLoc>());
  }
  MLIRContext ctx;
};

/// Runs `body` on the tools' stack, as the tools do: deep input is bounded
/// by what that stack holds.
template <typename Fn> int onToolStack(Fn &&body) {
  return runOnToolStack([&] {
    body();
    return 0;
  });
}

/// Compiles each of `kernels` of `module`, a copy each, with `target`'s
/// runner (which takes one kernel per compile), and gives each kernel that
/// compiles to `then`, if any. Failures are the context's diagnostics.
inline void compileEach(MLIRContext *ctx, StringRef target, ModuleOp module,
                        ArrayRef<std::string> kernels,
                        llvm::function_ref<void(CompiledKernel &)> then = {}) {
  auto runner = createRunner(ctx, target);
  if (!runner) {
    llvm::errs() << "fuzz setup: " << llvm::toString(runner.takeError()) << "\n";
    std::abort();
  }
  for (const std::string &name : kernels) {
    OwningOpRef<ModuleOp> copy = module.clone();
    FailureOr<std::unique_ptr<CompiledKernel>> kernel = (*runner)->compile(*copy, name);
    if (succeeded(kernel) && then)
      then(**kernel);
  }
}

} // namespace mlir::uop::fuzz

#endif

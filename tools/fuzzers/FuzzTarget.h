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
#include <string>
#include <vector>

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

/// At most this many kernels of one input are compiled: each is a pipeline
/// run of its own.
constexpr size_t kMaxKernels = 4;

/// Compiles each of the first kMaxKernels of `kernels` of `module`, a copy
/// each, with `target`'s runner (which takes one kernel per compile), and
/// gives each kernel that compiles to `then`, if any. Failures are the
/// context's diagnostics.
inline void compileEach(MLIRContext *ctx, StringRef target, ModuleOp module,
                        ArrayRef<std::string> kernels,
                        llvm::function_ref<void(CompiledKernel &)> then = {}) {
  auto runner = createRunner(ctx, target);
  if (!runner) {
    llvm::errs() << "fuzz setup: " << llvm::toString(runner.takeError()) << "\n";
    std::abort();
  }
  for (const std::string &name : kernels.take_front(kMaxKernels)) {
    OwningOpRef<ModuleOp> copy = module.clone();
    FailureOr<std::unique_ptr<CompiledKernel>> kernel = (*runner)->compile(*copy, name);
    if (succeeded(kernel) && then)
      then(**kernel);
  }
}

/// A kernel runs if its launch has at most this many threads, each of which
/// may enter this many basic blocks: a run takes under a second in the plain
/// build (the sanitized one's tensor-core kernels can take over 10 s, which
/// libFuzzer keeps as slow inputs).
constexpr double kMaxThreads = 4096;
constexpr uint64_t kBlocksPerThread = 1 << 12;
/// Bytes of each buffer: a fuzzed kernel indexes past them, which the
/// simulator must catch.
constexpr size_t kBufferBytes = 4096;

/// Runs a kernel the sim runner compiled on zeroed buffers, each variable
/// at its least value. Its error (a fault, a launch that does not fit, a
/// spent budget) is an outcome, not a finding.
inline void runSmall(CompiledKernel &kernel) {
  const std::optional<LaunchDims> &launch = kernel.getLaunchDims();
  if (!launch)
    return;
  std::vector<int64_t> vars;
  for (const KernelVariable &v : kernel.getVariables())
    vars.push_back(v.min);
  // CUDA's launch limits first, as the run checks them, before any buffer.
  llvm::Expected<LaunchDims> dims = launchDimsFor("kernel", *launch, kernel.getVariables(), vars);
  if (!dims) {
    llvm::consumeError(dims.takeError());
    return;
  }
  double threads = 1; // (a double: six int32 sizes overflow int64)
  for (int32_t n : dims->grid)
    threads *= n;
  for (int32_t n : dims->block)
    threads *= n;
  if (threads > kMaxThreads)
    return;
  kernel.limitBlocksPerThread(kBlocksPerThread);
  std::vector<std::vector<uint8_t>> storage(kernel.numBuffers(),
                                            std::vector<uint8_t>(kBufferBytes, 0));
  std::vector<MutableArrayRef<uint8_t>> buffers(storage.begin(), storage.end());
  llvm::Error ran = kernel.run(buffers, vars);
  std::string outcome = ran ? llvm::toString(std::move(ran)) : "ok";
  // For test/Fuzz/replay.test, which shows that kernels do run.
  if (std::getenv("UOP_FUZZ_TRACE"))
    llvm::errs() << "fuzz: ran a kernel: " << outcome << "\n";
}

} // namespace mlir::uop::fuzz

#endif

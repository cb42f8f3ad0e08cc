//===- uop-pipeline-fuzzer.cpp - fuzz the pipelines on what verifies ------===//
//
// Input: a kernel as .mlir text, or as tinygrad JSON when it starts with
// '{'. What imports and verifies goes through every target's compile step:
// uop-to-ptx to PTX text (sm_80), and the cpu and sim runners' compile (the
// uop-to-llvm pipeline, the GPU pipeline, convert-nvvm-to-sim, the JIT).
// Each kernel the sim runner compiles then runs on small zeroed buffers with
// a step budget, as in uop-ptx-fuzzer; the CPU's native code is not run (a
// fuzzed kernel may loop for hours, and nothing bounds its accesses). Each
// step must succeed or say where the kernel is wrong; a run may fault.
//
//===----------------------------------------------------------------------===//

#include "FuzzTarget.h"

#include "uop/Dialect/UOp/IR/UOpOps.h"
#include "uop/Target/Tinygrad/TinygradJSON.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;

namespace {
OwningOpRef<ModuleOp> load(StringRef text, MLIRContext *ctx) {
  if (text.ltrim().starts_with("{")) {
    OwningOpRef<ModuleOp> module = ModuleOp::create(FileLineColLoc::get(ctx, "input.json", 1, 1));
    if (failed(uop::importTinygradKernel(text, "input.json", "fuzz_k0", *module)))
      return nullptr;
    return module;
  }
  return parseSourceString<ModuleOp>(text, ParserConfig(ctx), "input.mlir");
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // MLIR's lexer stops at the NUL a file's buffer ends with (the tools read
  // files): libFuzzer's bytes have none, so they are copied into a string.
  std::string owned(reinterpret_cast<const char *>(data), size);
  StringRef text = owned;
  return uop::fuzz::onToolStack([&] {
    uop::fuzz::FuzzContext ctx;
    OwningOpRef<ModuleOp> module = load(text, ctx.get());
    if (!module)
      return;

    OwningOpRef<ModuleOp> ptx = module->clone();
    PassManager pm(ctx.get());
    uop::buildUOpToPTXPipeline(pm);
    (void)pm.run(*ptx);

    SmallVector<std::string> kernels;
    for (auto k : module->getOps<uop::KernelOp>())
      kernels.push_back(k.getSymName().str());
    uop::fuzz::compileEach(ctx.get(), "cpu", *module, kernels);
    uop::fuzz::compileEach(ctx.get(), "sim", *module, kernels, uop::fuzz::runSmall);
  });
}

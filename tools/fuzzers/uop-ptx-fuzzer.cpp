//===- uop-ptx-fuzzer.cpp - fuzz the PTX importer and the simulator -------===//
//
// Input: PTX text, as `uop-translate --import-ptx` and `uop-run K.ptx` read
// it. What imports and verifies goes through the sim runner's compile step
// (the device-IR checks, convert-nvvm-to-sim, the host JIT) for each of its
// first kernels, and each kernel that compiles runs on small zeroed buffers
// with a small step budget. Each step must succeed or say where the PTX is
// wrong; a run may fault (an access outside the buffers, an endless loop),
// but never touch the fuzzer's own memory.
//
//===----------------------------------------------------------------------===//

#include "FuzzTarget.h"

#include "uop/Target/PTX/PTXImporter.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;

namespace {
/// At most this many kernels of one input are compiled.
constexpr size_t kMaxKernels = 4;
/// A kernel runs if its launch has at most this many threads, each of which
/// may enter this many basic blocks: a run takes under a second in the plain
/// build (the sanitized one's tensor-core kernels can take over 10 s, which
/// libFuzzer keeps as slow inputs).
constexpr double kMaxThreads = 4096;
constexpr uint64_t kBlocksPerThread = 1 << 12;
/// Bytes of each buffer: a fuzzed kernel indexes past them, which the
/// simulator must catch.
constexpr size_t kBufferBytes = 4096;

/// Runs `kernel` on zeroed buffers, each variable 1. Its error (a fault, a
/// launch that does not fit) is an outcome, not a finding.
void runSmall(uop::CompiledKernel &kernel) {
  const std::optional<uop::LaunchDims> &launch = kernel.getLaunchDims();
  if (!launch)
    return;
  std::vector<int64_t> vars(kernel.getVariables().size(), 1);
  // CUDA's launch limits first, as the run checks them, before any buffer.
  llvm::Expected<uop::LaunchDims> dims =
      uop::launchDimsFor("kernel", *launch, kernel.getVariables(), vars);
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
  llvm::consumeError(kernel.run(buffers, vars));
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // The importer reads lines up to the buffer's end: a copy that ends in a
  // NUL, as a file's buffer does.
  std::string owned(reinterpret_cast<const char *>(data), size);
  return uop::fuzz::onToolStack([&] {
    uop::fuzz::FuzzContext ctx;
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBuffer(owned, "input.ptx"),
                                 llvm::SMLoc());
    OwningOpRef<ModuleOp> module = uop::importPTX(sourceMgr, ctx.get());
    if (!module || failed(verify(*module)))
      return;

    SmallVector<std::string> kernels;
    for (auto m : module->getOps<gpu::GPUModuleOp>())
      if (kernels.size() < kMaxKernels)
        kernels.push_back(m.getSymName().str());
    uop::fuzz::compileEach(ctx.get(), "sim", *module, kernels, runSmall);
  });
}

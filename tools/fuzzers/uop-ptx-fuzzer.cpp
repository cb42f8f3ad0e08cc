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
      kernels.push_back(m.getSymName().str());
    uop::fuzz::compileEach(ctx.get(), "sim", *module, kernels, uop::fuzz::runSmall);
  });
}

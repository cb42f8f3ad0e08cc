//===- uop-json-fuzzer.cpp - fuzz the tinygrad kernel JSON importer -------===//
//
// Input: one kernel JSON. The importer (which verifies what it builds) and
// the reader of the "buffers" list must accept it or say where it is wrong.
//
//===----------------------------------------------------------------------===//

#include "FuzzTarget.h"

#include "uop/Target/Tinygrad/TinygradJSON.h"

#include "mlir/IR/BuiltinOps.h"

using namespace mlir;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  StringRef json(reinterpret_cast<const char *>(data), size);
  return uop::fuzz::onToolStack([&] {
    uop::fuzz::FuzzContext ctx;
    OwningOpRef<ModuleOp> module =
        ModuleOp::create(FileLineColLoc::get(ctx.get(), "input.json", 1, 1));
    (void)uop::importTinygradKernel(json, "input.json", "fuzz_k0", *module);
    (void)uop::readTinygradKernelData(json, "input.json", ctx.get());
  });
}

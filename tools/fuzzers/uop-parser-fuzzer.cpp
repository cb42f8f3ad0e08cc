//===- uop-parser-fuzzer.cpp - fuzz the .mlir parser and uop's verifiers --===//
//
// Input: .mlir text. Parsing runs every verifier of the uop dialect (and of
// the upstream dialects a pipeline lowers through); it must accept the text
// or say where it is wrong. What parses is printed and parsed again: the
// printer must write what the parser reads.
//
//===----------------------------------------------------------------------===//

#include "FuzzTarget.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

using namespace mlir;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // MLIR's lexer stops at the NUL a file's buffer ends with (the tools read
  // files): libFuzzer's bytes have none, so they are copied into a string.
  std::string owned(reinterpret_cast<const char *>(data), size);
  StringRef text = owned;
  return uop::fuzz::onToolStack([&] {
    uop::fuzz::FuzzContext ctx;
    ParserConfig config(ctx.get());
    OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, config, "input.mlir");
    if (!module)
      return;
    std::string printed;
    llvm::raw_string_ostream os(printed);
    module->print(os);
    if (!parseSourceString<ModuleOp>(printed, config, "printed.mlir")) {
      llvm::errs() << "fuzz finding: the printed module does not parse:\n" << printed << "\n";
      std::abort();
    }
  });
}

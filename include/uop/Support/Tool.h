//===- Tool.h - what the uop-mlir tools share on their command line -*- C++ -*-===//
//
// Each tool's own options are in its category; `--help` lists those (the
// LLVM and MLIR options the tool links in stay usable and are listed by
// `--help-hidden`), and `--version` names uop-mlir and the LLVM it uses.
//
//===----------------------------------------------------------------------===//
#ifndef UOP_SUPPORT_TOOL_H
#define UOP_SUPPORT_TOOL_H

#include "uop/Support/Version.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::uop {

inline void setUpToolCommandLine(llvm::ArrayRef<const llvm::cl::OptionCategory *> categories) {
  // cl::HideUnrelatedOptions would hide the rest from --help-hidden too.
  for (auto &[name, option] : llvm::cl::getRegisteredOptions()) {
    bool ours = llvm::any_of(option->Categories, [&](const llvm::cl::OptionCategory *c) {
      return llvm::is_contained(categories, c) || c->getName() == "Generic Options"; // --help
    });
    if (!ours && option->getOptionHiddenFlag() == llvm::cl::NotHidden)
      option->setHiddenFlag(llvm::cl::Hidden);
  }
  llvm::cl::SetVersionPrinter([](llvm::raw_ostream &os) {
    os << "uop-mlir " << UOP_MLIR_VERSION << " (LLVM " << LLVM_VERSION_STRING << ")\n";
  });
}

} // namespace mlir::uop

#endif

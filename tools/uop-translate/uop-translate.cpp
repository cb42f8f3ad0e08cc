//===- uop-translate.cpp - translations in and out of the uop dialect -----===//
//
//   uop-translate --import-tinygrad a/k0.json b/k1.json [-o out.mlir]
//       one module, one uop.kernel per file (named <case>_k<kernel>)
//   uop-translate --export-tinygrad k.mlir [-o out.json]
//       each kernel as {"name", "nodes"}; several kernels give a JSON array
//
// Bad input is a diagnostic with file:line:col and exit code 2.
//
//===----------------------------------------------------------------------===//

#include "uop/Dialect/UOp/IR/UOpOps.h"
#include "uop/Target/Tinygrad/TinygradJSON.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

using namespace mlir;
namespace cl = llvm::cl;

namespace {
enum class Action { None, ImportTinygrad, ExportTinygrad };

cl::opt<Action> action(cl::desc("Translation:"), cl::init(Action::None),
                       cl::values(clEnumValN(Action::ImportTinygrad, "import-tinygrad",
                                             "tinygrad kernel JSON files -> one uop module"),
                                  clEnumValN(Action::ExportTinygrad, "export-tinygrad",
                                             "uop module -> tinygrad kernel JSON")));
cl::list<std::string> inputs(cl::Positional, cl::desc("<inputs>"), cl::OneOrMore);
cl::opt<std::string> outputFile("o", cl::desc("Output file (default: stdout)"),
                                cl::value_desc("file"), cl::init("-"));

constexpr int kBadInput = 2;

/// The default kernel name when the JSON has no "case"/"kernel": parent
/// directory and file stem, e.g. conv2d_k0 for conv2d/k0.json.
std::string defaultKernelName(StringRef path) {
  StringRef dir = llvm::sys::path::filename(llvm::sys::path::parent_path(path));
  std::string name = (dir.empty() ? "" : dir.str() + "_") + llvm::sys::path::stem(path).str();
  for (char &c : name)
    if (!llvm::isAlnum(c) && c != '_')
      c = '_';
  return name;
}

int importTinygrad(MLIRContext &ctx, llvm::raw_ostream &os) {
  ctx.getDiagEngine().registerHandler(
      [](Diagnostic &d) { uop::printLocatedDiagnostic(d, llvm::errs()); });
  OwningOpRef<ModuleOp> module = ModuleOp::create(UnknownLoc::get(&ctx));
  for (const std::string &path : inputs) {
    std::string err;
    std::unique_ptr<llvm::MemoryBuffer> buf = openInputFile(path, &err);
    if (!buf) {
      llvm::errs() << path << ": error: " << err << "\n";
      return kBadInput;
    }
    if (failed(uop::importTinygradKernel(buf->getBuffer(), path, defaultKernelName(path), *module)))
      return kBadInput;
  }
  module->print(os);
  os << "\n";
  return 0;
}

int exportTinygrad(MLIRContext &ctx, llvm::raw_ostream &os) {
  if (inputs.size() != 1) {
    llvm::errs() << "error: --export-tinygrad takes one .mlir file\n";
    return kBadInput;
  }
  auto sourceMgr = std::make_shared<llvm::SourceMgr>();
  std::string err;
  std::unique_ptr<llvm::MemoryBuffer> buf = openInputFile(inputs[0], &err);
  if (!buf) {
    llvm::errs() << inputs[0] << ": error: " << err << "\n";
    return kBadInput;
  }
  sourceMgr->AddNewSourceBuffer(std::move(buf), llvm::SMLoc());
  SourceMgrDiagnosticHandler handler(*sourceMgr, &ctx);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &ctx);
  if (!module)
    return kBadInput;
  SmallVector<uop::KernelOp> kernels(module->getOps<uop::KernelOp>());
  if (kernels.empty()) {
    emitError(module->getLoc()) << "no uop.kernel to export";
    return kBadInput;
  }
  std::string text;
  llvm::raw_string_ostream ss(text);
  if (kernels.size() > 1)
    ss << "[";
  for (auto [i, k] : llvm::enumerate(kernels)) {
    if (i)
      ss << ",\n";
    if (failed(uop::exportTinygradKernel(k, ss)))
      return kBadInput;
  }
  if (kernels.size() > 1)
    ss << "]";
  os << text << "\n";
  return 0;
}
} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(argc, argv, "uop-mlir translation tool\n");
  if (action == Action::None) {
    llvm::errs() << "error: choose a translation (--import-tinygrad or --export-tinygrad)\n";
    return kBadInput;
  }
  MLIRContext ctx;
  ctx.loadDialect<uop::UOpDialect>();
  ctx.printOpOnDiagnostic(false); // the generic form of an op says little about JSON
  std::string err;
  auto output = openOutputFile(outputFile, &err);
  if (!output) {
    llvm::errs() << "error: " << err << "\n";
    return 1;
  }
  int rc = action == Action::ImportTinygrad ? importTinygrad(ctx, output->os())
                                            : exportTinygrad(ctx, output->os());
  if (rc == 0)
    output->keep();
  return rc;
}

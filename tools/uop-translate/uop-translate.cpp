//===- uop-translate.cpp - translations in and out of the uop dialect -----===//
//
//   uop-translate --import-tinygrad a/k0.json b/k1.json [-o out.mlir]
//       one module, one uop.kernel per file (named <case>_k<kernel>)
//   uop-translate --export-tinygrad k.mlir [-o out.json]
//       each kernel as {"name", "nodes"}; several kernels give a JSON array
//   uop-translate --export-ptx k.mlir | a/k0.json ... [--chip=sm_80]
//                 [--ptx-dir=DIR] [-o out.ptx]
//       runs the uop-to-ptx pipeline and writes each kernel's PTX: one
//       kernel's PTX is a file ptxas takes as is; with several, each starts
//       with a `// ----- kernel NAME` line, or goes to DIR/NAME.ptx
//   uop-translate --list-tinygrad-ops
//       every uop op with its tinygrad name and tinygrad's groups (GroupOp)
//       it is in, from the op definitions: `uop.add ADD ALU Binary ...`
//
// Bad input is a diagnostic with file:line:col and exit code 2.
//
//===----------------------------------------------------------------------===//

#include "uop/Dialect/UOp/IR/UOpOps.h"
#include "uop/Pipelines/Pipelines.h"
#include "uop/Support/Stack.h"
#include "uop/Support/Tool.h"
#include "uop/Target/Tinygrad/TinygradJSON.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

using namespace mlir;
namespace cl = llvm::cl;

namespace {
cl::OptionCategory category("uop-translate options");
enum class Action { None, ImportTinygrad, ExportTinygrad, ExportPTX, ListTinygradOps };

cl::opt<Action>
    action(cl::cat(category), cl::desc("Translation:"), cl::init(Action::None),
           cl::values(clEnumValN(Action::ImportTinygrad, "import-tinygrad",
                                 "tinygrad kernel JSON files -> one uop module"),
                      clEnumValN(Action::ExportTinygrad, "export-tinygrad",
                                 "uop module -> tinygrad kernel JSON"),
                      clEnumValN(Action::ExportPTX, "export-ptx",
                                 "uop module or tinygrad kernel JSON files -> PTX (uop-to-ptx)"),
                      clEnumValN(Action::ListTinygradOps, "list-tinygrad-ops",
                                 "each uop op's tinygrad name and GroupOp groups")));
cl::opt<std::string> chip(cl::cat(category), "chip",
                          cl::desc("--export-ptx: GPU architecture (sm_XX)"),
                          cl::init(mlir::uop::TargetAttr::kDefaultChip.str()));
cl::opt<unsigned> optLevel(cl::cat(category), "opt-level",
                           cl::desc("--export-ptx: LLVM optimization level"), cl::init(3));
cl::opt<std::string> ptxOpts(cl::cat(category), "opts",
                             cl::desc("--export-ptx: opts for every kernel in tinygrad's notation "
                                      "(default: tinygrad's heuristic)"),
                             cl::value_desc("list"));
cl::opt<bool> noOpt(cl::cat(category), "no-opt",
                    cl::desc("--export-ptx: apply no opts (tinygrad's NOOPT=1)"));
cl::opt<std::string>
    ptxDir(cl::cat(category), "ptx-dir",
           cl::desc("--export-ptx: write each kernel to DIR/<kernel>.ptx (DIR is made if missing); "
                    "without it the kernels are one PTX module"),
           cl::value_desc("dir"));
cl::list<std::string> inputs(cl::cat(category), cl::Positional, cl::desc("<inputs>"),
                             cl::ZeroOrMore);
cl::opt<std::string> outputFile(cl::cat(category), "o", cl::desc("Output file (default: stdout)"),
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

/// The kernels of tinygrad JSON files, one module; null after a diagnostic.
OwningOpRef<ModuleOp> importJSON(MLIRContext &ctx) {
  ctx.getDiagEngine().registerHandler(
      [](Diagnostic &d) { uop::printLocatedDiagnostic(d, llvm::errs()); });
  OwningOpRef<ModuleOp> module = ModuleOp::create(UnknownLoc::get(&ctx));
  for (const std::string &path : inputs) {
    std::string err;
    std::unique_ptr<llvm::MemoryBuffer> buf = openInputFile(path, &err);
    if (!buf) {
      llvm::errs() << path << ": error: " << err << "\n";
      return nullptr;
    }
    if (failed(uop::importTinygradKernel(buf->getBuffer(), path, defaultKernelName(path), *module)))
      return nullptr;
  }
  return module;
}

int importTinygrad(MLIRContext &ctx, llvm::raw_ostream &os) {
  OwningOpRef<ModuleOp> module = importJSON(ctx);
  if (!module)
    return kBadInput;
  module->print(os);
  os << "\n";
  return 0;
}

/// A .mlir file, parsed with diagnostics reported against its source (the
/// handler lives as long as the module).
struct ParsedFile {
  std::shared_ptr<llvm::SourceMgr> sourceMgr = std::make_shared<llvm::SourceMgr>();
  std::unique_ptr<SourceMgrDiagnosticHandler> handler;
  OwningOpRef<ModuleOp> module;
};

/// Parses `path` into `file.module`; false (after an error) if it cannot.
bool parseMLIR(MLIRContext &ctx, const std::string &path, ParsedFile &file) {
  std::string err;
  std::unique_ptr<llvm::MemoryBuffer> buf = openInputFile(path, &err);
  if (!buf) {
    llvm::errs() << path << ": error: " << err << "\n";
    return false;
  }
  file.sourceMgr->AddNewSourceBuffer(std::move(buf), llvm::SMLoc());
  file.handler = std::make_unique<SourceMgrDiagnosticHandler>(*file.sourceMgr, &ctx);
  file.module = parseSourceFile<ModuleOp>(file.sourceMgr, &ctx);
  return static_cast<bool>(file.module);
}

int listTinygradOps(MLIRContext &ctx, llvm::raw_ostream &os) {
  auto groups = [](RegisteredOperationName op) {
    std::pair<bool, StringRef> in[] = {
        {op.hasTrait<uop::GroupOp::ALU>(), "ALU"},
        {op.hasTrait<uop::GroupOp::Unary>(), "Unary"},
        {op.hasTrait<uop::GroupOp::Binary>(), "Binary"},
        {op.hasTrait<uop::GroupOp::Ternary>(), "Ternary"},
        {op.hasTrait<uop::GroupOp::Commutative>(), "Commutative"},
        {op.hasTrait<uop::GroupOp::Associative>(), "Associative"},
        {op.hasTrait<uop::GroupOp::Idempotent>(), "Idempotent"},
        {op.hasTrait<uop::GroupOp::UnsafePad>(), "UnsafePad"},
        {op.hasTrait<uop::GroupOp::Irreducible>(), "Irreducible"},
        {op.hasTrait<uop::GroupOp::Movement>(), "Movement"},
        {op.hasInterface<uop::BufferOpInterface>(), "Buffer"},
    };
    SmallVector<StringRef> out;
    for (auto [has, name] : in)
      if (has)
        out.push_back(name);
    return out;
  };
  auto ops =
      llvm::to_vector(ctx.getRegisteredOperationsByDialect(uop::UOpDialect::getDialectNamespace()));
  llvm::sort(ops, [](RegisteredOperationName a, RegisteredOperationName b) {
    return a.getStringRef() < b.getStringRef();
  });
  for (RegisteredOperationName op : ops) {
    os << op.getStringRef() << " " << uop::getTinygradOpName(op).value_or("-");
    for (StringRef g : groups(op))
      os << " " << g;
    os << "\n";
  }
  return 0;
}

int exportTinygrad(MLIRContext &ctx, llvm::raw_ostream &os) {
  if (inputs.size() != 1) {
    llvm::errs() << "error: --export-tinygrad takes one .mlir file\n";
    return kBadInput;
  }
  ParsedFile file;
  if (!parseMLIR(ctx, inputs[0], file))
    return kBadInput;
  ModuleOp module = *file.module;
  SmallVector<uop::KernelOp> kernels(module.getOps<uop::KernelOp>());
  if (kernels.empty()) {
    emitError(module.getLoc()) << "no uop.kernel to export";
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

/// Several kernels' PTX modules as one module ptxas accepts: the first
/// module's .version/.target/.address_size, then each module's body. Module
/// scope symbols (shared arrays) must then be unique across the kernels.
class PTXJoiner {
public:
  LogicalResult add(StringRef header, StringRef ptx, StringRef kernel) {
    bool first = out.empty();
    out += header.str() + "\n";
    bool inFunction = false;
    for (StringRef line : llvm::split(ptx, '\n')) {
      StringRef t = line.trim();
      if (!first &&
          (t.starts_with(".version") || t.starts_with(".target") || t.starts_with(".address_size")))
        continue;
      if (t.starts_with("{"))
        inFunction = true;
      else if (t.starts_with("}"))
        inFunction = false;
      if (!inFunction &&
          (t.starts_with(".shared") || t.starts_with(".global") || t.starts_with(".const"))) {
        StringRef name = t.rsplit(' ').second.split('[').first.rtrim(';');
        if (!symbols.insert(name).second) {
          llvm::errs() << "error: kernel " << kernel << " defines '" << name
                       << "' at module scope too: give --ptx-dir to write one module per kernel\n";
          return failure();
        }
      }
      out += line.str() + "\n";
    }
    return success();
  }
  const std::string &text() const { return out; }

private:
  std::string out;
  llvm::StringSet<> symbols;
};

int exportPTX(MLIRContext &ctx, llvm::raw_ostream &os) {
  bool json =
      llvm::all_of(inputs, [](const std::string &p) { return StringRef(p).ends_with(".json"); });
  if (!json && inputs.size() != 1) {
    llvm::errs() << "error: --export-ptx takes one .mlir file or tinygrad .json files\n";
    return kBadInput;
  }
  ParsedFile file;
  if (json)
    file.module = importJSON(ctx);
  else
    parseMLIR(ctx, inputs[0], file);
  OwningOpRef<ModuleOp> &module = file.module;
  if (!module)
    return kBadInput;

  uop::UOpToPTXOptions options;
  options.chip = chip;
  options.optLevel = optLevel;
  options.setCodegen(uop::KernelCodegenOptions::fromToolFlags(
      ptxOpts.getNumOccurrences() ? std::optional<StringRef>(ptxOpts) : std::nullopt, noOpt));
  FailureOr<std::vector<uop::PTXKernel>> kernels =
      uop::compileToPTX(*module, options, [](PassManager &pm) {
        applyDefaultTimingPassManagerCLOptions(pm);
        return applyPassManagerCLOptions(pm);
      });
  if (failed(kernels))
    return 1;

  if (!ptxDir.empty())
    if (std::error_code ec = llvm::sys::fs::create_directories(ptxDir)) {
      llvm::errs() << ptxDir << ": error: " << ec.message() << "\n";
      return 1;
    }
  PTXJoiner joined;
  for (const uop::PTXKernel &k : *kernels) {
    std::string header = "// uop-mlir kernel " + k.name;
    llvm::raw_string_ostream hs(header);
    hs << " grid=";
    llvm::interleave(k.grid, hs, ",");
    hs << " block=";
    llvm::interleave(k.block, hs, ",");
    if (!ptxDir.empty()) {
      SmallString<128> path(ptxDir);
      llvm::sys::path::append(path, k.name + ".ptx");
      std::error_code ec;
      llvm::raw_fd_ostream file(path, ec);
      if (ec) {
        llvm::errs() << path << ": error: " << ec.message() << "\n";
        return 1;
      }
      file << header << "\n" << k.ptx;
    } else if (failed(joined.add(header, k.ptx, k.name))) {
      return 1;
    }
  }
  os << joined.text();
  return 0;
}
} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  registerPassManagerCLOptions();
  registerDefaultTimingManagerCLOptions();
  uop::setUpToolCommandLine({&category});
  cl::ParseCommandLineOptions(argc, argv, "uop-mlir translation tool\n");
  if (action == Action::None) {
    llvm::errs() << "error: choose a translation (--import-tinygrad, --export-tinygrad, "
                    "--export-ptx or --list-tinygrad-ops)\n";
    return kBadInput;
  }
  if ((action == Action::ListTinygradOps) != inputs.empty()) {
    llvm::errs() << "error: "
                 << (inputs.empty() ? "no input files" : "--list-tinygrad-ops takes no input")
                 << "\n";
    return kBadInput;
  }
  if (action != Action::ExportPTX && (ptxOpts.getNumOccurrences() || noOpt)) {
    llvm::errs() << "error: --opts and --no-opt go with --export-ptx\n";
    return kBadInput;
  }
  if (ptxOpts.getNumOccurrences() && noOpt) {
    llvm::errs() << "error: --opts and --no-opt contradict each other\n";
    return kBadInput;
  }
  DialectRegistry registry;
  registry.insert<uop::UOpDialect>();
  uop::registerUOpPTXDependencies(registry);
  MLIRContext ctx(registry);
  ctx.loadDialect<uop::UOpDialect>();
  ctx.printOpOnDiagnostic(false); // the generic form of an op says little about JSON
  std::string err;
  auto output = openOutputFile(outputFile, &err);
  if (!output) {
    llvm::errs() << "error: " << err << "\n";
    return 1;
  }
  int rc = uop::runOnToolStack([&] {
    return action == Action::ImportTinygrad   ? importTinygrad(ctx, output->os())
           : action == Action::ExportTinygrad ? exportTinygrad(ctx, output->os())
           : action == Action::ExportPTX      ? exportPTX(ctx, output->os())
                                              : listTinygradOps(ctx, output->os());
  });
  if (rc == 0)
    output->keep();
  return rc;
}

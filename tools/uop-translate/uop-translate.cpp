//===- uop-translate.cpp - translations in and out of the uop dialect -----===//
//
//   uop-translate --import-tinygrad a/k0.json b/k1.json [-o out.mlir]
//       one module, one uop.kernel per file (named <case>_k<kernel>)
//   uop-translate --export-tinygrad k.mlir [-o out.json]
//       each kernel as {"name", "nodes"}; several kernels give a JSON array;
//       a kernelized module (uop-kernelize) gives its schedule, in order,
//       each kernel with "globals" (the buffers bound to its DEFINE_GLOBALs)
//   uop-translate --export-ptx k.mlir | a/k0.json ... [--chip=sm_80]
//                 [--ptx-dir=DIR] [-o out.ptx]
//       runs the uop-to-ptx pipeline and writes the kernels' PTX as one
//       module ptxas takes as is, each kernel after a `// uop-mlir kernel
//       NAME grid=X,Y,Z block=X,Y,Z` line, or each to DIR/NAME.ptx
//   uop-translate --import-tinygrad-graph CASE/case.json [-o out.mlir]
//       a tensor graph as a func.func of uop ops on tensors
//   uop-translate --kernelize-tinygrad-graph CASE/case.json
//       the case's schedule (kernelize in memory) as {"schedule": [...]}
//   uop-translate --list-tinygrad-ops
//       every uop op with its tinygrad name and tinygrad's groups (GroupOp)
//       it is in, from the op definitions: `uop.add ADD ALU Binary ...`
//
// As mlir-translate: no input file reads stdin (JSON for --import-tinygrad,
// .mlir otherwise); --split-input-file and --verify-diagnostics work on .mlir
// input. Bad input is a diagnostic with file:line:col and exit code 2; a step
// that fails on valid input, exit 1 (docs/README.md has the table).
//
// Built twice. uop-translate links no LLVM optimizer or NVPTX back end
// (UOP_TRANSLATE_LEAN): their 1,600 command-line options' static
// constructors and pages would be most of a one-kernel process's start-up.
// It prints PTX itself (--ptx-printer=direct); for LLVM's printer (the
// default) it becomes uop-translate-llvm, the same tool with LLVM's back end,
// from its own directory (execv, before reading any input: the same process,
// exit code and output). uop-translate-llvm can be run directly too.
//
//===----------------------------------------------------------------------===//

#include "uop/Conversion/GPUToPTX/LLVMBackend.h"
#include "uop/Conversion/Passes.h"
#include "uop/Dialect/UOp/IR/UOpOps.h"
#include "uop/Kernelize/GraphJSON.h"
#include "uop/Pipelines/Pipelines.h"
#include "uop/Support/Stack.h"
#include "uop/Support/Timing.h"
#include "uop/Support/Tool.h"
#include "uop/Target/PTX/PTXImporter.h"
#include "uop/Target/PTX/PTXPrinter.h"
#include "uop/Target/Tinygrad/TinygradJSON.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"

#include <chrono>
#include <unistd.h>

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/ToolUtilities.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/BuryPointer.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Errno.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

using namespace mlir;
namespace cl = llvm::cl;

namespace {
cl::OptionCategory category("uop-translate options");
enum class Action {
  None,
  ImportTinygrad,
  ImportTinygradGraph,
  ExportTinygrad,
  ExportPTX,
  NVVMToPTX,
  ImportPTX,
  KernelizeTinygradGraph,
  ListTinygradOps
};

cl::opt<Action>
    action(cl::cat(category), cl::desc("Translation:"), cl::init(Action::None),
           cl::values(clEnumValN(Action::ImportTinygrad, "import-tinygrad",
                                 "tinygrad kernel JSON files -> one uop module"),
                      clEnumValN(Action::ImportTinygradGraph, "import-tinygrad-graph",
                                 "tinygrad tensor-graph cases (case.json) -> one uop module, "
                                 "a func.func of tensor ops per case"),
                      clEnumValN(Action::ExportTinygrad, "export-tinygrad",
                                 "uop module -> tinygrad kernel JSON"),
                      clEnumValN(Action::ExportPTX, "export-ptx",
                                 "uop module or tinygrad kernel JSON files -> PTX (uop-to-ptx)"),
                      clEnumValN(Action::NVVMToPTX, "nvvm-to-ptx",
                                 "gpu.modules of llvm/nvvm ops -> PTX, by uop-mlir's PTX printer "
                                 "(each module's #nvvm.target says the chip)"),
                      clEnumValN(Action::ImportPTX, "import-ptx",
                                 "PTX as --ptx-printer=direct writes it -> gpu.modules of "
                                 "llvm/nvvm ops that uop-run --target=sim runs"),
                      clEnumValN(Action::KernelizeTinygradGraph, "kernelize-tinygrad-graph",
                                 "tinygrad graph case (case.json) -> its schedule as JSON "
                                 "(kernelize and schedule in memory)"),
                      clEnumValN(Action::ListTinygradOps, "list-tinygrad-ops",
                                 "each uop op's tinygrad name and GroupOp groups")));
cl::opt<std::string> chip(cl::cat(category), "chip",
                          cl::desc("--export-ptx: GPU architecture (sm_XX)"),
                          cl::init(mlir::uop::TargetAttr::kDefaultChip.str()));
cl::opt<unsigned> optLevel(cl::cat(category), "opt-level",
                           cl::desc("--export-ptx: LLVM optimization level"), cl::init(3));
cl::opt<std::string> ptxPrinter(cl::cat(category), "ptx-printer",
                                cl::desc("--export-ptx: who writes the PTX: llvm (LLVM's NVPTX "
                                         "backend) or direct (uop-mlir's PTX printer)"),
                                cl::init("llvm"));
cl::opt<std::string> ptxOpts(cl::cat(category), "opts",
                             cl::desc("--export-ptx: opts for every kernel in tinygrad's notation "
                                      "(default: tinygrad's heuristic)"),
                             cl::value_desc("list"));
cl::opt<bool> noOpt(cl::cat(category), "no-opt",
                    cl::desc("--export-ptx: apply no opts (tinygrad's NOOPT=1)"));
cl::opt<std::string>
    tcSchedule(cl::cat(category), "tc-schedule",
               cl::desc("--export-ptx: the heuristic's tensor-core schedule: "
                        "auto (operands staged in shared memory where they can "
                        "be), staged, tinygrad, wgmma, tma, cluster, splitk (all sm_90a)"),
               cl::init("auto"));
cl::opt<std::string>
    ptxDir(cl::cat(category), "ptx-dir",
           cl::desc("--export-ptx: write each kernel to DIR/<kernel>.ptx (DIR is made if missing); "
                    "without it the kernels are one PTX module"),
           cl::value_desc("dir"));
cl::opt<bool> separate(cl::cat(category), "separate",
                       cl::desc("--export-ptx of JSON: import and compile each input as a module "
                                "of its own, one after another with one pass manager (tinygrad "
                                "compiles a kernel per call); with --timing, each input's "
                                "milliseconds"));
cl::list<std::string> inputs(cl::cat(category), cl::Positional,
                             cl::desc("<inputs> (default: stdin, as '-')"), cl::ZeroOrMore);
cl::opt<bool> splitInputFile(cl::cat(category), "split-input-file",
                             cl::desc(".mlir input: translate each part between '// -----' lines "
                                      "on its own; the outputs are joined by the same line"));
cl::opt<bool> verifyDiagnostics(cl::cat(category), "verify-diagnostics",
                                cl::desc(".mlir input: check that the diagnostics are the ones "
                                         "its expected-error/warning/note comments name"));
cl::opt<bool> timing(cl::cat(category), "timing",
                     cl::desc("--kernelize-tinygrad-graph: print each case's kernelize and "
                              "schedule milliseconds on stderr; --export-ptx: the wall and "
                              "CPU milliseconds of import and of compile"));
cl::opt<bool> verifyEach(cl::cat(category), "verify-each",
                         cl::desc("Verify the IR after every pass of the compile, as mlir-opt "
                                  "does (default: on in a debug or sanitized build, off in a "
                                  "release build, which verifies the input only)"),
                         cl::init(uop::verifyEachByDefault()));
cl::opt<std::string> outputFile(cl::cat(category), "o", cl::desc("Output file (default: stdout)"),
                                cl::value_desc("file"), cl::init("-"));

// Exit codes (docs/README.md, "Tools"): 0 done; 1 the input is valid but a
// step failed (a pass, writing the output), or --verify-diagnostics found
// other diagnostics than expected; 2 bad input or command line.
constexpr int kFailed = 1, kBadInput = 2;

/// The default kernel name when the JSON has no "case"/"kernel": parent
/// directory and file stem, e.g. conv2d_k0 for conv2d/k0.json.
std::string defaultKernelName(StringRef path) {
  if (path == "-")
    return "kernel";
  StringRef dir = llvm::sys::path::filename(llvm::sys::path::parent_path(path));
  std::string name = (dir.empty() ? "" : dir.str() + "_") + llvm::sys::path::stem(path).str();
  for (char &c : name)
    if (!llvm::isAlnum(c) && c != '_')
      c = '_';
  return name;
}

/// The kernels (or, with --import-tinygrad-graph, the graphs) of tinygrad
/// JSON files, one module; null after a diagnostic.
OwningOpRef<ModuleOp> importJSON(MLIRContext &ctx, ArrayRef<std::string> paths) {
  OwningOpRef<ModuleOp> module = ModuleOp::create(UnknownLoc::get(&ctx));
  for (const std::string &path : paths) {
    std::string err;
    std::unique_ptr<llvm::MemoryBuffer> buf = openInputFile(path, &err);
    if (!buf) {
      llvm::errs() << path << ": error: " << err << "\n";
      return nullptr;
    }
    StringRef name = path == "-" ? StringRef("<stdin>") : StringRef(path);
    auto import = action == Action::ImportTinygradGraph ? uop::importTinygradGraph
                                                        : uop::importTinygradKernel;
    if (failed(import(buf->getBuffer(), name, defaultKernelName(path), *module)))
      return nullptr;
  }
  return module;
}

int importTinygrad(MLIRContext &ctx, llvm::raw_ostream &os) {
  OwningOpRef<ModuleOp> module = importJSON(ctx, inputs);
  if (!module)
    return kBadInput;
  module->print(os);
  os << "\n";
  return 0;
}

/// What --export-tinygrad and --export-ptx do with a module.
using ModuleAction = function_ref<int(ModuleOp, llvm::raw_ostream &)>;

/// `action` on the module in `buffer` (a .mlir file, or one part of it),
/// with diagnostics reported against its text, or with --verify-diagnostics
/// checked against its expected-* comments (exit 0 when they match).
int onMLIR(MLIRContext &ctx, std::unique_ptr<llvm::MemoryBuffer> buffer, llvm::raw_ostream &os,
           ModuleAction action) {
  auto sourceMgr = std::make_shared<llvm::SourceMgr>();
  sourceMgr->AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  if (verifyDiagnostics) {
    SourceMgrDiagnosticVerifierHandler handler(*sourceMgr, &ctx);
    if (OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &ctx))
      (void)action(*module, os);
    return succeeded(handler.verify()) ? 0 : kFailed;
  }
  SourceMgrDiagnosticHandler handler(*sourceMgr, &ctx);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &ctx);
  if (!module)
    return kBadInput;
  return action(*module, os);
}

/// The one input file's bytes, or null after an error naming `flag` and
/// `what` it takes.
std::unique_ptr<llvm::MemoryBuffer> openOneInput(StringRef flag, StringRef what) {
  if (inputs.size() != 1) {
    llvm::errs() << "error: " << flag << " takes " << what << "\n";
    return nullptr;
  }
  std::string err;
  std::unique_ptr<llvm::MemoryBuffer> buf = openInputFile(inputs[0], &err);
  if (!buf)
    llvm::errs() << inputs[0] << ": error: " << err << "\n";
  return buf;
}

/// `action` on the one .mlir input, or with --split-input-file on each of
/// its parts; the exit code is the worst of the parts'.
int onMLIRInput(MLIRContext &ctx, llvm::raw_ostream &os, StringRef flag, ModuleAction action) {
  std::unique_ptr<llvm::MemoryBuffer> buf = openOneInput(
      flag, flag == "--export-ptx" ? "one .mlir file or tinygrad .json files" : "one .mlir file");
  if (!buf)
    return kBadInput;
  if (!splitInputFile)
    return onMLIR(ctx, std::move(buf), os, action);
  int worst = 0;
  (void)splitAndProcessBuffer(
      std::move(buf),
      [&](std::unique_ptr<llvm::MemoryBuffer> part, llvm::raw_ostream &partOS) {
        worst = std::max(worst, onMLIR(ctx, std::move(part), partOS, action));
        return success(); // every part runs, whatever the others did
      },
      os, kDefaultSplitMarker, kDefaultSplitMarker);
  return worst;
}

/// Each gpu.module's PTX by the direct printer, in order.
int nvvmToPTX(ModuleOp module, llvm::raw_ostream &os) {
  auto modules = module.getOps<gpu::GPUModuleOp>();
  if (modules.empty()) {
    emitError(module.getLoc()) << "--nvvm-to-ptx: no gpu.module to print";
    return kFailed;
  }
  for (gpu::GPUModuleOp m : modules) {
    SmallString<0> text;
    if (failed(uop::printPTX(m, text)))
      return kFailed;
    os << text;
  }
  return 0;
}

/// One PTX file (the direct printer's subset) as gpu.modules.
int importPTXFile(MLIRContext &ctx, llvm::raw_ostream &os) {
  std::unique_ptr<llvm::MemoryBuffer> buf = openOneInput("--import-ptx", "one .ptx file");
  if (!buf)
    return kBadInput;
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(buf), llvm::SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, &ctx);
  OwningOpRef<ModuleOp> module = uop::importPTX(sourceMgr, &ctx);
  if (!module || failed(verify(*module)))
    return kBadInput;
  module->print(os);
  os << "\n";
  return 0;
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

int exportTinygrad(ModuleOp module, llvm::raw_ostream &os) {
  // A kernelized module: its schedule, kernels in execution order.
  for (auto f : module.getOps<func::FuncOp>())
    if (f->hasAttr("uop.outputs"))
      return succeeded(uop::exportTinygradSchedule(f, os)) ? 0 : kBadInput;
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
/// module's .version/.target/.address_size, then each module's body. Kernel
/// names and module scope symbols (shared arrays) must then be unique across
/// the kernels.
class PTXJoiner {
public:
  LogicalResult add(StringRef header, StringRef ptx, StringRef kernel) {
    if (!kernels.insert(kernel).second) {
      llvm::errs() << "error: kernel " << kernel << " is in the input twice\n";
      return failure();
    }
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
  llvm::StringSet<> kernels, symbols;
};

/// The compiler --export-ptx's flags ask for.
FailureOr<std::unique_ptr<uop::PTXCompiler>> makePTXCompiler(MLIRContext *ctx) {
  uop::UOpToPTXOptions options;
  options.chip = chip;
  options.optLevel = optLevel;
  options.printer = ptxPrinter;
  options.setCodegen(uop::KernelCodegenOptions::fromToolFlags(
      ptxOpts.getNumOccurrences() ? std::optional<StringRef>(ptxOpts) : std::nullopt, noOpt,
      tcSchedule));
  return uop::PTXCompiler::create(ctx, options, [](PassManager &pm) {
    pm.enableVerifier(verifyEach);
    applyDefaultTimingPassManagerCLOptions(pm);
    return applyPassManagerCLOptions(pm);
  });
}

/// Compiles `module` and writes its kernels to --ptx-dir or into `joined`.
int compileAndWritePTX(uop::PTXCompiler &compiler, ModuleOp module, PTXJoiner &joined) {
  FailureOr<std::vector<uop::PTXKernel>> kernels = compiler.compile(module);
  if (failed(kernels))
    return kFailed;
  if (!ptxDir.empty())
    if (std::error_code ec = llvm::sys::fs::create_directories(ptxDir)) {
      llvm::errs() << ptxDir << ": error: " << ec.message() << "\n";
      return 1;
    }
  for (const uop::PTXKernel &k : *kernels) {
    std::string header = uop::ptxHeaderLine(k.name, k.launch, k.variables);
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
  return 0;
}

int exportPTX(ModuleOp module, llvm::raw_ostream &os) {
  uop::Stopwatch compile;
  llvm::scope_exit report([&] {
    if (timing)
      llvm::errs() << llvm::formatv("--export-ptx: compile and write {0:f2} ms (cpu {1:f2} ms, "
                                    "every thread); process cpu {2:f2} ms\n",
                                    compile.wallMs(), compile.cpuMs(), uop::processCPUms());
  });
  // Threads cannot speed up one kernel, yet the verifier would start the
  // pool's workers to check its few isolated ops in parallel: thread stacks
  // and a malloc arena per thread, paid by every one-kernel process. (Per
  // module: --split-input-file's chunks may differ.)
  module.getContext()->enableMultithreading(
      llvm::range_size(module.getOps<uop::KernelOp>()) > 1);
  FailureOr<std::unique_ptr<uop::PTXCompiler>> compiler = makePTXCompiler(module.getContext());
  if (failed(compiler))
    return kFailed;
  PTXJoiner joined;
  if (int rc = compileAndWritePTX(**compiler, module, joined))
    return rc;
  os << joined.text();
  return 0;
}

/// --export-ptx --separate: each JSON input imported and compiled as a module
/// of its own, one after another with one compiler, as tinygrad compiles a
/// kernel per call in a warm process; --timing reports each input.
int exportPTXSeparately(MLIRContext &ctx, llvm::raw_ostream &os) {
  FailureOr<std::unique_ptr<uop::PTXCompiler>> compiler = makePTXCompiler(&ctx);
  if (failed(compiler))
    return kFailed;
  PTXJoiner joined;
  for (const std::string &path : inputs) {
    uop::Stopwatch import;
    OwningOpRef<ModuleOp> module = importJSON(ctx, {path});
    if (!module)
      return kBadInput;
    double importWall = import.wallMs(), importCPU = import.cpuMs();
    uop::Stopwatch compile;
    if (int rc = compileAndWritePTX(**compiler, *module, joined))
      return rc;
    if (timing)
      llvm::errs() << llvm::formatv("--export-ptx: {0}: import {1:f2} ms (cpu {2:f2} ms); compile "
                                    "and write {3:f2} ms (cpu {4:f2} ms, every thread)\n",
                                    path, importWall, importCPU, compile.wallMs(), compile.cpuMs());
  }
  os << joined.text();
  return 0;
}

/// --kernelize-tinygrad-graph: each graph case's schedule, {"schedule": [...]}
/// in the case format, one line per case; with --timing, the milliseconds of
/// kernelize and schedule alone (not reading the case) on stderr.
int kernelizeTinygradGraph(llvm::raw_ostream &os) {
  namespace kz = uop::kernelize;
  for (const std::string &path : inputs) {
    std::string err;
    std::unique_ptr<llvm::MemoryBuffer> buf = openInputFile(path, &err);
    if (!buf) {
      llvm::errs() << path << ": error: " << err << "\n";
      return kBadInput;
    }
    kz::Graph g;
    llvm::Expected<kz::GraphCase> gc = kz::readGraphCase(g, buf->getBuffer());
    if (!gc) {
      llvm::errs() << path << ": error: " << llvm::toString(gc.takeError()) << "\n";
      return kBadInput;
    }
    auto start = std::chrono::steady_clock::now();
    std::optional<kz::NodeMap> map = kz::getKernelizeMap(g, gc->sink, gc->options, err);
    std::optional<std::vector<kz::ScheduleItem>> schedule;
    if (map) {
      kz::NodeList outs;
      for (const kz::Node *s : gc->sink->src)
        outs.push_back(map->lookup(s));
      schedule = kz::createSchedule(g.sink(outs), err);
    }
    double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (!schedule) {
      llvm::errs() << path << ": error: " << err << "\n";
      return kFailed;
    }
    if (timing)
      llvm::errs() << llvm::formatv("{0}: kernelize+schedule {1:f3} ms\n", path, ms);
    os << llvm::json::Value(llvm::json::Object{{"schedule", kz::scheduleToJSON(*schedule, *gc)}})
       << "\n";
  }
  return 0;
}
} // namespace

#ifdef UOP_TRANSLATE_LEAN
/// Replaces this process with uop-translate-llvm, beside this executable,
/// given the same arguments; returns only if that fails.
int execLLVMTool(const char *argv0, char **argv) {
  std::string self = llvm::sys::fs::getMainExecutable(argv0, (void *)&execLLVMTool);
  SmallString<256> tool(llvm::sys::path::parent_path(self));
  llvm::sys::path::append(tool, "uop-translate-llvm");
  ::execv(tool.c_str(), argv);
  llvm::errs() << "error: --ptx-printer=llvm is compiled by " << tool
               << " (uop-translate with LLVM's back end), which could not be run: "
               << llvm::sys::StrError() << "\n";
  return kFailed;
}
#endif

int main(int argc, char **argv) {
#ifdef UOP_TRANSLATE_LEAN
  char **args = argv; // as given, for uop-translate-llvm
#endif
  llvm::InitLLVM init(argc, argv);
  registerPassManagerCLOptions();
  registerDefaultTimingManagerCLOptions();
  uop::setUpToolCommandLine({&category});
#ifdef UOP_TRANSLATE_LEAN
  // LLVM's printer, or an option only uop-translate-llvm has (LLVM's back
  // end's own, such as -nvptx-short-ptr): that tool parses the command line
  // again and says what is wrong with it.
  std::string parseErrors;
  llvm::raw_string_ostream parseErrs(parseErrors);
  bool parsed = cl::ParseCommandLineOptions(argc, argv, "uop-mlir translation tool\n", &parseErrs);
  if (action == Action::ExportPTX && ptxPrinter == "llvm")
    return execLLVMTool(argv[0], args);
  if (!parsed) {
    llvm::errs() << parseErrors;
    return kFailed; // as cl::ParseCommandLineOptions exits
  }
#else
  cl::ParseCommandLineOptions(argc, argv, "uop-mlir translation tool\n");
#endif
  if (action == Action::None) {
    llvm::errs() << "error: choose a translation (--import-tinygrad, --export-tinygrad, "
                    "--export-ptx or --list-tinygrad-ops)\n";
    return kBadInput;
  }
  if (action == Action::ListTinygradOps && !inputs.empty()) {
    llvm::errs() << "error: --list-tinygrad-ops takes no input\n";
    return kBadInput;
  }
  if (action != Action::ListTinygradOps && inputs.empty())
    inputs.push_back("-"); // stdin, as mlir-translate reads it
  if (action != Action::ExportPTX &&
      (ptxOpts.getNumOccurrences() || noOpt || tcSchedule.getNumOccurrences() ||
       ptxPrinter.getNumOccurrences())) {
    llvm::errs()
        << "error: --opts, --no-opt, --tc-schedule and --ptx-printer go with --export-ptx\n";
    return kBadInput;
  }
  if (!uop::isKnownPTXPrinter(ptxPrinter)) {
    llvm::errs() << "error: --ptx-printer is llvm or direct, not '" << ptxPrinter << "'\n";
    return kBadInput;
  }
  if (ptxOpts.getNumOccurrences() && noOpt) {
    llvm::errs() << "error: --opts and --no-opt contradict each other\n";
    return kBadInput;
  }
  DialectRegistry registry;
  // The dialects of the inputs: uop modules, and --nvvm-to-ptx's gpu.modules
  // of llvm/nvvm ops (which the LLVM IR translations register too).
  registry.insert<uop::UOpDialect, func::FuncDialect, memref::MemRefDialect, gpu::GPUDialect,
                  LLVM::LLVMDialect, NVVM::NVVMDialect>();
#ifdef UOP_TRANSLATE_LEAN
  uop::registerUOpPTXConversions(registry); // nothing that links LLVM's back end
#else
  uop::registerUOpPTXDependencies(registry);
#endif
  auto ctxOwner = std::make_unique<MLIRContext>(registry);
  MLIRContext &ctx = *ctxOwner;
  ctx.loadDialect<uop::UOpDialect>();
  ctx.printOpOnDiagnostic(false); // the generic form of an op says little about JSON
  std::string err;
  auto output = openOutputFile(outputFile, &err);
  if (!output) {
    llvm::errs() << "error: " << err << "\n";
    return 1;
  }
  // JSON is one line without comments: splitting it, or expected-*
  // comments in it, mean nothing. --export-ptx takes JSON files or .mlir.
  bool json = action == Action::ImportTinygrad || action == Action::ImportTinygradGraph ||
              action == Action::KernelizeTinygradGraph ||
              (action == Action::ExportPTX && llvm::all_of(inputs, [](const std::string &p) {
                 return StringRef(p).ends_with(".json");
               }));
  if (json && (splitInputFile || verifyDiagnostics)) {
    llvm::errs() << "error: --split-input-file and --verify-diagnostics take .mlir input\n";
    return kBadInput;
  }
  if (separate && !(action == Action::ExportPTX && json)) {
    llvm::errs() << "error: --separate is for --export-ptx of JSON files (not stdin)\n";
    return kBadInput;
  }
  // JSON has no text positions MLIR knows of: diagnostics name the file and
  // the JSON path the importer put in their locations.
  if (json)
    ctx.getDiagEngine().registerHandler(
        [](Diagnostic &d) { uop::printLocatedDiagnostic(d, llvm::errs()); });
  int rc = uop::runOnToolStack([&] {
    llvm::raw_ostream &os = output->os();
    switch (action) {
    case Action::ImportTinygrad:
    case Action::ImportTinygradGraph:
      return importTinygrad(ctx, os);
    case Action::ExportTinygrad:
      return onMLIRInput(ctx, os, "--export-tinygrad", exportTinygrad);
    case Action::ExportPTX:
      if (json) {
        if (separate)
          return exportPTXSeparately(ctx, os);
        uop::Stopwatch import;
        OwningOpRef<ModuleOp> module = importJSON(ctx, inputs);
        if (timing)
          llvm::errs() << llvm::formatv("--export-ptx: import {0:f2} ms (cpu {1:f2} ms)\n",
                                        import.wallMs(), import.cpuMs());
        return module ? exportPTX(*module, os) : kBadInput;
      }
      return onMLIRInput(ctx, os, "--export-ptx", exportPTX);
    case Action::ImportPTX:
      return importPTXFile(ctx, os);
    case Action::NVVMToPTX:
      return onMLIRInput(ctx, os, "--nvvm-to-ptx", nvvmToPTX);
    case Action::KernelizeTinygradGraph:
      return kernelizeTinygradGraph(os);
    default:
      return listTinygradOps(ctx, os);
    }
  });
  if (rc == 0)
    output->keep();
  // The process ends here: freeing every attribute, type and dialect of the
  // context would only cost time (3% of a one-kernel process). BuryPointer
  // keeps it reachable, so leak checkers do not report it.
  llvm::BuryPointer(std::move(ctxOwner));
  return rc;
}

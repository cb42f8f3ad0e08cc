//===- uop-run.cpp - compile a uop kernel, run it, check its outputs ------===//
//
//   uop-run K.json [--target=cpu|sim|cuda|auto] [--chip=sm_XX]
//       import a corpus kernel, compile it, run it on the buffers the JSON
//       names, compare every buffer that has an expected file
//   uop-run K.mlir --buffers-from=K.json [--kernel=NAME]
//       the same for a module at any level of the pipeline
//   uop-run K.ptx --buffers-from=K.json
//       PTX text in the direct printer's subset (uop-translate --export-ptx
//       --ptx-printer=direct), read as the PTX ISA defines each instruction
//       and run on the simulator (on cuda: compiled again from what was read)
//   uop-run K.mlir [--inputs=random[:SEED]] [--input=I=F.npy] [--expect=I=F.npy]
//       a uop.kernel on buffers its DEFINE_GLOBALs describe
//   --print-buffers, --write-buffers=DIR
//       print every buffer after the run, or write it to DIR/b<index>.bin
//       and .npy
//
// Prints each compared buffer's max abs/rel error and PASS or FAIL (nothing
// is compared without expected values). Exit 0: all pass; 1: a mismatch; 2: bad input (or a kernel
// that does not compile, or no usable GPU for --target=cuda); 3: the kernel faulted (an access
// outside its buffers on cpu or sim, another simulator error, or a CUDA
// error once the driver is up). See docs/uop-run.md.
//
//===----------------------------------------------------------------------===//

#include "RunGraph.h"
#include "uop/Conversion/Passes.h"
#include "uop/Dialect/UOp/IR/UOpDialect.h"
#include "uop/Dialect/UOp/IR/UOpOps.h"
#include "uop/Dialect/UOp/Transforms/Passes.h"
#include "uop/Kernelize/Passes.h"
#include "uop/Pipelines/Pipelines.h"
#include "uop/Runtime/HostBuffers.h"
#include "uop/Runtime/Npy.h"
#include "uop/Runtime/Roofline.h"
#include "uop/Runtime/Runner.h"
#include "uop/Support/Stack.h"
#include "uop/Support/Timing.h"
#include "uop/Support/Tool.h"
#include "uop/Target/PTX/PTXImporter.h"
#include "uop/Target/Tinygrad/TinygradJSON.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

#include <cmath>

using namespace mlir;
using mlir::uop::Clock;
using mlir::uop::msSince;
namespace cl = llvm::cl;

namespace {
cl::OptionCategory category("uop-run options");
cl::opt<std::string> inputFile(cl::cat(category), cl::Positional,
                               cl::desc("<kernel .json, .mlir or .ptx>"), cl::Required);
cl::opt<std::string> buffersFrom(cl::cat(category), "buffers-from",
                                 cl::desc("Corpus JSON whose buffers to use (for a .mlir kernel; "
                                          "without it a uop.kernel's DEFINE_GLOBALs say them)"),
                                 cl::value_desc("K.json"));
cl::opt<std::string> inputsFrom(cl::cat(category), "inputs-from",
                                cl::desc("A tensor-graph case (CASE/case.json) whose buffers a "
                                         ".mlir tensor graph or schedule runs on and whose "
                                         "results it is compared with"),
                                cl::value_desc("case.json"));
cl::opt<std::string> inputsFill(cl::cat(category), "inputs",
                                cl::desc("What a buffer without an input file holds: random[:SEED] "
                                         "(floats in [-1, 1), small ints; seed 0 by default), or "
                                         "0xa5 bytes (the default)"),
                                cl::value_desc("random[:SEED]|0xa5"));
cl::list<std::string> inputFiles(cl::cat(category), "input",
                                 cl::desc("Buffer I's contents before the run (.npy, or raw "
                                          "little-endian bytes)"),
                                 cl::value_desc("I=FILE"));
cl::list<std::string> expectFiles(cl::cat(category), "expect",
                                  cl::desc("Buffer I's expected contents after the run (.npy or "
                                           "raw); compared as the JSON's expected files are"),
                                  cl::value_desc("I=FILE"));
cl::opt<bool> printBuffers(cl::cat(category), "print-buffers",
                           cl::desc("Print every buffer after the run"));
cl::opt<std::string> target(cl::cat(category), "target",
                            cl::desc("Where to run: cpu (the host, JIT-compiled), sim (the GPU "
                                     "code on the SIMT simulator), cuda (a GPU, through the CUDA "
                                     "driver), auto (cuda if a GPU is usable, else sim)"),
                            cl::init("cpu"));
const std::string chipHelp = ("GPU to compile for (sim: default " +
                              mlir::uop::TargetAttr::kDefaultChip + "; cuda: default the device's)")
                                 .str();
cl::opt<std::string> chip(cl::cat(category), "chip", cl::desc(chipHelp));
cl::opt<std::string> kernelName(cl::cat(category), "kernel",
                                cl::desc("Kernel to run (default: the JSON's <case>_k<kernel>, "
                                         "or the module's only kernel)"));
cl::opt<std::string> opts(cl::cat(category), "opts",
                          cl::desc("Opts for the kernel in tinygrad's notation (e.g. "
                                   "\"UPCAST:0:4,LOCAL:0:8\"), instead of tinygrad's heuristic"),
                          cl::value_desc("list"));
cl::opt<bool> noOpt(cl::cat(category), "no-opt", cl::desc("Apply no opts (tinygrad's NOOPT=1)"));
cl::opt<std::string> tcSchedule(cl::cat(category), "tc-schedule",
                                cl::desc("The heuristic's tensor-core schedule: auto (operands "
                                         "staged in shared memory where they can be), staged, "
                                         "tinygrad, wgmma, tma, cluster, splitk (all sm_90a)"),
                                cl::init("auto"));
cl::opt<unsigned> optLevel(cl::cat(category), "opt-level",
                           cl::desc("sim, cuda: LLVM optimization level (0-3) of the device "
                                    "code, as uop-translate's --opt-level"),
                           cl::init(3));
cl::opt<std::string> writeBuffers(cl::cat(category), "write-buffers",
                                  cl::desc("After the run, write every buffer to DIR/b<index>.bin "
                                           "(raw little-endian, as the corpus's files) and "
                                           "DIR/b<index>.npy"),
                                  cl::value_desc("DIR"));
cl::list<std::string> varValues(cl::cat(category), "var",
                                cl::desc("NAME=VALUE: a variable of a symbolic kernel "
                                         "(uop.define_var), one per variable"),
                                cl::value_desc("name=value"));
cl::opt<bool> timing(cl::cat(category), "timing", cl::desc("Print the milliseconds of each phase"));
cl::list<std::string> estimate(cl::cat(category), "estimate", cl::CommaSeparated,
                               cl::desc("sim: estimate the kernel's time on these GPUs from the "
                                        "counters (a roofline, docs/simulator.md): A100, H100"),
                               cl::value_desc("gpu,..."));
cl::opt<unsigned> registers(cl::cat(category), "registers",
                            cl::desc("--estimate: registers per thread (ptxas -v), for the "
                                     "occupancy (default: not limiting)"));
cl::opt<bool> counters(cl::cat(category), "counters",
                       cl::desc("sim: print what the run counted per warp (instructions by "
                                "class, global sectors, shared-memory wavefronts, barriers, "
                                "tensor-core work)"));
cl::opt<bool> checkAccesses(cl::cat(category), "check-accesses",
                            cl::desc("cpu: bounds-check every load and store at run time, so an "
                                     "out-of-bounds access is a fault (exit 3), never a write "
                                     "outside the buffers (default on; =false runs unchecked)"),
                            cl::init(true));
cl::opt<bool> verifyEach(cl::cat(category), "verify-each",
                         cl::desc("Verify the IR after every pass of the compile, as mlir-opt "
                                  "does (default: on in a debug or sanitized build, off in a "
                                  "release build, which verifies the input only)"),
                         cl::init(uop::verifyEachByDefault()));
cl::opt<bool> exact(cl::cat(category), "exact",
                    cl::desc("Compare floats bit for bit too (NaN matches any NaN), "
                             "instead of the per-dtype tolerance"));

constexpr int kPass = 0, kMismatch = 1, kBadInput = 2, kFault = 3;

std::unique_ptr<llvm::MemoryBuffer> readFile(StringRef path) {
  std::string err;
  std::unique_ptr<llvm::MemoryBuffer> buf = openInputFile(path, &err);
  if (!buf)
    llvm::errs() << path << ": error: " << err << "\n";
  return buf;
}

/// A kernel of the module: a uop.kernel, or what a pipeline made of one (a
/// func.func or llvm.func with a body, or a gpu.module).
bool isKernel(Operation &op) {
  if (isa<gpu::GPUModuleOp>(op))
    return true;
  if (auto f = dyn_cast<func::FuncOp>(op))
    return !f.isExternal();
  if (auto f = dyn_cast<LLVM::LLVMFuncOp>(op))
    return !f.isExternal();
  return isa<uop::KernelOp>(op);
}

/// The kernel to run: --kernel, else the one the JSON names, else the only one.
Operation *pickKernel(ModuleOp module, StringRef jsonName) {
  SmallVector<Operation *> kernels;
  for (Operation &op : *module.getBody())
    if (isKernel(op))
      kernels.push_back(&op);
  auto nameOf = [](Operation *op) { return SymbolTable::getSymbolName(op).getValue(); };
  StringRef want = !kernelName.empty() ? StringRef(kernelName) : jsonName;
  if (!want.empty())
    for (Operation *k : kernels)
      if (nameOf(k) == want)
        return k;
  if (kernelName.empty() && kernels.size() == 1)
    return kernels.front();
  InFlightDiagnostic d = emitError(module.getLoc());
  if (kernels.empty())
    d << "the module has no kernel (uop.kernel, or a function made from one)";
  else if (!want.empty())
    d << "no kernel named '" << want << "'";
  else
    d << "the module has " << kernels.size() << " kernels; choose one with --kernel";
  return nullptr;
}

/// Every DEFINE_GLOBAL must have a buffer of its dtype and size.
LogicalResult checkBuffers(uop::KernelOp kernel, ArrayRef<uop::TinygradBuffer> buffers,
                           StringRef jsonPath) {
  for (auto g : kernel.getBodyBlock().getOps<uop::DefineGlobalOp>()) {
    auto ptr = cast<uop::PtrType>(g.getType());
    const uop::TinygradBuffer *spec = nullptr;
    for (const uop::TinygradBuffer &b : buffers)
      if (b.index == static_cast<int64_t>(g.getIndex()))
        spec = &b;
    if (!spec)
      return g.emitError() << "buffer " << g.getIndex() << " is not in " << jsonPath;
    Type elem = uop::getScalarType(ptr.getValueType());
    if (spec->dtype != elem)
      return g.emitError() << "buffer " << g.getIndex() << " is "
                           << uop::getTinygradName(spec->dtype) << " in " << jsonPath
                           << " but the kernel reads it as " << uop::getTinygradName(elem);
    if (ptr.getSize() != uop::PtrType::kUnknownSize && ptr.getSize() != spec->size)
      return g.emitError() << "buffer " << g.getIndex() << " has " << spec->size << " elements in "
                           << jsonPath << " but the kernel's pointer has " << ptr.getSize();
  }
  return success();
}

/// Enough digits to tell two floats apart; integers as integers.
std::string formatElement(double v) {
  if (std::isfinite(v) && std::fabs(v) < 0x1p53 && v == std::trunc(v))
    return std::to_string(static_cast<int64_t>(v));
  return llvm::formatv("{0:e8}", v).str();
}

/// --write-buffers: each buffer as DIR/b<index>.bin.
LogicalResult writeAll(ArrayRef<uop::HostBuffer> buffers, Location loc) {
  if (std::error_code ec = llvm::sys::fs::create_directories(writeBuffers))
    return emitError(loc) << "cannot create " << writeBuffers << ": " << ec.message();
  for (const uop::HostBuffer &b : buffers) {
    SmallString<128> path(writeBuffers.getValue());
    llvm::sys::path::append(path, "b" + std::to_string(b.spec.index) + ".bin");
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
    if (ec)
      return emitError(loc) << "cannot write " << path << ": " << ec.message();
    os.write(reinterpret_cast<const char *>(b.bytes.data()), b.bytes.size());
    llvm::sys::path::replace_extension(path, "npy");
    llvm::raw_fd_ostream npy(path, ec, llvm::sys::fs::OF_None);
    if (ec)
      return emitError(loc) << "cannot write " << path << ": " << ec.message();
    npy << uop::makeNpy(b.spec.dtype, b.bytes);
    llvm::outs() << "  wrote buffer " << b.spec.index << " to " << path.str().drop_back(4)
                 << ".bin and " << path << "\n";
  }
  return success();
}

/// Buffer i for parameter i: every parameter needs one. A buffer past the
/// kernel's last parameter is one whose DEFINE_GLOBAL tinygrad's rewrites
/// folded away (max(x, INT32_MAX) needs no load): it is read and checked
/// like the others, but not passed.
FailureOr<SmallVector<MutableArrayRef<uint8_t>>>
argumentBuffers(std::vector<uop::HostBuffer> &buffers, unsigned numArgs, StringRef name,
                StringRef jsonPath) {
  SmallVector<MutableArrayRef<uint8_t>> args(numArgs);
  SmallVector<bool> seen(numArgs, false);
  for (uop::HostBuffer &b : buffers) {
    if (b.spec.index >= static_cast<int64_t>(numArgs)) {
      llvm::outs() << "  buffer " << b.spec.index << " is not an argument of " << name
                   << ", which takes " << numArgs << " buffers: not passed\n";
      continue;
    }
    args[b.spec.index] = b.bytes;
    seen[b.spec.index] = true;
  }
  for (auto [i, s] : llvm::enumerate(seen))
    if (!s) {
      llvm::errs() << jsonPath << ": error: " << name << " takes " << numArgs
                   << " buffers but there is no buffer " << i << "\n";
      return failure();
    }
  return args;
}

/// --inputs: the seed for random inputs, or none for 0xA5 bytes.
FailureOr<std::optional<uint64_t>> parseInputsFill() {
  StringRef fill = inputsFill;
  if (fill.empty() || fill.equals_insensitive("0xa5"))
    return std::optional<uint64_t>();
  uint64_t seed = 0;
  if (fill.consume_front("random") &&
      (fill.empty() || (fill.consume_front(":") && !fill.getAsInteger(0, seed))))
    return std::optional<uint64_t>(seed);
  llvm::errs() << "error: --inputs=" << inputsFill << ": expected random, random:SEED or 0xa5\n";
  return failure();
}

/// A uop.kernel's buffers, from its DEFINE_GLOBALs: dtype and size, no files.
FailureOr<SmallVector<uop::TinygradBuffer>> buffersOfKernel(uop::KernelOp kernel) {
  SmallVector<uop::TinygradBuffer> specs;
  for (auto g : kernel.getBodyBlock().getOps<uop::DefineGlobalOp>()) {
    auto ptr = cast<uop::PtrType>(g.getType());
    if (llvm::any_of(specs, [&](auto &b) { return b.index == int64_t(g.getIndex()); }))
      continue;
    if (ptr.getSize() == uop::PtrType::kUnknownSize) {
      g.emitError() << "buffer " << g.getIndex()
                    << " has an unknown size: give --buffers-from=K.json for its buffers";
      return failure();
    }
    specs.push_back(
        {int64_t(g.getIndex()), uop::getScalarType(ptr.getValueType()), ptr.getSize(), "", ""});
  }
  llvm::sort(specs, [](auto &a, auto &b) { return a.index < b.index; });
  return specs;
}

/// --input / --expect I=FILE: sets `field` of buffer I.
LogicalResult applyFileOptions(MutableArrayRef<uop::TinygradBuffer> buffers,
                               ArrayRef<std::string> options,
                               std::string uop::TinygradBuffer::*field, StringRef flag) {
  for (StringRef option : options) {
    auto [index, path] = option.split('=');
    int64_t i;
    uop::TinygradBuffer *b = nullptr;
    if (!index.getAsInteger(10, i))
      for (uop::TinygradBuffer &c : buffers)
        if (c.index == i)
          b = &c;
    if (!b || path.empty()) {
      llvm::errs() << "error: --" << flag << "=" << option
                   << ": expected I=FILE with I the index of one of the kernel's " << buffers.size()
                   << " buffers\n";
      return failure();
    }
    b->*field = path.str();
  }
  return success();
}

/// --print-buffers: "buffer 0 float[4]: [1, 2.5, ...]", every element.
void printBuffer(const uop::HostBuffer &b) {
  llvm::outs() << "  buffer " << b.spec.index << " " << uop::getTinygradName(b.spec.dtype) << "["
               << b.spec.size << "]: [";
  for (int64_t i = 0; i < b.spec.size; ++i)
    llvm::outs() << (i ? ", " : "")
                 << formatElement(uop::elementAsDouble(b.spec.dtype, b.bytes.data(), i));
  llvm::outs() << "]\n";
}

/// --counters: the simulator's counters, one line each.
void printCounters(const uop::SimCounters &c) {
  using uop::sim::InstrClass;
  llvm::outs() << llvm::formatv("  counters: {0} warps, {1} warp instructions:", c.warps,
                                c.totalInstructions());
  for (int32_t i = 0; i < uop::sim::kInstrClasses; ++i)
    if (c.instructions[i])
      llvm::outs() << " " << uop::sim::kInstrClassNames[i] << " " << c.instructions[i];
  llvm::outs() << "\n";
  auto global = [](const char *what, const uop::SimCounters::Global &g) {
    llvm::outs() << llvm::formatv("  counters: global {0}: {1} requests, {2} bytes, {3} sectors "
                                  "(fewest possible {4})\n",
                                  what, g.requests, g.bytes, g.sectors, g.idealSectors);
  };
  global("loads", c.globalLoads);
  global("stores", c.globalStores);
  auto shared = [](const char *what, const uop::SimCounters::Shared &s) {
    llvm::outs() << llvm::formatv("  counters: shared {0}: {1} requests, {2} wavefronts "
                                  "(fewest possible {3}; {4} from bank conflicts)\n",
                                  what, s.requests, s.wavefronts, s.idealWavefronts, s.conflicts());
  };
  shared("loads", c.sharedLoads);
  shared("stores", c.sharedStores);
  llvm::outs() << llvm::formatv(
      "  counters: {0} bytes read and {1} written at least once, {2} "
      "sectors from L2, {3} barriers, {4} tensor-core flops (mma.sync), {5} (wgmma)\n",
      c.uniqueReadBytes, c.uniqueWriteBytes, c.l2Sectors, c.instructionsOf(InstrClass::Barrier),
      c.mmaFlops, c.wgmmaFlops);
}

/// --estimate: the roofline's time, its bound and each resource's time.
void printEstimate(const uop::GPUModel &gpu, const uop::RooflineEstimate &e) {
  llvm::outs() << llvm::formatv("  estimate on {0}: {1:f2} us, bound by {2}; {3:f1} TFLOP/s, "
                                "{4:f1}% of the tensor peak; {5} blocks per SM, {6:f2} waves\n",
                                gpu.name, e.seconds * 1e6, e.terms.front().resource, e.tflops,
                                e.fractionOfPeak * 100, e.blocksPerSM, e.waves);
  llvm::outs() << "  estimate on " << gpu.name << ", each resource:";
  for (const uop::RooflineEstimate::Term &t : e.terms)
    llvm::outs() << llvm::formatv(" {0} {1:f2} us;", t.resource, t.seconds * 1e6);
  llvm::outs() << "\n";
}

int run(MLIRContext &ctx) {
  if (opts.getNumOccurrences() && noOpt) {
    llvm::errs() << "error: --opts and --no-opt contradict each other\n";
    return kBadInput;
  }
  if (optLevel > 3) {
    llvm::errs() << "error: --opt-level: no LLVM optimization level " << optLevel << " (0 to 3)\n";
    return kBadInput;
  }
  for (const std::string &gpu : estimate)
    if (!uop::findGPUModel(gpu)) {
      llvm::errs() << "error: --estimate: unknown GPU '" << gpu
                   << "' (known: " << uop::knownGPUModels() << ")\n";
      return kBadInput;
    }
  if ((counters || !estimate.empty()) && target != "sim" && target != "auto") {
    llvm::errs() << "error: --counters and --estimate count what the simulator runs: use "
                    "--target=sim\n";
    return kBadInput;
  }
  bool isJSON = StringRef(inputFile).ends_with(".json");
  bool isPTX = StringRef(inputFile).ends_with(".ptx");
  if (isPTX && target == "cpu") {
    llvm::errs() << "error: " << inputFile << ": PTX runs on sim or cuda, not cpu\n";
    return kBadInput;
  }
  std::string jsonPath = buffersFrom;
  if (jsonPath.empty() && isJSON)
    jsonPath = inputFile;
  FailureOr<std::optional<uint64_t>> seed = parseInputsFill();
  if (failed(seed))
    return kBadInput;

  // A tensor-graph case (or a module checked against one) is a whole
  // schedule: RunGraph.cpp.
  bool isGraph = !inputsFrom.empty();
  if (isJSON && !isGraph) {
    if (std::unique_ptr<llvm::MemoryBuffer> text = readFile(inputFile)) {
      llvm::Expected<llvm::json::Value> v = llvm::json::parse(text->getBuffer());
      if (v && v->getAsObject() && v->getAsObject()->getArray("graph"))
        isGraph = true;
      else if (!v)
        llvm::consumeError(v.takeError());
    }
  }
  if (isGraph)
    return uopRunGraph(ctx, {inputFile, inputsFrom, target, chip, checkAccesses, exact, timing});

  // Import or parse.
  auto start = Clock::now();
  OwningOpRef<ModuleOp> module;
  std::unique_ptr<llvm::MemoryBuffer> input = readFile(inputFile);
  if (!input)
    return kBadInput;
  if (isJSON) {
    module = ModuleOp::create(FileLineColLoc::get(&ctx, inputFile, 1, 1));
    if (failed(uop::importTinygradKernel(input->getBuffer(), inputFile,
                                         llvm::sys::path::stem(inputFile), *module)))
      return kBadInput;
  } else if (isPTX) {
    // The PTX's kernels as gpu.modules of llvm/nvvm ops, which sim runs.
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
    module = uop::importPTX(sourceMgr, &ctx);
    if (!module || failed(verify(*module)))
      return kBadInput;
  } else {
    auto sourceMgr = std::make_shared<llvm::SourceMgr>();
    sourceMgr->AddNewSourceBuffer(std::move(input), llvm::SMLoc());
    module = parseSourceFile<ModuleOp>(sourceMgr, &ctx);
    if (!module)
      return kBadInput;
  }
  double importMs = msSince(start);

  // The kernel JSON is read once, for its nodes and for its buffers; without
  // one, a uop.kernel's DEFINE_GLOBALs say what its buffers are.
  uop::TinygradKernelData data;
  if (!jsonPath.empty()) {
    std::unique_ptr<llvm::MemoryBuffer> jsonText =
        isJSON && jsonPath == inputFile ? std::move(input) : readFile(jsonPath);
    if (!jsonText)
      return kBadInput;
    FailureOr<uop::TinygradKernelData> read =
        uop::readTinygradKernelData(jsonText->getBuffer(), jsonPath, &ctx);
    if (failed(read))
      return kBadInput;
    data = std::move(*read);
  }
  Operation *kernel = pickKernel(*module, data.name);
  if (!kernel)
    return kBadInput;
  auto uopKernel = dyn_cast<uop::KernelOp>(kernel);
  if (jsonPath.empty()) {
    if (!uopKernel) {
      emitError(kernel->getLoc()) << "a kernel past the uop dialect does not say its buffers' "
                                     "dtypes and sizes: give --buffers-from=K.json";
      return kBadInput;
    }
    FailureOr<SmallVector<uop::TinygradBuffer>> specs = buffersOfKernel(uopKernel);
    if (failed(specs))
      return kBadInput;
    data.buffers = std::move(*specs);
  }
  // --input and --expect name files for buffers, over the JSON's.
  if (failed(applyFileOptions(data.buffers, inputFiles, &uop::TinygradBuffer::input, "input")) ||
      failed(applyFileOptions(data.buffers, expectFiles, &uop::TinygradBuffer::expected, "expect")))
    return kBadInput;
  // A uop.kernel says each buffer's dtype and size; a converted function only
  // how many buffers it takes (checked at the call).
  if (uopKernel && !jsonPath.empty() && failed(checkBuffers(uopKernel, data.buffers, jsonPath)))
    return kBadInput;
  std::string name = SymbolTable::getSymbolName(kernel).str();
  Location loc = jsonPath.empty() ? module->getLoc() : FileLineColLoc::get(&ctx, jsonPath, 1, 1);
  std::vector<uop::HostBuffer> buffers;
  if (failed(uop::loadHostBuffers(data.buffers, buffers, loc, *seed)))
    return kBadInput;
  for (const uop::TinygradBuffer &b : data.buffers)
    if (b.input.empty())
      llvm::outs() << "  buffer " << b.index << " has no input: "
                   << (*seed ? "random values, seed " + std::to_string(**seed)
                             : std::string("0xA5 bytes (--inputs=random for values)"))
                   << "\n";

  // Where to run: cuda needs a usable GPU; auto takes one if there is one,
  // else the simulator.
  std::string whyNotCUDA;
  llvm::Expected<std::unique_ptr<uop::Runner>> runner =
      uop::createRunner(&ctx, target, chip, &whyNotCUDA);
  if (!runner) {
    llvm::errs() << "error: " << llvm::toString(runner.takeError()) << "\n";
    return kBadInput;
  }
  (*runner)->setAccessChecks(checkAccesses);
  (*runner)->setPassManagerSetup([](PassManager &pm) {
    pm.enableVerifier(verifyEach);
    applyDefaultTimingPassManagerCLOptions(pm);
    return applyPassManagerCLOptions(pm);
  });
  if (target == "auto") {
    if ((*runner)->getName() == "cuda")
      llvm::outs() << "auto: " << (*runner)->describe() << "; running on cuda\n";
    else
      llvm::outs() << "auto: no usable CUDA GPU (" << whyNotCUDA << "); running on sim\n";
  }

  // --opts, --no-opt and --opt-level mean what they mean in uop-translate.
  uop::KernelCodegenOptions codegen = uop::KernelCodegenOptions::fromToolFlags(
      opts.getNumOccurrences() ? std::optional<StringRef>(opts) : std::nullopt, noOpt, tcSchedule);
  codegen.deviceOptLevel = optLevel;
  FailureOr<std::unique_ptr<uop::CompiledKernel>> compiled =
      (*runner)->compile(*module, name, codegen);
  if (failed(compiled))
    return kBadInput;
  (*compiled)->countMemory(counters || !estimate.empty());
  auto args = argumentBuffers(buffers, (*compiled)->numBuffers(), name,
                              jsonPath.empty() ? inputFile : jsonPath);
  if (failed(args))
    return kBadInput;
  // --var NAME=VALUE for each of the kernel's variables.
  SmallVector<int64_t> vars;
  for (const uop::KernelVariable &v : (*compiled)->getVariables()) {
    auto given = llvm::find_if(
        varValues, [&](const std::string &kv) { return StringRef(kv).split('=').first == v.name; });
    int64_t value;
    if (given == varValues.end() || StringRef(*given).split('=').second.getAsInteger(10, value)) {
      llvm::errs() << "error: kernel " << name << " needs --var " << v.name
                   << "=VALUE (an integer in [" << v.min << ", " << v.max << "])\n";
      return kBadInput;
    }
    vars.push_back(value);
  }
  for (const std::string &kv : varValues)
    if (llvm::none_of((*compiled)->getVariables(), [&](const uop::KernelVariable &v) {
          return StringRef(kv).split('=').first == v.name;
        })) {
      llvm::errs() << "error: kernel " << name << " has no variable '"
                   << StringRef(kv).split('=').first << "' (--var " << kv << ")\n";
      return kBadInput;
    }
  if (llvm::Error e = (*compiled)->run(*args, vars)) {
    llvm::errs() << "error: " << llvm::toString(std::move(e)) << "\n";
    return kFault;
  }

  llvm::outs() << name << " on " << (*runner)->getName() << "\n";
  if (const std::optional<std::string> &applied = (*compiled)->getAppliedOpts())
    llvm::outs() << "  opts: " << (applied->empty() ? "none" : *applied) << "\n";
  if (!writeBuffers.empty() && failed(writeAll(buffers, loc)))
    return kBadInput;
  if (printBuffers)
    for (const uop::HostBuffer &b : buffers)
      printBuffer(b);
  int compared = 0, failedCount = 0;
  for (uop::HostBuffer &b : buffers) {
    if (b.spec.expected.empty())
      continue;
    uop::Tolerance tol = uop::toleranceFor(b.spec.dtype);
    if (exact)
      tol.atol = tol.rtol = 0;
    FailureOr<uop::Comparison> c = uop::compareWithExpected(b, tol, loc);
    if (failed(c))
      return kBadInput;
    ++compared;
    llvm::outs() << llvm::formatv("  buffer {0} {1}[{2}]: max abs err {3:e2}, max rel err {4:e2}",
                                  b.spec.index, uop::getTinygradName(b.spec.dtype), b.spec.size,
                                  c->maxAbs, c->maxRel);
    if (c->passed()) {
      llvm::outs() << ": PASS\n";
      continue;
    }
    ++failedCount;
    llvm::outs() << llvm::formatv(": FAIL ({0} of {1} elements; first [{2}]: got {3}, want {4})\n",
                                  c->mismatches, c->elements, c->firstMismatch,
                                  formatElement(c->firstGot), formatElement(c->firstWant));
  }
  const uop::RunTimes &times = (*compiled)->getTimes();
  if (timing)
    llvm::outs() << llvm::formatv("  timing: import {0:f2} ms, pipeline {1:f2} ms, jit {2:f2} ms, "
                                  "run {3:f2} ms\n",
                                  importMs, times.pipelineMs, times.jitMs, times.runMs);
  std::optional<uop::SimStats> simStats = (*compiled)->getSimStats();
  if (timing && simStats)
    llvm::outs() << llvm::formatv("  simulated {0} threads in {1} blocks in {2:f2} ms "
                                  "({3:e2} threads/s)\n",
                                  simStats->threads, simStats->blocks, simStats->ms,
                                  simStats->threads / std::max(simStats->ms, 1e-3) * 1e3);
  if (counters && simStats)
    printCounters(simStats->counters);
  if ((counters || !estimate.empty()) && !simStats) // --target=auto found a GPU
    llvm::outs() << "  no counters or estimates: the kernel ran on " << (*runner)->getName()
                 << ", not on the simulator\n";
  for (const std::string &gpu : estimate) {
    if (!simStats)
      break;
    uop::LaunchShape shape{simStats->blocks,
                           simStats->blocks ? simStats->threads / simStats->blocks : 0,
                           simStats->sharedBytes, registers};
    printEstimate(*uop::findGPUModel(gpu),
                  uop::estimateRoofline(*uop::findGPUModel(gpu), simStats->counters, shape));
  }
  if (!compared) {
    llvm::outs() << "ran; no buffer has an expected value, nothing compared\n";
    return kPass;
  }
  llvm::outs() << (failedCount ? "FAIL" : "PASS") << "\n";
  return failedCount ? kMismatch : kPass;
}
} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  // MLIR's pass manager options (--mlir-print-ir-after-all, --mlir-timing,
  // ...) apply to the pipelines the runner runs; our passes are registered
  // so that --mlir-print-ir-after=uop-lower and the like can name them.
  uop::registerUOpPasses();
  uop::registerUOpConversionPasses();
  uop::registerUOpKernelizePasses();
  registerPassManagerCLOptions();
  registerDefaultTimingManagerCLOptions();
  uop::setUpToolCommandLine({&category});
  cl::ParseCommandLineOptions(argc, argv, "uop-mlir kernel runner\n");
  // Every dialect a module on the way to LLVM can hold, so any stage parses.
  DialectRegistry registry;
  registry.insert<uop::UOpDialect, func::FuncDialect, memref::MemRefDialect, scf::SCFDialect,
                  arith::ArithDialect, math::MathDialect, cf::ControlFlowDialect, LLVM::LLVMDialect,
                  gpu::GPUDialect, NVVM::NVVMDialect>();
  uop::registerUOpPTXDependencies(registry);
  MLIRContext ctx(registry);
  ctx.loadDialect<uop::UOpDialect>();
  ctx.printOpOnDiagnostic(false);
  ctx.getDiagEngine().registerHandler(
      [](Diagnostic &d) { uop::printLocatedDiagnostic(d, llvm::errs()); });
  return uop::runOnToolStack([&] { return run(ctx); });
}

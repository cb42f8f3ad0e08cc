//===- RunGraph.cpp - uop-run on a tensor graph or a schedule -------------===//
//
//   uop-run CASE/case.json [--target=...]
//   uop-run prog.mlir --inputs-from=CASE/case.json
// imports the graph (or parses the module, at any stage: tensor graph or
// schedule), kernelizes it with the case's flags if it is still a graph,
// runs the schedule on the case's input buffers and compares every result
// and every graph buffer's final contents with tinygrad's.
//
//===----------------------------------------------------------------------===//

#include "RunGraph.h"

#include "uop/Dialect/UOp/IR/UOpTypes.h"
#include "uop/Kernelize/Passes.h"
#include "uop/Runtime/HostBuffers.h"
#include "uop/Runtime/Schedule.h"
#include "uop/Target/Tinygrad/TinygradJSON.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

#include <chrono>

using namespace mlir;
namespace json = llvm::json;

namespace {
constexpr int kPass = 0, kMismatch = 1, kBadInput = 2, kFault = 3;

std::string inDir(StringRef casePath, StringRef file) {
  llvm::SmallString<256> p(llvm::sys::path::parent_path(casePath));
  llvm::sys::path::append(p, file);
  return p.str().str();
}

/// The pass options of the case's "flags" (tinygrad's names).
std::string kernelizeOptions(const json::Object &c) {
  std::string out;
  const json::Object *f = c.getObject("flags");
  if (!f)
    return out;
  static const std::pair<const char *, const char *> names[] = {
      {"FUSE_ARANGE", "fuse-arange"},
      {"FUSE_CONV_BW", "fuse-conv-bw"},
      {"DONT_REALIZE_EXPAND", "dont-realize-expand"},
      {"DONT_GROUP_REDUCES", "dont-group-reduces"},
      {"SPLIT_REDUCEOP", "split-reduceop"},
      {"REDUCEOP_SPLIT_THRESHOLD", "reduceop-split-threshold"},
      {"REDUCEOP_SPLIT_SIZE", "reduceop-split-size"},
      {"MAX_KERNEL_BUFFERS", "max-kernel-buffers"}};
  for (auto [flag, option] : names) {
    std::optional<int64_t> v = f->getInteger(flag);
    if (!v)
      continue;
    bool isBool = StringRef(option).starts_with("fuse") || StringRef(option).starts_with("dont") ||
                  StringRef(option) == "split-reduceop";
    out += llvm::formatv(" {0}={1}", option, isBool ? (*v ? "true" : "false") : std::to_string(*v));
  }
  return out;
}

} // namespace

int uopRunGraph(MLIRContext &ctx, const GraphRunOptions &o) {
  auto start = std::chrono::steady_clock::now();
  ctx.loadDialect<func::FuncDialect, memref::MemRefDialect>();
  std::string err;
  bool isJSON = StringRef(o.input).ends_with(".json");
  std::string casePath = isJSON ? o.input : o.inputsFrom;
  std::unique_ptr<llvm::MemoryBuffer> caseText = openInputFile(casePath, &err);
  if (!caseText) {
    llvm::errs() << casePath << ": error: " << err << "\n";
    return kBadInput;
  }
  llvm::Expected<json::Value> caseJSON = json::parse(caseText->getBuffer());
  const json::Object *caseObj = caseJSON ? caseJSON->getAsObject() : nullptr;
  if (!caseObj) {
    llvm::errs() << casePath << ": error: not a graph case (a JSON object with \"graph\")"
                 << (caseJSON ? "" : ": " + llvm::toString(caseJSON.takeError())) << "\n";
    return kBadInput;
  }

  OwningOpRef<ModuleOp> module;
  if (isJSON) {
    module = ModuleOp::create(FileLineColLoc::get(&ctx, casePath, 1, 1));
    if (failed(uop::importTinygradGraph(caseText->getBuffer(), casePath,
                                        llvm::sys::path::stem(casePath), *module)))
      return kBadInput;
  } else {
    auto sourceMgr = std::make_shared<llvm::SourceMgr>();
    std::unique_ptr<llvm::MemoryBuffer> text = openInputFile(o.input, &err);
    if (!text) {
      llvm::errs() << o.input << ": error: " << err << "\n";
      return kBadInput;
    }
    sourceMgr->AddNewSourceBuffer(std::move(text), llvm::SMLoc());
    module = parseSourceFile<ModuleOp>(sourceMgr, &ctx);
    if (!module)
      return kBadInput;
  }

  // Kernelize a graph (a no-op on a module that is a schedule already), then
  // plan its buffers as tinygrad's memory_planner does.
  auto allocatedBytes = [&]() {
    int64_t bytes = 0;
    module->walk([&](memref::AllocOp a) {
      MemRefType t = a.getType();
      if (t.hasStaticShape())
        bytes += t.getNumElements() * uop::elementBytes(t.getElementType());
    });
    return bytes;
  };
  PassManager kernelize(&ctx);
  if (failed(parsePassPipeline("uop-kernelize{" + kernelizeOptions(*caseObj) + "}", kernelize)) ||
      failed(kernelize.run(*module)))
    return kBadInput;
  int64_t unplanned = allocatedBytes();
  PassManager planner(&ctx);
  planner.addPass(uop::createUOpPlanBuffers());
  // The planner's remark is for uop-opt users; uop-run prints its own line.
  ScopedDiagnosticHandler quiet(
      &ctx, [](Diagnostic &d) { return success(d.getSeverity() == DiagnosticSeverity::Remark); });
  if (failed(planner.run(*module)))
    return kBadInput;
  int64_t planned = allocatedBytes();
  double kernelizeMs =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();

  func::FuncOp schedule;
  for (auto f : module->getOps<func::FuncOp>())
    if (f->hasAttr("uop.outputs")) {
      if (schedule) {
        emitError(module->getLoc()) << "the module has more than one schedule";
        return kBadInput;
      }
      schedule = f;
    }
  if (!schedule) {
    emitError(module->getLoc()) << "the module has no tensor graph or schedule";
    return kBadInput;
  }
  FailureOr<std::vector<uop::ScheduleBuffer>> args = uop::scheduleArguments(schedule);
  if (failed(args))
    return kBadInput;

  // The case's buffers: inputs in, final contents to compare.
  Location caseLoc = FileLineColLoc::get(&ctx, casePath, 1, 1);
  struct Final {
    size_t arg;
    std::string file;
  };
  std::vector<Final> finals;
  const json::Array *buffers = caseObj->getArray("buffers");
  for (auto [i, a] : llvm::enumerate(*args)) {
    const json::Object *spec = nullptr;
    for (size_t k = 0; buffers && k < buffers->size(); ++k)
      if (const json::Object *bo = (*buffers)[k].getAsObject();
          bo && bo->getInteger("num") == a.unique)
        spec = bo;
    if (!spec) {
      if (!a.bytes.empty())
        llvm::outs() << "  buffer " << a.unique << " is not in the case: zeros\n";
      continue;
    }
    if (std::optional<StringRef> in = spec->getString("input")) {
      std::unique_ptr<llvm::MemoryBuffer> data = openInputFile(inDir(casePath, *in), &err);
      if (!data || data->getBufferSize() != a.bytes.size()) {
        emitError(caseLoc) << "buffer " << a.unique << ": " << *in
                           << (data ? " has the wrong size" : ": " + err);
        return kBadInput;
      }
      std::memcpy(a.bytes.data(), data->getBufferStart(), a.bytes.size());
    }
    if (std::optional<StringRef> fin = spec->getString("final"); fin && spec->getInteger("node"))
      finals.push_back({i, inDir(casePath, *fin)});
  }

  std::string whyNotCUDA;
  llvm::Expected<std::unique_ptr<uop::Runner>> runner =
      uop::createRunner(&ctx, o.target, o.chip, &whyNotCUDA);
  if (!runner) {
    llvm::errs() << "error: " << llvm::toString(runner.takeError()) << "\n";
    return kBadInput;
  }
  (*runner)->setAccessChecks(o.checkAccesses);
  if (o.target == "auto")
    llvm::outs() << ((*runner)->getName() == "cuda"
                         ? "auto: " + (*runner)->describe() + "; running on cuda\n"
                         : "auto: no usable CUDA GPU (" + whyNotCUDA + "); running on sim\n");
  uop::ScheduleRunStats stats;
  SmallVector<MutableArrayRef<uint8_t>> views;
  for (uop::ScheduleBuffer &a : *args)
    views.push_back(a.bytes);
  if (failed(uop::runSchedule(schedule, **runner, views, &stats)))
    return kFault;
  llvm::outs() << schedule.getName() << " on " << (*runner)->getName() << ": " << stats.kernels
               << " kernels, " << stats.copies << " copies; intermediate buffers " << unplanned
               << " bytes, " << planned << " after planning\n";

  int compared = 0, failedCount = 0;
  auto compare = [&](const std::string &what, Type dtype, const std::vector<uint8_t> &bytes,
                     int64_t size, const std::string &file) -> LogicalResult {
    uop::HostBuffer hb{{0, dtype, size, "", file}, bytes};
    uop::Tolerance tol = uop::toleranceFor(dtype);
    if (o.exact)
      tol.atol = tol.rtol = 0;
    FailureOr<uop::Comparison> c = uop::compareWithExpected(hb, tol, caseLoc);
    if (failed(c))
      return failure();
    ++compared;
    llvm::outs() << llvm::formatv("  {0} {1}[{2}]: max abs err {3:e2}", what,
                                  uop::getTinygradName(dtype), size, c->maxAbs);
    if (c->passed()) {
      llvm::outs() << ": PASS\n";
    } else {
      ++failedCount;
      llvm::outs() << llvm::formatv(
          ": FAIL ({0} of {1} elements; first [{2}]: got {3}, want {4})\n", c->mismatches,
          c->elements, c->firstMismatch, c->firstGot, c->firstWant);
    }
    return success();
  };
  const json::Array *outputs = caseObj->getArray("outputs");
  for (size_t i = 0; outputs && i < outputs->size(); ++i) {
    const json::Object *out = (*outputs)[i].getAsObject();
    std::optional<StringRef> file = out ? out->getString("file") : std::nullopt;
    if (!file)
      continue;
    FailureOr<uop::ScheduleBuffer> got = uop::scheduleOutput(schedule, i, views);
    if (failed(got) || failed(compare("output " + std::to_string(i), got->dtype, got->bytes,
                                      got->size, inDir(casePath, *file))))
      return kBadInput;
  }
  for (const Final &f : finals) {
    const uop::ScheduleBuffer &a = (*args)[f.arg];
    if (failed(compare("buffer " + std::to_string(a.unique), a.dtype, a.bytes, a.size, f.file)))
      return kBadInput;
  }
  if (o.timing)
    llvm::outs() << llvm::formatv("  timing: import+kernelize {0:f2} ms, pipeline {1:f2} ms, jit "
                                  "{2:f2} ms, run {3:f2} ms\n",
                                  kernelizeMs, stats.times.pipelineMs, stats.times.jitMs,
                                  stats.times.runMs);
  if (!compared) {
    llvm::outs() << "ran; the case has no data to compare\n";
    return kPass;
  }
  llvm::outs() << (failedCount ? "FAIL" : "PASS") << "\n";
  return failedCount ? kMismatch : kPass;
}

//===- Runtime.cpp - uop-c: runners and compiled kernels ------------------===//

#include "uop-c/Runtime.h"

#include "CAPIUtils.h"

#include "uop/Pipelines/Pipelines.h"
#include "uop/Runtime/Runner.h"
#include "uop/Runtime/Schedule.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <cstring>

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"

using namespace mlir;

namespace {
struct RunnerHandle {
  MLIRContext *ctx;
  std::unique_ptr<uop::Runner> runner;
};
struct KernelHandle {
  MLIRContext *ctx;
  std::unique_ptr<uop::CompiledKernel> kernel;
  std::string appliedOpts;
};
RunnerHandle *unwrap(UopRunner r) { return static_cast<RunnerHandle *>(r.ptr); }
KernelHandle *unwrap(UopKernel k) { return static_cast<KernelHandle *>(k.ptr); }

/// The pipelines' codegen options (optimize, opts, heuristic) on their own.
struct CodegenOptions : uop::UOpCodegenPipelineOptions<CodegenOptions> {};
} // namespace

UopRunner uopRunnerCreate(MlirContext context, MlirStringRef target, MlirStringRef chip) {
  MLIRContext *ctx = unwrap(context);
  llvm::Expected<std::unique_ptr<uop::Runner>> runner =
      uop::createRunner(ctx, unwrap(target), unwrap(chip));
  if (failed(uop::capi::reportError(ctx, runner.takeError())))
    return {nullptr};
  return {new RunnerHandle{ctx, std::move(*runner)}};
}

void uopRunnerDestroy(UopRunner runner) { delete unwrap(runner); }

MlirStringRef uopRunnerGetName(UopRunner runner) { return wrap(unwrap(runner)->runner->getName()); }

MlirStringRef uopRunnerGetChip(UopRunner runner) { return wrap(unwrap(runner)->runner->getChip()); }

void uopRunnerSetAccessChecks(UopRunner runner, bool on) {
  unwrap(runner)->runner->setAccessChecks(on);
}

UopKernel uopRunnerCompile(UopRunner runner, MlirModule module, MlirStringRef name,
                           MlirStringRef options) {
  RunnerHandle *r = unwrap(runner);
  std::string err;
  llvm::raw_string_ostream os(err);
  CodegenOptions parsed;
  if (failed(parsed.parseFromString(unwrap(options), os))) {
    emitError(UnknownLoc::get(r->ctx))
        << "invalid codegen options '" << unwrap(options) << "': " << StringRef(err).rtrim();
    return {nullptr};
  }
  FailureOr<std::unique_ptr<uop::CompiledKernel>> kernel = uop::capi::onToolStack(
      [&] { return r->runner->compile(unwrap(module), unwrap(name), parsed.codegen()); });
  if (failed(kernel))
    return {nullptr};
  std::string opts = (*kernel)->getAppliedOpts().value_or("");
  return {new KernelHandle{r->ctx, std::move(*kernel), std::move(opts)}};
}

void uopKernelDestroy(UopKernel kernel) { delete unwrap(kernel); }

intptr_t uopKernelGetNumBuffers(UopKernel kernel) { return unwrap(kernel)->kernel->numBuffers(); }

MlirStringRef uopKernelGetAppliedOpts(UopKernel kernel) {
  return wrap(StringRef(unwrap(kernel)->appliedOpts));
}

bool uopKernelGetLaunchDims(UopKernel kernel, int32_t grid[3], int32_t block[3]) {
  const std::optional<uop::LaunchDims> &dims = unwrap(kernel)->kernel->getLaunchDims();
  if (!dims)
    return false;
  llvm::copy(dims->grid, grid);
  llvm::copy(dims->block, block);
  return true;
}

intptr_t uopKernelGetNumVariables(UopKernel kernel) {
  return unwrap(kernel)->kernel->getVariables().size();
}

MlirStringRef uopKernelGetVariableName(UopKernel kernel, intptr_t pos) {
  return wrap(StringRef(unwrap(kernel)->kernel->getVariables().at(pos).name));
}

void uopKernelGetVariableBounds(UopKernel kernel, intptr_t pos, int64_t *min, int64_t *max) {
  const uop::KernelVariable &v = unwrap(kernel)->kernel->getVariables().at(pos);
  *min = v.min;
  *max = v.max;
}

MlirLogicalResult uopKernelRun(UopKernel kernel, intptr_t numBuffers, void *const *buffers,
                               const uint64_t *sizes, intptr_t numVars, const int64_t *vars,
                               double *ms) {
  KernelHandle *k = unwrap(kernel);
  if (numBuffers < 0 || (numBuffers > 0 && (!buffers || !sizes)))
    return wrap(emitError(UnknownLoc::get(k->ctx)) << "uopKernelRun: no buffers given");
  if (numVars < 0 || (numVars > 0 && !vars))
    return wrap(emitError(UnknownLoc::get(k->ctx)) << "uopKernelRun: no variable values given");
  SmallVector<MutableArrayRef<uint8_t>> views;
  for (intptr_t i = 0; i < numBuffers; ++i)
    views.emplace_back(static_cast<uint8_t *>(buffers[i]), sizes[i]);
  // The kernel runs on this thread: what it executes is compiled code, not
  // the recursive walks of the compiler.
  ArrayRef<int64_t> values(vars, vars ? numVars : 0);
  if (failed(uop::capi::reportError(k->ctx, k->kernel->run(views, values))))
    return mlirLogicalResultFailure();
  if (ms)
    *ms = k->kernel->getTimes().runMs;
  return mlirLogicalResultSuccess();
}

namespace {
FailureOr<func::FuncOp> lookupSchedule(MlirModule module, MlirStringRef name) {
  ModuleOp m = unwrap(module);
  auto f = m.lookupSymbol<func::FuncOp>(unwrap(name));
  if (!f || !f->hasAttr("uop.outputs"))
    return emitError(m.getLoc()) << "no schedule named '" << unwrap(name)
                                 << "' (run uop-kernelize on a tensor graph first)";
  return f;
}

SmallVector<MutableArrayRef<uint8_t>> bufferViews(intptr_t n, void *const *buffers,
                                                  const uint64_t *sizes) {
  SmallVector<MutableArrayRef<uint8_t>> views;
  for (intptr_t i = 0; i < n; ++i)
    views.emplace_back(static_cast<uint8_t *>(buffers[i]), sizes[i]);
  return views;
}
} // namespace

MlirLogicalResult uopScheduleDescribe(MlirModule module, MlirStringRef name,
                                      MlirStringCallback callback, void *userData) {
  FailureOr<func::FuncOp> f = lookupSchedule(module, name);
  if (failed(f))
    return mlirLogicalResultFailure();
  FailureOr<std::string> text = uop::describeSchedule(*f);
  if (failed(text))
    return mlirLogicalResultFailure();
  callback(mlirStringRefCreate(text->data(), text->size()), userData);
  return mlirLogicalResultSuccess();
}

MlirLogicalResult uopScheduleRun(UopRunner runner, MlirModule module, MlirStringRef name,
                                 intptr_t numBuffers, void *const *buffers, const uint64_t *sizes) {
  FailureOr<func::FuncOp> f = lookupSchedule(module, name);
  if (failed(f))
    return mlirLogicalResultFailure();
  if (numBuffers < 0 || (numBuffers > 0 && (!buffers || !sizes)))
    return wrap(emitError(f->getLoc()) << "uopScheduleRun: no buffers given");
  if (numBuffers != (intptr_t)f->getNumArguments())
    return wrap(emitError(f->getLoc())
                << "the schedule takes " << f->getNumArguments() << " buffers, got " << numBuffers);
  SmallVector<MutableArrayRef<uint8_t>> views = bufferViews(numBuffers, buffers, sizes);
  return wrap(
      uop::capi::onToolStack([&] { return uop::runSchedule(*f, *unwrap(runner)->runner, views); }));
}

MlirLogicalResult uopScheduleReadOutput(MlirModule module, MlirStringRef name, intptr_t index,
                                        intptr_t numBuffers, void *const *buffers,
                                        const uint64_t *sizes, void *out, uint64_t outBytes) {
  FailureOr<func::FuncOp> f = lookupSchedule(module, name);
  if (failed(f))
    return mlirLogicalResultFailure();
  if (index < 0 || numBuffers < 0 || (numBuffers > 0 && (!buffers || !sizes)) || !out)
    return wrap(emitError(f->getLoc()) << "uopScheduleReadOutput: bad arguments");
  FailureOr<uop::ScheduleBuffer> got =
      uop::scheduleOutput(*f, index, bufferViews(numBuffers, buffers, sizes));
  if (failed(got))
    return mlirLogicalResultFailure();
  if (got->bytes.size() != outBytes)
    return wrap(emitError(f->getLoc()) << "output " << index << " has " << got->bytes.size()
                                       << " bytes, the buffer given " << outBytes);
  std::memcpy(out, got->bytes.data(), outBytes);
  return mlirLogicalResultSuccess();
}

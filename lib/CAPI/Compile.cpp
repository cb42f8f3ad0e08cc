//===- Compile.cpp - uop-c: pipelines, PTX and host code ------------------===//

#include "uop-c/Compile.h"

#include "CAPIUtils.h"

#include "uop/Pipelines/Pipelines.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/CAPI/Utils.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

using namespace mlir;

namespace {
/// Pipeline options from their textual form; a malformed string is a
/// diagnostic naming `what`.
template <typename Options>
std::unique_ptr<Options> parseOptions(MLIRContext *ctx, StringRef text, StringRef what) {
  std::string err;
  llvm::raw_string_ostream os(err);
  auto options = std::make_unique<Options>();
  if (failed(options->parseFromString(text, os))) {
    emitError(UnknownLoc::get(ctx))
        << "invalid " << what << " options '" << text << "': " << StringRef(err).rtrim();
    return nullptr;
  }
  return options;
}

struct PTXKernels {
  std::vector<uop::PTXKernel> kernels;
};
PTXKernels *unwrap(UopPTXKernels k) { return static_cast<PTXKernels *>(k.ptr); }
uop::PTXCompiler *unwrap(UopPTXCompiler c) { return static_cast<uop::PTXCompiler *>(c.ptr); }

UopPTXKernels wrapKernels(FailureOr<std::vector<uop::PTXKernel>> kernels) {
  if (failed(kernels))
    return {nullptr};
  return {new PTXKernels{std::move(*kernels)}};
}
} // namespace

MlirLogicalResult uopRunPassPipeline(MlirModule module, MlirStringRef pipeline) {
  ModuleOp m = unwrap(module);
  MLIRContext *ctx = m.getContext();
  std::string err;
  llvm::raw_string_ostream os(err);
  FailureOr<OpPassManager> parsed = parsePassPipeline(unwrap(pipeline), os);
  if (failed(parsed))
    return wrap(emitError(UnknownLoc::get(ctx)) << "invalid pass pipeline '" << unwrap(pipeline)
                                                << "': " << StringRef(err).rtrim());
  PassManager pm(ctx, parsed->getOpAnchorName());
  static_cast<OpPassManager &>(pm) = std::move(*parsed);
  return wrap(uop::capi::onToolStack([&] { return pm.run(m); }));
}

UopPTXKernels uopCompileToPTX(MlirModule module, MlirStringRef options) {
  ModuleOp m = unwrap(module);
  auto parsed = parseOptions<uop::UOpToPTXOptions>(m.getContext(), unwrap(options), "uop-to-ptx");
  if (!parsed)
    return {nullptr};
  return wrapKernels(uop::capi::onToolStack([&] { return uop::compileToPTX(m, *parsed); }));
}

UopPTXCompiler uopPTXCompilerCreate(MlirContext context, MlirStringRef options) {
  MLIRContext *ctx = unwrap(context);
  auto parsed = parseOptions<uop::UOpToPTXOptions>(ctx, unwrap(options), "uop-to-ptx");
  if (!parsed)
    return {nullptr};
  FailureOr<std::unique_ptr<uop::PTXCompiler>> compiler = uop::PTXCompiler::create(ctx, *parsed);
  if (failed(compiler))
    return {nullptr};
  return {compiler->release()};
}

UopPTXKernels uopPTXCompilerCompile(UopPTXCompiler compiler, MlirModule module) {
  ModuleOp m = unwrap(module);
  return wrapKernels(uop::capi::onToolStack([&] { return unwrap(compiler)->compile(m); }));
}

void uopPTXCompilerDestroy(UopPTXCompiler compiler) { delete unwrap(compiler); }

void uopPTXKernelsDestroy(UopPTXKernels kernels) { delete unwrap(kernels); }

intptr_t uopPTXKernelsGetNum(UopPTXKernels kernels) { return unwrap(kernels)->kernels.size(); }

MlirStringRef uopPTXKernelsGetName(UopPTXKernels kernels, intptr_t pos) {
  return wrap(StringRef(unwrap(kernels)->kernels.at(pos).name));
}

MlirStringRef uopPTXKernelsGetChip(UopPTXKernels kernels, intptr_t pos) {
  return wrap(StringRef(unwrap(kernels)->kernels.at(pos).chip));
}

MlirStringRef uopPTXKernelsGetPTX(UopPTXKernels kernels, intptr_t pos) {
  return wrap(StringRef(unwrap(kernels)->kernels.at(pos).ptx));
}

void uopPTXKernelsGetLaunchDims(UopPTXKernels kernels, intptr_t pos, int32_t grid[3],
                                int32_t block[3]) {
  const uop::PTXKernel &k = unwrap(kernels)->kernels.at(pos);
  llvm::copy(k.launch.grid, grid);
  llvm::copy(k.launch.block, block);
}

intptr_t uopPTXKernelsGetNumTensorMaps(UopPTXKernels kernels, intptr_t pos) {
  return unwrap(kernels)->kernels.at(pos).launch.tensorMaps.size();
}

void uopPTXKernelsGetTensorMap(UopPTXKernels kernels, intptr_t pos, intptr_t i, intptr_t *buffer,
                               MlirStringRef *element, intptr_t *rank, int64_t sizes[5],
                               int64_t strides[4], int64_t box[5], int64_t *swizzle) {
  const uop::TensorMapSpec &m = unwrap(kernels)->kernels.at(pos).launch.tensorMaps.at(i);
  *buffer = m.buffer;
  *element = wrap(StringRef(m.element));
  *rank = static_cast<intptr_t>(m.sizes.size());
  llvm::copy(m.sizes, sizes);
  llvm::copy(m.strides, strides);
  llvm::copy(m.box, box);
  *swizzle = m.swizzle;
}

intptr_t uopPTXKernelsGetNumVariables(UopPTXKernels kernels, intptr_t pos) {
  return unwrap(kernels)->kernels.at(pos).variables.size();
}

MlirStringRef uopPTXKernelsGetVariableName(UopPTXKernels kernels, intptr_t pos, intptr_t var) {
  return wrap(StringRef(unwrap(kernels)->kernels.at(pos).variables.at(var).name));
}

void uopPTXKernelsGetVariableBounds(UopPTXKernels kernels, intptr_t pos, intptr_t var, int64_t *min,
                                    int64_t *max) {
  const uop::KernelVariable &v = unwrap(kernels)->kernels.at(pos).variables.at(var);
  *min = v.min;
  *max = v.max;
}

intptr_t uopPTXKernelsGetNumSymbolicSizes(UopPTXKernels kernels, intptr_t pos) {
  return unwrap(kernels)->kernels.at(pos).launch.symbolic.size();
}

void uopPTXKernelsGetSymbolicSize(UopPTXKernels kernels, intptr_t pos, intptr_t i, int32_t *slot,
                                  int64_t *constant, intptr_t *numTerms) {
  const uop::SymbolicSize &s = unwrap(kernels)->kernels.at(pos).launch.symbolic.at(i);
  *slot = static_cast<int32_t>(s.slot);
  *constant = s.constant;
  *numTerms = s.terms.size();
}

void uopPTXKernelsGetSymbolicSizeTerm(UopPTXKernels kernels, intptr_t pos, intptr_t i,
                                      intptr_t term, MlirStringRef *variable,
                                      int64_t *coefficient) {
  const auto &[var, coef] = unwrap(kernels)->kernels.at(pos).launch.symbolic.at(i).terms.at(term);
  *variable = wrap(StringRef(var));
  *coefficient = coef;
}

MlirLogicalResult uopPTXKernelsEvaluateLaunchDims(MlirContext context, UopPTXKernels kernels,
                                                  intptr_t pos, intptr_t numVars,
                                                  const int64_t *vars, int32_t grid[3],
                                                  int32_t block[3]) {
  const uop::PTXKernel &k = unwrap(kernels)->kernels.at(pos);
  auto fail = [&](const Twine &message) {
    return wrap(emitError(UnknownLoc::get(unwrap(context))) << message);
  };
  if (numVars < 0 || (numVars > 0 && !vars))
    return fail("uopPTXKernelsEvaluateLaunchDims: no variable values given");
  llvm::Expected<uop::LaunchDims> dims =
      uop::launchDimsFor(k.name, k.launch, k.variables, ArrayRef<int64_t>(vars, numVars));
  if (!dims)
    return fail(llvm::toString(dims.takeError()));
  llvm::copy(dims->grid, grid);
  llvm::copy(dims->block, block);
  return mlirLogicalResultSuccess();
}

MlirLogicalResult uopCompileToHostLLVMIR(MlirModule module, MlirStringRef options,
                                         MlirStringCallback callback, void *userData) {
  ModuleOp m = unwrap(module);
  MLIRContext *ctx = m.getContext();
  auto parsed = parseOptions<uop::UOpToLLVMOptions>(ctx, unwrap(options), "uop-to-llvm");
  if (!parsed)
    return mlirLogicalResultFailure();
  return wrap(uop::capi::onToolStack([&]() -> LogicalResult {
    PassManager pm(ctx);
    pm.enableVerifier(uop::verifyEachByDefault());
    uop::buildUOpToLLVMPipeline(pm, *parsed);
    if (failed(pm.run(m)))
      return failure();
    llvm::LLVMContext llvmContext;
    std::unique_ptr<llvm::Module> ir = translateModuleToLLVMIR(m, llvmContext);
    if (!ir)
      return emitError(m.getLoc()) << "translation to LLVM IR failed";
    detail::CallbackOstream os(callback, userData);
    ir->print(os, nullptr);
    return success();
  }));
}

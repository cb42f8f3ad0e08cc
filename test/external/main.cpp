//===- main.cpp - an embedder of the uop dialect ---------------------------===//
//
// Builds a kernel with the C++ API, verifies it, prints it, compiles and runs
// it on the host and on the GPU simulator through the runtime library's
// runner interface, compiles it to PTX with compileToPTX, runs the host
// stages built by hand, shows that a compile verifying each pass stops at an
// invalid IR an embedder's own pass made,
// and parses the text given on the command line,
// reporting verifier errors through a diagnostic handler. Exit 0 only when
// the built kernel verifies, computes out = 2 * in and becomes PTX, and the
// given one does not verify (the test gives it an invalid kernel).
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "uop/Dialect/UOp/IR/UOpOps.h"
#include "uop/Dialect/UOp/Transforms/Passes.h"
#include "uop/Pipelines/Pipelines.h"
#include "uop/Runtime/Runner.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace {
/// An embedder's pass that breaks the IR: each uop.mul moved to the start of
/// its block, above the definitions of its operands.
struct BreakIR : PassWrapper<BreakIR, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(BreakIR)
  void runOnOperation() override {
    getOperation().walk([](uop::MulOp mul) { mul->moveBefore(&mul->getBlock()->front()); });
  }
};
} // namespace

int main(int argc, char **argv) {
  DialectRegistry registry;
  uop::registerUOpPTXDependencies(registry); // what the PTX pipeline needs
  MLIRContext ctx(registry);
  ctx.loadDialect<uop::UOpDialect>();
  OpBuilder b(&ctx);
  Location loc = b.getUnknownLoc();

  // out[i] = in[i] * 2 over 16 floats.
  auto module = ModuleOp::create(loc);
  b.setInsertionPointToEnd(module.getBody());
  auto kernel = uop::KernelOp::create(b, loc, "scale");
  b.setInsertionPointToEnd(&kernel.getBodyBlock());
  auto f32 = b.getF32Type();
  auto ptr = uop::PtrType::get(f32, 16);
  auto st = uop::ShapeTrackerAttr::fromShape(&ctx, {16});
  Value out = uop::DefineGlobalOp::create(b, loc, ptr, 0);
  Value in = uop::DefineGlobalOp::create(b, loc, ptr, 1);
  Value outView = uop::ViewOp::create(b, loc, ptr, out, st);
  Value inView = uop::ViewOp::create(b, loc, ptr, in, st);
  Value x = uop::LoadOp::create(b, loc, f32, inView, Value(), ValueRange{});
  Value two = uop::ConstOp::create(b, loc, b.getF32FloatAttr(2.0f));
  Value y = uop::MulOp::create(b, loc, x, two);
  Value store = uop::StoreOp::create(b, loc, outView, y, Value(), Value());
  uop::SinkOp::create(b, loc, ValueRange{store});

  if (failed(verify(module))) {
    llvm::errs() << "built kernel failed to verify\n";
    return 1;
  }
  module.print(llvm::outs());
  llvm::outs() << "\n";

  OwningOpRef<ModuleOp> gpu = module.clone(); // each compile below lowers its own copy

  // Run it on the CPU (the uop-to-llvm pipeline and the JIT) and on the GPU
  // simulator, through the one runner interface uop-run uses.
  for (StringRef target : {"cpu", "sim"}) {
    OwningOpRef<ModuleOp> copy = module.clone();
    auto runner = uop::createRunner(&ctx, target);
    if (!runner) {
      llvm::errs() << llvm::toString(runner.takeError()) << "\n";
      return 1;
    }
    auto compiled = (*runner)->compile(*copy, "scale");
    if (failed(compiled)) {
      llvm::errs() << "scale failed to compile for " << target << "\n";
      return 1;
    }
    alignas(16) float inData[16], outData[16];
    for (int i = 0; i < 16; ++i)
      inData[i] = i;
    MutableArrayRef<uint8_t> buffers[] = {{reinterpret_cast<uint8_t *>(outData), sizeof(outData)},
                                          {reinterpret_cast<uint8_t *>(inData), sizeof(inData)}};
    if (llvm::Error e = (*compiled)->run(buffers)) {
      llvm::errs() << "scale did not run on " << target << ": " << llvm::toString(std::move(e))
                   << "\n";
      return 1;
    }
    if (outData[15] != 30.0f) {
      llvm::errs() << "scale computed the wrong result on " << target << "\n";
      return 1;
    }
    llvm::outs() << "scale ran on " << (*runner)->getName()
                 << ": out[15] = " << static_cast<int>(outData[15]) << "\n";
  }

  // The same kernel to PTX for sm_80: each kernel's PTX text and launch dims.
  uop::UOpToPTXOptions ptxOptions;
  ptxOptions.chip = "sm_80";
  FailureOr<std::vector<uop::PTXKernel>> ptx = uop::compileToPTX(*gpu, ptxOptions);
  if (failed(ptx))
    return 1; // the diagnostics say why
  for (const uop::PTXKernel &k : *ptx) {
    llvm::outs() << "kernel " << k.name << " for " << k.chip << ": grid " << k.launch.grid[0] << "x"
                 << k.launch.grid[1] << "x" << k.launch.grid[2] << ", block " << k.launch.block[0]
                 << "x" << k.launch.block[1] << "x" << k.launch.block[2] << ", " << k.ptx.size()
                 << " bytes of PTX\n";
    SmallVector<StringRef> lines;
    StringRef(k.ptx).split(lines, '\n');
    for (StringRef line : lines)
      if (line.starts_with(".target") || line.starts_with(".visible .entry"))
        llvm::outs() << "ptx: " << line << "\n";
  }

  // An embedder's pass run before the pipeline (configure adds it) that
  // leaves the IR invalid: with the verifier on, the compile stops there with
  // the verifier's error. (Without it, a release build checks only the input:
  // uop::verifyEachByDefault().)
  {
    OwningOpRef<ModuleOp> copy = module.clone();
    ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
      llvm::outs() << "verify-each: " << d.str() << "\n";
      return success();
    });
    auto configure = [](PassManager &pm) {
      pm.enableVerifier(true);
      pm.addPass(std::make_unique<BreakIR>());
      return success();
    };
    if (succeeded(uop::compileToPTX(*copy, ptxOptions, configure))) {
      llvm::errs() << "a compile verifying each pass took invalid IR\n";
      return 1;
    }
  }

  // The host stages built by hand, sharing one uop-canonicalize pattern
  // set: built once for the pipeline's two uop-canonicalize passes.
  {
    OwningOpRef<ModuleOp> copy = module.clone();
    auto canonical = std::make_shared<uop::CanonicalPatternCache>();
    PassManager pm(&ctx);
    uop::buildKernelCodegenStage(pm, uop::KernelCodegenOptions(), canonical);
    uop::buildHostToLLVMStage(pm, /*halfInF32=*/true, /*checkAccesses=*/false, canonical);
    if (failed(pm.run(*copy))) {
      llvm::errs() << "the host stages failed\n";
      return 1;
    }
    llvm::outs() << "uop-canonicalize pattern sets built: " << canonical->builds << "\n";
  }

  if (argc < 2)
    return 0;
  int errors = 0;
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
    llvm::outs() << "diagnostic: " << d.getLocation() << ": " << d.str() << "\n";
    ++errors;
    return success();
  });
  OwningOpRef<ModuleOp> parsed = parseSourceString<ModuleOp>(argv[1], &ctx, "arg");
  return (!parsed && errors > 0) ? 0 : 1;
}

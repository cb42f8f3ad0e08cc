//===- Pipelines.h - uop compilation pipelines ------------------*- C++ -*-===//
//
// The pipelines `uop-opt` registers, and the named stages they are made of,
// as functions for compilers that embed the dialect (and for the runtime
// targets, which run parts of them): each fills an OpPassManager anchored on
// builtin.module.
//
//   uop-to-llvm = kernel codegen, host to LLVM
//   uop-to-ptx  = uop-attach-target, kernel codegen, GPU mapping, GPU to
//                 NVVM, GPU to binary
//
//===----------------------------------------------------------------------===//
#ifndef UOP_PIPELINES_PIPELINES_H
#define UOP_PIPELINES_PIPELINES_H

#include "uop/Dialect/UOp/IR/UOpAttrs.h"
#include "uop/Pipelines/KernelInterface.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir::uop {

struct CanonicalPatternCache; // uop/Dialect/UOp/Transforms/Passes.h

//===----------------------------------------------------------------------===//
// Stages
//===----------------------------------------------------------------------===//

/// What the kernel-codegen stage optimizes.
struct KernelCodegenOptions {
  /// Run uop-optimize (off: the kernels are taken as they are).
  bool optimize = true;
  /// Opts for every kernel without its own `uop.opts`, in tinygrad's notation.
  std::string opts;
  /// Without opts, apply tinygrad's heuristic; off is tinygrad's NOOPT=1
  /// (uop-optimize still simplifies the shape, as tinygrad's Kernel does):
  /// what the tools' --no-opt means.
  bool heuristic = true;
  /// The heuristic's tensor-core schedule: "auto" (operands staged in shared
  /// memory where the kernel and target allow), "staged" (always; an error
  /// where it cannot be), "tinygrad" (fragments from global memory).
  std::string tcSchedule = "auto";
  /// LLVM's optimization level (0-3) for device code: the #nvvm.target's O,
  /// which the PTX step and the simulator both use. The CPU JIT ignores it.
  unsigned deviceOptLevel = 3;

  /// What the tools' --opts (std::nullopt when not given) and --no-opt mean:
  /// those opts; none (NOOPT) with --no-opt or an empty --opts=; else the
  /// heuristic. A kernel's own `uop.opts` still comes first.
  static KernelCodegenOptions fromToolFlags(std::optional<StringRef> opts, bool noOpt,
                                            StringRef tcSchedule = "auto") {
    KernelCodegenOptions o;
    o.opts = opts.value_or("").str();
    o.heuristic = !noOpt && !(opts && opts->empty());
    o.tcSchedule = tcSchedule.str();
    return o;
  }
};

/// On every uop.kernel: uop-optimize, uop-lower, uop-canonicalize,
/// uop-expand, uop-canonicalize, CSE, uop-devectorize. Kernels at any
/// level go in; lowered, expanded and devectorized kernels come out.
/// `canonical`: the pattern set its uop-canonicalize shares with the other
/// stages' (a stage without one shares within itself).
void buildKernelCodegenStage(OpPassManager &pm, const KernelCodegenOptions &options,
                             std::shared_ptr<CanonicalPatternCache> canonical = nullptr);

/// Lowered kernels to the LLVM dialect for the host: convert-uop-to-scf (f16
/// and bf16 computed in f32 when `halfInF32`, as tinygrad's C backend
/// does), uop-canonicalize, CSE, then the upstream conversions of scf, arith,
/// math, cf and func to LLVM. Each kernel becomes an llvm.func taking one
/// pointer per buffer; with `checkAccesses`, uop-check-host-accesses follows
/// convert-uop-to-scf (every load and store bounds-checked at run time, the
/// sizes in one more argument).
void buildHostToLLVMStage(OpPassManager &pm, bool halfInF32 = true, bool checkAccesses = false,
                          std::shared_ptr<CanonicalPatternCache> canonical = nullptr);

/// Lowered kernels to gpu.modules for the module's #uop.target: on every
/// kernel uop-gpu-dims, uop-target-legalize and uop-canonicalize (tinygrad's
/// symbolic rules on the index math the mapping adds), then
/// convert-uop-to-gpu, uop-canonicalize and CSE. The module's `uop.launch` gets
/// each kernel's launch dimensions.
void buildGPUMappingStage(OpPassManager &pm,
                          std::shared_ptr<CanonicalPatternCache> canonical = nullptr);

/// What the direct PTX printer needs done that LLVM's optimizer does on the
/// other path, in each gpu.module: uop-unroll-loops, then
/// uop-vectorize-loads (their loads as ld.v2/ld.v4). Run by uop-to-ptx with
/// printer=direct (with or without to-binary), between the GPU-mapping and
/// GPU-to-NVVM stages.
void buildDirectPrinterLoopStage(OpPassManager &pm);

/// uop-pipeline-wgmma in each gpu.module: a reduce loop's wgmmas kept in
/// flight into the next step. Run by uop-to-ptx with printer=llvm in the
/// place of the direct printer's loop stage (that printer copies registers
/// at block boundaries, which an in-flight wgmma's accumulators must not be).
void buildWgmmaPipeliningStage(OpPassManager &pm);

/// gpu.modules to the NVVM and LLVM dialects, the IR the PTX is made from
/// (and the simulator runs): scf-to-cf, uop-attach-nvvm-target (`chip`, its
/// PTX version, LLVM level `optLevel`, where a module has no target),
/// uop-gpu-to-nvvm (convert-gpu-to-nvvm; 64-bit indices), reconcile-unrealized-casts.
void buildGPUToNVVMStage(OpPassManager &pm, StringRef chip, unsigned optLevel = 3);

/// convert-nvvm-to-llvm in each gpu.module, then uop-serialize-to-ptx: each
/// gpu.module becomes a gpu.binary whose object holds the PTX text, written
/// by `printer` (llvm, or direct: uop-mlir's own PTX printer).
void buildGPUToBinaryStage(OpPassManager &pm, StringRef printer = "llvm");

//===----------------------------------------------------------------------===//
// Pipelines
//===----------------------------------------------------------------------===//

/// The options of both pipelines' kernel-codegen stage.
template <typename Derived> struct UOpCodegenPipelineOptions : public PassPipelineOptions<Derived> {
  mlir::detail::PassOptions::Option<bool> optimize{
      *this, "optimize",
      llvm::cl::desc("Run uop-optimize first: the opts below, else tinygrad's heuristic; off "
                     "takes the kernels as they are"),
      llvm::cl::init(true)};
  mlir::detail::PassOptions::Option<std::string> opts{
      *this, "opts",
      llvm::cl::desc("Opts for every kernel without its own uop.opts, in tinygrad's notation "
                     "(uop-optimize's opts)"),
      llvm::cl::init("")};
  mlir::detail::PassOptions::Option<bool> heuristic{
      *this, "heuristic",
      llvm::cl::desc("Without opts, apply tinygrad's heuristic; false is tinygrad's NOOPT "
                     "(the tools' --no-opt)"),
      llvm::cl::init(true)};

  mlir::detail::PassOptions::Option<std::string> tcSchedule{
      *this, "tc-schedule",
      llvm::cl::desc(
          "The heuristic's tensor-core schedule: auto (staged in shared memory where "
          "it can be), staged, tinygrad, wgmma, tma or cluster (uop-optimize's tc-schedule)"),
      llvm::cl::init("auto")};

  KernelCodegenOptions codegen() const { return {optimize, opts, heuristic, tcSchedule}; }
  void setCodegen(const KernelCodegenOptions &o) {
    optimize = o.optimize;
    opts = o.opts;
    heuristic = o.heuristic;
    tcSchedule = o.tcSchedule;
  }
};

struct UOpToLLVMOptions : public UOpCodegenPipelineOptions<UOpToLLVMOptions> {
  PassOptions::Option<bool> halfInF32{
      *this, "half-in-f32",
      llvm::cl::desc("Compute f16/bf16 in f32, rounding at casts, stores and accumulators "
                     "(tinygrad's C backend)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> checkAccesses{
      *this, "check-accesses",
      llvm::cl::desc("Bounds-check every load and store at run time (uop-check-host-accesses: "
                     "each kernel takes a context pointer after its buffers)"),
      llvm::cl::init(false)};
};

/// uop kernels at any level (kernel AST or lowered) to the LLVM dialect for
/// the host: the kernel-codegen stage (uop-optimize for the CPU: upcasts and
/// unrolls only), then host to LLVM.
void buildUOpToLLVMPipeline(OpPassManager &pm, const UOpToLLVMOptions &options = {});

struct UOpToPTXOptions : public UOpCodegenPipelineOptions<UOpToPTXOptions> {
  PassOptions::Option<std::string> chip{
      *this, "chip",
      llvm::cl::desc("GPU architecture (sm_XX); an unknown one is an error listing the known ones"),
      llvm::cl::init(TargetAttr::kDefaultChip.str())};
  PassOptions::Option<unsigned> optLevel{
      *this, "O", llvm::cl::desc("LLVM optimization level (0-3)"), llvm::cl::init(3)};
  PassOptions::Option<bool> toBinary{
      *this, "to-binary",
      llvm::cl::desc("End with uop-serialize-to-ptx (PTX text in each gpu.binary); without it "
                     "the result is the gpu.module in the nvvm/llvm dialects"),
      llvm::cl::init(true)};
  PassOptions::Option<std::string> printer{
      *this, "printer",
      llvm::cl::desc("Who writes the PTX (uop-serialize-to-ptx): llvm (LLVM's optimizer and NVPTX "
                     "backend) or direct (uop-mlir's PTX printer, no LLVM; uop-unroll-loops and "
                     "uop-vectorize-loads run before the GPU-to-NVVM stage for it)"),
      llvm::cl::init("llvm")};
};

/// uop kernels (kernel AST or lowered) to PTX through the upstream gpu and
/// nvvm dialects: uop-attach-target, the kernel-codegen stage, GPU mapping,
/// (with `printer=direct`) the direct printer's loop stage, GPU to NVVM and
/// (with `toBinary`) GPU to binary. Each kernel becomes a
/// `gpu.binary` of its name whose object holds the PTX; the module's
/// `uop.launch` has its launch dimensions. The context needs the NVVM target
/// and the LLVM IR translations: see registerUOpPTXDependencies
/// (registerUOpPTXConversions with `printer=direct`).
void buildUOpToPTXPipeline(OpPassManager &pm, const UOpToPTXOptions &options = {});

/// One kernel's PTX and how to launch it.
struct PTXKernel {
  std::string name; // the kernel's symbol, its .entry in the PTX
  std::string chip; // the sm_XX it was compiled for
  std::string ptx;  // one PTX module, as ptxas and cuModuleLoadData take it
  LaunchDims launch;
  /// A symbolic kernel's variables: i32 parameters after the buffers.
  std::vector<KernelVariable> variables;
};

/// Whether the compile entry points' pass managers (PTXCompiler, the
/// runners, the C API's compiles) verify the IR after every pass unless told
/// otherwise: off in a release build (the input is verified where it is read;
/// verifying after each pass costs about a quarter of a compile), on in a
/// debug or sanitized one (CMake's UOP_VERIFY_EACH_DEFAULT). The tools'
/// --verify-each overrides it.
bool verifyEachByDefault();

/// Compiles modules' kernels to PTX with one uop-to-ptx pass manager, built
/// once: a later module skips building the pipeline and initializing its
/// passes (their pattern sets), which costs about as much as compiling a
/// small kernel. Compile one module at a time; the context needs
/// registerUOpPTXDependencies (registerUOpPTXConversions with
/// `printer=direct`).
class PTXCompiler {
public:
  /// The uop-to-ptx pipeline with `options` (always to the binary), verifying
  /// after each pass if verifyEachByDefault(). `configure`, if given, sets up
  /// the pass manager first (e.g. applyPassManagerCLOptions, enableVerifier).
  static FailureOr<std::unique_ptr<PTXCompiler>>
  create(MLIRContext *ctx, const UOpToPTXOptions &options = {},
         function_ref<LogicalResult(PassManager &)> configure = nullptr);

  /// Runs the pipeline on `module` in place, then returns each gpu.binary's
  /// PTX with its launch dimensions from `uop.launch` and its variables from
  /// `uop.variables`. Errors are diagnostics.
  FailureOr<std::vector<PTXKernel>> compile(ModuleOp module);

private:
  PTXCompiler(MLIRContext *ctx, StringRef chip) : pm(ctx), chip(chip.str()) {}
  PassManager pm;
  std::string chip;
};

/// One module's kernels to PTX: PTXCompiler::create, then compile.
FailureOr<std::vector<PTXKernel>>
compileToPTX(ModuleOp module, const UOpToPTXOptions &options = {},
             function_ref<LogicalResult(PassManager &)> configure = nullptr);

/// Registers what buildUOpToPTXPipeline needs beyond the dialects it loads:
/// the ConvertToLLVM interfaces uop-gpu-to-nvvm uses (arith, cf, func,
/// index, math, nvvm, ub), the NVVM target attribute's serialization, the
/// translations of the builtin, gpu, llvm and nvvm dialects to LLVM IR, and
/// LLVM's NVPTX back end for uop-serialize-to-ptx (registerLLVMPTXBackend).
void registerUOpPTXDependencies(DialectRegistry &registry);

/// Only the ConvertToLLVM interfaces: enough for uop-to-ptx with
/// `printer=direct` (uop-translate), and all a tool registers that
/// must not link LLVM's back end; `printer=llvm` then fails to build.
void registerUOpPTXConversions(DialectRegistry &registry);

/// Registers `uop-to-llvm` and `uop-to-ptx` for uop-opt's --pass-pipeline
/// and -uop-to-llvm / -uop-to-ptx.
void registerUOpPipelines();

} // namespace mlir::uop

#endif

//===- Pass.cpp - uop-optimize: tinygrad's OptOps on a kernel AST ---------===//
//
// Applies explicit opts (the kernel's `uop.opts` attribute, else the pass's
// `opts` option) or tinygrad's hand-coded heuristic, at the shape level
// (OptKernel), and writes the result back. See Passes.td.
//
//===----------------------------------------------------------------------===//

#include "Kernel.h"

#include "uop/Dialect/UOp/IR/UOpAttrs.h"
#include "uop/Dialect/UOp/Transforms/Passes.h"

#include "mlir/IR/Diagnostics.h"

namespace mlir::uop {
#define GEN_PASS_DEF_UOPOPTIMIZE
#include "uop/Dialect/UOp/Transforms/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;
using namespace mlir::uop;

namespace {
struct UOpOptimizePass : mlir::uop::impl::UOpOptimizeBase<UOpOptimizePass> {
  using UOpOptimizeBase::UOpOptimizeBase;

  void runOnOperation() override {
    KernelOp kernel = getOperation();
    if (UOpDialect::KernelInfoAttrHelper(&getContext()).isAttrPresent(kernel) ||
        kernel.getBodyBlock().getOps<ViewOp>().empty())
      return; // already optimized, or lowered
    bool symbolic = OptKernel::hasSymbolicViews(kernel);
    bool explicitOpts = UOpDialect::OptsAttrHelper(&getContext()).isAttrPresent(kernel) ||
                        !StringRef(opts).trim().empty();
    if (!symbolic || explicitOpts || !heuristic) {
      if (failed(optimize(kernel)))
        signalPassFailure();
      return;
    }
    // The heuristic on a symbolic kernel: where a view cannot follow an opt
    // exactly (see SymbolicShape.h), the kernel is correct without opts, so
    // it is taken as it is and a remark says why.
    std::string why;
    LogicalResult result = failure();
    {
      ScopedDiagnosticHandler capture(&getContext(), [&](Diagnostic &d) {
        if (d.getSeverity() != DiagnosticSeverity::Error)
          return failure();
        why = d.str();
        return success();
      });
      result = optimize(kernel);
    }
    if (failed(result))
      emitRemark(kernel.getLoc()) << "kernel @" << kernel.getSymName()
                                  << " has symbolic shapes and is taken without opts: " << why;
  }

  /// The opts (the kernel's own, the option's, or the heuristic's) applied
  /// and written back; an error on the kernel where they cannot be.
  LogicalResult optimize(KernelOp kernel) {
    OptTarget target = OptTarget::get(TargetAttr::lookup(kernel, /*emitErrors=*/false));
    std::optional<OptKernel> k = OptKernel::create(kernel, target);
    if (!k)
      return failure();

    // The kernel's own opts (even none) come first, then the option's.
    SmallVector<Opt> toApply;
    StringRef text = opts;
    StringAttr own = UOpDialect::OptsAttrHelper(&getContext()).getAttr(kernel);
    if (own)
      text = own.getValue();
    if (own || !text.trim().empty()) {
      llvm::Expected<SmallVector<Opt>> parsed = parseOpts(text);
      if (!parsed)
        return kernel.emitOpError() << "has invalid opts: " << llvm::toString(parsed.takeError());
      toApply = std::move(*parsed);
    } else if (heuristic) {
      StringRef schedule = tcSchedule;
      if (schedule != "auto" && schedule != "tinygrad" && schedule != "staged" &&
          schedule != "wgmma" && schedule != "tma" && schedule != "cluster" && schedule != "splitk")
        return kernel.emitOpError()
               << "unknown tensor-core schedule '" << schedule
               << "' (known: auto, tinygrad, staged, wgmma, tma, cluster, splitk)";
      bool hopper =
          schedule == "wgmma" || schedule == "tma" || schedule == "cluster" || schedule == "splitk";
      // tinygrad tries the tensor cores first, then its hand-coded opts;
      // their operands are staged in shared memory where they can be, and
      // on sm_90a multiplied there by wgmma where it can be.
      if (auto tc = tensorCoreOptimizations(*k)) {
        toApply = std::move(*tc);
        llvm::Expected<SmallVector<Opt>> wgmma =
            hopper || (schedule == "auto" && target.hasWgmma)
                ? wgmmaTensorCoreOptimizations(
                      *k, schedule == "wgmma" || schedule == "auto" ? OptOp::WGMMA : OptOp::TMA,
                      schedule == "cluster" || schedule == "splitk", schedule == "splitk")
                : llvm::Expected<SmallVector<Opt>>(llvm::createStringError("not asked"));
        if (wgmma) {
          toApply = std::move(*wgmma);
        } else if (hopper) {
          return kernel.emitOpError()
                 << "cannot multiply with wgmma (" << llvm::toString(wgmma.takeError()) << ")";
        } else if (llvm::consumeError(wgmma.takeError()); schedule != "tinygrad") {
          llvm::Expected<SmallVector<Opt>> staged = stagedTensorCoreOptimizations(*k, toApply);
          if (staged)
            toApply = std::move(*staged);
          else if (schedule == "staged")
            return kernel.emitOpError() << "cannot stage the tensor cores' operands ("
                                        << llvm::toString(staged.takeError()) << ")";
          else
            llvm::consumeError(staged.takeError());
        }
      } else {
        llvm::Expected<SmallVector<Opt>> opts = handCodedOptimizations(*k);
        if (!opts)
          return kernel.emitOpError() << "the heuristic's opt " << llvm::toString(opts.takeError());
        toApply = std::move(*opts);
      }
    }
    for (auto [i, opt] : llvm::enumerate(toApply)) {
      std::string shape = shapeString(*k);
      if (llvm::Error e = k->applyOpt(opt))
        return kernel.emitOpError() << "cannot apply opt " << opt.str() << " (" << i + 1 << " of "
                                    << toApply.size() << ") to the shape " << shape << " for "
                                    << target.name << ": " << llvm::toString(std::move(e));
    }
    k->writeBack();
    return success();
  }

  /// The shape with each axis's role, as tinygrad colours it:
  /// (g16 l4 R32 u4) for global, local, group, reduce, loop, upcast, unroll.
  static std::string shapeString(const OptKernel &k) {
    std::string s = "(";
    int64_t fr = k.firstReduce(), gd = k.globalDims();
    for (int64_t i = 0; i < k.shapeLen(); ++i) {
      const char *role = i < gd                                   ? "g"
                         : i < fr                                 ? "l"
                         : i < fr + k.groupForReduces             ? "G"
                         : i < k.firstUpcast()                    ? "r"
                         : k.outputShape()[i] != k.fullShape()[i] ? "U"
                                                                  : "u";
      std::string size = std::to_string(k.fullShape()[i]);
      if (k.isSymbolic(i)) { // its expression, e.g. `n` or `(8 * n)`
        llvm::raw_string_ostream os(size = "(");
        k.symSts.back().shape()[i].toAttr(KernelOp(k.kernel).getContext(), i).printExpr(os);
        os << ")";
      }
      s += (i ? " " : "") + std::string(role) + size;
    }
    return s + ")";
  }
};
} // namespace

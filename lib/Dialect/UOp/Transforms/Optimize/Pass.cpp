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
    // tinygrad's opts over symbolic shapes (Variables) are not implemented:
    // such a kernel is taken as it is, as tinygrad's NOOPT would take it.
    bool symbolic = llvm::any_of(kernel.getBodyBlock().getOps<ViewOp>(), [](ViewOp v) {
      return llvm::any_of(v.getSt().getViews(), [](ViewAttr x) { return x.isSymbolic(); });
    });
    if (symbolic) {
      if (UOpDialect::OptsAttrHelper(&getContext()).isAttrPresent(kernel) ||
          !StringRef(opts).trim().empty()) {
        kernel.emitOpError()
            << "has symbolic shapes (uop.define_var): opts cannot be applied to it";
        return signalPassFailure();
      }
      return;
    }
    OptTarget target = OptTarget::get(TargetAttr::lookup(kernel, /*emitErrors=*/false));
    std::optional<OptKernel> k = OptKernel::create(kernel, target);
    if (!k)
      return signalPassFailure();

    // The kernel's own opts (even none) come first, then the option's.
    SmallVector<Opt> toApply;
    StringRef text = opts;
    StringAttr own = UOpDialect::OptsAttrHelper(&getContext()).getAttr(kernel);
    if (own)
      text = own.getValue();
    if (own || !text.trim().empty()) {
      llvm::Expected<SmallVector<Opt>> parsed = parseOpts(text);
      if (!parsed) {
        kernel.emitOpError() << "has invalid opts: " << llvm::toString(parsed.takeError());
        return signalPassFailure();
      }
      toApply = std::move(*parsed);
    } else if (heuristic) {
      // tinygrad tries the tensor cores first, then its hand-coded opts.
      if (auto tc = tensorCoreOptimizations(*k)) {
        toApply = std::move(*tc);
      } else {
        llvm::Expected<SmallVector<Opt>> opts = handCodedOptimizations(*k);
        if (!opts) {
          kernel.emitOpError() << "the heuristic's opt " << llvm::toString(opts.takeError());
          return signalPassFailure();
        }
        toApply = std::move(*opts);
      }
    }
    for (auto [i, opt] : llvm::enumerate(toApply)) {
      std::string shape = shapeString(*k);
      if (llvm::Error e = k->applyOpt(opt)) {
        kernel.emitOpError() << "cannot apply opt " << opt.str() << " (" << i + 1 << " of "
                             << toApply.size() << ") to the shape " << shape << " for "
                             << target.name << ": " << llvm::toString(std::move(e));
        return signalPassFailure();
      }
    }
    k->writeBack();
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
      s += (i ? " " : "") + std::string(role) + std::to_string(k.fullShape()[i]);
    }
    return s + ")";
  }
};
} // namespace

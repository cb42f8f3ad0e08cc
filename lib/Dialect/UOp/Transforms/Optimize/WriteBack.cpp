//===- WriteBack.cpp - tinygrad's Kernel.get_optimized_ast ----------------===//
//
// Writes the optimizer's shape-level state back into the kernel: every VIEW
// gets its new ShapeTracker, every REDUCE_AXIS the axes it now reduces, a
// grouped reduce goes through shared memory (DEFINE_LOCAL), a tensor-core
// reduce becomes a WMMA (TensorCores.cpp), and the kernel
// records the axis roles in #uop.kernel_info for uop-lower.
//
//===----------------------------------------------------------------------===//

#include "Kernel.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::uop;
using shape::Shape;
using shape::ShapeTracker;

void OptKernel::writeBack() {
  MLIRContext *ctx = kernel.getContext();
  // A symbolic st as #uop.st (its bounds were checked when projected).
  auto symAttr = [&](const shape::SymShapeTracker &st) { return *st.toAttr(ctx, varRanges); };
  for (auto [i, view] : llvm::enumerate(bufViews))
    view.setStAttr(symbolic() ? symAttr(symSts[i]) : sts[i].toAttr(ctx));
  // SPLITK: the pair's partial sums meet first; each block stores half.
  if (splitAxis >= 0)
    writeSplitK(reduceop());

  int64_t fr = firstReduce(), gd = globalDims();
  for (auto [n, r] : llvm::enumerate(reduceops)) {
    size_t idx = bufs.size() + 2 * n;
    auto reducedIn = [&](int64_t start, int64_t stop) {
      SmallVector<int64_t> axes;
      for (int64_t i = start; i < stop; ++i)
        if (sts[idx].shape()[i] != sts[idx + 1].shape()[i])
          axes.push_back(i);
      return axes;
    };
    SmallVector<int64_t> axes = reducedIn(fr + groupForReduces, shapeLen());
    SmallVector<int64_t> grouped = reducedIn(fr, fr + groupForReduces);
    if (tensorCore) { // (the TC opt and GROUP exclude each other)
      writeTensorCore(r, axes);
      continue;
    }
    if (!groupForReduces || grouped.empty()) {
      if (!axes.empty()) {
        r.setAxes(axes);
      } else { // it reduced only axes of size 1, which are gone
        r.getResult().replaceAllUsesWith(r.getSrc());
        r.erase();
      }
      continue;
    }

    // Each thread's partial result goes to shared memory at its (local,
    // grouped, upcast) position; the grouped axes are then reduced from
    // there. One buffer per block: stride 0 on the global axes.
    Shape local(gd, 1);
    llvm::append_range(local, fullShape().slice(gd, localDims));
    for (int64_t i = fr; i < fr + groupForReduces; ++i)
      local.push_back(llvm::is_contained(grouped, i) ? fullShape()[i] : 1);
    local.append(shapeLen() - upcasted - groupForReduces - fr, 1);
    for (const UpcastedAxis &u : upcastedAxis(0))
      local.push_back(u.size);
    Shape expanded(fullShape().take_front(gd));
    llvm::append_range(expanded, ArrayRef<int64_t>(local).drop_front(gd));
    ShapeTracker st = ShapeTracker::fromShape(local).expand(expanded);
    ShapeTrackerAttr stAttr = st.toAttr(ctx);
    if (symbolic()) { // the global axes (stride 0 here) keep their symbolic sizes
      shape::SymShapeTracker s = shape::SymShapeTracker::fromInt(st);
      for (int64_t i = 0; i < gd; ++i)
        s.views.back().shape[i] = symSts.back().shape()[i];
      stAttr = symAttr(s);
    }

    OpBuilder b(r->getNextNode());
    Location loc = r.getLoc();
    Type t = r.getType();
    auto ptrType = PtrType::get(t, st.realSize(), AddressSpace::local);
    Value buf =
        DefineLocalOp::create(b, loc, ptrType, b.getStringAttr("temp" + Twine(n)), SwizzleAttr());
    auto throughLocal = [&](ShapeTrackerAttr s, Value value) -> Value {
      Value view = ViewOp::create(b, loc, ptrType, buf, s);
      Value store = StoreOp::create(b, loc, view, value, Value(), Value());
      return LoadOp::create(b, loc, t, view, Value(), ValueRange{store});
    };
    // Each thread's part; all of it when the whole reduce is grouped.
    Value part = r.getResult();
    if (axes.empty())
      part = r.getSrc();
    else
      r.setAxes(axes);
    Value partial = throughLocal(stAttr, part);
    // (Only a kernel's one reduce is grouped: applyOpt refuses more, where
    // tinygrad would share the result through shared memory again.)
    Value result = ReduceAxisOp::create(b, loc, t, r.getKind(), partial, grouped);
    Operation *store = partial.getDefiningOp<LoadOp>().getDeps()[0].getDefiningOp();
    r.getResult().replaceAllUsesExcept(result, store);
    if (r->use_empty())
      r.erase();
  }

  if (tensorCore) // the product and the unswizzled loads are now unused
    for (Operation &op : llvm::make_early_inc_range(llvm::reverse(kernel.getBodyBlock())))
      if (isOpTriviallyDead(&op))
        op.erase();
  UOpDialect::KernelInfoAttrHelper(ctx).setAttr(
      kernel, KernelInfoAttr::get(ctx, target.hasLocal ? gd : 0, localDims + groupForReduces,
                                  upcasted, dontUseLocals, printOpts(appliedOpts), cluster));
}

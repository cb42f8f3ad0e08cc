//===- Expand.cpp - uop-expand: CONTRACT and UNROLL around a WMMA ---------===//
//
// The part of tinygrad's expander (codegen/expander.py, seed 001) a WMMA
// needs: its sources become vectors over their fragment axes, its result a
// vector accumulator whose lanes go back to the upcast axes. See Passes.td.
//
//===----------------------------------------------------------------------===//

#include "uop/Dialect/UOp/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::uop {
#define GEN_PASS_DEF_UOPEXPAND
#include "uop/Dialect/UOp/Transforms/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;
using namespace mlir::uop;

namespace {

/// Every combination of the axes' values, the first axis slowest (tinygrad's
/// _choices_from_args: itertools.product order).
SmallVector<SmallVector<int64_t>> combinations(AxisSizesAttr axes) {
  SmallVector<SmallVector<int64_t>> out{{}};
  for (size_t i = 0; i < axes.size(); ++i) {
    SmallVector<SmallVector<int64_t>> next;
    for (const SmallVector<int64_t> &c : out)
      for (int64_t v = 0; v < axes.getSize(i); ++v) {
        next.push_back(c);
        next.back().push_back(v);
      }
    out = std::move(next);
  }
  return out;
}

class Expander {
public:
  explicit Expander(KernelOp kernel) : body(kernel.getBodyBlock()), b(kernel.getContext()) {
    for (RangeOp r : body.getOps<RangeOp>())
      ranges[r.getAxis()] = r;
  }

  void run() {
    for (WmmaOp wmma : llvm::to_vector(body.getOps<WmmaOp>()))
      expandWmma(wmma);
    for (ContractOp c : llvm::to_vector(body.getOps<ContractOp>()))
      if (!c->use_empty()) // (a WMMA's are done)
        c.getResult().replaceAllUsesWith(contract(c, {}));
    for (ReduceOp r : llvm::to_vector(body.getOps<ReduceOp>()))
      hoistUnroll(r);
    for (UnrollOp u : llvm::to_vector(body.getOps<UnrollOp>()))
      u.getResult().replaceAllUsesWith(lane(u));
    for (Operation &op : llvm::make_early_inc_range(llvm::reverse(body)))
      if (isOpTriviallyDead(&op))
        op.erase();
  }

private:
  /// The range of `axis`, or null when nothing depends on the axis.
  Value range(int64_t axis) {
    RangeOp r = ranges.lookup(axis);
    return r ? r.getResult() : Value();
  }

  /// A new upcast range (for an UNROLL over an axis nothing else uses).
  Value newRange(Location loc, int64_t axis, int64_t size) {
    Type i32 = IntegerType::get(b.getContext(), 32, IntegerType::Signed);
    Value end = ConstOp::create(b, loc, i32, b.getIntegerAttr(i32, size));
    auto r = RangeOp::create(b, loc, i32, end, b.getI64IntegerAttr(axis),
                             AxisKindAttr::get(b.getContext(), AxisKind::upcast));
    ranges[axis] = r;
    return r;
  }

  Value constantLike(Value like, int64_t v) {
    Type t = like.getType();
    return ConstOp::create(b, like.getLoc(), t, b.getIntegerAttr(t, v));
  }

  /// `v` with ranges replaced as `subst` says: the ops between are copied
  /// where they depend on a replaced range, and shared where they do not.
  Value substitute(Value v, DenseMap<Value, Value> &subst) {
    if (Value known = subst.lookup(v))
      return known;
    Operation *op = v.getDefiningOp();
    if (!op || isa<RangeOp>(op))
      return subst[v] = v;
    IRMapping map;
    bool changed = false;
    for (Value operand : op->getOperands()) {
      Value s = substitute(operand, subst);
      map.map(operand, s);
      changed |= s != operand;
    }
    if (!changed)
      return subst[v] = v;
    Operation *copy = b.clone(*op, map);
    for (auto [from, to] : llvm::zip(op->getResults(), copy->getResults()))
      subst[from] = to;
    return subst.lookup(v);
  }

  /// CONTRACT: the source once per combination of the axes, as a vector;
  /// the axes in `zeroed` (a WMMA's others) are 0 in every copy.
  Value contract(ContractOp c, ArrayRef<int64_t> zeroed) {
    b.setInsertionPoint(c);
    AxisSizesAttr axes = c.getAxes();
    SmallVector<Value> lanes;
    for (const SmallVector<int64_t> &values : combinations(axes)) {
      DenseMap<Value, Value> subst;
      for (int64_t a : zeroed)
        if (Value r = range(a))
          subst[r] = constantLike(r, 0);
      for (size_t i = 0; i < axes.size(); ++i)
        if (Value r = range(axes.getAxis(i)))
          subst[r] = constantLike(r, values[i]);
      lanes.push_back(substitute(c.getSrc(), subst));
    }
    return VectorizeOp::create(b, c.getLoc(), c.getType(), lanes);
  }

  /// A WMMA's A and B: each lane's fragment, with every other axis of the
  /// WMMA (its reduce axes, the other fragments' axes) at 0.
  void expandWmma(WmmaOp wmma) {
    SmallVector<int64_t> own(wmma.getReduceAxes());
    for (Attribute a : wmma.getUpcastAxes()) {
      auto axes = cast<AxisSizesAttr>(a);
      for (size_t i = 0; i < axes.size(); ++i)
        own.push_back(axes.getAxis(i));
    }
    for (OpOperand *operand : {&wmma.getAMutable(), &wmma.getBMutable()}) {
      auto c = operand->get().getDefiningOp<ContractOp>();
      if (!c)
        continue; // already a vector
      SmallVector<int64_t> zeroed;
      for (int64_t a : own)
        if (!llvm::any_of(llvm::seq<size_t>(0, c.getAxes().size()),
                          [&](size_t i) { return c.getAxes().getAxis(i) == a; }))
          zeroed.push_back(a);
      operand->set(contract(c, zeroed));
    }
  }

  /// REDUCE(UNROLL(v)) -> UNROLL(REDUCE(v)) when the reduce's ranges are
  /// none of the unrolled axes: the lanes accumulate side by side.
  void hoistUnroll(ReduceOp r) {
    auto u = r.getSrc().getDefiningOp<UnrollOp>();
    if (!u)
      return;
    AxisSizesAttr axes = u.getAxes();
    for (size_t i = 0; i < axes.size(); ++i)
      if (Value a = range(axes.getAxis(i)); a && llvm::is_contained(r.getRanges(), a))
        return;
    b.setInsertionPoint(r);
    Value acc =
        ReduceOp::create(b, r.getLoc(), u.getSrc().getType(), r.getKind(), u.getSrc(), r.getRanges());
    r.getResult().replaceAllUsesWith(UnrollOp::create(b, r.getLoc(), acc, axes));
    r.erase();
  }

  /// UNROLL: the lane the axes' ranges select, flat index sum(r * stride)
  /// (first axis slowest), as WHEREs over one GEP per lane.
  Value lane(UnrollOp u) {
    b.setInsertionPoint(u);
    Location loc = u.getLoc();
    AxisSizesAttr axes = u.getAxes();
    Value idx;
    int64_t stride = 1;
    for (int64_t i = axes.size() - 1; i >= 0; --i) {
      Value r = range(axes.getAxis(i));
      if (!r)
        r = newRange(loc, axes.getAxis(i), axes.getSize(i));
      Value term = stride == 1 ? r : MulOp::create(b, loc, r.getType(), r, constantLike(r, stride));
      idx = idx ? AddOp::create(b, loc, r.getType(), idx, term).getResult() : term;
      stride *= axes.getSize(i);
    }
    Type t = u.getType();
    Value result = GepOp::create(b, loc, u.getSrc(), b.getDenseI64ArrayAttr({stride - 1}));
    for (int64_t l = stride - 2; l >= 0; --l) {
      Value at = CmpEqOp::create(b, loc, b.getI1Type(), idx, constantLike(idx, l));
      Value x = GepOp::create(b, loc, u.getSrc(), b.getDenseI64ArrayAttr({l}));
      result = WhereOp::create(b, loc, t, at, x, result);
    }
    return result;
  }

  Block &body;
  OpBuilder b;
  DenseMap<int64_t, RangeOp> ranges;
};

struct UOpExpandPass : mlir::uop::impl::UOpExpandBase<UOpExpandPass> {
  void runOnOperation() override {
    KernelOp kernel = getOperation();
    if (kernel.getBodyBlock().getOps<ContractOp>().empty() &&
        kernel.getBodyBlock().getOps<UnrollOp>().empty())
      return;
    Expander(kernel).run();
  }
};

} // namespace

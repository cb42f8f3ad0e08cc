//===- Expand.cpp - uop-expand: upcast and unroll axes as copies ----------===//
//
// tinygrad's expander (codegen/expander.py, seed 001) on lowered kernels:
// stores copied per upcast value (register tiles, grouped reduces too), a
// reduce's source copied per unroll value (a horizontal reduce), and around
// a WMMA its sources as vectors over their fragment axes, its result a
// vector accumulator whose lanes go back to the upcast axes. Folding the
// copies' loads and stores is uop-devectorize's. See Passes.td.
//
//===----------------------------------------------------------------------===//

#include "uop/Dialect/UOp/Utils/Symbolic.h"

#include "uop/Dialect/UOp/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallVectorExtras.h"

namespace mlir::uop {
#define GEN_PASS_DEF_UOPEXPAND
#include "uop/Dialect/UOp/Transforms/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;
using namespace mlir::uop;
using mlir::uop::sym::intConst;

namespace {

/// Every combination of the axes' values, the first axis slowest (tinygrad's
/// _choices_from_args: itertools.product order); of no axes, one.
SmallVector<SmallVector<int64_t>> combinations(AxisSizesAttr axes) {
  SmallVector<SmallVector<int64_t>> out{{}};
  for (size_t i = 0; axes && i < axes.size(); ++i) {
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

/// A copy of `original` with `operands`: equal keys make equal ops.
struct CopyKey {
  Operation *original;
  ValueRange operands;
};

struct CopyKeyInfo {
  static CopyKey getEmptyKey() { return {DenseMapInfo<Operation *>::getEmptyKey(), {}}; }
  static CopyKey getTombstoneKey() { return {DenseMapInfo<Operation *>::getTombstoneKey(), {}}; }
  static unsigned getHashValue(const CopyKey &k) {
    return llvm::hash_combine(k.original,
                              llvm::hash_combine_range(k.operands.begin(), k.operands.end()));
  }
  static bool isEqual(const CopyKey &x, const CopyKey &y) {
    return x.original == y.original && llvm::equal(x.operands, y.operands);
  }
};

/// A copy made for a CopyKey, and how many ops that may write memory the
/// builder had inserted when it was made.
struct Copy {
  Operation *op;
  unsigned writes;
};

/// Counts the ops a builder inserts that may write memory, by CSE's test
/// (effects unknown, or a write among them): a load copied before one of
/// them is not the load copied after it.
struct WriteCounter : OpBuilder::Listener {
  unsigned writes = 0;
  void notifyOperationInserted(Operation *op, OpBuilder::InsertPoint) override {
    std::optional<SmallVector<MemoryEffects::EffectInstance>> effects = getEffectsRecursively(op);
    if (!effects || llvm::any_of(*effects, [](const MemoryEffects::EffectInstance &e) {
          return isa<MemoryEffects::Write>(e.getEffect());
        }))
      ++writes;
  }
};

/// Values to put in place of others (ranges -> constants, BARRIERs -> the
/// ones that wait for the copies), with the memo of what was made of each
/// value, and `keys`: what the replaced values are, as dependence bits
/// (Expander::dependence).
struct Substitution {
  DenseMap<Value, Value> map;
  uint64_t keys = 0;
};

class Expander {
public:
  explicit Expander(KernelOp kernel)
      : body(kernel.getBodyBlock()), b(kernel.getContext(), &inserted),
        top(OpBuilder::atBlockBegin(&body)) {
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
    for (ReduceOp r : llvm::to_vector(body.getOps<ReduceOp>()))
      if (r.getSrc().getDefiningOp<WmmaOp>())
        sideBySide(r);
    for (ReduceOp r : llvm::to_vector(body.getOps<ReduceOp>()))
      expandUnroll(r);
    expandUpcastStores();
    for (UnrollOp u : llvm::to_vector(body.getOps<UnrollOp>()))
      if (!u->use_empty()) // (under a store kept as a loop)
        u.getResult().replaceAllUsesWith(lane(u));
    // (and the STOREs and BARRIERs that copies replaced)
    for (Operation &op : llvm::make_early_inc_range(llvm::reverse(body)))
      if (isOpTriviallyDead(&op) || (isa<StoreOp, BarrierOp>(op) && op.use_empty()))
        op.erase();
  }

private:
  /// The range of `axis`, or null when nothing depends on the axis.
  Value range(int64_t axis) {
    RangeOp r = ranges.lookup(axis);
    return r ? r.getResult() : Value();
  }

  /// A new upcast range (for an UNROLL over an axis nothing else uses), at
  /// the top of the body: it must come before every use.
  Value newRange(Location loc, int64_t axis, int64_t size) {
    Type i32 = IntegerType::get(b.getContext(), 32, IntegerType::Signed);
    Value end = ConstOp::create(top, loc, i32, top.getIntegerAttr(i32, size));
    auto r = RangeOp::create(top, loc, i32, end, top.getI64IntegerAttr(axis),
                             AxisKindAttr::get(b.getContext(), AxisKind::upcast));
    ranges[axis] = r;
    return r;
  }

  /// The integer constant `v` of `like`'s type, one per value, at the top
  /// of the body (so copies of one expression share it).
  Value constantLike(Value like, int64_t v) {
    Type t = like.getType();
    Value &c = constants[{t, v}];
    if (!c)
      c = ConstOp::create(top, like.getLoc(), t, b.getIntegerAttr(t, v));
    return c;
  }

  /// For each combination of the values of `ranges` (sizes in `axes`, the
  /// first slowest), the substitution of constants for them; null ranges
  /// (axes nothing depends on) are left out. Each batch of substitutions
  /// starts with the IR as the last batch left it: dependences are found
  /// anew.
  SmallVector<Substitution> constantsFor(ArrayRef<Value> ranges, AxisSizesAttr axes) {
    dependences.clear();
    copies.clear();
    SmallVector<Substitution> out;
    for (const SmallVector<int64_t> &values : combinations(axes)) {
      Substitution &subst = out.emplace_back();
      for (auto [r, v] : llvm::zip(ranges, values))
        if (r)
          replace(subst, r, constantLike(r, v));
    }
    return out;
  }

  /// `from` replaced by `to` in `subst`.
  void replace(Substitution &subst, Value from, Value to) {
    subst.map[from] = to;
    auto r = from.getDefiningOp<RangeOp>();
    subst.keys |= r ? axisBit(r.getAxis()) : kBarrierBit;
  }

  /// The dependence bit of a range of `axis`; axes from 63 on share the
  /// last bit with the BARRIERs (a conservative answer, not a wrong one).
  static uint64_t axisBit(int64_t axis) {
    return axis >= 0 && axis < 63 ? 1ULL << axis : kBarrierBit;
  }
  static constexpr uint64_t kBarrierBit = 1ULL << 63;

  /// What `v` depends on, as bits: the axes of the ranges it uses, of the
  /// UNROLLs on the way (whose lane a substitution picks) and the BARRIERs.
  /// substitute changes only what shares a bit with its substitution's
  /// keys, so the walk skips the rest: most of a kernel, for each of the
  /// tens of copies a tile has.
  uint64_t dependence(Value v) {
    if (auto it = dependences.find(v); it != dependences.end())
      return it->second;
    Operation *op = v.getDefiningOp();
    uint64_t bits = 0;
    if (auto r = dyn_cast_or_null<RangeOp>(op)) {
      bits = axisBit(r.getAxis());
    } else if (op) {
      if (isa<BarrierOp>(op))
        bits |= kBarrierBit;
      if (auto u = dyn_cast<UnrollOp>(op)) {
        auto [vectors, axesList] = lanesOf(u);
        for (AxisSizesAttr axes : axesList)
          for (size_t i = 0; i < axes.size(); ++i)
            bits |= axisBit(axes.getAxis(i));
        for (Value vector : vectors)
          bits |= dependence(vector);
      }
      for (Value operand : op->getOperands())
        bits |= dependence(operand);
    }
    return dependences[v] = bits;
  }

  /// `v` with ranges replaced as `subst` says: the ops between are copied
  /// where they depend on a replaced range, and shared where they do not;
  /// an UNROLL whose axes all have constants is the lane they select.
  Value substitute(Value v, Substitution &subst) {
    if (Value known = subst.map.lookup(v))
      return known;
    if (!(dependence(v) & subst.keys))
      return v;
    Operation *op = v.getDefiningOp();
    if (!op || isa<RangeOp>(op))
      return subst.map[v] = v;
    if (auto u = dyn_cast<UnrollOp>(op))
      if (Value picked = pickLane(u, subst))
        return subst.map[v] = picked;
    // The mapping only for an op that is copied: most are shared, and an
    // IRMapping allocates on its first entry.
    SmallVector<Value, 4> operands;
    bool changed = false;
    for (Value operand : op->getOperands()) {
      operands.push_back(substitute(operand, subst));
      changed |= operands.back() != operand;
    }
    if (!changed)
      return subst.map[v] = v;
    Operation *copy = copyOf(op, operands);
    for (auto [from, to] : llvm::zip(op->getResults(), copy->getResults()))
      subst.map[from] = to;
    return subst.map.lookup(v);
  }

  /// `op` with `operands`: the copy this batch already made of it with the
  /// same operands, when `op` is pure, else a new one. Hash-consed as
  /// tinygrad's UOps are: the copies of a tile share the index math that
  /// depends only on some of its axes (corpus-perf's f16 matmul: 2625 ops
  /// out of the expander instead of 4085, each of those 1460 a copy that CSE
  /// erased). A batch's copies all go in at one insertion point, so an
  /// earlier one dominates the later ones. A LOAD is shared too while
  /// nothing that may write memory went in after it, the rule by which CSE
  /// merges loads; CSE checks it by walking every op between the two
  /// (attention k0: 144 of its 192 loaded copies were such duplicates, and
  /// those walks most of the CSE's time after the expander).
  Operation *copyOf(Operation *op, ArrayRef<Value> operands) {
    bool pure = op->getNumRegions() == 0 && isPure(op);
    auto reads = dyn_cast<MemoryEffectOpInterface>(op);
    bool shared = pure || (op->getNumRegions() == 0 && reads &&
                           reads.onlyHasEffect<MemoryEffects::Read>());
    if (shared) {
      auto known = copies.find(CopyKey{op, operands});
      if (known != copies.end() && (pure || known->second.writes == inserted.writes))
        return known->second.op;
    }
    IRMapping map;
    map.map(op->getOperands(), operands);
    Operation *copy = b.clone(*op, map);
    if (shared) // (the key's operands are the copy's, which outlive the batch's table)
      copies[CopyKey{op, copy->getOperands()}] = Copy{copy, inserted.writes};
    return copy;
  }

  /// CONTRACT: the source once per combination of the axes, as a vector;
  /// the axes in `zeroed` (a WMMA's others) are 0 in every copy.
  Value contract(ContractOp c, ArrayRef<int64_t> zeroed) {
    b.setInsertionPoint(c);
    AxisSizesAttr axes = c.getAxes();
    SmallVector<Value> ranges;
    for (size_t i = 0; i < axes.size(); ++i)
      ranges.push_back(range(axes.getAxis(i)));
    SmallVector<Value> lanes;
    for (Substitution &subst : constantsFor(ranges, axes)) {
      for (int64_t a : zeroed)
        if (Value r = range(a))
          replace(subst, r, constantLike(r, 0));
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
    Value acc = ReduceOp::create(b, r.getLoc(), u.getSrc().getType(), r.getKind(), u.getSrc(),
                                 r.getRanges());
    r.getResult().replaceAllUsesWith(UnrollOp::create(b, r.getLoc(), acc, axes));
    r.erase();
  }

  /// A REDUCE of a WMMA that depends on other upcast axes (the heuristic's
  /// UPCASTs after TC) becomes one REDUCE per combination of them, side by
  /// side over the same ranges (so one K loop issues all the WMMAs, as in
  /// tinygrad); the UNROLL of it picks among them.
  void sideBySide(ReduceOp r) {
    SmallVector<Value> outer = upcastRangesOf(cone(r.getSrc()), /*withUnroll=*/true);
    llvm::erase_if(outer, [&](Value o) { return llvm::is_contained(r.getRanges(), o); });
    AxisSizesAttr axes = axesOf(outer);
    if (!axes)
      return;
    b.setInsertionPoint(r);
    SmallVector<Value> copies;
    for (Substitution &subst : constantsFor(outer, axes)) {
      Value src = substitute(r.getSrc(), subst);
      copies.push_back(
          ReduceOp::create(b, r.getLoc(), r.getType(), r.getKind(), src, r.getRanges()));
    }
    sideBySideOf[r.getResult()] = {axes, copies};
  }

  /// tinygrad's expander and horizontal_reduce for unroll axes (reduced
  /// upcast axes): a REDUCE over unroll ranges takes its source once per
  /// combination of their values (the first axis slowest), as one vector
  /// that a horizontal REDUCE folds in order over the other ranges; with no
  /// other ranges, the lanes folded in order. Either way the order of the
  /// operations is tinygrad's, acc op x[0] op x[1] ....
  void expandUnroll(ReduceOp r) {
    if (isa<VectorType>(r.getType()) || isa<VectorType>(r.getSrc().getType()))
      return; // (a WMMA's accumulator, or already horizontal)
    SmallVector<Value> unrolled, rest;
    for (Value v : r.getRanges())
      (v.getDefiningOp<RangeOp>().getKind() == AxisKind::unroll ? unrolled : rest).push_back(v);
    AxisSizesAttr axes = unrolled.empty() ? AxisSizesAttr() : axesOf(unrolled);
    if (!axes || axes.getProduct() > 256)
      return;
    b.setInsertionPoint(r);
    Location loc = r.getLoc();
    SmallVector<Substitution> substs = constantsFor(unrolled, axes);
    SmallVector<Value> lanes;
    for (Substitution &subst : substs)
      lanes.push_back(substitute(r.getSrc(), subst));
    Value result;
    if (rest.empty()) {
      result = lanes[0];
      for (Value lane : llvm::drop_begin(lanes))
        result = combine(r.getKind(), loc, result, lane);
    } else {
      auto type = VectorType::get({(int64_t)lanes.size()}, r.getType());
      Value vec = VectorizeOp::create(b, loc, type, lanes);
      result = ReduceOp::create(b, loc, r.getType(), r.getKind(), vec, rest);
    }
    r.getResult().replaceAllUsesWith(result);
    r.erase();
  }

  /// `x op y` for a REDUCE's op.
  Value combine(ReduceKind kind, Location loc, Value x, Value y) {
    switch (kind) {
    case ReduceKind::add:
      return AddOp::create(b, loc, x.getType(), x, y);
    case ReduceKind::mul:
      return MulOp::create(b, loc, x.getType(), x, y);
    case ReduceKind::max:
      return MaxOp::create(b, loc, x.getType(), x, y);
    }
    llvm_unreachable("unknown reduce kind");
  }

  /// tinygrad's expander for upcast axes: each STORE of the SINK becomes
  /// one per combination of the upcast axes it depends on (expandStore).
  void expandUpcastStores() {
    auto sink = cast<SinkOp>(body.back());
    b.setInsertionPoint(sink);
    SmallVector<Value> roots;
    for (Value root : sink.getSrcs()) {
      auto store = root.getDefiningOp<StoreOp>();
      SmallVector<Value> copies;
      // (a root a BARRIER also waits for, SPLITK's rounds, is expanded
      // once for both: expandStore keeps its copies)
      if (store && llvm::all_of(store->getUsers(), llvm::IsaPred<SinkOp, BarrierOp>))
        copies = expandStore(store);
      if (copies.empty())
        roots.push_back(root);
      else
        llvm::append_range(roots, copies);
    }
    sink->setOperands(roots);
  }

  /// The copies of `store` (a root of the SINK, or a store to shared memory
  /// a BARRIER waits for), one per combination of the values of the upcast
  /// axes it depends on, at constant indices, with copies of the REDUCEs on
  /// the way; the emitter runs copies over the same ranges in one loop, one
  /// accumulator each (a matmul's register tile). Behind a BARRIER, the stores it
  /// waits for are expanded first and one BARRIER waits for all their
  /// copies. Empty where the store stays as it is (no upcast axes, or more
  /// than 256 copies: a loop).
  SmallVector<Value> expandStore(StoreOp store) {
    auto known = copiesOf.find(store);
    if (known != copiesOf.end()) // (a store two BARRIERs wait for)
      return known->second;
    return copiesOf[store] = copyStore(store);
  }

  SmallVector<Value> copyStore(StoreOp store) {
    SetVector<Operation *> ops = cone(store.getResult());
    DenseMap<Value, Value> barriers; // each BARRIER on the way -> the one to use
    bool newBarrier = false;
    for (Operation *op : ops)
      if (auto bar = dyn_cast<BarrierOp>(op)) {
        Value done = expandBarrier(bar);
        barriers[bar] = done;
        newBarrier |= done != bar.getResult();
      }
    SmallVector<Value> ups = upcastRangesOf(ops, /*withUnroll=*/false);
    for (Operation *op : ops) // (and the axes that pick an UNROLL's lane)
      if (auto u = dyn_cast<UnrollOp>(op))
        for (AxisSizesAttr unrolled : lanesOf(u).second)
          for (size_t i = 0; i < unrolled.size(); ++i) {
            Value r = range(unrolled.getAxis(i));
            if (!r)
              r = newRange(u.getLoc(), unrolled.getAxis(i), unrolled.getSize(i));
            if (!llvm::is_contained(ups, r))
              ups.push_back(r);
          }
    llvm::sort(ups, [](Value x, Value y) {
      return x.getDefiningOp<RangeOp>().getAxis() < y.getDefiningOp<RangeOp>().getAxis();
    });
    AxisSizesAttr axes = axesOf(ups);
    if (axes && axes.getProduct() > 256)
      return {};
    if (!axes && !newBarrier)
      return {};
    SmallVector<Substitution> substs = constantsFor(ups, axes ? axes : AxisSizesAttr());
    SmallVector<Value> copies;
    size_t mapped = 0;
    for (Substitution &subst : substs) {
      for (auto [from, to] : barriers)
        replace(subst, from, to);
      // The copies map about as many values each: sized so once, not grown
      // step by step, and freed after use, so the next copy's map reuses
      // the memory (each copy's kept would be megabytes on the matmul).
      subst.map.reserve(mapped);
      copies.push_back(substitute(store.getResult(), subst));
      mapped = subst.map.size();
      subst.map = DenseMap<Value, Value>();
    }
    return copies;
  }

  /// The BARRIER that replaces `bar`: one after the copies of the stores it
  /// waits for, or `bar` itself when none is copied.
  Value expandBarrier(BarrierOp bar) {
    if (Value done = barrierFor.lookup(bar.getResult()))
      return done;
    SmallVector<Value> deps;
    bool changed = false;
    for (Value dep : bar.getDeps()) {
      if (auto inner = dep.getDefiningOp<BarrierOp>()) { // (after another's stores)
        Value done = expandBarrier(inner);
        changed |= done != dep;
        deps.push_back(done);
        continue;
      }
      auto store = dep.getDefiningOp<StoreOp>();
      SmallVector<Value> copies = store ? expandStore(store) : SmallVector<Value>();
      changed |= !copies.empty();
      llvm::append_range(deps, copies.empty() ? SmallVector<Value>{dep} : copies);
    }
    Value done = changed
                     ? BarrierOp::create(b, bar.getLoc(), bar.getType(), deps, bar.getClusterAttr())
                           .getResult()
                     : bar.getResult();
    return barrierFor[bar.getResult()] = done;
  }

  /// The ops `v` is computed from (v's own op included), up to the
  /// BARRIERs it waits for (included, not what they wait for).
  static SetVector<Operation *> cone(Value v) {
    SetVector<Operation *> ops;
    SmallVector<Value> work{v};
    while (!work.empty())
      if (Operation *op = work.pop_back_val().getDefiningOp(); op && ops.insert(op))
        if (!isa<BarrierOp>(op))
          llvm::append_range(work, op->getOperands());
    return ops;
  }

  /// The upcast (and unroll) RANGEs among `ops` (a cone), by axis.
  static SmallVector<Value> upcastRangesOf(const SetVector<Operation *> &ops, bool withUnroll) {
    SmallVector<RangeOp> found;
    for (Operation *op : ops)
      if (auto r = dyn_cast<RangeOp>(op))
        if (r.getKind() == AxisKind::upcast || (withUnroll && r.getKind() == AxisKind::unroll))
          found.push_back(r);
    llvm::sort(found, [](RangeOp x, RangeOp y) { return x.getAxis() < y.getAxis(); });
    return llvm::map_to_vector(found, [](RangeOp r) -> Value { return r; });
  }

  /// The (axis, size) pairs of ranges of constant sizes; null if there are
  /// none or a size is not constant.
  AxisSizesAttr axesOf(ArrayRef<Value> ranges) {
    SmallVector<int64_t> flat;
    for (Value v : ranges) {
      auto r = v.getDefiningOp<RangeOp>();
      std::optional<int64_t> size = intConst(r.getEnd());
      if (!size)
        return {};
      flat.append({(int64_t)r.getAxis(), *size});
    }
    return flat.empty() ? AxisSizesAttr() : AxisSizesAttr::get(b.getContext(), flat);
  }

  /// The vectors an UNROLL reads and the axes that pick the lane: the
  /// copies' axes first (see sideBySide), then its own.
  std::pair<SmallVector<Value>, SmallVector<AxisSizesAttr>> lanesOf(UnrollOp u) {
    if (auto it = sideBySideOf.find(u.getSrc()); it != sideBySideOf.end())
      return {it->second.second, {it->second.first, u.getAxes()}};
    return {{u.getSrc()}, {u.getAxes()}};
  }

  /// The lane of an UNROLL that the constants `subst` has for its axes
  /// select (of a REDUCE made side by side, its copy first); null when an
  /// axis has no constant there.
  Value pickLane(UnrollOp u, Substitution &subst) {
    auto [vectors, axesList] = lanesOf(u);
    int64_t l = 0;
    for (AxisSizesAttr axes : axesList)
      for (size_t i = 0; i < axes.size(); ++i) {
        Value r = range(axes.getAxis(i)), c = r ? subst.map.lookup(r) : Value();
        std::optional<int64_t> value = c ? intConst(c) : std::nullopt;
        if (!value)
          return Value();
        l = l * axes.getSize(i) + *value;
      }
    // The vector may depend on other upcast axes too (a WMMA with no reduce
    // left around it, whose B reads along an UPCAST): those take this copy's
    // constants as well.
    for (Value &v : vectors)
      v = substitute(v, subst);
    return laneAt(u, vectors, l);
  }

  /// Lane `l` of an UNROLL, counting across the vectors lanesOf gives.
  Value laneAt(UnrollOp u, ArrayRef<Value> vectors, int64_t l) {
    int64_t lanes = u.getAxes().getProduct();
    return GepOp::create(b, u.getLoc(), vectors[l / lanes], b.getDenseI64ArrayAttr({l % lanes}));
  }

  /// UNROLL: the lane the axes' ranges select, flat index sum(r * stride)
  /// (first axis slowest), as WHEREs over one GEP per lane; of a REDUCE
  /// made side by side, the copy its axes select first.
  Value lane(UnrollOp u) {
    b.setInsertionPoint(u);
    Location loc = u.getLoc();
    std::pair<SmallVector<Value>, SmallVector<AxisSizesAttr>> picked = lanesOf(u);
    SmallVector<Value> &vectors = picked.first;
    SmallVector<AxisSizesAttr> &axesList = picked.second;
    Value idx;
    int64_t stride = 1;
    for (AxisSizesAttr axes : llvm::reverse(axesList))
      for (int64_t i = axes.size() - 1; i >= 0; --i) {
        Value r = range(axes.getAxis(i));
        if (!r)
          r = newRange(loc, axes.getAxis(i), axes.getSize(i));
        Value term =
            stride == 1 ? r : MulOp::create(b, loc, r.getType(), r, constantLike(r, stride));
        idx = idx ? AddOp::create(b, loc, r.getType(), idx, term).getResult() : term;
        stride *= axes.getSize(i);
      }
    Value result = laneAt(u, vectors, stride - 1);
    for (int64_t l = stride - 2; l >= 0; --l) {
      Value is = CmpEqOp::create(b, loc, b.getI1Type(), idx, constantLike(idx, l));
      result = WhereOp::create(b, loc, u.getType(), is, laneAt(u, vectors, l), result);
    }
    return result;
  }

  Block &body;
  WriteCounter inserted; // (b's listener)
  OpBuilder b;
  OpBuilder top; // at the top of the body, for the shared constants and new ranges
  DenseMap<int64_t, RangeOp> ranges;
  DenseMap<std::pair<Type, int64_t>, Value> constants;
  // Each STORE expandStore has seen -> its copies (none: kept as it is).
  DenseMap<Operation *, SmallVector<Value>> copiesOf;
  // Each BARRIER expandBarrier has seen -> the one that replaces it.
  DenseMap<Value, Value> barrierFor;
  DenseMap<Value, uint64_t> dependences;                  // (dependence's memo, for one batch)
  DenseMap<CopyKey, Copy, CopyKeyInfo> copies;           // (copyOf's, for one batch)
  // Each REDUCE made side by side: the axes of its copies, and the copies.
  DenseMap<Value, std::pair<AxisSizesAttr, SmallVector<Value>>> sideBySideOf;
};

struct UOpExpandPass : mlir::uop::impl::UOpExpandBase<UOpExpandPass> {
  void runOnOperation() override {
    KernelOp kernel = getOperation();
    Block &body = kernel.getBodyBlock();
    if (!body.empty() && isa<SinkOp>(body.back()) && body.getOps<ViewOp>().empty())
      Expander(kernel).run(); // (a lowered kernel)
  }
};

} // namespace

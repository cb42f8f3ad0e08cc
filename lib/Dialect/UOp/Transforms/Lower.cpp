//===- Lower.cpp - uop-lower: tinygrad's lowerer --------------------------===//
//
// VIEWs become index arithmetic over one RANGE per axis, REDUCE_AXIS becomes
// REDUCE over the ranges of its axes (codegen/lowerer.py and
// shape/view.py:to_indexed_uops of the seeds' tinygrad). See Passes.td.
//
//===----------------------------------------------------------------------===//

#include "uop/Dialect/UOp/IR/ShapeTracker.h"
#include "uop/Dialect/UOp/IR/UOpAttrs.h"
#include "uop/Dialect/UOp/Transforms/Passes.h"
#include "uop/Dialect/UOp/Utils/Symbolic.h"

#include "IndexUpcast.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/StringMap.h"

#include <numeric>

namespace mlir::uop {
#define GEN_PASS_DEF_UOPLOWER
#include "uop/Dialect/UOp/Transforms/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;
using namespace mlir::uop;

namespace {

/// Builds tinygrad's (idx, valid) for a ShapeTracker at the builder's
/// insertion point, in si32 (tinygrad's dtypes.int), and in si64 where a
/// value leaves int32 (upcastIndex). A null `valid` means "always valid".
class Indexer {
public:
  /// `vars`: the kernel's define_vars by name, for symbolic views.
  /// `made`: what the Indexers of one kernel made, shared (sym::Build::Made).
  Indexer(OpBuilder &b, Location loc, const llvm::StringMap<Value> &vars, sym::Build::Made *made)
      : b(b), loc(loc), build(b, loc, made), vars(vars),
        i32(IntegerType::get(b.getContext(), 32, IntegerType::Signed)) {}

  std::pair<Value, Value> index(ShapeTrackerAttr st, ArrayRef<Value> ranges) {
    ArrayRef<ViewAttr> views = st.getViews();
    auto [idx, valid] = viewIndex(views.back(), ranges, Value());
    for (ViewAttr view : llvm::reverse(views.drop_back())) {
      SmallVector<Value> idxs = unravel(view, idx);
      std::tie(idx, valid) = viewIndex(view, idxs, valid);
    }
    return {upcastIndex(b, loc, idx), upcastIndex(b, loc, valid)};
  }

  Value constant(int64_t v) { return build.cst(i32, v); }

  /// A symbolic entry's value: constant + sum(coef * variable).
  Value expr(SymEntryAttr e) {
    Value v;
    for (auto [c, var] : llvm::zip(e.getCoefs(), e.getVars())) {
      Value term = build.mul(vars.lookup(var.getValue()), c);
      v = v ? build.add(v, term) : term;
    }
    return build.add(v, e.getConstant());
  }

  Value both(Value valid, Value cond) {
    return valid ? AndOp::create(b, loc, b.getI1Type(), valid, cond) : cond;
  }
  Value eq(Value x, int64_t c) { return CmpEqOp::create(b, loc, x, constant(c)); }

private:
  /// View.to_indexed_uops: offset + sum(idx * stride) over dims that move,
  /// validity from the mask bounds that cut anything. Symbolic entries are
  /// their expressions of the kernel's variables.
  std::pair<Value, Value> viewIndex(ViewAttr v, ArrayRef<Value> idxs, Value valid) {
    // A dimension masked to nothing makes the whole view invalid (tinygrad's
    // View.create then masks every dimension to [0, 0)): the constant false,
    // not a comparison of every axis that the expander would then unroll.
    if (v.hasMask())
      for (size_t i = 0; i < v.getShape().size(); ++i)
        if (!v.getSymAt(v.maskSlot(i, 0)) && !v.getSymAt(v.maskSlot(i, 1)) &&
            v.getMask()[2 * i] >= v.getMask()[2 * i + 1])
          return {constant(0), ConstOp::create(b, loc, b.getI1Type(), b.getBoolAttr(false))};
    SymEntryAttr symOffset = v.getSymAt(v.offsetSlot());
    Value idx = symOffset ? expr(symOffset) : constant(v.getOffset());
    for (auto [i, sh] : llvm::enumerate(v.getShape())) {
      SymEntryAttr symShape = v.getSymAt(v.shapeSlot(i)), symStride = v.getSymAt(v.strideSlot(i));
      int64_t st = v.getStrides()[i];
      if (symStride)
        idx = build.add(idx, build.mul(idxs[i], expr(symStride)));
      else if ((sh != 1 || symShape) && st != 0)
        idx = build.add(idx, build.mul(idxs[i], st));
      if (!v.hasMask())
        continue;
      int64_t lo = v.getMask()[2 * i], hi = v.getMask()[2 * i + 1];
      SymEntryAttr symLo = v.getSymAt(v.maskSlot(i, 0)), symHi = v.getSymAt(v.maskSlot(i, 1));
      if (lo != 0 || symLo) { // idx >= lo is !(idx < lo)
        Value below = symLo ? build.lt(idxs[i], expr(symLo)) : build.lt(idxs[i], lo);
        Value notBelow = CmpNeOp::create(
            b, loc, below, ConstOp::create(b, loc, b.getI1Type(), b.getBoolAttr(true)));
        valid = both(valid, notBelow);
      }
      if (symHi)
        valid = both(valid, build.lt(idxs[i], expr(symHi)));
      else if (hi != sh || symShape)
        valid = both(valid, build.lt(idxs[i], hi));
    }
    return {idx, valid};
  }

  /// unravel(shape, flat): the index of each dimension, (flat / acc) % dim,
  /// with a view's symbolic dimensions as their expressions.
  SmallVector<Value> unravel(ViewAttr view, Value flat) {
    ArrayRef<int64_t> shape = view.getShape();
    SmallVector<Value> idxs(shape.size());
    int64_t acc = 1;
    Value accValue; // the product so far, once a symbolic dimension is in it
    for (int64_t i = shape.size() - 1; i >= 0; --i) {
      SymEntryAttr sym = view.getSymAt(view.shapeSlot(i));
      Value q = accValue ? build.idiv(flat, accValue) : acc == 1 ? flat : build.idiv(flat, acc);
      idxs[i] = sym ? build.mod(q, expr(sym)) : build.mod(q, shape[i]);
      if (sym || accValue) {
        Value dim = sym ? expr(sym) : constant(shape[i]);
        accValue = build.mul(accValue ? accValue : constant(acc), dim);
      } else {
        acc *= shape[i];
      }
    }
    return idxs;
  }

  OpBuilder &b;
  Location loc;
  sym::Build build;
  const llvm::StringMap<Value> &vars;
  Type i32;
};

/// `buf`'s #uop.swizzle, where it has one, and log2 of its element's bytes:
/// the swizzle is defined on byte offsets, the index counts elements.
struct ElementSwizzle {
  SwizzleAttr attr;
  int64_t elementShift;
  /// The swizzle's base counted in elements.
  int64_t base() const { return attr.getBase() - elementShift; }
};
static std::optional<ElementSwizzle> swizzleOf(Value buf) {
  auto local = buf.getDefiningOp<DefineLocalOp>();
  std::optional<SwizzleAttr> swizzle = local ? local.getSwizzle() : std::nullopt;
  if (!swizzle)
    return std::nullopt;
  auto ptr = cast<PtrType>(buf.getType());
  int64_t bytes = getScalarType(ptr.getElementType()).getIntOrFloatBitWidth() / 8;
  return ElementSwizzle{*swizzle, llvm::Log2_64(bytes)};
}

/// The number of elements after which `buf`'s swizzle repeats: adding a
/// multiple of it to a non-negative index adds the same to its place.
static int64_t swizzlePeriod(Value buf) {
  std::optional<ElementSwizzle> swizzle = swizzleOf(buf);
  return swizzle ? swizzle->attr.getPeriod() >> swizzle->elementShift : 1;
}

/// Where element `idx` of `buf` is stored: its place under the buffer's
/// #uop.swizzle (a define_local of a staged operand), computed on the byte
/// offset with divisions and remainders by powers of two (shifts and masks
/// once canonicalized), else `idx`.
Value swizzled(OpBuilder &b, Location loc, Value buf, Value idx, sym::Build::Made *made) {
  std::optional<ElementSwizzle> swizzle = swizzleOf(buf);
  if (!swizzle)
    return idx;
  SwizzleAttr attr = swizzle->attr;
  int64_t base = swizzle->base();
  int64_t mask = (int64_t(1) << attr.getBits()) - 1;
  sym::Build build(b, loc, made);
  // idx + ((lo ^ hi) - lo) << base, lo and hi the XORed bit fields.
  Value lo = build.mod(build.idiv(idx, int64_t(1) << base), mask + 1);
  Value hi = build.mod(build.idiv(idx, int64_t(1) << (base + attr.getShift())), mask + 1);
  Value x = XorOp::create(b, loc, idx.getType(), lo, hi);
  return build.add(idx, build.mul(build.sub(x, lo), int64_t(1) << base));
}

/// An INDEX of element `idx` of `buf`, gated by `valid` (may be null): at
/// its swizzled place, and in a cluster_map of n-element buffers at idx % n
/// of block idx / n's (its rank 0 where the gate is off: the address is
/// computed all the same, and must name a block of the cluster).
static Value element(OpBuilder &b, Location loc, Value buf, Value idx, Value valid,
                     sym::Build::Made *made) {
  idx = swizzled(b, loc, buf, idx, made);
  auto map = buf.getDefiningOp<ClusterMapOp>();
  if (!map || map.getRank())
    return IndexOp::create(b, loc, buf, idx, valid);
  sym::Build build(b, loc, made);
  auto local = cast<PtrType>(map.getBuf().getType());
  int64_t n = local.getSize();
  Value rank = build.idiv(idx, n);
  if (valid)
    rank = WhereOp::create(b, loc, rank.getType(), valid, rank, build.cst(rank.getType(), 0));
  auto peer = PtrType::get(local.getElementType(), n, AddressSpace::cluster);
  buf = ClusterMapOp::create(b, loc, peer, map.getBuf(), rank, map.getBlocks());
  return IndexOp::create(b, loc, buf, build.mod(idx, n), valid);
}

struct UOpLowerPass : mlir::uop::impl::UOpLowerBase<UOpLowerPass> {
  void runOnOperation() override {
    KernelOp kernel = getOperation();
    Block &body = kernel.getBodyBlock();
    SmallVector<ViewOp> views(body.getOps<ViewOp>());
    if (views.empty())
      return; // already lowered

    // The full shape: per dimension the largest size (the verifier made sure
    // each is 1 or n).
    SmallVector<int64_t> full(views.front().getShape().size(), 1);
    for (ViewOp v : views)
      for (auto [i, d] : llvm::enumerate(v.getShape()))
        full[i] = std::max(full[i], d);
    // A RANGE counts in int32, as tinygrad's do; the index math widens past
    // it (upcastIndex), a loop counter cannot.
    for (auto [i, d] : llvm::enumerate(full))
      if (d > INT32_MAX) {
        kernel.emitOpError() << "axis " << i << " has " << d
                             << " elements: a RANGE counts in int32, so an axis must have "
                                "fewer than 2^31 (reshape the views to split it)";
        return signalPassFailure();
      }
    llvm::SmallSet<int64_t, 8> reduced;
    for (ReduceAxisOp r : body.getOps<ReduceAxisOp>())
      reduced.insert(r.getAxes().begin(), r.getAxes().end());
    KernelInfoAttr info = UOpDialect::KernelInfoAttrHelper(&getContext()).getAttr(kernel);

    // Symbolic views: the kernel's variables by name, and per dimension its
    // expression where a view's size there is one (the verifier made sure
    // every view of the kernel has the same size on each axis, or 1).
    llvm::StringMap<Value> vars;
    for (DefineVarOp d : body.getOps<DefineVarOp>())
      vars[d.getName()] = d.getResult();
    SmallVector<SymEntryAttr> symFull(full.size());
    for (ViewOp v : views)
      for (ViewAttr view : v.getSt().getViews().take_back())
        for (size_t i = 0; i < full.size(); ++i)
          if (SymEntryAttr e = view.getSymAt(view.shapeSlot(i)))
            symFull[i] = e;

    // The define_vars first: the index math everywhere uses them.
    for (DefineVarOp d : llvm::make_early_inc_range(body.getOps<DefineVarOp>()))
      d->moveBefore(&body.front());
    OpBuilder b(&body, body.begin());
    for (Operation &op : body)
      if (isa<DefineVarOp>(op))
        b.setInsertionPointAfter(&op);
    // Each access's index math is built afresh, much of it alike (the same
    // constants, the same strides of the same ranges): the Indexers share
    // what they made, as tinygrad's hash-consed UOps are. They insert in
    // block order, at the top and then before each op lowered in turn.
    sym::Build::Made made;
    Indexer top(b, kernel.getLoc(), vars, &made);
    // The RANGE numbered `axis` over dimension `dim` of the full shape.
    auto range = [&](int64_t axis, int64_t dim, AxisKind kind) -> Value {
      Value end = symFull[dim] ? top.expr(symFull[dim]) : top.constant(full[dim]);
      return RangeOp::create(b, kernel.getLoc(), end.getType(), end, b.getI64IntegerAttr(axis),
                             AxisKindAttr::get(b.getContext(), kind));
    };
    SmallVector<Value> ranges;
    for (size_t i = 0; i < full.size(); ++i)
      ranges.push_back(range(i, i, axisKind(info, i, full.size(), reduced.contains(i))));

    // A grouped reduce reads the partial results of the threads of its
    // group from shared memory over ranges of its own (tinygrad's ridxs,
    // axis 1000 + a): the thread's local index stays for the store.
    SmallVector<Value> ridxs(ranges);
    SmallVector<int64_t> groupAxes = groupedAxes(body, info, full.size(), reduced);
    for (int64_t a : groupAxes)
      ridxs[a] = range(1000 + a, a, AxisKind::group_reduce);

    for (Operation &op : llvm::make_early_inc_range(body)) {
      b.setInsertionPoint(&op);
      Indexer ix(b, op.getLoc(), vars, &made);
      if (auto load = dyn_cast<LoadOp>(op)) {
        auto view = load.getPtr().getDefiningOp<ViewOp>();
        if (!view)
          continue;
        bool local = isLocal(view);
        auto [idx, valid] = ix.index(view.getSt(), local ? ridxs : ranges);
        Value ptr = element(b, op.getLoc(), view.getSrc(), idx, valid, &made);
        Value alt = valid ? zero(b, op.getLoc(), load.getType()) : Value();
        SmallVector<Value> deps(load.getDeps());
        if (local) // every thread's store is done before any reads
          deps = {BarrierOp::create(b, op.getLoc(), VoidType::get(b.getContext()), deps,
                                    throughCluster(view, deps) ? b.getUnitAttr() : UnitAttr())};
        op.replaceAllUsesWith(LoadOp::create(b, op.getLoc(), load.getType(), ptr, alt, deps));
        op.erase();
      } else if (auto store = dyn_cast<StoreOp>(op)) {
        auto view = store.getPtr().getDefiningOp<ViewOp>();
        if (!view)
          continue;
        auto [idx, valid] = ix.index(view.getSt(), ranges);
        // Of a group, only its first thread stores the grouped result.
        if (!isLocal(view))
          for (int64_t a : groupAxes)
            valid = ix.both(valid, ix.eq(ranges[a], 0));
        Value ptr = element(b, op.getLoc(), view.getSrc(), idx, valid, &made);
        op.replaceAllUsesWith(
            StoreOp::create(b, op.getLoc(), ptr, store.getValue(), Value(), Value()));
        op.erase();
      } else if (auto c = dyn_cast<ShapedConstOp>(op)) {
        auto view = c.getView().getDefiningOp<ViewOp>();
        auto [idx, valid] = ix.index(view.getSt(), ranges);
        Value plain = ConstOp::create(b, op.getLoc(), c.getType(), c.getValue());
        if (valid)
          plain = WhereOp::create(b, op.getLoc(), c.getType(), valid, plain,
                                  zero(b, op.getLoc(), c.getType()));
        op.replaceAllUsesWith(ValueRange{plain});
        op.erase();
      } else if (auto v = dyn_cast<ValidOp>(op)) {
        auto view = v.getView().getDefiningOp<ViewOp>();
        auto [idx, valid] = ix.index(view.getSt(), ranges);
        if (!valid)
          valid = ConstOp::create(b, op.getLoc(), b.getI1Type(), b.getBoolAttr(true));
        op.replaceAllUsesWith(ValueRange{valid});
        op.erase();
      } else if (auto copy = dyn_cast<CopyTileOp>(op)) {
        if (failed(lowerCopyTile(copy, ix, ranges, info, &made)))
          return signalPassFailure();
      } else if (isa<MBarrierInitOp, MBarrierExpectTxOp, MBarrierWaitOp, TensorCopyOp>(op)) {
        if (failed(lowerTensorCopyOp(&op, ix, ranges, &made)))
          return signalPassFailure();
      } else if (auto ld = dyn_cast<LdMatrixOp>(op)) {
        auto view = ld.getPtr().getDefiningOp<ViewOp>();
        if (!view)
          continue;
        auto [idx, valid] = ix.index(view.getSt(), ranges);
        if (valid) {
          ld.emitOpError() << "reads through a masked view: every lane must give a row address";
          return signalPassFailure();
        }
        idx = swizzled(b, op.getLoc(), view.getSrc(), idx, &made);
        Value ptr = IndexOp::create(b, op.getLoc(), view.getSrc(), idx, Value());
        op.replaceAllUsesWith(LdMatrixOp::create(b, op.getLoc(), ld.getType(), ptr, ld.getCount(),
                                                 ld.getTrans(), ld.getDeps()));
        op.erase();
      } else if (auto wmma = dyn_cast<WmmaOp>(op); wmma && wmma.isWgmma()) {
        // The tiles' starts, as for ldmatrix's rows.
        for (OpOperand *operand : {&wmma.getAMutable(), &wmma.getBMutable()}) {
          auto view = operand->get().getDefiningOp<ViewOp>();
          if (!view)
            continue;
          auto [idx, valid] = ix.index(view.getSt(), ranges);
          if (valid) {
            wmma.emitOpError() << "reads a tile through a masked view";
            return signalPassFailure();
          }
          idx = swizzled(b, op.getLoc(), view.getSrc(), idx, &made);
          operand->set(IndexOp::create(b, op.getLoc(), view.getSrc(), idx, Value()));
        }
      } else if (auto r = dyn_cast<ReduceAxisOp>(op)) {
        SmallVector<Value> over;
        for (int64_t a : r.getAxes())
          over.push_back(ridxs[a]);
        op.replaceAllUsesWith(
            ReduceOp::create(b, op.getLoc(), r.getType(), r.getKind(), r.getSrc(), over));
        op.erase();
      }
    }

    // As in tinygrad, only what the SINK reaches exists: drop what the
    // lowering left unused (the views, the index of a view only VALID read).
    // A view still in use has a use the lowering does not know: an error,
    // never a silently kept VIEW.
    for (Operation &op : llvm::make_early_inc_range(llvm::reverse(body))) {
      if (isOpTriviallyDead(&op)) {
        op.erase();
      } else if (isa<ViewOp>(op)) {
        op.emitOpError() << "is still used by " << *op.getUsers().begin()
                         << " after uop-lower; that use of a view cannot be lowered";
        return signalPassFailure();
      }
    }
  }

  /// COPY_TILE as each thread's 16-byte async copies: piece p of the tile
  /// (row-major, 16 bytes each) goes to the thread whose flat local index
  /// (the first local axis fastest, as uop-gpu-dims numbers threads) is
  /// p % threads, so a warp copies consecutive bytes.
  static LogicalResult lowerCopyTile(CopyTileOp copy, Indexer &ix, ArrayRef<Value> ranges,
                                     KernelInfoAttr info, sym::Build::Made *made) {
    OpBuilder b(copy);
    Location loc = copy.getLoc();
    auto dstView = copy.getDst().getDefiningOp<ViewOp>();
    auto srcView = copy.getSrc().getDefiningOp<ViewOp>();
    if (!dstView || !srcView)
      return copy.emitOpError() << "copies between VIEWs of buffers (the tile origins)";
    auto [src, srcValid] = ix.index(srcView.getSt(), ranges);
    auto [dst, dstValid] = ix.index(dstView.getSt(), ranges);
    if (dstValid)
      return copy.emitOpError() << "copies into a masked view";
    Type i32 = IntegerType::get(b.getContext(), 32, IntegerType::Signed);
    if (src.getType() != i32 || dst.getType() != i32)
      return copy.emitOpError() << "copies a tile whose indices leave int32";
    sym::Build build(b, loc, made);
    Value tid = ix.constant(0);
    int64_t threads = 1;
    int64_t rank = ranges.size();
    for (int64_t a = 0; a < rank; ++a)
      if (axisKind(info, a, rank, false) == AxisKind::local) {
        auto r = ranges[a].getDefiningOp<RangeOp>();
        std::optional<int64_t> size = r ? sym::intConst(r.getEnd()) : std::nullopt;
        if (!size)
          return copy.emitOpError() << "needs the block's size: local axis " << a << " is symbolic";
        tid = build.add(tid, build.mul(ranges[a], threads));
        threads *= *size;
      }
    auto ptr = cast<PtrType>(copy.getSrc().getType());
    int64_t esize = getScalarType(ptr.getElementType()).getIntOrFloatBitWidth() / 8;
    int64_t step = 16 / esize, perRow = copy.getCols() / step;
    int64_t pieces = copy.getRows() * perRow, perThread = (pieces + threads - 1) / threads;
    // Pieces past the end of the source buffer are not copied (a padded
    // operand's tile, STAGE): gated where the tile may reach that far.
    int64_t srcSize = ptr.getSize();
    int64_t reach = shape::ShapeTracker::fromAttr(srcView.getSt()).realSize() +
                    (copy.getRows() - 1) * copy.getSrcPitch() + copy.getCols() - 1; // elements
    bool bounded = srcSize != PtrType::kUnknownSize && reach > srcSize;
    // When the threads copy whole rows, a thread's piece j is its piece 0
    // moved j * rowsApart rows (tid >= 0), and pieces a whole number of
    // swizzle periods apart are swizzled alike: built so, most pieces'
    // index math is an add, not divisions the rules would have to prove
    // away for each piece.
    bool wholeRows = threads % perRow == 0;
    int64_t rowsApart = threads / perRow, apart = rowsApart * copy.getDstPitch();
    int64_t period = swizzlePeriod(dstView.getSrc());
    int64_t repeat = period / std::gcd(period, apart); // pieces after which the swizzle repeats
    auto at = [&](Value origin, Value row, Value col, int64_t pitch) {
      return build.add(build.add(origin, build.mul(row, pitch)), col);
    };
    // A piece's row and column in the tile, from its number.
    auto rowCol = [&](Value piece) {
      return std::pair{build.idiv(piece, perRow), build.mul(build.mod(piece, perRow), step)};
    };
    std::pair<Value, Value> first; // the thread's first piece's
    if (wholeRows)
      first = rowCol(tid);
    Value done;
    SmallVector<Value> deps(copy.getDeps()), places;
    for (int64_t j = 0; j < perThread; ++j) {
      auto piece = [&] { return build.add(tid, j * threads); }; // its number in the tile
      auto [row, col] = wholeRows ? std::pair{build.add(first.first, j * rowsApart), first.second}
                                  : rowCol(piece());
      Value s = at(src, row, col, copy.getSrcPitch());
      Value d = wholeRows && j >= repeat ? build.add(places[j % repeat], (j - j % repeat) * apart)
                                         : swizzled(b, loc, dstView.getSrc(),
                                                    at(dst, row, col, copy.getDstPitch()), made);
      places.push_back(d);
      Value gate = srcValid;
      if ((j + 1) * threads > pieces) // the last round, where fewer pieces than threads are left
        gate = ix.both(gate, build.lt(piece(), pieces));
      if (bounded)
        gate = ix.both(gate, build.lt(s, srcSize - step + 1));
      Value srcIndex = IndexOp::create(b, loc, srcView.getSrc(), s, gate);
      Value dstIndex = IndexOp::create(b, loc, dstView.getSrc(), d, Value());
      done =
          AsyncCopyOp::create(b, loc, VoidType::get(b.getContext()), dstIndex, srcIndex, 16, deps);
      deps = {done};
    }
    copy.getResult().replaceAllUsesWith(done);
    copy.erase();
    return success();
  }

  /// A TMA copy or an mbarrier op on INDEXes: each VIEW of a buffer becomes
  /// the INDEX of its element, gated where the view is masked off (the
  /// threads that do nothing); a tensor copy's source also gives the tile's
  /// column and row in its tensor map, which the op now carries.
  static LogicalResult lowerTensorCopyOp(Operation *op, Indexer &ix, ArrayRef<Value> ranges,
                                         sym::Build::Made *made) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    // The INDEX of `v`, a VIEW of a buffer (`what`), gated where the view is
    // masked off if `gated` allows a mask.
    auto index = [&](Value v, StringRef what, bool gated = false) -> FailureOr<Value> {
      auto view = v.getDefiningOp<ViewOp>();
      if (!view || !view.getSrc())
        return op->emitOpError() << "takes " << what << " as a VIEW of a buffer";
      auto [idx, valid] = ix.index(view.getSt(), ranges);
      if (valid && !gated)
        return op->emitOpError() << "takes " << what << " through a masked view";
      return IndexOp::create(b, loc, view.getSrc(), idx, valid).getResult();
    };
    // The index of `v`, a VIEW without a source (a number the op takes).
    auto number = [&](Value v, StringRef what) -> FailureOr<Value> {
      auto view = v.getDefiningOp<ViewOp>();
      if (!view || view.getSrc())
        return op->emitOpError() << "takes " << what << " as a VIEW without a source";
      auto [idx, valid] = ix.index(view.getSt(), ranges);
      if (valid)
        return op->emitOpError() << "takes " << what << " through a masked view";
      return idx;
    };
    Type voidType = VoidType::get(b.getContext());
    Operation *lowered = nullptr;
    if (auto init = dyn_cast<MBarrierInitOp>(op)) {
      FailureOr<Value> bar = index(init.getBar(), "its mbarrier", /*gated=*/true);
      if (failed(bar))
        return failure();
      lowered = MBarrierInitOp::create(b, loc, voidType, *bar, init.getCount(), init.getDeps());
    } else if (auto expect = dyn_cast<MBarrierExpectTxOp>(op)) {
      FailureOr<Value> bar = index(expect.getBar(), "its mbarrier", /*gated=*/true);
      if (failed(bar))
        return failure();
      lowered =
          MBarrierExpectTxOp::create(b, loc, voidType, *bar, expect.getBytes(), expect.getDeps());
    } else if (auto wait = dyn_cast<MBarrierWaitOp>(op)) {
      FailureOr<Value> bar = index(wait.getBar(), "its mbarrier");
      FailureOr<Value> phase = number(wait.getPhase(), "its phase");
      if (failed(bar) || failed(phase))
        return failure();
      lowered = MBarrierWaitOp::create(b, loc, voidType, *bar, *phase, wait.getDeps());
    } else {
      auto copy = cast<TensorCopyOp>(op);
      FailureOr<Value> dst = index(copy.getDst(), "its destination");
      FailureOr<Value> bar = index(copy.getBar(), "its mbarrier");
      FailureOr<Value> src = index(copy.getSrc(), "its source", /*gated=*/true);
      FailureOr<Value> shift =
          copy.getShift() ? number(copy.getShift(), "its multicast mask's shift") : Value();
      if (failed(dst) || failed(bar) || failed(src) || failed(shift))
        return failure();
      FailureOr<TensorMapAttr> map = tensorMapOf(copy);
      if (failed(map))
        return failure();
      // The tile's first element is at column idx % pitch of row idx / pitch
      // (int32: the map has fewer than 2^31 rows, tensorMapOf checked).
      sym::Build build(b, loc, made);
      Value idx = (*src).getDefiningOp<IndexOp>().getIdx();
      Value coords[2] = {build.mod(idx, copy.getPitch()), build.idiv(idx, copy.getPitch())};
      Type i32 = IntegerType::get(b.getContext(), 32, IntegerType::Signed);
      for (Value &c : coords)
        if (c.getType() != i32)
          c = CastOp::create(b, loc, i32, c);
      lowered = TensorCopyOp::create(b, loc, voidType, *dst, *src, coords, copy.getRows(),
                                     copy.getCols(), copy.getPitch(), *bar, *shift,
                                     copy.getReceiversAttr(), *map, copy.getDeps());
    }
    op->getResult(0).replaceAllUsesWith(lowered->getResult(0));
    op->erase();
    return success();
  }

  /// The tensor map a TMA copy reads through: its buffer as rows of `pitch`
  /// elements (as many whole rows as it holds), boxes of the tile, swizzled
  /// as the destination's define_local.
  static FailureOr<TensorMapAttr> tensorMapOf(TensorCopyOp copy) {
    auto src = copy.getSrc().getDefiningOp<ViewOp>().getSrc();
    auto global = src.getDefiningOp<DefineGlobalOp>();
    auto ptr = cast<PtrType>(src.getType());
    if (!global || ptr.getSize() == PtrType::kUnknownSize || ptr.getSize() < copy.getPitch() ||
        ptr.getSize() / copy.getPitch() > INT32_MAX)
      return copy.emitOpError() << "copies from a kernel buffer of known size, 1 to 2^31 - 1 rows "
                                << "of " << copy.getPitch() << " elements";
    Type elem = ptr.getElementType();
    int64_t bytes = elem.getIntOrFloatBitWidth() / 8, swizzle = 0;
    auto local = copy.getDst().getDefiningOp<ViewOp>().getSrc().getDefiningOp<DefineLocalOp>();
    if (!local)
      return copy.emitOpError() << "copies into a define_local";
    if (std::optional<SwizzleAttr> s = local.getSwizzle()) {
      if (s->getBase() != 4 || s->getShift() != 3)
        return copy.emitOpError() << "copies into a buffer swizzled as " << *s
                                  << ", not as the TMA swizzles (<1|2|3, 4, 3>)";
      swizzle = int64_t(16) << s->getBits();
    }
    auto emitError = [&]() -> InFlightDiagnostic {
      return copy.emitOpError() << "cannot be copied by the TMA: ";
    };
    int64_t pitch = copy.getPitch(), rows = copy.getRows(), cols = copy.getCols();
    SmallVector<int64_t> sizes{pitch, ptr.getSize() / pitch}, strides{pitch * bytes},
        box{cols, rows};
    if (failed(TensorMapAttr::verify(emitError, global.getIndex(), elem, sizes, strides, box,
                                     swizzle)))
      return failure();
    return TensorMapAttr::get(copy.getContext(), global.getIndex(), elem, sizes, strides, box,
                              swizzle);
  }

  /// The role of axis i of a kernel of rank `rank` (tinygrad's lowerer and
  /// gpudims). Without a kernel info (not optimized), kept axes are global.
  static AxisKind axisKind(KernelInfoAttr info, int64_t i, int64_t rank, bool reduced) {
    if (!info)
      return reduced ? AxisKind::reduce : AxisKind::global;
    if (i >= rank - info.getUpcasted())
      return reduced ? AxisKind::unroll : AxisKind::upcast;
    if (i < info.getGlobalDims())
      return AxisKind::global;
    if (i < info.getGlobalDims() + info.getLocalDims())
      return AxisKind::local;
    return reduced ? AxisKind::reduce : AxisKind::loop;
  }

  /// A view of shared memory: the block's own (a define_local) or the
  /// cluster's (a cluster_map of one).
  static bool isLocal(ViewOp view) {
    return view.getSrc() &&
           isa_and_present<DefineLocalOp, ClusterMapOp>(view.getSrc().getDefiningOp());
  }

  /// Whether a load from `view` after `deps` reads or follows stores of
  /// other blocks of the cluster: then its barrier is the cluster's.
  static bool throughCluster(ViewOp view, ValueRange deps) {
    auto cluster = [](Value ptr) {
      return cast<PtrType>(ptr.getType()).getAddressSpace() == AddressSpace::cluster;
    };
    return cluster(view.getSrc()) || llvm::any_of(deps, [&](Value d) {
             auto store = d.getDefiningOp<StoreOp>();
             return store && cluster(store.getPtr());
           });
  }

  /// The grouped reduce axes: from the first reduce axis on, those where a
  /// load from shared memory has another shape than the kernel's output.
  static SmallVector<int64_t> groupedAxes(Block &body, KernelInfoAttr info, int64_t rank,
                                          const llvm::SmallSet<int64_t, 8> &reduced) {
    int64_t firstUpcast = rank - (info ? info.getUpcasted() : 0), first = firstUpcast;
    for (int64_t a : reduced)
      first = std::min(first, a);
    ViewOp out;
    SmallVector<ViewOp> localLoads;
    for (Operation &op : body) {
      if (auto store = dyn_cast<StoreOp>(op); store && !out)
        if (auto v = store.getPtr().getDefiningOp<ViewOp>(); v && !isLocal(v))
          out = v;
      if (auto load = dyn_cast<LoadOp>(op))
        if (auto v = load.getPtr().getDefiningOp<ViewOp>(); v && isLocal(v))
          localLoads.push_back(v);
    }
    SmallVector<int64_t> axes;
    for (int64_t i = first; out && i < firstUpcast; ++i)
      if (llvm::any_of(localLoads, [&](ViewOp v) { return v.getShape()[i] != out.getShape()[i]; }))
        axes.push_back(i);
    return axes;
  }

  static Value zero(OpBuilder &b, Location loc, Type t) {
    return ConstOp::create(b, loc, t, cast<TypedAttr>(b.getZeroAttr(t)));
  }
};

} // namespace

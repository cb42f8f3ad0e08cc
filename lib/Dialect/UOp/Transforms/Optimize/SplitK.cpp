//===- SplitK.cpp - SPLITK: a sum split between the blocks of a cluster ---===//
//
// Not tinygrad's. SPLITK:axis:2 moves the outer half of a reduce loop axis
// to a new global axis, so that each of two blocks sums half the reduce;
// the pair are one thread-block cluster along that axis (sm_90). Their
// partial sums meet in distributed shared memory (uop.cluster_map), and
// each block finishes half of the block's outputs: along an upcast axis of
// the output (the partition axis, 2H values per thread) block s keeps
// values [sH, sH + H) and gives the others to its peer:
//
//   push: each value of the peer's half -> the peer's buffer
//   barrier (the cluster's: uop-lower makes it so)
//   pull: own half + what the peer pushed -> the output
//
// So each partial crosses once, half of it per block, and no block reads
// another's memory after the barrier (it may exit). Where the buffer does
// not fit beside the staged ones, the exchange takes rounds, each a part
// of another value axis, with a cluster barrier after each round's stores
// (the peer has read its buffer) before the next round's push. In the buffer a
// thread's values lie T threads apart (but for a vector of them, kept
// together), so that a warp's stores and loads are 32 consecutive words
// (or vectors).
//
//===----------------------------------------------------------------------===//

#include "Kernel.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::uop;
using shape::Shape;
using shape::ShapeTracker;
using shape::View;

/// Row-major strides of `sizes` (a view's: 0 on axes of 1), each times
/// `scale`.
static SmallVector<int64_t> rowMajor(ArrayRef<int64_t> sizes, int64_t scale) {
  SmallVector<int64_t> strides = ViewAttr::stridesForShape(sizes);
  for (int64_t &s : strides)
    s *= scale;
  return strides;
}

/// Where a view needs a condition on x_a + c x_b (x_a, x_b coordinates of
/// `shape` along axes a and b), which no single view's mask is: an inner
/// view over `middle`, `shape` with axis a replaced by j = x_a + c x_b -
/// min (b kept), masked on j, under an outer view of `shape` that maps
/// there.
struct Combination {
  int64_t a, b, c, min;
  Shape shape, middle;

  Combination(ArrayRef<int64_t> s, int64_t a, int64_t b, int64_t c) : a(a), b(b), c(c), shape(s) {
    int64_t reach = c * (shape[b] - 1);
    min = std::min<int64_t>(0, reach);
    middle = shape;
    middle[a] = shape[a] + std::abs(reach);
  }
  /// The mask of lo <= x_a + c x_b < hi, on `middle`, and of `range` on
  /// `axis` (-1: none).
  shape::Mask mask(int64_t lo, int64_t hi, int64_t axis = -1,
                   std::pair<int64_t, int64_t> range = {}) const {
    shape::Mask m;
    for (int64_t size : middle)
      m.push_back({0, size});
    m[a] = {std::clamp(lo - min, int64_t(0), middle[a]), std::clamp(hi - min, int64_t(0), middle[a])};
    if (axis >= 0)
      m[axis] = range;
    return m;
  }
  /// `inner` (over `middle`) under the outer view of `shape`.
  ShapeTracker over(ShapeTracker inner) const {
    SmallVector<int64_t> rm = rowMajor(middle, 1), strides(rm);
    strides[b] += c * rm[a];
    inner.views.push_back(View::create(shape, strides, -min * rm[a]));
    return inner;
  }
};

/// `st` valid only where lo <= x_a + c x_b < hi (and on `axis` in
/// `range`): a view of `middle` onto st's own (x_a = j + min - c x_b),
/// masked.
static ShapeTracker maskCombination(ShapeTracker st, int64_t a, int64_t b, int64_t c, int64_t lo,
                                    int64_t hi, int64_t axis, std::pair<int64_t, int64_t> range) {
  Combination comb(st.shape(), a, b, c);
  SmallVector<int64_t> rm = rowMajor(comb.shape, 1), strides(rm);
  strides[b] -= c * rm[a];
  st.views.push_back(
      View::create(comb.middle, strides, rm[a] * comb.min, comb.mask(lo, hi, axis, range)));
  return comb.over(st);
}

std::optional<OptKernel::SplitPlan> OptKernel::splitPlan(int64_t rounds) const {
  if (splitAxis < 0)
    return std::nullopt;
  ArrayRef<int64_t> out = outputShape();
  SplitPlan plan;
  plan.rounds = rounds;
  int64_t gd = globalDims();
  plan.threads = prod(out.slice(gd, localDims));
  // The partition: of the value axes of even size, the one whose values
  // lie farthest apart in the output, so that the values a thread stores
  // together (a vector) stay in one block's half.
  const View &stored = sts[0].views.back();
  int64_t apart = -1;
  for (int64_t a = firstUpcast(); a < shapeLen(); ++a) {
    if (out[a] == 1)
      continue;
    plan.valueAxes.push_back(a);
    if (out[a] % 2 == 0 && std::abs(stored.strides[a]) > apart) {
      plan.partition = a;
      apart = std::abs(stored.strides[a]);
    }
  }
  if (plan.partition < 0)
    return plan;
  // A value axis contiguous in the output (up to 4 values: a vector) is
  // contiguous in the buffer too, so that loads and stores stay vectors:
  // the buffer is [other values][threads][contiguous values].
  int64_t vector = -1;
  for (int64_t a : plan.valueAxes)
    if (a != plan.partition && std::abs(stored.strides[a]) == 1 && out[a] <= 4)
      vector = a;
  plan.threadStride = vector < 0 ? 1 : out[vector];
  // The rounds take the values of the largest other axis they divide in
  // turn, the buffer holding one round's.
  if (rounds > 1) {
    for (int64_t a : plan.valueAxes)
      if (a != plan.partition && a != vector && out[a] % rounds == 0 &&
          (plan.roundAxis < 0 || out[a] > out[plan.roundAxis]))
        plan.roundAxis = a;
    if (plan.roundAxis < 0)
      return plan;
  }
  SmallVector<int64_t> values;
  for (int64_t a : plan.valueAxes)
    if (a != vector)
      values.push_back(plan.partition == a   ? out[a] / 2
                       : plan.roundAxis == a ? out[a] / rounds
                                             : out[a]);
  plan.half = out[plan.partition] / 2;
  plan.elements = plan.threads * plan.threadStride * prod(values);
  SmallVector<int64_t> strides = rowMajor(values, plan.threads * plan.threadStride);
  size_t next = 0;
  for (int64_t a : plan.valueAxes)
    plan.valueStrides.push_back(a == vector ? 1 : strides[next++]);
  return plan;
}

int64_t OptKernel::splitKBytes(int64_t rounds) const {
  std::optional<SplitPlan> plan = splitPlan(rounds);
  if (!plan || plan->partition < 0)
    return 0;
  if (rounds > 1 && plan->roundAxis < 0)
    return -1;
  Type t = reduceop().getType();
  return plan->elements * std::max<int64_t>(1, getScalarType(t).getIntOrFloatBitWidth() / 8);
}

int64_t OptKernel::splitRoundsWithin(int64_t bytes) const {
  for (int64_t rounds = 1; rounds <= 16; rounds *= 2)
    if (int64_t need = splitKBytes(rounds); need >= 0 && need <= bytes)
      return rounds;
  return 0;
}

llvm::Error OptKernel::applySplitK(int64_t axis, int64_t amt) {
  CHECK(target.hasClusters, "SPLITK adds partial sums across a thread-block cluster, which needs "
                            "sm_90 or later, not " +
                                target.name);
  CHECK(amt == 2, "SPLITK splits a sum between 2 blocks, not " + std::to_string(amt));
  CHECK(splitAxis < 0, "the sum is split already");
  ReduceAxisOp r = reduceop();
  CHECK(reduceops.size() == 1 && r.getKind() == ReduceKind::add && groupForReduces == 0,
        "SPLITK splits a kernel's one sum, not grouped");
  CHECK(firstReduce() <= axis && axis < firstUpcast(), "SPLITK splits a reduce loop axis");
  CHECK(!dontUseLocals, "SPLITK's blocks are a cluster, which NOLOCALS does without");
  CHECK(!symbolic(), "SPLITK needs a grid of known size");
  CHECK(globalDims() < 3, "SPLITK adds a global axis, and the kernel has 3 already (one per "
                          "grid dimension)");
  int64_t gd = globalDims();
  if (llvm::Error e = shiftTo(axis, amt, /*top=*/true, gd))
    return e;
  // The new axis is a global one of every view: those that reduced it
  // (the output's among them) see each half's partial sum.
  for (ShapeTracker &st : sts)
    if (st.shape()[gd] == 1) {
      Shape expanded(st.shape());
      expanded[gd] = amt;
      st = st.expand(expanded);
    }
  if (tcOpts && tcOpts->axes[2] >= gd)
    ++tcOpts->axes[2];
  splitAxis = gd;
  cluster.assign(globalDims(), 1);
  cluster[gd] = amt;
  std::optional<SplitPlan> plan = splitPlan();
  CHECK(plan->partition >= 0, "SPLITK needs an upcast axis of the output of even size (its "
                              "blocks finish half of it each): UPCAST first");
  splitRounds = splitRoundsWithin(target.sharedMax);
  CHECK(splitRounds > 0, "exceeds maximum shared memory size: SPLITK's exchange needs " +
                             std::to_string(splitKBytes()) + " bytes, max " +
                             std::to_string(target.sharedMax) + ", and no rounds divide it");
  return llvm::Error::success();
}

void OptKernel::writeSplitK(ReduceAxisOp r) {
  SplitPlan plan = *splitPlan(splitRounds);
  MLIRContext *ctx = kernel.getContext();
  ArrayRef<int64_t> shape = outputShape();
  int64_t gd = globalDims(), sa = splitAxis, p = plan.partition, h = plan.half;
  int64_t blocks = prod(cluster), n = plan.elements, w = plan.roundAxis;

  // Element (thread, values) of a block's buffer, j - H along the
  // partition axis: the push's j is u + sH (the peer's half: H <= j < 2H),
  // the pull's u - sH + H (its own).
  SmallVector<int64_t> strides(shape.size(), 0);
  // A thread's linear id counts its first local axis fastest (uop-gpu-dims
  // groups them so), which keeps a warp's 32 words on 32 banks.
  for (int64_t i = 0, stride = plan.threadStride; i < localDims; stride *= shape[gd + i++])
    strides[gd + i] = stride;
  for (auto [a, s] : llvm::zip(plan.valueAxes, plan.valueStrides))
    strides[a] = s;
  int64_t step = strides[p];

  // Push: into the peer's buffer, whose %cluster_ctarank is this block's
  // on the other global axes (x fastest), and 1 - s times the split
  // axis's place value.
  SmallVector<int64_t> rank(gd, 1), extra(gd, 0);
  for (int64_t a = gd - 2; a >= 0; --a)
    rank[a] = rank[a + 1] * cluster[a + 1];
  for (int64_t a = 0; a < gd; ++a)
    if (a != sa)
      extra[a] = rank[a] * n;
  SmallVector<int64_t> push(strides);
  push[sa] = -rank[sa] * n;
  Combination peer(shape, p, sa, h), own(shape, p, sa, -h);

  // The output's store, and the ops between the sum and it (a cast), which
  // each round after the first repeats for its values.
  auto store = cast<StoreOp>(bufs[0]);
  ShapeTracker output = sts[0];
  Value partial = r.getResult();
  llvm::SmallPtrSet<Operation *, 16> needed; // what the store reads
  SmallVector<Operation *> work{store};
  while (!work.empty()) {
    Operation *op = work.pop_back_val();
    if (needed.insert(op).second)
      for (Value v : op->getOperands())
        if (Operation *def = v.getDefiningOp())
          work.push_back(def);
  }
  llvm::SetVector<Operation *> chain;
  for (Operation &op : kernel.getBodyBlock())
    if (needed.contains(&op) &&
        (&op == store.getOperation() || llvm::any_of(op.getOperands(), [&](Value v) {
          return v == partial || chain.contains(v.getDefiningOp());
        })))
      chain.insert(&op);

  OpBuilder b(r->getNextNode());
  Location loc = r.getLoc();
  Type t = r.getType();
  auto local = PtrType::get(t, n, AddressSpace::local);
  Value buf = DefineLocalOp::create(b, loc, local, b.getStringAttr("splitk"), SwizzleAttr());
  Value all = ClusterMapOp::create(b, loc, PtrType::get(t, blocks * n, AddressSpace::cluster), buf,
                                   Value(), blocks);
  SinkOp sink = kernel.getSink();
  Value after; // the barrier after the last round's stores
  Value first; // the first round's sum
  for (int64_t q = 0; q < plan.rounds; ++q) {
    // Round q: the values w in [q W/R, (q+1) W/R), at w - q W/R.
    std::pair<int64_t, int64_t> range{0, 0};
    int64_t shift = 0;
    if (w >= 0) {
      int64_t per = shape[w] / plan.rounds;
      range = {q * per, (q + 1) * per};
      shift = -q * per * strides[w];
    }
    ShapeTracker pushSt = peer.over(
        clusteredView(ShapeTracker{{View::create(peer.middle, push, rank[sa] * n - h * step + shift,
                                                 peer.mask(h, 2 * h, w, range))}},
                      extra));
    ShapeTracker pullSt = own.over(ShapeTracker{
        {View::create(own.middle, strides, -h * step + shift, own.mask(0, h, w, range))}});
    ShapeTracker outSt = maskCombination(output, p, sa, -h, 0, h, w, range);

    if (q > 0) // the rounds after the first follow the last one's stores
      b.setInsertionPoint(sink);
    Value pushed =
        StoreOp::create(b, loc, ViewOp::create(b, loc, all.getType(), all, pushSt.toAttr(ctx)),
                        partial, Value(), Value());
    SmallVector<Value> deps{pushed};
    if (after) // the peer has read the last round's from this block's buffer
      deps.insert(deps.begin(), after);
    Value given = LoadOp::create(b, loc, t, ViewOp::create(b, loc, local, buf, pullSt.toAttr(ctx)),
                                 Value(), deps);
    Value total = AddOp::create(b, loc, t, partial, given);
    Operation *stored;
    if (q == 0) {
      partial.replaceUsesWithIf(total,
                                [&](OpOperand &use) { return chain.contains(use.getOwner()); });
      first = total;
      bufViews[0].setStAttr(outSt.toAttr(ctx));
      stored = store;
    } else {
      auto view = store.getPtr().getDefiningOp<ViewOp>();
      IRMapping map; // the chain reads the first round's sum now
      map.map(first, total);
      map.map(view.getResult(),
              ViewOp::create(b, loc, view.getType(), view.getSrc(), outSt.toAttr(ctx)));
      for (Operation *op : chain)
        b.clone(*op, map);
      stored = map.lookup(store.getResult()).getDefiningOp();
      sink->insertOperands(sink->getNumOperands(), stored->getResult(0));
    }
    if (q + 1 < plan.rounds) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointAfter(stored);
      after = BarrierOp::create(b, loc, VoidType::get(ctx), ValueRange{stored->getResult(0)},
                                b.getUnitAttr());
    }
  }
}

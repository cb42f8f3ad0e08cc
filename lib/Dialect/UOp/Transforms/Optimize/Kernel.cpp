//===- Kernel.cpp - tinygrad's Kernel: state, simplifiers, apply_opt ------===//

#include "Kernel.h"

#include "uop/Dialect/UOp/Utils/AstShapes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::uop;
using shape::Shape;
using shape::ShapeTracker;
using sym::AffineSum;

namespace {
/// The VIEW a buffer op reads its shape from (tinygrad's st_arg).
ViewOp viewOf(Operation &op) {
  auto buffer = dyn_cast<BufferOpInterface>(op);
  return buffer ? buffer.getView() : ViewOp();
}
} // namespace

int64_t OptKernel::firstReduce() const {
  ArrayRef<int64_t> out = outputShape(), full = fullShape();
  for (int64_t i = 0; i < firstUpcast(); ++i)
    if (out[i] != full[i])
      return i;
  return firstUpcast();
}

bool OptKernel::isSymbolic(int64_t axis, int64_t st) const {
  if (!symbolic())
    return false;
  return !symSts[st < 0 ? symSts.size() - 1 : st].shape()[axis].isConstant();
}

bool OptKernel::divides(int64_t axis, int64_t amount) const {
  return !isSymbolic(axis) && fullShape()[axis] % amount == 0;
}

int64_t OptKernel::bufIndex(Operation *op) const {
  auto it = llvm::find(bufs, op);
  return it == bufs.end() ? -1 : it - bufs.begin();
}

SmallVector<OptKernel::UpcastedAxis> OptKernel::upcastedAxis(int64_t i) const {
  SmallVector<UpcastedAxis> out;
  shape::RealStrides strides = sts[i].realStrides();
  for (int64_t a = firstUpcast(); a < shapeLen(); ++a)
    out.push_back({sts[i].shape()[a], strides[a], sts[0].shape()[a] != fullShape()[a]});
  return out;
}

std::optional<OptKernel> OptKernel::create(KernelOp kernel, const OptTarget &target) {
  OptKernel k(kernel, target);
  Block &body = kernel.getBodyBlock();
  for (Operation &op : llvm::reverse(body)) {
    if (ViewOp view = viewOf(op)) {
      k.bufs.push_back(&op);
      k.bufViews.push_back(view);
    }
  }
  for (ReduceAxisOp r : body.getOps<ReduceAxisOp>())
    k.reduceops.push_back(r);
  if (k.bufs.empty() || !isa<StoreOp>(k.bufs[0])) {
    kernel.emitOpError() << "has no STORE through a VIEW: uop-optimize takes a kernel AST";
    return std::nullopt;
  }
  for (ViewOp v : k.bufViews) {
    k.sts.push_back(ShapeTracker::fromAttr(v.getSt()));
    k.maskedBeforeOpts.push_back(k.sts.back().hasMask());
  }
  FailureOr<AstShapes> shapes = AstShapes::infer(body);
  if (failed(shapes))
    return std::nullopt;
  auto shapeOf = [&](Value v) {
    const SmallVector<int64_t> *s = shapes->lookup(v);
    return s ? Shape(*s) : Shape();
  };
  for (ReduceAxisOp r : k.reduceops) {
    k.sts.push_back(ShapeTracker::fromShape(shapeOf(r.getResult())));
    // The source's st: its own view when it is a buffer op (real strides).
    Operation *src = r.getSrc().getDefiningOp();
    ViewOp srcView = src ? viewOf(*src) : ViewOp();
    k.sts.push_back(srcView ? ShapeTracker::fromAttr(srcView.getSt())
                            : ShapeTracker::fromShape(shapeOf(r.getSrc())));
  }
  for (const ShapeTracker &st : k.sts)
    if (st.rank() != k.sts[0].rank()) {
      kernel.emitOpError() << "reduces a value without a shape (no VIEW reaches it): "
                              "uop-optimize needs every reduce over the kernel's shape";
      return std::nullopt;
    }
  Shape full(k.sts[0].rank(), 1);
  for (const ShapeTracker &st : k.sts)
    for (auto [i, d] : llvm::enumerate(st.shape()))
      full[i] = std::max(full[i], d);
  k.sts.push_back(ShapeTracker::fromShape(full, SmallVector<int64_t>(full.size(), 0)));

  auto failed = [&](llvm::Error e) {
    kernel.emitOpError() << "has symbolic shapes the optimizer cannot follow: "
                         << llvm::toString(std::move(e));
    return std::nullopt;
  };
  if (hasSymbolicViews(kernel))
    if (llvm::Error e = k.createSymbolic())
      return failed(std::move(e));

  // tinygrad's optimizer needs the reduce axes last, where its scheduler
  // puts them; a hand-written kernel may have them anywhere: move them.
  SmallVector<int64_t> kept, reducedAxes;
  for (int64_t i = 0; i < k.shapeLen(); ++i)
    (k.outputShape()[i] != k.fullShape()[i] ? reducedAxes : kept).push_back(i);
  llvm::append_range(kept, reducedAxes);
  if (!llvm::is_sorted(kept))
    if (llvm::Error e = k.reshapeAndPermute(nullptr, kept))
      return failed(std::move(e));

  if (llvm::Expected<bool> ones = k.simplifyOnes(); !ones)
    return failed(ones.takeError());
  if (llvm::Error e = k.simplifyMergeAdjacent())
    return failed(std::move(e));
  return k;
}

bool OptKernel::hasSymbolicViews(KernelOp kernel) {
  return llvm::any_of(kernel.getBodyBlock().getOps<ViewOp>(), [](ViewOp v) {
    return llvm::any_of(v.getSt().getViews(), [](ViewAttr x) { return x.isSymbolic(); });
  });
}

llvm::Error OptKernel::createSymbolic() {
  auto error = [](const Twine &msg) { return llvm::createStringError(msg); };
  for (DefineVarOp v : kernel.getBodyBlock().getOps<DefineVarOp>())
    varRanges[v.getName()] = {v.getMin(), v.getMax()};
  for (ViewOp v : bufViews)
    symSts.push_back(shape::SymShapeTracker::fromAttr(v.getSt(), varRanges));

  // The full shape: each axis's size where a buffer's is not 1.
  shape::SymShape full;
  for (int64_t i = 0; i < shapeLen(); ++i) {
    AffineSum size = AffineSum::ofConstant(1);
    for (const shape::SymShapeTracker &st : symSts) {
      const AffineSum &s = st.shape()[i];
      if (s.isConstant(1) || s == size)
        continue;
      if (!size.isConstant(1))
        return error("axis " + Twine(i) + " has two different sizes in the views");
      size = s;
    }
    // The bounds stand for symbolic sizes: one of 1 could not say which
    // axes a reduce removed.
    if (size.isConstant() ? size.constant != fullShape()[i] : fullShape()[i] <= 1)
      return error("axis " + Twine(i) + " has a size the views do not give");
    full.push_back(size);
  }
  // A reduce's shapes: the full shape where its own is not 1.
  auto like = [&](const ShapeTracker &st) -> llvm::Expected<shape::SymShapeTracker> {
    shape::SymShape s;
    for (auto [d, f] : llvm::zip(st.shape(), full))
      s.push_back(d == 1 ? AffineSum::ofConstant(1) : f);
    if (std::optional<shape::SymShapeTracker> out = shape::SymShapeTracker::fromShape(s))
      return *out;
    return error("the row-major strides of a reduce's shape are not affine in the variables");
  };
  for (ReduceAxisOp r : reduceops) {
    for (int side = 0; side < 2; ++side) {
      Operation *src = side ? r.getSrc().getDefiningOp() : nullptr;
      if (ViewOp srcView = src ? viewOf(*src) : ViewOp()) {
        symSts.push_back(shape::SymShapeTracker::fromAttr(srcView.getSt(), varRanges));
        continue;
      }
      llvm::Expected<shape::SymShapeTracker> st = like(sts[symSts.size()]);
      if (!st)
        return st.takeError();
      symSts.push_back(std::move(*st));
    }
  }
  SmallVector<AffineSum> zeros(full.size(), AffineSum::ofConstant(0));
  symSts.push_back(*shape::SymShapeTracker::fromShape(full, ArrayRef<AffineSum>(zeros)));
  return projectSymbolic();
}

llvm::Error OptKernel::projectSymbolic() {
  for (auto [st, sym] : llvm::zip(sts, symSts)) {
    FailureOr<ShapeTrackerAttr> attr = sym.toAttr(kernel.getContext(), varRanges);
    if (failed(attr))
      return llvm::createStringError("a symbolic entry's bounds leave int64");
    st = ShapeTracker::fromAttr(*attr);
  }
  return llvm::Error::success();
}

llvm::Error OptKernel::reshapeAndPermute(function_ref<Shape(ArrayRef<int64_t>)> newShape,
                                         ArrayRef<int64_t> perm,
                                         function_ref<bool(shape::SymShapeTracker &)> symReshape) {
  if (symbolic()) {
    for (shape::SymShapeTracker &st : symSts) {
      if (newShape && !symReshape(st))
        return llvm::createStringError("a symbolic view cannot be reshaped exactly");
      if (!perm.empty())
        st.permute(perm);
    }
    return projectSymbolic();
  }
  for (ShapeTracker &st : sts) {
    if (newShape)
      st = st.reshape(newShape(st.shape()));
    if (!perm.empty())
      st = st.permute(perm);
  }
  return llvm::Error::success();
}

llvm::Error OptKernel::shiftTo(int64_t axis, int64_t amount, bool top,
                               std::optional<int64_t> insertBefore) {
  int64_t before = insertBefore.value_or(shapeLen());
  int64_t move = top ? axis : axis + 1;
  if (move < before)
    ++before;
  auto split = [&](ArrayRef<int64_t> s) {
    Shape out(s.take_front(axis));
    if (s[axis] > 1) {
      out.push_back(top ? amount : s[axis] / amount);
      out.push_back(top ? s[axis] / amount : amount);
    } else {
      out.append({1, 1});
    }
    out.append(s.begin() + axis + 1, s.end());
    return out;
  };
  SmallVector<int64_t> perm;
  for (int64_t i = 0; i < before; ++i)
    if (i != move)
      perm.push_back(i);
  perm.push_back(move);
  for (int64_t i = before; i < shapeLen() + 1; ++i)
    if (i != move)
      perm.push_back(i);
  auto symSplit = [&](shape::SymShapeTracker &st) {
    const AffineSum &s = st.shape()[axis];
    if (s.isConstant(1))
      return st.split(axis, 1, 1);
    return s.isConstant() &&
           st.split(axis, top ? amount : s.constant / amount, top ? s.constant / amount : amount);
  };
  return reshapeAndPermute(split, perm, symSplit);
}

llvm::Expected<bool> OptKernel::simplifyOnes() {
  if (shapeLen() == 0)
    return false;
  SmallVector<bool> ones;
  for (auto [i, d] : llvm::enumerate(fullShape()))
    ones.push_back(d == 1 && !isSymbolic(i));
  int64_t fr = firstReduce(), fu = firstUpcast();
  localDims -= llvm::count(ArrayRef<bool>(ones).slice(fr - localDims, localDims), true);
  upcasted -= llvm::count(ArrayRef<bool>(ones).drop_front(fu), true);
  if (llvm::Error e = reshapeAndPermute(
          [&](ArrayRef<int64_t> s) {
            Shape out;
            for (auto [i, d] : llvm::enumerate(s))
              if (!ones[i])
                out.push_back(d);
            return out;
          },
          {}, [&](shape::SymShapeTracker &st) { return st.dropOnes(ones); }))
    return std::move(e);
  return llvm::is_contained(ones, true);
}

llvm::Error OptKernel::simplifyMergeAdjacent() {
  if (shapeLen() == 0)
    return llvm::Error::success();
  // tinygrad's test of whether axis i-1 and i of st j merge: one stride
  // walks both (or both are expanded); on the symbolic strides where there
  // are any.
  std::vector<shape::RealStrides> strides;
  std::vector<shape::SymStrides> symStrides;
  if (symbolic())
    for (const shape::SymShapeTracker &st : symSts)
      symStrides.push_back(st.realStrides());
  else
    for (const ShapeTracker &st : sts)
      strides.push_back(st.realStrides());
  auto walks = [&](int64_t j, int64_t i) {
    if (!symbolic()) {
      std::optional<int64_t> si = strides[j][i], last = strides[j][i - 1];
      int64_t size = sts[j].shape()[i];
      return si && ((*si != 0 && last == size * *si) || (*si == 0 && last == 0));
    }
    std::optional<AffineSum> si = symStrides[j][i], last = symStrides[j][i - 1];
    if (!si || !last)
      return false;
    if (si->isConstant(0))
      return last->isConstant(0);
    std::optional<AffineSum> walked = symSts[j].shape()[i].times(*si);
    return walked && *walked == *last;
  };
  // runs[k]: how many adjacent axes become axis k; runSize[j]: the size of
  // the last run in st j.
  SmallVector<int64_t> runs{1}, runSize;
  for (const ShapeTracker &st : sts)
    runSize.push_back(st.shape()[0]);
  int64_t fr = firstReduce();
  for (int64_t i = 1; i < shapeLen(); ++i) {
    bool mergeable = i != fr;
    for (auto [j, st] : llvm::enumerate(sts)) {
      int64_t size = st.shape()[i];
      if (!walks(j, i))
        mergeable = false;
      // A RANGE counts in int32 (tinygrad's dtypes.int): an axis of 2^31 or
      // more could not be counted (tinygrad merges it anyway and overflows).
      if ((__int128)runSize[j] * size > INT32_MAX)
        mergeable = false;
    }
    for (auto [j, st] : llvm::enumerate(sts))
      runSize[j] = mergeable ? runSize[j] * st.shape()[i] : st.shape()[i];
    if (mergeable)
      ++runs.back();
    else
      runs.push_back(1);
  }
  if (symbolic()) {
    for (shape::SymShapeTracker &st : symSts)
      if (!st.merge(runs))
        return llvm::createStringError("a symbolic view cannot merge its axes exactly");
    return projectSymbolic();
  }
  for (ShapeTracker &st : sts) {
    Shape merged;
    int64_t start = 0;
    for (int64_t n : runs) {
      merged.push_back(prod(st.shape().slice(start, n)));
      start += n;
    }
    st = st.reshape(merged);
  }
  return llvm::Error::success();
}

int64_t OptKernel::realAxis(const Opt &opt) const {
  if (!opt.axis)
    return -1;
  if (opt.op == OptOp::UNROLL || opt.op == OptOp::SPLITK)
    return firstReduce() + *opt.axis;
  if (opt.op == OptOp::GROUP || opt.op == OptOp::GROUPTOP)
    return firstReduce() + groupForReduces + *opt.axis;
  return *opt.axis;
}

/// Whether a reduce's source keeps padded zeros zero: no op with f(0) != 0
/// (GroupOp.UnsafePad) on the way.
static bool canPad(ReduceAxisOp r) {
  SmallVector<Operation *> work{r};
  llvm::SmallPtrSet<Operation *, 16> seen;
  while (!work.empty()) {
    Operation *op = work.pop_back_val();
    if (!seen.insert(op).second)
      continue;
    if (op->hasTrait<GroupOp::UnsafePad>())
      return false;
    for (Value v : op->getOperands())
      if (Operation *def = v.getDefiningOp())
        work.push_back(def);
  }
  return true;
}

llvm::Error OptKernel::applyPadTo(int64_t axis, int64_t amt) {
  CHECK(axis < firstUpcast(), "cannot pad upcasted");
  ReduceAxisOp r = reduceop();
  bool reduceAxis = r && firstReduce() <= axis;
  if (reduceAxis)
    CHECK(r.getKind() == ReduceKind::add && canPad(r),
          "cannot pad a reduce that is not a sum of ops that keep 0 as 0");
  bool padded = false;
  for (ShapeTracker &st : sts) {
    int64_t s = st.shape()[axis];
    if (s == 1)
      continue; // reduced
    CHECK(s > amt / 4, "pad adds more than quadruple the work (" + std::to_string(s) +
                           " <= " + std::to_string(amt / 4) + ")");
    if (int64_t ru = (s + amt - 1) / amt * amt - s) {
      SmallVector<std::pair<int64_t, int64_t>> arg(st.rank(), {0, 0});
      arg[axis] = {0, ru};
      st = st.pad(arg);
      padded = true;
    }
  }
  CHECK(padded, "nothing was padded");
  paddedReduce |= reduceAxis;
  return llvm::Error::success();
}

llvm::Error OptKernel::applyOpt(const Opt &opt, bool appendOpt) {
  if (dontUseLocals)
    CHECK(opt.op != OptOp::LOCAL && opt.op != OptOp::GROUP && opt.op != OptOp::GROUPTOP,
          "not using locals");
  CHECK(!stages, "STAGE must be the last opt");
  // Only the TMA's copies are shared in clusters; a SPLITK pair alone
  // shares nothing, and STAGE or WGMMA may follow it.
  bool onlySplit = splitAxis >= 0 && prod(cluster) == cluster[splitAxis];
  CHECK(cluster.empty() || opt.op == OptOp::CLUSTER || opt.op == OptOp::TMA ||
            (onlySplit && (opt.op == OptOp::STAGE || opt.op == OptOp::WGMMA)),
        splitAxis >= 0 ? "SPLITK and CLUSTER come after the other opts, before TMA (or STAGE or "
                         "WGMMA, after SPLITK alone)"
                       : "CLUSTER comes after the other opts, before TMA");
  if (opt.op == OptOp::TC)
    return applyTC(opt);
  if (opt.op == OptOp::STAGE || opt.op == OptOp::WGMMA || opt.op == OptOp::TMA)
    return applyStage(opt);
  int64_t axis = realAxis(opt);
  CHECK(axis < (int64_t)fullShape().size(), "invalid axis " + std::to_string(axis) +
                                                " (the shape has " +
                                                std::to_string(fullShape().size()) + " axes)");
  int64_t amt = -1;
  if (opt.op == OptOp::SWAP) {
    amt = *opt.arg; // another axis
  } else if (opt.arg) {
    CHECK(*opt.arg != 0 || !isSymbolic(axis),
          "shift/padto of a symbolic amount is meaningless (axis " + std::to_string(axis) +
              " is symbolic)");
    amt = *opt.arg != 0 ? *opt.arg : fullShape()[axis];
    CHECK(amt != 1, "shift/padto of amt=1, 1 or symbolic amount is meaningless");
    CHECK(amt > 1, "the amount must be > 1, got " + std::to_string(amt));
    if (opt.op != OptOp::PADTO)
      CHECK(divides(axis, amt),
            "no longer valid shift: axis " + std::to_string(axis) +
                (isSymbolic(axis) ? " is symbolic"
                                  : " has size " + std::to_string(fullShape()[axis]) + ", " +
                                        std::to_string(amt) + " does not divide it"));
  } else {
    CHECK(opt.op == OptOp::NOLOCALS, opt.str() + " needs an amount");
  }

  if (ReduceAxisOp r = reduceop();
      r && (opt.op == OptOp::GROUP || opt.op == OptOp::GROUPTOP ||
            (groupForReduces && opt.op != OptOp::NOLOCALS && opt.op != OptOp::PADTO))) {
    int64_t accSz = (getScalarType(r.getType()).getIntOrFloatBitWidth() + 7) / 8;
    int64_t upcastSz = 1;
    for (int64_t i = firstUpcast(); i < shapeLen(); ++i)
      if (fullShape()[i] == outputShape()[i])
        upcastSz *= fullShape()[i];
    int64_t fr = firstReduce();
    int64_t localSz = prod(fullShape().slice(fr - localDims, localDims + groupForReduces));
    int64_t smem = amt * accSz * upcastSz * localSz;
    CHECK(smem <= target.sharedMax, "exceeds maximum shared memory size: needs " +
                                        std::to_string(smem) + ", max " +
                                        std::to_string(target.sharedMax));
  }

  switch (opt.op) {
  case OptOp::LOCAL:
    CHECK(target.hasLocal, "target does not support local");
    CHECK(axis < globalDims(), "local is for globals");
    if (llvm::Error e = shiftTo(axis, amt, false, firstReduce()))
      return e;
    ++localDims;
    break;
  case OptOp::GROUP:
  case OptOp::GROUPTOP: {
    CHECK(target.hasLocal && target.hasShared, "target does not support local or shared mem");
    CHECK(firstReduce() + groupForReduces <= axis && axis < firstUpcast(),
          "must be reduce axis to group");
    llvm::SmallSetVector<int64_t, 8> axes;
    size_t count = 0;
    for (ReduceAxisOp r : reduceops)
      for (int64_t a : r.getAxes()) {
        axes.insert(a);
        ++count;
      }
    CHECK(!tensorCore, "can't group with tensor cores");
    CHECK(axes.size() == count, "can't group with parallel reduces");
    // tinygrad shares a grouped result through shared memory in a layout
    // that is 1 on the other reduces' axes; our verifier rejects those
    // stores, and the emitter would need the loops around them.
    CHECK(reduceops.size() == 1, "grouping a kernel with more than one reduce is not "
                                 "supported yet");
    if (llvm::Error e =
            shiftTo(axis, amt, opt.op == OptOp::GROUPTOP, firstReduce() + groupForReduces))
      return e;
    ++groupForReduces;
    break;
  }
  case OptOp::UNROLL:
    CHECK(axis < firstUpcast(), "can't upcasted already upcasted");
    CHECK(amt <= 32, "don't unroll more than 32");
    if (fullShape()[axis] == amt && axis == firstReduce())
      ++localDims; // first_reduce moves up; simplify_ones takes it back
    if (fullShape()[axis] == amt && axis < firstReduce() + groupForReduces)
      --groupForReduces; // fully unrolling a GROUP
    if (llvm::Error e = shiftTo(axis, amt, false, std::nullopt))
      return e;
    CHECK(fullShape().back() != 1, "can't upcast a dimension with size 1");
    ++upcasted;
    break;
  case OptOp::UPCAST:
    CHECK(axis < firstReduce(), "upcast is for non-reduce");
    CHECK(!(tensorCore && globalDims() <= axis && axis < globalDims() + tensorCore->countOpts('l')),
          "can't upcast TC locals");
    CHECK(amt <= 16, "don't upcast more than 16");
    if (llvm::Error e = shiftTo(axis, amt, false, std::nullopt))
      return e;
    CHECK(fullShape().back() != 1, "can't upcast a dimension with size 1");
    ++upcasted;
    break;
  case OptOp::NOLOCALS:
    CHECK(target.hasLocal && !dontUseLocals,
          "NOLOCALS is meaningless if target does not support local or already not using locals");
    CHECK(localDims == 0 && groupForReduces == 0, "can't have no locals with locals");
    dontUseLocals = true;
    break;
  case OptOp::PADTO:
    CHECK(kernel.getBodyBlock().getOps<DefineVarOp>().empty(), "does not work with symbolic shape");
    if (llvm::Error e = applyPadTo(axis, amt))
      return e;
    break;
  case OptOp::SWAP: {
    CHECK(axis < amt && amt < globalDims(),
          "swap is only for globals with axis < amt, getting amt=" + std::to_string(amt) +
              ", axis=" + std::to_string(axis) + ", global_dims=" + std::to_string(globalDims()));
    SmallVector<int64_t> perm = llvm::to_vector(llvm::seq<int64_t>(0, shapeLen()));
    std::swap(perm[axis], perm[amt]);
    if (llvm::Error e = reshapeAndPermute(nullptr, perm))
      return e;
    break;
  }
  case OptOp::CLUSTER: {
    // A cluster's blocks are consecutive along each grid dimension, and
    // uop-gpu-dims makes each global axis a grid dimension of its own.
    CHECK(target.hasClusters, "thread-block clusters need sm_90 or later, not " + target.name);
    CHECK(axis < globalDims(), "CLUSTER is for globals");
    CHECK(!dontUseLocals, "CLUSTER groups thread blocks, which NOLOCALS does without");
    CHECK(globalDims() <= 3, "CLUSTER needs at most 3 global axes, one per grid dimension, not " +
                                 std::to_string(globalDims()));
    CHECK(!symbolic(), "CLUSTER needs a grid of known size");
    if (cluster.empty())
      cluster.assign(globalDims(), 1);
    CHECK(cluster[axis] == 1, "axis " + std::to_string(axis) + " is clustered already");
    cluster[axis] = amt;
    // Up to 8 blocks: the portable cluster size every sm_90 GPU launches.
    CHECK(prod(cluster) <= 8,
          "a cluster holds at most 8 blocks, not " + std::to_string(prod(cluster)));
    break;
  }
  case OptOp::SPLITK:
    if (llvm::Error e = applySplitK(axis, amt))
      return e;
    break;
  case OptOp::TC:
  case OptOp::STAGE:
  case OptOp::WGMMA:
  case OptOp::TMA:
    break;
  }
  if (appendOpt)
    appliedOpts.push_back(opt);
  llvm::Expected<bool> removed = simplifyOnes();
  if (!removed)
    return removed.takeError();
  if (*removed && tcOpts)
    tcOpts->fixAxes(axis);
  return llvm::Error::success();
}

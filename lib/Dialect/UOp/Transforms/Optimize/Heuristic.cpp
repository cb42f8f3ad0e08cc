//===- Heuristic.cpp - tinygrad's hand_coded_optimizations ----------------===//
//
// opt/heuristic.py: the opts tinygrad picks for a kernel without BEAM search,
// tried on a copy of the kernel. Images (which we do not have) are left out.
//
//===----------------------------------------------------------------------===//

#include "Kernel.h"

#include "llvm/ADT/SmallSet.h"

using namespace mlir;
using namespace mlir::uop;

namespace {

/// Applies an opt the heuristic has checked; tinygrad raises if it still
/// fails, we report the first such failure.
struct Applier {
  OptKernel &k;
  std::string error;
  bool operator()(OptOp op, std::optional<int64_t> axis, std::optional<int64_t> arg) {
    Opt opt{op, axis, arg, {}};
    llvm::Error e = k.applyOpt(opt);
    if (!e)
      return true;
    std::string why = llvm::toString(std::move(e));
    if (error.empty())
      error = opt.str() + ": " + why;
    return false;
  }
};

bool hasExpandedAxis(ArrayRef<int64_t> shape, const shape::RealStrides &strides) {
  for (auto [s, st] : llvm::zip(shape, strides))
    if (s > 1 && st == 0)
      return true;
  return false;
}

/// The matvec special case: GROUP the reduce, LOCAL and UPCAST a global.
bool matvec(OptKernel &k, Applier &apply) {
  const int64_t blocksize = 4, threadsPerRow = 8, rowsPerThread = 4;
  ReduceAxisOp r = k.reduceop();
  if (!k.target.hasLocal || !k.target.hasShared || !r || r.getKind() != ReduceKind::add ||
      k.fullShape().size() < 2)
    return false;
  auto mul = r.getSrc().getDefiningOp<MulOp>();
  if (!mul)
    return false;
  auto l0 = mul.getLhs().getDefiningOp<LoadOp>(), l1 = mul.getRhs().getDefiningOp<LoadOp>();
  if (!l0 || !l1)
    return false;
  int64_t b0 = k.bufIndex(l0), b1 = k.bufIndex(l1), fr = k.firstReduce();
  if (b0 < 0 || b1 < 0 || fr >= k.shapeLen())
    return false;
  const shape::ShapeTracker &st0 = k.sts[b0], &st1 = k.sts[b1];
  shape::RealStrides s0 = st0.realStrides(), s1 = st1.realStrides();
  if (s0[fr] != 1 || (hasExpandedAxis(st0.shape(), s0) && hasExpandedAxis(st1.shape(), s1)))
    return false;
  for (int64_t g = 0; g < k.globalDims(); ++g) {
    if (k.divides(fr, threadsPerRow) && k.divides(g, blocksize * rowsPerThread)) {
      apply(OptOp::GROUP, 0, threadsPerRow);
      apply(OptOp::LOCAL, g, blocksize);
      apply(OptOp::UPCAST, g, rowsPerThread);
      return true;
    }
  }
  return false;
}

void groupTop(OptKernel &k) {
  if (!k.target.hasLocal || !k.target.hasShared)
    return;
  int64_t fr = k.firstReduce();
  for (int64_t i = 0; i < fr; ++i)
    if (k.isSymbolic(i, 0))
      return; // tinygrad: all_int of the output shape
  for (int64_t x : k.sts[0].unitStrideAxes())
    if (x >= k.firstUpcast() && k.sts[0].shape()[x] % 4 == 0)
      return;
  int64_t out = prod(k.sts[0].shape().take_front(fr));
  if (fr > 2 || fr >= k.shapeLen() || out > 2048)
    return;
  SmallVector<int64_t> sizes = out <= 32 ? SmallVector<int64_t>{256, 16} : SmallVector<int64_t>{16};
  for (int64_t sz : sizes) {
    bool divides = llvm::all_of(llvm::enumerate(k.sts), [&](auto ist) {
      auto &[i, st] = ist;
      return !k.isSymbolic(fr, i) && (st.shape()[fr] % sz == 0 || st.shape()[fr] == 1);
    });
    if (!divides)
      continue;
    // May fail on shared memory; then try the next size, as tinygrad does.
    OptKernel trial = k;
    if (llvm::Error e = trial.applyOpt(Opt{OptOp::GROUPTOP, 0, sz, {}})) {
      llvm::consumeError(std::move(e)); // tinygrad's try/except: not this size
    } else {
      k = trial;
      return;
    }
  }
}

void upcastMasked(OptKernel &k, Applier &apply) {
  SmallVector<int64_t> toUpcast;
  int64_t upcastedSize = prod(k.fullShape().drop_front(k.firstUpcast()));
  // Each buffer's index simplified once for every axis, not once per axis.
  llvm::SmallBitVector maskedAny(k.shapeLen());
  for (const shape::ShapeTracker &st : k.sts)
    maskedAny |= st.maskedAxes();
  for (int64_t axis = 0; axis < k.firstReduce(); ++axis) {
    int64_t size = k.fullShape()[axis];
    bool masked = maskedAny[axis];
    int64_t chosen = 1;
    for (int64_t j : toUpcast)
      chosen *= k.fullShape()[j];
    if (!k.isSymbolic(axis) && size <= 7 && masked && upcastedSize * chosen * size <= 7 * 7)
      toUpcast.push_back(axis);
  }
  for (int64_t axis : llvm::reverse(toUpcast))
    apply(OptOp::UPCAST, axis, 0);
}

/// Upcast output axes that some buffer broadcasts (stride 0) while the
/// output is large (a symbolic size counts with its upper bound: tinygrad's
/// resolve of `>= 1024`, default True, decides as the bound does).
void upcastBroadcast(OptKernel &k, Applier &apply) {
  llvm::SmallSet<int64_t, 4> done;
  while (prod(k.sts[0].shape().take_front(k.firstReduce())) >= 1024) {
    using Choice = std::tuple<int64_t, int64_t, int64_t, int64_t>;
    SmallVector<Choice> choices;
    // Whether buffer i has no broadcast among its upcast axes: the same for
    // every axis and amount of this round, so computed once, when asked.
    SmallVector<std::optional<bool>> noUpcastBroadcast(k.sts.size());
    auto lacksUpcastBroadcast = [&](size_t i) {
      if (!noUpcastBroadcast[i])
        noUpcastBroadcast[i] =
            llvm::none_of(k.upcastedAxis(i), [](auto &u) { return u.stride == 0; });
      return *noUpcastBroadcast[i];
    };
    for (int64_t axis = 0; axis < k.firstReduce(); ++axis) {
      for (int64_t amount : {3, 4}) {
        if (done.contains(axis) || !k.divides(axis, amount))
          continue;
        bool wanted = false;
        for (auto [i, st] : llvm::enumerate(k.sts)) {
          if (st.views.back().strides[axis] != 0)
            continue;
          if (lacksUpcastBroadcast(i))
            wanted = true;
        }
        if (!wanted)
          continue;
        int64_t positive = 0, sum = 0;
        for (auto &st : k.sts) {
          int64_t s = st.views.back().strides[axis];
          positive += s > 0;
          sum += s;
        }
        choices.push_back({positive, sum, axis, amount});
      }
    }
    if (choices.empty())
      return;
    Choice best = *llvm::min_element(choices);
    if (!apply(OptOp::UPCAST, std::get<2>(best), std::get<3>(best)))
      return;
    done.insert(std::get<2>(best));
  }
}

void unrollReduce(OptKernel &k, Applier &apply) {
  int64_t fr = k.firstReduce(), fu = k.firstUpcast();
  if (fr >= fu)
    return;
  bool smallUpcast = prod(k.fullShape().drop_front(fu)) <= 4;
  bool noReduceUpcast = k.sts[0].shape().drop_front(fu) == k.fullShape().drop_front(fu);
  if (!(smallUpcast || noReduceUpcast) ||
      !(k.upcasted == 0 || prod(k.fullShape().take_back(k.upcasted)) < 64))
    return;
  auto lastUnupcasted = [&] { return k.fullShape()[k.firstUpcast() - 1]; };
  int64_t s = lastUnupcasted();
  if (!k.isSymbolic(k.firstUpcast() - 1) && s <= 32) { // cannot unroll a symbolic axis
    apply(OptOp::UNROLL, k.firstUpcast() - 1 - k.firstReduce(), 0);
    // A small one: unroll a second reduce axis too.
    if (k.firstReduce() < k.firstUpcast() && s <= 3 && !k.isSymbolic(k.firstUpcast() - 1) &&
        lastUnupcasted() <= 3)
      apply(OptOp::UNROLL, k.firstUpcast() - 1 - k.firstReduce(), 0);
  } else if (k.divides(k.firstUpcast() - 1, 4)) {
    apply(OptOp::UNROLL, k.firstUpcast() - 1 - k.firstReduce(), 4);
  }
}

void locals(OptKernel &k, Applier &apply) {
  // Expanded (broadcast) axes first, then the last axes first.
  SmallVector<std::pair<bool, int64_t>> ranking;
  for (int64_t axis = 0; axis < k.firstReduce(); ++axis) {
    bool expanded =
        llvm::any_of(k.sts, [&](auto &st) { return st.views.back().strides[axis] == 0; });
    ranking.push_back({expanded, axis});
  }
  llvm::sort(ranking, [](auto a, auto b) {
    return std::make_pair(-int(a.first), -a.second) < std::make_pair(-int(b.first), -b.second);
  });
  SmallVector<std::pair<int64_t, int64_t>> toLocal;
  for (auto [expanded, axis] : ranking) {
    int64_t size = 1;
    for (auto [a, sz] : toLocal)
      size *= sz;
    SmallVector<int64_t> candidates;
    if (axis == 0)
      candidates.push_back(32);
    candidates.append({16, 8, 4, 3, 2});
    for (int64_t x : candidates)
      if (k.divides(axis, x) && size * x <= 128) {
        toLocal.push_back({axis, x});
        break;
      }
  }
  if (toLocal.size() > 3)
    toLocal.resize(3);
  llvm::sort(toLocal);
  int64_t deleted = 0;
  for (auto [axis, sz] : toLocal) {
    axis -= deleted;
    bool willDelete = sz == k.fullShape()[axis];
    apply(OptOp::LOCAL, axis, sz);
    if (willDelete)
      ++deleted;
  }
}
} // namespace

llvm::Expected<SmallVector<Opt>> mlir::uop::handCodedOptimizations(const OptKernel &original) {
  OptKernel k = original;
  Applier apply{k, ""};
  auto done = [&]() -> llvm::Expected<SmallVector<Opt>> {
    if (!apply.error.empty())
      return llvm::createStringError(llvm::Twine(apply.error));
    return k.appliedOpts;
  };
  if (matvec(k, apply))
    return done();
  groupTop(k);
  if (k.groupForReduces)
    return done();
  upcastMasked(k, apply);
  upcastBroadcast(k, apply);
  unrollReduce(k, apply);
  if (k.upcasted == 0 && k.firstUpcast() > 0 && k.divides(k.firstUpcast() - 1, 4))
    apply(OptOp::UPCAST, k.firstUpcast() - 1, 4);
  if (k.target.hasLocal)
    locals(k, apply);
  return done();
}

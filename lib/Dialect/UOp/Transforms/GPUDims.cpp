//===- GPUDims.cpp - uop-gpu-dims: ranges to grid and block indices -------===//
//
// tinygrad's codegen/gpudims.py: the global RANGEs of a kernel become block
// indices (SPECIAL gidxN), its local RANGEs thread indices (SPECIAL lidxN),
// grouped or split to fit the target's launch limits. See Passes.td.
//
//===----------------------------------------------------------------------===//

#include "uop/Dialect/UOp/IR/UOpAttrs.h"
#include "uop/Dialect/UOp/Transforms/Passes.h"
#include "uop/Dialect/UOp/Utils/Symbolic.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::uop {
#define GEN_PASS_DEF_UOPGPUDIMS
#include "uop/Dialect/UOp/Transforms/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;
using namespace mlir::uop;

namespace {

using Dims = SmallVector<int64_t, 4>;

bool fits(ArrayRef<int64_t> dims, ArrayRef<int64_t> max) {
  for (auto [d, m] : llvm::zip(dims, max)) // zip: only the first max.size() dims
    if (d > m)
      return false;
  return true;
}

/// _group_dims: merge adjacent dimensions, leftmost first, until there are
/// no more than max.size() and each fits. `groups[i]` says how many of the
/// original dimensions dimension i holds. Fails when no merge helps.
std::optional<Dims> groupDims(Dims dims, ArrayRef<int64_t> max, SmallVectorImpl<int64_t> &groups) {
  groups.assign(dims.size(), 1);
  while (dims.size() > max.size() || !fits(dims, max)) {
    bool merged = false;
    for (size_t i = 0; i < max.size() && i + 1 < dims.size() && !merged; ++i) {
      if (dims[i] * dims[i + 1] > max[i])
        continue;
      dims[i] *= dims[i + 1];
      dims.erase(dims.begin() + i + 1);
      groups[i] += groups[i + 1];
      groups.erase(groups.begin() + i + 1);
      merged = true;
    }
    if (!merged)
      return std::nullopt;
  }
  return dims;
}

/// _split_dims: a dimension over its maximum gives its smallest factor to the
/// next dimension (cyclically), up to three dimensions.
std::optional<Dims> splitDims(ArrayRef<int64_t> in, ArrayRef<int64_t> max) {
  if (fits(in, max))
    return Dims(in);
  Dims dims(in);
  dims.resize(3, 1);
  for (size_t i = 0; i < 3; ++i) {
    while (dims[i] > max[i]) {
      int64_t div = 1;
      for (int64_t d = 2; d * d <= dims[i] && div == 1; ++d)
        if (dims[i] % d == 0)
          div = d;
      if (div == 1)
        return std::nullopt;
      dims[i] /= div;
      dims[(i + 1) % 3] *= div;
    }
  }
  if (dims[2] == 1)
    dims.pop_back();
  return dims;
}

/// The index math of the mapping, in si32 (tinygrad's dtypes.int).
class DimsBuilder {
public:
  DimsBuilder(OpBuilder &b, Location loc)
      : b(b), loc(loc), build(b, loc),
        i32(IntegerType::get(b.getContext(), 32, IntegerType::Signed)) {}

  Value constant(int64_t v) { return build.cst(i32, v); }
  Value special(StringRef name, int64_t size, Value dynamicSize = {}) {
    return SpecialOp::create(b, loc, i32, name, size, dynamicSize);
  }
  Value add(Value x, Value y) { return build.add(x, y); }
  Value mul(Value x, int64_t c) { return build.mul(x, c); }
  Value div(Value x, int64_t c) { return c == 1 ? x : build.idiv(x, c); }
  Value mod(Value x, int64_t c) { return build.mod(x, c); }

private:
  OpBuilder &b;
  Location loc;
  sym::Build build;
  Type i32;
};

/// get_grouped_dims: one index value per dimension of `dims`, built from
/// SPECIALs named prefix0, prefix1, ... that fit `max`. With `reverse`, the
/// last dimension gets prefix0. A dimension with a `symbolic` size (a value
/// of the kernel's variables; dims has its upper bound) becomes a SPECIAL of
/// that size; as in tinygrad, such dimensions are neither grouped nor split.
FailureOr<SmallVector<Value>> groupedDims(DimsBuilder &db, StringRef prefix, Dims dims,
                                          SmallVector<Value> symbolic, ArrayRef<int64_t> max,
                                          bool reverse,
                                          function_ref<InFlightDiagnostic()> emitError) {
  if (reverse) {
    std::reverse(dims.begin(), dims.end());
    std::reverse(symbolic.begin(), symbolic.end());
  }
  // "cannot fit 4 gidx dimensions [..] into the target's limits [..]"
  auto fail = [&](StringRef what, StringRef how) -> LogicalResult {
    InFlightDiagnostic d = emitError();
    d << what << " " << prefix << " dimensions [";
    llvm::interleaveComma(dims, d);
    d << "] " << how << " the target's limits [";
    llvm::interleaveComma(max, d);
    d << "]";
    return failure();
  };
  if (llvm::any_of(symbolic, [](Value v) { return v; })) {
    if (dims.size() > max.size() || !fits(dims, max))
      return fail("cannot fit symbolic", "into");
    SmallVector<Value> out;
    for (auto [i, size] : llvm::enumerate(dims))
      out.push_back(db.special((prefix + Twine(i)).str(), size, symbolic[i]));
    if (reverse)
      std::reverse(out.begin(), out.end());
    return out;
  }
  SmallVector<int64_t> groups;
  std::optional<Dims> limited = groupDims(dims, max, groups);
  if (!limited) {
    if (dims.size() > max.size())
      return fail(("cannot fit " + Twine(dims.size())).str(), "into");
    limited = dims;
  }
  if (*limited == dims) {
    limited = splitDims(dims, max);
    if (!limited)
      return fail("cannot split", "to fit");
    groups.assign(limited->size(), 1);
  }
  SmallVector<Value> raw;
  for (auto [i, size] : llvm::enumerate(*limited))
    raw.push_back(db.special((prefix + Twine(i)).str(), size));

  SmallVector<Value> out;
  if (limited->size() < dims.size()) {
    // Merged: each SPECIAL holds a group of adjacent dimensions, the group's
    // first varying fastest, unpacked as tinygrad does: idx % d, idx // d.
    size_t next = 0;
    for (auto [idx, group] : llvm::zip(raw, groups)) {
      for (int64_t g = 0; g + 1 < group; ++g) {
        out.push_back(db.mod(idx, dims[next]));
        idx = db.div(idx, dims[next++]);
      }
      out.push_back(idx);
      ++next;
    }
  } else if (*limited == dims) {
    out = raw;
  } else {
    // Split: the SPECIALs are a row-major refactoring of the same index
    // space. tinygrad spells out the cases it meets (one dimension into two
    // or three); the general form also covers a split that keeps the
    // number of dimensions.
    int64_t stride = 1;
    Value flat;
    for (int64_t i = limited->size() - 1; i >= 0; --i) {
      Value term = db.mul(raw[i], stride);
      flat = flat ? db.add(term, flat) : term;
      stride *= (*limited)[i];
    }
    int64_t inner = 1;
    SmallVector<Value> rev;
    for (int64_t i = dims.size() - 1; i >= 0; --i) {
      Value v = db.div(flat, inner);
      rev.push_back(i == 0 ? v : db.mod(v, dims[i]));
      inner *= dims[i];
    }
    out.assign(rev.rbegin(), rev.rend());
  }
  if (reverse)
    std::reverse(out.begin(), out.end());
  return out;
}

/// Whether `v` is computed from constants and uop.define_vars alone: a
/// size known at launch.
bool dependsOnlyOnVariables(Value v) {
  llvm::SmallPtrSet<Operation *, 8> seen;
  SmallVector<Value> work{v};
  while (!work.empty()) {
    Operation *op = work.pop_back_val().getDefiningOp();
    if (!op || !isPure(op) || op->getNumRegions() || isa<RangeOp, SpecialOp>(op))
      return false;
    if (seen.insert(op).second && !isa<ConstOp, DefineVarOp>(op))
      llvm::append_range(work, op->getOperands());
  }
  return true;
}

/// The ops of `body` that compute `values` (all of them, transitively), in
/// block order.
SmallVector<Operation *> sizeComputations(Block &body, ArrayRef<Value> values) {
  llvm::SetVector<Operation *> slice;
  SmallVector<Value> work(values);
  while (!work.empty()) {
    Operation *op = work.pop_back_val().getDefiningOp();
    if (op && slice.insert(op))
      llvm::append_range(work, op->getOperands());
  }
  SmallVector<Operation *> ops(slice.begin(), slice.end());
  llvm::sort(ops, [](Operation *x, Operation *y) { return x->isBeforeInBlock(y); });
  return ops;
}

/// NOLOCALS: the global axes index threads directly (SPECIAL idxN, the
/// global thread index).
bool dontUseLocals(KernelOp kernel) {
  KernelInfoAttr info = UOpDialect::KernelInfoAttrHelper(kernel.getContext()).getAttr(kernel);
  return info && info.getDontUseLocals();
}

/// A kernel launched in clusters (kernel_info's `cluster`, one size per
/// global axis) needs each global axis as a grid dimension of its own,
/// neither grouped nor split, whole clusters along it, and 8 blocks at most
/// per cluster: convert-uop-to-gpu reverses the sizes into the grid's order.
LogicalResult checkCluster(KernelOp kernel, ArrayRef<int64_t> dims, ArrayRef<Value> symbolic,
                           ArrayRef<int64_t> max) {
  KernelInfoAttr info = UOpDialect::KernelInfoAttrHelper(kernel.getContext()).getAttr(kernel);
  if (!info || info.getCluster().empty())
    return success();
  ArrayRef<int64_t> cluster = info.getCluster();
  auto error = [&]() {
    InFlightDiagnostic d = kernel.emitOpError() << "is launched in clusters of [";
    llvm::interleaveComma(cluster, d);
    d << "] blocks along its global dimensions [";
    llvm::interleaveComma(dims, d);
    d << "]: ";
    return d;
  };
  if (cluster.size() != dims.size() || dims.size() > max.size())
    return error() << "expected one cluster size per global dimension, at most " << max.size();
  if (llvm::any_of(symbolic, [](Value v) { return v; }))
    return error() << "a symbolic grid cannot be cut into clusters";
  int64_t blocks = 1;
  for (auto [d, c, m] : llvm::zip(dims, cluster, llvm::reverse(max.take_front(dims.size())))) {
    if (c < 1 || d % c != 0)
      return error() << "a dimension is not whole clusters";
    if (d > m)
      return error() << "a dimension exceeds the target's limit of " << m;
    blocks *= c;
  }
  if (blocks > 8)
    return error() << "a cluster holds at most 8 blocks";
  return success();
}

struct UOpGPUDimsPass : mlir::uop::impl::UOpGPUDimsBase<UOpGPUDimsPass> {
  void runOnOperation() override {
    KernelOp kernel = getOperation();
    Block &body = kernel.getBodyBlock();
    if (!body.getOps<SpecialOp>().empty())
      return; // already mapped
    TargetAttr target = TargetAttr::lookupGPU(kernel);
    if (!target)
      return signalPassFailure();

    SmallVector<RangeOp> global, local;
    for (RangeOp r : body.getOps<RangeOp>()) {
      if (r.getKind() == AxisKind::global)
        global.push_back(r);
      else if (r.getKind() == AxisKind::local)
        local.push_back(r);
    }
    auto byAxis = [](RangeOp x, RangeOp y) { return x.getAxis() < y.getAxis(); };
    llvm::sort(global, byAxis);
    llvm::sort(local, byAxis);
    // Each dimension's size, or for a symbolic one (a value of the kernel's
    // variables) its upper bound and the value.
    SmallVector<Value> symbolic;
    auto sizes = [&](ArrayRef<RangeOp> ranges, SmallVector<Value> &dynamic) -> std::optional<Dims> {
      Dims dims;
      for (RangeOp r : ranges) {
        Value end = r.getEnd();
        dynamic.push_back(Value());
        if (std::optional<int64_t> c = sym::intConst(end)) {
          dims.push_back(*c);
          continue;
        }
        std::optional<VRange> range = getVRange(end);
        if (!range || !dependsOnlyOnVariables(end)) {
          r.emitOpError() << "has a size that is neither a constant nor computed from the "
                             "kernel's variables (uop.define_var) alone";
          return std::nullopt;
        }
        if (range->max < 1) {
          r.emitOpError() << "has a size that is never positive (at most " << range->max << ")";
          return std::nullopt;
        }
        dims.push_back(range->max);
        dynamic.back() = end;
        symbolic.push_back(end);
      }
      return dims;
    };
    SmallVector<Value> globalSym, localSym;
    std::optional<Dims> globalDims = sizes(global, globalSym), localDims = sizes(local, localSym);
    if (!globalDims || !localDims)
      return signalPassFailure();

    // The SPECIALs go first in the body, after what symbolic sizes are
    // computed from (moved up: the ranges' uses may come before it).
    OpBuilder b(&body, body.begin());
    Operation *last = nullptr;
    for (Operation *op : sizeComputations(body, symbolic)) {
      if (last)
        op->moveAfter(last);
      else if (op != &body.front())
        op->moveBefore(&body.front());
      last = op;
    }
    if (last)
      b.setInsertionPointAfter(last);
    DimsBuilder db(b, kernel.getLoc());
    auto error = [&] { return kernel.emitOpError(); };
    if (failed(checkCluster(kernel, *globalDims, globalSym, target.getGlobalMax())))
      return signalPassFailure();
    FailureOr<SmallVector<Value>> gidx =
        groupedDims(db, dontUseLocals(kernel) ? "idx" : "gidx", *globalDims, globalSym,
                    target.getGlobalMax(), /*reverse=*/true, error);
    if (failed(gidx))
      return signalPassFailure();
    FailureOr<SmallVector<Value>> lidx = groupedDims(
        db, "lidx", *localDims, localSym, target.getLocalMax(), /*reverse=*/false, error);
    if (failed(lidx))
      return signalPassFailure();
    for (auto [r, v] : llvm::zip(global, *gidx)) {
      r.replaceAllUsesWith(v);
      r.erase();
    }
    for (auto [r, v] : llvm::zip(local, *lidx)) {
      r.replaceAllUsesWith(v);
      r.erase();
    }
  }
};

} // namespace

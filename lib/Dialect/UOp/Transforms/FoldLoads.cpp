//===- FoldLoads.cpp - tinygrad's fold_expanded for a fragment ------------===//
//
// The devectorizer's folding of LOADs of consecutive elements into one vector
// load, for the copies uop-expand makes of a CONTRACT's source. Copies of
// one index expression differ only in constants, so their distance is found
// by walking them side by side; alignment comes from the constant factor of
// the first index.
//
//===----------------------------------------------------------------------===//

#include "FoldLoads.h"

#include "uop/Dialect/UOp/IR/UOpOps.h"

#include "mlir/IR/Builders.h"

#include <numeric>

using namespace mlir;
using namespace mlir::uop;

std::optional<int64_t> mlir::uop::intConstOf(Value v) {
  if (auto c = v.getDefiningOp<ConstOp>())
    if (auto i = dyn_cast<IntegerAttr>(c.getValue()))
      return i.getValue().getSExtValue();
  return std::nullopt;
}

/// b - a for two copies of one index expression that differ only in
/// constants (what substitute makes), when it is a constant.
static std::optional<int64_t> delta(Value a, Value b) {
  if (a == b)
    return 0;
  std::optional<int64_t> ca = intConstOf(a), cb = intConstOf(b);
  if (ca && cb)
    return *cb - *ca;
  Operation *x = a.getDefiningOp(), *y = b.getDefiningOp();
  if (!x || !y || x->getName() != y->getName() || x->getNumOperands() != 2)
    return std::nullopt;
  if (isa<AddOp>(x)) {
    std::optional<int64_t> d0 = delta(x->getOperand(0), y->getOperand(0));
    std::optional<int64_t> d1 = delta(x->getOperand(1), y->getOperand(1));
    return d0 && d1 ? std::optional<int64_t>(*d0 + *d1) : std::nullopt;
  }
  if (isa<MulOp>(x))
    for (int k : {0, 1})
      if (std::optional<int64_t> c = intConstOf(x->getOperand(k));
          c && x->getOperand(k) == y->getOperand(k))
        if (std::optional<int64_t> d = delta(x->getOperand(1 - k), y->getOperand(1 - k)))
          return *d * *c;
  return std::nullopt;
}

/// A number that divides every value of `v` (0: v is 0).
static int64_t factor(Value v) {
  if (std::optional<int64_t> c = intConstOf(v))
    return std::abs(*c);
  if (isa_and_present<AddOp>(v.getDefiningOp()))
    return std::gcd(factor(v.getDefiningOp()->getOperand(0)),
                    factor(v.getDefiningOp()->getOperand(1)));
  if (isa_and_present<MulOp>(v.getDefiningOp()))
    return factor(v.getDefiningOp()->getOperand(0)) * factor(v.getDefiningOp()->getOperand(1));
  return 1;
}

/// tinygrad's devectorizer (fold_expanded) for a fragment: LOADs of one
/// buffer at consecutive elements, whose first index is a multiple of
/// their count, are one vector load (buffers are 16-byte aligned); the
/// widest of 8, 4 and 2 that every chunk of the lanes allows.
Value mlir::uop::foldContiguousLoads(OpBuilder &b, ArrayRef<Value> lanes, Location loc,
                                      bool whole) {
  SmallVector<LoadOp> loads;
  Value buf;
  for (Value lane : lanes) {
    auto load = lane.getDefiningOp<LoadOp>();
    auto index = load ? load.getPtr().getDefiningOp<IndexOp>() : IndexOp();
    if (!index || load.getAlt() || !load.getDeps().empty() || index.getGate() ||
        (buf && index.getBuf() != buf))
      return Value();
    buf = index.getBuf();
    loads.push_back(load);
  }
  if (!buf.getDefiningOp<DefineGlobalOp>())
    return Value(); // (only kernel parameters are known 16-byte aligned)
  auto idx = [&](size_t i) { return loads[i].getPtr().getDefiningOp<IndexOp>().getIdx(); };
  int64_t n = lanes.size(), bytes = (getScalarType(lanes[0].getType()).getIntOrFloatBitWidth() + 7) / 8;
  for (int64_t w : {8, 4, 2}) {
    if (n % w || w * bytes > 16 || (whole && w != n))
      continue;
    bool ok = true;
    for (int64_t start = 0; ok && start < n; start += w) {
      int64_t f = factor(idx(start));
      ok = f % w == 0;
      for (int64_t j = 1; ok && j < w; ++j)
        ok = delta(idx(start), idx(start + j)) == j;
    }
    if (!ok)
      continue;
    auto chunkType = VectorType::get({w}, lanes[0].getType());
    auto elemPtr = cast<PtrType>(loads[0].getPtr().getType());
    auto chunkPtr = PtrType::get(chunkType, elemPtr.getSize() < 0 ? -1 : elemPtr.getSize() / w,
                                 elemPtr.getAddressSpace());
    SmallVector<Value> chunks;
    for (int64_t start = 0; start < n; start += w) {
      Value ptr = CastOp::create(b, loc, chunkPtr, loads[start].getPtr());
      chunks.push_back(LoadOp::create(b, loc, chunkType, ptr, Value(), ValueRange()));
    }
    if (w == n)
      return chunks[0];
    SmallVector<Value> elements;
    for (int64_t i = 0; i < n; ++i)
      elements.push_back(GepOp::create(b, loc, chunks[i / w], b.getDenseI64ArrayAttr({i % w})));
    return VectorizeOp::create(b, loc, VectorType::get({n}, lanes[0].getType()), elements);
  }
  return Value();
}

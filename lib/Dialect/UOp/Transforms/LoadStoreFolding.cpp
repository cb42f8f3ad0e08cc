//===- LoadStoreFolding.cpp - tinygrad's load/store folding ---------------===//
//
// The devectorizer's load_store_folding and split_load_store (seed 001), for
// uop-devectorize: loads or stores that access one buffer under one gate at
// consecutive elements become vector accesses, in chunks of 8, 4 or 2
// elements (at most 16 bytes) whose first element is a multiple of the
// chunk's width (kernel parameters and shared memory are 16-byte aligned).
// Distances come from the index math: one base plus constants, or the same
// expression with constants in different places; alignment comes from the
// constant factor of a chunk's first index.
//
//===----------------------------------------------------------------------===//

#include "LoadStoreFolding.h"

#include "uop/Dialect/UOp/IR/UOpOps.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/SmallVectorExtras.h"

#include <map>
#include <numeric>

using namespace mlir;
using namespace mlir::uop;

std::optional<int64_t> mlir::uop::intConstOf(Value v) {
  if (auto c = v.getDefiningOp<ConstOp>())
    if (auto i = dyn_cast<IntegerAttr>(c.getValue()))
      return i.getValue().getSExtValue();
  return std::nullopt;
}

/// `v` as base + constant: (x, c) for x + c, (null, c) for a constant,
/// (v, 0) otherwise.
static std::pair<Value, int64_t> splitConstant(Value v) {
  if (auto add = v.getDefiningOp<AddOp>())
    for (int k : {1, 0})
      if (std::optional<int64_t> c = intConstOf(add->getOperand(k)))
        return {add->getOperand(1 - k), *c};
  if (std::optional<int64_t> c = intConstOf(v))
    return {Value(), *c};
  return {v, 0};
}

/// b - a when it is a constant: a and b are one base plus constants
/// (tinygrad's root + offset), or the same expression with constants in
/// different places (the copies uop-expand makes, walked side by side).
static std::optional<int64_t> delta(Value a, Value b) {
  if (a == b)
    return 0;
  auto [baseA, offsetA] = splitConstant(a);
  auto [baseB, offsetB] = splitConstant(b);
  if (baseA == baseB)
    return offsetB - offsetA;
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
          c && c == intConstOf(y->getOperand(k)))
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

namespace {

/// What the lanes of one chunk must share besides their buffer: the INDEX's
/// gate, a LOAD's alt value and what it waits for, or a STORE's own gate.
struct Access {
  IndexOp index;
  Value gate, other;
  SmallVector<Value> deps;
};

/// A LOAD or STORE of one element of a kernel parameter, which folding may
/// merge with others; nullopt for anything else.
std::optional<Access> accessOf(Value lane) {
  Value ptr, other;
  SmallVector<Value> deps;
  if (auto load = lane.getDefiningOp<LoadOp>()) {
    ptr = load.getPtr();
    other = load.getAlt();
    deps = load.getDeps();
  } else if (auto store = lane.getDefiningOp<StoreOp>()) {
    if (store.getUnder())
      return std::nullopt;
    ptr = store.getPtr();
    other = store.getGate();
  } else {
    return std::nullopt;
  }
  auto index = ptr.getDefiningOp<IndexOp>();
  if (!index || !isa_and_present<DefineGlobalOp, DefineLocalOp>(index.getBuf().getDefiningOp()) ||
      isa<VectorType>(cast<PtrType>(ptr.getType()).getValueType()))
    return std::nullopt;
  return Access{index, index.getGate(), other, deps};
}

/// The lanes split into chunks, as tinygrad's expand_index groups them (one
/// buffer and gate, a constant distance apart) and split_load_store splits
/// a group's runs of consecutive elements (the widest aligned chunk first).
/// Each chunk lists its lanes in element order; a lane that folds with
/// nothing is a chunk of its own. Chunks are ordered by their first lane.
SmallVector<SmallVector<unsigned>> chunksOf(ArrayRef<Value> lanes) {
  SmallVector<std::optional<Access>> access = llvm::map_to_vector(lanes, accessOf);
  struct Group {
    unsigned rep;
    std::map<int64_t, unsigned> at; // element offset from rep's -> lane
  };
  SmallVector<Group> groups;
  SmallVector<SmallVector<unsigned>> chunks;
  for (unsigned i = 0; i < lanes.size(); ++i) {
    std::optional<Access> a = access[i];
    Group *group = nullptr;
    std::optional<int64_t> offset;
    for (Group &g : groups) {
      Access r = *access[g.rep];
      if (a && r.index.getBuf() == a->index.getBuf() && r.gate == a->gate && r.other == a->other &&
          r.deps == a->deps &&
          (offset = delta(r.index.getIdx(), a->index.getIdx()))) {
        group = &g;
        break;
      }
    }
    if (!a || (group && !group->at.emplace(*offset, i).second))
      chunks.push_back({i}); // (not foldable, or a second lane at one element)
    else if (!group)
      groups.push_back({i, {{0, i}}});
  }
  for (Group &g : groups) {
    Type elem = cast<PtrType>(access[g.rep]->index.getType()).getValueType();
    int64_t bytes = (elem.getIntOrFloatBitWidth() + 7) / 8;
    for (auto it = g.at.begin(); it != g.at.end();) {
      SmallVector<unsigned> run{it->second};
      for (int64_t next = (it++)->first + 1; it != g.at.end() && it->first == next; ++it, ++next)
        run.push_back(it->second);
      for (size_t p = 0; p < run.size();) {
        int64_t f = factor(access[run[p]]->index.getIdx()), w = 1;
        for (int64_t c : {8, 4, 2})
          if (c * bytes <= 16 && p + c <= run.size() && f % c == 0) {
            w = c;
            break;
          }
        chunks.emplace_back(run.begin() + p, run.begin() + p + w);
        p += w;
      }
    }
  }
  llvm::sort(chunks, [](const SmallVector<unsigned> &x, const SmallVector<unsigned> &y) {
    return *llvm::min_element(x) < *llvm::min_element(y);
  });
  return chunks;
}

/// `ptr` (to one element) cast to a pointer to `w` elements from there.
Value vectorPtr(OpBuilder &b, Location loc, Value ptr, int64_t w) {
  auto elemPtr = cast<PtrType>(ptr.getType());
  auto type = PtrType::get(VectorType::get({w}, elemPtr.getValueType()),
                           elemPtr.getSize() < 0 ? -1 : elemPtr.getSize() / w,
                           elemPtr.getAddressSpace());
  return CastOp::create(b, loc, type, ptr);
}

} // namespace

SmallVector<Value> mlir::uop::foldLoads(OpBuilder &b, ArrayRef<Value> lanes) {
  SmallVector<Value> out(lanes);
  for (ArrayRef<unsigned> chunk : chunksOf(lanes)) {
    if (chunk.size() == 1)
      continue;
    auto first = lanes[chunk[0]].getDefiningOp<LoadOp>();
    Location loc = first.getLoc();
    int64_t w = chunk.size();
    auto type = VectorType::get({w}, first.getType());
    Value alt;
    if (first.getAlt())
      alt = VectorizeOp::create(b, loc, type, SmallVector<Value>(w, first.getAlt()));
    Value vec =
        LoadOp::create(b, loc, type, vectorPtr(b, loc, first.getPtr(), w), alt, first.getDeps());
    for (auto [j, lane] : llvm::enumerate(chunk))
      out[lane] = GepOp::create(b, loc, vec, b.getDenseI64ArrayAttr({(int64_t)j}));
  }
  return out;
}

SmallVector<Value> mlir::uop::foldStores(OpBuilder &b, ArrayRef<Value> stores) {
  SmallVector<Value> out;
  for (ArrayRef<unsigned> chunk : chunksOf(stores)) {
    auto first = stores[chunk[0]].getDefiningOp<StoreOp>();
    if (chunk.size() == 1) {
      out.push_back(first);
      continue;
    }
    Location loc = first.getLoc();
    SmallVector<Value> values = llvm::map_to_vector(
        chunk, [&](unsigned i) { return stores[i].getDefiningOp<StoreOp>().getValue(); });
    auto type = VectorType::get({(int64_t)chunk.size()}, first.getValue().getType());
    Value vec = b.createOrFold<VectorizeOp>(loc, type, values);
    out.push_back(StoreOp::create(b, loc, vectorPtr(b, loc, first.getPtr(), chunk.size()), vec,
                                  first.getGate(), Value()));
  }
  return out;
}

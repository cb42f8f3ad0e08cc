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
#include "uop/Dialect/UOp/Utils/Symbolic.h"

#include "uop/Dialect/UOp/IR/UOpOps.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/SmallVectorExtras.h"

#include <map>
#include <numeric>

using namespace mlir;
using namespace mlir::uop;
using mlir::uop::sym::intConst;

/// `v` as base + constant: (x, c) for x + c, (null, c) for a constant,
/// (v, 0) otherwise.
static std::pair<Value, int64_t> splitConstant(Value v) {
  if (auto add = v.getDefiningOp<AddOp>())
    for (int k : {1, 0})
      if (std::optional<int64_t> c = intConst(add->getOperand(k)))
        return {add->getOperand(1 - k), *c};
  if (std::optional<int64_t> c = intConst(v))
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
      if (std::optional<int64_t> c = intConst(x->getOperand(k));
          c && c == intConst(y->getOperand(k)))
        if (std::optional<int64_t> d = delta(x->getOperand(1 - k), y->getOperand(1 - k)))
          return *d * *c;
  return std::nullopt;
}

/// The memory `buf` points into: a cluster_map's is its define_local's,
/// whichever block's copy it reaches.
static Value sharedBuffer(Value buf) {
  if (auto map = buf.getDefiningOp<ClusterMapOp>())
    return map.getBuf();
  return buf;
}

/// Whether gates `a` and `b` are never both true: one is the other's
/// negation (x != true), as a mask and its complement are lowered.
static bool exclusive(Value a, Value b) {
  auto negates = [](Value x, Value y) {
    auto ne = x.getDefiningOp<CmpNeOp>();
    for (int k : {0, 1})
      if (ne && ne->getOperand(k) == y)
        if (std::optional<int64_t> c = intConst(ne->getOperand(1 - k)); c && *c != 0)
          return true;
    return false;
  };
  return a && b && (negates(a, b) || negates(b, a));
}

/// A number that divides every value of `v` (0: v is 0).
static int64_t factor(Value v) {
  if (std::optional<int64_t> c = intConst(v))
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
  if (!index ||
      !isa_and_present<DefineGlobalOp, DefineLocalOp, ClusterMapOp>(
          index.getBuf().getDefiningOp()) ||
      getVCount(ptr.getType()) != 1 || isa<VectorType>(cast<PtrType>(ptr.getType()).getValueType()))
    return std::nullopt;
  return Access{index, index.getGate(), other, deps};
}

/// The lanes split into chunks, as tinygrad's expand_index groups them (one
/// buffer and gate, a constant distance apart) and split_load_store splits
/// a group's runs of consecutive elements (the widest aligned chunk first).
struct Chunking {
  /// Each chunk's lanes in element order, the chunks by their first lane; a
  /// lane that folds with nothing is a chunk of its own.
  SmallVector<SmallVector<unsigned>> chunks;
  /// Each lane's group (-1: not foldable) and element offset in it.
  SmallVector<int> groupOf;
  SmallVector<int64_t> offsetOf;
};

Chunking chunksOf(ArrayRef<Value> lanes) {
  SmallVector<std::optional<Access>> access = llvm::map_to_vector(lanes, accessOf);
  struct Group {
    unsigned rep;
    std::map<int64_t, unsigned> at; // element offset from rep's -> lane
  };
  SmallVector<Group> groups;
  Chunking c;
  c.groupOf.assign(lanes.size(), -1);
  c.offsetOf.assign(lanes.size(), 0);
  for (unsigned i = 0; i < lanes.size(); ++i) {
    std::optional<Access> a = access[i];
    for (auto [g, group] : llvm::enumerate(groups)) {
      Access r = *access[group.rep];
      std::optional<int64_t> offset;
      if (a && r.index.getBuf() == a->index.getBuf() && r.gate == a->gate && r.other == a->other &&
          r.deps == a->deps && (offset = delta(r.index.getIdx(), a->index.getIdx()))) {
        c.groupOf[i] = g;
        c.offsetOf[i] = *offset;
        break;
      }
    }
    if (a && c.groupOf[i] < 0) {
      c.groupOf[i] = groups.size();
      groups.push_back({i, {}});
    }
    if (!a || !groups[c.groupOf[i]].at.emplace(c.offsetOf[i], i).second)
      c.chunks.push_back({i}); // (not foldable, or a second lane at one element)
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
        c.chunks.emplace_back(run.begin() + p, run.begin() + p + w);
        p += w;
      }
    }
  }
  llvm::sort(c.chunks, [](const SmallVector<unsigned> &x, const SmallVector<unsigned> &y) {
    return *llvm::min_element(x) < *llvm::min_element(y);
  });
  return c;
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
  for (ArrayRef<unsigned> chunk : chunksOf(lanes).chunks) {
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
  SmallVector<Value> out(stores);
  Chunking c = chunksOf(stores);
  for (ArrayRef<unsigned> chunk : c.chunks) {
    if (chunk.size() == 1)
      continue;
    auto first = stores[chunk[0]].getDefiningOp<StoreOp>();
    // The vector store takes the place of the chunk's earliest store: no
    // store between its lanes may write one of their elements, or which
    // write lands last would change.
    unsigned lo = *llvm::min_element(chunk), hi = *llvm::max_element(chunk);
    IndexOp index = getIndexOfPointer(first.getPtr());
    auto mayOverlap = [&](unsigned k) {
      if (llvm::is_contained(chunk, k))
        return false;
      if (c.groupOf[k] == c.groupOf[chunk[0]])
        return llvm::any_of(chunk, [&](unsigned j) { return c.offsetOf[j] == c.offsetOf[k]; });
      // A store of another group (another gate) to the buffer overlaps
      // unless its elements are known to lie outside the chunk's, or it
      // and the chunk are never both stored.
      auto store = stores[k].getDefiningOp<StoreOp>();
      IndexOp other = getIndexOfPointer(store.getPtr());
      if (!other)
        return true;
      if (sharedBuffer(other.getBuf()) != sharedBuffer(index.getBuf()))
        return false;
      if (exclusive(index.getGate(), other.getGate()))
        return false;
      if (other.getBuf() != index.getBuf()) // the buffer of another block, or this one's
        return true;
      std::optional<int64_t> d = delta(index.getIdx(), other.getIdx());
      if (!d)
        return true;
      int64_t from = c.offsetOf[chunk[0]] + *d, to = from + getVCount(store.getValue().getType());
      return llvm::any_of(chunk,
                          [&](unsigned j) { return from <= c.offsetOf[j] && c.offsetOf[j] < to; });
    };
    if (llvm::any_of(llvm::seq(lo + 1, hi), mayOverlap))
      continue;
    Location loc = first.getLoc();
    SmallVector<Value> values = llvm::map_to_vector(
        chunk, [&](unsigned i) { return stores[i].getDefiningOp<StoreOp>().getValue(); });
    auto type = VectorType::get({(int64_t)chunk.size()}, first.getValue().getType());
    Value vec = b.createOrFold<VectorizeOp>(loc, type, values);
    for (unsigned lane : chunk)
      out[lane] = Value();
    out[lo] = StoreOp::create(b, loc, vectorPtr(b, loc, first.getPtr(), chunk.size()), vec,
                              first.getGate(), Value());
  }
  return out;
}

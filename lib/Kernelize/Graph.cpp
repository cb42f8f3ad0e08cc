//===- Graph.cpp - tinygrad's tensor-level UOp graph, hash-consed ---------===//
//
// Interning and the UOp properties and constructors of tinygrad's
// uop/ops.py that kernelize uses (st, base, device, _mop, const, r, ...).
//
//===----------------------------------------------------------------------===//

#include "uop/Kernelize/Graph.h"
#include "uop/Kernelize/Rewrite.h"

#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/bit.h"
#include <cmath>

using namespace mlir::uop;
using namespace mlir::uop::kernelize;
using shape::ShapeTracker;

//===----------------------------------------------------------------------===//
// Ops and dtypes
//===----------------------------------------------------------------------===//

llvm::StringRef kernelize::opName(Op op) {
  static const char *names[] = {
#define UOP_KERNELIZE_NAME(name) #name,
      UOP_KERNELIZE_OPS(UOP_KERNELIZE_NAME)
#undef UOP_KERNELIZE_NAME
  };
  return names[(int)op];
}

std::optional<Op> kernelize::opFromName(llvm::StringRef name) {
  static const llvm::StringMap<Op> ops = [] {
    llvm::StringMap<Op> m;
#define UOP_KERNELIZE_ENTRY(name) m[#name] = Op::name;
    UOP_KERNELIZE_OPS(UOP_KERNELIZE_ENTRY)
#undef UOP_KERNELIZE_ENTRY
    return m;
  }();
  auto it = ops.find(name);
  if (it == ops.end())
    return std::nullopt;
  return it->second;
}

bool kernelize::isUnary(Op op) {
  return op == Op::EXP2 || op == Op::LOG2 || op == Op::SIN || op == Op::SQRT || op == Op::RECIP ||
         op == Op::NEG;
}
bool kernelize::isBinary(Op op) { return op >= Op::ADD && op <= Op::POW; }
bool kernelize::isTernary(Op op) { return op == Op::WHERE || op == Op::MULACC; }
bool kernelize::isMovement(Op op) { return op >= Op::RESHAPE && op <= Op::FLIP; }
bool kernelize::isUnsafePad(Op op) {
  return op == Op::RECIP || op == Op::LOG2 || op == Op::EXP2 || op == Op::IDIV || op == Op::POW;
}
bool kernelize::isCommutative(Op op) {
  return op == Op::ADD || op == Op::MUL || op == Op::MAX || op == Op::CMPNE || op == Op::CMPEQ ||
         op == Op::XOR || op == Op::AND || op == Op::OR;
}
bool kernelize::isBufferOp(Op op) {
  return op == Op::LOAD || op == Op::STORE || op == Op::VALID || op == Op::CONST ||
         op == Op::DEFINE_VAR;
}
bool kernelize::isAlwaysContiguous(Op op) {
  switch (op) {
  case Op::CONTIGUOUS:
  case Op::ASSIGN:
  case Op::COPY:
  case Op::BUFFER:
  case Op::BUFFER_VIEW:
  case Op::CONST:
  case Op::BIND:
  case Op::DEVICE:
  case Op::MSELECT:
  case Op::MSTACK:
  case Op::GBARRIER:
    return true;
  default:
    return false;
  }
}

namespace {
struct ScalarInfo {
  Scalar s;
  const char *name;
  int64_t size;
};
constexpr ScalarInfo scalars[] = {
    {Scalar::Void, "void", 0}, {Scalar::Bool, "bool", 1}, {Scalar::I8, "i8", 1},
    {Scalar::U8, "u8", 1},     {Scalar::I16, "i16", 2},   {Scalar::U16, "u16", 2},
    {Scalar::I32, "i32", 4},   {Scalar::U32, "u32", 4},   {Scalar::I64, "i64", 8},
    {Scalar::U64, "u64", 8},   {Scalar::F16, "f16", 2},   {Scalar::BF16, "bf16", 2},
    {Scalar::F32, "f32", 4},   {Scalar::F64, "f64", 8}};
} // namespace

llvm::StringRef kernelize::scalarName(Scalar s) { return scalars[(int)s].name; }
std::optional<Scalar> kernelize::scalarFromName(llvm::StringRef name) {
  for (const ScalarInfo &i : scalars)
    if (name == i.name)
      return i.s;
  return std::nullopt;
}
int64_t kernelize::itemSize(Scalar s) { return scalars[(int)s].size; }
bool kernelize::isFloat(Scalar s) {
  return s == Scalar::F16 || s == Scalar::BF16 || s == Scalar::F32 || s == Scalar::F64;
}
bool kernelize::isInt(Scalar s) { return s >= Scalar::I8 && s <= Scalar::U64; }
bool kernelize::isUnsigned(Scalar s) {
  return s == Scalar::U8 || s == Scalar::U16 || s == Scalar::U32 || s == Scalar::U64;
}

ConstValue ConstValue::as(Scalar s) const {
  if (isInt(s)) {
    if (kind != Float)
      return ofInt(i);
    // Python's int() of a float; tinygrad raises on NaN and infinities, which
    // saturate here (a constant, not undefined behavior).
    if (std::isnan(f))
      return ofInt(0);
    if (f >= 9.2e18 || f <= -9.2e18)
      return ofInt(f > 0 ? INT64_MAX : INT64_MIN);
    return ofInt((int64_t)std::trunc(f));
  }
  if (isFloat(s))
    return ofFloat(asDouble());
  return ofBool(kind == Float ? f != 0 : i != 0);
}

bool ConstValue::operator==(const ConstValue &o) const {
  if (kind != o.kind)
    return false;
  if (kind == Float)
    return f == o.f || (std::isnan(f) && std::isnan(o.f));
  return i == o.i;
}

//===----------------------------------------------------------------------===//
// Interning
//===----------------------------------------------------------------------===//

namespace {

llvm::hash_code hashArg(const Arg &arg) {
  return std::visit(
      [&](const auto &a) -> llvm::hash_code {
        using T = std::decay_t<decltype(a)>;
        if constexpr (std::is_same_v<T, std::monostate>)
          return 0;
        else if constexpr (std::is_same_v<T, int64_t> || std::is_same_v<T, std::string>)
          return llvm::hash_value(a);
        else if constexpr (std::is_same_v<T, ConstValue>)
          return llvm::hash_combine(a.kind, a.i,
                                    a.kind == ConstValue::Float && !std::isnan(a.f) && a.f != 0
                                        ? llvm::hash_code(llvm::bit_cast<uint64_t>(a.f))
                                        : llvm::hash_code(0));
        else if constexpr (std::is_same_v<T, STRef>)
          return llvm::hash_value(a);
        else if constexpr (std::is_same_v<T, Ints>)
          return llvm::hash_combine_range(a.begin(), a.end());
        else if constexpr (std::is_same_v<T, Pairs>) {
          llvm::hash_code h = 0;
          for (auto [x, y] : a)
            h = llvm::hash_combine(h, x, y);
          return h;
        } else if constexpr (std::is_same_v<T, ReduceArg>)
          return llvm::hash_combine(a.op, llvm::hash_combine_range(a.axes.begin(), a.axes.end()),
                                    a.fuse);
        else
          return llvm::hash_value(a.ast);
      },
      arg);
}

} // namespace

struct Graph::Impl {
  llvm::SpecificBumpPtrAllocator<Node> nodes;
  // Hash -> the first node with it; nodes of one hash chain through
  // Node::nextInBucket (no allocation per node).
  llvm::DenseMap<size_t, Node *> table;
  llvm::StringMap<std::unique_ptr<std::string>> devices;
  llvm::SpecificBumpPtrAllocator<ShapeTracker> trackers;
  llvm::DenseMap<size_t, llvm::SmallVector<const ShapeTracker *, 1>> trackerTable;
};

Graph::Graph() : impl(std::make_unique<Impl>()) {}
Graph::~Graph() = default;

const Node *Graph::get(Op op, DType dtype, llvm::ArrayRef<const Node *> src, Arg arg, int tag) {
  size_t h =
      llvm::hash_combine(op, dtype.scalar, dtype.ptrSize,
                         llvm::hash_combine_range(src.begin(), src.end()), hashArg(arg), tag);
  Node *&head = impl->table[h];
  for (const Node *n = head; n; n = n->nextInBucket)
    if (n->op == op && n->dtype == dtype && n->tag == tag && llvm::ArrayRef(n->src) == src &&
        n->arg == arg)
      return n;
  Node *n = new (impl->nodes.Allocate()) Node();
  n->op = op;
  n->dtype = dtype;
  n->src.assign(src.begin(), src.end());
  n->arg = std::move(arg);
  n->tag = tag;
  n->graph = this;
  n->nextInBucket = head;
  head = n;
  ++numInterned;
  return n;
}

STRef Graph::intern(const ShapeTracker &st) {
  auto &bucket = impl->trackerTable[shape::hash_value(st)];
  for (const ShapeTracker *t : bucket)
    if (*t == st)
      return t;
  const ShapeTracker *t = new (impl->trackers.Allocate()) ShapeTracker(st);
  bucket.push_back(t);
  return t;
}

const std::string *Graph::internDevice(llvm::StringRef device) {
  auto &slot = impl->devices[device];
  if (!slot)
    slot = std::make_unique<std::string>(device.str());
  return slot.get();
}

//===----------------------------------------------------------------------===//
// UOp properties
//===----------------------------------------------------------------------===//

namespace {

std::optional<ShapeTracker> applyMovement(const ShapeTracker &st, Op op, const Arg &arg) {
  switch (op) {
  case Op::RESHAPE:
    return st.reshape(std::get<Ints>(arg));
  case Op::PERMUTE:
    return st.permute(std::get<Ints>(arg));
  case Op::EXPAND:
    return st.expand(std::get<Ints>(arg));
  case Op::PAD:
    return st.pad(std::get<Pairs>(arg));
  case Op::SHRINK:
    return st.shrink(std::get<Pairs>(arg));
  case Op::FLIP: {
    llvm::SmallVector<bool, 6> flips;
    for (int64_t f : std::get<Ints>(arg))
      flips.push_back(f != 0);
    return st.flip(flips);
  }
  default:
    return std::nullopt;
  }
}

std::optional<ShapeTracker> computeST(const Node *n) {
  if (n->op == Op::VIEW)
    return n->viewArg();
  if (isMovement(n->op)) {
    const ShapeTracker *s = n->src[0]->st();
    if (!s)
      return std::nullopt;
    return applyMovement(*s, n->op, n->arg);
  }
  if (n->op == Op::CONST && !n->src.empty() && n->src[0]->op == Op::DEVICE)
    return ShapeTracker::fromShape({});
  if (isBufferOp(n->op)) {
    for (const Node *s : n->src)
      if (s->op == Op::VIEW)
        return *s->st();
    return std::nullopt;
  }
  if (n->op == Op::ASSIGN) {
    const ShapeTracker *s = n->src[0]->st();
    return s ? std::optional<ShapeTracker>(*s) : std::nullopt;
  }
  if (n->op == Op::BUFFER)
    return ShapeTracker::fromShape({n->intArg()});
  if (n->op == Op::BUFFER_VIEW)
    return ShapeTracker::fromShape({n->ints()[0]});
  if (n->op == Op::KERNEL) {
    const Node *ast = n->as<KernelArg>().ast;
    if (!ast->st())
      return std::nullopt;
    return ShapeTracker::fromShape({ast->size()});
  }
  const ShapeTracker *first = nullptr;
  for (const Node *s : n->src) {
    const ShapeTracker *st = s->st();
    if (!st)
      continue;
    if (!first)
      first = st;
    else if (st->shape() != first->shape())
      return std::nullopt; // tinygrad asserts; only a SINK of several tensors gets here
  }
  if (!first)
    return std::nullopt;
  shape::Shape shape(first->shape().begin(), first->shape().end());
  if (n->op == Op::BITCAST) {
    int64_t out = itemSize(n->dtype.scalar), in = itemSize(n->src[0]->dtype.scalar);
    if (out != in && !shape.empty())
      shape.back() = shape.back() * in / out;
  } else if (n->op == Op::REDUCE_AXIS) {
    for (int64_t a : n->reduce().axes)
      shape[a] = 1;
  }
  return ShapeTracker::fromShape(shape);
}

} // namespace

const ShapeTracker *Node::st() const {
  if (!stDone) {
    if (std::optional<ShapeTracker> s = computeST(this))
      stCache = graph->intern(*s);
    stDone = true;
  }
  return stCache;
}

int64_t Node::size() const {
  if (op == Op::BUFFER_VIEW)
    return ints()[0];
  if (op == Op::BUFFER)
    return intArg();
  return st()->size();
}

const Node *Node::base() const {
  const Node *n = this;
  while ((n->op == Op::VIEW && !n->src.empty()) || isMovement(n->op) || n->op == Op::MULTI)
    n = n->src[0];
  return n;
}

const std::string *Node::device() const {
  if (deviceDone)
    return deviceCache;
  const std::string *d = nullptr;
  if (op == Op::DEVICE)
    d = &std::get<std::string>(arg);
  else if ((op == Op::COPY || op == Op::BUFFER) && src.size() > 1)
    d = src[1]->device();
  else
    for (const Node *s : src)
      if ((d = s->device()))
        break;
  deviceCache = d;
  deviceDone = true;
  return d;
}

const Node *Node::bufUop() const {
  if (op == Op::BUFFER)
    return this;
  assert(op == Op::ASSIGN && "buf_uop of a node that is not an ASSIGN or BUFFER");
  return src[0]->base();
}

llvm::SmallVector<const Node *>
Node::toposort(const std::function<bool(const Node *)> &gate) const {
  llvm::SmallVector<const Node *> ret;
  llvm::SmallDenseSet<const Node *, 32> done;
  llvm::SmallVector<std::pair<const Node *, bool>, 64> stack{{this, false}};
  while (!stack.empty()) {
    auto [node, visited] = stack.pop_back_val();
    if (done.contains(node))
      continue;
    if (!visited) {
      if (!gate || gate(node)) {
        stack.push_back({node, true});
        for (const Node *p : llvm::reverse(node->src))
          stack.push_back({p, false});
      }
    } else {
      done.insert(node);
      ret.push_back(node);
    }
  }
  return ret;
}

//===----------------------------------------------------------------------===//
// Constructors
//===----------------------------------------------------------------------===//

const Node *Graph::view(const Node *x, const ShapeTracker &st) {
  return get(Op::VIEW, x->dtype, {x}, intern(st));
}

const Node *Graph::mop(Op op, const Node *x, Arg arg) {
  const Node *ret = get(op, x->dtype, {x}, std::move(arg));
  const ShapeTracker *a = x->st(), *b = ret->st();
  if (a && b && *a == *b)
    return x;
  return ret;
}

const Node *Graph::constant(DType dtype, ConstValue value, const std::string *device,
                            std::optional<llvm::ArrayRef<int64_t>> shape) {
  const Node *ret = get(Op::CONST, dtype, {}, value.as(dtype.scalar));
  if (shape) {
    ShapeTracker st =
        ShapeTracker::fromShape({}).reshape(shape::Shape(shape->size(), 1)).expand(*shape);
    ret = replace(ret, {get(Op::VIEW, {}, {}, intern(st))});
  }
  if (device) {
    const Node *dev = get(Op::DEVICE, {}, {}, *device);
    ret = replace(ret, {view(dev, *ret->st())});
  }
  return ret;
}

const Node *Graph::constLike(const Node *x, ConstValue value) {
  const ShapeTracker *st = x->st();
  return constant(x->dtype, value, x->device(),
                  st ? std::optional<llvm::ArrayRef<int64_t>>(st->shape()) : std::nullopt);
}

const Node *Graph::alu(Op op, llvm::ArrayRef<const Node *> src) {
  DType dt = src.back()->dtype;
  if (op == Op::CMPLT || op == Op::CMPNE)
    dt = {Scalar::Bool, -1};
  return get(op, dt, src);
}

const Node *Graph::cast(const Node *x, DType dtype) {
  if (x->dtype == dtype)
    return x;
  return get(Op::CAST, dtype, {x});
}

const Node *Graph::r(const Node *x, Op op, llvm::ArrayRef<int64_t> axesIn) {
  llvm::ArrayRef<int64_t> shape = x->shape();
  Ints axes;
  for (int64_t a : axesIn)
    if (shape[a] != 1)
      axes.push_back(a);
  llvm::sort(axes);
  axes.erase(std::unique(axes.begin(), axes.end()), axes.end());
  if (axes.empty())
    return x;
  Ints moveEarly, rest;
  for (int64_t i = axes[0]; i < (int64_t)shape.size(); ++i)
    (!llvm::is_contained(axes, i) && shape[i] != 1 ? moveEarly : rest).push_back(i);
  const Node *ret = x;
  Ints newAxes = axes;
  if (!moveEarly.empty()) {
    Ints order;
    for (int64_t i = 0; i < axes[0]; ++i)
      order.push_back(i);
    order.append(moveEarly.begin(), moveEarly.end());
    order.append(rest.begin(), rest.end());
    ret = permute(x, order);
    newAxes.clear();
    for (int64_t i = axes[0] + moveEarly.size(); i < (int64_t)shape.size(); ++i)
      if (ret->shape()[i] != 1)
        newAxes.push_back(i);
  }
  ret = get(Op::REDUCE_AXIS, x->dtype, {ret}, ReduceArg{op, newAxes, false});
  Ints outShape(shape.begin(), shape.end());
  for (int64_t a : axes)
    outShape[a] = 1;
  return reshape(ret, outShape);
}

const Node *Graph::newBuffer(const std::string &device, int64_t size, DType dtype) {
  const Node *unique = get(Op::UNIQUE, {}, {}, nextUnique());
  return get(Op::BUFFER, dtype, {unique, get(Op::DEVICE, {}, {}, device)}, size);
}

const Node *Graph::substitute(const Node *root,
                              const llvm::DenseMap<const Node *, const Node *> &map) {
  if (llvm::none_of(map, [](auto &kv) { return kv.first != kv.second; }))
    return root;
  static const PatternMatcher rules = [] {
    PatternMatcher pm;
    pm.add(allOps(), [](RewriteCtx &ctx, const Node *x) -> const Node * {
      const auto &m = ctx.get<const llvm::DenseMap<const Node *, const Node *>>();
      auto it = m.find(x);
      return it == m.end() ? nullptr : it->second;
    });
    return pm;
  }();
  RewriteCtx ctx{*this, nullptr, nullptr, const_cast<void *>(static_cast<const void *>(&map))};
  return graphRewrite(ctx, root, rules, /*bottomUp=*/true);
}

//===- Simplify.cpp - the tensor-graph rules of tinygrad's kernelize ------===//
//
// symbolic_simple (uop/symbolic.py) and kernelize.py's sym, merge_views and
// replace_contiguous, in tinygrad's order. The image, DISK, multi-device and
// symbolic-shape rules are not here: the dialect has none of those.
//
//===----------------------------------------------------------------------===//

#include "Rules.h"

#include "uop/Dialect/UOp/Utils/IntMath.h"

#include "llvm/ADT/APFloat.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace mlir::uop;
using namespace mlir::uop::kernelize;
using shape::ShapeTracker;

namespace {

bool isConst(const Node *n) { return n->op == Op::CONST; }
const ConstValue &cval(const Node *n) { return n->as<ConstValue>(); }
/// Python's `arg == k` for an int k (True == 1 == 1.0).
bool constIs(const Node *n, double k) { return isConst(n) && cval(n).asDouble() == k; }
bool isBool(const Node *n) { return n->dtype.scalar == Scalar::Bool && !n->dtype.isPtr(); }
bool isIntDtype(const Node *n) { return isInt(n->dtype.scalar) && !n->dtype.isPtr(); }
bool truthy(const ConstValue &v) { return v.kind == ConstValue::Float ? v.f != 0 : v.i != 0; }

/// A commutative binary pattern: calls f(x, y) with the sources in both
/// orders until it returns a node.
const Node *commuted(const Node *n,
                     const std::function<const Node *(const Node *, const Node *)> &f) {
  if (const Node *r = f(n->src[0], n->src[1]))
    return r;
  return f(n->src[1], n->src[0]);
}

int64_t wrapAdd(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }
int64_t wrapMul(int64_t a, int64_t b) { return (int64_t)((uint64_t)a * (uint64_t)b); }

} // namespace

std::optional<ConstValue> kernelize::execAlu(Op op, Scalar dtype, llvm::ArrayRef<ConstValue> v) {
  auto anyFloat = [&] {
    return llvm::any_of(v, [](const ConstValue &c) { return c.kind == ConstValue::Float; });
  };
  auto F = [](double d) { return ConstValue::ofFloat(d); };
  auto I = [](int64_t i) { return ConstValue::ofInt(i); };
  auto B = [](bool b) { return ConstValue::ofBool(b); };
  std::optional<ConstValue> r;
  switch (op) {
  case Op::NEG:
    r = v[0].kind == ConstValue::Float ? F(-v[0].f) : I(-v[0].i);
    break;
  case Op::RECIP: {
    double x = v[0].asDouble();
    r = F(x != 0 ? 1 / x : std::copysign(INFINITY, x));
    break;
  }
  case Op::SQRT: {
    double x = v[0].asDouble();
    r = F(x >= 0 ? std::sqrt(x) : NAN);
    break;
  }
  case Op::LOG2: {
    double x = v[0].asDouble();
    r = F(x > 0 ? std::log2(x) : x == 0 ? -INFINITY : NAN);
    break;
  }
  case Op::EXP2:
    if (v[0].kind == ConstValue::Float)
      r = F(std::exp2(v[0].f));
    else if (v[0].i >= 0 && v[0].i < 63)
      r = I(int64_t(1) << v[0].i);
    else if (v[0].i < 0)
      r = F(std::exp2((double)v[0].i));
    break;
  case Op::SIN: {
    double x = v[0].asDouble();
    r = F(std::isinf(x) ? NAN : std::sin(x));
    break;
  }
  case Op::ADD:
    r = anyFloat() ? F(v[0].asDouble() + v[1].asDouble()) : I(wrapAdd(v[0].i, v[1].i));
    break;
  case Op::SUB:
    r = anyFloat() ? F(v[0].asDouble() - v[1].asDouble()) : I(wrapAdd(v[0].i, -v[1].i));
    break;
  case Op::MUL:
    r = anyFloat() ? F(v[0].asDouble() * v[1].asDouble()) : I(wrapMul(v[0].i, v[1].i));
    break;
  case Op::MAX:
    // Python's max(a, b): b only if b > a (so a NaN first operand stays).
    r = v[1].asDouble() > v[0].asDouble() ? v[1] : v[0];
    break;
  case Op::CMPLT:
    r = B(anyFloat() ? v[0].asDouble() < v[1].asDouble() : v[0].i < v[1].i);
    break;
  case Op::CMPNE:
    r = B(anyFloat() ? v[0].asDouble() != v[1].asDouble() : v[0].i != v[1].i);
    break;
  case Op::XOR:
  case Op::OR:
  case Op::AND:
  case Op::SHL:
  case Op::SHR: {
    if (anyFloat())
      return std::nullopt;
    int64_t a = v[0].i, b = v[1].i;
    bool bothBool = v[0].kind == ConstValue::Bool && v[1].kind == ConstValue::Bool;
    int64_t x = op == Op::XOR   ? a ^ b
                : op == Op::OR  ? a | b
                : op == Op::AND ? a & b
                : op == Op::SHL ? (b >= 0 && b < 63 ? wrapMul(a, int64_t(1) << b) : 0)
                                : (b >= 0 && b < 64 ? a >> b : (a < 0 ? -1 : 0));
    r = bothBool && op != Op::SHL && op != Op::SHR ? B(x != 0) : I(x);
    break;
  }
  case Op::IDIV:
  case Op::MOD: {
    if (anyFloat())
      return std::nullopt;
    int64_t a = v[0].i, b = v[1].i;
    if (b == 0)
      r = I(op == Op::IDIV ? 0 : a);
    else if (b == -1 && a == std::numeric_limits<int64_t>::min())
      return std::nullopt;
    else
      r = I(op == Op::IDIV ? cdiv(a, b) : cmod(a, b));
    break;
  }
  case Op::POW: {
    double x = v[0].asDouble(), y = v[1].asDouble();
    if (!anyFloat() && v[1].i >= 0) {
      double p = std::pow(x, y);
      if (std::abs(p) < 9e15)
        r = I((int64_t)p);
      break;
    }
    if (x == 0 && y < 0)
      r = F(INFINITY);
    else if (x < 0 && y != std::floor(y))
      r = F(NAN);
    else
      r = F(std::pow(x, y));
    break;
  }
  case Op::WHERE:
    r = truthy(v[0]) ? v[1] : v[2];
    break;
  case Op::MULACC:
    r = anyFloat() ? F(v[0].asDouble() * v[1].asDouble() + v[2].asDouble())
                   : I(wrapAdd(wrapMul(v[0].i, v[1].i), v[2].i));
    break;
  default:
    return std::nullopt;
  }
  return r->as(dtype);
}

//===----------------------------------------------------------------------===//
// symbolic_simple + sym
//===----------------------------------------------------------------------===//

namespace {

/// simplify_stride0_reduce: a reduce over stride-0 (expanded) axes is the
/// shrunk input times the count (ADD), to its power (MUL), or itself (MAX).
const Node *simplifyStride0Reduce(Graph &g, const Node *reduce) {
  const Node *x = reduce->src[0];
  const ShapeTracker &st = *x->st();
  if (st.hasMask())
    return nullptr;
  const ReduceArg &ra = reduce->reduce();
  for (int64_t a : ra.axes)
    if (st.views.back().strides[a] != 0)
      return nullptr;
  int64_t prshape = 1;
  Pairs window;
  for (auto [i, s] : llvm::enumerate(x->shape())) {
    bool reduced = llvm::is_contained(ra.axes, (int64_t)i);
    if (reduced)
      prshape *= s;
    window.push_back({0, reduced ? 1 : s});
  }
  const Node *ret = g.shrink(x, window);
  switch (ra.op) {
  case Op::ADD:
    return g.alu(Op::MUL, {ret, g.constLike(ret, ConstValue::ofInt(prshape))});
  case Op::MUL:
    return g.alu(Op::POW, {ret, g.constLike(ret, ConstValue::ofInt(prshape))});
  case Op::MAX:
    return ret;
  default:
    return nullptr;
  }
}

/// split_reduceop: a large reduce to few outputs becomes two reduces.
const Node *splitReduceop(Graph &g, const Node *reduce, const KernelizeOptions &opts) {
  const Node *x = reduce->src[0];
  if (!opts.splitReduceop)
    return nullptr;
  int64_t outSize = shape::prod(reduce->shape());
  if (outSize == 0 || shape::prod(x->shape()) / outSize < opts.reduceopSplitThreshold)
    return nullptr;
  shape::RealStrides realStrides = x->st()->realStrides(/*ignoreValid=*/true);
  const ReduceArg &ra = reduce->reduce();
  int64_t limit = std::min<int64_t>(
      256, (int64_t(1) << std::min<int64_t>(opts.reduceopSplitSize, 62)) / outSize);
  std::optional<std::pair<int64_t, int64_t>> found;
  for (int64_t i : ra.axes) {
    for (int64_t d = limit; d >= 8 && !found; --d)
      if (x->shape()[i] % d == 0 && realStrides[i] != 0)
        found = {i, d};
    if (found)
      break;
  }
  if (!found)
    return nullptr;
  auto [dim, divisor] = *found;
  Ints splitShape(x->shape().begin(), x->shape().begin() + dim);
  splitShape.push_back(divisor);
  splitShape.push_back(x->shape()[dim] / divisor);
  splitShape.append(x->shape().begin() + dim + 1, x->shape().end());
  Ints order;
  for (int64_t d = 0; d < (int64_t)splitShape.size(); ++d)
    if (d != dim)
      order.push_back(d);
  order.push_back(dim);
  const Node *splitted = g.permute(g.reshape(x, splitShape), order);
  const Node *first = g.r(splitted, ra.op, ra.axes);
  const Node *second = g.r(first, ra.op, {(int64_t)reduce->shape().size()});
  return g.reshape(second, reduce->shape());
}

/// copy_reorder_view: store a shrink before a COPY, else view after it.
const Node *copyReorderView(Graph &g, const Node *copy, const Node *view, const Node *base) {
  const Node *dev = copy->src[1];
  if (shape::prod(view->shape()) < shape::prod(base->shape()))
    return g.get(Op::COPY, view->dtype, {g.contiguous(view), dev});
  return g.view(g.get(Op::COPY, base->dtype, {base, dev}), view->viewArg());
}

/// struct.unpack(to, struct.pack(from, v)): nullopt where tinygrad has no
/// struct format (bf16) or pack would fail (out of range, other size).
std::optional<ConstValue> bitcastConst(const ConstValue &v, Scalar from, Scalar to) {
  if (from == Scalar::BF16 || to == Scalar::BF16 || from == Scalar::Void || to == Scalar::Void ||
      itemSize(from) != itemSize(to))
    return std::nullopt;
  uint64_t bits;
  int64_t n = itemSize(from);
  if (from == Scalar::F32) {
    float f = (float)v.asDouble();
    uint32_t b;
    memcpy(&b, &f, 4);
    bits = b;
  } else if (from == Scalar::F64) {
    double d = v.asDouble();
    memcpy(&bits, &d, 8);
  } else if (from == Scalar::F16) {
    bool lost;
    llvm::APFloat h(v.asDouble());
    h.convert(llvm::APFloat::IEEEhalf(), llvm::APFloat::rmNearestTiesToEven, &lost);
    bits = h.bitcastToAPInt().getZExtValue();
  } else {
    if (v.kind == ConstValue::Float)
      return std::nullopt;
    int64_t i = v.i;
    bool fits =
        isUnsigned(from) || from == Scalar::Bool
            ? i >= 0 && (n == 8 || i < (int64_t(1) << (8 * n)))
            : n == 8 || (i >= -(int64_t(1) << (8 * n - 1)) && i < (int64_t(1) << (8 * n - 1)));
    if (!fits)
      return std::nullopt;
    bits = n == 8 ? (uint64_t)i : (uint64_t)i & ((uint64_t(1) << (8 * n)) - 1);
  }
  if (to == Scalar::F32) {
    uint32_t b = bits;
    float f;
    memcpy(&f, &b, 4);
    return ConstValue::ofFloat(f);
  }
  if (to == Scalar::F64) {
    double d;
    memcpy(&d, &bits, 8);
    return ConstValue::ofFloat(d);
  }
  if (to == Scalar::F16)
    return ConstValue::ofFloat(
        llvm::APFloat(llvm::APFloat::IEEEhalf(), llvm::APInt(16, bits)).convertToDouble());
  if (to == Scalar::Bool)
    return ConstValue::ofBool(bits != 0);
  if (isUnsigned(to) || n == 8)
    return ConstValue::ofInt((int64_t)bits);
  int64_t shift = 64 - 8 * n;
  return ConstValue::ofInt((int64_t)(bits << shift) >> shift);
}

int64_t identityFor(Op op) { return op == Op::MUL ? 1 : 0; }

} // namespace

/// x.const_like(v) for a number tinygrad writes as a Python literal.
static const Node *constNum(Graph &g, const Node *x, double v) {
  return g.constLike(x, v == (int64_t)v ? ConstValue::ofInt((int64_t)v) : ConstValue::ofFloat(v));
}

static PatternMatcher buildSymRules() {
  PatternMatcher pm;
  // ** symbolic_simple: self folding **
  pm.add(Op::ADD, [](RewriteCtx &ctx, const Node *n) -> const Node * { // x+0 -> x
    return commuted(n, [](const Node *x, const Node *c) { return constIs(c, 0) ? x : nullptr; });
  });
  pm.add(Op::MUL, [](RewriteCtx &ctx, const Node *n) -> const Node * { // x*1 -> x
    return commuted(n, [](const Node *x, const Node *c) { return constIs(c, 1) ? x : nullptr; });
  });
  pm.add(Op::XOR, [](RewriteCtx &ctx, const Node *n) -> const Node * { // x^0 -> x (ints)
    return commuted(n, [](const Node *x, const Node *c) {
      return isIntDtype(x) && constIs(c, 0) ? x : nullptr;
    });
  });
  pm.add(Op::IDIV, [](RewriteCtx &ctx, const Node *n) -> const Node * {
    Graph &g = ctx.g;
    if (n->src[0] == n->src[1]) // x//x -> 1
      return constNum(g, n->src[0], 1);
    if (constIs(n->src[1], 1)) // x//1 -> x
      return n->src[0];
    if (constIs(n->src[1], -1)) // x//-1 -> -x
      return isBool(n->src[0])
                 ? g.alu(Op::CMPNE, {n->src[0], g.constLike(n->src[0], ConstValue::ofBool(true))})
                 : g.alu(Op::MUL, {n->src[0], constNum(g, n->src[0], -1)});
    return nullptr;
  });
  pm.add(Op::MUL, [](RewriteCtx &ctx, const Node *n) -> const Node * {
    Graph &g = ctx.g; // x/x -> 1 (x/y is x*RECIP(y))
    return commuted(n, [&](const Node *x, const Node *r) -> const Node * {
      return r->op == Op::RECIP && r->src[0] == x ? constNum(g, x, 1) : nullptr;
    });
  });
  pm.add(Op::MUL, [](RewriteCtx &ctx, const Node *n) -> const Node * { // (x*x2)/x2 -> x
    return commuted(n, [](const Node *m, const Node *r) -> const Node * {
      if (m->op != Op::MUL || r->op != Op::RECIP)
        return nullptr;
      const Node *x2 = r->src[0];
      return m->src[1] == x2 ? m->src[0] : m->src[0] == x2 ? m->src[1] : nullptr;
    });
  });
  pm.add(Op::MOD, [](RewriteCtx &ctx, const Node *n) -> const Node * { // (x%y)%y -> x%y
    return n->src[0]->op == Op::MOD && n->src[0]->src[1] == n->src[1] ? n->src[0] : nullptr;
  });
  pm.add(Op::AND, [](RewriteCtx &ctx, const Node *n) -> const Node * {
    return commuted(n, [](const Node *x, const Node *c) -> const Node * {
      if (!isBool(x) || !isConst(c))
        return nullptr;
      return truthy(cval(c)) ? x : c;
    });
  });
  pm.add(Op::OR, [](RewriteCtx &ctx, const Node *n) -> const Node * {
    return commuted(n, [](const Node *x, const Node *c) -> const Node * {
      if (!isBool(x) || !isConst(c))
        return nullptr;
      return truthy(cval(c)) ? c : x;
    });
  });
  pm.add(ops({Op::OR, Op::AND, Op::MAX}), [](RewriteCtx &ctx, const Node *n) -> const Node * {
    return n->src[0] == n->src[1] ? n->src[0] : nullptr;
  });
  pm.add(Op::CMPNE, [](RewriteCtx &ctx, const Node *n) -> const Node * { // not(not(x)) -> x
    const Node *inner = n->src[0];
    if (!constIs(n->src[1], 1) || !isBool(n->src[1]) || inner->op != Op::CMPNE)
      return nullptr;
    if (!constIs(inner->src[1], 1) || !isBool(inner->src[1]) || !isBool(inner->src[0]))
      return nullptr;
    return inner->src[0];
  });
  pm.add(Op::WHERE,
         [](RewriteCtx &ctx, const Node *n) -> const Node * { // where(x, True, False) -> x
           if (!isBool(n->src[0]) || !isBool(n->src[1]) || !isBool(n->src[2]))
             return nullptr;
           return constIs(n->src[1], 1) && constIs(n->src[2], 0) ? n->src[0] : nullptr;
         });
  // ** zero folding **
  pm.add(Op::CMPLT, [](RewriteCtx &ctx, const Node *n) -> const Node * {
    Graph &g = ctx.g;
    if (n->src[0] != n->src[1])
      return nullptr;
    return g.cast(g.constLike(n->src[0], ConstValue::ofBool(false)), {Scalar::Bool, -1});
  });
  pm.add(Op::MOD, [](RewriteCtx &ctx, const Node *n) -> const Node * {
    Graph &g = ctx.g;
    return n->src[0] == n->src[1] ? constNum(g, n->src[0], 0) : nullptr;
  });
  pm.add(Op::CMPNE, [](RewriteCtx &ctx, const Node *n) -> const Node * {
    Graph &g = ctx.g;
    if (n->src[0] != n->src[1] || !isIntDtype(n->src[0]))
      return nullptr;
    return g.cast(g.constLike(n->src[0], ConstValue::ofBool(false)), {Scalar::Bool, -1});
  });
  pm.add(Op::MUL, [](RewriteCtx &ctx, const Node *n) -> const Node * {
    Graph &g = ctx.g; // x*0 -> 0
    return commuted(n, [&](const Node *x, const Node *c) -> const Node * {
      if (!constIs(c, 0))
        return nullptr;
      bool special = isConst(x) && cval(x).kind == ConstValue::Float &&
                     (std::isnan(cval(x).f) || std::isinf(cval(x).f));
      return g.constLike(x, special ? ConstValue::ofFloat(NAN) : ConstValue::ofInt(0));
    });
  });
  // ** constant folding **
  pm.add(aluOps() & ~ops({Op::THREEFRY}), [](RewriteCtx &ctx, const Node *n) -> const Node * {
    Graph &g = ctx.g;
    llvm::SmallVector<ConstValue, 3> vals;
    for (const Node *s : n->src) {
      if (!isConst(s))
        return nullptr;
      vals.push_back(cval(s));
    }
    std::optional<ConstValue> v = execAlu(n->op, n->dtype.scalar, vals);
    return v ? g.constLike(n, *v) : nullptr;
  });
  // bool MUL is AND, ADD/MAX is OR
  pm.add(ops({Op::MUL, Op::ADD, Op::MAX}), [](RewriteCtx &ctx, const Node *n) -> const Node * {
    Graph &g = ctx.g;
    if (!isBool(n->src[0]) || !isBool(n->src[1]))
      return nullptr;
    return g.alu(n->op == Op::MUL ? Op::AND : Op::OR, {n->src[0], n->src[1]});
  });
  // ** cast/bitcast **
  pm.add(Op::CAST, [](RewriteCtx &ctx, const Node *n) -> const Node * {
    Graph &g = ctx.g;
    return isConst(n->src[0]) ? g.constLike(n, cval(n->src[0])) : nullptr;
  });
  pm.add(ops({Op::CAST, Op::BITCAST}), [](RewriteCtx &ctx, const Node *n) -> const Node * {
    return n->dtype == n->src[0]->dtype ? n->src[0] : nullptr;
  });
  pm.add(Op::BITCAST, [](RewriteCtx &ctx, const Node *root) -> const Node * {
    Graph &g = ctx.g; // fold_bitcast
    const Node *c = root->src[0];
    if (!isConst(c))
      return nullptr;
    std::optional<ConstValue> v = bitcastConst(cval(c), c->dtype.scalar, root->dtype.scalar);
    return v ? g.constLike(root, *v) : nullptr;
  });
  // ** pow **
  pm.add(Op::POW, [](RewriteCtx &ctx, const Node *n) -> const Node * {
    Graph &g = ctx.g; // simplify_pow
    const Node *x = n->src[0], *c = n->src[1];
    if (!isConst(c))
      return nullptr;
    double e = cval(c).asDouble();
    auto pow = [&](const Node *b, double k) {
      return g.alu(Op::POW, {b, g.constLike(c, k == (int64_t)k ? ConstValue::ofInt((int64_t)k)
                                                               : ConstValue::ofFloat(k))});
    };
    if (e < 0)
      return pow(g.unaryOp(Op::RECIP, x), -e);
    if (e == 0)
      return constNum(g, x, 1);
    if ((double)(int64_t)(e - 0.5) + 0.5 == e)
      return g.alu(Op::MUL, {pow(x, e - 0.5), g.unaryOp(Op::SQRT, x)});
    if ((double)(int64_t)e == e) {
      const Node *y = pow(x, std::floor(e / 2));
      const Node *yy = g.alu(Op::MUL, {y, y});
      return (int64_t)e % 2 == 1 ? g.alu(Op::MUL, {yy, x})
                                 : g.alu(Op::MUL, {yy, constNum(g, yy, 1)});
    }
    return nullptr;
  });
  pm.add(Op::POW, [](RewriteCtx &ctx, const Node *n) -> const Node * {
    Graph &g = ctx.g; // positive const ** x
    const Node *c = n->src[0], *x = n->src[1];
    if (!isConst(c))
      return nullptr;
    double b = cval(c).asDouble();
    if (b == 1)
      return c;
    if (b > 0)
      return g.unaryOp(Op::EXP2,
                       g.alu(Op::MUL, {x, g.constLike(x, ConstValue::ofFloat(std::log2(b)))}));
    return nullptr;
  });

  // ** sym **
  pm.add(allOpsExcept({Op::SINK}), [](RewriteCtx &ctx, const Node *root) -> const Node * {
    Graph &g = ctx.g; // size 0 is zero
    if (!root->base()->st() || root->size() != 0)
      return nullptr;
    return g.constLike(root, ConstValue::ofInt(0));
  });
  pm.add(ops({Op::DETACH, Op::CONTIGUOUS_BACKWARD}),
         [](RewriteCtx &ctx, const Node *x) -> const Node * { return x->src[0]; });
  pm.add(Op::REDUCE_AXIS, [](RewriteCtx &ctx, const Node *reduce) -> const Node * {
    Graph &g = ctx.g; // reduce of size 0
    if (reduce->src[0]->size() != 0 || reduce->size() == 0)
      return nullptr;
    Op op = reduce->reduce().op;
    if (op == Op::MAX) {
      Scalar s = reduce->dtype.scalar;
      ConstValue lowest = isFloat(s)          ? ConstValue::ofFloat(-INFINITY)
                          : s == Scalar::Bool ? ConstValue::ofBool(false)
                          : isUnsigned(s)
                              ? ConstValue::ofInt(0)
                              : ConstValue::ofInt(-(int64_t(1) << (8 * itemSize(s) - 1)));
      return g.constLike(reduce, lowest);
    }
    return g.constLike(reduce, ConstValue::ofInt(identityFor(op)));
  });
  pm.add(Op::REDUCE_AXIS, [](RewriteCtx &ctx, const Node *r) -> const Node * {
    Graph &g = ctx.g;
    return simplifyStride0Reduce(g, r);
  });
  pm.add(Op::REDUCE_AXIS, [](RewriteCtx &ctx, const Node *r) -> const Node * {
    return ctx.opts ? splitReduceop(ctx.g, r, *ctx.opts) : nullptr;
  });
  pm.add(Op::COPY, [](RewriteCtx &ctx, const Node *root) -> const Node * {
    Graph &g = ctx.g; // COPY(CONST)
    if (!isConst(root->src[0]) || root->src[1]->op != Op::DEVICE)
      return nullptr;
    return g.constLike(root, cval(root->src[0]));
  });
  pm.add(Op::COPY, [](RewriteCtx &ctx, const Node *c) -> const Node * { // same-device COPY
    if (c->src[1]->op != Op::DEVICE)
      return nullptr;
    const std::string *a = c->device(), *b = c->src[0]->device();
    return a && b && *a == *b ? c->src[0] : nullptr;
  });
  pm.add(Op::COPY, [](RewriteCtx &ctx, const Node *copy) -> const Node * {
    Graph &g = ctx.g;
    const Node *view = copy->src[0];
    if (view->op != Op::VIEW || view->src.size() != 1 || copy->src[1]->op != Op::DEVICE)
      return nullptr;
    return copyReorderView(g, copy, view, view->src[0]);
  });
  pm.add(Op::CAST, [](RewriteCtx &ctx, const Node *c) -> const Node * {
    Graph &g = ctx.g; // CAST before masking constants
    const Node *v = c->src[0];
    if (v->op != Op::VIEW || v->src.size() != 1 || !isConst(v->src[0]))
      return nullptr;
    return g.view(g.cast(v->src[0], c->dtype), v->viewArg());
  });
  pm.add(Op::CONTIGUOUS,
         [](RewriteCtx &ctx, const Node *root) -> const Node * { // view of a whole buffer
           const Node *view = root->src[0];
           if (view->op != Op::VIEW || view->src.size() != 1 || view->src[0]->op != Op::BUFFER)
             return nullptr;
           return view->st()->contiguous() && view->size() == view->src[0]->size() ? view : nullptr;
         });
  pm.add(Op::CONTIGUOUS, [](RewriteCtx &ctx, const Node *root) -> const Node * {
    Op s = root->src[0]->op;
    return s == Op::CONTIGUOUS || s == Op::BUFFER || s == Op::COPY || s == Op::ASSIGN ? root->src[0]
                                                                                      : nullptr;
  });
  pm.add(Op::ASSIGN, [](RewriteCtx &ctx, const Node *a) -> const Node * {
    Graph &g = ctx.g; // double ASSIGN
    const Node *t = a->src[0], *inner = a->src[1];
    if (inner->op != Op::ASSIGN || inner->src[0] != t)
      return nullptr;
    return g.assign(t, g.contiguous(inner->src[1]));
  });
  pm.add(Op::ASSIGN, [](RewriteCtx &ctx, const Node *a) -> const Node * {
    Graph &g = ctx.g; // ASSIGN to unrealized
    Op b = a->src[0]->base()->op;
    return b != Op::BUFFER && b != Op::BUFFER_VIEW ? g.contiguous(a->src[1]) : nullptr;
  });
  pm.add(Op::CAST, [](RewriteCtx &ctx, const Node *cast) -> const Node * {
    Graph &g = ctx.g; // CAST to smaller before EXPAND
    const Node *vm = cast->src[0];
    if (vm->op != Op::VIEW || vm->src.size() != 1)
      return nullptr;
    if (itemSize(cast->dtype.scalar) > itemSize(vm->dtype.scalar) ||
        shape::prod(vm->shape()) <= vm->st()->realSize())
      return nullptr;
    return g.view(g.cast(vm->base(), cast->dtype), vm->viewArg());
  });
  pm.add(unaryOps(), [](RewriteCtx &ctx, const Node *alu) -> const Node * {
    Graph &g = ctx.g; // unary before EXPAND
    const Node *v = alu->src[0];
    if (v->op != Op::VIEW || v->src.size() != 1 || isAlwaysContiguous(v->src[0]->op))
      return nullptr;
    if (shape::prod(alu->shape()) <= v->st()->realSize())
      return nullptr;
    return g.view(g.alu(alu->op, {v->src[0]}), v->viewArg());
  });
  return pm;
}

const PatternMatcher &kernelize::symRules() {
  static const PatternMatcher pm = buildSymRules();
  return pm;
}

//===----------------------------------------------------------------------===//
// merge_views, replace_contiguous
//===----------------------------------------------------------------------===//

const PatternMatcher &kernelize::mergeViews() {
  static const PatternMatcher pm = buildMergeViews();
  return pm;
}

PatternMatcher kernelize::buildMergeViews() {
  PatternMatcher pm;
  pm.add(Op::VIEW, [](RewriteCtx &ctx, const Node *v2) -> const Node * {
    Graph &g = ctx.g; // merge adjacent views
    if (v2->src.size() != 1 || v2->src[0]->op != Op::VIEW)
      return nullptr;
    const Node *v1 = v2->src[0];
    return g.withArg(v1, g.intern(v1->viewArg().compose(v2->viewArg())));
  });
  pm.add(movementOps(), [](RewriteCtx &ctx, const Node *mop) -> const Node * {
    Graph &g = ctx.g;
    return g.view(mop->src[0]->base(), *mop->st());
  });
  pm.add(Op::VIEW, [](RewriteCtx &ctx, const Node *view) -> const Node * { // NOOP view
    if (view->src.size() != 1)
      return nullptr;
    const Node *x = view->src[0];
    const ShapeTracker *xs = x->st();
    return xs && view->st()->contiguous() && view->shape() == xs->shape() ? x : nullptr;
  });
  pm.add(Op::VIEW, [](RewriteCtx &ctx, const Node *view) -> const Node * {
    Graph &g = ctx.g; // fully masked view
    if (view->src.size() != 1 || view->src[0]->op == Op::DEFINE_GLOBAL)
      return nullptr;
    const auto &mask = view->viewArg().views.back().mask;
    if (!mask || llvm::none_of(*mask, [](auto m) { return m.second - m.first == 0; }))
      return nullptr;
    return g.constLike(view, ConstValue::ofInt(0));
  });
  pm.add(Op::VIEW, [](RewriteCtx &ctx, const Node *view) -> const Node * {
    Graph &g = ctx.g; // unmasked VIEW on CONST
    if (view->src.size() != 1)
      return nullptr;
    const Node *x = view->src[0];
    if ((x->op != Op::CONST && x->op != Op::DEFINE_VAR) || x->src.empty())
      return nullptr;
    ShapeTracker st = x->st()->compose(view->viewArg());
    if (st.hasMask())
      return nullptr;
    return g.replace(x, {g.withArg(x->src[0], g.intern(st))});
  });
  return pm;
}

static PatternMatcher buildReplaceContiguous() {
  PatternMatcher pm;
  pm.add(Op::CONTIGUOUS, [](RewriteCtx &ctx, const Node *contig) -> const Node * {
    Graph &g = ctx.g;
    const Node *src = contig->src[0];
    if (src->op != Op::VIEW)
      return nullptr;
    if (std::optional<ShapeTracker> sti = src->st()->invert(src->base()->shape()))
      ctx.get<NodeMap>()[src->base()] = g.view(contig, *sti);
    return nullptr;
  });
  pm.add(aluOps(), [](RewriteCtx &ctx, const Node *alu) -> const Node * {
    Graph &g = ctx.g;
    NodeList newSrc;
    bool changed = false;
    NodeMap &found = ctx.get<NodeMap>();
    for (const Node *s : alu->src) {
      auto it = found.find(s);
      newSrc.push_back(it == found.end() ? s : it->second);
      changed |= newSrc.back() != s;
    }
    return changed ? g.replace(alu, newSrc) : nullptr;
  });
  return pm;
}

const PatternMatcher &kernelize::replaceContiguous() {
  static const PatternMatcher pm = buildReplaceContiguous();
  return pm;
}

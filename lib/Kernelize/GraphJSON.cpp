//===- GraphJSON.cpp - tinygrad graph cases in and schedules out ----------===//

#include "uop/Kernelize/GraphJSON.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include <cmath>

using namespace mlir::uop;
using namespace mlir::uop::kernelize;
namespace json = llvm::json;
using shape::ShapeTracker;
using shape::View;

namespace {

/// Shapes past this many elements are refused: every size below stays far
/// from int64 overflow in the view arithmetic.
constexpr int64_t kMaxElements = int64_t(1) << 40;

struct Reader {
  explicit Reader(Graph &g) : g(g) {}
  Graph &g;
  GraphCase gc;
  std::vector<const Node *> nodes;
  size_t at = 0;
  int64_t maxUnique = -1;

  llvm::Error fail(const llvm::Twine &msg) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), msg.str());
  }

  llvm::Expected<DType> dtype(const json::Value &v) {
    if (auto s = v.getAsString())
      if (std::optional<Scalar> sc = scalarFromName(*s))
        return DType{*sc, -1};
    return fail("unknown dtype " + llvm::formatv("{0}", v).str());
  }

  llvm::Expected<Ints> ints(const json::Value &v, bool allowBool = false) {
    const json::Array *a = v.getAsArray();
    if (!a)
      return fail("expected a list of integers");
    Ints out;
    for (const json::Value &x : *a) {
      if (std::optional<int64_t> i = x.getAsInteger())
        out.push_back(*i);
      else if (std::optional<bool> b = allowBool ? x.getAsBoolean() : std::nullopt)
        out.push_back(*b);
      else
        return fail("expected a list of integers");
      if (std::abs(out.back()) > kMaxElements)
        return fail("size " + llvm::Twine(out.back()) + " is too large");
    }
    return out;
  }

  llvm::Expected<Pairs> pairs(const json::Value &v) {
    const json::Array *a = v.getAsArray();
    if (!a)
      return fail("expected a list of [begin, end] pairs");
    Pairs out;
    for (const json::Value &x : *a) {
      llvm::Expected<Ints> p = ints(x);
      if (!p)
        return p.takeError();
      if (p->size() != 2)
        return fail("expected a list of [begin, end] pairs");
      out.push_back({(*p)[0], (*p)[1]});
    }
    return out;
  }

  llvm::Expected<ShapeTracker> shapeTracker(const json::Value &v) {
    const json::Object *o = v.getAsObject();
    const json::Array *views = o ? o->getArray("views") : nullptr;
    if (!views || views->empty())
      return fail("a VIEW needs {\"views\": [...]}");
    ShapeTracker st;
    for (const json::Value &vv : *views) {
      const json::Object *vo = vv.getAsObject();
      if (!vo || !vo->get("shape") || !vo->get("strides"))
        return fail("a view needs shape and strides");
      llvm::Expected<Ints> shape = ints(*vo->get("shape")), strides = ints(*vo->get("strides"));
      if (!shape)
        return shape.takeError();
      if (!strides)
        return strides.takeError();
      if (shape->size() != strides->size())
        return fail("a view's shape and strides differ in rank");
      int64_t n = 1;
      for (int64_t s : *shape) {
        if (s < 0 || (s && n > kMaxElements / s))
          return fail("a view's shape is negative or too large");
        n *= s;
      }
      std::optional<int64_t> offset = vo->getInteger("offset");
      if (!offset || std::abs(*offset) > kMaxElements)
        return fail("a view needs an integer offset");
      std::optional<shape::Mask> mask;
      if (const json::Value *m = vo->get("mask"); m && !m->getAsNull()) {
        llvm::Expected<Pairs> p = pairs(*m);
        if (!p)
          return p.takeError();
        if (p->size() != shape->size())
          return fail("a view's mask differs in rank");
        mask.emplace(p->begin(), p->end());
        for (auto [r, s] : llvm::zip(*mask, *shape))
          if (r.first < 0 || r.first > r.second || r.second > s)
            return fail("a view's mask is out of its shape");
      }
      st.views.push_back(View::create(*shape, *strides, *offset, mask));
    }
    return st;
  }

  llvm::Expected<ConstValue> constant(const json::Value &v, DType dt) {
    ConstValue c;
    if (auto b = v.getAsBoolean())
      c = ConstValue::ofBool(*b);
    else if (auto i = v.getAsInteger())
      c = ConstValue::ofInt(*i);
    else if (auto u = v.getAsUINT64())
      c = ConstValue::ofInt((int64_t)*u);
    else if (auto d = v.getAsNumber())
      c = ConstValue::ofFloat(*d);
    else if (auto s = v.getAsString(); s && (*s == "inf" || *s == "-inf" || *s == "nan"))
      c = ConstValue::ofFloat(*s == "nan" ? NAN : *s == "inf" ? INFINITY : -INFINITY);
    else
      return fail("a CONST needs a number, a bool, \"inf\", \"-inf\" or \"nan\"");
    return c.as(dt.scalar);
  }

  /// The movement op's arg checked against its source's shape (tinygrad
  /// asserts; a bad case is an error here).
  llvm::Error checkMovement(Op op, const Node *x, const Arg &arg) {
    const ShapeTracker *st = x->st();
    if (!st)
      return fail(opName(op) + " of a node without a shape");
    llvm::ArrayRef<int64_t> shape = st->shape();
    auto rankIs = [&](size_t n) { return n == shape.size(); };
    switch (op) {
    case Op::RESHAPE: {
      const Ints &s = std::get<Ints>(arg);
      int64_t n = 1;
      for (int64_t d : s) {
        if (d < 0 || (d && n > kMaxElements / d))
          return fail("RESHAPE to a negative or too large shape");
        n *= d;
      }
      if (n != st->size())
        return fail("RESHAPE changes the number of elements");
      return llvm::Error::success();
    }
    case Op::PERMUTE: {
      Ints s = std::get<Ints>(arg);
      llvm::sort(s);
      for (size_t i = 0; i < s.size(); ++i)
        if (s[i] != (int64_t)i || !rankIs(s.size()))
          return fail("PERMUTE is not a permutation of the source's axes");
      return llvm::Error::success();
    }
    case Op::EXPAND: {
      const Ints &s = std::get<Ints>(arg);
      if (!rankIs(s.size()))
        return fail("EXPAND changes the rank");
      int64_t n = 1;
      for (auto [a, b] : llvm::zip(shape, s)) {
        if ((a != b && a != 1) || b < 0 || (b && n > kMaxElements / b))
          return fail("EXPAND of a dimension that is not 1, or too large");
        n *= b;
      }
      return llvm::Error::success();
    }
    case Op::PAD:
    case Op::SHRINK: {
      const Pairs &p = std::get<Pairs>(arg);
      if (!rankIs(p.size()))
        return fail(opName(op) + " changes the rank");
      for (auto [s, r] : llvm::zip(shape, p)) {
        if (op == Op::PAD && (r.first < 0 || r.second < 0))
          return fail("PAD by a negative amount");
        if (op == Op::SHRINK && !(0 <= r.first && r.first <= r.second && r.second <= s))
          return fail("SHRINK out of the source's shape");
      }
      return llvm::Error::success();
    }
    case Op::FLIP:
      if (!rankIs(std::get<Ints>(arg).size()))
        return fail("FLIP changes the rank");
      return llvm::Error::success();
    default:
      return llvm::Error::success();
    }
  }

  /// What tinygrad's tensor_uop_spec asks of each op's sources, so that
  /// every later step may take shapes and devices for granted.
  llvm::Error checkStructure(Op op, DType dt, llvm::ArrayRef<const Node *> src, const Arg &arg) {
    auto name = opName(op);
    auto shaped = [&](size_t from, size_t to) -> llvm::Error {
      const ShapeTracker *first = nullptr;
      for (size_t k = from; k < to; ++k) {
        const ShapeTracker *st = src[k]->st();
        if (!st || src[k]->op == Op::SINK || src[k]->dtype.scalar == Scalar::Void)
          return fail(name + "'s source " + llvm::Twine(k) + " is not a tensor");
        if (first && st->shape() != first->shape())
          return fail(name + "'s sources differ in shape");
        first = st;
      }
      return llvm::Error::success();
    };
    auto count = [&](size_t lo, size_t hi) -> llvm::Error {
      if (src.size() < lo || src.size() > hi)
        return fail(name + " takes " + (lo == hi ? llvm::Twine(lo) : llvm::Twine(lo) + " or more") +
                    " sources, not " + llvm::Twine(src.size()));
      return llvm::Error::success();
    };
    bool value = dt.scalar != Scalar::Void;
    // Ops that pass their source's value on keep its dtype.
    auto sameAs = [&](size_t k) -> llvm::Error {
      if (src.size() > k && src[k]->dtype != dt)
        return fail(name + " of " + scalarName(src[k]->dtype.scalar) + " must be " +
                    scalarName(src[k]->dtype.scalar) + ", not " + scalarName(dt.scalar));
      return llvm::Error::success();
    };
    if (isMovement(op) || op == Op::REDUCE_AXIS || op == Op::CONTIGUOUS ||
        op == Op::CONTIGUOUS_BACKWARD || op == Op::DETACH || op == Op::COPY || op == Op::ASSIGN ||
        (op == Op::VIEW && !src.empty() && src[0]->op != Op::DEVICE))
      if (llvm::Error e = sameAs(0))
        return e;
    if (op == Op::ASSIGN)
      if (llvm::Error e = sameAs(1))
        return e;
    switch (op) {
    case Op::UNIQUE:
    case Op::DEVICE:
      return count(0, 0);
    case Op::BUFFER:
      return value ? llvm::Error::success() : fail("a BUFFER needs a dtype");
    case Op::CONST:
      if (src.size() != 1 || src[0]->op != Op::VIEW || src[0]->src.size() != 1 ||
          src[0]->src[0]->op != Op::DEVICE || !value)
        return fail("a CONST has a dtype and one source, a VIEW of a DEVICE");
      return llvm::Error::success();
    case Op::VIEW:
      if (llvm::Error e = count(1, 1))
        return e;
      if (src[0]->op != Op::DEVICE && !src[0]->st())
        return fail("a VIEW's source must be a tensor or a DEVICE");
      if (src[0]->op != Op::DEVICE && src[0]->base()->st() &&
          std::get<STRef>(arg)->realSize() > src[0]->base()->size())
        return fail("a VIEW reaches past the end of the tensor under it");
      return llvm::Error::success();
    case Op::REDUCE_AXIS:
    case Op::CAST:
    case Op::BITCAST:
    case Op::CONTIGUOUS:
    case Op::CONTIGUOUS_BACKWARD:
    case Op::DETACH:
      if (llvm::Error e = count(1, 1))
        return e;
      if (llvm::Error e = shaped(0, 1))
        return e;
      if (!value)
        return fail(name + " needs a dtype");
      if (op == Op::BITCAST && itemSize(dt.scalar) != itemSize(src[0]->dtype.scalar)) {
        llvm::ArrayRef<int64_t> shape = src[0]->shape();
        if (shape.empty() || (shape.back() * itemSize(src[0]->dtype.scalar)) % itemSize(dt.scalar))
          return fail("BITCAST to a dtype whose size does not divide the last dimension's bytes");
      }
      return llvm::Error::success();
    case Op::COPY:
      if (src.size() != 2 || src[1]->op != Op::DEVICE)
        return fail("a COPY's sources are the value and a DEVICE");
      return shaped(0, 1);
    case Op::ASSIGN:
      if (llvm::Error e = count(2, SIZE_MAX))
        return e;
      if (llvm::Error e = shaped(0, 2))
        return e;
      for (const Node *s : src.drop_front(2))
        if (s->op != Op::ASSIGN)
          return fail("an ASSIGN's extra sources are ASSIGNs");
      return llvm::Error::success();
    case Op::SINK:
      for (const Node *s : src)
        if (!s->st() || s->op == Op::SINK || s->dtype.scalar == Scalar::Void)
          return fail("a SINK's sources are tensors");
      return llvm::Error::success();
    default:
      break;
    }
    if (isMovement(op))
      return llvm::Error::success(); // checkMovement
    if (isALU(op)) {
      size_t n = isUnary(op) ? 1 : isBinary(op) ? 2 : 3;
      if (llvm::Error e = count(n, n))
        return e;
      if (!value)
        return fail(name + " needs a dtype");
      if (llvm::Error e = shaped(0, n))
        return e;
      // The dtypes of tinygrad's spec: one dtype across the operands (the
      // branches of WHERE, whose condition is bool), bool out of comparisons.
      bool compare = op == Op::CMPLT || op == Op::CMPNE || op == Op::CMPEQ;
      size_t first = op == Op::WHERE ? 1 : 0;
      if (op == Op::WHERE && src[0]->dtype.scalar != Scalar::Bool)
        return fail("WHERE's condition must be bool");
      if (op != Op::SHL && op != Op::SHR)
        for (size_t k = first + 1; k < n; ++k)
          if (src[k]->dtype != src[first]->dtype)
            return fail(name + "'s sources differ in dtype");
      DType out = compare ? DType{Scalar::Bool, -1} : src[first]->dtype;
      if (dt != out)
        return fail(name + " of " + scalarName(src[first]->dtype.scalar) + " must be " +
                    scalarName(out.scalar) + ", not " + scalarName(dt.scalar));
      return llvm::Error::success();
    }
    return fail(name + " is not a tensor-graph op");
  }

  llvm::Error node(const json::Value &v) {
    const json::Array *a = v.getAsArray();
    if (!a || a->size() != 4)
      return fail("expected [op, dtype, arg, [sources]]");
    std::optional<llvm::StringRef> opStr = (*a)[0].getAsString();
    std::optional<Op> op = opStr ? opFromName(*opStr) : std::nullopt;
    if (!op)
      return fail("unknown op " + llvm::formatv("{0}", (*a)[0]).str());
    llvm::Expected<DType> dt = dtype((*a)[1]);
    if (!dt)
      return dt.takeError();
    const json::Array *srcIdx = (*a)[3].getAsArray();
    if (!srcIdx)
      return fail("sources must be a list");
    NodeList src;
    for (const json::Value &s : *srcIdx) {
      std::optional<int64_t> i = s.getAsInteger();
      if (!i || *i < 0 || (size_t)*i >= nodes.size())
        return fail("a source must be the index of an earlier node");
      src.push_back(nodes[*i]);
    }
    const json::Value &argJ = (*a)[2];
    Arg arg;
    switch (*op) {
    case Op::BUFFER: {
      const json::Object *o = argJ.getAsObject();
      std::optional<int64_t> num = o ? o->getInteger("num") : std::nullopt;
      std::optional<int64_t> size = o ? o->getInteger("size") : std::nullopt;
      if (!num || !size || *size < 0 || *size > kMaxElements)
        return fail("a BUFFER needs {\"num\", \"size\"} (size at most 2^40)");
      if (src.size() != 2 || src[0]->op != Op::UNIQUE || src[1]->op != Op::DEVICE)
        return fail("a BUFFER's sources are UNIQUE and DEVICE");
      if (dt->scalar == Scalar::Void)
        return fail("a BUFFER needs a dtype");
      arg = *size;
      const Node *n = g.get(*op, *dt, src, arg);
      gc.bufferNumbers[n] = *num;
      gc.numBuffers = std::max(gc.numBuffers, *num + 1);
      nodes.push_back(n);
      return llvm::Error::success();
    }
    case Op::UNIQUE: {
      std::optional<int64_t> i = argJ.getAsInteger();
      if (!i)
        return fail("a UNIQUE needs an integer");
      arg = *i;
      maxUnique = std::max(maxUnique, *i);
      break;
    }
    case Op::DEVICE:
      if (!argJ.getAsString())
        return fail("a DEVICE needs a string");
      arg = argJ.getAsString()->str();
      break;
    case Op::CONST: {
      llvm::Expected<ConstValue> c = constant(argJ, *dt);
      if (!c)
        return c.takeError();
      arg = *c;
      break;
    }
    case Op::VIEW: {
      llvm::Expected<ShapeTracker> st = shapeTracker(argJ);
      if (!st)
        return st.takeError();
      arg = g.intern(*st);
      break;
    }
    case Op::RESHAPE:
    case Op::EXPAND:
    case Op::PERMUTE:
    case Op::FLIP: {
      llvm::Expected<Ints> i = ints(argJ, *op == Op::FLIP);
      if (!i)
        return i.takeError();
      arg = *i;
      break;
    }
    case Op::PAD:
    case Op::SHRINK: {
      llvm::Expected<Pairs> p = pairs(argJ);
      if (!p)
        return p.takeError();
      arg = *p;
      break;
    }
    case Op::REDUCE_AXIS: {
      const json::Object *o = argJ.getAsObject();
      std::optional<llvm::StringRef> rop = o ? o->getString("op") : std::nullopt;
      std::optional<Op> r = rop ? opFromName(*rop) : std::nullopt;
      const json::Value *axesJ = o ? o->get("axes") : nullptr;
      if (!r || (*r != Op::ADD && *r != Op::MUL && *r != Op::MAX) || !axesJ)
        return fail("a REDUCE_AXIS needs {\"op\": ADD|MUL|MAX, \"axes\"}");
      llvm::Expected<Ints> axes = ints(*axesJ);
      if (!axes)
        return axes.takeError();
      if (src.size() != 1 || !src[0]->st())
        return fail("a REDUCE_AXIS needs one source with a shape");
      for (int64_t x : *axes)
        if (x < 0 || x >= src[0]->st()->rank())
          return fail("a REDUCE_AXIS axis is out of range");
      arg = ReduceArg{*r, *axes, false};
      break;
    }
    default:
      if (!argJ.getAsNull())
        return fail(opName(*op) + " takes no arg");
    }
    if (isMovement(*op)) {
      if (src.size() != 1)
        return fail(opName(*op) + " needs one source");
      if (llvm::Error e = checkMovement(*op, src[0], arg))
        return e;
    }
    if (llvm::Error e = checkStructure(*op, *dt, src, arg))
      return e;
    nodes.push_back(g.get(*op, *dt, src, arg));
    return llvm::Error::success();
  }
};

} // namespace

llvm::Expected<GraphCase> kernelize::readGraphCase(Graph &g, llvm::StringRef text,
                                                   std::optional<size_t> *badNode) {
  llvm::Expected<json::Value> parsed = json::parse(text);
  if (!parsed)
    return parsed.takeError();
  const json::Object *o = parsed->getAsObject();
  const json::Array *graph = o ? o->getArray("graph") : nullptr;
  if (!graph || graph->empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "a graph case needs a non-empty \"graph\" list");
  Reader r{g};
  for (const json::Value &n : *graph) {
    if (llvm::Error e = r.node(n)) {
      if (badNode)
        *badNode = r.at;
      return std::move(e);
    }
    ++r.at;
  }
  r.gc.nodes = r.nodes;
  if (r.nodes.back()->op != Op::SINK)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "the last graph node must be the SINK");
  r.gc.sink = r.nodes.back();
  g.setNextUnique(r.maxUnique + 1);
  if (const json::Object *f = o->getObject("flags")) {
    KernelizeOptions &k = r.gc.options;
    auto flag = [&](llvm::StringRef name, int64_t &out) {
      if (std::optional<int64_t> v = f->getInteger(name))
        out = *v;
    };
    int64_t fa = k.fuseArange, fc = k.fuseConvBw, dre = k.dontRealizeExpand,
            dgr = k.dontGroupReduces, sr = k.splitReduceop;
    flag("FUSE_ARANGE", fa);
    flag("FUSE_CONV_BW", fc);
    flag("DONT_REALIZE_EXPAND", dre);
    flag("DONT_GROUP_REDUCES", dgr);
    flag("SPLIT_REDUCEOP", sr);
    flag("REDUCEOP_SPLIT_THRESHOLD", k.reduceopSplitThreshold);
    flag("REDUCEOP_SPLIT_SIZE", k.reduceopSplitSize);
    flag("MAX_KERNEL_BUFFERS", k.maxKernelBuffers);
    k.fuseArange = fa, k.fuseConvBw = fc, k.dontRealizeExpand = dre, k.dontGroupReduces = dgr,
    k.splitReduceop = sr;
  }
  return r.gc;
}

//===----------------------------------------------------------------------===//
// Writing
//===----------------------------------------------------------------------===//

namespace {

json::Value dtypeJSON(DType d) {
  if (d.isPtr())
    return json::Object{
        {"ptr", scalarName(d.scalar)}, {"size", d.ptrSize}, {"addrspace", "global"}};
  return scalarName(d.scalar);
}

json::Value stJSON(const ShapeTracker &st) {
  json::Array views;
  for (const View &v : st.views) {
    json::Value mask = nullptr;
    if (v.mask) {
      json::Array m;
      for (auto [lo, hi] : *v.mask)
        m.push_back(json::Array{lo, hi});
      mask = std::move(m);
    }
    views.push_back(json::Object{{"shape", json::Array(v.shape)},
                                 {"strides", json::Array(v.strides)},
                                 {"offset", v.offset},
                                 {"mask", std::move(mask)},
                                 {"contiguous", v.contiguous}});
  }
  return json::Object{{"views", std::move(views)}};
}

json::Value constJSON(const ConstValue &c) {
  switch (c.kind) {
  case ConstValue::Bool:
    return c.i != 0;
  case ConstValue::Int:
    return c.i;
  case ConstValue::Float:
    if (std::isnan(c.f))
      return "nan";
    if (std::isinf(c.f))
      return c.f > 0 ? "inf" : "-inf";
    return c.f;
  }
  return nullptr;
}

json::Value argJSON(const Node *n) {
  switch (n->op) {
  case Op::VIEW:
    return stJSON(n->viewArg());
  case Op::CONST:
    return constJSON(n->as<ConstValue>());
  case Op::REDUCE_AXIS: {
    json::Object o{{"op", opName(n->reduce().op)}, {"axes", json::Array(n->reduce().axes)}};
    if (n->reduce().fuse)
      o["fuse"] = true;
    return o;
  }
  case Op::DEFINE_GLOBAL:
  case Op::UNIQUE:
    return n->intArg();
  case Op::DEVICE:
    return std::get<std::string>(n->arg);
  default:
    return nullptr;
  }
}

} // namespace

json::Array kernelize::astToJSON(const Node *ast) {
  json::Array out;
  llvm::DenseMap<const Node *, int64_t> index;
  for (const Node *n : ast->toposort()) {
    json::Array src;
    for (const Node *s : n->src)
      src.push_back(index.lookup(s));
    index[n] = out.size();
    out.push_back(json::Array{opName(n->op), dtypeJSON(n->dtype), argJSON(n), std::move(src)});
  }
  return out;
}

json::Array kernelize::scheduleToJSON(const std::vector<ScheduleItem> &schedule, GraphCase &gc) {
  json::Array out;
  for (const ScheduleItem &item : schedule) {
    json::Array globals;
    for (const Node *b : item.bufs) {
      auto [it, added] = gc.bufferNumbers.insert({b, gc.numBuffers});
      if (added)
        ++gc.numBuffers;
      globals.push_back(it->second);
    }
    out.push_back(json::Object{{"kind", item.ast->op == Op::SINK ? "kernel" : "copy"},
                               {"ast", astToJSON(item.ast)},
                               {"globals", std::move(globals)}});
  }
  return out;
}

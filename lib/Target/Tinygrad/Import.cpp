//===- Import.cpp - tinygrad kernel JSON to a uop.kernel ------------------===//
//
// One op per node, in node order. ALU ops, CAST and BITCAST are built
// generically from the table in DTypes.cpp (their dtype and sources are all
// there is); the ops with an arg have a builder each. Whether the result is a
// valid kernel is left to the dialect's verifier, so the importer checks only
// what it needs to build ops: the shape of each node, its op, dtype, arg and
// source indices.
//
//===----------------------------------------------------------------------===//

#include "uop/Target/Tinygrad/TinygradJSON.h"

#include "DTypes.h"
#include "JSONDepth.h"
#include "uop/Dialect/UOp/IR/UOpOps.h"
#include "uop/Dialect/UOp/Utils/AffineSum.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"

using namespace mlir;
using namespace mlir::uop;
namespace json = llvm::json;

namespace {

/// A JSON value as text, for messages.
std::string jsonText(const json::Value &v) {
  std::string s;
  llvm::raw_string_ostream(s) << v;
  return s;
}

class KernelImporter {
public:
  KernelImporter(ModuleOp module, StringRef text, StringRef filename)
      : ctx(module.getContext()), b(ctx), module(module), text(text), filename(filename),
        lines(text), genericOps(tinygrad::genericOps(ctx)) {}

  LogicalResult run(StringRef defaultName);

private:
  Location fileLoc(unsigned line, unsigned col) {
    return FileLineColLoc::get(ctx, filename, line, col);
  }
  Location nodeLoc(size_t i) {
    auto [line, col] = i < offsets.size() ? lines.lineCol(offsets[i]) : std::make_pair(1u, 1u);
    return NameLoc::get(b.getStringAttr("node " + std::to_string(i)), fileLoc(line, col));
  }
  InFlightDiagnostic nodeError(size_t i, StringRef op = "") {
    InFlightDiagnostic d = emitError(nodeLoc(i)) << "node " << i;
    if (!op.empty())
      d << " (" << op << ")";
    return std::move(d << ": ");
  }

  FailureOr<Type> parseDType(size_t i, StringRef op, const json::Value &v);
  LogicalResult importNode(size_t i, const json::Value &node);
  FailureOr<Value> buildOp(size_t i, StringRef op, Type type, const json::Value &arg,
                           ArrayRef<Value> srcs);
  FailureOr<ShapeTrackerAttr> parseShapeTracker(size_t i, const json::Value &arg);
  FailureOr<TypedAttr> parseConst(size_t i, Type type, const json::Value &arg);
  /// A symbolic VIEW entry as constant + sum(coef * variable).
  FailureOr<sym::AffineSum> parseSymbolic(size_t i, const json::Value &v, int depth);

  MLIRContext *ctx;
  OpBuilder b;
  ModuleOp module;
  StringRef text, filename;
  tinygrad::LineTable lines;
  SmallVector<size_t> offsets;
  SmallVector<Value> values;   // the value of each node (null for SINK)
  SmallVector<int64_t> depths; // the longest chain of sources below each node
  int64_t numDefineGlobals = 0;
  llvm::StringMap<tinygrad::GenericOp> genericOps; // ALU, CAST, BITCAST by tinygrad name
  // The variables the views use (tinygrad's DEFINE_VARs), in order of first use.
  struct Variable {
    std::string name;
    int64_t min, max;
    size_t node; // where it is first used
  };
  SmallVector<Variable> variables;
  Variable *findVariable(StringRef name) {
    auto it = llvm::find_if(variables, [&](const Variable &v) { return v.name == name; });
    return it == variables.end() ? nullptr : &*it;
  }
};

LogicalResult KernelImporter::run(StringRef defaultName) {
  if (std::optional<size_t> deep = tinygrad::findTooDeep(text)) {
    auto [line, col] = lines.lineCol(*deep);
    return emitError(fileLoc(line, col))
           << "JSON nested more than " << tinygrad::kMaxJSONDepth << " deep";
  }
  json::Value root(nullptr);
  if (llvm::Expected<json::Value> parsed = json::parse(text)) {
    root = std::move(*parsed);
  } else {
    // llvm::json reports "[line:col, byte=N]: message".
    std::string msg = llvm::toString(parsed.takeError());
    SmallVector<StringRef> m;
    unsigned line = 1, col = 1;
    if (llvm::Regex("^\\[([0-9]+):([0-9]+), byte=[0-9]+\\]: (.*)$").match(msg, &m)) {
      m[1].getAsInteger(10, line);
      m[2].getAsInteger(10, col);
      msg = m[3].str();
    }
    return emitError(fileLoc(line, col)) << "malformed JSON: " << msg;
  }
  const json::Object *obj = root.getAsObject();
  const json::Array *nodes = obj ? obj->getArray("nodes") : nullptr;
  if (!nodes)
    return emitError(fileLoc(1, 1)) << "expected an object with a \"nodes\" array";
  if (nodes->empty())
    return emitError(fileLoc(1, 1)) << "the kernel has no nodes";
  offsets = tinygrad::scanArrayOffsets(text, "nodes");

  std::string name = tinygrad::kernelName(*obj);
  if (name.empty())
    name = tinygrad::functionName(defaultName);
  numDefineGlobals = llvm::count_if(*nodes, [](const json::Value &n) {
    const json::Array *a = n.getAsArray();
    return a && !a->empty() && (*a)[0].getAsString() == StringRef("DEFINE_GLOBAL");
  });

  b.setInsertionPointToEnd(module.getBody());
  auto kernel = KernelOp::create(b, fileLoc(1, 1), name);
  b.setInsertionPointToEnd(&kernel.getBodyBlock());
  for (auto [i, node] : llvm::enumerate(*nodes))
    if (failed(importNode(i, node))) {
      kernel.erase();
      return failure();
    }
  // The variables the views named, first in the kernel, as tinygrad's
  // lowerer makes them DEFINE_VARs.
  b.setInsertionPointToStart(&kernel.getBodyBlock());
  for (const Variable &v : variables)
    DefineVarOp::create(b, nodeLoc(v.node), IntegerType::get(ctx, 32, IntegerType::Signed),
                        b.getStringAttr(v.name), b.getI64IntegerAttr(v.min),
                        b.getI64IntegerAttr(v.max));
  if (kernel.getBodyBlock().empty() || !isa<SinkOp>(kernel.getBodyBlock().back())) {
    emitError(nodeLoc(nodes->size() - 1)) << "the last node must be the SINK";
    kernel.erase();
    return failure();
  }
  if (failed(verify(kernel))) {
    kernel.erase();
    return failure();
  }
  return success();
}

FailureOr<Type> KernelImporter::parseDType(size_t i, StringRef op, const json::Value &v) {
  if (auto s = v.getAsString()) {
    if (*s == "void")
      return Type(VoidType::get(ctx));
    if (Type t = tinygrad::scalarFromName(ctx, *s))
      return t;
    return LogicalResult(nodeError(i, op) << "unknown dtype \"" << *s << "\"");
  }
  const json::Object *p = v.getAsObject();
  if (!p || !p->getString("ptr"))
    return LogicalResult(nodeError(i, op)
                         << "dtype must be a name or {\"ptr\": ..., \"size\": ...}");
  Type elem = tinygrad::scalarFromName(ctx, *p->getString("ptr"));
  if (!elem)
    return LogicalResult(nodeError(i, op)
                         << "unknown pointer dtype \"" << *p->getString("ptr") << "\"");
  int64_t size = p->getInteger("size").value_or(PtrType::kUnknownSize);
  StringRef space = p->getString("addrspace").value_or("global");
  std::optional<AddressSpace> as = symbolizeAddressSpace(space);
  if (!as)
    return LogicalResult(nodeError(i, op) << "unknown address space \"" << space << "\"");
  if (size < PtrType::kUnknownSize)
    return LogicalResult(nodeError(i, op) << "pointer size must be non-negative, got " << size);
  return Type(PtrType::get(elem, size, *as));
}

LogicalResult KernelImporter::importNode(size_t i, const json::Value &node) {
  const json::Array *n = node.getAsArray();
  if (!n || n->size() != 4)
    return nodeError(i) << "expected [op, dtype, arg, [sources]]";
  std::optional<StringRef> op = (*n)[0].getAsString();
  if (!op)
    return nodeError(i) << "op must be a string";
  FailureOr<Type> type = parseDType(i, *op, (*n)[1]);
  if (failed(type))
    return failure();
  const json::Array *srcIdx = (*n)[3].getAsArray();
  if (!srcIdx)
    return nodeError(i, *op) << "sources must be a list of node indices";
  SmallVector<Value> srcs;
  int64_t depth = 0;
  for (const json::Value &s : *srcIdx) {
    std::optional<int64_t> j = s.getAsInteger();
    if (!j || *j < 0 || *j >= (int64_t)i)
      return nodeError(i, *op) << "source " << jsonText(s) << " is not an earlier node";
    if (!values[*j])
      return nodeError(i, *op) << "source " << *j << " has no value";
    srcs.push_back(values[*j]);
    depth = std::max(depth, depths[*j] + 1);
  }
  if (depth > tinygrad::kMaxNodeDepth)
    return nodeError(i, *op) << "a chain of more than " << tinygrad::kMaxNodeDepth
                             << " sources (the passes recurse once per level)";
  FailureOr<Value> v = buildOp(i, *op, *type, (*n)[2], srcs);
  if (failed(v))
    return failure();
  values.push_back(*v);
  depths.push_back(depth);
  return success();
}

FailureOr<Value> KernelImporter::buildOp(size_t i, StringRef op, Type type, const json::Value &arg,
                                         ArrayRef<Value> srcs) {
  Location loc = nodeLoc(i);
  auto expectSrcs = [&](size_t lo, size_t hi) -> LogicalResult {
    if (srcs.size() >= lo && srcs.size() <= hi)
      return success();
    InFlightDiagnostic d = nodeError(i, op) << "expected ";
    if (lo == hi)
      d << lo;
    else
      d << lo << " to " << hi;
    return d << " source" << (hi == 1 ? "" : "s") << ", got " << srcs.size();
  };

  if (auto g = genericOps.find(op); g != genericOps.end()) {
    if (failed(expectSrcs(g->second.numSrcs, g->second.numSrcs)))
      return failure();
    OperationState state(loc, g->second.uop);
    state.addOperands(srcs);
    state.addTypes(type);
    return b.create(state)->getResult(0);
  }

  if (op == "SINK") {
    SinkOp::create(b, loc, srcs);
    return Value();
  }
  if (op == "DEFINE_GLOBAL") {
    std::optional<int64_t> idx = arg.getAsInteger();
    if (failed(expectSrcs(0, 0)))
      return failure();
    if (!idx)
      return LogicalResult(nodeError(i, op) << "arg must be the buffer index");
    // tinygrad numbers a kernel's buffers 0, 1, ...: a larger index would
    // make that many kernel parameters.
    if (*idx < 0 || *idx >= numDefineGlobals)
      return LogicalResult(nodeError(i, op)
                           << "buffer index " << *idx << " is not in [0, " << numDefineGlobals
                           << "): the kernel has " << numDefineGlobals << " DEFINE_GLOBALs");
    return Value(DefineGlobalOp::create(b, loc, type, *idx));
  }
  if (op == "VIEW") {
    if (failed(expectSrcs(0, 1)))
      return failure();
    FailureOr<ShapeTrackerAttr> st = parseShapeTracker(i, arg);
    if (failed(st))
      return failure();
    return Value(ViewOp::create(b, loc, type, srcs.empty() ? Value() : srcs[0], *st));
  }
  if (op == "VALID") {
    if (failed(expectSrcs(1, 1)))
      return failure();
    return Value(ValidOp::create(b, loc, type, srcs[0]));
  }
  if (op == "LOAD") {
    if (failed(expectSrcs(1, 2)))
      return failure();
    // Early form: LOAD(VIEW, STORE?) -- the optional source is what it waits for.
    return Value(LoadOp::create(b, loc, type, srcs[0], Value(), srcs.drop_front()));
  }
  if (op == "STORE") {
    if (failed(expectSrcs(2, 2)))
      return failure();
    return Value(StoreOp::create(b, loc, srcs[0], srcs[1], Value(), Value()));
  }
  if (op == "CONST") {
    if (failed(expectSrcs(0, 1)))
      return failure();
    FailureOr<TypedAttr> value = parseConst(i, type, arg);
    if (failed(value))
      return failure();
    if (srcs.empty())
      return Value(ConstOp::create(b, loc, type, *value));
    return Value(ShapedConstOp::create(b, loc, type, *value, srcs[0]));
  }
  if (op == "REDUCE_AXIS") {
    if (failed(expectSrcs(1, 1)))
      return failure();
    const json::Object *a = arg.getAsObject();
    std::optional<StringRef> red = a ? a->getString("op") : std::nullopt;
    const json::Array *axes = a ? a->getArray("axes") : nullptr;
    if (!red || !axes)
      return LogicalResult(nodeError(i, op) << "arg must be {\"op\": ..., \"axes\": [...]}");
    std::optional<ReduceKind> kind = symbolizeReduceKind(red->lower());
    if (!kind)
      return LogicalResult(nodeError(i, op) << "unknown reduce op \"" << *red << "\"");
    SmallVector<int64_t> ax;
    for (const json::Value &x : *axes) {
      if (!x.getAsInteger())
        return LogicalResult(nodeError(i, op) << "axes must be integers");
      ax.push_back(*x.getAsInteger());
    }
    auto r = ReduceAxisOp::create(b, loc, type, *kind, srcs[0], ax);
    if (a->getBoolean("fuse").value_or(false))
      r.setFuse(true);
    return Value(r);
  }
  return LogicalResult(nodeError(i, op) << "unknown op (the importer reads kernel ASTs: "
                                        << "SINK, STORE, LOAD, VIEW, VALID, DEFINE_GLOBAL, CONST, "
                                        << "REDUCE_AXIS and the ALU ops)");
}

FailureOr<ShapeTrackerAttr> KernelImporter::parseShapeTracker(size_t i, const json::Value &arg) {
  auto bad = [&](const Twine &what) { return LogicalResult(nodeError(i, "VIEW") << what); };
  // One entry: an integer, or a symbolic expression (a SymEntry for `slot`,
  // the integer its upper bound). False on a malformed one; failure() once
  // reported.
  SmallVector<SymEntryAttr> sym;
  bool reported = false;
  auto entry = [&](const json::Value &x, int64_t slot, int64_t &out) -> bool {
    if (std::optional<int64_t> v = x.getAsInteger()) {
      out = *v;
      return true;
    }
    if (!x.getAsObject())
      return false;
    FailureOr<sym::AffineSum> e = parseSymbolic(i, x, 0);
    if (failed(e)) {
      reported = true;
      return false;
    }
    if (e->isConstant()) {
      out = e->constant;
      return true;
    }
    SymEntryAttr s = e->toAttr(ctx, slot);
    std::optional<std::pair<int64_t, int64_t>> bounds = s.bounds([&](StringRef name) {
      Variable *var = findVariable(name);
      return std::make_pair(var->min, var->max);
    });
    if (!bounds) {
      nodeError(i, "VIEW") << "symbolic entry overflows int64";
      reported = true;
      return false;
    }
    out = bounds->second;
    sym.push_back(s);
    return true;
  };
  auto list = [&](const json::Value *v, int64_t firstSlot, SmallVectorImpl<int64_t> &out) -> bool {
    const json::Array *a = v ? v->getAsArray() : nullptr;
    if (!a)
      return false;
    for (const json::Value &x : *a)
      if (!entry(x, firstSlot + out.size(), out.emplace_back()))
        return false;
    return true;
  };
  const json::Object *o = arg.getAsObject();
  const json::Array *views = o ? o->getArray("views") : nullptr;
  if (!views || views->empty())
    return bad("arg must be {\"views\": [...]} with at least one view");
  SmallVector<ViewAttr> result;
  for (size_t k = 0; k < views->size(); ++k) {
    const json::Object *v = (*views)[k].getAsObject();
    SmallVector<int64_t> shape, strides, mask;
    sym.clear();
    const json::Array *shapeList = v ? v->getArray("shape") : nullptr;
    int64_t rank = shapeList ? shapeList->size() : 0;
    if (!v || !list(v->get("shape"), 0, shape) || !list(v->get("strides"), rank, strides))
      return reported ? failure()
                      : bad("view " + Twine(k) +
                            " needs \"shape\" and \"strides\" lists of "
                            "integers or symbolic expressions");
    int64_t offset = 0;
    const json::Value *off = v->get("offset");
    if (!off || !entry(*off, 2 * rank, offset))
      return reported ? failure() : bad("view " + Twine(k) + " needs an integer \"offset\"");
    if (const json::Value *m = v->get("mask"); m && !m->getAsNull()) {
      const json::Array *pairs = m->getAsArray();
      if (!pairs)
        return bad("view " + Twine(k) + ": mask must be null or a list of [lo, hi]");
      for (const json::Value &p : *pairs) {
        size_t before = mask.size();
        SmallVector<int64_t> pair;
        if (!list(&p, 2 * rank + 1 + before, pair) || pair.size() != 2)
          return reported ? failure()
                          : bad("view " + Twine(k) + ": mask must be null or a list of [lo, hi]");
        mask.append(pair);
      }
    }
    auto emit = [&]() -> InFlightDiagnostic {
      InFlightDiagnostic d = nodeError(i, "VIEW");
      d << "view " << k << ": ";
      return d;
    };
    // ArrayRefs, so that the generated (out-of-line) getChecked is the match.
    llvm::sort(sym, [](SymEntryAttr a, SymEntryAttr b) { return a.getSlot() < b.getSlot(); });
    auto view =
        ViewAttr::getChecked(emit, ctx, ArrayRef<int64_t>(shape), ArrayRef<int64_t>(strides),
                             offset, ArrayRef<int64_t>(mask), ArrayRef<SymEntryAttr>(sym));
    if (!view)
      return failure();
    result.push_back(view);
  }
  return ShapeTrackerAttr::get(ctx, result);
}

// {"var": "n", "min": 1, "max": 10} (tinygrad's DEFINE_VAR), {"op": "ADD" | "MUL",
// "src": [a, b]} (a sum, or a product with a constant), or an integer.
FailureOr<sym::AffineSum> KernelImporter::parseSymbolic(size_t i, const json::Value &v, int depth) {
  auto bad = [&](const Twine &what) { return LogicalResult(nodeError(i, "VIEW") << what); };
  if (depth > 64)
    return bad("symbolic expression nested too deep");
  if (std::optional<int64_t> c = v.getAsInteger())
    return sym::AffineSum::ofConstant(*c);
  const json::Object *o = v.getAsObject();
  if (!o)
    return bad("a symbolic entry must be an integer or an object");
  if (std::optional<StringRef> name = o->getString("var")) {
    std::optional<int64_t> lo = o->getInteger("min"), hi = o->getInteger("max");
    if (name->empty() || !lo || !hi || *lo > *hi || *lo < INT32_MIN || *hi > INT32_MAX)
      return bad("variable \"" + *name +
                 "\" needs a name and integer \"min\" <= \"max\" within int32");
    if (Variable *known = findVariable(*name); !known)
      variables.push_back({name->str(), *lo, *hi, i});
    else if (known->min != *lo || known->max != *hi)
      return bad("variable \"" + *name + "\" has bounds [" + Twine(*lo) + ", " + Twine(*hi) +
                 "] here and [" + Twine(known->min) + ", " + Twine(known->max) + "] elsewhere");
    return sym::AffineSum::ofVariable(*name);
  }
  std::optional<StringRef> op = o->getString("op");
  const json::Array *src = o->getArray("src");
  if (!op || !src || src->size() != 2 || (*op != "ADD" && *op != "MUL"))
    return bad("a symbolic expression is {\"var\", \"min\", \"max\"} or {\"op\": \"ADD\" "
               "or \"MUL\", \"src\": [a, b]}");
  FailureOr<sym::AffineSum> a = parseSymbolic(i, (*src)[0], depth + 1);
  if (failed(a))
    return failure();
  FailureOr<sym::AffineSum> c = parseSymbolic(i, (*src)[1], depth + 1);
  if (failed(c))
    return failure();
  std::optional<sym::AffineSum> out;
  if (*op == "ADD") {
    out = a->plus(*c);
  } else if (!a->isConstant() && !c->isConstant()) {
    return bad("a product of variables is not supported in a symbolic entry (only sums of "
               "variables times constants)");
  } else {
    out = a->isConstant() ? c->times(a->constant) : a->times(c->constant);
  }
  if (!out)
    return bad("symbolic entry overflows int64");
  return *out;
}

FailureOr<TypedAttr> KernelImporter::parseConst(size_t i, Type type, const json::Value &arg) {
  Type elem = getScalarType(type);
  auto bad = [&](const Twine &what) { return LogicalResult(nodeError(i, "CONST") << what); };
  TypedAttr scalar;
  if (elem.isInteger(1)) {
    std::optional<bool> v = arg.getAsBoolean();
    if (!v && arg.getAsInteger())
      v = *arg.getAsInteger() != 0;
    if (!v)
      return bad("a bool constant must be true or false");
    scalar = b.getIntegerAttr(elem, *v);
  } else if (auto it = dyn_cast<IntegerType>(elem)) {
    unsigned w = it.getWidth();
    if (std::optional<int64_t> v = arg.getAsInteger()) {
      APInt ap(64, *v, /*isSigned=*/true);
      // tinygrad writes x - 8 on an unsigned dtype as x + CONST(-8) and ~x as
      // x ^ CONST(-1): a negative constant down to -2^w is read modulo 2^w,
      // as C reads -8u.
      bool fitsUnsigned =
          w >= 64 || (*v >= 0 ? ap.isIntN(w) : (-ap).ule(APInt::getOneBitSet(64, w)));
      if (it.isUnsigned() ? !fitsUnsigned : !ap.isSignedIntN(w))
        return bad("constant " + Twine(*v) + " does not fit " + tinygrad::nameOfScalar(elem));
      scalar = IntegerAttr::get(elem, ap.trunc(w));
    } else if (std::optional<uint64_t> u = arg.getAsUINT64(); u && it.isUnsigned()) {
      scalar = IntegerAttr::get(elem, APInt(64, *u).trunc(w));
    } else {
      return bad("an integer constant must be an integer");
    }
  } else if (auto ft = dyn_cast<FloatType>(elem)) {
    double d;
    if (std::optional<StringRef> s = arg.getAsString()) {
      if (*s == "inf")
        d = std::numeric_limits<double>::infinity();
      else if (*s == "-inf")
        d = -std::numeric_limits<double>::infinity();
      else if (*s == "nan")
        d = std::numeric_limits<double>::quiet_NaN();
      else
        return bad("a float constant must be a number, \"inf\", \"-inf\" or \"nan\"");
    } else if (std::optional<double> n = arg.getAsNumber()) {
      d = *n;
    } else {
      return bad("a float constant must be a number, \"inf\", \"-inf\" or \"nan\"");
    }
    // tinygrad keeps a Python float; the kernel computes with it in its dtype.
    APFloat ap(d);
    bool lost;
    ap.convert(ft.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
    scalar = FloatAttr::get(elem, ap);
  } else {
    return bad("a constant needs a scalar dtype");
  }
  if (auto shaped = dyn_cast<ShapedType>(type))
    return TypedAttr(SplatElementsAttr::get(shaped, scalar));
  return scalar;
}

} // namespace

LogicalResult mlir::uop::importTinygradKernel(StringRef json, StringRef filename,
                                              StringRef defaultName, ModuleOp module) {
  return KernelImporter(module, json, filename).run(defaultName);
}

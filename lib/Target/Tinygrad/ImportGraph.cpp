//===- ImportGraph.cpp - tinygrad tensor graphs to the uop dialect --------===//
//
// A graph case (../shared/graphs/README.md) becomes a func.func of uop ops
// on tensors, one op per graph node, returning the SINK's sources. UNIQUE
// and DEVICE become attributes (uop.buffer's unique id and device, a
// constant's uop.device); everything else is the dialect's op of that name.
//
//===----------------------------------------------------------------------===//

#include "DTypes.h"
#include "JSONDepth.h"
#include "uop/Dialect/UOp/IR/ShapeTracker.h"
#include "uop/Dialect/UOp/IR/UOpOps.h"
#include "uop/Kernelize/GraphJSON.h"
#include "uop/Target/Tinygrad/TinygradJSON.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Verifier.h"

using namespace mlir;
using namespace mlir::uop;
namespace kz = mlir::uop::kernelize;

namespace {

class GraphImporter {
public:
  GraphImporter(ModuleOp module, StringRef text, StringRef filename)
      : ctx(module.getContext()), b(ctx), module(module), text(text), filename(filename),
        lines(text), offsets(tinygrad::scanArrayOffsets(text, "graph")),
        genericOps(tinygrad::genericOps(ctx)) {}

  LogicalResult run(StringRef defaultName);

private:
  Location nodeLoc(size_t i) {
    auto [line, col] = i < offsets.size() ? lines.lineCol(offsets[i]) : std::make_pair(1u, 1u);
    return NameLoc::get(b.getStringAttr("node " + std::to_string(i)),
                        FileLineColLoc::get(ctx, filename, line, col));
  }
  Type scalar(kz::DType d) { return tinygrad::scalarFromName(ctx, kz::scalarName(d.scalar)); }
  RankedTensorType tensorOf(ArrayRef<int64_t> shape, kz::DType d) {
    return RankedTensorType::get(shape, scalar(d));
  }
  TypedAttr constAttr(const kz::ConstValue &v, RankedTensorType type);
  FailureOr<Value> build(size_t i, const kz::Node *n);

  MLIRContext *ctx;
  OpBuilder b;
  ModuleOp module;
  StringRef text, filename;
  tinygrad::LineTable lines;
  SmallVector<size_t> offsets;
  llvm::StringMap<tinygrad::GenericOp> genericOps;
  llvm::DenseMap<const kz::Node *, Value> values;
};

TypedAttr GraphImporter::constAttr(const kz::ConstValue &v, RankedTensorType type) {
  Type elem = type.getElementType();
  Attribute scalar;
  if (elem.isInteger(1))
    scalar = b.getIntegerAttr(elem, v.kind == kz::ConstValue::Float ? v.f != 0 : v.i != 0);
  else if (auto it = dyn_cast<IntegerType>(elem))
    scalar = IntegerAttr::get(elem, APInt(64, v.i, /*isSigned=*/true).trunc(it.getWidth()));
  else {
    APFloat f(v.asDouble());
    bool lost;
    f.convert(cast<FloatType>(elem).getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
    scalar = FloatAttr::get(elem, f);
  }
  return DenseElementsAttr::get(type, scalar);
}

FailureOr<Value> GraphImporter::build(size_t i, const kz::Node *n) {
  Location loc = nodeLoc(i);
  auto src = [&](size_t k) { return values.lookup(n->src[k]); };
  auto resultType = [&]() { return tensorOf(n->shape(), n->dtype); };
  auto bad = [&](const Twine &msg) -> FailureOr<Value> {
    return LogicalResult(emitError(loc) << msg);
  };
  using kz::Op;
  switch (n->op) {
  case Op::UNIQUE:
  case Op::DEVICE:
    return Value(); // attributes of the ops that use them
  case Op::BUFFER:
    return BufferOp::create(b, loc, tensorOf({n->size()}, n->dtype), b.getStringAttr(*n->device()),
                            b.getI64IntegerAttr(n->src[0]->intArg()))
        .getResult();
  case Op::CONST: {
    // CONST(VIEW(DEVICE)): a 0-d constant on the device, viewed if the view
    // gives it a shape.
    const kz::Node *view = n->src.empty() ? nullptr : n->src[0];
    if (!view || view->op != Op::VIEW || view->src.size() != 1 || view->src[0]->op != Op::DEVICE)
      return bad("a tensor-graph CONST must have a VIEW of a DEVICE as its source");
    RankedTensorType t0 = tensorOf({}, n->dtype);
    auto c = ConstOp::create(b, loc, constAttr(n->as<kz::ConstValue>(), t0));
    c->setAttr(UOpDialect::DeviceAttrHelper::getNameStr(), b.getStringAttr(*view->device()));
    const shape::ShapeTracker &st = view->viewArg();
    if (st.shape().empty())
      return c.getResult();
    return ViewOp::create(b, loc, resultType(), c.getResult(), st.toAttr(ctx)).getResult();
  }
  case Op::VIEW:
    if (n->src.size() != 1 || !src(0))
      return Value(); // a constant's shape, or a device's view
    return ViewOp::create(b, loc, resultType(), src(0), n->viewArg().toAttr(ctx)).getResult();
  case Op::RESHAPE:
    return ReshapeOp::create(b, loc, resultType(), src(0)).getResult();
  case Op::EXPAND:
    return ExpandOp::create(b, loc, resultType(), src(0)).getResult();
  case Op::PERMUTE:
    return PermuteOp::create(b, loc, resultType(), src(0), n->ints()).getResult();
  case Op::PAD:
  case Op::SHRINK: {
    SmallVector<int64_t> first, second;
    for (auto [x, y] : n->pairs())
      first.push_back(x), second.push_back(y);
    if (n->op == Op::PAD)
      return PadOp::create(b, loc, resultType(), src(0), first, second).getResult();
    return ShrinkOp::create(b, loc, resultType(), src(0), first, second).getResult();
  }
  case Op::FLIP: {
    SmallVector<bool> axes;
    for (int64_t f : n->ints())
      axes.push_back(f != 0);
    return FlipOp::create(b, loc, resultType(), src(0), axes).getResult();
  }
  case Op::REDUCE_AXIS: {
    ReduceKind kind = n->reduce().op == Op::ADD   ? ReduceKind::add
                      : n->reduce().op == Op::MUL ? ReduceKind::mul
                                                  : ReduceKind::max;
    auto r = ReduceAxisOp::create(b, loc, kind, src(0), n->reduce().axes);
    if (n->reduce().fuse)
      r.setFuse(true);
    return r.getResult();
  }
  case Op::CONTIGUOUS:
    return ContiguousOp::create(b, loc, src(0)).getResult();
  case Op::DETACH:
    return DetachOp::create(b, loc, src(0)).getResult();
  case Op::CONTIGUOUS_BACKWARD:
    return ContiguousBackwardOp::create(b, loc, src(0)).getResult();
  case Op::COPY:
    return CopyOp::create(b, loc, src(0), b.getStringAttr(*n->src[1]->device())).getResult();
  case Op::ASSIGN: {
    SmallVector<Value> deps;
    for (size_t k = 2; k < n->src.size(); ++k)
      deps.push_back(src(k));
    return AssignOp::create(b, loc, src(1).getType(), src(0), src(1), deps).getResult();
  }
  case Op::SINK: {
    SmallVector<Value> results;
    for (size_t k = 0; k < n->src.size(); ++k)
      results.push_back(src(k));
    func::ReturnOp::create(b, loc, results);
    return Value();
  }
  default:
    break;
  }
  if (auto g = genericOps.find(kz::opName(n->op)); g != genericOps.end()) {
    if (n->src.size() != g->second.numSrcs)
      return bad(kz::opName(n->op) + " takes " + Twine(g->second.numSrcs) + " sources");
    OperationState state(loc, g->second.uop);
    for (size_t k = 0; k < n->src.size(); ++k)
      state.addOperands(src(k));
    state.addTypes(resultType());
    return b.create(state)->getResult(0);
  }
  return bad(kz::opName(n->op) + " is not a tensor-graph op");
}

LogicalResult GraphImporter::run(StringRef defaultName) {
  ctx->getOrLoadDialect<func::FuncDialect>();
  ctx->getOrLoadDialect<UOpDialect>();
  if (std::optional<size_t> deep = tinygrad::findTooDeep(text)) {
    auto [line, col] = lines.lineCol(*deep);
    return emitError(FileLineColLoc::get(ctx, filename, line, col))
           << "JSON nested deeper than " << tinygrad::kMaxJSONDepth << " levels";
  }
  kz::Graph g;
  std::optional<size_t> badNode;
  llvm::Expected<kz::GraphCase> gc = kz::readGraphCase(g, text, &badNode);
  if (!gc) {
    std::string msg = llvm::toString(gc.takeError());
    Location loc = badNode ? nodeLoc(*badNode) : FileLineColLoc::get(ctx, filename, 1, 1);
    return emitError(loc) << msg;
  }
  std::string name = defaultName.str();
  if (llvm::Expected<llvm::json::Value> v = llvm::json::parse(text)) {
    if (const llvm::json::Object *o = v->getAsObject())
      if (std::optional<StringRef> c = o->getString("case"))
        name = tinygrad::functionName(*c);
  } else {
    llvm::consumeError(v.takeError());
  }
  SmallVector<Type> results;
  for (const kz::Node *s : gc->sink->src)
    results.push_back(tensorOf(s->shape(), s->dtype));
  b.setInsertionPointToEnd(module.getBody());
  auto func = func::FuncOp::create(b, FileLineColLoc::get(ctx, filename, 1, 1), name,
                                   b.getFunctionType({}, results));
  b.setInsertionPointToStart(func.addEntryBlock());
  for (auto [i, n] : llvm::enumerate(gc->nodes)) {
    if (values.count(n))
      continue; // the same node again (hash-consed)
    FailureOr<Value> v = build(i, n);
    if (failed(v))
      return failure();
    values[n] = *v;
  }
  return verify(func);
}

} // namespace

LogicalResult mlir::uop::importTinygradGraph(StringRef json, StringRef filename,
                                             StringRef defaultName, ModuleOp module) {
  return GraphImporter(module, json, filename).run(defaultName);
}

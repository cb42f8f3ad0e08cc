//===- TensorGraphIR.cpp - uop tensor ops -> kernelize's Graph ------------===//

#include "TensorGraphIR.h"

#include "uop/Dialect/UOp/IR/UOpOps.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::uop;
using namespace mlir::uop::kernelize;
using shape::ShapeTracker;

bool kernelize::isTensorGraph(func::FuncOp f) {
  return !f.isExternal() && f.getNumArguments() == 0 && f.getNumResults() > 0 &&
         llvm::all_of(f.getResultTypes(), llvm::IsaPred<RankedTensorType>);
}

Type kernelize::typeOf(MLIRContext *ctx, Scalar s) {
  Builder b(ctx);
  switch (s) {
  case Scalar::Bool:
    return b.getI1Type();
  case Scalar::I8:
    return IntegerType::get(ctx, 8, IntegerType::Signed);
  case Scalar::U8:
    return IntegerType::get(ctx, 8, IntegerType::Unsigned);
  case Scalar::I16:
    return IntegerType::get(ctx, 16, IntegerType::Signed);
  case Scalar::U16:
    return IntegerType::get(ctx, 16, IntegerType::Unsigned);
  case Scalar::I32:
    return IntegerType::get(ctx, 32, IntegerType::Signed);
  case Scalar::U32:
    return IntegerType::get(ctx, 32, IntegerType::Unsigned);
  case Scalar::I64:
    return IntegerType::get(ctx, 64, IntegerType::Signed);
  case Scalar::U64:
    return IntegerType::get(ctx, 64, IntegerType::Unsigned);
  case Scalar::F16:
    return b.getF16Type();
  case Scalar::BF16:
    return b.getBF16Type();
  case Scalar::F32:
    return b.getF32Type();
  case Scalar::F64:
    return b.getF64Type();
  case Scalar::Void:
    return VoidType::get(ctx);
  }
  return {};
}

std::optional<Scalar> kernelize::scalarOf(Type t) {
  if (t.isInteger(1))
    return Scalar::Bool;
  if (auto i = dyn_cast<IntegerType>(t)) {
    if (i.isSignless())
      return std::nullopt;
    bool u = i.isUnsigned();
    switch (i.getWidth()) {
    case 8:
      return u ? Scalar::U8 : Scalar::I8;
    case 16:
      return u ? Scalar::U16 : Scalar::I16;
    case 32:
      return u ? Scalar::U32 : Scalar::I32;
    case 64:
      return u ? Scalar::U64 : Scalar::I64;
    default:
      return std::nullopt;
    }
  }
  if (t.isF16())
    return Scalar::F16;
  if (t.isBF16())
    return Scalar::BF16;
  if (t.isF32())
    return Scalar::F32;
  if (t.isF64())
    return Scalar::F64;
  return std::nullopt;
}

namespace {

struct GraphBuilder {
  explicit GraphBuilder(Graph &g) : g(g) {}
  Graph &g;
  llvm::DenseMap<Value, const Node *> nodes;
  int64_t maxUnique = -1;

  const Node *device(StringRef d) { return g.get(kernelize::Op::DEVICE, {}, {}, d.str()); }
  const Node *node(Value v) { return nodes.lookup(v); }

  FailureOr<DType> dtypeOf(Operation *op, Type t) {
    if (auto s = dyn_cast<ShapedType>(t))
      t = s.getElementType();
    if (std::optional<Scalar> s = scalarOf(t))
      return DType{*s, -1};
    return op->emitError() << "kernelize: " << t << " is not a tinygrad dtype";
  }

  FailureOr<ConstValue> constValue(ConstOp c) {
    TypedAttr v = c.getScalarValue();
    if (auto i = dyn_cast<IntegerAttr>(v)) {
      if (v.getType().isInteger(1))
        return ConstValue::ofBool(i.getValue().getBoolValue());
      // tinygrad keeps Python ints: on an unsigned dtype, x - 8 is x + CONST(-8)
      // and ~x is x ^ CONST(-1). The attribute holds only the bits, so a value
      // with the top bit set reads as negative, the form tinygrad writes.
      return ConstValue::ofInt(i.getValue().getSExtValue());
    }
    if (auto f = dyn_cast<FloatAttr>(v))
      return ConstValue::ofFloat(f.getValueAsDouble());
    return c.emitError() << "kernelize: an unsupported constant";
  }

  LogicalResult add(Operation *op) {
    // Sizes stay far from int64 overflow in the view arithmetic, as the JSON
    // importer's do.
    for (Type t : op->getResultTypes())
      if (auto r = dyn_cast<RankedTensorType>(t);
          r && (!r.hasStaticShape() || r.getNumElements() > (int64_t(1) << 40)))
        return op->emitError() << "kernelize: " << r << " has more than 2^40 elements";
    Location loc = op->getLoc();
    (void)loc;
    auto set = [&](const Node *n) {
      nodes[op->getResult(0)] = n;
      return success();
    };
    auto result = [&]() { return cast<RankedTensorType>(op->getResult(0).getType()); };
    if (auto b = dyn_cast<BufferOp>(op)) {
      FailureOr<DType> dt = dtypeOf(op, b.getType());
      if (failed(dt))
        return failure();
      maxUnique = std::max<int64_t>(maxUnique, b.getUnique());
      const Node *unique = g.get(kernelize::Op::UNIQUE, {}, {}, (int64_t)b.getUnique());
      return set(g.get(kernelize::Op::BUFFER, *dt, {unique, device(b.getDevice())},
                       cast<RankedTensorType>(b.getType()).getNumElements()));
    }
    if (auto c = dyn_cast<ConstOp>(op)) {
      auto type = dyn_cast<RankedTensorType>(c.getType());
      if (!type)
        return c.emitError() << "kernelize: a constant in a tensor graph must be a tensor";
      auto dev = c->getAttrOfType<StringAttr>(UOpDialect::DeviceAttrHelper::getNameStr());
      if (!dev)
        return c.emitError() << "kernelize: a tensor constant needs a uop.device attribute "
                                "(the device it is on)";
      FailureOr<DType> dt = dtypeOf(op, type);
      FailureOr<ConstValue> v = constValue(c);
      if (failed(dt) || failed(v))
        return failure();
      // Tensor.full: a 0-d constant on the device, reshaped and expanded.
      const Node *n = g.constant(*dt, *v, g.internDevice(dev.getValue()), ArrayRef<int64_t>{});
      if (type.getRank() > 0) {
        n = g.reshape(n, shape::Shape(type.getRank(), 1));
        n = g.mop(kernelize::Op::EXPAND, n, Ints(type.getShape()));
      }
      return set(n);
    }
    if (auto v = dyn_cast<ViewOp>(op)) {
      if (!v.getSrc() || !isa<RankedTensorType>(v.getSrc().getType()))
        return v.emitError() << "kernelize: a tensor-graph view must be of a tensor";
      ShapeTracker st = ShapeTracker::fromAttr(v.getSt());
      const Node *src = node(v.getSrc());
      if (src->base()->st() && st.realSize() > src->base()->size())
        return v.emitError() << "kernelize: the view reaches element " << st.realSize() - 1
                             << " of a tensor of " << src->base()->size() << " elements";
      return set(g.view(src, st));
    }
    if (isa<ReshapeOp, ExpandOp>(op))
      return set(g.get(isa<ReshapeOp>(op) ? kernelize::Op::RESHAPE : kernelize::Op::EXPAND,
                       node(op->getOperand(0))->dtype, {node(op->getOperand(0))},
                       Ints(result().getShape())));
    if (auto p = dyn_cast<PermuteOp>(op))
      return set(g.get(kernelize::Op::PERMUTE, node(p.getSrc())->dtype, {node(p.getSrc())},
                       Ints(p.getOrder())));
    if (isa<PadOp, ShrinkOp>(op)) {
      ArrayRef<int64_t> a, b;
      if (auto p = dyn_cast<PadOp>(op))
        a = p.getLow(), b = p.getHigh();
      else
        a = cast<ShrinkOp>(op).getBegin(), b = cast<ShrinkOp>(op).getEnd();
      Pairs pairs;
      for (auto [x, y] : llvm::zip(a, b))
        pairs.push_back({x, y});
      const Node *src = node(op->getOperand(0));
      return set(g.get(isa<PadOp>(op) ? kernelize::Op::PAD : kernelize::Op::SHRINK, src->dtype,
                       {src}, pairs));
    }
    if (auto f = dyn_cast<FlipOp>(op)) {
      Ints flips;
      for (bool x : f.getAxes())
        flips.push_back(x);
      return set(g.get(kernelize::Op::FLIP, node(f.getSrc())->dtype, {node(f.getSrc())}, flips));
    }
    if (auto r = dyn_cast<ReduceAxisOp>(op)) {
      kernelize::Op rop = r.getKind() == ReduceKind::add   ? kernelize::Op::ADD
                          : r.getKind() == ReduceKind::mul ? kernelize::Op::MUL
                                                           : kernelize::Op::MAX;
      const Node *src = node(r.getSrc());
      return set(g.get(kernelize::Op::REDUCE_AXIS, src->dtype, {src},
                       ReduceArg{rop, Ints(r.getAxes()), r.getFuse()}));
    }
    if (auto c = dyn_cast<CopyOp>(op))
      return set(g.get(kernelize::Op::COPY, node(c.getSrc())->dtype,
                       {node(c.getSrc()), device(c.getDevice())}));
    if (auto a = dyn_cast<AssignOp>(op)) {
      NodeList src{node(a.getTarget()), node(a.getValue())};
      for (Value d : a.getDeps())
        src.push_back(node(d));
      return set(g.get(kernelize::Op::ASSIGN, src[0]->dtype, src));
    }
    // The rest (ALU ops, CAST, BITCAST, CONTIGUOUS, DETACH, ...) is the op of
    // its tinygrad name over its operands.
    auto named = dyn_cast<TinygradOpInterface>(op);
    std::optional<kernelize::Op> kop = named ? opFromName(named.getTinygradName()) : std::nullopt;
    if (!kop || op->getNumResults() != 1 || !isa<RankedTensorType>(op->getResult(0).getType()) ||
        llvm::any_of(op->getOperands(), [&](Value v) { return !node(v); }))
      return op->emitError() << "kernelize: '" << op->getName() << "' is not a tensor-graph op";
    FailureOr<DType> dt = dtypeOf(op, op->getResult(0).getType());
    if (failed(dt))
      return failure();
    NodeList src;
    for (Value v : op->getOperands())
      src.push_back(node(v));
    return set(g.get(*kop, *dt, src));
  }
};

} // namespace

FailureOr<const Node *> kernelize::graphFromFunc(Graph &g, func::FuncOp f) {
  if (!f.getBody().hasOneBlock())
    return f.emitError() << "kernelize: a tensor graph is one block";
  GraphBuilder b(g);
  for (Operation &op : f.getBody().front()) {
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      NodeList src;
      for (Value v : ret.getOperands())
        src.push_back(b.node(v));
      g.setNextUnique(b.maxUnique + 1);
      return g.sink(src);
    }
    if (failed(b.add(&op)))
      return failure();
  }
  return f.emitError() << "kernelize: a tensor graph ends in func.return";
}

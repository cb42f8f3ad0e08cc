//===- UOpOps.cpp - uop dialect operations: verifiers, formats, inference -===//
//
// The rules here are tinygrad's uop/spec.py type_verify, plus what each op's
// arg must satisfy to mean anything. Kernel-wide rules (shapes across the
// AST) are in UOpKernel.cpp.
//
//===----------------------------------------------------------------------===//

#include "uop/Dialect/UOp/IR/UOpOps.h"
#include "uop/Dialect/UOp/IR/TensorCores.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"

using namespace mlir;
using namespace mlir::uop;

/// `: T` when the source and the result have one type, `: S -> T` for a
/// horizontal reduction.
static ParseResult parseReduceTypes(OpAsmParser &parser, Type &src, Type &result) {
  if (parser.parseType(src))
    return failure();
  result = src;
  if (succeeded(parser.parseOptionalArrow()))
    return parser.parseType(result);
  return success();
}

static void printReduceTypes(OpAsmPrinter &p, Operation *, Type src, Type result) {
  p << src;
  if (result != src)
    p << " -> " << result;
}

#define GET_OP_CLASSES
#include "uop/Dialect/UOp/IR/UOpInterfaces.cpp.inc"
#include "uop/Dialect/UOp/IR/UOpOps.cpp.inc"

LogicalResult ThreefryOp::verify() {
  Type s = getScalarType(getType());
  if (!s.isUnsignedInteger(64))
    return emitOpError() << "takes ui64 values (tinygrad's THREEFRY), not " << s;
  return success();
}

bool mlir::uop::isNegation(MulOp mul) {
  auto c = mul.getRhs().getDefiningOp<ConstOp>();
  if (!c)
    return false;
  Attribute v = c.getValue();
  if (auto splat = dyn_cast<SplatElementsAttr>(v))
    v = splat.getSplatValue<Attribute>();
  if (auto f = dyn_cast<FloatAttr>(v))
    return f.getValue().isExactlyValue(-1.0);
  if (auto i = dyn_cast<IntegerAttr>(v))
    return i.getValue().isAllOnes();
  return false;
}

Value mlir::uop::detail::findViewOperand(Operation *op) {
  for (Value v : op->getOperands())
    if (v.getDefiningOp<ViewOp>())
      return v;
  return {};
}

std::optional<StringRef> mlir::uop::getTinygradOpName(RegisteredOperationName op) {
  if (auto *iface = op.getInterface<TinygradOpInterface>())
    return iface->getTinygradName();
  return std::nullopt;
}

ViewOp BufferOpInterface::getView() {
  Value v = getViewValue();
  return v ? v.getDefiningOp<ViewOp>() : ViewOp();
}

namespace {
/// Every value in `ranges` must come from a uop.range.
LogicalResult verifyRanges(Operation *op, ValueRange ranges) {
  for (auto [i, r] : llvm::enumerate(ranges))
    if (!r.getDefiningOp<RangeOp>())
      return op->emitOpError() << "range operand #" << i << " must be produced by uop.range";
  return success();
}
} // namespace

//===----------------------------------------------------------------------===//
// Defines
//===----------------------------------------------------------------------===//

LogicalResult DefineGlobalOp::verify() {
  auto t = cast<PtrType>(getType());
  if (t.getAddressSpace() != AddressSpace::global)
    return emitOpError() << "result must be a global pointer, got " << t;
  if (t.getVcount() != 1)
    return emitOpError() << "result must not be a vectorized pointer";
  return success();
}

// DefineLocalOp::verify is in StagedOps.cpp, with the swizzle it may have.

LogicalResult DefineRegOp::verify() { return verifyRanges(*this, getRanges()); }

LogicalResult DefineVarOp::verify() {
  if (getName().empty())
    return emitOpError() << "needs a name";
  // I64Attr reads back as uint64_t: compare the bounds as the signed values they are.
  int64_t lo = static_cast<int64_t>(getMin()), hi = static_cast<int64_t>(getMax());
  if (lo > hi)
    return emitOpError() << "min " << lo << " is greater than max " << hi;
  unsigned w = getType().getIntOrFloatBitWidth();
  bool isUnsigned = isUnsignedLike(getType());
  auto fitsType = [&](int64_t v) {
    if (w >= 64)
      return !isUnsigned || v >= 0;
    return isUnsigned ? v >= 0 && v < (int64_t(1) << w)
                      : v >= -(int64_t(1) << (w - 1)) && v < (int64_t(1) << (w - 1));
  };
  if (!fitsType(lo) || !fitsType(hi))
    return emitOpError() << "bounds [" << lo << ", " << hi << "] do not fit " << getType();
  return success();
}

LogicalResult SpecialOp::verify() {
  StringRef name = getName();
  StringRef dim = name;
  if (!(dim.consume_front("gidx") || dim.consume_front("lidx") || dim.consume_front("idx")) ||
      dim.size() != 1 || dim[0] < '0' || dim[0] > '2')
    return emitOpError() << "name must be gidx0..2, lidx0..2 or idx0..2, got '" << name << "'";
  // The index takes every value in [0, size): size - 1 must fit the dtype.
  auto t = cast<IntegerType>(getType());
  unsigned w = t.getWidth() - (t.isUnsigned() ? 0 : 1);
  if (w < 64 && static_cast<uint64_t>(getSize()) - 1 > (uint64_t(1) << w) - 1)
    return emitOpError() << "size " << static_cast<int64_t>(getSize()) << " does not fit " << t;
  return success();
}

void SpecialOp::build(OpBuilder &b, OperationState &state, Type type, StringRef name, int64_t size,
                      Value dynamicSize) {
  build(b, state, type, b.getStringAttr(name), b.getI64IntegerAttr(size), dynamicSize);
}

//===----------------------------------------------------------------------===//
// ViewOp
//===----------------------------------------------------------------------===//

// uop.view %src [#uop.view<...>, ...] : !uop.ptr<...>
// uop.view [#uop.view<...>] : !uop.void
// uop.view %src [#uop.view<...>] : tensor<16xf32> -> tensor<4x4xf32>
ParseResult ViewOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::UnresolvedOperand src;
  OptionalParseResult hasSrc = parser.parseOptionalOperand(src);
  if (hasSrc.has_value() && failed(*hasSrc))
    return failure();
  auto st = ShapeTrackerAttr::parseViews(parser);
  if (!st)
    return failure();
  result.addAttribute(getStAttrName(result.name), st);
  Type first, second;
  if (parser.parseOptionalAttrDict(result.attributes) || parser.parseColonType(first))
    return failure();
  if (succeeded(parser.parseOptionalArrow()) && parser.parseType(second))
    return failure();
  Type resultType = second ? second : first;
  if (hasSrc.has_value() && parser.resolveOperand(src, first, result.operands))
    return failure();
  if (!hasSrc.has_value() && second)
    return parser.emitError(parser.getNameLoc(), "a view without a source has one type");
  result.addTypes(resultType);
  return success();
}

void ViewOp::print(OpAsmPrinter &p) {
  if (getSrc())
    p << " " << getSrc();
  p << " ";
  getSt().printViews(p);
  p.printOptionalAttrDict((*this)->getAttrs(), {getStAttrName()});
  p << " : ";
  if (getSrc() && getSrc().getType() != getType())
    p << getSrc().getType() << " -> ";
  p << getType();
}

LogicalResult ViewOp::verify() {
  if (failed(verifySymbolic()))
    return failure();
  Type rt = getType();
  if (!getSrc()) {
    if (!isa<VoidType>(rt))
      return emitOpError() << "without a source must have type !uop.void, got " << rt;
    return success();
  }
  Type st = getSrc().getType();
  if (auto ptr = dyn_cast<PtrType>(st)) {
    if (rt != st)
      return emitOpError() << "of a pointer must have the pointer's type " << st << ", got " << rt;
    return verifyInBounds(ptr);
  }
  auto srcT = cast<RankedTensorType>(st);
  auto resT = dyn_cast<RankedTensorType>(rt);
  if (!resT || resT.getElementType() != srcT.getElementType())
    return emitOpError() << "of a tensor must be a tensor of " << srcT.getElementType();
  if (resT.getShape() != getShape())
    return emitOpError() << "result shape must be the view's shape";
  return success();
}

/// The bounds of the variables a view's symbolic entries use: its kernel's
/// define_vars (an error if one is missing), in order of first use.
static FailureOr<SmallVector<std::tuple<StringRef, int64_t, int64_t>>>
symbolicVariables(ViewOp op) {
  SmallVector<std::tuple<StringRef, int64_t, int64_t>> vars;
  auto kernel = op->getParentOfType<KernelOp>();
  for (ViewAttr x : op.getSt().getViews())
    for (SymEntryAttr e : x.getSym())
      for (StringAttr var : e.getVars()) {
        if (llvm::any_of(vars, [&](auto &v) { return std::get<0>(v) == var.getValue(); }))
          continue;
        DefineVarOp def;
        if (kernel)
          for (DefineVarOp d : kernel.getBodyBlock().getOps<DefineVarOp>())
            if (d.getName() == var.getValue())
              def = d;
        if (!def)
          return op.emitOpError() << "uses variable '" << var.getValue()
                                  << "', which is no uop.define_var of its kernel";
        vars.push_back({def.getName(), static_cast<int64_t>(def.getMin()),
                        static_cast<int64_t>(def.getMax())});
      }
  return vars;
}

/// Every symbolic entry holds its upper bound over the variables' ranges.
LogicalResult ViewOp::verifySymbolic() {
  FailureOr<SmallVector<std::tuple<StringRef, int64_t, int64_t>>> vars = symbolicVariables(*this);
  if (failed(vars))
    return failure();
  if (vars->size() > 8)
    return emitOpError() << "depends on " << vars->size() << " variables; at most 8 are supported";
  for (ViewAttr x : getSt().getViews())
    for (SymEntryAttr e : x.getSym()) {
      std::optional<std::pair<int64_t, int64_t>> bounds = e.bounds([&](StringRef var) {
        for (auto &[name, lo, hi] : *vars)
          if (name == var)
            return std::make_pair(lo, hi);
        return std::make_pair(int64_t(0), int64_t(0)); // symbolicVariables found them all
      });
      if (!bounds)
        return emitOpError() << "symbolic entry " << e << " overflows int64";
      if (x.getEntry(e.getSlot()) != bounds->second)
        return emitOpError() << "symbolic entry " << e << " holds " << x.getEntry(e.getSlot())
                             << ", not its upper bound " << bounds->second;
    }
  return success();
}

/// The elements the view's real index can reach (its first view over the
/// valid part of its mask; later views only narrow that) lie within a buffer
/// of known size: a kernel that verifies cannot access memory outside it,
/// whatever values its variables take.
LogicalResult ViewOp::verifyInBounds(PtrType ptr) {
  if (getSt().getViews().empty())
    return success();
  ViewAttr first = getSt().getViews().front();
  if (!first.isSymbolic())
    return verifyInBounds(ptr, first);
  // The entries are affine in the variables and the reach is multilinear in
  // the entries: its extremes are at the corners of the variables' box.
  auto vars = *symbolicVariables(*this); // verifySymbolic ran first
  for (uint64_t corner = 0; corner < (uint64_t(1) << vars.size()); ++corner) {
    auto value = [&](StringRef name) -> int64_t {
      for (auto [i, v] : llvm::enumerate(vars))
        if (std::get<0>(v) == name)
          return (corner >> i) & 1 ? std::get<2>(v) : std::get<1>(v);
      return 0;
    };
    if (failed(verifyInBounds(ptr, first.evaluate(value))))
      return failure();
  }
  return success();
}

LogicalResult ViewOp::verifyInBounds(PtrType ptr, ViewAttr v) {
  if (ptr.getSize() == PtrType::kUnknownSize)
    return success();
  ArrayRef<int64_t> shape = v.getShape(), strides = v.getStrides(), mask = v.getMask();
  __int128 lo = v.getOffset(), hi = v.getOffset();
  for (size_t i = 0; i < shape.size(); ++i) {
    int64_t first = mask.empty() ? 0 : mask[2 * i], end = mask.empty() ? shape[i] : mask[2 * i + 1];
    if (first >= end)
      return success(); // nothing valid: no access at all
    __int128 a = (__int128)strides[i] * first, b = (__int128)strides[i] * (end - 1);
    lo += std::min(a, b);
    hi += std::max(a, b);
  }
  if (lo < 0 || hi >= ptr.getSize())
    return emitOpError() << "reaches element " << (int64_t)(lo < 0 ? lo : hi) << " of a buffer of "
                         << ptr.getSize() << " elements";
  return success();
}

LogicalResult ValidOp::verify() {
  if (!getView().getDefiningOp<ViewOp>())
    return emitOpError() << "operand must be a uop.view";
  return success();
}

//===----------------------------------------------------------------------===//
// Movement ops (tensor graph)
//===----------------------------------------------------------------------===//

LogicalResult ReshapeOp::verify() {
  auto s = getSrc().getType(), r = getType();
  if (s.getNumElements() != r.getNumElements())
    return emitOpError() << "cannot reshape " << s.getNumElements() << " elements into "
                         << r.getNumElements();
  if (s.getElementType() != r.getElementType())
    return emitOpError() << "must keep the element type";
  return success();
}

LogicalResult PermuteOp::verify() {
  auto s = getSrc().getType(), r = getType();
  ArrayRef<int64_t> order = getOrder();
  if ((int64_t)order.size() != s.getRank())
    return emitOpError() << "order has " << order.size() << " axes for rank " << s.getRank();
  SmallVector<bool> seen(order.size(), false);
  for (int64_t a : order) {
    if (a < 0 || a >= s.getRank() || seen[a])
      return emitOpError() << "order must be a permutation of 0.." << s.getRank() - 1;
    seen[a] = true;
  }
  SmallVector<int64_t> shape;
  for (int64_t a : order)
    shape.push_back(s.getDimSize(a));
  if (r.getShape() != ArrayRef<int64_t>(shape) || r.getElementType() != s.getElementType())
    return emitOpError() << "result must be " << s.clone(shape);
  return success();
}

LogicalResult ExpandOp::verify() {
  auto s = getSrc().getType(), r = getType();
  if (s.getRank() != r.getRank() || s.getElementType() != r.getElementType())
    return emitOpError() << "must keep the rank and element type";
  for (int64_t i = 0; i < s.getRank(); ++i)
    if (s.getDimSize(i) != r.getDimSize(i) && s.getDimSize(i) != 1)
      return emitOpError() << "can only expand size-1 axes, axis " << i << " has size "
                           << s.getDimSize(i);
  return success();
}

LogicalResult PadOp::verify() {
  auto s = getSrc().getType(), r = getType();
  if ((int64_t)getLow().size() != s.getRank() || (int64_t)getHigh().size() != s.getRank())
    return emitOpError() << "needs a low and a high padding per axis";
  SmallVector<int64_t> shape;
  for (int64_t i = 0; i < s.getRank(); ++i) {
    if (getLow()[i] < 0 || getHigh()[i] < 0)
      return emitOpError() << "padding must be non-negative";
    shape.push_back(s.getDimSize(i) + getLow()[i] + getHigh()[i]);
  }
  if (r.getShape() != ArrayRef<int64_t>(shape) || r.getElementType() != s.getElementType())
    return emitOpError() << "result must be " << s.clone(shape);
  return success();
}

LogicalResult ShrinkOp::verify() {
  auto s = getSrc().getType(), r = getType();
  if ((int64_t)getBegin().size() != s.getRank() || (int64_t)getEnd().size() != s.getRank())
    return emitOpError() << "needs a begin and an end per axis";
  SmallVector<int64_t> shape;
  for (int64_t i = 0; i < s.getRank(); ++i) {
    int64_t b = getBegin()[i], e = getEnd()[i];
    if (b < 0 || b > e || e > s.getDimSize(i))
      return emitOpError() << "axis " << i << ": [" << b << ", " << e << ") is not within [0, "
                           << s.getDimSize(i) << "]";
    shape.push_back(e - b);
  }
  if (r.getShape() != ArrayRef<int64_t>(shape) || r.getElementType() != s.getElementType())
    return emitOpError() << "result must be " << s.clone(shape);
  return success();
}

LogicalResult FlipOp::verify() {
  if ((int64_t)getAxes().size() != getSrc().getType().getRank())
    return emitOpError() << "needs one flag per axis";
  return success();
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

LogicalResult IndexOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
                                        SmallVectorImpl<Type> &results) {
  auto buf = dyn_cast<PtrType>(adaptor.getBuf().getType());
  if (!buf)
    return emitOptionalError(loc, "'uop.index' buffer must be a pointer");
  int64_t lanes = getVCount(adaptor.getIdx().getType());
  if (buf.getVcount() != 1 && lanes != 1 && buf.getVcount() != lanes)
    return emitOptionalError(loc, "'uop.index' pointer has ", buf.getVcount(),
                             " lanes but the index has ", lanes);
  results.push_back(buf.withVCount(std::max(buf.getVcount(), lanes)));
  return success();
}

LogicalResult IndexOp::verify() {
  if (Value g = getGate()) {
    int64_t lanes = getVCount(g.getType());
    int64_t ptrLanes = cast<PtrType>(getType()).getVcount();
    if (lanes != 1 && lanes != ptrLanes)
      return emitOpError() << "gate has " << lanes << " lanes but the pointer has " << ptrLanes;
  }
  return success();
}

IndexOp mlir::uop::getIndexOfPointer(Value ptr) {
  while (auto cast = ptr.getDefiningOp<CastOp>())
    if (isa<PtrType>(cast.getSrc().getType()))
      ptr = cast.getSrc();
    else
      return IndexOp();
  return ptr.getDefiningOp<IndexOp>();
}

LogicalResult LoadOp::verify() {
  if (Value alt = getAlt(); alt && alt.getType() != getType())
    return emitOpError() << "alt value must have the loaded type " << getType() << ", got "
                         << alt.getType();
  return success();
}

LogicalResult StoreOp::verify() {
  if (getGate() && getUnder())
    return emitOpError() << "takes a bool gate or an IF, not both";
  if (Value u = getUnder(); u && !u.getDefiningOp<IfOp>())
    return emitOpError() << "'under' operand must be a uop.if";
  return success();
}

LogicalResult AssignOp::verify() {
  Type t = getTarget().getType(), v = getValue().getType();
  if (getType() != v)
    return emitOpError() << "result must have the value's type " << v;
  if (auto p = dyn_cast<PtrType>(t)) {
    if (p.getValueType() != v)
      return emitOpError() << "value type " << v << " does not match what " << p << " points at";
    return success();
  }
  if (t != v)
    return emitOpError() << "target type " << t << " does not match value type " << v;
  return success();
}

LogicalResult BufferOp::verify() {
  if (getType().getRank() != 1)
    return emitOpError() << "a buffer is flat: its type must be 1-D, got " << getType();
  return success();
}

//===----------------------------------------------------------------------===//
// ALU
//===----------------------------------------------------------------------===//

template <typename ShiftOp> static LogicalResult verifyShift(ShiftOp op) {
  Type x = op.getLhs().getType(), y = op.getRhs().getType();
  Type uint32 = IntegerType::get(op.getContext(), 32, IntegerType::Unsigned);
  if (y != x && y != withScalarType(x, uint32))
    return op.emitOpError() << "shift amount must be " << x << " or " << withScalarType(x, uint32)
                            << ", got " << y;
  return success();
}
LogicalResult ShlOp::verify() { return verifyShift(*this); }
LogicalResult ShrOp::verify() { return verifyShift(*this); }

/// Vector lanes or tensor shape must agree between a cast's source and result.
static bool sameShape(Type a, Type b) {
  auto sa = dyn_cast<ShapedType>(a), sb = dyn_cast<ShapedType>(b);
  if (!sa || !sb)
    return !sa && !sb;
  return sa.getTypeID() == sb.getTypeID() && sa.getShape() == sb.getShape();
}

LogicalResult CastOp::verify() {
  Type s = getSrc().getType(), r = getType();
  auto sp = dyn_cast<PtrType>(s), rp = dyn_cast<PtrType>(r);
  if (sp || rp) {
    if (!sp || !rp)
      return emitOpError() << "cannot cast between a pointer and a value";
    if (sp.getAddressSpace() != rp.getAddressSpace())
      return emitOpError() << "pointer casts must keep the address space";
    return success();
  }
  if (!sameShape(s, r))
    return emitOpError() << "must keep the shape: " << s << " -> " << r;
  return success();
}

LogicalResult BitcastOp::verify() {
  Type s = getSrc().getType(), r = getType();
  auto st = dyn_cast<RankedTensorType>(s), rt = dyn_cast<RankedTensorType>(r);
  if ((bool)st != (bool)rt)
    return emitOpError() << "cannot bitcast between a tensor and a non-tensor";
  if (st) {
    // tinygrad: the last axis scales with the item size.
    if (st.getRank() != rt.getRank() || st.getRank() == 0 ||
        st.getShape().drop_back() != rt.getShape().drop_back() || getBitWidth(s) != getBitWidth(r))
      return emitOpError() << "tensor bitcast must keep all but the last axis and the size "
                              "in bits";
    return success();
  }
  if (getBitWidth(s) != getBitWidth(r))
    return emitOpError() << "must keep the size in bits: " << getBitWidth(s) << " vs "
                         << getBitWidth(r);
  return success();
}

TypedAttr ConstOp::getScalarValue() {
  if (auto d = dyn_cast<SplatElementsAttr>(getValue()))
    return d.getSplatValue<TypedAttr>();
  return getValue();
}

LogicalResult ConstOp::verify() {
  Attribute v = getValue();
  if (isa<ShapedType>(getType())) {
    if (!isa<SplatElementsAttr>(v))
      return emitOpError() << "of a vector or tensor must be a splat dense<...> (a vector "
                              "of different values is uop.vconst)";
  } else if (!isa<IntegerAttr, FloatAttr>(v)) {
    return emitOpError() << "value must be an integer, float or bool literal";
  }
  return success();
}

LogicalResult ShapedConstOp::verify() {
  if (!isScalarDType(getType()))
    return emitOpError() << "must have a scalar dtype (the view gives the shape)";
  if (!isa<IntegerAttr, FloatAttr>(getValue()))
    return emitOpError() << "value must be an integer, float or bool literal";
  if (!getView().getDefiningOp<ViewOp>())
    return emitOpError() << "view operand must be a source-less uop.view";
  return success();
}

LogicalResult VConstOp::verify() {
  if (!isa<DenseIntOrFPElementsAttr>(getValues()))
    return emitOpError() << "values must be a dense<[...]> vector literal";
  return success();
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

static LogicalResult checkAxes(ArrayRef<int64_t> axes, std::optional<int64_t> rank,
                               function_ref<InFlightDiagnostic()> emitError) {
  llvm::SmallSet<int64_t, 8> seen;
  for (int64_t a : axes) {
    if (a < 0 || (rank && a >= *rank)) {
      if (rank)
        return emitError() << "axis " << a << " is out of range for rank " << *rank;
      return emitError() << "axis " << a << " is negative";
    }
    if (!seen.insert(a).second)
      return emitError() << "axis " << a << " appears twice";
  }
  return success();
}

LogicalResult ReduceAxisOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                             Adaptor adaptor, SmallVectorImpl<Type> &results) {
  Type src = adaptor.getSrc().getType();
  auto t = dyn_cast<RankedTensorType>(src);
  if (!t) {
    results.push_back(src);
    return success();
  }
  SmallVector<int64_t> shape(t.getShape());
  for (int64_t a : adaptor.getAxes())
    if (a >= 0 && a < t.getRank())
      shape[a] = 1;
  results.push_back(t.clone(shape));
  return success();
}

LogicalResult ReduceAxisOp::verify() {
  std::optional<int64_t> rank;
  if (auto t = dyn_cast<RankedTensorType>(getSrc().getType()))
    rank = t.getRank();
  if (getAxes().empty())
    return emitOpError() << "needs at least one axis";
  return checkAxes(getAxes(), rank, [&] { return emitOpError(); });
}

LogicalResult ReduceOp::verify() {
  Type src = getSrc().getType(), result = getType();
  if (src != result &&
      !(isa<VectorType>(src) && !isa<VectorType>(result) && getScalarType(src) == result))
    return emitOpError() << "source must have the result's type, or be a vector of it (a "
                            "horizontal reduction); got "
                         << src << " for a result of " << result;
  return verifyRanges(*this, getRanges());
}

//===----------------------------------------------------------------------===//
// Vectors
//===----------------------------------------------------------------------===//

// uop.vectorize %a, %b, %c, %d : f32   (result: vector<4xf32>)
ParseResult VectorizeOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::UnresolvedOperand> srcs;
  Type elem;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseOperandList(srcs) || parser.parseOptionalAttrDict(result.attributes) ||
      parser.parseColonType(elem) || parser.resolveOperands(srcs, elem, result.operands))
    return failure();
  if (getVCount(elem) != 1 || !(isScalarDType(elem) || isa<PtrType>(elem)))
    return parser.emitError(loc, "vectorize takes scalars or scalar pointers, got ") << elem;
  result.addTypes(vectorize(elem, srcs.size()));
  return success();
}

void VectorizeOp::print(OpAsmPrinter &p) {
  p << " " << getSrcs();
  p.printOptionalAttrDict((*this)->getAttrs());
  p << " : " << (getSrcs().empty() ? Type() : getSrcs().front().getType());
}

LogicalResult VectorizeOp::verify() {
  if (getSrcs().size() < 2)
    return emitOpError() << "needs at least two sources";
  Type elem = getSrcs().front().getType();
  if (getVCount(elem) != 1)
    return emitOpError() << "sources must be scalars";
  for (Value s : getSrcs())
    if (s.getType() != elem)
      return emitOpError() << "sources must all have type " << elem;
  if (getType() != vectorize(elem, getSrcs().size()))
    return emitOpError() << "result must be " << vectorize(elem, getSrcs().size());
  return success();
}

/// The scalar of a dtype or pointer (a pointer with vcount 1).
static Type scalarOf(Type t) {
  if (auto p = dyn_cast<PtrType>(t))
    return p.getScalarPtr();
  return getScalarType(t);
}

LogicalResult GepOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
                                      SmallVectorImpl<Type> &results) {
  Type src = adaptor.getSrc().getType();
  int64_t lanes = getVCount(src);
  for (int64_t i : adaptor.getIndices())
    if (i < 0 || i >= lanes)
      return emitOptionalError(loc, "'uop.gep' lane ", i, " is out of range for ", lanes, " lanes");
  results.push_back(vectorize(scalarOf(src), adaptor.getIndices().size()));
  return success();
}

LogicalResult GepOp::verify() {
  if (getIndices().empty())
    return emitOpError() << "needs at least one lane";
  return success();
}

LogicalResult CatOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
                                      SmallVectorImpl<Type> &results) {
  if (adaptor.getSrcs().empty())
    return emitOptionalError(loc, "'uop.cat' needs at least one source");
  int64_t lanes = 0;
  for (Value s : adaptor.getSrcs())
    lanes += getVCount(s.getType());
  results.push_back(VectorType::get({lanes}, getScalarType(adaptor.getSrcs()[0].getType())));
  return success();
}

LogicalResult CatOp::verify() {
  if (getSrcs().empty())
    return emitOpError() << "needs at least one source";
  Type elem = getScalarType(getSrcs().front().getType());
  for (Value s : getSrcs())
    if (getScalarType(s.getType()) != elem)
      return emitOpError() << "sources must all be of " << elem;
  return success();
}

LogicalResult PtrCatOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                         Adaptor adaptor, SmallVectorImpl<Type> &results) {
  if (adaptor.getSrcs().empty())
    return emitOptionalError(loc, "'uop.ptrcat' needs at least one source");
  int64_t lanes = 0;
  for (Value s : adaptor.getSrcs())
    lanes += getVCount(s.getType());
  results.push_back(cast<PtrType>(adaptor.getSrcs()[0].getType()).withVCount(lanes));
  return success();
}

LogicalResult PtrCatOp::verify() {
  if (getSrcs().empty())
    return emitOpError() << "needs at least one source";
  PtrType first = cast<PtrType>(getSrcs().front().getType()).getScalarPtr();
  for (Value s : getSrcs())
    if (cast<PtrType>(s.getType()).getScalarPtr() != first)
      return emitOpError() << "sources must all point like " << first;
  return success();
}

LogicalResult UnrollOp::inferReturnTypes(MLIRContext *, std::optional<Location>, Adaptor adaptor,
                                         SmallVectorImpl<Type> &results) {
  results.push_back(scalarOf(adaptor.getSrc().getType()));
  return success();
}

LogicalResult UnrollOp::verify() {
  int64_t lanes = getVCount(getSrc().getType());
  if (lanes != getAxes().getProduct())
    return emitOpError() << "source has " << lanes << " lanes but the axes multiply to "
                         << getAxes().getProduct();
  return success();
}

LogicalResult ContractOp::inferReturnTypes(MLIRContext *, std::optional<Location>, Adaptor adaptor,
                                           SmallVectorImpl<Type> &results) {
  auto axes = dyn_cast_or_null<AxisSizesAttr>(adaptor.getAxes());
  int64_t lanes = axes ? axes.getProduct() : 1;
  results.push_back(vectorize(scalarOf(adaptor.getSrc().getType()), lanes));
  return success();
}

LogicalResult ContractOp::verify() {
  if (getVCount(getSrc().getType()) != 1)
    return emitOpError() << "source must be a scalar";
  return success();
}

//===----------------------------------------------------------------------===//
// WMMA
//===----------------------------------------------------------------------===//

std::string WmmaOp::getTensorCoreName() {
  ArrayRef<int64_t> d = getDims();
  std::string s = isWgmma() ? "WGMMA" : "WMMA";
  for (int64_t x : d)
    s += "_" + std::to_string(x);
  Type in = isWgmma() ? cast<PtrType>(getA().getType()).getElementType()
                      : getScalarType(getA().getType());
  return s + "_" + uop::getTinygradName(in) + "_" +
         uop::getTinygradName(getScalarType(getC().getType()));
}

/// The wgmma form of WMMA: tiles in shared memory, a warpgroup's m64nNk16.
static LogicalResult verifyWgmmaForm(WmmaOp op) {
  ArrayRef<int64_t> d = op.getDims();
  auto a = dyn_cast<PtrType>(op.getA().getType()), b = dyn_cast<PtrType>(op.getB().getType());
  if (!op.getBTile() || !a || !b || a.getAddressSpace() != AddressSpace::local ||
      b.getAddressSpace() != AddressSpace::local)
    return op.emitOpError() << "with tiles reads A and B from shared memory: both operands local "
                               "pointers, both tiles given";
  Type in = a.getElementType();
  if (b.getElementType() != in || (!in.isF16() && !in.isBF16()))
    return op.emitOpError() << "with tiles multiplies f16 or bf16 tiles of one dtype";
  if (!getScalarType(op.getC().getType()).isF32())
    return op.emitOpError() << "with tiles accumulates in f32";
  if (d[1] != 64 || d[2] != 16 || d[0] % 8 != 0 || d[0] < 8 || d[0] > 256)
    return op.emitOpError() << "with tiles is wgmma m64nNk16: dims (N, 64, 16), N a multiple of 8 "
                               "up to 256";
  if (op.getThreads() != 128)
    return op.emitOpError() << "with tiles is built by a warpgroup, 128 threads";
  int64_t ept[3] = {1, 1, d[0] / 2};
  if (getVCount(op.getC().getType()) != ept[2])
    return op.emitOpError() << "C must hold N / 2 = " << ept[2] << " elements per thread";
  if (op.getUpcastAxes().size() != 3)
    return op.emitOpError() << "needs upcast axes for A, B and C";
  for (int i = 0; i < 3; ++i)
    if (cast<AxisSizesAttr>(op.getUpcastAxes()[i]).getProduct() != ept[i])
      return op.emitOpError() << "upcast axes of "
                              << "ABC"[i] << " must multiply to " << ept[i];
  if (op.getReduceAxes().size() != 4)
    return op.emitOpError() << "needs log2(K) = 4 reduce axes";
  return checkAxes(op.getReduceAxes(), std::nullopt, [&] { return op.emitOpError(); });
}

LogicalResult WmmaOp::verify() {
  ArrayRef<int64_t> d = getDims();
  if (d.size() != 3)
    return emitOpError() << "dims must be (N, M, K)";
  if (isWgmma())
    return verifyWgmmaForm(*this);
  if (getBTile() || !isa<VectorType>(getA().getType()) || !isa<VectorType>(getB().getType()))
    return emitOpError() << "without tiles takes A and B as vectors of fragment elements";
  Type in = getScalarType(getA().getType()), out = getScalarType(getC().getType());
  if (getScalarType(getB().getType()) != in)
    return emitOpError() << "A and B must have one element type";
  const TensorCoreDesc *tc = nullptr;
  for (const TensorCoreDesc &t : getNvidiaTensorCores())
    if (t.n == d[0] && t.m == d[1] && t.k == d[2] && getTCElementType(getContext(), t.in) == in &&
        getTCElementType(getContext(), t.out) == out)
      tc = &t;
  if (!tc)
    return emitOpError() << "no tensor core computes dims (" << d[0] << ", " << d[1] << ", " << d[2]
                         << ") from " << in << " into " << out;
  if ((int64_t)getThreads() != tc->threads)
    return emitOpError() << "this tensor core is built by " << tc->threads << " threads, not "
                         << getThreads();
  int64_t ept[3] = {tc->eptA, tc->eptB, tc->eptC};
  Value srcs[3] = {getA(), getB(), getC()};
  const char *names[3] = {"A", "B", "C"};
  for (int i = 0; i < 3; ++i)
    if (getVCount(srcs[i].getType()) != ept[i])
      return emitOpError() << names[i] << " must hold " << ept[i] << " elements per thread, got "
                           << srcs[i].getType();
  if (getUpcastAxes().size() != 3)
    return emitOpError() << "needs upcast axes for A, B and C";
  for (int i = 0; i < 3; ++i) {
    auto axes = cast<AxisSizesAttr>(getUpcastAxes()[i]);
    if (axes.getProduct() != ept[i])
      return emitOpError() << "upcast axes of " << names[i] << " multiply to " << axes.getProduct()
                           << ", not " << ept[i];
  }
  int64_t log2K = llvm::Log2_64(d[2]);
  if ((int64_t)getReduceAxes().size() != log2K)
    return emitOpError() << "needs log2(K) = " << log2K << " reduce axes, got "
                         << getReduceAxes().size();
  return checkAxes(getReduceAxes(), std::nullopt, [&] { return emitOpError(); });
}

//===----------------------------------------------------------------------===//
// Control
//===----------------------------------------------------------------------===//

LogicalResult EndIfOp::verify() {
  if (!getIf_().getDefiningOp<IfOp>())
    return emitOpError() << "operand must be a uop.if";
  return success();
}

LogicalResult EndRangeOp::verify() {
  if (!getRange().getDefiningOp<RangeOp>())
    return emitOpError() << "operand must be a uop.range";
  return success();
}

//===- UOpTypes.cpp - uop dialect types and dtype helpers -----------------===//

#include "uop/Dialect/UOp/IR/UOpTypes.h"
#include "uop/Dialect/UOp/IR/UOpDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::uop;

#define GET_TYPEDEF_CLASSES
#include "uop/Dialect/UOp/IR/UOpOpsTypes.cpp.inc"

void UOpDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "uop/Dialect/UOp/IR/UOpOpsTypes.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// dtype helpers
//===----------------------------------------------------------------------===//

bool mlir::uop::isScalarDType(Type t) {
  if (auto i = dyn_cast<IntegerType>(t)) {
    if (i.getWidth() == 1)
      return i.isSignless();
    return !i.isSignless() && llvm::is_contained({8u, 16u, 32u, 64u}, i.getWidth());
  }
  return isa<Float16Type, BFloat16Type, Float32Type, Float64Type, Float8E4M3FNType, Float8E5M2Type>(
      t);
}

bool mlir::uop::isDType(Type t) {
  if (auto v = dyn_cast<VectorType>(t))
    return v.getRank() == 1 && !v.isScalable() && isScalarDType(v.getElementType());
  return isScalarDType(t);
}

Type mlir::uop::getScalarType(Type t) {
  if (auto s = dyn_cast<ShapedType>(t))
    return s.getElementType();
  return t;
}

int64_t mlir::uop::getVCount(Type t) {
  if (auto v = dyn_cast<VectorType>(t))
    return v.getNumElements();
  if (auto p = dyn_cast<PtrType>(t))
    return p.getVcount();
  return 1;
}

Type mlir::uop::vectorize(Type scalar, int64_t count) {
  if (auto p = dyn_cast<PtrType>(scalar))
    return p.withVCount(count);
  if (count == 1)
    return scalar;
  return VectorType::get({count}, scalar);
}

Type mlir::uop::withScalarType(Type t, Type elem) {
  if (auto s = dyn_cast<ShapedType>(t))
    return s.clone(elem);
  return elem;
}

Type mlir::uop::getBoolLike(Type t) {
  return withScalarType(t, IntegerType::get(t.getContext(), 1));
}

bool mlir::uop::isBoolLike(Type t) {
  Type s = getScalarType(t);
  return s.isInteger(1) && isScalarDType(s);
}
bool mlir::uop::isIntLike(Type t) {
  Type s = getScalarType(t);
  return isa<IntegerType>(s) && !s.isInteger(1) && isScalarDType(s);
}
bool mlir::uop::isIntOrBoolLike(Type t) { return isIntLike(t) || isBoolLike(t); }

bool mlir::uop::isUnsignedLike(Type t) {
  auto i = dyn_cast<IntegerType>(getScalarType(t));
  return i && (i.isUnsigned() || i.getWidth() == 1);
}
bool mlir::uop::isFloatLike(Type t) {
  Type s = getScalarType(t);
  return isa<FloatType>(s) && isScalarDType(s);
}

int64_t mlir::uop::getBitWidth(Type t) {
  Type s = getScalarType(t);
  int64_t bits = s.getIntOrFloatBitWidth();
  if (auto v = dyn_cast<ShapedType>(t))
    return bits * v.getNumElements();
  return bits;
}

std::string mlir::uop::getTinygradName(Type t) {
  if (t.isInteger(1))
    return "bool";
  if (auto i = dyn_cast<IntegerType>(t)) {
    const char *s[] = {"char", "short", "int", "long"};
    const char *u[] = {"uchar", "ushort", "uint", "ulong"};
    unsigned idx = llvm::Log2_32(i.getWidth()) - 3;
    if (idx > 3)
      return "?";
    return i.isUnsigned() ? u[idx] : s[idx];
  }
  return llvm::TypeSwitch<Type, std::string>(t)
      .Case<Float16Type>([](auto) { return "half"; })
      .Case<BFloat16Type>([](auto) { return "__bf16"; })
      .Case<Float32Type>([](auto) { return "float"; })
      .Case<Float64Type>([](auto) { return "double"; })
      .Case<Float8E4M3FNType>([](auto) { return "float8_e4m3"; })
      .Case<Float8E5M2Type>([](auto) { return "float8_e5m2"; })
      .Default([](Type) { return "?"; });
}

//===----------------------------------------------------------------------===//
// PtrType
//===----------------------------------------------------------------------===//

Type PtrType::getValueType() const { return vectorize(getElementType(), getVcount()); }

PtrType PtrType::getScalarPtr() const { return withVCount(1); }

PtrType PtrType::withVCount(int64_t v) const {
  return PtrType::get(getContext(), getElementType(), getSize(), getAddressSpace(), v);
}

LogicalResult PtrType::verify(function_ref<InFlightDiagnostic()> emitError, Type elementType,
                              int64_t size, AddressSpace addressSpace, int64_t vcount) {
  if (!isDType(elementType))
    return emitError() << "pointer element must be a tinygrad dtype (i1, si8..si64, "
                          "ui8..ui64, f16, bf16, f32, f64, f8E4M3FN, f8E5M2, or a "
                          "vector of one), got "
                       << elementType;
  if (size < kUnknownSize)
    return emitError() << "pointer size must be non-negative or ? (unknown), got " << size;
  if (vcount < 1)
    return emitError() << "pointer vcount must be at least 1, got " << vcount;
  return success();
}

// !uop.ptr<f32, 400>, !uop.ptr<f32, ?, local>, !uop.ptr<f32, 4, global, vec 2>
Type PtrType::parse(AsmParser &parser) {
  Type elementType;
  int64_t size = kUnknownSize;
  AddressSpace space = AddressSpace::global;
  int64_t vcount = 1;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() || parser.parseType(elementType) || parser.parseComma())
    return {};
  if (failed(parser.parseOptionalQuestion())) {
    if (parser.parseInteger(size))
      return {};
    if (size < 0) {
      parser.emitError(loc, "pointer size must be non-negative or ?");
      return {};
    }
  }
  while (succeeded(parser.parseOptionalComma())) {
    if (succeeded(parser.parseOptionalKeyword("vec"))) {
      if (parser.parseInteger(vcount))
        return {};
      continue;
    }
    StringRef kw;
    SMLoc kwLoc = parser.getCurrentLocation();
    if (parser.parseKeyword(&kw))
      return {};
    auto s = symbolizeAddressSpace(kw);
    if (!s) {
      parser.emitError(kwLoc, "unknown address space '")
          << kw << "', expected global, local, reg or cluster";
      return {};
    }
    space = *s;
  }
  if (parser.parseGreater())
    return {};
  return PtrType::getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                             elementType, size, space, vcount);
}

void PtrType::print(AsmPrinter &printer) const {
  printer << "<" << getElementType() << ", ";
  if (getSize() == kUnknownSize)
    printer << "?";
  else
    printer << getSize();
  if (getAddressSpace() != AddressSpace::global || getVcount() != 1)
    printer << ", " << stringifyAddressSpace(getAddressSpace());
  if (getVcount() != 1)
    printer << ", vec " << getVcount();
  printer << ">";
}

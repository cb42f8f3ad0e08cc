//===- UOpAttrs.cpp - uop dialect attributes ------------------------------===//

#include "uop/Dialect/UOp/IR/UOpAttrs.h"
#include "uop/Dialect/UOp/IR/UOpDialect.h"
#include "uop/Dialect/UOp/Utils/AffineSum.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace mlir::uop;

#define GET_ATTRDEF_CLASSES
#include "uop/Dialect/UOp/IR/UOpOpsAttributes.cpp.inc"

void UOpDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "uop/Dialect/UOp/IR/UOpOpsAttributes.cpp.inc"
      >();
}

namespace {
/// `[1, -2, 3]` (possibly empty).
ParseResult parseIntList(AsmParser &parser, SmallVectorImpl<int64_t> &out) {
  return parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                        [&] { return parser.parseInteger(out.emplace_back()); });
}
/// `[lo, hi]` or `(axis, size)`: exactly two integers in `delim`, appended to `out`.
ParseResult parseIntPair(AsmParser &parser, AsmParser::Delimiter delim,
                         SmallVectorImpl<int64_t> &out) {
  SMLoc loc = parser.getCurrentLocation();
  size_t before = out.size();
  if (parser.parseCommaSeparatedList(delim,
                                     [&] { return parser.parseInteger(out.emplace_back()); }))
    return failure();
  if (out.size() - before != 2)
    return parser.emitError(loc, "expected a pair of integers");
  return success();
}
void printIntList(AsmPrinter &printer, ArrayRef<int64_t> xs) {
  printer << "[";
  llvm::interleaveComma(xs, printer);
  printer << "]";
}
} // namespace

//===----------------------------------------------------------------------===//
// ViewAttr
//===----------------------------------------------------------------------===//

int64_t ViewAttr::getNumElements() const {
  int64_t n = 1;
  for (int64_t d : getShape())
    n *= d;
  return n;
}

SmallVector<int64_t> ViewAttr::stridesForShape(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 0);
  int64_t acc = 1;
  for (int64_t i = shape.size() - 1; i >= 0; --i) {
    strides[i] = shape[i] == 1 ? 0 : acc;
    acc *= shape[i];
  }
  return strides;
}

bool ViewAttr::isContiguous() const {
  // A symbolic view's integers are upper bounds, not its entries.
  return !isSymbolic() && getOffset() == 0 && !hasMask() &&
         ArrayRef<int64_t>(stridesForShape(getShape())) == getStrides();
}

SymEntryAttr ViewAttr::getSymAt(int64_t slot) const {
  for (SymEntryAttr e : getSym())
    if (e.getSlot() == slot)
      return e;
  return {};
}

int64_t ViewAttr::getEntry(int64_t slot) const {
  int64_t r = getRank();
  if (slot < r)
    return getShape()[slot];
  if (slot < 2 * r)
    return getStrides()[slot - r];
  return slot == 2 * r ? getOffset() : getMask()[slot - 2 * r - 1];
}

ViewAttr ViewAttr::evaluate(function_ref<int64_t(StringRef)> value) const {
  SmallVector<int64_t> flat(getShape());
  llvm::append_range(flat, getStrides());
  flat.push_back(getOffset());
  llvm::append_range(flat, getMask());
  for (SymEntryAttr e : getSym())
    flat[e.getSlot()] = e.evaluate(value);
  int64_t r = getRank();
  ArrayRef<int64_t> all(flat);
  return ViewAttr::get(getContext(), all.take_front(r), all.slice(r, r), all[2 * r],
                       all.drop_front(2 * r + 1));
}

LogicalResult ViewAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               ArrayRef<int64_t> shape, ArrayRef<int64_t> strides, int64_t offset,
                               ArrayRef<int64_t> mask, ArrayRef<SymEntryAttr> sym) {
  int64_t lastSlot = -1, slots = 2 * shape.size() + 1 + mask.size();
  for (SymEntryAttr e : sym) {
    if (e.getSlot() <= lastSlot || e.getSlot() >= slots)
      return emitError() << "symbolic entry of slot " << e.getSlot()
                         << ": slots must be increasing and below " << slots;
    lastSlot = e.getSlot();
  }
  if (shape.size() != strides.size())
    return emitError() << "view has " << shape.size() << " dimensions but " << strides.size()
                       << " strides";
  for (auto [i, d] : llvm::enumerate(shape))
    if (d < 0)
      return emitError() << "view dimension " << i << " has negative size " << d;
  // Its size and every index it makes fit in int64 (the arithmetic on them is
  // 64-bit), with a bit to spare for the sums of lowering.
  __int128 size = 1, lo = offset, hi = offset;
  const __int128 limit = __int128(1) << 62;
  if (hi > limit || lo < -limit)
    return emitError() << "view's offset " << offset << " does not fit in 62 bits";
  for (auto [d, s] : llvm::zip(shape, strides)) {
    size *= d;
    __int128 reach = (__int128)s * (d > 0 ? d - 1 : 0);
    (reach < 0 ? lo : hi) += reach;
    if (size > limit || hi > limit || lo < -limit)
      return emitError() << "view's size or index does not fit in 62 bits (shape, strides and "
                            "offset too large)";
  }
  if (mask.empty())
    return success();
  if (mask.size() != 2 * shape.size())
    return emitError() << "view mask has " << mask.size() / 2 << " ranges for " << shape.size()
                       << " dimensions";
  for (size_t i = 0; i < shape.size(); ++i) {
    int64_t lo = mask[2 * i], hi = mask[2 * i + 1];
    if (lo < 0 || lo > hi || hi > shape[i])
      return emitError() << "view mask [" << lo << ", " << hi << ") of dimension " << i
                         << " is not within [0, " << shape[i] << "]";
  }
  return success();
}

// #uop.view<shape = [3, 4], strides = [4, 1], offset = -2, mask = [[0, 3], [1, 4]]>
Attribute ViewAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<int64_t> shape, strides, mask;
  int64_t offset = 0;
  if (parser.parseLess() || parser.parseKeyword("shape") || parser.parseEqual() ||
      parseIntList(parser, shape) || parser.parseComma() || parser.parseKeyword("strides") ||
      parser.parseEqual() || parseIntList(parser, strides))
    return {};
  // Optional fields, in this order: `, offset = N`, `, mask = [[lo, hi], ...]`.
  bool more = succeeded(parser.parseOptionalComma());
  if (more && succeeded(parser.parseOptionalKeyword("offset"))) {
    if (parser.parseEqual() || parser.parseInteger(offset))
      return {};
    more = succeeded(parser.parseOptionalComma());
  }
  if (more && succeeded(parser.parseOptionalKeyword("mask"))) {
    SMLoc maskLoc = parser.getCurrentLocation();
    if (parser.parseEqual())
      return {};
    auto parsePair = [&] { return parseIntPair(parser, AsmParser::Delimiter::Square, mask); };
    if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, parsePair))
      return {};
    if (mask.empty() && !shape.empty()) {
      parser.emitError(maskLoc,
                       "an empty mask is only valid for a 0-d view; omit the mask instead");
      return {};
    }
    more = succeeded(parser.parseOptionalComma());
  }
  // `, sym = [shape[1] = n, offset = 8 * s]`: the entries that depend on variables.
  SmallVector<SymEntryAttr> sym;
  if (more) {
    int64_t rank = shape.size();
    auto parseEntry = [&]() -> ParseResult {
      SMLoc at = parser.getCurrentLocation();
      StringRef field;
      if (parser.parseKeyword(&field))
        return failure();
      int64_t i = 0, j = 0, slot;
      bool indexed = field == "shape" || field == "strides" || field == "mask";
      if (!indexed && field != "offset")
        return parser.emitError(at, "expected shape[i], strides[i], offset or mask[i][j]");
      if (indexed && (parser.parseLSquare() || parser.parseInteger(i) || parser.parseRSquare()))
        return failure();
      if (field == "mask" &&
          (parser.parseLSquare() || parser.parseInteger(j) || parser.parseRSquare()))
        return failure();
      if (i < 0 || i >= std::max<int64_t>(rank, 1) || j < 0 || j > 1)
        return parser.emitError(at, "symbolic entry index out of range");
      slot = field == "shape"     ? i
             : field == "strides" ? rank + i
             : field == "offset"  ? 2 * rank
                                  : 2 * rank + 1 + 2 * i + j;
      if (parser.parseEqual())
        return failure();
      SymEntryAttr e = SymEntryAttr::parseExpr(parser, slot);
      if (!e)
        return failure();
      sym.push_back(e);
      return success();
    };
    if (parser.parseKeyword("sym") || parser.parseEqual() ||
        parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, parseEntry))
      return {};
  }
  if (parser.parseGreater())
    return {};
  return ViewAttr::getChecked([&] { return parser.emitError(loc); }, parser.getContext(), shape,
                              strides, offset, mask, sym);
}

void ViewAttr::print(AsmPrinter &printer) const {
  printer << "<shape = ";
  printIntList(printer, getShape());
  printer << ", strides = ";
  printIntList(printer, getStrides());
  if (getOffset() != 0)
    printer << ", offset = " << getOffset();
  if (hasMask()) {
    printer << ", mask = [";
    for (size_t i = 0, e = getMask().size() / 2; i < e; ++i) {
      if (i)
        printer << ", ";
      printer << "[" << getMask()[2 * i] << ", " << getMask()[2 * i + 1] << "]";
    }
    printer << "]";
  }
  if (isSymbolic()) {
    printer << ", sym = [";
    int64_t rank = getRank();
    llvm::interleaveComma(getSym(), printer, [&](SymEntryAttr e) {
      int64_t s = e.getSlot();
      if (s < rank)
        printer << "shape[" << s << "]";
      else if (s < 2 * rank)
        printer << "strides[" << s - rank << "]";
      else if (s == 2 * rank)
        printer << "offset";
      else
        printer << "mask[" << (s - 2 * rank - 1) / 2 << "][" << (s - 2 * rank - 1) % 2 << "]";
      printer << " = ";
      e.printExpr(printer.getStream());
    });
    printer << "]";
  }
  printer << ">";
}

//===----------------------------------------------------------------------===//
// SymEntryAttr
//===----------------------------------------------------------------------===//

LogicalResult SymEntryAttr::verify(function_ref<InFlightDiagnostic()> emitError, int64_t slot,
                                   int64_t constant, ArrayRef<int64_t> coefs,
                                   ArrayRef<StringAttr> vars) {
  if (slot < 0)
    return emitError() << "symbolic entry slot must be non-negative";
  if (coefs.size() != vars.size() || vars.empty())
    return emitError() << "a symbolic entry needs one coefficient per variable, and a variable";
  for (auto [i, v] : llvm::enumerate(vars)) {
    if (!v || v.getValue().empty())
      return emitError() << "symbolic entry variable without a name";
    if (coefs[i] == 0)
      return emitError() << "symbolic entry coefficient of '" << v.getValue() << "' is 0";
    for (size_t j = 0; j < i; ++j)
      if (vars[j] == v)
        return emitError() << "symbolic entry names '" << v.getValue() << "' twice";
  }
  return success();
}

int64_t SymEntryAttr::evaluate(function_ref<int64_t(StringRef)> value) const {
  int64_t v = getConstant();
  for (auto [c, var] : llvm::zip(getCoefs(), getVars()))
    v += c * value(var.getValue());
  return v;
}

std::optional<std::pair<int64_t, int64_t>>
SymEntryAttr::bounds(function_ref<std::pair<int64_t, int64_t>(StringRef)> range) const {
  return sym::AffineSum::of(*this).bounds(range);
}

void SymEntryAttr::printExpr(llvm::raw_ostream &os) const {
  for (auto [i, cv] : llvm::enumerate(llvm::zip(getCoefs(), getVars()))) {
    auto [c, var] = cv;
    if (i)
      os << " + ";
    if (c != 1)
      os << c << " * ";
    os << var.getValue();
  }
  if (getConstant() != 0)
    os << " + " << getConstant();
}

// n | 8 * n + -4 | 2 * a + b: terms `[C *] name` or a constant, joined by `+`.
SymEntryAttr SymEntryAttr::parseExpr(AsmParser &parser, int64_t slot) {
  SMLoc loc = parser.getCurrentLocation();
  int64_t constant = 0;
  SmallVector<int64_t> coefs;
  SmallVector<StringAttr> vars;
  do {
    int64_t c = 1;
    OptionalParseResult number = parser.parseOptionalInteger(c);
    if (number.has_value() && failed(*number))
      return {};
    StringRef name;
    if (number.has_value() && failed(parser.parseOptionalStar())) {
      constant += c;
      continue;
    }
    if (parser.parseKeyword(&name))
      return {};
    coefs.push_back(c);
    vars.push_back(StringAttr::get(parser.getContext(), name));
  } while (succeeded(parser.parseOptionalPlus()));
  return SymEntryAttr::getChecked([&] { return parser.emitError(loc); }, parser.getContext(), slot,
                                  constant, coefs, vars);
}

// #uop.sym_entry<6 = 8 * n + 4>
Attribute SymEntryAttr::parse(AsmParser &parser, Type) {
  int64_t slot;
  if (parser.parseLess() || parser.parseInteger(slot) || parser.parseEqual())
    return {};
  SymEntryAttr e = parseExpr(parser, slot);
  if (!e || parser.parseGreater())
    return {};
  return e;
}

void SymEntryAttr::print(AsmPrinter &printer) const {
  printer << "<" << getSlot() << " = ";
  printExpr(printer.getStream());
  printer << ">";
}

//===----------------------------------------------------------------------===//
// ShapeTrackerAttr
//===----------------------------------------------------------------------===//

ShapeTrackerAttr ShapeTrackerAttr::fromShape(MLIRContext *ctx, ArrayRef<int64_t> shape) {
  auto view = ViewAttr::get(ctx, shape, ViewAttr::stridesForShape(shape), 0, {});
  return ShapeTrackerAttr::get(ctx, {view});
}

LogicalResult ShapeTrackerAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                       ArrayRef<ViewAttr> views) {
  if (views.empty())
    return emitError() << "a ShapeTracker needs at least one view";
  return success();
}

ShapeTrackerAttr ShapeTrackerAttr::parseViews(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<ViewAttr> views;
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                     [&] { return parser.parseAttribute(views.emplace_back()); }))
    return {};
  return ShapeTrackerAttr::getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                                      views);
}

void ShapeTrackerAttr::printViews(AsmPrinter &printer) const {
  printer << "[";
  llvm::interleaveComma(getViews(), printer);
  printer << "]";
}

// #uop.st<[#uop.view<...>, #uop.view<...>]>
Attribute ShapeTrackerAttr::parse(AsmParser &parser, Type) {
  ShapeTrackerAttr st;
  if (parser.parseLess() || !(st = parseViews(parser)) || parser.parseGreater())
    return {};
  return st;
}

void ShapeTrackerAttr::print(AsmPrinter &printer) const {
  printer << "<";
  printViews(printer);
  printer << ">";
}

//===----------------------------------------------------------------------===//
// AxisSizesAttr
//===----------------------------------------------------------------------===//

int64_t AxisSizesAttr::getProduct() const {
  int64_t p = 1;
  for (size_t i = 0; i < size(); ++i)
    p *= getSize(i);
  return p;
}

LogicalResult AxisSizesAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                    ArrayRef<int64_t> flat) {
  if (flat.size() % 2)
    return emitError() << "axis sizes must be (axis, size) pairs";
  for (size_t i = 0; i < flat.size(); i += 2) {
    if (flat[i] < 0)
      return emitError() << "axis must be non-negative, got " << flat[i];
    if (flat[i + 1] < 1)
      return emitError() << "size of axis " << flat[i] << " must be positive, got " << flat[i + 1];
  }
  return success();
}

// #uop.axes<(3, 2), (2, 2)>
Attribute AxisSizesAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<int64_t> flat;
  auto parsePair = [&] { return parseIntPair(parser, AsmParser::Delimiter::Paren, flat); };
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::LessGreater, parsePair))
    return {};
  return AxisSizesAttr::getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                                   flat);
}

void AxisSizesAttr::print(AsmPrinter &printer) const {
  printer << "<";
  for (size_t i = 0; i < size(); ++i)
    printer << (i ? ", " : "") << "(" << getAxis(i) << ", " << getSize(i) << ")";
  printer << ">";
}

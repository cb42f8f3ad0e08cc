//===- Targets.cpp - #uop.target and #uop.tensor_core ---------------------===//
//
// The targets we know, with tinygrad's values for each: the GPUs of the PTX
// path (renderer/cstyle.py CUDARenderer and renderer/ptx.py PTXRenderer) and
// the host (renderer/cstyle.py ClangRenderer): launch limits, tensor cores,
// and which ops have native half, approximate or any instruction at all.
//
//===----------------------------------------------------------------------===//

#include "uop/Dialect/UOp/IR/LaunchLimits.h"
#include "uop/Dialect/UOp/IR/TensorCores.h"
#include "uop/Dialect/UOp/IR/UOpAttrs.h"
#include "uop/Dialect/UOp/IR/UOpDialect.h"
#include "uop/Dialect/UOp/IR/UOpOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::uop;

namespace {

// sm_101 is sm_110 since CUDA 13 (ptxas 13 no longer knows sm_101).
constexpr llvm::StringLiteral kChips[] = {"sm_75", "sm_80",  "sm_86",  "sm_87",  "sm_89",
                                          "sm_90", "sm_90a", "sm_100", "sm_110", "sm_120"};

// The ops PTX has an approximate instruction for.
constexpr llvm::StringLiteral kApproxOps[] = {"exp2", "log2", "sin", "sqrt", "recip"};
// PTXRenderer.supports_half: the rest is computed in f32.
constexpr llvm::StringLiteral kPTXHalfOps[] = {"exp2", "add", "mul", "max", "cmplt", "where"};
// The ops a target may lack (tinygrad then rewrites them), and those
// PTXRenderer and ClangRenderer have in code_for_op: C has no EXP2, LOG2,
// SIN (it calls no libm) and no MULACC (clang contracts a*b+c itself).
constexpr llvm::StringLiteral kOptionalOps[] = {"exp2", "log2", "sin", "sqrt", "mulacc"};
constexpr llvm::StringLiteral kPTXNativeOps[] = {"exp2", "log2", "sin", "sqrt", "mulacc"};
constexpr llvm::StringLiteral kHostNativeOps[] = {"sqrt"};

bool contains(ArrayRef<llvm::StringLiteral> list, StringRef s) {
  return llvm::is_contained(list, s);
}

/// Whether `mnemonic` names one of tinygrad's ALU ops (GroupOp.ALU).
bool isAluOp(MLIRContext *ctx, StringRef mnemonic) {
  std::optional<RegisteredOperationName> op = RegisteredOperationName::lookup(
      (UOpDialect::getDialectNamespace() + "." + mnemonic).str(), ctx);
  return op && op->hasTrait<GroupOp::ALU>();
}

bool contains(ArrayRef<StringAttr> list, StringRef s) {
  return llvm::any_of(list, [&](StringAttr a) { return a.getValue() == s; });
}

SmallVector<StringAttr> strings(MLIRContext *ctx, ArrayRef<llvm::StringLiteral> list) {
  SmallVector<StringAttr> out;
  for (StringRef s : list)
    out.push_back(StringAttr::get(ctx, s));
  return out;
}

/// The tensor cores tinygrad's PTX renderer uses, in its order (the TC opt
/// tries them in order, and TC:axis:N picks the Nth): sm_75 has m16n8k8 f16
/// -> f32 and f16 -> f16; sm_80 and later first m16n8k16, then m16n8k8. bf16
/// and tf32 (tinygrad's CUDA renderer and ALLOW_TF32) are in the WMMA table
/// but only in a target that lists them.
SmallVector<TensorCoreAttr> defaultTensorCores(MLIRContext *ctx, int64_t sm) {
  Type f16 = Float16Type::get(ctx), f32 = Float32Type::get(ctx);
  SmallVector<TensorCoreAttr> tcs;
  if (sm >= 80)
    tcs = {TensorCoreAttr::get(ctx, 16, 8, 16, f16, f32),
           TensorCoreAttr::get(ctx, 16, 8, 16, f16, f16)};
  tcs.push_back(TensorCoreAttr::get(ctx, 16, 8, 8, f16, f32));
  tcs.push_back(TensorCoreAttr::get(ctx, 16, 8, 8, f16, f16));
  return tcs;
}

const TensorCoreDesc *findTensorCore(int64_t m, int64_t n, int64_t k, Type in, Type out) {
  for (const TensorCoreDesc &tc : getNvidiaTensorCores())
    if (tc.m == m && tc.n == n && tc.k == k && getTCElementType(in.getContext(), tc.in) == in &&
        getTCElementType(in.getContext(), tc.out) == out)
      return &tc;
  return nullptr;
}

} // namespace

//===----------------------------------------------------------------------===//
// TensorCoreAttr
//===----------------------------------------------------------------------===//

LogicalResult TensorCoreAttr::verify(function_ref<InFlightDiagnostic()> emitError, int64_t m,
                                     int64_t n, int64_t k, Type in, Type out) {
  if (!findTensorCore(m, n, k, in, out))
    return emitError() << "no NVIDIA tensor core m" << m << "n" << n << "k" << k << " with " << in
                       << " inputs and " << out << " accumulators";
  return success();
}

//===----------------------------------------------------------------------===//
// TargetAttr
//===----------------------------------------------------------------------===//

TargetAttr TargetAttr::getHost(MLIRContext *ctx) {
  return TargetAttr::get(ctx, kHostChip, {}, {}, 0, {}, {}, {}, strings(ctx, kHostNativeOps));
}

TargetAttr TargetAttr::getDefaults(MLIRContext *ctx, StringRef chip) {
  return chip == kHostChip ? getHost(ctx) : getForChip(ctx, chip);
}

TargetAttr TargetAttr::getForChip(MLIRContext *ctx, StringRef chip) {
  if (!contains(kChips, chip))
    return {};
  // CUDARenderer's global_max and local_max, and its shared_max 49152 (the
  // static shared memory a block may declare).
  return TargetAttr::get(ctx, chip, kCudaGridMax, kCudaBlockMax, 49152,
                         defaultTensorCores(ctx, TargetAttr::getSMVersion(chip)),
                         strings(ctx, kPTXHalfOps), strings(ctx, kApproxOps),
                         strings(ctx, kPTXNativeOps));
}

ArrayRef<llvm::StringLiteral> TargetAttr::getKnownChips() { return kChips; }

int64_t TargetAttr::getSMVersion(StringRef chip) {
  int64_t v = 0;
  if (!chip.consume_front("sm_"))
    return 0;
  chip.consume_back("a");
  return chip.getAsInteger(10, v) ? 0 : v;
}

StringRef TargetAttr::getPTXFeatures(StringRef chip) {
  // The oldest PTX ISA that has the chip (LLVM's NVPTX requires it): 8.0
  // (CUDA 12.0) up to sm_90a, 8.6 for sm_100, 8.7 for sm_120, 9.0 for sm_110.
  int64_t sm = TargetAttr::getSMVersion(chip);
  if (sm >= 120)
    return "+ptx87";
  if (sm >= 110)
    return "+ptx90";
  if (sm >= 100)
    return "+ptx86";
  return "+ptx80";
}

std::string TargetAttr::unknownChipMessage(StringRef chip) {
  std::string out = ("unknown GPU arch '" + chip + "' (known: ").str();
  llvm::raw_string_ostream os(out);
  llvm::interleaveComma(kChips, os);
  os << ")";
  return out;
}

TargetAttr TargetAttr::lookup(Operation *op, bool emitErrors) {
  for (Operation *p = op; p; p = p->getParentOp())
    if (auto module = dyn_cast<ModuleOp>(p))
      if (TargetAttr target = UOpDialect::TargetAttrHelper(op->getContext()).getAttr(module))
        return target;
  if (emitErrors)
    op->emitError() << "no GPU target: the module needs a `"
                    << UOpDialect::TargetAttrHelper::getNameStr()
                    << "` attribute (run uop-attach-target)";
  return {};
}

bool TargetAttr::fusesProduct(Value product) const {
  auto mul = product.getDefiningOp<MulOp>();
  if (!mul || !isa<FloatType>(getScalarType(product.getType())))
    return false;
  if (isHost())
    return product.hasOneUse() && !isNegation(mul);
  return hasNativeOp("mulacc", product.getType());
}

TargetAttr TargetAttr::lookupGPU(Operation *op) {
  TargetAttr target = lookup(op);
  if (target && target.isHost()) {
    op->emitError() << "needs a GPU target, but the module's `"
                    << UOpDialect::TargetAttrHelper::getNameStr() << "` is " << target;
    return {};
  }
  return target;
}

bool TargetAttr::isHalfOp(StringRef op) const { return contains(getHalfOps(), op); }

bool TargetAttr::hasNativeOp(StringRef op, Type dtype) const {
  if (!contains(getNativeOps(), op))
    return false;
  // PTX's approximate instructions are f16/f32 only; f64 SQRT is sqrt.rn.
  return !(getScalarType(dtype).isF64() && contains(getApproxOps(), op) && op != "sqrt");
}

LogicalResult TargetAttr::verify(function_ref<InFlightDiagnostic()> emitError, StringRef chip,
                                 ArrayRef<int64_t> globalMax, ArrayRef<int64_t> localMax,
                                 int64_t sharedMax, ArrayRef<TensorCoreAttr> tensorCores,
                                 ArrayRef<StringAttr> halfOps, ArrayRef<StringAttr> approxOps,
                                 ArrayRef<StringAttr> nativeOps) {
  bool host = chip == kHostChip;
  if (!host && !contains(kChips, chip))
    return emitError() << unknownChipMessage(chip) << " (or \"" << kHostChip << "\")";
  auto checkDims = [&](StringRef name, ArrayRef<int64_t> dims) -> LogicalResult {
    if (host && !dims.empty())
      return emitError() << name << " must be empty on the host (it launches no grid)";
    if (!host && (dims.size() != 3 || llvm::any_of(dims, [](int64_t d) { return d <= 0; })))
      return emitError() << name << " must be three positive sizes";
    return success();
  };
  if (failed(checkDims("global_max", globalMax)) || failed(checkDims("local_max", localMax)))
    return failure();
  if (sharedMax < 0)
    return emitError() << "shared_max must not be negative";
  if (host && sharedMax != 0)
    return emitError() << "shared_max must be 0 on the host (it has no shared memory)";
  if (host && (!tensorCores.empty() || !approxOps.empty()))
    return emitError() << "the host has no tensor cores or approximate instructions";
  for (TensorCoreAttr tc : tensorCores) {
    const TensorCoreDesc *d =
        findTensorCore(tc.getM(), tc.getN(), tc.getK(), tc.getDtypeIn(), tc.getDtypeOut());
    if (d && d->minSM > TargetAttr::getSMVersion(chip))
      return emitError() << "tensor core " << tc << " needs sm_" << d->minSM << " or later";
  }
  for (StringAttr op : halfOps)
    if (!isAluOp(op.getContext(), op.getValue()))
      return emitError() << "half_ops: '" << op.getValue() << "' is not a uop ALU op";
  for (StringAttr op : approxOps)
    if (!contains(kApproxOps, op.getValue()))
      return emitError() << "approx_ops: '" << op.getValue()
                         << "' has no approximate PTX instruction (exp2, log2, sin, sqrt, recip)";
  for (StringAttr op : nativeOps)
    if (!contains(kOptionalOps, op.getValue()))
      return emitError() << "native_ops: '" << op.getValue()
                         << "' is not an op a target may lack (exp2, log2, sin, sqrt, mulacc)";
  return success();
}

// #uop.target<"sm_80"[, key = value]*>; the keys not given take the chip's
// defaults.
Attribute TargetAttr::parse(AsmParser &parser, Type) {
  MLIRContext *ctx = parser.getContext();
  SMLoc loc = parser.getCurrentLocation();
  std::string chip;
  if (parser.parseLess() || parser.parseString(&chip))
    return {};
  TargetAttr defaults = getDefaults(ctx, chip);
  if (!defaults) {
    parser.emitError(loc) << unknownChipMessage(chip) << " (or \"" << kHostChip << "\")";
    return {};
  }
  SmallVector<int64_t> globalMax(defaults.getGlobalMax()), localMax(defaults.getLocalMax());
  int64_t sharedMax = defaults.getSharedMax();
  SmallVector<TensorCoreAttr> tensorCores(defaults.getTensorCores());
  SmallVector<StringAttr> halfOps(defaults.getHalfOps()), approxOps(defaults.getApproxOps()),
      nativeOps(defaults.getNativeOps());
  auto ints = [&](SmallVectorImpl<int64_t> &out) {
    out.clear();
    return parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                          [&] { return parser.parseInteger(out.emplace_back()); });
  };
  auto names = [&](SmallVectorImpl<StringAttr> &out) {
    out.clear();
    return parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
      std::string s;
      if (parser.parseString(&s))
        return failure();
      out.push_back(StringAttr::get(ctx, s));
      return success();
    });
  };
  while (succeeded(parser.parseOptionalComma())) {
    SMLoc keyLoc = parser.getCurrentLocation();
    StringRef key;
    if (parser.parseKeyword(&key) || parser.parseEqual())
      return {};
    ParseResult r = success();
    if (key == "global_max")
      r = ints(globalMax);
    else if (key == "local_max")
      r = ints(localMax);
    else if (key == "shared_max")
      r = parser.parseInteger(sharedMax);
    else if (key == "half_ops")
      r = names(halfOps);
    else if (key == "approx_ops")
      r = names(approxOps);
    else if (key == "native_ops")
      r = names(nativeOps);
    else if (key == "tensor_cores") {
      tensorCores.clear();
      r = parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
        return parser.parseAttribute(tensorCores.emplace_back());
      });
    } else {
      parser.emitError(keyLoc) << "unknown #uop.target field '" << key
                               << "' (global_max, local_max, shared_max, tensor_cores, "
                                  "half_ops, approx_ops, native_ops)";
      return {};
    }
    if (failed(r))
      return {};
  }
  if (parser.parseGreater())
    return {};
  auto emitError = [&] { return parser.emitError(loc); };
  return getChecked(function_ref<InFlightDiagnostic()>(emitError), ctx, StringRef(chip),
                    ArrayRef<int64_t>(globalMax), ArrayRef<int64_t>(localMax), sharedMax,
                    ArrayRef<TensorCoreAttr>(tensorCores), ArrayRef<StringAttr>(halfOps),
                    ArrayRef<StringAttr>(approxOps), ArrayRef<StringAttr>(nativeOps));
}

void TargetAttr::print(AsmPrinter &printer) const {
  TargetAttr d = getDefaults(getContext(), getChip());
  printer << "<\"" << getChip() << "\"";
  auto list = [&](StringRef key, auto values, auto defaults, auto printOne) {
    if (d && llvm::equal(values, defaults))
      return;
    printer << ", " << key << " = [";
    llvm::interleaveComma(values, printer, printOne);
    printer << "]";
  };
  auto printInt = [&](int64_t v) { printer << v; };
  auto printName = [&](StringAttr s) { printer << "\"" << s.getValue() << "\""; };
  list("global_max", getGlobalMax(), d.getGlobalMax(), printInt);
  list("local_max", getLocalMax(), d.getLocalMax(), printInt);
  if (getSharedMax() != d.getSharedMax())
    printer << ", shared_max = " << getSharedMax();
  list("tensor_cores", getTensorCores(), d.getTensorCores(),
       [&](TensorCoreAttr tc) { printer.printAttribute(tc); });
  list("half_ops", getHalfOps(), d.getHalfOps(), printName);
  list("approx_ops", getApproxOps(), d.getApproxOps(), printName);
  list("native_ops", getNativeOps(), d.getNativeOps(), printName);
  printer << ">";
}

//===- Opt.cpp - tinygrad's opt notation and the targets' properties ------===//

#include "Opt.h"

#include "uop/Dialect/UOp/IR/UOpAttrs.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ErrorHandling.h"

using namespace mlir;
using namespace mlir::uop;

namespace {
/// tinygrad's OptOps, by name.
constexpr std::pair<OptOp, llvm::StringLiteral> kOptOps[] = {
    {OptOp::TC, "TC"},
    {OptOp::UPCAST, "UPCAST"},
    {OptOp::UNROLL, "UNROLL"},
    {OptOp::LOCAL, "LOCAL"},
    {OptOp::GROUP, "GROUP"},
    {OptOp::GROUPTOP, "GROUPTOP"},
    {OptOp::NOLOCALS, "NOLOCALS"},
    {OptOp::PADTO, "PADTO"},
    {OptOp::SWAP, "SWAP"},
    {OptOp::STAGE, "STAGE"},
    {OptOp::WGMMA, "WGMMA"},
    {OptOp::TMA, "TMA"},
    {OptOp::CLUSTER, "CLUSTER"},
    {OptOp::SPLITK, "SPLITK"},
};

StringRef name(OptOp op) {
  for (auto [o, n] : kOptOps)
    if (o == op)
      return n;
  llvm_unreachable("an OptOp without a name");
}

std::optional<OptOp> optOpNamed(StringRef s) {
  for (auto [o, n] : kOptOps)
    if (n == s)
      return o;
  return std::nullopt;
}
} // namespace

std::string Opt::str() const {
  std::string s = name(op).str();
  if (axis)
    s += ":" + std::to_string(*axis);
  if (op == OptOp::TC) {
    for (auto [i, v] : llvm::enumerate(tc))
      s += (i ? "," : ":") + std::to_string(v);
  } else if (arg) {
    s += ":" + std::to_string(*arg);
  }
  return s;
}

std::string mlir::uop::printOpts(ArrayRef<Opt> opts) {
  std::string s;
  for (auto [i, o] : llvm::enumerate(opts))
    s += (i ? "," : "") + o.str();
  return s;
}

static bool parseInt(StringRef s, int64_t &v) { return !s.trim().getAsInteger(10, v); }

llvm::Expected<SmallVector<Opt>> mlir::uop::parseOpts(StringRef text) {
  SmallVector<Opt> opts;
  SmallVector<StringRef> pieces;
  text.split(pieces, ',', -1, /*KeepEmpty=*/false);
  for (size_t i = 0; i < pieces.size(); ++i) {
    StringRef piece = pieces[i].trim();
    SmallVector<StringRef> fields;
    piece.split(fields, ':');
    std::optional<OptOp> op = optOpNamed(fields[0].trim());
    auto fail = [&](const Twine &why) {
      return llvm::createStringError("'" + piece + "': " + why);
    };
    if (!op) {
      std::string known;
      for (auto [i, o] : llvm::enumerate(kOptOps))
        known += (i ? ", " : "") + o.second.str();
      return fail("unknown opt (known: " + known + ")");
    }
    Opt opt{*op, std::nullopt, std::nullopt, {}};
    if (*op == OptOp::NOLOCALS) {
      if (fields.size() != 1)
        return fail("NOLOCALS takes no axis or amount");
      opts.push_back(opt);
      continue;
    }
    if (fields.size() != 3)
      return fail("expected OP:axis:amount");
    int64_t axis, arg;
    // Bounded so that axis arithmetic cannot overflow; no kernel is near.
    constexpr int64_t kMax = int64_t(1) << 40;
    if (!parseInt(fields[1], axis) || axis < 0 || axis > kMax)
      return fail("the axis must be a non-negative integer");
    opt.axis = axis;
    if (*op == OptOp::TC) {
      // TC:axis:tc_select,tc_opt,use_tensor_cores: the next two pieces are
      // the rest of its arg.
      if (i + 2 >= pieces.size())
        return fail("TC takes three arguments: TC:axis:tc_select,tc_opt,use_tensor_cores");
      for (StringRef s : {fields[2], pieces[i + 1], pieces[i + 2]}) {
        if (!parseInt(s, arg) || arg < -kMax || arg > kMax)
          return fail("TC's arguments must be integers");
        opt.tc.push_back(arg);
      }
      i += 2;
    } else {
      if (!parseInt(fields[2], arg) || arg < -kMax || arg > kMax)
        return fail("the amount must be an integer");
      opt.arg = arg;
    }
    opts.push_back(opt);
  }
  return opts;
}

OptTarget OptTarget::get(TargetAttr target) {
  OptTarget t;
  // tinygrad's ClangRenderer: no locals, but the Renderer's shared memory
  // (its check comes first, so the CPU's errors are tinygrad's).
  t.hasShared = true;
  t.sharedMax = 32768;
  if (!target || target.isHost())
    return t;
  t.hasLocal = true;
  t.sharedMax = target.getSharedMax();
  t.name = target.getChip().str();
  unsigned sm = 0;
  t.hasAsyncCopy =
      StringRef(t.name).starts_with("sm_") &&
      !StringRef(t.name).drop_front(3).take_while(llvm::isDigit).getAsInteger(10, sm) && sm >= 80;
  t.hasWgmma = t.name == "sm_90a";
  t.hasClusters = t.hasAsyncCopy && sm >= 90;
  // The target's tensor cores in its order (tinygrad tries them in order).
  for (TensorCoreAttr tc : target.getTensorCores())
    for (const TensorCoreDesc &d : getNvidiaTensorCores())
      if (d.m == tc.getM() && d.n == tc.getN() && d.k == tc.getK() &&
          getTCElementType(tc.getContext(), d.in) == tc.getDtypeIn() &&
          getTCElementType(tc.getContext(), d.out) == tc.getDtypeOut())
        t.tensorCores.push_back(d);
  return t;
}

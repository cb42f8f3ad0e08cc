//===- Opt.cpp - tinygrad's opt notation and the targets' properties ------===//

#include "Opt.h"

#include "uop/Dialect/UOp/IR/UOpAttrs.h"

#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::uop;

static StringRef name(OptOp op) {
  switch (op) {
  case OptOp::TC:
    return "TC";
  case OptOp::UPCAST:
    return "UPCAST";
  case OptOp::UNROLL:
    return "UNROLL";
  case OptOp::LOCAL:
    return "LOCAL";
  case OptOp::GROUP:
    return "GROUP";
  case OptOp::GROUPTOP:
    return "GROUPTOP";
  case OptOp::NOLOCALS:
    return "NOLOCALS";
  case OptOp::PADTO:
    return "PADTO";
  case OptOp::SWAP:
    return "SWAP";
  }
  return "?";
}

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
    std::optional<OptOp> op = llvm::StringSwitch<std::optional<OptOp>>(fields[0].trim())
                                  .Case("TC", OptOp::TC)
                                  .Case("UPCAST", OptOp::UPCAST)
                                  .Case("UNROLL", OptOp::UNROLL)
                                  .Case("LOCAL", OptOp::LOCAL)
                                  .Case("GROUP", OptOp::GROUP)
                                  .Case("GROUPTOP", OptOp::GROUPTOP)
                                  .Case("NOLOCALS", OptOp::NOLOCALS)
                                  .Case("PADTO", OptOp::PADTO)
                                  .Case("SWAP", OptOp::SWAP)
                                  .Default(std::nullopt);
    auto fail = [&](const Twine &why) {
      return llvm::createStringError("'" + piece + "': " + why);
    };
    if (!op)
      return fail("unknown opt (known: TC, UPCAST, UNROLL, LOCAL, GROUP, GROUPTOP, NOLOCALS, "
                  "PADTO, SWAP)");
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
  if (!target)
    return t;
  t.hasLocal = true;
  t.sharedMax = target.getSharedMax();
  t.name = target.getChip().str();
  // The target's tensor cores in its order (tinygrad tries them in order).
  for (TensorCoreAttr tc : target.getTensorCores())
    for (const TensorCoreDesc &d : getNvidiaTensorCores())
      if (d.m == tc.getM() && d.n == tc.getN() && d.k == tc.getK() &&
          getTCElementType(tc.getContext(), d.in) == tc.getDtypeIn() &&
          getTCElementType(tc.getContext(), d.out) == tc.getDtypeOut())
        t.tensorCores.push_back(d);
  return t;
}

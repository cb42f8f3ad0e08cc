//===- PTXArithmetic.cpp - the PTX printer's arithmetic templates ------===//
//
// Constants, integer and float operations, comparisons, selects and
// conversions, lane by lane.
//
//===----------------------------------------------------------------------===//

#include "KernelPrinter.h"

using namespace mlir;
using namespace mlir::uop::ptx;

//===----------------------------------------------------------------------===//
// Arithmetic
//===----------------------------------------------------------------------===//

LogicalResult KernelPrinter::printConstant(LLVM::ConstantOp op) {
  Type t = op.getType();
  SmallVector<Type> types;
  if (failed(laneTypes(t, types)) || isa<LLVM::LLVMStructType>(t))
    return fail(op, "a constant of this type");
  if (isa<LLVM::LLVMPointerType>(t))
    return fail(op, "a pointer constant");
  SmallVector<Attribute> elems;
  Attribute value = op.getValue();
  if (auto dense = dyn_cast<DenseElementsAttr>(value))
    llvm::append_range(elems, dense.getValues<Attribute>());
  else
    elems.push_back(value);
  if (elems.size() != types.size())
    return fail(op, "a constant whose elements do not match its type");
  SmallVector<Reg, 4> out;
  for (auto [attr, type] : llvm::zip(elems, types)) {
    Reg r = fresh(type);
    std::string imm;
    if (auto i = dyn_cast<IntegerAttr>(attr)) {
      APInt v = i.getValue();
      if (type.isInteger(1)) {
        emit("mov.pred", {r, v.isZero() ? "0" : "1"});
        out.push_back(r);
        continue;
      }
      imm = std::to_string(bitsOf(type) == 64 ? v.getSExtValue()
                                              : static_cast<int64_t>(v.getZExtValue()));
    } else if (auto f = dyn_cast<FloatAttr>(attr)) {
      imm = floatImm(f.getValue());
    } else {
      return fail(op, "a constant element that is neither integer nor float");
    }
    emit(kMov[static_cast<int>(r.rc)], {r, imm});
    out.push_back(r);
  }
  vals[op.getResult()] = std::move(out);
  return success();
}

LogicalResult KernelPrinter::printIntBinary(Operation *op, StringRef name) {
  return perLane(op, [&](ArrayRef<Reg> in, Type t, Type) -> FailureOr<Reg> {
    unsigned bits = bitsOf(t);
    if (bits == 1) {
      StringRef p = StringSwitch<StringRef>(name)
                        .Case("and", "and.pred")
                        .Case("mul", "and.pred")
                        .Case("or", "or.pred")
                        .Case("xor", "xor.pred")
                        .Case("add", "xor.pred")
                        .Case("sub", "xor.pred")
                        .Default("");
      if (p.empty())
        return fail(op, "this op on i1");
      Reg d = fresh(RC::Pred);
      emit(p, {d, in[0], in[1]});
      return d;
    }
    unsigned w = bits == 8 ? 16 : bits;
    Reg a = in[0], b = in[1];
    bool isSigned = name == "sdiv" || name == "srem" || name == "ashr";
    bool needsClean = bits == 8 && (name == "sdiv" || name == "srem" || name == "ashr" ||
                                    name == "udiv" || name == "urem" || name == "lshr");
    if (needsClean) {
      a = clean8(a, isSigned);
      if (name != "ashr" && name != "lshr")
        b = clean8(b, isSigned);
    }
    bool shift = name == "shl" || name == "lshr" || name == "ashr";
    if (shift && bits == 8) // the amount's upper byte is unspecified too
      b = clean8(b, false);
    if (shift && w != 32) {
      Reg amount = fresh(RC::B32);
      emit(w == 64 ? "cvt.u32.u64" : "cvt.u32.u16", {amount, b});
      b = amount;
    }
    std::string opcode = StringSwitch<std::string>(name)
                             .Case("add", "add." + sfx('s', w))
                             .Case("sub", "sub." + sfx('s', w))
                             .Case("mul", "mul.lo." + sfx('s', w))
                             .Case("sdiv", "div." + sfx('s', w))
                             .Case("udiv", "div." + sfx('u', w))
                             .Case("srem", "rem." + sfx('s', w))
                             .Case("urem", "rem." + sfx('u', w))
                             .Case("and", "and." + sfx('b', w))
                             .Case("or", "or." + sfx('b', w))
                             .Case("xor", "xor." + sfx('b', w))
                             .Case("shl", "shl." + sfx('b', w))
                             .Case("lshr", "shr." + sfx('u', w))
                             .Case("ashr", "shr." + sfx('s', w))
                             .Default("");
    Reg d = fresh(t);
    emit(opcode, {d, a, b});
    return d;
  });
}

LogicalResult KernelPrinter::printFloatBinary(Operation *op, StringRef name) {
  return perLane(op, [&](ArrayRef<Reg> in, Type t, Type) -> FailureOr<Reg> {
    unsigned bits = bitsOf(t);
    // f16 division and every bf16 op go through f32; both are exact there.
    bool viaF32 = t.isBF16() || (t.isF16() && name == "div");
    if (viaF32) {
      Reg a = toF32(in[0], t), b = toF32(in[1], t), r = fresh(RC::B32), d = fresh(RC::B16);
      emit((name + ".rn.f32").str(), {r, a, b});
      emit(t.isBF16() ? "cvt.rn.bf16.f32" : "cvt.rn.f16.f32", {d, r});
      return d;
    }
    Reg d = fresh(t);
    emit((name + ".rn." + sfx('f', bits)).str(), {d, in[0], in[1]});
    return d;
  });
}

LogicalResult KernelPrinter::printICmp(LLVM::ICmpOp op) {
  using P = LLVM::ICmpPredicate;
  P pred = op.getPredicate();
  bool isSigned = pred == P::slt || pred == P::sle || pred == P::sgt || pred == P::sge;
  StringRef cmp;
  switch (pred) {
  case P::eq:
    cmp = "eq";
    break;
  case P::ne:
    cmp = "ne";
    break;
  case P::slt:
  case P::ult:
    cmp = "lt";
    break;
  case P::sle:
  case P::ule:
    cmp = "le";
    break;
  case P::sgt:
  case P::ugt:
    cmp = "gt";
    break;
  case P::sge:
  case P::uge:
    cmp = "ge";
    break;
  }
  if (isPtr(op.getLhs()))
    return fail(op, "a pointer comparison");
  return perLane(op, [&](ArrayRef<Reg> in, Type t, Type) -> FailureOr<Reg> {
    unsigned bits = bitsOf(t);
    Reg d = fresh(RC::Pred);
    if (bits == 1) {
      if (pred != P::eq && pred != P::ne)
        return fail(op, "an ordered comparison of i1");
      if (pred == P::ne) {
        emit("xor.pred", {d, in[0], in[1]});
        return d;
      }
      Reg x = fresh(RC::Pred);
      emit("xor.pred", {x, in[0], in[1]});
      emit("not.pred", {d, x});
      return d;
    }
    Reg a = in[0], b = in[1];
    if (bits == 8) {
      a = clean8(a, isSigned);
      b = clean8(b, isSigned);
    }
    unsigned w = bits == 8 ? 16 : bits;
    emit(("setp." + cmp + "." + sfx(isSigned ? 's' : 'u', w)), {d, a, b});
    return d;
  });
}

LogicalResult KernelPrinter::printFCmp(LLVM::FCmpOp op) {
  using P = LLVM::FCmpPredicate;
  StringRef cmp;
  switch (op.getPredicate()) {
  case P::oeq:
    cmp = "eq";
    break;
  case P::one:
    cmp = "ne";
    break;
  case P::olt:
    cmp = "lt";
    break;
  case P::ole:
    cmp = "le";
    break;
  case P::ogt:
    cmp = "gt";
    break;
  case P::oge:
    cmp = "ge";
    break;
  case P::ueq:
    cmp = "equ";
    break;
  case P::une:
    cmp = "neu";
    break;
  case P::ult:
    cmp = "ltu";
    break;
  case P::ule:
    cmp = "leu";
    break;
  case P::ugt:
    cmp = "gtu";
    break;
  case P::uge:
    cmp = "geu";
    break;
  case P::ord:
    cmp = "num";
    break;
  case P::uno:
    cmp = "nan";
    break;
  case P::_false:
  case P::_true:
    cmp = "";
    break;
  }
  bool constant = cmp.empty();
  bool value = op.getPredicate() == P::_true;
  return perLane(op, [&](ArrayRef<Reg> in, Type t, Type) -> FailureOr<Reg> {
    Reg d = fresh(RC::Pred);
    if (constant) {
      emit("mov.pred", {d, value ? "1" : "0"});
      return d;
    }
    Reg a = in[0], b = in[1];
    unsigned bits = bitsOf(t);
    if (t.isBF16()) {
      a = widenBF16(a);
      b = widenBF16(b);
      bits = 32;
    }
    emit(("setp." + cmp + "." + sfx('f', bits)), {d, a, b});
    return d;
  });
}

LogicalResult KernelPrinter::printSelect(LLVM::SelectOp op) {
  if (isPtr(op.getResult())) {
    Ptr a = ptrs.lookup(op.getTrueValue()), b = ptrs.lookup(op.getFalseValue());
    Space space = a.space == b.space ? a.space : typeSpace(op.getType());
    Reg ra = address(a, space), rb = address(b, space), d = fresh(RC::B64);
    emit("selp.b64", {d, ra, rb, scalar(op.getCondition())});
    ptrs[op.getResult()] = Ptr{d, 0, space, a.param == b.param ? a.param : -1};
    return success();
  }
  return perLane(op, [&](ArrayRef<Reg> in, Type, Type t) -> FailureOr<Reg> {
    Reg d = fresh(t);
    if (d.rc == RC::Pred) {
      emit("mov.pred", {d, in[2]});
      body << "\t@" << in[0] << " mov.pred " << d << ", " << in[1] << ";\n";
      return d;
    }
    unsigned bits = bitsOf(t);
    emit(("selp." + sfx('b', bits == 8 ? 16 : bits)), {d, in[1], in[2], in[0]});
    return d;
  });
}

/// One lane of a conversion between scalar types.
FailureOr<Reg> KernelPrinter::convert(Operation *op, Reg in, Type from, Type to, bool isSigned,
                                      bool sat) {
  unsigned fb = bitsOf(from), tb = bitsOf(to);
  char sc = isSigned ? 's' : 'u';
  auto intName = [&](unsigned bits) { return sfx(sc, bits); };
  // Integer to integer.
  if (isa<IntegerType>(from) && isa<IntegerType>(to)) {
    if (fb == tb || (rcOf(from) == rcOf(to) && tb < fb && tb != 1))
      return in; // the same register; an i8 in a .b16 keeps its upper byte
    Reg d = fresh(to);
    if (tb == 1) {
      Reg t = fresh(from);
      unsigned w = fb == 8 ? 16 : fb;
      emit(("and." + sfx('b', w)), {t, in, "1"});
      emit(("setp.ne." + sfx('b', w)), {d, t, "0"});
      return d;
    }
    if (fb == 1) {
      emit(("selp." + sfx(sc, tb == 8 ? 16 : tb)), {d, isSigned ? "-1" : "1", "0", in});
      return d;
    }
    if (tb < fb) { // truncate
      emit(("cvt." + sfx('u', tb == 8 ? 16 : tb) + "." + sfx('u', fb)), {d, in});
      return d;
    }
    if (fb == 8 && tb == 16) {
      if (isSigned)
        emit("cvt.s16.s8", {d, in});
      else
        emit("and.b16", {d, in, "255"});
      return d;
    }
    emit(("cvt." + intName(tb) + "." + intName(fb)), {d, in});
    return d;
  }
  // Float to float.
  if (isa<FloatType>(from) && isa<FloatType>(to)) {
    if (from.isBF16()) {
      Reg f = widenBF16(in);
      return tb == 32 ? f : convert(op, f, Float32Type::get(op->getContext()), to, false, false);
    }
    Reg d = fresh(to);
    if (to.isBF16()) {
      if (fb != 32 && sm < 90)
        return fail(op, "a conversion to bf16 from other than f32 below sm_90");
      emit(("cvt.rn.bf16." + sfx('f', fb)), {d, in});
      return d;
    }
    emit(tb < fb ? ("cvt.rn." + sfx('f', tb) + "." + sfx('f', fb))
                 : ("cvt." + sfx('f', tb) + "." + sfx('f', fb)),
         {d, in});
    return d;
  }
  // Integer to float.
  if (isa<IntegerType>(from)) {
    if (fb == 1) {
      Reg d = fresh(to);
      // i1 true is 1 unsigned, -1 signed.
      const llvm::fltSemantics &sem = cast<FloatType>(to).getFloatSemantics();
      APFloat one = APFloat::getOne(sem, /*Negative=*/isSigned), zero = APFloat::getZero(sem);
      std::string a = floatImm(one), b = floatImm(zero);
      emit(("selp." + sfx('b', tb)), {d, a, b, in});
      return d;
    }
    if (to.isBF16() && sm < 90) { // LLVM's promotion: via f32
      FailureOr<Reg> f = convert(op, in, from, Float32Type::get(op->getContext()), isSigned, false);
      if (failed(f))
        return failure();
      return convert(op, *f, Float32Type::get(op->getContext()), to, false, false);
    }
    if (fb == 8) { // cvt has no 8-bit source for every destination: widen
      in = clean8(in, isSigned);
      fb = 16;
    }
    Reg d = fresh(to);
    emit(("cvt.rn." + (to.isBF16() ? std::string("bf16") : sfx('f', tb)) + "." + intName(fb)),
         {d, in});
    return d;
  }
  // Float to integer: truncation toward zero.
  if (from.isBF16()) {
    in = widenBF16(in);
    from = Float32Type::get(op->getContext());
    fb = 32;
  }
  if (from.isF16()) {
    in = toF32(in, from);
    from = Float32Type::get(op->getContext());
    fb = 32;
  }
  if (tb == 1)
    return fail(op, "a float to i1 conversion");
  unsigned w = tb == 8 ? 16 : tb;
  Reg d = fresh(to);
  emit(("cvt.rzi." + intName(tb) + "." + sfx('f', fb)), {d, in});
  if (!sat)
    return d;
  // llvm.fpto[su]i.sat: NaN is 0, out of range saturates. Below the
  // smallest integer (exact in the float type) is the smallest, above the
  // largest float not over the largest integer is the largest.
  const llvm::fltSemantics &sem = cast<FloatType>(from).getFloatSemantics();
  APInt lo = isSigned ? APInt::getSignedMinValue(tb) : APInt::getMinValue(tb);
  APInt hi = isSigned ? APInt::getSignedMaxValue(tb) : APInt::getMaxValue(tb);
  APFloat flo(sem), fhi(sem);
  flo.convertFromAPInt(lo, isSigned, APFloat::rmTowardZero);
  fhi.convertFromAPInt(hi, isSigned, APFloat::rmTowardZero);
  std::string loImm = floatImm(flo), hiImm = floatImm(fhi);
  std::string loInt = isSigned ? std::to_string(lo.getSExtValue()) : "0";
  std::string hiInt =
      isSigned ? std::to_string(hi.getSExtValue()) : std::to_string(hi.getZExtValue());
  if (!isSigned && tb == 64)
    hiInt = "-1";
  std::string selp = "selp." + sfx('b', w);
  std::string f = sfx('f', fb);
  Reg pLo = fresh(RC::Pred), pHi = fresh(RC::Pred), pNan = fresh(RC::Pred);
  Reg a = fresh(to), b = fresh(to), c = fresh(to);
  emit("setp.lt." + f, {pLo, in, loImm});
  emit(selp, {a, loInt, d, pLo});
  emit("setp.gt." + f, {pHi, in, hiImm});
  emit(selp, {b, hiInt, a, pHi});
  emit("setp.nan." + f, {pNan, in, in});
  emit(selp, {c, "0", b, pNan});
  return c;
}

LogicalResult KernelPrinter::printCast(Operation *op) {
  bool isSigned = isa<LLVM::SExtOp, LLVM::SIToFPOp, LLVM::FPToSIOp>(op);
  return perLane(op, [&](ArrayRef<Reg> in, Type from, Type to) {
    return convert(op, in[0], from, to, isSigned, false);
  });
}

LogicalResult KernelPrinter::printBitcast(LLVM::BitcastOp op) {
  SmallVector<Type> from, to;
  if (failed(laneTypes(op.getArg().getType(), from)) || failed(laneTypes(op.getType(), to)))
    return fail(op, "a bitcast of this type");
  ArrayRef<Reg> in = lanes(op.getArg());
  unsigned fb = bitsOf(from[0]), tb = bitsOf(to[0]);
  SmallVector<Reg, 4> out;
  if (fb == tb) {
    out.assign(in.begin(), in.end());
  } else if (fb < tb && fb >= 16) { // pack
    unsigned k = tb / fb;
    for (unsigned i = 0; i < in.size(); i += k) {
      Reg d = fresh(to[0]);
      body << "\tmov." << sfx('b', tb) << " " << d << ", {";
      for (unsigned j = 0; j < k; ++j)
        body << (j ? ", " : "") << in[i + j];
      body << "};\n";
      out.push_back(d);
    }
  } else if (fb > tb && tb >= 16) { // unpack
    unsigned k = fb / tb;
    for (Reg r : in) {
      body << "\tmov." << sfx('b', fb) << " {";
      for (unsigned j = 0; j < k; ++j) {
        Reg d = fresh(to[0]);
        body << (j ? ", " : "") << d;
        out.push_back(d);
      }
      body << "}, " << r << ";\n";
    }
  } else {
    return fail(op, "a bitcast to or from lanes narrower than 16 bits");
  }
  vals[op.getResult()] = std::move(out);
  return success();
}

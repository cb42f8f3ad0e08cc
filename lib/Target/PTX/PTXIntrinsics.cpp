//===- PTXIntrinsics.cpp - calls, inline asm and mma.sync --------------===//
//
// The intrinsic calls with a PTX instruction of their own, inline asm with
// its operands substituted, and mma.sync on packed halves.
//
//===----------------------------------------------------------------------===//

#include "KernelPrinter.h"

using namespace mlir;
using namespace mlir::uop::ptx;

//===----------------------------------------------------------------------===//
// Calls, inline asm and NVVM ops
//===----------------------------------------------------------------------===//

LogicalResult KernelPrinter::printIntrinsic(LLVM::CallIntrinsicOp op) {
  StringRef name = op.getIntrin();
  if (name == "llvm.fptosi.sat" || name == "llvm.fptoui.sat") {
    bool isSigned = name == "llvm.fptosi.sat";
    return perLane(op, [&](ArrayRef<Reg> in, Type from, Type to) {
      return convert(op, in[0], from, to, isSigned, true);
    });
  }
  StringRef opcode = StringSwitch<StringRef>(name)
                         .Case("llvm.nvvm.ex2.approx.f32", "ex2.approx.f32")
                         .Case("llvm.nvvm.ex2.approx.f", "ex2.approx.f32")
                         .Case("llvm.nvvm.ex2.approx.f16", "ex2.approx.f16")
                         .Case("llvm.nvvm.lg2.approx.f", "lg2.approx.f32")
                         .Case("llvm.nvvm.sin.approx.f", "sin.approx.f32")
                         .Case("llvm.nvvm.cos.approx.f", "cos.approx.f32")
                         .Case("llvm.nvvm.sqrt.approx.f", "sqrt.approx.f32")
                         .Case("llvm.nvvm.sqrt.rn.f", "sqrt.rn.f32")
                         .Case("llvm.nvvm.sqrt.rn.d", "sqrt.rn.f64")
                         .Case("llvm.nvvm.rcp.approx.f", "rcp.approx.f32")
                         .Default("");
  if (opcode.empty() || op.getNumResults() != 1 || op.getArgs().size() != 1)
    return fail(op, "the intrinsic " + name);
  return perLane(op, [&](ArrayRef<Reg> in, Type, Type t) -> FailureOr<Reg> {
    Reg d = fresh(t);
    emit(opcode, {d, in[0]});
    return d;
  });
}

LogicalResult KernelPrinter::printInlineAsm(LLVM::InlineAsmOp op) {
  SmallVector<StringRef> constraints;
  op.getConstraints().split(constraints, ',');
  SmallVector<Reg, 8> outs;
  if (op.getNumResults() == 1) {
    SmallVector<Type> types;
    if (failed(laneTypes(op.getResult(0).getType(), types)))
      return fail(op, "an inline asm result of this type");
    for (Type t : types)
      outs.push_back(fresh(t));
  }
  unsigned numOutputs = 0;
  for (StringRef c : constraints)
    numOutputs += c.starts_with("=");
  if (numOutputs != outs.size())
    return fail(op, "inline asm whose outputs do not match its result");
  // The text of each operand, $0 first.
  SmallVector<std::string> text;
  for (Reg r : outs) {
    std::string s;
    llvm::raw_string_ostream(s) << r;
    text.push_back(s);
  }
  for (auto [i, v] : llvm::enumerate(op.getOperands())) {
    if (numOutputs + i >= constraints.size())
      return fail(op, "inline asm with more operands than constraints");
    StringRef c = constraints[numOutputs + i];
    std::string s;
    llvm::raw_string_ostream os(s);
    if (c == "n") {
      auto cst = v.getDefiningOp<LLVM::ConstantOp>();
      auto attr = cst ? dyn_cast<IntegerAttr>(cst.getValue()) : IntegerAttr();
      if (!attr)
        return fail(op, "an 'n' operand that is not an integer constant");
      os << attr.getInt();
    } else if (isPtr(v)) {
      os << address(ptrs.find(v)->second, typeSpace(v.getType()));
    } else {
      ArrayRef<Reg> l = lanes(v);
      if (l.size() != 1)
        return fail(op, "a vector inline asm operand");
      unsigned tied;
      if (!c.getAsInteger(10, tied)) { // the input lives in output `tied`
        if (tied >= outs.size())
          return fail(op, "a tied operand past the outputs");
        Reg d = outs[tied];
        emit(kMov[static_cast<int>(d.rc)], {d, l[0]});
        os << d;
      } else {
        os << l[0];
      }
    }
    text.push_back(s);
  }
  body << "\t// begin inline asm\n\t";
  StringRef asmText = op.getAsmString();
  for (size_t i = 0; i < asmText.size(); ++i) {
    char ch = asmText[i];
    if (ch != '$') {
      body << ch;
      if (ch == '\n' && i + 1 < asmText.size())
        body << "\t";
      continue;
    }
    if (i + 1 < asmText.size() && asmText[i + 1] == '$') {
      body << '$';
      ++i;
      continue;
    }
    size_t j = i + 1;
    while (j < asmText.size() && llvm::isDigit(asmText[j]))
      ++j;
    unsigned index;
    if (asmText.slice(i + 1, j).getAsInteger(10, index) || index >= text.size())
      return fail(op, "inline asm with a '$' that names no operand");
    body << text[index];
    i = j - 1;
  }
  body << "\n\t// end inline asm\n";
  if (!outs.empty())
    vals[op.getResult(0)] = SmallVector<Reg, 4>(outs.begin(), outs.end());
  return success();
}

LogicalResult KernelPrinter::printMma(NVVM::MmaOp op) {
  NVVM::MMAShapeAttr shape = op.getShape();
  auto typeName = [&](Type t, std::optional<NVVM::MMATypes> ptx) -> std::string {
    if (ptx)
      return NVVM::stringifyMMATypes(*ptx).str();
    Type e = elementOf(t);
    return e.isF16() ? "f16" : e.isBF16() ? "bf16" : e.isF32() ? "f32" : "";
  };
  std::string a = typeName(op.getOperandA()[0].getType(), op.getMultiplicandAPtxType());
  std::string b = typeName(op.getOperandB()[0].getType(), op.getMultiplicandBPtxType());
  std::string c = typeName(op.getOperandC()[0].getType(), std::nullopt);
  SmallVector<Type> resTypes;
  if (failed(laneTypes(op.getType(), resTypes)))
    return fail(op, "an mma.sync result of this type");
  std::string d = resTypes[0].isF32() ? "f32" : "f16";
  if ((a != "f16" && a != "bf16" && a != "tf32") || a != b || (c != "f32" && c != "f16"))
    return fail(op, "mma.sync on " + a + " x " + b + " + " + c);
  // Operands as .b32 registers: packed pairs of 16-bit lanes, or as they are.
  auto words = [&](ValueRange vs) {
    SmallVector<Reg, 4> out;
    for (Value v : vs) {
      ArrayRef<Reg> l = lanes(v);
      if (l.size() == 2 && l[0].rc == RC::B16) {
        Reg w = fresh(RC::B32);
        body << "\tmov.b32 " << w << ", {" << l[0] << ", " << l[1] << "};\n";
        out.push_back(w);
      } else {
        out.append(l.begin(), l.end());
      }
    }
    return out;
  };
  SmallVector<Reg, 4> ra = words(op.getOperandA()), rb = words(op.getOperandB()),
                      rc = words(op.getOperandC());
  unsigned numD = resTypes.size() / (d == "f16" ? 2 : 1);
  SmallVector<Reg, 4> rd;
  for (unsigned i = 0; i < numD; ++i)
    rd.push_back(fresh(RC::B32));
  auto layoutName = [](NVVM::MMALayout l) { return l == NVVM::MMALayout::row ? "row" : "col"; };
  body << "\tmma.sync.aligned.m" << shape.getM() << "n" << shape.getN() << "k" << shape.getK()
       << "." << layoutName(op.getLayoutA()) << "." << layoutName(op.getLayoutB()) << "." << d
       << "." << a << "." << b << "." << c << " ";
  auto list = [&](ArrayRef<Reg> rs) {
    body << "{";
    for (auto [i, r] : llvm::enumerate(rs))
      body << (i ? ", " : "") << r;
    body << "}";
  };
  list(rd);
  body << ", ";
  list(ra);
  body << ", ";
  list(rb);
  body << ", ";
  list(rc);
  body << ";\n";
  SmallVector<Reg, 4> out;
  if (d == "f32") {
    out = rd;
  } else {
    for (Reg w : rd) {
      Reg lo = fresh(RC::B16), hi = fresh(RC::B16);
      body << "\tmov.b32 {" << lo << ", " << hi << "}, " << w << ";\n";
      out.append({lo, hi});
    }
  }
  vals[op.getResult()] = std::move(out);
  return success();
}

//===- PTXImporter.cpp - PTX text back into llvm/nvvm ops -----------------===//
//
// Each instruction is read as the PTX ISA defines it: its type suffix says
// how to read its registers (registers are bit containers: .pred i1, .b16
// i16, .b32 i32, .b64 i64, one private alloca each), a narrower type reads
// the register's low bits and a narrower result is extended by its type's
// signedness, float-to-integer cvt saturates and sends NaN to 0, setp's
// unordered comparisons are the `u` ones, shifts by the register width or
// more give 0 (or the sign), and cvta is the identity (the simulator has
// one address space). The approximate math is what the IR path hands the
// simulator for it (the same llvm.nvvm intrinsics and inline asm), so both
// paths run it alike. Hopper's wgmma.mma_async (in the inline-asm block
// MLIR's NVVM lowering writes) writes its registers when a wgmma.wait_group
// retires it: until then they may not be read or written (an error here),
// except as the next wgmma's accumulator. A register read that some path
// from the kernel's entry reaches without writing the register is an error:
// LLVM's optimizer makes of such a read whatever it likes.
//
//===----------------------------------------------------------------------===//

#include "uop/Target/PTX/PTXImporter.h"
#include "uop/Dialect/UOp/IR/UOpAttrs.h"
#include "uop/Dialect/UOp/IR/UOpDialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/SourceMgr.h"

#include <functional>

using namespace mlir;
using namespace mlir::uop;

namespace {

struct Instruction {
  StringRef guard; // "%p1", or ""
  bool negated = false;
  StringRef opcode; // "ld.global.nc.v4.b32"
  SmallVector<StringRef> operands;
  Location loc;
};

/// Splits "a, {b, c}, [d+4]" at the commas outside braces and brackets.
SmallVector<StringRef> splitOperands(StringRef s) {
  SmallVector<StringRef> out;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '{' || c == '[')
      ++depth;
    else if (c == '}' || c == ']')
      --depth;
    else if (c == ',' && depth == 0) {
      out.push_back(s.slice(start, i).trim());
      start = i + 1;
    }
  }
  if (!s.slice(start, s.size()).trim().empty())
    out.push_back(s.slice(start, s.size()).trim());
  return out;
}

/// The integer or float type a PTX type suffix names.
Type typeOf(MLIRContext *ctx, StringRef t) {
  Builder b(ctx);
  if (t == "pred")
    return b.getI1Type();
  if (t == "f16")
    return b.getF16Type();
  if (t == "bf16")
    return b.getBF16Type();
  if (t == "f32")
    return b.getF32Type();
  if (t == "f64")
    return b.getF64Type();
  // b/u/s of PTX's integer widths only (an `add.s0` made i0, which LLVM's
  // optimizer divides by: found by uop-ptx-fuzzer).
  unsigned bits;
  if (t.size() >= 2 && (t[0] == 'b' || t[0] == 'u' || t[0] == 's') &&
      !t.drop_front().getAsInteger(10, bits) && llvm::is_contained({8u, 16u, 32u, 64u}, bits))
    return b.getIntegerType(bits);
  return {};
}

/// The tensor maps of a launch line ("buffer1:f16:sizes=[1024,1024]:
/// strides=[2048]:box=[64,16]:swizzle=128;..."), verified as
/// #uop.tensor_map is.
LogicalResult parseTensorMaps(MLIRContext *ctx, StringRef text, SmallVectorImpl<TensorMapAttr> &out,
                              function_ref<InFlightDiagnostic()> emitError) {
  SmallVector<StringRef> specs;
  text.split(specs, ';');
  for (StringRef spec : specs) {
    SmallVector<StringRef> f;
    spec.split(f, ':');
    int64_t buffer, swizzle;
    SmallVector<int64_t> lists[3];
    auto list = [](StringRef s, StringRef key, SmallVectorImpl<int64_t> &xs) {
      if (!s.consume_front(key) || !s.consume_front("=[") || !s.consume_back("]"))
        return false;
      SmallVector<StringRef> items;
      if (!s.empty())
        s.split(items, ',');
      for (StringRef x : items)
        if (x.getAsInteger(10, xs.emplace_back()))
          return false;
      return true;
    };
    Type elem;
    if (f.size() == 6 && f[1].consume_front("i")) {
      unsigned bits;
      if (!f[1].getAsInteger(10, bits) && bits <= 64)
        elem = IntegerType::get(ctx, bits);
    } else if (f.size() == 6) {
      elem = typeOf(ctx, f[1]);
    }
    if (f.size() != 6 || !f[0].consume_front("buffer") || f[0].getAsInteger(10, buffer) || !elem ||
        !list(f[2], "sizes", lists[0]) || !list(f[3], "strides", lists[1]) ||
        !list(f[4], "box", lists[2]) || !f[5].consume_front("swizzle=") ||
        f[5].getAsInteger(10, swizzle))
      return emitError() << "bad tensor map '" << spec << "'";
    if (failed(
            TensorMapAttr::verify(emitError, buffer, elem, lists[0], lists[1], lists[2], swizzle)))
      return failure();
    out.push_back(TensorMapAttr::get(ctx, buffer, elem, lists[0], lists[1], lists[2], swizzle));
  }
  return success();
}

bool isSignedType(StringRef t) { return t.starts_with("s"); }
bool isFloatType(StringRef t) { return t.starts_with("f") || t == "bf16"; }

class Importer {
public:
  Importer(llvm::SourceMgr &sm, MLIRContext *ctx) : sm(sm), ctx(ctx), b(ctx) {}

  OwningOpRef<ModuleOp> run();

private:
  Location locAt(unsigned line, unsigned col) {
    auto *buf = sm.getMemoryBuffer(sm.getMainFileID());
    return FileLineColLoc::get(ctx, buf->getBufferIdentifier(), line, col);
  }
  /// An error at `loc`. Messages quote the input: a byte outside printable
  /// ASCII is written \xNN, so a damaged file's control bytes do not reach
  /// the terminal as they are.
  LogicalResult fail(Location loc, const Twine &why) {
    std::string text;
    for (char c : why.str()) {
      auto u = static_cast<unsigned char>(c);
      if (u >= 0x20 && u < 0x7f)
        text += c;
      else
        text += llvm::formatv("\\x{0:x-2}", u).str();
    }
    return emitError(loc) << text;
  }

  // Registers.
  Value slot(StringRef reg, Location loc);
  Type regType(StringRef reg);
  FailureOr<Value> read(StringRef operand, Type t, Location loc);
  LogicalResult write(StringRef reg, Value v, bool isSigned, Location loc);
  /// The address of "[%rd5+16]" as a pointer in `space`.
  FailureOr<Value> address(StringRef operand, unsigned space, Location loc);

  LogicalResult instruction(const Instruction &in);
  LogicalResult arith(const Instruction &in, ArrayRef<StringRef> parts);
  LogicalResult memory(const Instruction &in, ArrayRef<StringRef> parts);
  LogicalResult convert(const Instruction &in, ArrayRef<StringRef> parts);
  LogicalResult move(const Instruction &in, StringRef type);
  LogicalResult tensorCore(const Instruction &in, ArrayRef<StringRef> parts);
  LogicalResult inlineBlock(ArrayRef<std::pair<StringRef, Location>> lines);
  LogicalResult wgmma(const Instruction &in, ArrayRef<StringRef> parts, bool scaleD);
  LogicalResult wgmmaSync(const Instruction &in, ArrayRef<StringRef> parts);
  LogicalResult tensorCopy(const Instruction &in);
  LogicalResult tryWaitBlock(ArrayRef<std::pair<StringRef, Location>> lines);
  /// Fails if a wgmma's registers are still in flight where control may
  /// arrive from elsewhere (a label, the kernel's end).
  LogicalResult checkNoWgmmaInFlight(Location loc);
  LogicalResult checkReadsWritten();
  LogicalResult checkWrittenBeforeRead();
  Block *label(StringRef name);
  void startBlockIfTerminated();

  llvm::SourceMgr &sm;
  MLIRContext *ctx;
  OpBuilder b;
  // The kernel being read.
  LLVM::LLVMFuncOp func;
  Block *cur = nullptr;
  Value one;
  llvm::StringMap<Value> slots;
  // Registers in the order they are first read, and those some instruction
  // writes: one read that nothing writes is an error at the kernel's end.
  llvm::StringSet<> readNames;
  SmallVector<std::pair<std::string, Location>> reads;
  llvm::StringSet<> written;
  llvm::StringMap<Type> regClasses; // "%r" -> i32
  llvm::StringMap<Block *> labels;
  llvm::StringSet<> defined;                             // labels whose line has come
  llvm::StringMap<unsigned> params;                      // name -> argument number
  llvm::StringMap<std::pair<unsigned, unsigned>> shared; // name -> (align, bytes)
  // wgmma.mma_async results not yet retired: each register's op and index,
  // and the ops by commit group (oldest first; the last one not committed).
  llvm::StringMap<std::pair<Operation *, unsigned>> inFlight;
  SmallVector<SmallVector<Operation *>> wgmmaGroups{{}};
};

//===----------------------------------------------------------------------===//
// Registers and operands
//===----------------------------------------------------------------------===//

Type Importer::regType(StringRef reg) {
  StringRef prefix = reg.take_while([](char c) { return !llvm::isDigit(c); });
  return regClasses.lookup(prefix);
}

Value Importer::slot(StringRef reg, Location loc) {
  Value &s = slots[reg];
  if (!s) {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointAfterValue(one);
    s = LLVM::AllocaOp::create(b, loc, LLVM::LLVMPointerType::get(ctx), regType(reg), one);
  }
  return s;
}

FailureOr<Value> Importer::read(StringRef op, Type t, Location loc) {
  if (!t) // a type suffix the caller could not read
    return fail(loc, "unknown type for operand '" + op + "'");
  unsigned tb = t.getIntOrFloatBitWidth();
  if (op.starts_with("%")) {
    StringRef name = op.drop_front();
    if (name.contains('.') || name == "laneid") { // a special register
      Value v =
          llvm::StringSwitch<std::function<Value()>>(name)
              .Case("tid.x",
                    [&] { return NVVM::ThreadIdXOp::create(b, loc, b.getI32Type()).getResult(); })
              .Case("tid.y",
                    [&] { return NVVM::ThreadIdYOp::create(b, loc, b.getI32Type()).getResult(); })
              .Case("tid.z",
                    [&] { return NVVM::ThreadIdZOp::create(b, loc, b.getI32Type()).getResult(); })
              .Case("ntid.x",
                    [&] { return NVVM::BlockDimXOp::create(b, loc, b.getI32Type()).getResult(); })
              .Case("ntid.y",
                    [&] { return NVVM::BlockDimYOp::create(b, loc, b.getI32Type()).getResult(); })
              .Case("ntid.z",
                    [&] { return NVVM::BlockDimZOp::create(b, loc, b.getI32Type()).getResult(); })
              .Case("ctaid.x",
                    [&] { return NVVM::BlockIdXOp::create(b, loc, b.getI32Type()).getResult(); })
              .Case("ctaid.y",
                    [&] { return NVVM::BlockIdYOp::create(b, loc, b.getI32Type()).getResult(); })
              .Case("ctaid.z",
                    [&] { return NVVM::BlockIdZOp::create(b, loc, b.getI32Type()).getResult(); })
              .Case("nctaid.x",
                    [&] { return NVVM::GridDimXOp::create(b, loc, b.getI32Type()).getResult(); })
              .Case("nctaid.y",
                    [&] { return NVVM::GridDimYOp::create(b, loc, b.getI32Type()).getResult(); })
              .Case("nctaid.z",
                    [&] { return NVVM::GridDimZOp::create(b, loc, b.getI32Type()).getResult(); })
              .Case("laneid",
                    [&] { return NVVM::LaneIdOp::create(b, loc, b.getI32Type()).getResult(); })
              .Default([] { return Value(); })();
      if (!v || tb != 32)
        return fail(loc, "unknown special register '" + op + "'");
      return v;
    }
    Type r = regType(op);
    if (!r)
      return fail(loc, "undeclared register '" + op + "'");
    if (inFlight.count(op))
      return fail(loc,
                  "register " + op +
                      " is read before the wgmma.wait_group that retires the wgmma writing it");
    if (readNames.insert(op).second)
      reads.push_back({op.str(), loc});
    Value v = LLVM::LoadOp::create(b, loc, r, slot(op, loc));
    unsigned rb = r.getIntOrFloatBitWidth();
    if (tb > rb)
      return fail(loc, "a " + Twine(tb) + "-bit read of the " + Twine(rb) + "-bit register " + op);
    if (tb < rb)
      v = LLVM::TruncOp::create(b, loc, b.getIntegerType(tb), v);
    if (isa<FloatType>(t))
      v = LLVM::BitcastOp::create(b, loc, t, v);
    return v;
  }
  // Immediates: 0fXXXXXXXX (f32 bits), 0dX...X (f64 bits), 0xXXXX, decimal.
  APInt bits;
  if (op.starts_with("0f") || op.starts_with("0d")) {
    if (op.drop_front(2).getAsInteger(16, bits))
      return fail(loc, "bad float immediate '" + op + "'");
    bits = bits.zextOrTrunc(op[1] == 'f' ? 32 : 64);
  } else if (op.starts_with("0x")) {
    if (op.drop_front(2).getAsInteger(16, bits))
      return fail(loc, "bad hex immediate '" + op + "'");
  } else if (!op.empty() && (llvm::isDigit(op[0]) || op[0] == '-')) {
    int64_t v;
    if (op.getAsInteger(10, v))
      return fail(loc, "bad immediate '" + op + "'");
    bits = APInt(64, v, /*isSigned=*/true);
  } else if (shared.count(op)) {
    auto global = LLVM::AddressOfOp::create(b, loc, LLVM::LLVMPointerType::get(ctx, 3), op);
    return LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), global).getResult();
  } else {
    return fail(loc, "unknown operand '" + op + "'");
  }
  if (isa<FloatType>(t) && bits.getBitWidth() != tb)
    return fail(loc, "a " + Twine(bits.getBitWidth()) + "-bit immediate for a " + Twine(tb) +
                         "-bit float");
  APInt value = bits.sextOrTrunc(tb);
  if (auto f = dyn_cast<FloatType>(t))
    return LLVM::ConstantOp::create(b, loc, t,
                                    b.getFloatAttr(t, APFloat(f.getFloatSemantics(), value)))
        .getResult();
  return LLVM::ConstantOp::create(b, loc, t, b.getIntegerAttr(t, value)).getResult();
}

LogicalResult Importer::write(StringRef reg, Value v, bool isSigned, Location loc) {
  Type r = regType(reg);
  if (!r || !reg.starts_with("%"))
    return fail(loc, "undeclared register '" + reg + "'");
  if (inFlight.count(reg))
    return fail(loc,
                "register " + reg +
                    " is written before the wgmma.wait_group that retires the wgmma writing it");
  if (isa<FloatType>(v.getType()))
    v = LLVM::BitcastOp::create(b, loc, b.getIntegerType(v.getType().getIntOrFloatBitWidth()), v);
  unsigned vb = v.getType().getIntOrFloatBitWidth(), rb = r.getIntOrFloatBitWidth();
  if (vb > rb)
    return fail(loc, "a " + Twine(vb) + "-bit result in the " + Twine(rb) + "-bit register " + reg);
  if (vb < rb)
    v = isSigned ? LLVM::SExtOp::create(b, loc, r, v).getResult()
                 : LLVM::ZExtOp::create(b, loc, r, v).getResult();
  written.insert(reg);
  LLVM::StoreOp::create(b, loc, v, slot(reg, loc));
  return success();
}

FailureOr<Value> Importer::address(StringRef op, unsigned space, Location loc) {
  if (!op.consume_front("[") || !op.consume_back("]"))
    return fail(loc, "expected an address '[...]', got '" + op + "'");
  auto [base, offset] = op.split('+');
  FailureOr<Value> addr = read(base, b.getI64Type(), loc);
  if (failed(addr))
    return failure();
  Value a = *addr;
  if (!offset.empty()) {
    int64_t off;
    if (offset.getAsInteger(10, off))
      return fail(loc, "bad address offset '" + offset + "'");
    a = LLVM::AddOp::create(b, loc, a, LLVM::ConstantOp::create(b, loc, b.getI64Type(), off));
  }
  return LLVM::IntToPtrOp::create(b, loc, LLVM::LLVMPointerType::get(ctx, space), a).getResult();
}

//===----------------------------------------------------------------------===//
// Instructions
//===----------------------------------------------------------------------===//

LogicalResult Importer::arith(const Instruction &in, ArrayRef<StringRef> parts) {
  StringRef op = parts[0], type = parts.back();
  Location loc = in.loc;
  bool wide = llvm::is_contained(parts, "wide");
  Type t = typeOf(ctx, type);
  if (!t)
    return fail(loc, "unknown type in '" + in.opcode + "'");
  // `.wide` is mul's (an integer product twice as wide): on `neg` it read a
  // second operand that is not there (found by uop-ptx-fuzzer).
  if (wide && (op != "mul" || isFloatType(type)))
    return fail(loc, "unknown instruction '" + in.opcode + "'");
  auto rd = [&](unsigned i, Type ty) { return read(in.operands[i], ty, loc); };
  size_t numIn = in.operands.size() - 1;
  SmallVector<Value> xs;
  for (size_t i = 0; i < numIn; ++i) {
    // A shift amount is .u32 whatever the shifted type.
    Type ty = (op == "shl" || op == "shr") && i == 1 ? b.getI32Type() : t;
    FailureOr<Value> v = rd(i + 1, ty);
    if (failed(v))
      return failure();
    xs.push_back(*v);
  }
  bool isSigned = isSignedType(type);
  Value r;
  if (isFloatType(type)) {
    if (op == "add")
      r = LLVM::FAddOp::create(b, loc, xs[0], xs[1]);
    else if (op == "sub")
      r = LLVM::FSubOp::create(b, loc, xs[0], xs[1]);
    else if (op == "mul")
      r = LLVM::FMulOp::create(b, loc, xs[0], xs[1]);
    else if (op == "div")
      r = LLVM::FDivOp::create(b, loc, xs[0], xs[1]);
    else if (op == "fma")
      r = LLVM::FMAOp::create(b, loc, xs[0], xs[1], xs[2]);
    else if (op == "neg")
      r = LLVM::FNegOp::create(b, loc, xs[0]);
    else if (op == "ex2" || op == "lg2" || op == "sin" || op == "cos" ||
             (op == "sqrt" && parts[1] == "approx")) {
      if (parts[1] != "approx")
        return fail(loc, "'" + in.opcode + "' is not the approximate form");
      std::string name = ("llvm.nvvm." + op + ".approx." +
                          (type == "f16" ? "f16"
                           : op == "ex2" ? "f32"
                                         : "f"))
                             .str();
      r = LLVM::CallIntrinsicOp::create(b, loc, t, b.getStringAttr(name), ValueRange{xs[0]})
              .getResult(0);
    } else if (op == "sqrt" && parts[1] == "rn") {
      std::string name = type == "f64" ? "llvm.nvvm.sqrt.rn.d" : "llvm.nvvm.sqrt.rn.f";
      r = LLVM::CallIntrinsicOp::create(b, loc, t, b.getStringAttr(name), ValueRange{xs[0]})
              .getResult(0);
    } else if (op == "rcp" && parts[1] == "approx" && type == "f32") {
      r = LLVM::InlineAsmOp::create(b, loc, t, ValueRange{xs[0]}, "rcp.approx.f32 $0, $1;", "=f,f",
                                    false, false, LLVM::TailCallKind::None, LLVM::AsmDialectAttr(),
                                    ArrayAttr())
              .getResult(0);
    } else {
      return fail(loc, "unknown instruction '" + in.opcode + "'");
    }
    return write(in.operands[0], r, false, loc);
  }
  unsigned bits = t.getIntOrFloatBitWidth();
  if (wide) { // mul.wide: the full product, twice as wide
    Type w = b.getIntegerType(2 * bits);
    auto ext = [&](Value v) -> Value {
      return isSigned ? LLVM::SExtOp::create(b, loc, w, v).getResult()
                      : LLVM::ZExtOp::create(b, loc, w, v).getResult();
    };
    return write(in.operands[0], LLVM::MulOp::create(b, loc, ext(xs[0]), ext(xs[1])), isSigned,
                 loc);
  }
  if (op == "shl" || op == "shr") {
    Value amount = xs[1];
    Value n = LLVM::ConstantOp::create(b, loc, b.getI32Type(), bits);
    Value big = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::uge, amount, n);
    Value clamped = LLVM::SelectOp::create(
        b, loc, big, LLVM::ConstantOp::create(b, loc, b.getI32Type(), bits - 1), amount);
    Value amt = bits < 32   ? LLVM::TruncOp::create(b, loc, t, clamped).getResult()
                : bits > 32 ? LLVM::ZExtOp::create(b, loc, t, clamped).getResult()
                            : clamped;
    Value shifted = op == "shl" ? LLVM::ShlOp::create(b, loc, xs[0], amt).getResult()
                    : isSigned  ? LLVM::AShrOp::create(b, loc, xs[0], amt).getResult()
                                : LLVM::LShrOp::create(b, loc, xs[0], amt).getResult();
    // By the width or more: shl and shr.u give 0, shr.s the sign (the
    // clamped shift by width-1 already is).
    if (op == "shl" || !isSigned)
      shifted =
          LLVM::SelectOp::create(b, loc, big, LLVM::ConstantOp::create(b, loc, t, 0), shifted);
    return write(in.operands[0], shifted, isSigned, loc);
  }
  if (op == "add")
    r = LLVM::AddOp::create(b, loc, xs[0], xs[1]);
  else if (op == "sub")
    r = LLVM::SubOp::create(b, loc, xs[0], xs[1]);
  else if (op == "mul" && parts[1] == "lo")
    r = LLVM::MulOp::create(b, loc, xs[0], xs[1]);
  else if (op == "div")
    r = isSigned ? LLVM::SDivOp::create(b, loc, xs[0], xs[1]).getResult()
                 : LLVM::UDivOp::create(b, loc, xs[0], xs[1]).getResult();
  else if (op == "rem")
    r = isSigned ? LLVM::SRemOp::create(b, loc, xs[0], xs[1]).getResult()
                 : LLVM::URemOp::create(b, loc, xs[0], xs[1]).getResult();
  else if (op == "and")
    r = LLVM::AndOp::create(b, loc, xs[0], xs[1]);
  else if (op == "or")
    r = LLVM::OrOp::create(b, loc, xs[0], xs[1]);
  else if (op == "xor")
    r = LLVM::XOrOp::create(b, loc, xs[0], xs[1]);
  else if (op == "not")
    r = LLVM::XOrOp::create(b, loc, xs[0], LLVM::ConstantOp::create(b, loc, t, -1));
  else
    return fail(loc, "unknown instruction '" + in.opcode + "'");
  return write(in.operands[0], r, isSigned, loc);
}

LogicalResult Importer::memory(const Instruction &in, ArrayRef<StringRef> parts) {
  Location loc = in.loc;
  bool isLoad = parts[0] == "ld";
  unsigned space = 0, vec = 1;
  bool param = false;
  for (StringRef p : parts.drop_front().drop_back()) {
    if (p == "global")
      space = 1;
    else if (p == "shared")
      space = 3;
    else if (p == "shared::cluster") // (a mapa's address)
      space = 7;
    else if (p == "param")
      param = true;
    else if (p == "v2")
      vec = 2;
    else if (p == "v4")
      vec = 4;
    else if (p != "nc")
      return fail(loc, "unknown modifier '." + p + "' in '" + in.opcode + "'");
  }
  StringRef type = parts.back();
  Type t = typeOf(ctx, type);
  if (!t || in.operands.size() != 2)
    return fail(loc, "bad '" + in.opcode + "'");
  StringRef regs = isLoad ? in.operands[0] : in.operands[1];
  StringRef addr = isLoad ? in.operands[1] : in.operands[0];
  SmallVector<StringRef> lanes;
  if (vec > 1) {
    if (!regs.consume_front("{") || !regs.consume_back("}"))
      return fail(loc, "expected a register list");
    lanes = splitOperands(regs);
    if (lanes.size() != vec)
      return fail(loc, "expected " + Twine(vec) + " registers");
  } else {
    lanes.push_back(regs);
  }
  if (param) {
    StringRef name = addr.drop_front().drop_back();
    auto it = params.find(name);
    if (!isLoad || it == params.end())
      return fail(loc, "unknown parameter '" + name + "'");
    Value arg = func.getArgument(it->second);
    if (isa<LLVM::LLVMPointerType>(arg.getType()))
      arg = LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), arg);
    if (arg.getType().getIntOrFloatBitWidth() != t.getIntOrFloatBitWidth())
      return fail(loc, "parameter '" + name + "' is not " + type);
    return write(lanes[0], arg, isSignedType(type), loc);
  }
  unsigned bytes = t.getIntOrFloatBitWidth() / 8;
  for (auto [i, lane] : llvm::enumerate(lanes)) {
    StringRef at = addr;
    std::string withOffset;
    if (i > 0) { // lane i is i elements further
      StringRef inner = addr.drop_front().drop_back();
      auto [base, off] = inner.split('+');
      int64_t o = 0;
      if (!off.empty() && off.getAsInteger(10, o))
        return fail(loc, "bad address offset");
      withOffset = ("[" + base + "+" + Twine(o + static_cast<int64_t>(i * bytes)) + "]").str();
      at = withOffset;
    }
    FailureOr<Value> p = address(at, space, loc);
    if (failed(p))
      return failure();
    if (isLoad) {
      Value v = LLVM::LoadOp::create(b, loc, t, *p);
      if (failed(write(lane, v, isSignedType(type), loc)))
        return failure();
    } else {
      FailureOr<Value> v = read(lane, t, loc);
      if (failed(v))
        return failure();
      LLVM::StoreOp::create(b, loc, *v, *p);
    }
  }
  return success();
}

LogicalResult Importer::convert(const Instruction &in, ArrayRef<StringRef> parts) {
  Location loc = in.loc;
  if (parts.size() != 3 && parts.size() != 4)
    return fail(loc, "unknown instruction '" + in.opcode + "'");
  StringRef dst = parts[parts.size() - 2], src = parts.back();
  StringRef rnd = parts.size() == 4 ? parts[1] : "";
  Type dt = typeOf(ctx, dst), st = typeOf(ctx, src);
  if (!dt || !st || in.operands.size() != 2)
    return fail(loc, "bad '" + in.opcode + "'");
  FailureOr<Value> x = read(in.operands[1], st, loc);
  if (failed(x))
    return failure();
  Value v = *x, r;
  unsigned db = dt.getIntOrFloatBitWidth(), sb = st.getIntOrFloatBitWidth();
  bool dFloat = isFloatType(dst), sFloat = isFloatType(src);
  if (!dFloat && !sFloat) {
    r = db < sb             ? LLVM::TruncOp::create(b, loc, dt, v).getResult()
        : db == sb          ? v
        : isSignedType(src) ? LLVM::SExtOp::create(b, loc, dt, v).getResult()
                            : LLVM::ZExtOp::create(b, loc, dt, v).getResult();
  } else if (dFloat && sFloat) {
    if (db < sb || (db == sb && dt != st)) {
      if (rnd != "rn")
        return fail(loc, "a narrowing float cvt without .rn");
      if (db == sb) // f16 <-> bf16: through f32, exact one way
        v = LLVM::FPExtOp::create(b, loc, b.getF32Type(), v);
      r = LLVM::FPTruncOp::create(b, loc, dt, v);
    } else {
      r = LLVM::FPExtOp::create(b, loc, dt, v);
    }
  } else if (dFloat) {
    if (rnd != "rn")
      return fail(loc, "an integer-to-float cvt without .rn");
    r = isSignedType(src) ? LLVM::SIToFPOp::create(b, loc, dt, v).getResult()
                          : LLVM::UIToFPOp::create(b, loc, dt, v).getResult();
  } else {
    if (rnd != "rzi")
      return fail(loc, "a float-to-integer cvt other than .rzi");
    // Saturating, NaN to 0 (PTX: clamped to the destination's range).
    StringRef name = isSignedType(dst) ? "llvm.fptosi.sat" : "llvm.fptoui.sat";
    r = LLVM::CallIntrinsicOp::create(b, loc, dt, b.getStringAttr(name), ValueRange{v})
            .getResult(0);
  }
  return write(in.operands[0], r, isSignedType(dst), loc);
}

LogicalResult Importer::move(const Instruction &in, StringRef type) {
  Location loc = in.loc;
  StringRef d = in.operands[0], s = in.operands[1];
  Type t = typeOf(ctx, type);
  if (!t)
    return fail(loc, "bad '" + in.opcode + "'");
  unsigned bits = t.getIntOrFloatBitWidth();
  auto list = [](StringRef l) {
    l.consume_front("{");
    l.consume_back("}");
    return splitOperands(l);
  };
  SmallVector<StringRef> packed = list(d.starts_with("{") ? d : s);
  if ((d.starts_with("{") || s.starts_with("{")) &&
      (packed.empty() || bits % packed.size() != 0 || bits / packed.size() < 8))
    return fail(loc, "a register list that does not split " + Twine(bits) + " bits");
  if (d.starts_with("{")) { // unpack: the first register gets the low bits
    FailureOr<Value> v = read(s, b.getIntegerType(bits), loc);
    if (failed(v))
      return failure();
    SmallVector<StringRef> parts = list(d);
    unsigned pb = bits / parts.size();
    for (auto [i, p] : llvm::enumerate(parts)) {
      Value shifted =
          LLVM::LShrOp::create(b, loc, *v, LLVM::ConstantOp::create(b, loc, v->getType(), i * pb));
      if (failed(
              write(p, LLVM::TruncOp::create(b, loc, b.getIntegerType(pb), shifted), false, loc)))
        return failure();
    }
    return success();
  }
  if (s.starts_with("{")) { // pack
    SmallVector<StringRef> parts = list(s);
    unsigned pb = bits / parts.size();
    Type wide = b.getIntegerType(bits);
    Value acc = LLVM::ConstantOp::create(b, loc, wide, 0);
    for (auto [i, p] : llvm::enumerate(parts)) {
      FailureOr<Value> v = read(p, b.getIntegerType(pb), loc);
      if (failed(v))
        return failure();
      Value w = LLVM::ZExtOp::create(b, loc, wide, *v);
      Value sh = LLVM::ShlOp::create(b, loc, w, LLVM::ConstantOp::create(b, loc, wide, i * pb));
      acc = LLVM::OrOp::create(b, loc, acc, sh);
    }
    return write(d, acc, false, loc);
  }
  FailureOr<Value> v = read(s, t, loc);
  if (failed(v))
    return failure();
  return write(d, *v, isSignedType(type), loc);
}

LogicalResult Importer::tensorCore(const Instruction &in, ArrayRef<StringRef> parts) {
  Location loc = in.loc;
  auto list = [](StringRef l) {
    l.consume_front("{");
    l.consume_back("}");
    return splitOperands(l);
  };
  if (parts[0] == "ldmatrix") {
    // ldmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].shared.b16
    unsigned num = 0;
    bool trans = llvm::is_contained(parts, "trans");
    for (StringRef p : parts)
      if (p.consume_front("x"))
        (void)p.getAsInteger(10, num);
    if (!llvm::is_contained(parts, "m8n8") || !llvm::is_contained(parts, "shared") ||
        parts.back() != "b16" || !num)
      return fail(loc, "unsupported '" + in.opcode + "'");
    FailureOr<Value> p = address(in.operands[1], 3, loc);
    if (failed(p))
      return failure();
    SmallVector<StringRef> regs = list(in.operands[0]);
    if (regs.size() != num)
      return fail(loc, "ldmatrix .x" + Twine(num) + " needs " + Twine(num) + " registers");
    Type res = num == 1
                   ? Type(b.getI32Type())
                   : LLVM::LLVMStructType::getLiteral(ctx, SmallVector<Type>(num, b.getI32Type()));
    auto ld = NVVM::LdMatrixOp::create(
        b, loc, res, *p, num, trans ? NVVM::MMALayout::col : NVVM::MMALayout::row,
        NVVM::LdStMatrixShapeAttr::get(ctx, 8, 8), NVVM::LdStMatrixEltType::B16);
    for (auto [i, r] : llvm::enumerate(regs)) {
      Value v = num == 1 ? ld.getResult()
                         : LLVM::ExtractValueOp::create(b, loc, ld.getResult(),
                                                        ArrayRef<int64_t>{static_cast<int64_t>(i)})
                               .getResult();
      if (failed(write(r, v, false, loc)))
        return failure();
    }
    return success();
  }
  // mma.sync.aligned.mMnNkK.{row,col}.{row,col}.dtype.atype.btype.ctype
  if (parts.size() != 10)
    return fail(loc, "unsupported '" + in.opcode + "'");
  unsigned m, n, k;
  if (sscanf(parts[3].str().c_str(), "m%un%uk%u", &m, &n, &k) != 3)
    return fail(loc, "bad mma shape in '" + in.opcode + "'");
  StringRef dty = parts[6], aty = parts[7], cty = parts[9];
  if ((aty != "f16" && aty != "bf16") || parts[8] != aty || dty != "f32" || cty != "f32")
    return fail(loc, "unsupported '" + in.opcode + "'");
  SmallVector<StringRef> d = list(in.operands[0]), a = list(in.operands[1]),
                         bb = list(in.operands[2]), c = list(in.operands[3]);
  // The fragments per thread (PTX ISA, mma.m16n8k16 and m16n8k8 for f16/bf16).
  bool k16 = m == 16 && n == 8 && k == 16, k8 = m == 16 && n == 8 && k == 8;
  if (!(k16 || k8) || a.size() != (k16 ? 4u : 2u) || bb.size() != (k16 ? 2u : 1u) ||
      c.size() != 4 || d.size() != 4)
    return fail(loc, "an mma.sync shape or fragment count other than m16n8k16/m16n8k8's");
  auto fragments = [&](ArrayRef<StringRef> regs, SmallVectorImpl<Value> &out) -> LogicalResult {
    for (StringRef r : regs) {
      FailureOr<Value> v = read(r, b.getI32Type(), loc);
      if (failed(v))
        return failure();
      out.push_back(aty == "f16"
                        ? LLVM::BitcastOp::create(b, loc, VectorType::get({2}, b.getF16Type()), *v)
                              .getResult()
                        : *v);
    }
    return success();
  };
  SmallVector<Value> av, bv, cv;
  if (failed(fragments(a, av)) || failed(fragments(bb, bv)))
    return failure();
  for (StringRef r : c) {
    FailureOr<Value> v = read(r, b.getF32Type(), loc);
    if (failed(v))
      return failure();
    cv.push_back(*v);
  }
  auto layout = [](StringRef l) {
    return l == "row" ? NVVM::MMALayout::row : NVVM::MMALayout::col;
  };
  Type res = LLVM::LLVMStructType::getLiteral(ctx, SmallVector<Type>(d.size(), b.getF32Type()));
  std::optional<NVVM::MMATypes> ptxA, ptxB;
  if (aty == "bf16")
    ptxA = ptxB = NVVM::MMATypes::bf16;
  std::optional<std::array<NVVM::MMATypes, 2>> ptxTypes;
  if (ptxA)
    ptxTypes = std::array<NVVM::MMATypes, 2>{*ptxA, *ptxB};
  auto mma =
      NVVM::MmaOp::create(b, loc, res, av, bv, cv, ArrayRef<int64_t>{m, n, k},
                          /*b1Op=*/std::nullopt, /*intOverflow=*/std::nullopt, ptxTypes,
                          std::array<NVVM::MMALayout, 2>{layout(parts[4]), layout(parts[5])});
  for (auto [i, r] : llvm::enumerate(d))
    if (failed(write(r,
                     LLVM::ExtractValueOp::create(b, loc, mma.getResult(),
                                                  ArrayRef<int64_t>{static_cast<int64_t>(i)}),
                     false, loc)))
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// Hopper's TMA and mbarriers, as the direct printer writes them
//===----------------------------------------------------------------------===//

/// mbarrier.init.shared.b64 [bar], count
/// mbarrier.arrive.expect_tx.shared.b64 _, [bar], bytes
/// mbarrier.try_wait.parity.shared.b64 p, [bar], parity, ticks: a test of the
///   phase (the printer's loop around it retries, as try_wait's would)
/// cp.async.bulk.tensor.Nd.shared::cluster.global.tile.mbarrier::complete_tx::bytes
///   [dst], [map, {c0, ...}], [bar]; with .multicast::cluster, then ctaMask (b16)
LogicalResult Importer::tensorCopy(const Instruction &in) {
  Location loc = in.loc;
  auto i32 = [&](StringRef r) { return read(r, b.getI32Type(), loc); };
  if (in.guard.size())
    return fail(loc, "a predicated '" + in.opcode + "'");
  if (in.opcode == "mbarrier.init.shared.b64") {
    FailureOr<Value> bar = address(in.operands[0], 3, loc), n = i32(in.operands[1]);
    if (failed(bar) || failed(n))
      return failure();
    NVVM::MBarrierInitOp::create(b, loc, *bar, *n, Value());
    return success();
  }
  if (in.opcode == "mbarrier.arrive.expect_tx.shared.b64") {
    if (in.operands[0] != "_")
      return fail(loc, "'" + in.opcode + "' with a state register (only '_')");
    FailureOr<Value> bar = address(in.operands[1], 3, loc), n = i32(in.operands[2]);
    if (failed(bar) || failed(n))
      return failure();
    NVVM::MBarrierArriveExpectTxOp::create(b, loc, Type(), *bar, *n, NVVM::MemScopeKind::CTA,
                                           /*relaxed=*/false, Value());
    return success();
  }
  if (in.opcode == "mbarrier.try_wait.parity.shared.b64") {
    FailureOr<Value> bar = address(in.operands[1], 3, loc), parity = i32(in.operands[2]),
                     ticks = i32(in.operands[3]);
    if (failed(bar) || failed(parity) || failed(ticks))
      return failure();
    Value done = NVVM::MBarrierTestWaitOp::create(b, loc, b.getI1Type(), *bar, *parity);
    return write(in.operands[0], done, false, loc);
  }
  StringRef rest = in.opcode;
  unsigned rank = 0;
  bool multicast = rest.consume_back(".multicast::cluster");
  if (!rest.consume_front("cp.async.bulk.tensor.") || rest.consumeInteger(10, rank) ||
      rest != "d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" || rank < 1 || rank > 5)
    return fail(loc, "unsupported '" + in.opcode + "'");
  FailureOr<Value> mask = Value();
  if (multicast)
    mask = read(in.operands[3], b.getI16Type(), loc);
  if (failed(mask))
    return failure();
  StringRef source = in.operands[1];
  if (!source.consume_front("[") || !source.consume_back("]"))
    return fail(loc, "expected '[map, {coordinates}]', got '" + in.operands[1] + "'");
  auto [mapReg, list] = source.split(',');
  list = list.trim();
  SmallVector<StringRef> coords;
  if (list.consume_front("{") && list.consume_back("}"))
    coords = splitOperands(list);
  if (coords.size() != rank)
    return fail(loc, "'" + in.opcode + "' takes " + Twine(rank) + " coordinates");
  FailureOr<Value> dst = address(in.operands[0], 3, loc), bar = address(in.operands[2], 3, loc),
                   map = read(mapReg.trim(), b.getI64Type(), loc);
  if (failed(dst) || failed(bar) || failed(map))
    return failure();
  SmallVector<Value> xs;
  for (StringRef c : coords) {
    FailureOr<Value> x = i32(c);
    if (failed(x))
      return failure();
    xs.push_back(*x);
  }
  Value cluster = LLVM::AddrSpaceCastOp::create(b, loc, LLVM::LLVMPointerType::get(ctx, 7), *dst);
  Value mapPtr = LLVM::IntToPtrOp::create(b, loc, LLVM::LLVMPointerType::get(ctx), *map);
  NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
      b, loc, cluster, mapPtr, xs, *bar, ValueRange{}, *mask, Value(), NVVM::TMALoadMode::TILE,
      /*isCTAOnly=*/false, /*group=*/nullptr, /*predicate=*/Value());
  return success();
}

//===----------------------------------------------------------------------===//
// Hopper's wgmma
//===----------------------------------------------------------------------===//

/// The inline-asm blocks the printer copies from MLIR's NVVM lowering:
///   { .reg .pred p; setp.ne.b32 p, SCALE_D, 0; wgmma.mma_async... p, ...; }
///   { .reg .pred P1; LAB_WAIT: mbarrier.try_wait.parity.shared.b64 P1, [bar],
///     parity, ticks; @P1 bra.uni DONE; bra.uni LAB_WAIT; DONE: }
/// (the second: a wait until the phase completes, as the op it came from).
LogicalResult Importer::inlineBlock(ArrayRef<std::pair<StringRef, Location>> lines) {
  auto unsupported = [&](Location loc) {
    return fail(loc, "unsupported inline PTX block (the importer reads the wgmma.mma_async "
                     "and mbarrier.try_wait.parity blocks of MLIR's NVVM lowering)");
  };
  if (lines.size() == 6)
    return tryWaitBlock(lines);
  if (lines.size() != 3)
    return unsupported(lines.empty() ? func.getLoc() : lines[0].second);
  StringRef decl = lines[0].first, setp = lines[1].first, mma = lines[2].first;
  if (!decl.consume_front(".reg .pred ") || !decl.consume_back(";"))
    return unsupported(lines[0].second);
  SmallVector<StringRef> setpOps;
  if (setp.consume_front("setp.ne.b32 ") && setp.consume_back(";"))
    setpOps = splitOperands(setp);
  unsigned scaleD;
  if (setpOps.size() != 3 || setpOps[0] != decl || setpOps[1].getAsInteger(10, scaleD) ||
      scaleD > 1 || setpOps[2] != "0")
    return unsupported(lines[1].second);
  if (!mma.consume_back(";"))
    return unsupported(lines[2].second);
  auto [opcode, rest] = mma.split(' ');
  Instruction in{"", false, opcode, splitOperands(rest), lines[2].second};
  SmallVector<StringRef> parts;
  opcode.split(parts, '.');
  if (parts.size() != 8 || parts[0] != "wgmma" || parts[1] != "mma_async" ||
      in.operands.size() != 8 || in.operands[3] != decl)
    return unsupported(lines[2].second);
  startBlockIfTerminated();
  return wgmma(in, parts, scaleD == 1);
}

LogicalResult Importer::tryWaitBlock(ArrayRef<std::pair<StringRef, Location>> lines) {
  // Each line with its runs of blanks as one space.
  auto normal = [](StringRef l) {
    SmallVector<StringRef> words;
    l.split(words, ' ', -1, /*KeepEmpty=*/false);
    return llvm::join(words, " ");
  };
  std::string wait = normal(lines[2].first);
  StringRef w = wait;
  SmallVector<StringRef> ops;
  if (w.consume_front("mbarrier.try_wait.parity.shared.b64 ") && w.consume_back(";"))
    ops = splitOperands(w);
  if (normal(lines[0].first) != ".reg .pred P1;" || normal(lines[1].first) != "LAB_WAIT:" ||
      ops.size() != 4 || ops[0] != "P1" || normal(lines[3].first) != "@P1 bra.uni DONE;" ||
      normal(lines[4].first) != "bra.uni LAB_WAIT;" || normal(lines[5].first) != "DONE:")
    return fail(lines[0].second, "unsupported inline PTX block (the importer reads the "
                                 "wgmma.mma_async and mbarrier.try_wait.parity blocks of MLIR's "
                                 "NVVM lowering)");
  Location loc = lines[2].second;
  startBlockIfTerminated();
  FailureOr<Value> bar = address(ops[1], 3, loc), parity = read(ops[2], b.getI32Type(), loc),
                   ticks = read(ops[3], b.getI32Type(), loc);
  if (failed(bar) || failed(parity) || failed(ticks))
    return failure();
  NVVM::MBarrierTryWaitParityOp::create(b, loc, *bar, *parity, *ticks);
  return success();
}

/// wgmma.mma_async.sync.aligned.m64nNk16.f32.{f16,bf16}.{f16,bf16}
///   {d...}, descA, descB, p, scaleA, scaleB, transA, transB
LogicalResult Importer::wgmma(const Instruction &in, ArrayRef<StringRef> parts, bool scaleD) {
  Location loc = in.loc;
  unsigned m, n, k;
  StringRef aty = parts[6];
  if (parts[2] != "sync" || parts[3] != "aligned" ||
      sscanf(parts[4].str().c_str(), "m%un%uk%u", &m, &n, &k) != 3 || m != 64 || k != 16 || n % 8 ||
      n < 8 || n > 256 || parts[5] != "f32" || (aty != "f16" && aty != "bf16") || parts[7] != aty)
    return fail(loc, "unsupported '" + in.opcode + "' (m64nNk16, f32 from f16 or bf16)");
  StringRef list = in.operands[0];
  if (!list.consume_front("{") || !list.consume_back("}"))
    return fail(loc, "expected the accumulator registers in braces");
  SmallVector<StringRef> regs = splitOperands(list);
  if (regs.size() != n / 2)
    return fail(loc, "m64n" + Twine(n) + "k16 takes " + Twine(n / 2) + " registers, not " +
                         Twine(regs.size()));
  auto imm = [&](StringRef s, ArrayRef<int> allowed) -> std::optional<int> {
    int v;
    if (s.getAsInteger(10, v) || !llvm::is_contained(allowed, v))
      return std::nullopt;
    return v;
  };
  std::optional<int> scaleA = imm(in.operands[4], {1, -1}), scaleB = imm(in.operands[5], {1, -1}),
                     transA = imm(in.operands[6], {0, 1}), transB = imm(in.operands[7], {0, 1});
  if (!scaleA || !scaleB || !transA || !transB)
    return fail(loc, "expected scale-a, scale-b (1 or -1) and trans-a, trans-b (0 or 1)");
  FailureOr<Value> descA = read(in.operands[1], b.getI64Type(), loc),
                   descB = read(in.operands[2], b.getI64Type(), loc);
  if (failed(descA) || failed(descB))
    return failure();
  // The accumulators; one still in flight is the earlier wgmma's result,
  // which a wgmma may take without a wait. With scale-d 0 the wgmma does not
  // read them (the first k-step's registers may hold nothing yet).
  Type f32 = b.getF32Type();
  auto structType = LLVM::LLVMStructType::getLiteral(ctx, SmallVector<Type>(regs.size(), f32));
  Value acc = LLVM::ZeroOp::create(b, loc, structType);
  for (auto [i, r] : llvm::enumerate(regs)) {
    if (!scaleD)
      break;
    Value v;
    if (auto it = inFlight.find(r); it != inFlight.end())
      v = LLVM::ExtractValueOp::create(b, loc, it->second.first->getResult(0),
                                       ArrayRef<int64_t>{it->second.second});
    else if (FailureOr<Value> x = read(r, f32, loc); succeeded(x))
      v = *x;
    else
      return failure();
    acc = LLVM::InsertValueOp::create(b, loc, acc, v, i);
  }
  using namespace NVVM;
  WGMMATypes t = aty == "bf16" ? WGMMATypes::bf16 : WGMMATypes::f16;
  auto scale = [](int s) { return s == 1 ? WGMMAScaleIn::one : WGMMAScaleIn::neg; };
  // PTX's imm-trans 0 is K-major: A's row, B's col (NVVMDialect's mapping).
  auto op = WgmmaMmaAsyncOp::create(
      b, loc, structType, acc, *descA, *descB, MMAShapeAttr::get(ctx, 64, n, 16), t, t,
      WGMMATypes::f32, scaleD ? WGMMAScaleOut::one : WGMMAScaleOut::zero, scale(*scaleA),
      scale(*scaleB), *transA ? MMALayout::col : MMALayout::row,
      *transB ? MMALayout::row : MMALayout::col, MMAIntOverflowAttr());
  for (auto [i, r] : llvm::enumerate(regs))
    inFlight[r] = {op, static_cast<unsigned>(i)};
  wgmmaGroups.back().push_back(op);
  return success();
}

/// wgmma.fence, wgmma.commit_group, wgmma.wait_group N (which writes the
/// registers of every group but the newest N), fence.proxy.async.
LogicalResult Importer::wgmmaSync(const Instruction &in, ArrayRef<StringRef> parts) {
  Location loc = in.loc;
  if (!in.guard.empty())
    return fail(loc, "a guarded '" + in.opcode + "'");
  if (in.opcode == "fence.proxy.async") {
    NVVM::FenceProxyOp::create(b, loc, NVVM::ProxyKind::async, NVVM::SharedSpaceAttr());
    return success();
  }
  if (in.opcode == "fence.proxy.async.shared::cta") {
    NVVM::FenceProxyOp::create(b, loc, NVVM::ProxyKind::async_shared,
                               NVVM::SharedSpaceAttr::get(ctx, NVVM::SharedSpace::shared_cta));
    return success();
  }
  if (in.opcode == "wgmma.fence.sync.aligned") {
    NVVM::WgmmaFenceAlignedOp::create(b, loc);
    return success();
  }
  if (in.opcode == "wgmma.commit_group.sync.aligned") {
    NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
    wgmmaGroups.emplace_back();
    return success();
  }
  if (parts[1] == "mma_async")
    return fail(loc, "a wgmma.mma_async outside the inline-asm block that sets its scale-d "
                     "predicate");
  unsigned pending;
  if (in.opcode != "wgmma.wait_group.sync.aligned")
    return fail(loc, "unsupported '" + in.opcode + "'");
  if (in.operands[0].getAsInteger(10, pending))
    return fail(loc, "bad wait_group count '" + in.operands[0] + "'");
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, pending);
  // Committed groups are all but the last; all but the newest `pending` retire.
  while (wgmmaGroups.size() - 1 > pending) {
    for (Operation *op : wgmmaGroups.front())
      for (auto it = inFlight.begin(); it != inFlight.end();) {
        auto cur = it++;
        if (cur->second.first != op)
          continue; // another wgmma's, or a later one's that chained it
        std::string reg = cur->first().str();
        unsigned i = cur->second.second;
        inFlight.erase(cur);
        if (failed(write(reg,
                         LLVM::ExtractValueOp::create(b, loc, op->getResult(0),
                                                      ArrayRef<int64_t>{static_cast<int64_t>(i)}),
                         false, loc)))
          return failure();
      }
    wgmmaGroups.erase(wgmmaGroups.begin());
  }
  return success();
}

/// A register nothing writes holds no value on any path: the GPU would read
/// garbage, and LLVM's optimizer may make of the kernel anything at all.
LogicalResult Importer::checkReadsWritten() {
  for (auto &[reg, loc] : reads)
    if (!written.contains(reg))
      return fail(loc, "register " + reg + " is read, but no instruction in the kernel writes it");
  return success();
}

/// A register read where some path from the kernel's entry reaches it
/// without a write (a write later in a loop, say) is read unwritten on that
/// path: LLVM's optimizer, seeing undef there, may delete the loop's exit and
/// the simulation never ends. Every path must write it first (a must-write
/// dataflow over the blocks; a guarded write is on one path only). Blocks no
/// branch reaches are not checked.
LogicalResult Importer::checkWrittenBeforeRead() {
  llvm::DenseMap<Value, unsigned> slotIndex;
  SmallVector<StringRef> names;
  for (auto &entry : slots) {
    slotIndex[entry.second] = names.size();
    names.push_back(entry.first());
  }
  auto slotOf = [&](Value addr) -> std::optional<unsigned> {
    auto it = slotIndex.find(addr);
    return it == slotIndex.end() ? std::nullopt : std::optional<unsigned>(it->second);
  };
  // Written on every path to a block's end; all set until a path is known.
  Region &body = func.getBody();
  llvm::DenseMap<Block *, llvm::BitVector> out;
  for (Block &blk : body)
    out[&blk] = llvm::BitVector(names.size(), true);
  auto in = [&](Block *blk) {
    if (blk == &body.front())
      return llvm::BitVector(names.size(), false);
    llvm::BitVector set(names.size(), true);
    for (Block *pred : blk->getPredecessors())
      set &= out[pred];
    return set;
  };
  auto transfer = [&](Block &blk, llvm::BitVector set,
                      function_ref<bool(LLVM::LoadOp, unsigned)> onRead) {
    for (Operation &op : blk) {
      if (auto load = dyn_cast<LLVM::LoadOp>(op)) {
        if (std::optional<unsigned> s = slotOf(load.getAddr());
            s && !set.test(*s) && !onRead(load, *s))
          return set;
      } else if (auto store = dyn_cast<LLVM::StoreOp>(op)) {
        if (std::optional<unsigned> s = slotOf(store.getAddr()))
          set.set(*s);
      }
    }
    return set;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (Block &blk : body) {
      llvm::BitVector next = transfer(blk, in(&blk), [](LLVM::LoadOp, unsigned) { return true; });
      if (next != out[&blk]) {
        out[&blk] = std::move(next);
        changed = true;
      }
    }
  }
  llvm::SmallPtrSet<Block *, 16> reachable;
  SmallVector<Block *> work{&body.front()};
  while (!work.empty()) {
    Block *blk = work.pop_back_val();
    if (reachable.insert(blk).second)
      llvm::append_range(work, blk->getSuccessors());
  }
  LogicalResult result = success();
  for (Block &blk : body) {
    if (!reachable.contains(&blk))
      continue;
    transfer(blk, in(&blk), [&](LLVM::LoadOp load, unsigned s) {
      result = fail(load.getLoc(), "register " + names[s] +
                                       " may be read before it is written: a path from the "
                                       "kernel's entry reaches this read without writing it");
      return false;
    });
    if (failed(result))
      return result;
  }
  return success();
}

LogicalResult Importer::checkNoWgmmaInFlight(Location loc) {
  if (inFlight.empty())
    return success();
  return fail(loc, "register " + inFlight.begin()->first() +
                       " of a wgmma.mma_async is not retired by a wgmma.wait_group before this "
                       "point (the importer needs the wait in the wgmma's block)");
}

Block *Importer::label(StringRef name) {
  // The region owns every block from the start (a branch may name a label
  // that never comes); a label's line moves its block into place.
  Block *&blk = labels[name];
  if (!blk) {
    blk = new Block();
    func.getBody().push_back(blk);
  }
  return blk;
}

void Importer::startBlockIfTerminated() {
  if (!cur->empty() && cur->back().hasTrait<OpTrait::IsTerminator>()) {
    cur = new Block();
    func.getBody().push_back(cur);
    b.setInsertionPointToEnd(cur);
  }
}

/// How many operands an instruction takes, by its opcode's parts.
static size_t operandCount(ArrayRef<StringRef> parts) {
  StringRef op = parts[0];
  if (op == "wgmma")
    return parts[1] == "wait_group" ? 1 : parts[1] == "mma_async" ? 8 : 0;
  if (op == "ret" || op == "fence" || op == "barrier" ||
      (op == "cp" && parts.back() == "commit_group"))
    return 0;
  if (op == "bra" || op == "bar" || (op == "cp" && parts.back() == "wait_group"))
    return 1;
  if (op == "ld" || op == "st" || op == "cvt" || op == "cvta" || op == "mov" || op == "ldmatrix" ||
      op == "neg" || op == "not" || op == "ex2" || op == "lg2" || op == "sin" || op == "cos" ||
      op == "sqrt" || op == "rcp")
    return 2;
  if (op == "mbarrier") // init; arrive.expect_tx; try_wait.parity
    return parts[1] == "init" ? 2 : parts[1] == "arrive" ? 3 : 4;
  if (op == "selp" || op == "mma" || op == "fma" || parts.back() == "multicast::cluster")
    return 4;
  return 3; // setp, cp.async (and cp.async.bulk.tensor), and the binary operations
}

LogicalResult Importer::instruction(const Instruction &in) {
  Location loc = in.loc;
  SmallVector<StringRef> parts;
  in.opcode.split(parts, '.');
  StringRef op = parts[0];
  if (parts.size() < 2 && op != "ret" && op != "bra")
    return fail(loc, "unknown instruction '" + in.opcode + "'");
  if (in.operands.size() != operandCount(parts))
    return fail(loc, "'" + in.opcode + "' takes " + Twine(operandCount(parts)) + " operands, not " +
                         Twine(in.operands.size()));
  startBlockIfTerminated();
  if (op == "bra") {
    Block *target = label(in.operands[0]);
    if (in.guard.empty()) {
      LLVM::BrOp::create(b, loc, ValueRange(), target);
      return success();
    }
    FailureOr<Value> p = read(in.guard, b.getI1Type(), loc);
    if (failed(p))
      return failure();
    Block *next = new Block();
    if (in.negated)
      LLVM::CondBrOp::create(b, loc, *p, next, target);
    else
      LLVM::CondBrOp::create(b, loc, *p, target, next);
    func.getBody().push_back(next);
    cur = next;
    b.setInsertionPointToEnd(cur);
    return success();
  }
  // A guarded instruction: a branch around it.
  Block *after = nullptr;
  if (!in.guard.empty()) {
    FailureOr<Value> p = read(in.guard, b.getI1Type(), loc);
    if (failed(p))
      return failure();
    Block *then = new Block();
    after = new Block();
    if (in.negated)
      LLVM::CondBrOp::create(b, loc, *p, after, then);
    else
      LLVM::CondBrOp::create(b, loc, *p, then, after);
    func.getBody().push_back(then);
    func.getBody().push_back(after);
    cur = then;
    b.setInsertionPointToEnd(cur);
  }
  LogicalResult result = [&]() -> LogicalResult {
    if (op == "ret") {
      LLVM::ReturnOp::create(b, loc, ValueRange());
      return success();
    }
    if (op == "ld" || op == "st")
      return memory(in, parts);
    if (op == "cvt")
      return convert(in, parts);
    if (op == "cvta") { // one address space on the simulator
      FailureOr<Value> v = read(in.operands[1], b.getI64Type(), loc);
      return failed(v) ? failure() : write(in.operands[0], *v, false, loc);
    }
    if (op == "mov")
      return move(in, parts.back());
    if (op == "setp") {
      if (parts.size() != 3)
        return fail(loc, "unknown instruction '" + in.opcode + "'");
      StringRef cmp = parts[1], type = parts[2];
      Type t = typeOf(ctx, type);
      if (!t)
        return fail(loc, "unknown type in '" + in.opcode + "'");
      FailureOr<Value> x = read(in.operands[1], t, loc), y = read(in.operands[2], t, loc);
      if (failed(x) || failed(y))
        return failure();
      Value r;
      if (isFloatType(type)) {
        using P = LLVM::FCmpPredicate;
        std::optional<P> pred = llvm::StringSwitch<std::optional<P>>(cmp)
                                    .Case("eq", P::oeq)
                                    .Case("ne", P::one)
                                    .Case("lt", P::olt)
                                    .Case("le", P::ole)
                                    .Case("gt", P::ogt)
                                    .Case("ge", P::oge)
                                    .Case("equ", P::ueq)
                                    .Case("neu", P::une)
                                    .Case("ltu", P::ult)
                                    .Case("leu", P::ule)
                                    .Case("gtu", P::ugt)
                                    .Case("geu", P::uge)
                                    .Case("num", P::ord)
                                    .Case("nan", P::uno)
                                    .Default(std::nullopt);
        if (!pred)
          return fail(loc, "unknown comparison in '" + in.opcode + "'");
        r = LLVM::FCmpOp::create(b, loc, *pred, *x, *y);
      } else {
        using P = LLVM::ICmpPredicate;
        bool s = isSignedType(type);
        std::optional<P> pred = llvm::StringSwitch<std::optional<P>>(cmp)
                                    .Case("eq", P::eq)
                                    .Case("ne", P::ne)
                                    .Case("lt", s ? P::slt : P::ult)
                                    .Case("le", s ? P::sle : P::ule)
                                    .Case("gt", s ? P::sgt : P::ugt)
                                    .Case("ge", s ? P::sge : P::uge)
                                    .Case("lo", P::ult)
                                    .Case("ls", P::ule)
                                    .Case("hi", P::ugt)
                                    .Case("hs", P::uge)
                                    .Default(std::nullopt);
        if (!pred)
          return fail(loc, "unknown comparison in '" + in.opcode + "'");
        r = LLVM::ICmpOp::create(b, loc, *pred, *x, *y);
      }
      return write(in.operands[0], r, false, loc);
    }
    if (op == "selp") {
      Type t = typeOf(ctx, parts.back());
      if (!t)
        return fail(loc, "unknown type in '" + in.opcode + "'");
      FailureOr<Value> x = read(in.operands[1], t, loc), y = read(in.operands[2], t, loc),
                       c = read(in.operands[3], b.getI1Type(), loc);
      if (failed(x) || failed(y) || failed(c))
        return failure();
      return write(in.operands[0], LLVM::SelectOp::create(b, loc, *c, *x, *y),
                   isSignedType(parts.back()), loc);
    }
    if (op == "bar") {
      if (in.operands.size() != 1 || in.operands[0] != "0")
        return fail(loc, "only 'bar.sync 0' is supported");
      NVVM::Barrier0Op::create(b, loc);
      return success();
    }
    if (op == "mapa") { // mapa.shared::cluster.u64 d, a, rank: rank's shared address a
      if (in.opcode != "mapa.shared::cluster.u64")
        return fail(loc, "unknown instruction '" + in.opcode + "'");
      FailureOr<Value> a = address(("[" + in.operands[1] + "]").str(), 3, loc);
      FailureOr<Value> rank = read(in.operands[2], b.getI32Type(), loc);
      if (failed(a) || failed(rank))
        return failure();
      Value peer = NVVM::MapaOp::create(b, loc, LLVM::LLVMPointerType::get(ctx, 7), *a, *rank);
      return write(in.operands[0], LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), peer), false,
                   loc);
    }
    if (op == "barrier") { // barrier.cluster.{arrive,wait}[.aligned]
      bool aligned = parts.size() == 4 && parts[3] == "aligned";
      UnitAttr alignedAttr = aligned ? b.getUnitAttr() : UnitAttr();
      if (parts.size() < 3 || parts.size() > 4 || parts[1] != "cluster" ||
          (parts.size() == 4 && !aligned))
        return fail(loc, "unsupported '" + in.opcode + "'");
      if (parts[2] == "arrive")
        NVVM::ClusterArriveOp::create(b, loc, alignedAttr);
      else if (parts[2] == "wait")
        NVVM::ClusterWaitOp::create(b, loc, alignedAttr);
      else
        return fail(loc, "unsupported '" + in.opcode + "'");
      return success();
    }
    if (op == "cp") {
      if (in.opcode == "cp.async.commit_group") {
        NVVM::CpAsyncCommitGroupOp::create(b, loc);
        return success();
      }
      if (in.opcode == "cp.async.wait_group") {
        unsigned n;
        if (in.operands[0].getAsInteger(10, n))
          return fail(loc, "bad wait_group count");
        NVVM::CpAsyncWaitGroupOp::create(b, loc, n);
        return success();
      }
      if (in.opcode.starts_with("cp.async.bulk.tensor."))
        return tensorCopy(in);
      if (in.opcode != "cp.async.cg.shared.global" && in.opcode != "cp.async.ca.shared.global")
        return fail(loc, "unsupported '" + in.opcode + "'");
      FailureOr<Value> dst = address(in.operands[0], 3, loc), src = address(in.operands[1], 1, loc);
      unsigned size;
      if (failed(dst) || failed(src) || in.operands[2].getAsInteger(10, size))
        return failure();
      NVVM::CpAsyncOp::create(b, loc, *dst, *src, size,
                              parts[2] == "cg" ? NVVM::LoadCacheModifierKind::CG
                                               : NVVM::LoadCacheModifierKind::CA,
                              Value());
      return success();
    }
    if (op == "mbarrier")
      return tensorCopy(in);
    if (op == "ldmatrix" || op == "mma")
      return tensorCore(in, parts);
    if (op == "wgmma" || op == "fence")
      return wgmmaSync(in, parts);
    return arith(in, parts);
  }();
  if (failed(result))
    return failure();
  if (after) {
    LLVM::BrOp::create(b, loc, ValueRange(), after);
    cur = after;
    b.setInsertionPointToEnd(cur);
  }
  return success();
}

//===----------------------------------------------------------------------===//
// The module
//===----------------------------------------------------------------------===//

OwningOpRef<ModuleOp> Importer::run() {
  const llvm::MemoryBuffer *buf = sm.getMemoryBuffer(sm.getMainFileID());
  SmallVector<StringRef> lines;
  buf->getBuffer().split(lines, '\n');
  OwningOpRef<ModuleOp> module = ModuleOp::create(locAt(1, 1));
  (*module)->setAttr("gpu.container_module", b.getUnitAttr());
  std::string chip, features;
  SmallVector<std::pair<std::string, unsigned>> sharedDecls; // name, bytes (with align below)
  StringRef launchKernel;
  SmallVector<int32_t> grid, block;
  SmallVector<TensorMapAttr> maps;
  NamedAttrList launch; // uop.launch entries of the kernels that take tensor maps
  enum { Top, Params, Body, AsmBlock } state = Top;
  SmallVector<std::pair<StringRef, Location>> asmLines;
  gpu::GPUModuleOp gpuModule;
  // Three sizes, each at least 1 (a `.maxntid -1` made an attribute that
  // LLVM's translation cannot read: found by uop-ptx-fuzzer).
  auto parseDims = [](StringRef s, SmallVectorImpl<int32_t> &out) {
    SmallVector<StringRef> xs;
    s.split(xs, ',');
    for (StringRef x : xs) {
      int32_t v;
      if (x.trim().getAsInteger(10, v) || v < 1)
        return false;
      out.push_back(v);
    }
    return out.size() == 3;
  };
  for (auto [i, raw] : llvm::enumerate(lines)) {
    unsigned lineNo = i + 1;
    StringRef line = raw.trim();
    Location loc = locAt(lineNo, raw.size() - raw.ltrim().size() + 1);
    if (line.empty())
      continue;
    if (line.consume_front("// uop-mlir kernel ")) {
      SmallVector<StringRef> fields;
      line.split(fields, ' ');
      grid.clear();
      block.clear();
      maps.clear();
      // Then `variables=` (what a caller passes: not needed here) and the
      // tensor maps the kernel takes, which the runtimes make.
      bool ok = fields.size() >= 3 && fields.size() <= 5 && fields[1].consume_front("grid=") &&
                fields[2].consume_front("block=") && parseDims(fields[1], grid) &&
                parseDims(fields[2], block);
      for (StringRef f : ArrayRef(fields).drop_front(3))
        ok &= f.starts_with("variables=") ||
              (f.consume_front("tensor_maps=") &&
               succeeded(parseTensorMaps(ctx, f, maps, [&] { return emitError(loc); })));
      if (!ok) {
        emitError(loc) << "bad launch line";
        return nullptr;
      }
      launchKernel = fields[0];
      if (!maps.empty()) {
        NamedAttrList entry;
        entry.set("grid", b.getDenseI32ArrayAttr(grid));
        entry.set("block", b.getDenseI32ArrayAttr(block));
        entry.set("tensor_maps", b.getArrayAttr(SmallVector<Attribute>(maps.begin(), maps.end())));
        launch.set(launchKernel, entry.getDictionary(ctx));
      }
      continue;
    }
    if (line.starts_with("//"))
      continue;
    if (state == Top) {
      if (line.consume_front(".version ")) {
        auto [major, minor] = line.split('.');
        features = ("+ptx" + major + minor).str();
      } else if (line.consume_front(".target ")) {
        chip = line.str();
      } else if (line.starts_with(".address_size")) {
        if (line != ".address_size 64") {
          emitError(loc) << "only 64-bit addresses are supported";
          return nullptr;
        }
      } else if (line.consume_front(".shared .align ")) {
        unsigned align, bytes;
        auto [a, rest] = line.split(' ');
        StringRef decl = rest;
        if (a.getAsInteger(10, align) || !decl.consume_front(".b8 ") || !decl.consume_back("];")) {
          emitError(loc) << "bad .shared declaration";
          return nullptr;
        }
        auto [name, size] = decl.split('[');
        if (size.getAsInteger(10, bytes)) {
          emitError(loc) << "bad .shared size";
          return nullptr;
        }
        shared[name] = {align, bytes};
        sharedDecls.push_back({name.str(), bytes});
      } else if (line.consume_front(".visible .entry ")) {
        StringRef name = line.rtrim('(');
        if (chip.empty() || features.empty()) {
          emitError(loc) << "a kernel before .version and .target";
          return nullptr;
        }
        b.setInsertionPointToEnd(module->getBody());
        gpuModule = gpu::GPUModuleOp::create(b, loc, name);
        gpuModule.setTargetsAttr(b.getArrayAttr(
            {NVVM::NVVMTargetAttr::get(ctx, 3, "nvptx64-nvidia-cuda", chip, features)}));
        b.setInsertionPointToStart(gpuModule.getBody());
        for (auto &[sname, bytes] : sharedDecls)
          LLVM::GlobalOp::create(b, loc, LLVM::LLVMArrayType::get(b.getI8Type(), bytes), false,
                                 LLVM::Linkage::Internal, sname, Attribute(), shared[sname].first,
                                 3);
        func = LLVM::LLVMFuncOp::create(
            b, loc, name, LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), {}));
        func->setAttr("nvvm.kernel", b.getUnitAttr());
        if (launchKernel == name) {
          func->setAttr("gpu.known_grid_size", b.getDenseI32ArrayAttr(grid));
          func->setAttr("gpu.known_block_size", b.getDenseI32ArrayAttr(block));
        }
        params.clear();
        inFlight.clear();
        wgmmaGroups.assign(1, {});
        slots.clear();
        readNames.clear();
        reads.clear();
        written.clear();
        labels.clear();
        defined.clear();
        regClasses.clear();
        state = Params;
      } else {
        emitError(loc) << "unsupported line '" << line << "'";
        return nullptr;
      }
      continue;
    }
    if (state == Params) {
      if (line.consume_front(".param ")) {
        line = line.rtrim(',');
        StringRef name = line.rsplit(' ').second;
        Type t = line.starts_with(".u64 .ptr") ? Type(LLVM::LLVMPointerType::get(ctx))
                 : line.starts_with(".b8 ")    ? Type(b.getI8Type())
                 : line.starts_with(".b16 ")   ? Type(b.getI16Type())
                 : line.starts_with(".b32 ")   ? Type(b.getI32Type())
                 : line.starts_with(".b64 ")   ? Type(b.getI64Type())
                                               : Type();
        if (!t) {
          emitError(loc) << "unsupported parameter '" << line << "'";
          return nullptr;
        }
        params[name] = func.getNumArguments();
        SmallVector<Type> inputs(func.getArgumentTypes());
        inputs.push_back(t);
        func.setFunctionType(LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), inputs));
        continue;
      }
      if (line == ")" || line == ".explicitcluster")
        continue;
      if (line.consume_front(".reqnctapercluster ")) {
        SmallVector<int32_t> dims;
        if (!parseDims(line, dims)) {
          emitError(loc) << "bad cluster dimensions";
          return nullptr;
        }
        func->setAttr(NVVM::NVVMDialect::getClusterDimAttrName(), b.getDenseI32ArrayAttr(dims));
        continue;
      }
      if (line.consume_front(".maxntid ") || line.consume_front(".reqntid ")) {
        SmallVector<int32_t> dims;
        if (!parseDims(line, dims)) {
          emitError(loc) << "bad thread bounds";
          return nullptr;
        }
        func->setAttr(raw.trim().starts_with(".maxntid") ? "nvvm.maxntid" : "nvvm.reqntid",
                      b.getDenseI32ArrayAttr(dims));
        continue;
      }
      if (line == "{") {
        Block *entry = func.addEntryBlock(b);
        b.setInsertionPointToStart(entry);
        one = LLVM::ConstantOp::create(b, loc, b.getI64Type(), 1);
        cur = entry;
        state = Body;
        continue;
      }
      emitError(loc) << "unsupported line '" << line << "'";
      return nullptr;
    }
    // Body. An inline-asm block ("{" to "}") is read as a whole.
    if (state == AsmBlock) {
      if (line != "}") {
        asmLines.push_back({line, loc});
        continue;
      }
      state = Body;
      if (failed(inlineBlock(asmLines)))
        return nullptr;
      asmLines.clear();
      continue;
    }
    if (line == "{") {
      state = AsmBlock;
      continue;
    }
    if (line == "}") {
      if (failed(checkNoWgmmaInFlight(loc)) || failed(checkReadsWritten()))
        return nullptr;
      startBlockIfTerminated();
      if (cur->empty() || !cur->back().hasTrait<OpTrait::IsTerminator>())
        LLVM::ReturnOp::create(b, loc, ValueRange());
      for (auto &[name, blk] : labels)
        if (!defined.contains(name)) {
          emitError(loc) << "branch to the undefined label '" << name << "'";
          return nullptr;
        }
      if (failed(checkWrittenBeforeRead()))
        return nullptr;
      state = Top;
      continue;
    }
    if (line.consume_front(".reg .")) {
      auto [type, rest] = line.split(' ');
      StringRef prefix = rest.trim().take_until([](char c) { return c == '<'; });
      Type t = type == "pred" ? b.getI1Type() : typeOf(ctx, type);
      if (!t) {
        emitError(loc) << "bad register declaration";
        return nullptr;
      }
      regClasses[prefix] = t;
      continue;
    }
    if (line.ends_with(":")) {
      if (failed(checkNoWgmmaInFlight(loc)))
        return nullptr;
      Block *blk = label(line.drop_back());
      if (!defined.insert(line.drop_back()).second) {
        emitError(loc) << "label '" << line.drop_back() << "' defined twice";
        return nullptr;
      }
      if (cur->empty() || !cur->back().hasTrait<OpTrait::IsTerminator>())
        LLVM::BrOp::create(b, loc, ValueRange(), blk);
      Region &body = func.getBody();
      body.getBlocks().splice(body.end(), body.getBlocks(), blk->getIterator());
      cur = blk;
      b.setInsertionPointToEnd(cur);
      continue;
    }
    // A hint to ptxas's optimizer (the printer marks loops it unrolled);
    // the loop runs as written either way.
    if (line == ".pragma \"nounroll\";")
      continue;
    if (line.starts_with(".pragma ")) {
      emitError(loc) << "unsupported pragma '" << line
                     << "' (the printer writes only \"nounroll\")";
      return nullptr;
    }
    if (!line.consume_back(";")) {
      emitError(loc) << "expected ';' at the end of '" << line << "'";
      return nullptr;
    }
    Instruction in{"", false, "", {}, loc};
    if (line.consume_front("@")) {
      in.negated = line.consume_front("!");
      auto [g, rest] = line.split(' ');
      in.guard = g;
      line = rest.trim();
    }
    auto [opcode, rest] = line.split(' ');
    in.opcode = opcode;
    in.operands = splitOperands(rest);
    if (failed(instruction(in)))
      return nullptr;
  }
  if (state != Top) {
    emitError(locAt(lines.size(), 1)) << "the PTX ends inside a kernel";
    return nullptr;
  }
  if (!launch.empty())
    UOpDialect::LaunchAttrHelper(ctx).setAttr(*module, launch.getDictionary(ctx));
  return module;
}

} // namespace

OwningOpRef<ModuleOp> mlir::uop::importPTX(llvm::SourceMgr &sourceMgr, MLIRContext *context) {
  context->loadDialect<gpu::GPUDialect, LLVM::LLVMDialect, NVVM::NVVMDialect, UOpDialect>();
  return Importer(sourceMgr, context).run();
}

//===- DTypes.cpp - tinygrad dtype names and the generic op table ---------===//

#include "DTypes.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::uop::tinygrad;

Type mlir::uop::tinygrad::scalarFromName(MLIRContext *ctx, StringRef name) {
  auto si = [&](unsigned w) { return IntegerType::get(ctx, w, IntegerType::Signed); };
  auto ui = [&](unsigned w) { return IntegerType::get(ctx, w, IntegerType::Unsigned); };
  return llvm::StringSwitch<std::function<Type()>>(name)
      .Case("bool", [&] { return IntegerType::get(ctx, 1); })
      .Case("i8", [&] { return si(8); })
      .Case("i16", [&] { return si(16); })
      .Case("i32", [&] { return si(32); })
      .Case("i64", [&] { return si(64); })
      .Case("u8", [&] { return ui(8); })
      .Case("u16", [&] { return ui(16); })
      .Case("u32", [&] { return ui(32); })
      .Case("u64", [&] { return ui(64); })
      .Case("f16", [&] { return Float16Type::get(ctx); })
      .Case("bf16", [&] { return BFloat16Type::get(ctx); })
      .Case("f32", [&] { return Float32Type::get(ctx); })
      .Case("f64", [&] { return Float64Type::get(ctx); })
      .Case("fp8e4m3", [&] { return Float8E4M3FNType::get(ctx); })
      .Case("fp8e5m2", [&] { return Float8E5M2Type::get(ctx); })
      .Default([] { return Type(); })();
}

StringRef mlir::uop::tinygrad::nameOfScalar(Type t) {
  if (t.isInteger(1))
    return "bool";
  if (auto i = dyn_cast<IntegerType>(t)) {
    if (i.isSignless())
      return "";
    bool u = i.isUnsigned();
    switch (i.getWidth()) {
    case 8:
      return u ? "u8" : "i8";
    case 16:
      return u ? "u16" : "i16";
    case 32:
      return u ? "u32" : "i32";
    case 64:
      return u ? "u64" : "i64";
    default:
      return "";
    }
  }
  if (isa<Float16Type>(t))
    return "f16";
  if (isa<BFloat16Type>(t))
    return "bf16";
  if (isa<Float32Type>(t))
    return "f32";
  if (isa<Float64Type>(t))
    return "f64";
  if (isa<Float8E4M3FNType>(t))
    return "fp8e4m3";
  if (isa<Float8E5M2Type>(t))
    return "fp8e5m2";
  return "";
}

ArrayRef<GenericOp> mlir::uop::tinygrad::genericOps() {
  static const GenericOp table[] = {
      {"EXP2", "uop.exp2", 1},   {"LOG2", "uop.log2", 1},       {"SIN", "uop.sin", 1},
      {"SQRT", "uop.sqrt", 1},   {"RECIP", "uop.recip", 1},     {"NEG", "uop.neg", 1},
      {"CAST", "uop.cast", 1},   {"BITCAST", "uop.bitcast", 1}, {"ADD", "uop.add", 2},
      {"SUB", "uop.sub", 2},     {"MUL", "uop.mul", 2},         {"FDIV", "uop.fdiv", 2},
      {"IDIV", "uop.idiv", 2},   {"MOD", "uop.mod", 2},         {"MAX", "uop.max", 2},
      {"POW", "uop.pow", 2},     {"SHL", "uop.shl", 2},         {"SHR", "uop.shr", 2},
      {"AND", "uop.and", 2},     {"OR", "uop.or", 2},           {"XOR", "uop.xor", 2},
      {"CMPLT", "uop.cmplt", 2}, {"CMPNE", "uop.cmpne", 2},     {"CMPEQ", "uop.cmpeq", 2},
      {"WHERE", "uop.where", 3}, {"MULACC", "uop.mulacc", 3},
  };
  return table;
}

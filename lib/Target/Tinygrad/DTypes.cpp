//===- DTypes.cpp - tinygrad dtype names and the generic op table ---------===//

#include "DTypes.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::uop::tinygrad;

namespace {
/// tinygrad's dtype names in the corpus JSON, and the type each stands for.
struct DTypeEntry {
  const char *name;
  Type (*make)(MLIRContext *);
};
template <unsigned W, IntegerType::SignednessSemantics S> Type integer(MLIRContext *c) {
  return IntegerType::get(c, W, S);
}
template <typename T> Type floating(MLIRContext *c) { return T::get(c); }

const DTypeEntry kDTypes[] = {
    {"bool", integer<1, IntegerType::Signless>},
    {"i8", integer<8, IntegerType::Signed>},
    {"i16", integer<16, IntegerType::Signed>},
    {"i32", integer<32, IntegerType::Signed>},
    {"i64", integer<64, IntegerType::Signed>},
    {"u8", integer<8, IntegerType::Unsigned>},
    {"u16", integer<16, IntegerType::Unsigned>},
    {"u32", integer<32, IntegerType::Unsigned>},
    {"u64", integer<64, IntegerType::Unsigned>},
    {"f16", floating<Float16Type>},
    {"bf16", floating<BFloat16Type>},
    {"f32", floating<Float32Type>},
    {"f64", floating<Float64Type>},
    {"fp8e4m3", floating<Float8E4M3FNType>},
    {"fp8e5m2", floating<Float8E5M2Type>},
};
} // namespace

Type mlir::uop::tinygrad::scalarFromName(MLIRContext *ctx, StringRef name) {
  for (const DTypeEntry &e : kDTypes)
    if (name == e.name)
      return e.make(ctx);
  return {};
}

StringRef mlir::uop::tinygrad::nameOfScalar(Type t) {
  for (const DTypeEntry &e : kDTypes)
    if (e.make(t.getContext()) == t)
      return e.name;
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

std::string mlir::uop::tinygrad::kernelName(const llvm::json::Object &obj) {
  std::optional<StringRef> c = obj.getString("case");
  std::optional<int64_t> k = obj.getInteger("kernel");
  return c && k ? (*c + "_k" + llvm::Twine(*k)).str() : std::string();
}

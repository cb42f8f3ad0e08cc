//===- DTypes.cpp - tinygrad dtype names and the generic op table ---------===//

#include "DTypes.h"

#include "uop/Dialect/UOp/IR/UOpOps.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::uop;
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

namespace {
/// The operand count of a generic op, from its ODS traits; 0 if it is not one.
unsigned genericOperands(RegisteredOperationName op) {
  if (!op.hasTrait<GroupOp::ALU>() && op.getTypeID() != TypeID::get<CastOp>() &&
      op.getTypeID() != TypeID::get<BitcastOp>())
    return 0;
  if (op.hasTrait<OpTrait::OneOperand>())
    return 1;
  if (op.hasTrait<OpTrait::NOperands<2>::Impl>())
    return 2;
  if (op.hasTrait<OpTrait::NOperands<3>::Impl>())
    return 3;
  return 0;
}
} // namespace

llvm::StringMap<GenericOp> mlir::uop::tinygrad::genericOps(MLIRContext *ctx) {
  llvm::StringMap<GenericOp> ops;
  for (RegisteredOperationName op :
       ctx->getRegisteredOperationsByDialect(UOpDialect::getDialectNamespace()))
    if (unsigned numSrcs = genericOperands(op))
      ops.try_emplace(*getTinygradOpName(op), GenericOp{op, numSrcs});
  return ops;
}

StringRef mlir::uop::tinygrad::genericOpName(Operation *op) {
  std::optional<RegisteredOperationName> name = op->getRegisteredInfo();
  if (!name || !genericOperands(*name))
    return "";
  return getTinygradOpName(*name).value_or("");
}

std::string mlir::uop::tinygrad::kernelName(const llvm::json::Object &obj) {
  std::optional<StringRef> c = obj.getString("case");
  std::optional<int64_t> k = obj.getInteger("kernel");
  if (c && k)
    return functionName((*c + "_k" + llvm::Twine(*k)).str());
  std::optional<StringRef> name = obj.getString("name");
  return name ? functionName(*name) : std::string();
}

std::string mlir::uop::tinygrad::functionName(StringRef name) {
  std::string out;
  for (char c : name) {
    if (llvm::isAlnum(c) || c == '_')
      out += c;
    else
      out += llvm::utohexstr(static_cast<unsigned char>(c), /*LowerCase=*/false, /*Width=*/2);
  }
  return out;
}

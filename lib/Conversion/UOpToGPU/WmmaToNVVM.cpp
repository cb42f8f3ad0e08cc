//===- WmmaToNVVM.cpp - WMMA as nvvm.mma.sync -----------------------------===//
//
// render_wmma of tinygrad's PTX renderer (seed 000): `mov.b32 reg, {x, y}`
// packs two halves per register, `mma.sync.aligned.m{M}n{N}k{K}.row.col`
// with f32 inputs as tf32, then the accumulator registers are unpacked into
// the result's elements in order. The element each lane holds is the PTX
// ISA's fragment layout (docs/simulator.md), which the TC opt arranges.
//
//===----------------------------------------------------------------------===//

#include "WmmaToNVVM.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::uop;

namespace {

struct Packer {
  Packer(OpBuilder &b, Location loc) : b(b), loc(loc) {}

  OpBuilder &b;
  Location loc;
  /// One constant per lane index for the whole mma (not one per use, for
  /// the canonicalizer to merge): its ops are emitted in order at one
  /// insertion point, so the first one dominates the rest.
  llvm::SmallDenseMap<int64_t, Value, 8> lanes;

  Value lane(int64_t i) {
    Value &c = lanes[i];
    if (!c)
      c = LLVM::ConstantOp::create(b, loc, b.getI32Type(), b.getI32IntegerAttr(i));
    return c;
  }

  /// The vector's elements as mma.sync operands: f16 pairs as vector<2xf16>,
  /// bf16 pairs and tf32 (f32) inputs as i32, f32 accumulators as f32.
  SmallVector<Value> pack(Value v, bool isAccumulator) {
    auto vt = cast<VectorType>(v.getType());
    Type e = vt.getElementType();
    SmallVector<Value> regs;
    if (e.isF32()) {
      for (int64_t i = 0; i < vt.getNumElements(); ++i) {
        Value x = LLVM::ExtractElementOp::create(b, loc, v, lane(i));
        regs.push_back(isAccumulator ? x : LLVM::BitcastOp::create(b, loc, b.getI32Type(), x));
      }
      return regs;
    }
    for (int64_t i = 0; i < vt.getNumElements(); i += 2) {
      Value pair = LLVM::ShuffleVectorOp::create(
          b, loc, v, v, ArrayRef<int32_t>{static_cast<int32_t>(i), static_cast<int32_t>(i + 1)});
      regs.push_back(e.isBF16() ? LLVM::BitcastOp::create(b, loc, b.getI32Type(), pair).getResult()
                                : pair);
    }
    return regs;
  }

  /// The mma.sync result struct back into a vector of `resultType`.
  Value unpack(Value res, VectorType resultType) {
    Value r = LLVM::PoisonOp::create(b, loc, resultType);
    auto st = cast<LLVM::LLVMStructType>(res.getType());
    int64_t out = 0;
    for (auto [i, field] : llvm::enumerate(st.getBody())) {
      Value reg = LLVM::ExtractValueOp::create(b, loc, res, ArrayRef<int64_t>{(int64_t)i});
      if (!isa<VectorType>(field)) {
        r = LLVM::InsertElementOp::create(b, loc, r, reg, lane(out++));
        continue;
      }
      for (int64_t j = 0; j < 2; ++j) {
        Value x = LLVM::ExtractElementOp::create(b, loc, reg, lane(j));
        r = LLVM::InsertElementOp::create(b, loc, r, x, lane(out++));
      }
    }
    return r;
  }
};

NVVM::MMATypes ptxType(Type t) {
  if (t.isF16())
    return NVVM::MMATypes::f16;
  if (t.isBF16())
    return NVVM::MMATypes::bf16;
  return NVVM::MMATypes::tf32; // an f32 input
}

} // namespace

FailureOr<Value> mlir::uop::lowerWmmaToNVVM(WmmaOp op, Value a, Value b, Value c, TargetAttr target,
                                            OpBuilder &builder) {
  ArrayRef<int64_t> dims = op.getDims(); // tinygrad's (N, M, K)
  int64_t n = dims[0], m = dims[1], k = dims[2];
  Type in = getScalarType(op.getA().getType()), out = getScalarType(op.getC().getType());
  bool available = llvm::any_of(target.getTensorCores(), [&](TensorCoreAttr tc) {
    return tc.getM() == m && tc.getN() == n && tc.getK() == k && tc.getDtypeIn() == in &&
           tc.getDtypeOut() == out;
  });
  if (!available)
    return op.emitOpError() << "needs the tensor core m" << m << "n" << n << "k" << k << " " << in
                            << " -> " << out << ", which " << target.getChip() << " does not have";
  Location loc = op.getLoc();
  Packer p(builder, loc);
  SmallVector<Value> regsA = p.pack(a, false), regsB = p.pack(b, false), regsC = p.pack(c, true);
  Type field = out.isF32() ? out : VectorType::get({2}, out);
  auto resultStruct = LLVM::LLVMStructType::getLiteral(builder.getContext(),
                                                       SmallVector<Type>(regsC.size(), field));
  auto mma = NVVM::MmaOp::create(
      builder, loc, resultStruct, regsA, regsB, regsC, ArrayRef<int64_t>{m, n, k},
      /*b1Op=*/std::nullopt, /*intOverflow=*/std::nullopt,
      std::array<NVVM::MMATypes, 2>{ptxType(in), ptxType(in)},
      std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row, NVVM::MMALayout::col});
  return p.unpack(mma.getResult(), cast<VectorType>(c.getType()));
}

//===- TensorCores.cpp - tinygrad's NVIDIA tensor-core table --------------===//

#include "uop/Dialect/UOp/IR/TensorCores.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::uop;

ArrayRef<TensorCoreDesc> mlir::uop::getNvidiaTensorCores() {
  // tinygrad renderer/cstyle.py: tc_81616 (sm_80), tc_8168_f16 (sm_75+),
  // tc_8168_tf32 (sm_80, ALLOW_TF32). dims are (N, M, K); 32 threads; all
  // shaped by cuda_tc_opts.
  static const TCShapeOpt cudaOpts[] = {{'u', 0}, {'l', 0}, {'l', 0}, {'l', 1},
                                        {'l', 1}, {'l', 1}, {'u', 1}};
  static const int64_t k16AL[] = {6, 7, 2, 3, 4}, k16AU[] = {0, 1, 9, 5, 10, 8};
  static const int64_t k16BL[] = {6, 7, 9, 0, 1}, k16BU[] = {2, 3, 4, 10, 5, 8};
  static const int64_t k8AL[] = {6, 7, 2, 3, 4}, k8AU[] = {0, 1, 8, 5, 9};
  static const int64_t k8BL[] = {6, 7, 8, 0, 1}, k8BU[] = {2, 3, 4, 9, 5};
  static const int64_t tf32AL[] = {5, 6, 2, 3, 4}, tf32AU[] = {0, 1, 8, 9, 7};
  static const int64_t tf32BL[] = {5, 6, 8, 0, 1}, tf32BU[] = {2, 3, 4, 9, 7};
  const TCSwizzle k16[2] = {{k16AL, k16AU}, {k16BL, k16BU}};
  const TCSwizzle k8[2] = {{k8AL, k8AU}, {k8BL, k8BU}};
  const TCSwizzle tf32[2] = {{tf32AL, tf32AU}, {tf32BL, tf32BU}};
  static const TensorCoreDesc table[] = {
      {8, 16, 16, TCDType::f16, TCDType::f32, 32, 8, 4, 4, 80, cudaOpts, {k16[0], k16[1]}},
      {8, 16, 16, TCDType::bf16, TCDType::f32, 32, 8, 4, 4, 80, cudaOpts, {k16[0], k16[1]}},
      {8, 16, 16, TCDType::f16, TCDType::f16, 32, 8, 4, 4, 80, cudaOpts, {k16[0], k16[1]}},
      {8, 16, 8, TCDType::f16, TCDType::f32, 32, 4, 2, 4, 75, cudaOpts, {k8[0], k8[1]}},
      {8, 16, 8, TCDType::f16, TCDType::f16, 32, 4, 2, 4, 75, cudaOpts, {k8[0], k8[1]}},
      {8, 16, 8, TCDType::f32, TCDType::f32, 32, 4, 2, 4, 80, cudaOpts, {tf32[0], tf32[1]}},
  };
  return table;
}

// The PTX ISA, "Warp Level Matrix Multiply-Accumulate Instructions",
// "Matrix Fragments for mma.m16n8k8" and "... mma.m16n8k16 with floating
// point type". With groupID g = lane / 4 and threadID_in_group t = lane % 4,
// element i of a lane's fragment (registers in order, the low half of a
// 32-bit register first) sits at:
//
//   m16n8k16 .f16/.bf16  A a0..a7: row g + 8*(i/2 % 2), col 2*t + i%2 + 8*(i/4)
//                        B b0..b3: row 2*t + i%2 + 8*(i/2), col g
//   m16n8k8  .f16/.bf16  A a0..a3: row g + 8*(i/2),     col 2*t + i%2
//                        B b0,b1:  row 2*t + i,         col g
//   m16n8k8  .tf32       A a0..a3: row g + 8*(i%2),     col t + 4*(i/2)
//                        B b0,b1:  row t + 4*i,         col g
//   C and D (all)        c0..c3:   row g + 8*(i/2),     col 2*t + i%2
std::pair<int64_t, int64_t> mlir::uop::mmaFragmentCoord(char operand, int64_t k, bool tf32,
                                                        int64_t lane, int64_t i) {
  // groupID and threadID_in_group of the ISA's tables.
  int64_t g = lane / 4, t = lane % 4;
  switch (operand) {
  case 'a':
    if (tf32)
      return {g + 8 * (i % 2), t + 4 * (i / 2)};
    if (k == 16)
      return {g + 8 * (i / 2 % 2), 2 * t + i % 2 + 8 * (i / 4)};
    return {g + 8 * (i / 2), 2 * t + i % 2};
  case 'b':
    if (tf32)
      return {t + 4 * i, g};
    return {2 * t + i % 2 + 8 * (i / 2), g};
  default:
    return {g + 8 * (i / 2), 2 * t + i % 2};
  }
}

int64_t TensorCoreDesc::countOpts(char kind) const {
  return llvm::count_if(opts, [&](TCShapeOpt o) { return o.kind == kind; });
}

std::string TensorCoreDesc::name() const {
  auto dtype = [](TCDType t) {
    return t == TCDType::f16 ? "half" : t == TCDType::bf16 ? "bfloat16" : "float";
  };
  return "WMMA_" + std::to_string(n) + "_" + std::to_string(m) + "_" + std::to_string(k) + "_" +
         dtype(in) + "_" + dtype(out);
}

Type mlir::uop::getTCElementType(MLIRContext *ctx, TCDType t) {
  switch (t) {
  case TCDType::f16:
    return Float16Type::get(ctx);
  case TCDType::bf16:
    return BFloat16Type::get(ctx);
  case TCDType::f32:
    return Float32Type::get(ctx);
  }
  return {};
}

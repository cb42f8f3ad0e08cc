//===- TensorCores.cpp - tinygrad's NVIDIA tensor-core table --------------===//

#include "uop/Dialect/UOp/IR/TensorCores.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::uop;

ArrayRef<TensorCoreDesc> mlir::uop::getNvidiaTensorCores() {
  // tinygrad renderer/cstyle.py: tc_81616 (sm_80), tc_8168_f16 (sm_75+),
  // tc_8168_tf32 (sm_80, ALLOW_TF32). dims are (N, M, K); 32 threads.
  static const TensorCoreDesc table[] = {
      {8, 16, 16, TCDType::f16, TCDType::f32, 32, 8, 4, 4, 80},
      {8, 16, 16, TCDType::bf16, TCDType::f32, 32, 8, 4, 4, 80},
      {8, 16, 16, TCDType::f16, TCDType::f16, 32, 8, 4, 4, 80},
      {8, 16, 8, TCDType::f16, TCDType::f32, 32, 4, 2, 4, 75},
      {8, 16, 8, TCDType::f16, TCDType::f16, 32, 4, 2, 4, 75},
      {8, 16, 8, TCDType::f32, TCDType::f32, 32, 4, 2, 4, 80},
  };
  return table;
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

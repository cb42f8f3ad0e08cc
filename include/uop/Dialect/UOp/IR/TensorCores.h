//===- TensorCores.h - tinygrad's tensor-core table -------------*- C++ -*-===//
//
// The tensor cores tinygrad's CUDA/PTX renderers know (renderer/cstyle.py
// tc_sm75, tc_sm80): the WMMA verifier checks against it, and the target
// description and the TC optimization will choose from it.
//
//===----------------------------------------------------------------------===//
#ifndef UOP_DIALECT_UOP_IR_TENSORCORES_H
#define UOP_DIALECT_UOP_IR_TENSORCORES_H

#include "mlir/IR/Types.h"
#include "llvm/ADT/ArrayRef.h"
#include <string>

namespace mlir::uop {

enum class TCDType { f16, bf16, f32 };

/// One of tinygrad's TensorCore.opts: "u0" upcasts dim 0 (N) by 2, "l1"
/// makes a local of dim 1 (M) of 2.
struct TCShapeOpt {
  char kind; // 'u' or 'l'
  int dim;
};

/// tinygrad's TensorCore.swizzle for one source: which of the TC's local
/// axes (0..4) and upcast axes (5..) land on each local and upcast position,
/// so the lanes hold the fragment layout of the PTX ISA.
struct TCSwizzle {
  llvm::ArrayRef<int64_t> local, upcast;
};

struct TensorCoreDesc {
  int64_t n, m, k;          // tinygrad's dims = (N, M, K)
  TCDType in, out;          // dtype of A/B and of C/D
  int64_t threads;          // threads that make the warp
  int64_t eptA, eptB, eptC; // elements per thread of A, B, C
  int minSM;                // first sm_XX that has it
  llvm::ArrayRef<TCShapeOpt> opts;
  TCSwizzle swizzle[2]; // of A and B

  /// tinygrad's str(TensorCore): WMMA_<N>_<M>_<K>_<in>_<out>.
  std::string name() const;
  /// How many of `opts` are of `kind` ('l': the lanes' axes, 'u': C's).
  int64_t countOpts(char kind) const;
};

/// Where element `i` of lane `lane`'s fragment of an mma.sync operand sits,
/// as (row, col) of A (m, k), B (k, n) or C and D (m, n), in the PTX ISA's
/// layouts for m16n8k16 and m16n8k8 ("Matrix Fragments for mma.m16n8k16 /
/// mma.m16n8k8 with floating point type"); `tf32` for tf32 inputs (m16n8k8).
/// `operand` is 'a', 'b' or 'c'.
std::pair<int64_t, int64_t> mmaFragmentCoord(char operand, int64_t k, bool tf32, int64_t lane,
                                             int64_t i);

/// Every NVIDIA tensor core tinygrad uses (f32 inputs are tf32).
llvm::ArrayRef<TensorCoreDesc> getNvidiaTensorCores();
/// The MLIR element type of a TCDType.
Type getTCElementType(MLIRContext *ctx, TCDType t);

} // namespace mlir::uop

#endif

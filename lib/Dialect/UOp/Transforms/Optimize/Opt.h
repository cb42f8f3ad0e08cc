//===- Opt.h - tinygrad's OptOps and the targets they apply to --*- C++ -*-===//
//
// An optimization of a kernel in tinygrad's notation ("LOCAL:0:4"), and the
// properties of the target that decide which are legal (tinygrad's
// Renderer: has_local, has_shared, shared_max, tensor_cores).
//
//===----------------------------------------------------------------------===//

#ifndef UOP_LIB_DIALECT_UOP_TRANSFORMS_OPTIMIZE_OPT_H
#define UOP_LIB_DIALECT_UOP_TRANSFORMS_OPTIMIZE_OPT_H

#include "uop/Dialect/UOp/IR/TensorCores.h"

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>

namespace mlir::uop {
class TargetAttr;

/// tinygrad's OptOps, and STAGE, WGMMA, TMA and CLUSTER (ours): the tensor
/// cores' operand tiles staged in shared memory, STAGE:axis:buffers,
/// multiplied from there by Hopper's wgmma, WGMMA:axis:buffers, and copied
/// there by its tensor memory accelerator, TMA:axis:buffers; the blocks
/// launched in thread-block clusters of CLUSTER:axis:blocks along global
/// axes, which TMA's copies then share; a sum split between the 2 blocks of
/// a cluster, SPLITK:axis:2 (docs/optimize.md).
enum class OptOp {
  TC,
  UPCAST,
  UNROLL,
  LOCAL,
  GROUP,
  GROUPTOP,
  NOLOCALS,
  PADTO,
  SWAP,
  STAGE,
  WGMMA,
  TMA,
  CLUSTER,
  SPLITK
};

struct Opt {
  OptOp op;
  std::optional<int64_t> axis;
  std::optional<int64_t> arg;       // every op but TC and NOLOCALS
  llvm::SmallVector<int64_t, 3> tc; // TC: (tc_select, tc_opt, use_tensor_cores)

  /// tinygrad's notation: "LOCAL:0:4", "TC:0:-1,0,1", "NOLOCALS".
  std::string str() const;
};

/// Parses a comma-separated list of opts ("TC:0:-1,0,1,UPCAST:1:4" splits
/// at the commas that start a new opt); an error says which piece is wrong.
llvm::Expected<llvm::SmallVector<Opt>> parseOpts(llvm::StringRef text);
std::string printOpts(llvm::ArrayRef<Opt> opts);

/// What tinygrad's Renderer says about the target the opts are for.
struct OptTarget {
  bool hasLocal = false, hasShared = false;
  /// cp.async and ldmatrix (sm_80 and later): what STAGE needs.
  bool hasAsyncCopy = false;
  /// Hopper's wgmma (sm_90a): what WGMMA needs.
  bool hasWgmma = false;
  /// Thread-block clusters (sm_90 and later): what CLUSTER needs.
  bool hasClusters = false;
  int64_t sharedMax = 0;
  llvm::SmallVector<TensorCoreDesc> tensorCores;
  std::string name = "cpu";

  /// The GPU target of a #uop.target, or the CPU (tinygrad's ClangRenderer:
  /// no locals, no tensor cores) when `target` is null.
  static OptTarget get(TargetAttr target);
};

} // namespace mlir::uop

#endif

//===- TargetInfo.h - what the shared emitter asks of a target --*- C++ -*-===//
//
// convert-uop-to-scf and convert-uop-to-gpu share the emitter
// (KernelEmitter.h: where ops go) and tinygrad's value semantics
// (Semantics.h: what they compute). What differs between the host and a GPU
// is behind this class, after Triton's TargetInfoBase: ops only a target has
// (grid and block indices, shared memory, barriers, tensor cores), its own
// instructions for the transcendentals (or their absence), and what it knows
// of its buffers. HostTargetInfo (UOpToSCF) and NVPTXTargetInfo (UOpToGPU)
// implement it.
//
//===----------------------------------------------------------------------===//
#ifndef UOP_CONVERSION_COMMON_TARGETINFO_H
#define UOP_CONVERSION_COMMON_TARGETINFO_H

#include "uop/Dialect/UOp/IR/UOpAttrs.h"

#include "mlir/IR/Builders.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace mlir::uop {

/// How uop dtypes are represented after conversion.
struct DTypeLowering {
  /// Compute f16/bf16 in f32 (C promotion on tinygrad's CPU backend).
  bool halfInF32 = true;

  /// The type a value of uop type `t` has while computing: signless ints,
  /// f16/bf16 widened when halfInF32.
  Type compute(Type t) const;
  /// The type an element of uop type `t` has in memory: bool is a byte.
  Type storage(Type t) const;
  /// Whether `t` (a uop dtype) is computed in a wider type than it stores.
  bool isWidened(Type t) const;
  /// Fails, with an error at `op`, if `t` cannot be lowered (fp8 dtypes).
  LogicalResult checkSupported(Type t, Operation *op) const;
};

class TargetInfo {
public:
  TargetInfo(DTypeLowering types, TargetAttr attr) : types(types), attr(attr) {}
  virtual ~TargetInfo();

  /// How this target represents uop dtypes.
  const DTypeLowering types;
  /// The #uop.target whose rules the conversion follows (which products a
  /// REDUCE fuses into its sum: TargetAttr::fusesProduct).
  const TargetAttr attr;

  /// Whether buffers are 16-byte aligned (a GPU's allocations are), so that a
  /// vector LOAD/STORE (from uop-devectorize) may assume the alignment of its
  /// size; otherwise it is emitted with its element's alignment.
  virtual bool buffersAligned() const = 0;

  /// Whether a gated LOAD is a branch around the load, which ptxas turns
  /// into a predicated load (tinygrad's PTX form), rather than a load of the
  /// buffer's start where the gate is off and a select of the alt value.
  /// Where the buffer's size is not known there is always a branch.
  virtual bool branchesGatedLoads() const = 0;

  /// Converts an op only the target knows (SPECIAL, DEFINE_LOCAL, BARRIER
  /// and WMMA on a GPU) at `b`'s insertion point, given its converted
  /// operands; std::nullopt for an op it leaves to the shared semantics.
  virtual std::optional<FailureOr<Value>> emitTargetOp(Operation *op, ValueRange operands,
                                                       OpBuilder &b) const = 0;
  /// Whether emitTargetOp converts WMMA, so that a REDUCE summing WMMAs can
  /// accumulate in them (tinygrad's devectorizer).
  virtual bool hasTensorCores() const = 0;

  /// A transcendental (EXP2, LOG2, SIN, SQRT, RECIP) or POW as this target
  /// computes it, from its converted operands: the target's own instruction,
  /// or null to take the math dialect's op; an error says why the target
  /// cannot compute it.
  virtual llvm::Expected<Value> emitMath(Operation *op, ValueRange operands, OpBuilder &b,
                                         Location loc) const = 0;
  /// A float MULACC, x * y + z, as the target computes it (converted
  /// operands): fma.rn on PTX; on the host LLVM's fmuladd, which is fused
  /// where the CPU has FMA (as clang -march=native compiles tinygrad's C).
  virtual Value emitMulAdd(OpBuilder &b, Location loc, Value x, Value y, Value z) const = 0;
  /// A float CAST to the integer type `to` (signless; `isUnsigned` from the
  /// uop dtype): the host's is C's conversion as clang compiles it (what the
  /// CPU's truncating instruction gives out of range), PTX's saturates.
  virtual Value emitFloatToInt(OpBuilder &b, Location loc, Value x, Type to,
                               bool isUnsigned) const = 0;
  /// The address of `address` (in the block's own shared memory) in the
  /// shared memory of block `rank` (an integer) of its thread-block
  /// cluster: a `uop.cluster_map` with a rank. An error on `op` where the
  /// target has no clusters.
  virtual FailureOr<Value> emitPeerAddress(Operation *op, Value address, Value rank,
                                           OpBuilder &b) const;
};

} // namespace mlir::uop

#endif

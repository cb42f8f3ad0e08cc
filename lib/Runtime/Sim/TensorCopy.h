//===- TensorCopy.h - the box a TMA tensor copy lands -----------*- C++ -*-===//
//
// cp.async.bulk.tensor in tile mode (PTX ISA 9.7.9.25.5.1, "Tensor copy";
// 5.5, "Tensors"): the box of a tensor map at some coordinates, packed
// innermost dimension first, elements outside the tensor zero, and swizzled
// as Hopper swizzles shared addresses.
//
//===----------------------------------------------------------------------===//
#ifndef UOP_RUNTIME_SIM_TENSORCOPY_H
#define UOP_RUNTIME_SIM_TENSORCOPY_H

#include "uop/Pipelines/KernelInterface.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <vector>

namespace mlir::uop::sim {

/// Shared address `a` under Hopper's `swizzle`-byte pattern (0: none; 32,
/// 64, 128: CUTLASS's Swizzle<1,4,3>, <2,4,3>, <3,4,3>): its 16-byte chunk
/// XORed with its 128-byte line's place in the pattern. wgmma reads and TMA
/// writes shared memory through the same pattern, of the address itself.
inline uint64_t swizzleSharedAddress(uint64_t a, int64_t swizzle) {
  if (!swizzle)
    return a;
  uint64_t mask = static_cast<uint64_t>(swizzle / 16 - 1);
  return a ^ (((a >> 7) & mask) << 4);
}

/// A box as it lands in shared memory, and the global bytes it read.
struct TensorBox {
  std::vector<uint8_t> data; // map.boxBytes bytes, from the shared offset given
  /// (byte offset in the buffer, bytes): each run of the box's innermost
  /// dimension inside the tensor.
  std::vector<std::pair<int64_t, int64_t>> reads;
};

/// The box of `map` at `coords` (one per dimension, innermost first; may be
/// negative or past the end: those elements are 0), read from `buffer` (at
/// least map.extentBytes bytes), as it lands at shared offset `shared`.
TensorBox gatherTensorBox(const TensorMapSpec &map, const uint8_t *buffer,
                          llvm::ArrayRef<int32_t> coords, uint64_t shared);

} // namespace mlir::uop::sim

#endif

//===- TLSF.h - tinygrad's TLSFAllocator ------------------------*- C++ -*-===//
//
// The two-level segregated-fit allocator of tinygrad's
// runtime/support/memory.py, decision for decision (bucket search order,
// splits, merges), so that a plan places buffers where tinygrad's does.
//
//===----------------------------------------------------------------------===//
#ifndef UOP_LIB_KERNELIZE_PASS_TLSF_H
#define UOP_LIB_KERNELIZE_PASS_TLSF_H

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

namespace mlir::uop::kernelize {

class TLSFAllocator {
public:
  TLSFAllocator(int64_t size, int64_t blockSize, int64_t lv2Count);
  /// The offset of a block of `reqSize` bytes, or nullopt when none fits.
  std::optional<int64_t> alloc(int64_t reqSize);
  void free(int64_t start);

private:
  struct Block {
    int64_t size;
    std::optional<int64_t> next, prev;
    bool free;
  };
  static int bitLength(int64_t x) { return x ? 64 - __builtin_clzll((uint64_t)x) : 0; }
  int lv1(int64_t size) const { return bitLength(size); }
  int64_t lv2(int64_t size) const {
    int bl = bitLength(size);
    return (size - (int64_t(1) << (bl - 1))) / (int64_t(1) << std::max(0, bl - l2Count));
  }
  void insertBlock(int64_t start, int64_t size, std::optional<int64_t> prev);
  void removeBlock(int64_t start, int64_t size, std::optional<int64_t> prev);
  void splitBlock(int64_t start, int64_t size, int64_t newSize);
  void mergeRight(int64_t start);
  void mergeBlock(int64_t start);
  std::optional<int64_t> prevOf(int64_t start) { return blocks[start].prev; }

  int64_t size, blockSize;
  int l2Count;
  // storage[lv1][lv2]: the free blocks' starts, in insertion order.
  std::vector<std::map<int64_t, std::vector<int64_t>>> storage;
  std::vector<int64_t> lv1Entries;
  std::map<int64_t, Block> blocks;
};

} // namespace mlir::uop::kernelize

#endif

//===- Counters.h - what a simulated run counts, per warp -------*- C++ -*-===//
//
// The simulator runs one thread at a time; a GPU issues instructions and
// memory requests per warp. This gathers each thread's basic-block visits
// and memory accesses during a block (CTA) of the grid and, when the block
// is done, counts them per warp into SimCounters: instructions by class (a
// warp runs a basic block as often as its busiest lane), and per warp-level
// access (the same op's n-th execution in each lane) the global sectors and
// shared-memory wavefronts it costs. docs/simulator.md, "Counters".
//
//===----------------------------------------------------------------------===//
#ifndef UOP_LIB_RUNTIME_SIM_COUNTERS_H
#define UOP_LIB_RUNTIME_SIM_COUNTERS_H

#include "uop/Runtime/Runner.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseSet.h"

#include <cstdint>
#include <vector>

namespace mlir::uop::sim {

class Counters {
public:
  /// `blockClasses`: per basic block of the kernel, its instructions by
  /// class (uop.sim_blocks); `globals`: (start, bytes) of each global
  /// buffer, whose touched sectors are tracked for the whole launch.
  /// Memory accesses are counted only `withMemory`.
  Counters(llvm::ArrayRef<int64_t> blockClasses,
           llvm::ArrayRef<std::pair<uintptr_t, int64_t>> globals, bool withMemory,
           SimCounters &out);

  int32_t numBasicBlocks() const { return static_cast<int32_t>(classes.size() / kInstrClasses); }
  /// Whether memory accesses are counted (else the memory calls do nothing,
  /// and their callers need not gather addresses for them).
  bool countsMemory() const { return withMemory; }

  /// A new block (CTA) of `threads` threads starts, or a cluster of `ctas`
  /// blocks: the threads of block (rank) r are then numbered from
  /// r * threadStride(threads), so that no warp spans two blocks.
  void startBlock(int64_t threads, int32_t ctas = 1);
  static int32_t threadStride(int64_t threads) {
    return static_cast<int32_t>((threads + 31) / 32 * 32); // whole warps
  }
  /// Thread `linear` is done: its visits per basic block.
  void threadDone(int32_t linear, llvm::ArrayRef<uint32_t> visits);

  enum class Kind : uint8_t { Load, Store, AsyncLoad };
  /// Thread `linear`'s `occurrence`-th execution of `site` accessed `bytes`
  /// at `address` of global buffer `buffer`.
  void global(int32_t linear, int32_t site, uint32_t occurrence, Kind kind, uintptr_t address,
              int32_t bytes, int32_t buffer);
  /// Likewise in shared memory, at `offset` in the shared window.
  void shared(int32_t linear, int32_t site, uint32_t occurrence, bool store, uint64_t offset,
              int32_t bytes);
  /// One request reading 8x8 matrices of 16-bit elements from shared
  /// memory (a warp's ldmatrix, one operand of a warpgroup's wgmma): the
  /// shared offsets of their 16-byte rows, eight per matrix, one phase each.
  void matrixRows(llvm::ArrayRef<uint64_t> rows);
  /// A cp.async.bulk wrote `bytes` contiguous bytes of shared memory: one
  /// request, a wavefront per 128 bytes (its global side is a load of one
  /// lane, kind AsyncLoad).
  void sharedBulkStore(int64_t bytes);
  /// A warp's mma.sync did `flops` operations.
  void mmaFlops(int64_t flops) { out.mmaFlops += flops; }
  /// A warpgroup's wgmma.mma_async did `flops` operations.
  void wgmmaFlops(int64_t flops) { out.wgmmaFlops += flops; }

  /// The block (or cluster) is done: its accesses and instructions, per
  /// warp; a block's plain loads hit in its L1 (each block of a cluster
  /// runs on an SM of its own).
  void finishBlock();

private:
  struct Access {
    int32_t site;
    uint32_t occurrence;
    int32_t lane;
    Kind kind;
    bool isShared;
    int32_t bytes;
    int32_t buffer;
    uint64_t address; // global address, or shared offset
  };
  void countGlobal(llvm::ArrayRef<Access> group);
  void countShared(llvm::ArrayRef<Access> group, bool store);

  std::vector<int64_t> classes; // blocks x kInstrClasses
  bool withMemory;
  size_t warpsPerBlock = 0;
  std::vector<std::vector<uint32_t>> warpVisits; // per warp, per basic block: the busiest lane's
  std::vector<std::vector<Access>> warpAccesses;
  std::vector<std::pair<uintptr_t, int64_t>> buffers;
  std::vector<std::vector<uint8_t>> readSectors, writtenSectors; // per buffer, per sector
  llvm::DenseSet<uint64_t> blockLoadSectors; // plain loads' sectors in this block (L1)
  SimCounters &out;
};

} // namespace mlir::uop::sim

#endif

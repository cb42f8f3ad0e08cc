//===- MBarrier.h - an mbarrier's phases, arrivals and transactions -*- C++ -*-===//
//
// PTX ISA 9.7.13.15 ("Parallel Synchronization and Communication
// Instructions: mbarrier"): a barrier object in shared memory whose current
// phase completes when its expected arrivals have all arrived and its
// transaction count (bytes announced by expect-tx, taken off by the
// asynchronous copies that complete on it) is back to zero; then the next
// phase starts, expecting the same arrivals.
//
//===----------------------------------------------------------------------===//
#ifndef UOP_RUNTIME_SIM_MBARRIER_H
#define UOP_RUNTIME_SIM_MBARRIER_H

#include <cstdint>
#include <string>

namespace mlir::uop::sim {

struct MBarrierState {
  /// mbarrier.init's count and the transaction count's bounds (PTX ISA
  /// 9.7.13.15.1, "Contents of the mbarrier object").
  static constexpr int64_t kMaxCount = (int64_t(1) << 20) - 1;

  bool valid = false;   // initialized and not invalidated
  int32_t expected = 0; // arrivals per phase
  int32_t pending = 0;  // arrivals the current phase still waits for
  int64_t tx = 0;       // the current phase's transaction count (bytes)
  uint32_t phase = 0;   // phases completed since the init
  /// The phase of the cluster barrier at whose arrival the initializing
  /// thread released the init to the cluster's other CTAs, or -1: a thread
  /// of another CTA may use the mbarrier once it has waited for that phase.
  int64_t clusterRelease = -1;
  /// Whether a thread of another CTA that has completed `clusterWaits`
  /// cluster waits may use the mbarrier: one of them was for that phase.
  bool releasedTo(uint32_t clusterWaits) const {
    return clusterRelease >= 0 && clusterWaits > clusterRelease;
  }

  /// mbarrier.init: empty, or why `count` is not a valid count.
  std::string init(int64_t count);
  /// expect-tx (`bytes` > 0) or complete-tx (< 0): empty, or why not.
  std::string addTx(int64_t bytes);
  /// `count` arrivals: empty, or why not (more than the phase waits for).
  std::string arrive(int64_t count);
  /// If the current phase has all its arrivals and transactions, completes
  /// it (the next expects the same arrivals) and returns true.
  bool completeIfDone();
  /// Whether the phase of parity `parity` that try_wait.parity and
  /// test_wait.parity name has completed: the current phase's parity
  /// differs (it is the one before).
  bool parityDone(int64_t parity) const { return phase % 2 != (parity & 1); }
  /// "2 of 3 arrivals pending, transaction count 4096 bytes, phase 5".
  std::string describe() const;
};

} // namespace mlir::uop::sim

#endif

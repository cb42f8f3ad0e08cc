//===- Cluster.cpp - the blocks of a cluster, run together ----------------===//
//
// A cluster's blocks run their fibers together: the cluster barrier
// (barrier.cluster), the cluster's shared memory (mapa, remote accesses and
// arrives), and bulk and tensor copies multicast to several blocks. The
// rules are docs/simulator.md's "Clusters".
//
//===----------------------------------------------------------------------===//

#include "BlockExecutor.h"

using namespace mlir;
using namespace mlir::uop;
using namespace mlir::uop::sim;

namespace mlir::uop::sim::detail {

Executor *Executor::remoteOwner(uintptr_t p, int64_t bytes) const {
  for (const std::unique_ptr<Executor> &e : cluster->ctas)
    if (e.get() != this && e->regionOf(e->sharedRegions, p, bytes))
      return e.get();
  return nullptr;
}

void *Executor::mapa(int32_t site, uintptr_t p, int32_t target) {
  std::string at = " ('" + this->site(site) + "')";
  const Executor *from = regionOf(sharedRegions, p, 1) ? this : remoteOwner(p, 1);
  if (!from)
    fault(llvm::formatv("mapa of address {0:x}, in no shared variable of a block of the "
                        "cluster{1}",
                        p, at)
              .str());
  int32_t size = static_cast<int32_t>(cluster->ctas.size());
  if (target < 0 || target >= size)
    fault(llvm::formatv("mapa to block {0} of a cluster of {1} (%cluster_nctarank){2}", target,
                        size, at)
              .str());
  return reinterpret_cast<void *>(cluster->ctas[target]->sharedBase + (p - from->sharedBase));
}

void Executor::deliverBulk(StringRef op, int32_t site, uintptr_t dst, uintptr_t mbar, int32_t mask,
                           std::vector<uint8_t> data) {
  std::string at = " ('" + this->site(site) + "')";
  int32_t size = static_cast<int32_t>(cluster->ctas.size());
  if (mask != kNoMulticast && (mask == 0 || mask >> size))
    fault(llvm::formatv("{0}.multicast::cluster to the blocks of mask {1:x}, but the cluster's "
                        "are {2:x}{3}",
                        op, mask, (1 << size) - 1, at)
              .str());
  int64_t bytes = static_cast<int64_t>(data.size());
  std::string complete = (op + "'s complete_tx").str();
  mbarrierOffset(mbar, complete, site); // (this block's, as dst is)
  for (int32_t r = 0; r < size; ++r) {
    Executor &to = *cluster->ctas[r];
    if (mask == kNoMulticast ? &to != this : !(mask >> r & 1))
      continue;
    uintptr_t toDst = to.sharedBase + (dst - sharedBase),
              toBar = to.sharedBase + (mbar - sharedBase);
    if (&to != this && to.exited())
      fault((op + " multicast to block " + str(to.ctaid) + ", whose threads have all exited" + at)
                .str());
    auto [offset, mb] = to.mbarrier(toBar, complete, site);
    if (&to != this && !mb->releasedTo(current->clusterWaits))
      fault((op + " multicast completing on the mbarrier at " + to.sharedByte(toBar) +
             " before a barrier.cluster has ordered its mbarrier.init before it" + at)
                .str());
    to.checkBulkTarget(op, toDst, bytes, site);
    to.startBulk(site, toDst, data, offset, *mb, current->linear);
  }
}

void Executor::clusterArrive(int32_t site, bool relaxed) {
  Thread &t = *current;
  if (t.clusterArrivals > t.clusterWaits)
    fault("barrier.cluster.arrive again before a barrier.cluster.wait ('" + this->site(site) +
          "')");
  uint32_t phase = t.clusterArrivals++;
  if (relaxed) {
    if (cluster->relaxedPhase.size() <= phase)
      cluster->relaxedPhase.resize(phase + 1);
    cluster->relaxedPhase[phase] = true;
  }
  // The mbarrier.inits this arrive releases to the other blocks: all of
  // them, or (relaxed) those a fence.mbarrier_init covers.
  size_t released = relaxed ? t.fencedInits : t.unreleasedInits.size();
  for (int64_t offset : llvm::ArrayRef(t.unreleasedInits).take_front(released))
    if (auto it = mbarriers.find(offset); it != mbarriers.end())
      it->second.clusterRelease = phase;
  t.unreleasedInits.erase(t.unreleasedInits.begin(), t.unreleasedInits.begin() + released);
  t.fencedInits = 0;
  ++events;
}

void Executor::clusterWait(int32_t site) {
  Thread &t = *current;
  if (t.clusterArrivals == t.clusterWaits)
    fault("barrier.cluster.wait without a barrier.cluster.arrive before it ('" + this->site(site) +
          "')");
  if (cluster->completedPhases <= t.clusterWaits)
    wait(State::AtClusterWait, site);
  ++t.clusterWaits;
}

void Cluster::releaseClusterWaiters() {
  uint32_t arrived = ~uint32_t(0);
  for (const std::unique_ptr<Executor> &e : ctas)
    for (const Thread &t : e->threads)
      if (t.state != State::Done)
        arrived = std::min(arrived, t.clusterArrivals);
  if (arrived == ~uint32_t(0)) // every thread has exited
    return;
  for (; completedPhases < arrived; ++completedPhases) {
    // barrier.cluster.arrive.release and wait.acquire: what landed before
    // is every thread's, in every block.
    bool relaxed = completedPhases < relaxedPhase.size() && relaxedPhase[completedPhases];
    for (std::unique_ptr<Executor> &e : ctas) {
      if (!relaxed)
        e->publishLanded();
      ++e->events;
    }
  }
  for (std::unique_ptr<Executor> &e : ctas)
    for (Thread &t : e->threads)
      if (t.state == State::AtClusterWait && t.clusterWaits < completedPhases)
        t.state = State::Ready;
}

LogicalResult Cluster::runFibers() {
  for (std::unique_ptr<Executor> &e : ctas)
    e->startFibers();
  auto failWith = [&](Executor &e) {
    error = e.error;
    return failure();
  };
  // The blocks do not take turns: the leading block runs whenever it can,
  // the next only when every block before it waits, and so on. A real
  // cluster's blocks drift apart; run in near lockstep, a block that
  // overwrites a peer's buffer before the peer has read it would go
  // unnoticed. Run skewed, the leader gets as far ahead as the kernel's
  // synchronization lets it, and the checks of bulk copies and wgmma reads
  // see the overwrite. Odd clusters lead with their last block, so that a
  // kernel racing in one direction only is caught either way.
  while (true) {
    // What lets waiting threads go on, in every block.
    bool polling = false;
    for (std::unique_ptr<Executor> &e : ctas) {
      active = e.get();
      if (!e->completeWarps())
        return failWith(*e);
    }
    for (std::unique_ptr<Executor> &e : ctas)
      e->wakeMbarrierWaiters(polling);
    releaseClusterWaiters();
    Executor *next = nullptr;
    for (size_t i = 0; i < ctas.size() && !next; ++i)
      if (Executor &e = byLead(i); e.hasReady() || e.releaseBarrier())
        next = &e;
    if (next) {
      active = next;
      if (failed(next->runReady()))
        return failWith(*next);
      continue;
    }
    if (llvm::all_of(ctas, [](const std::unique_ptr<Executor> &e) { return e->exited(); })) {
      for (std::unique_ptr<Executor> &e : ctas)
        for (Thread &t : e->threads)
          counters.threadDone(e->counterId(t), t.visits);
      return success();
    }
    // Nothing else can run: test_wait returns false to its pollers, once
    // per change that might let them do something else.
    uint64_t events = 0;
    for (std::unique_ptr<Executor> &e : ctas)
      events += e->events;
    if (polling && events != eventsAtPoll) {
      eventsAtPoll = events;
      for (std::unique_ptr<Executor> &e : ctas)
        e->wakePollers();
      continue;
    }
    error = describeDeadlock();
    return failure();
  }
}

/// Why no thread of the cluster can go on: a block's warps or mbarriers, a
/// cluster barrier phase a thread has not arrived at, a block's barrier.
std::string Cluster::describeDeadlock() const {
  auto waitsIn = [&](const Executor &e, std::initializer_list<State> states) {
    return llvm::any_of(e.threads,
                        [&](const Thread &t) { return llvm::is_contained(states, t.state); });
  };
  for (const std::unique_ptr<Executor> &e : ctas)
    if (waitsIn(*e, {State::AtWarp, State::AtMbarrier}))
      return e->describeDeadlock();
  for (const std::unique_ptr<Executor> &e : ctas)
    for (const Thread &t : e->threads) {
      if (t.state != State::AtClusterWait)
        continue;
      for (const std::unique_ptr<Executor> &other : ctas)
        for (const Thread &late : other->threads)
          if (late.state != State::Done && late.clusterArrivals <= t.clusterWaits)
            return llvm::formatv("{0}: waits at '{1}' for every thread of the cluster to arrive "
                                 "(phase {2} of the cluster barrier), but thread {3} of block {4} "
                                 "has not; it {5}",
                                 e->where(t), e->site(t.waitSite), t.clusterWaits, str(late.tid),
                                 str(other->ctaid), Executor::describeState(*other, late))
                .str();
    }
  for (const std::unique_ptr<Executor> &e : ctas)
    if (waitsIn(*e, {State::AtBarrier}))
      return e->describeDeadlock();
  return "kernel " + spec.kernel + ": the cluster cannot make progress";
}

} // namespace mlir::uop::sim::detail

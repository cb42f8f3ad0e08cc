//===- MBarrier.cpp - an mbarrier's phases, arrivals and transactions -----===//

#include "MBarrier.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir::uop::sim;

std::string MBarrierState::init(int64_t count) {
  if (count < 1 || count > kMaxCount)
    return llvm::formatv("mbarrier.init with an expected count of {0}, outside 1 .. {1}", count,
                         kMaxCount);
  valid = true;
  expected = pending = static_cast<int32_t>(count);
  tx = 0;
  phase = 0;
  return "";
}

std::string MBarrierState::addTx(int64_t bytes) {
  int64_t now = tx + bytes;
  if (now > kMaxCount || now < -kMaxCount)
    return llvm::formatv("the mbarrier's transaction count would be {0} bytes, outside -{1} .. {1}",
                         now, kMaxCount);
  tx = now;
  return "";
}

std::string MBarrierState::arrive(int64_t count) {
  if (count < 1 || count > pending)
    return llvm::formatv("{0} arrivals at an mbarrier whose phase waits for {1} more ({2})", count,
                         pending, describe());
  pending -= static_cast<int32_t>(count);
  return "";
}

bool MBarrierState::completeIfDone() {
  if (pending != 0 || tx != 0)
    return false;
  ++phase;
  pending = expected;
  return true;
}

std::string MBarrierState::describe() const {
  return llvm::formatv("{0} of {1} arrivals pending, transaction count {2} bytes, phase {3}",
                       pending, expected, tx, phase);
}

//===- Timing.h - milliseconds for the tools' reports ------------*- C++ -*-===//
#ifndef UOP_SUPPORT_TIMING_H
#define UOP_SUPPORT_TIMING_H

#include "llvm/Support/Process.h"

#include <chrono>

namespace mlir::uop {

using Clock = std::chrono::steady_clock;

/// Milliseconds since `start` (Clock::now() then).
inline double msSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

/// CPU milliseconds (user + system, every thread) the process has used so
/// far: differences of it measure a phase's CPU cost, which the wall clock
/// hides where work runs in parallel.
inline double processCPUms() {
  llvm::sys::TimePoint<> elapsed;
  std::chrono::nanoseconds user, sys;
  llvm::sys::Process::GetTimeUsage(elapsed, user, sys);
  return std::chrono::duration<double, std::milli>(user + sys).count();
}

/// A phase's wall and CPU milliseconds, counted from the stopwatch's making.
struct Stopwatch {
  double wallMs() const { return msSince(start); }
  double cpuMs() const { return processCPUms() - cpu; }

  Clock::time_point start = Clock::now();
  double cpu = processCPUms();
};

} // namespace mlir::uop

#endif

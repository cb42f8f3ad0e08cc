//===- Timing.h - wall-clock milliseconds for the tools' reports -*- C++ -*-===//
#ifndef UOP_SUPPORT_TIMING_H
#define UOP_SUPPORT_TIMING_H

#include <chrono>

namespace mlir::uop {

using Clock = std::chrono::steady_clock;

/// Milliseconds since `start` (Clock::now() then).
inline double msSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

} // namespace mlir::uop

#endif

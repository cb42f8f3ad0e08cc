//===- Timing.h - wall-clock phases of the runtime targets ------*- C++ -*-===//
#ifndef UOP_RUNTIME_TIMING_H
#define UOP_RUNTIME_TIMING_H

#include <chrono>

namespace mlir::uop {

/// Milliseconds since `start`, for CompileTimes and the run statistics.
inline double msSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

} // namespace mlir::uop

#endif

//===- HostBuffers.h - kernel buffers in host memory ------------*- C++ -*-===//
//
// The buffers of a corpus kernel (TinygradBuffer), loaded from their input
// files, and the comparison of what a kernel wrote with the expected files
// under the documented per-dtype tolerances (docs/uop-run.md).
//
//===----------------------------------------------------------------------===//
#ifndef UOP_RUNTIME_HOSTBUFFERS_H
#define UOP_RUNTIME_HOSTBUFFERS_H

#include "uop/Target/Tinygrad/TinygradJSON.h"

#include <vector>

namespace mlir::uop {

/// |got - want| <= atol + rtol * |want| for floats; ints and bool are exact.
struct Tolerance {
  double atol = 0, rtol = 0;
  bool exact = true;
};
/// f32/f64: 1e-4 + 1e-4 * |want|; f16/bf16: 2e-2 + 2e-2 * |want|; else exact.
Tolerance toleranceFor(Type dtype);

/// Bytes per element in memory (bool is one byte).
int64_t elementBytes(Type dtype);

struct HostBuffer {
  TinygradBuffer spec;
  std::vector<uint8_t> bytes;
};

/// Allocates every buffer and fills it from its input file; a buffer without
/// one is filled with 0xA5 bytes so an element the kernel fails to write
/// cannot match by luck. A file of the wrong size is an error at `loc`.
LogicalResult loadHostBuffers(ArrayRef<TinygradBuffer> specs, std::vector<HostBuffer> &out,
                              Location loc);

struct Comparison {
  int64_t elements = 0;
  int64_t mismatches = 0;
  double maxAbs = 0, maxRel = 0;
  int64_t firstMismatch = -1;
  double firstGot = 0, firstWant = 0;
  Tolerance tolerance;
  bool passed() const { return mismatches == 0; }
};

/// Compares a buffer with its expected file (the caller checks it has one).
FailureOr<Comparison> compareWithExpected(const HostBuffer &buffer, Tolerance tolerance,
                                          Location loc);

} // namespace mlir::uop

#endif

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

#include <optional>
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

/// Element `i` of raw little-endian `data` as a double (ints exactly up to
/// 2^53, which is all reporting needs).
double elementAsDouble(Type dtype, const uint8_t *data, int64_t i);

struct HostBuffer {
  TinygradBuffer spec;
  std::vector<uint8_t> bytes;
};

/// Allocates every buffer and fills it from its input file (a .npy file, or
/// raw little-endian bytes). A buffer without one gets random values from
/// `randomSeed` (fillRandom) if given, else 0xA5 bytes, so that an element
/// the kernel fails to write cannot match by luck. A file of the wrong size
/// or dtype is an error at `loc`.
LogicalResult loadHostBuffers(ArrayRef<TinygradBuffer> specs, std::vector<HostBuffer> &out,
                              Location loc, std::optional<uint64_t> randomSeed = std::nullopt);

/// Fills `buffer` with values that depend only on `seed` and the buffer's
/// index: floats uniform in [-1, 1), signed ints in [-8, 8), unsigned ints
/// in [0, 16) (small, so that sums do not overflow and indices stay near),
/// bools 0 or 1.
void fillRandom(HostBuffer &buffer, uint64_t seed);

struct Comparison {
  int64_t elements = 0;
  int64_t mismatches = 0;
  double maxAbs = 0, maxRel = 0;
  int64_t firstMismatch = -1;
  double firstGot = 0, firstWant = 0;
  Tolerance tolerance;
  bool passed() const { return mismatches == 0; }
};

/// Compares a buffer with its expected file, .npy or raw (the caller checks
/// it has one).
FailureOr<Comparison> compareWithExpected(const HostBuffer &buffer, Tolerance tolerance,
                                          Location loc);

} // namespace mlir::uop

#endif

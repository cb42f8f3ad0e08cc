//===- HostBuffers.cpp - kernel buffers in host memory --------------------===//

#include "uop/Runtime/HostBuffers.h"

#include "uop/Runtime/Npy.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cmath>
#include <cstring>
#include <unistd.h>

using namespace mlir;
using namespace mlir::uop;

Tolerance mlir::uop::toleranceFor(Type dtype) {
  if (dtype.isF32() || dtype.isF64())
    return {1e-4, 1e-4, false};
  if (isa<FloatType>(dtype))
    return {2e-2, 2e-2, false};
  return {};
}

int64_t mlir::uop::elementBytes(Type dtype) {
  return std::max<int64_t>(1, dtype.getIntOrFloatBitWidth() / 8);
}

/// The contents of a buffer's input or expected file: a .npy file of its
/// dtype and element count, else raw little-endian bytes of exactly its size.
static FailureOr<std::vector<uint8_t>> readContents(StringRef path, const TinygradBuffer &spec,
                                                    Location loc) {
  auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!file) {
    emitError(loc) << "buffer " << spec.index << ": cannot read " << path << ": "
                   << file.getError().message();
    return failure();
  }
  StringRef data = (*file)->getBuffer();
  if (path.ends_with(".npy")) {
    llvm::Expected<std::vector<uint8_t>> parsed = parseNpy(data, spec.dtype, spec.size);
    if (!parsed) {
      emitError(loc) << "buffer " << spec.index << ": " << path << ": "
                     << llvm::toString(parsed.takeError());
      return failure();
    }
    return std::move(*parsed);
  }
  uint64_t bytes = uint64_t(spec.size) * elementBytes(spec.dtype);
  if (data.size() != bytes) {
    emitError(loc) << "buffer " << spec.index << ": " << path << " has " << data.size()
                   << " bytes, expected " << bytes << " (" << spec.size << " x "
                   << elementBytes(spec.dtype) << ")";
    return failure();
  }
  return std::vector<uint8_t>(data.bytes_begin(), data.bytes_end());
}

/// splitmix64: a fixed sequence for a seed, the same on every host.
static uint64_t splitmix64(uint64_t &state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

void mlir::uop::fillRandom(HostBuffer &buffer, uint64_t seed) {
  Type dtype = buffer.spec.dtype;
  int64_t bytes = elementBytes(dtype);
  uint64_t state = seed ^ (uint64_t(buffer.spec.index) * 0x2545f4914f6cdd1dull);
  for (int64_t i = 0; i < buffer.spec.size; ++i) {
    uint64_t r = splitmix64(state), raw;
    if (auto f = dyn_cast<FloatType>(dtype)) {
      // Uniform in [-1, 1), rounded to the dtype.
      llvm::APFloat v(static_cast<double>(r >> 11) * 0x1p-52 - 1.0);
      bool lost;
      v.convert(f.getFloatSemantics(), llvm::APFloat::rmNearestTiesToEven, &lost);
      raw = v.bitcastToAPInt().getZExtValue();
    } else if (dtype.isInteger(1)) {
      raw = r & 1;
    } else if (cast<IntegerType>(dtype).isUnsigned()) {
      raw = r % 16; // small: no overflow in a sum, no huge shift or index
    } else {
      raw = static_cast<uint64_t>(static_cast<int64_t>(r % 16) - 8);
    }
    std::memcpy(buffer.bytes.data() + i * bytes, &raw, bytes); // little-endian host
  }
}

/// The host's physical memory: more than that is not allocated at all, so a
/// size in a file cannot abort the process (or be overcommitted and then
/// killed) when its buffers are made.
static uint64_t physicalMemoryBytes() {
  long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || pageSize <= 0)
    return uint64_t(1) << 40;
  return uint64_t(pages) * uint64_t(pageSize);
}

LogicalResult mlir::uop::loadHostBuffers(ArrayRef<TinygradBuffer> specs,
                                         std::vector<HostBuffer> &out, Location loc,
                                         std::optional<uint64_t> randomSeed) {
  uint64_t total = 0, limit = physicalMemoryBytes();
  for (const TinygradBuffer &spec : specs) {
    int64_t bytes = 0;
    bool tooBig = spec.size < 0 || llvm::MulOverflow(spec.size, elementBytes(spec.dtype), bytes);
    total = tooBig ? limit + 1 : llvm::SaturatingAdd(total, uint64_t(bytes));
    if (total > limit) {
      emitError(loc) << "buffer " << spec.index << ": " << spec.size << " elements of "
                     << elementBytes(spec.dtype) << " bytes: the buffers would need more than "
                     << "this machine's " << limit << " bytes of memory";
      return failure();
    }
  }
  for (const TinygradBuffer &spec : specs) {
    HostBuffer buf{spec, std::vector<uint8_t>(spec.size * elementBytes(spec.dtype), 0xA5)};
    if (!spec.input.empty()) {
      FailureOr<std::vector<uint8_t>> contents = readContents(spec.input, spec, loc);
      if (failed(contents))
        return failure();
      buf.bytes = std::move(*contents);
    } else if (randomSeed) {
      fillRandom(buf, *randomSeed);
    }
    out.push_back(std::move(buf));
  }
  return success();
}

double mlir::uop::elementAsDouble(Type dtype, const uint8_t *data, int64_t i) {
  unsigned bits = dtype.getIntOrFloatBitWidth();
  unsigned bytes = elementBytes(dtype);
  uint64_t raw = 0;
  std::memcpy(&raw, data + i * bytes, bytes); // little-endian host
  if (auto f = dyn_cast<FloatType>(dtype)) {
    llvm::APFloat v(f.getFloatSemantics(), llvm::APInt(bits, raw));
    bool lost;
    v.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven, &lost);
    return v.convertToDouble();
  }
  if (bits == 1)
    return raw != 0;
  llvm::APInt v(bytes * 8, raw);
  return cast<IntegerType>(dtype).isUnsigned() ? static_cast<double>(v.getZExtValue())
                                               : static_cast<double>(v.getSExtValue());
}

FailureOr<Comparison> mlir::uop::compareWithExpected(const HostBuffer &buffer, Tolerance tolerance,
                                                     Location loc) {
  const TinygradBuffer &spec = buffer.spec;
  FailureOr<std::vector<uint8_t>> expected = readContents(spec.expected, spec, loc);
  if (failed(expected))
    return failure();
  const uint8_t *want = expected->data();
  Comparison c;
  c.elements = spec.size;
  c.tolerance = tolerance;
  int64_t bytes = elementBytes(spec.dtype);
  for (int64_t i = 0; i < spec.size; ++i) {
    double g = elementAsDouble(spec.dtype, buffer.bytes.data(), i);
    double w = elementAsDouble(spec.dtype, want, i);
    bool ok;
    double abs = 0;
    if (c.tolerance.exact) {
      ok = spec.dtype.isInteger(1)
               ? (g != 0) == (w != 0)
               : !std::memcmp(buffer.bytes.data() + i * bytes, want + i * bytes, bytes);
      abs = std::fabs(g - w);
    } else if (std::isnan(w) || std::isnan(g) || std::isinf(w) || std::isinf(g)) {
      ok = (std::isnan(w) && std::isnan(g)) || g == w; // same NaN-ness, same infinity
      abs = ok ? 0 : INFINITY;
    } else {
      abs = std::fabs(g - w);
      ok = abs <= c.tolerance.atol + c.tolerance.rtol * std::fabs(w);
    }
    c.maxAbs = std::max(c.maxAbs, abs);
    if (w != 0 && !std::isnan(abs))
      c.maxRel = std::max(c.maxRel, abs / std::fabs(w));
    if (!ok && c.mismatches++ == 0) {
      c.firstMismatch = i;
      c.firstGot = g;
      c.firstWant = w;
    }
  }
  return c;
}

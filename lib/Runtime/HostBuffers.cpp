//===- HostBuffers.cpp - kernel buffers in host memory --------------------===//

#include "uop/Runtime/HostBuffers.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/Support/MemoryBuffer.h"

#include "llvm/Support/MathExtras.h"

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

static FailureOr<std::unique_ptr<llvm::MemoryBuffer>>
readSized(StringRef path, int64_t bytes, const TinygradBuffer &spec, Location loc) {
  auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!file) {
    emitError(loc) << "buffer " << spec.index << ": cannot read " << path << ": "
                   << file.getError().message();
    return failure();
  }
  if (static_cast<int64_t>((*file)->getBufferSize()) != bytes) {
    emitError(loc) << "buffer " << spec.index << ": " << path << " has " << (*file)->getBufferSize()
                   << " bytes, expected " << bytes << " (" << spec.size << " x "
                   << elementBytes(spec.dtype) << ")";
    return failure();
  }
  return std::move(*file);
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
                                         std::vector<HostBuffer> &out, Location loc) {
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
      auto file = readSized(spec.input, buf.bytes.size(), spec, loc);
      if (failed(file))
        return failure();
      std::memcpy(buf.bytes.data(), (*file)->getBufferStart(), buf.bytes.size());
    }
    out.push_back(std::move(buf));
  }
  return success();
}

/// Element `i` as a double (ints exactly up to 2^53, which is all reporting needs).
static double elementAsDouble(Type dtype, const uint8_t *data, int64_t i) {
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
  auto file = readSized(spec.expected, buffer.bytes.size(), spec, loc);
  if (failed(file))
    return failure();
  const auto *want = reinterpret_cast<const uint8_t *>((*file)->getBufferStart());
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

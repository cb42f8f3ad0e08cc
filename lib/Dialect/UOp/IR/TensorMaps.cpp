//===- TensorMaps.cpp - #uop.tensor_map -----------------------------------===//
//
// The limits are cuTensorMapEncodeTiled's (CUDA driver API, cuda.h), so
// that a map the verifier accepts is one the driver encodes, and one
// stricter: a swizzled box's rows are exactly the swizzle's span, the one
// case whose shared-memory layout NVIDIA documents (PTX ISA, "Tensor
// swizzling modes"), and so the one the simulator can copy exactly.
//
//===----------------------------------------------------------------------===//

#include "uop/Dialect/UOp/IR/UOpAttrs.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace mlir::uop;

namespace {

constexpr int64_t kMaxRank = 5, kMaxBox = 256;
constexpr int64_t kMaxSize = int64_t(1) << 32, kMaxStride = int64_t(1) << 40;

/// Bytes of an element a tensor map may have, 0 if it may have none.
int64_t elementBytes(Type t) {
  if (isa<Float16Type, BFloat16Type, Float32Type, Float64Type>(t) || isa<IntegerType>(t)) {
    unsigned bits = t.getIntOrFloatBitWidth();
    return bits == 8 || bits == 16 || bits == 32 || bits == 64 ? bits / 8 : 0;
  }
  return 0;
}

} // namespace

LogicalResult TensorMapAttr::verify(function_ref<InFlightDiagnostic()> emitError, int64_t buffer,
                                    Type element, ArrayRef<int64_t> sizes,
                                    ArrayRef<int64_t> strides, ArrayRef<int64_t> box,
                                    int64_t swizzle) {
  int64_t rank = sizes.size(), bytes = elementBytes(element);
  if (buffer < 0)
    return emitError() << "tensor map of buffer " << buffer << ": buffers are numbered from 0";
  if (!bytes)
    return emitError() << "tensor map of " << element
                       << " elements: TMA copies f16, bf16, f32, f64 or 8 to 64-bit integers";
  if (rank < 1 || rank > kMaxRank)
    return emitError() << "tensor map of " << rank << " dimensions: TMA takes 1 to " << kMaxRank;
  if (static_cast<int64_t>(strides.size()) != rank - 1 || static_cast<int64_t>(box.size()) != rank)
    return emitError() << "tensor map of " << rank << " dimensions needs " << rank - 1
                       << " strides (of dimensions 1 and up) and " << rank << " box sizes, not "
                       << strides.size() << " and " << box.size();
  for (auto [i, n] : llvm::enumerate(sizes))
    if (n < 1 || n > kMaxSize)
      return emitError() << "tensor map size " << n << " of dimension " << i
                         << ": TMA takes 1 to 2^32 elements";
  for (auto [i, s] : llvm::enumerate(strides))
    if (s <= 0 || s >= kMaxStride || s % 16)
      return emitError() << "tensor map stride " << s << " of dimension " << i + 1
                         << ": TMA takes positive multiples of 16 bytes below 2^40";
  for (auto [i, n] : llvm::enumerate(box))
    if (n < 1 || n > kMaxBox)
      return emitError() << "tensor map box size " << n << " of dimension " << i
                         << ": TMA takes 1 to " << kMaxBox;
  int64_t inner = box[0] * bytes;
  if (inner % 16)
    return emitError() << "tensor map box of " << inner
                       << " bytes in its innermost dimension: TMA takes multiples of 16";
  if (swizzle != 0 && swizzle != 32 && swizzle != 64 && swizzle != 128)
    return emitError() << "tensor map swizzle " << swizzle << ": 0 (none), 32, 64 or 128 bytes";
  // CUDA takes narrower rows too, but documents no layout for them.
  if (swizzle && inner != swizzle)
    return emitError() << "tensor map box of " << inner << " bytes in its innermost dimension: a "
                       << swizzle << "-byte swizzle takes rows of exactly " << swizzle
                       << " bytes (narrower rows' layout is not documented)";
  return success();
}

int64_t TensorMapAttr::getElementBytes() const { return elementBytes(getElement()); }

int64_t TensorMapAttr::getBoxBytes() const {
  int64_t n = getElementBytes();
  for (int64_t b : getBox())
    n *= b;
  return n;
}

int64_t TensorMapAttr::getExtentBytes() const {
  // At most 2^32 * 2^40 * 5: past int64. Saturate: no buffer is that large.
  __int128 last = 0;
  for (auto [n, s] : llvm::zip(getSizes().drop_front(), getStrides()))
    last += static_cast<__int128>(n - 1) * s;
  last += static_cast<__int128>(getSizes()[0]) * getElementBytes();
  return last > INT64_MAX ? INT64_MAX : static_cast<int64_t>(last);
}

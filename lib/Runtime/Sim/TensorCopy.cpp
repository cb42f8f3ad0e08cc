//===- TensorCopy.cpp - the box a TMA tensor copy lands -------------------===//

#include "TensorCopy.h"

#include <cstring>

using namespace mlir::uop;
using namespace mlir::uop::sim;

TensorBox mlir::uop::sim::gatherTensorBox(const TensorMapSpec &map, const uint8_t *buffer,
                                          llvm::ArrayRef<int32_t> coords, uint64_t shared) {
  size_t rank = map.sizes.size();
  int64_t eb = map.elementBytes, rowElements = map.box[0];
  // The box packed, rows of its innermost dimension one after another.
  std::vector<uint8_t> packed(map.boxBytes, 0);
  TensorBox box;
  // The first element of the row inside the tensor and one past its last.
  int64_t lo = std::max<int64_t>(0, -int64_t(coords[0]));
  int64_t hi = std::min<int64_t>(rowElements, map.sizes[0] - int64_t(coords[0]));
  std::vector<int64_t> j(rank, 0); // the row's index in dimensions 1 and up
  for (int64_t row = 0; row * rowElements * eb < map.boxBytes; ++row) {
    bool inside = lo < hi;
    int64_t offset = (int64_t(coords[0]) + lo) * eb;
    for (size_t d = 1; d < rank && inside; ++d) {
      int64_t g = int64_t(coords[d]) + j[d];
      inside = g >= 0 && g < map.sizes[d];
      if (inside) // within the buffer, which the runtime checked covers the tensor
        offset += g * map.strides[d - 1];
    }
    if (inside) {
      std::memcpy(packed.data() + (row * rowElements + lo) * eb, buffer + offset, (hi - lo) * eb);
      box.reads.push_back({offset, (hi - lo) * eb});
    }
    for (size_t d = 1; d < rank && ++j[d] == map.box[d]; ++d)
      j[d] = 0;
  }
  if (!map.swizzle) {
    box.data = std::move(packed);
    return box;
  }
  // The swizzle moves 16-byte chunks within their 128-byte line, so within
  // the box when it starts on a 128-byte boundary (the executor checks).
  box.data.resize(packed.size());
  for (size_t c = 0; c < packed.size(); c += 16)
    std::memcpy(box.data.data() + (swizzleSharedAddress(shared + c, map.swizzle) - shared),
                packed.data() + c, 16);
  return box;
}

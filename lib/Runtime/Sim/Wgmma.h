//===- Wgmma.h - Hopper's warpgroup matrix multiply ------------*- C++ -*-===//
//
// wgmma.mma_async m64nNk16 with A and B in shared memory (PTX ISA 9.7.15):
// the matrix descriptor's fields, the address of each element of a tile
// for each layout and swizzle, and which thread holds which accumulator.
//
//===----------------------------------------------------------------------===//
#ifndef UOP_RUNTIME_SIM_WGMMA_H
#define UOP_RUNTIME_SIM_WGMMA_H

#include <cstdint>
#include <string>
#include <utility>

namespace mlir::uop::sim {

/// One wgmma.mma_async: the arguments of SimABI's kWgmmaFn.
struct WgmmaDesc {
  int32_t m = 0, n = 0, k = 0;
  int32_t types = 0, flags = 0;
  uint64_t descA = 0, descB = 0;
  bool operator==(const WgmmaDesc &o) const {
    return m == o.m && n == o.n && k == o.k && types == o.types && flags == o.flags &&
           descA == o.descA && descB == o.descB;
  }
};

/// Empty if the simulator implements `desc` (m64nNk16, f16 or bf16 into
/// f32), else why not.
std::string checkWgmma(const WgmmaDesc &desc);
/// "m64n128k16 f16 x f16 + f32".
std::string describeWgmma(const WgmmaDesc &desc);

/// A matrix descriptor's fields ("Matrix Descriptor Format"), in bytes.
struct WgmmaTile {
  uint64_t start = 0; // shared address of the tile
  uint64_t lbo = 0;   // leading dimension byte offset
  uint64_t sbo = 0;   // stride dimension byte offset
  int32_t baseOffset = 0;
  int32_t swizzle = 0;  // pattern row bytes: 0 (none), 32, 64, 128
  bool mnMajor = false; // transposed (M or N contiguous), from the instruction
};
WgmmaTile decodeWgmmaDescriptor(uint64_t desc, bool mnMajor);
/// Empty if the simulator can read `tile` (operand `which`, 'A' or 'B'),
/// else why not: a non-zero base offset, a reserved swizzle mode, a
/// swizzled tile that does not start on a row of its pattern's first line.
std::string checkWgmmaTile(const WgmmaTile &tile, char which);
/// The shared address of element (mn, k) of the tile (mn: A's row m or B's
/// column n), of `elementBytes`-byte elements.
uint64_t wgmmaElementAddress(const WgmmaTile &tile, int64_t mn, int64_t k, int64_t elementBytes);

/// The (row, column) of the m64nN accumulator that register `i` of thread
/// `thread` (0..127) of the warpgroup holds.
std::pair<int32_t, int32_t> wgmmaAccumulator(int32_t thread, int32_t i);

/// An f16 or bf16 (NVVM::WGMMATypes `type`) element's value.
float wgmmaElement(uint16_t bits, int32_t type);

} // namespace mlir::uop::sim

#endif

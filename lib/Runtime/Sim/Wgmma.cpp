//===- Wgmma.cpp - Hopper's warpgroup matrix multiply ---------------------===//
//
// The layouts are the PTX ISA's (9.7.15.5.1, "Register Fragments and Shared
// Memory Matrix Layouts", "Matrix Descriptor Format"), cross-checked with
// CUTLASS (cute/arch/mma_sm90_desc.hpp, cute/atom/mma_traits_sm90_gmma.hpp).
//
//===----------------------------------------------------------------------===//

#include "Wgmma.h"
#include "TensorCopy.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "llvm/Support/FormatVariadic.h"

#include <cstring>

using namespace mlir;
using namespace mlir::uop::sim;
using NVVM::WGMMATypes;

static WGMMATypes typeOf(int32_t types, int32_t which) {
  return static_cast<WGMMATypes>((types >> (4 * which)) & 0xF);
}

std::string mlir::uop::sim::checkWgmma(const WgmmaDesc &d) {
  WGMMATypes a = typeOf(d.types, 0), b = typeOf(d.types, 1), acc = typeOf(d.types, 2);
  bool halves = (a == WGMMATypes::f16 || a == WGMMATypes::bf16) && b == a;
  if (d.m == 64 && d.k == 16 && d.n >= 8 && d.n <= 256 && d.n % 8 == 0 && halves &&
      acc == WGMMATypes::f32 && !(d.types >> 12))
    return "";
  return "the simulator implements wgmma.mma_async m64nNk16 with f16 or bf16 A and B and f32 "
         "D (N a multiple of 8 up to 256, no .satfinite), not " +
         describeWgmma(d);
}

std::string mlir::uop::sim::describeWgmma(const WgmmaDesc &d) {
  auto name = [&](int32_t which) {
    return NVVM::stringifyWGMMATypes(typeOf(d.types, which)).str();
  };
  return llvm::formatv("m{0}n{1}k{2} {3} x {4} + {5}", d.m, d.n, d.k, name(0), name(1), name(2))
      .str();
}

WgmmaTile mlir::uop::sim::decodeWgmmaDescriptor(uint64_t desc, bool mnMajor) {
  WgmmaTile t;
  t.start = (desc & 0x3FFF) << 4;
  t.lbo = ((desc >> 16) & 0x3FFF) << 4;
  t.sbo = ((desc >> 32) & 0x3FFF) << 4;
  t.baseOffset = static_cast<int32_t>((desc >> 49) & 7);
  static const int32_t swizzles[4] = {0, 128, 64, 32}; // bits 62-63
  t.swizzle = swizzles[desc >> 62];
  t.mnMajor = mnMajor;
  return t;
}

std::string mlir::uop::sim::checkWgmmaTile(const WgmmaTile &t, char which) {
  // The base offset places a pattern that does not start on its repeat
  // boundary; the ISA describes it only loosely, so the simulator refuses
  // to guess (the compiler aligns tiles and emits 0).
  if (t.baseOffset != 0)
    return llvm::formatv("the wgmma descriptor of {0} has base offset {1}; the simulator "
                         "supports only 0 (tiles on their swizzle pattern's boundary)",
                         which, t.baseOffset)
        .str();
  // With base offset 0 a swizzled tile starts in the first 128-byte row of
  // its pattern (8 rows of `swizzle` bytes: 1024 bytes for 128B).
  if (t.swizzle) {
    uint64_t rows = t.swizzle / 16; // the pattern's rows of 128 bytes, 8 for 128B
    uint64_t row = (t.start >> 7) & (rows - 1);
    if (row != 0)
      return llvm::formatv("the {0}-byte swizzled tile of {1} starts at shared byte {2}, in row "
                           "{3} of its {4}-byte pattern, but its descriptor's base offset is 0 "
                           "(the tile must start {4}-byte aligned)",
                           t.swizzle, which, t.start, row, rows * 128)
          .str();
  }
  return "";
}

uint64_t mlir::uop::sim::wgmmaElementAddress(const WgmmaTile &t, int64_t mn, int64_t k, int64_t s) {
  int64_t perChunk = 16 / s; // elements per 16 bytes
  if (!t.swizzle) {
    // Core matrices of 8 rows of 16 bytes, placed by LBO and SBO.
    if (!t.mnMajor)
      return t.start + (mn % 8) * 16 + (mn / 8) * t.sbo + (k % perChunk) * s +
             (k / perChunk) * t.lbo;
    return t.start + (mn % perChunk) * s + (mn / perChunk) * t.sbo + (k % 8) * 16 + (k / 8) * t.lbo;
  }
  int64_t w = t.swizzle;
  uint64_t a;
  if (!t.mnMajor) // rows of `w` bytes along K, 8 of them per SBO; LBO unused
    a = t.start + (mn % 8) * w + (mn / 8) * t.sbo + k * s;
  else // rows of `w` bytes along MN (w / s elements; LBO to the next), 8 k per SBO
    a = t.start + (mn % (w / s)) * s + (mn / (w / s)) * t.lbo + (k % 8) * w + (k / 8) * t.sbo;
  return swizzleSharedAddress(a, w);
}

std::pair<int32_t, int32_t> mlir::uop::sim::wgmmaAccumulator(int32_t thread, int32_t i) {
  int32_t warp = thread / 32, lane = thread % 32;
  int32_t g = lane >> 2, t = lane & 3;
  return {16 * warp + g + 8 * ((i >> 1) & 1), 2 * t + (i & 1) + 8 * (i >> 2)};
}

float mlir::uop::sim::wgmmaElement(uint16_t bits, int32_t type) {
  if (static_cast<WGMMATypes>(type) == WGMMATypes::bf16) {
    uint32_t wide = static_cast<uint32_t>(bits) << 16;
    float f;
    std::memcpy(&f, &wide, 4);
    return f;
  }
  _Float16 h;
  std::memcpy(&h, &bits, 2);
  return static_cast<float>(h);
}

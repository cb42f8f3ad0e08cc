//===- Mma.h - the warp matrix multiply of mma.sync -------------*- C++ -*-===//
//
// The PTX ISA's fragment layouts ("Matrix Fragments for mma.m16n8k16 / .m16n8k8
// with floating point type"): which lane holds which element of A, B, C and D
// in which register, and the product the warp computes from them.
//
//===----------------------------------------------------------------------===//
#ifndef UOP_RUNTIME_SIM_MMA_H
#define UOP_RUNTIME_SIM_MMA_H

#include <array>
#include <cstdint>
#include <string>

namespace mlir::uop::sim {

/// One mma.sync instruction: shape and the NVVM::MMATypes of A, B, C, D.
struct MmaDesc {
  int32_t m = 0, n = 0, k = 0;
  int32_t a = 0, b = 0, c = 0, d = 0;
  bool operator==(const MmaDesc &o) const {
    return m == o.m && n == o.n && k == o.k && a == o.a && b == o.b && c == o.c && d == o.d;
  }
};

/// Empty if the simulator implements `desc`, else why not.
std::string checkMma(const MmaDesc &desc);
/// "m16n8k16 f16 x f16 + f32 -> f32".
std::string describeMma(const MmaDesc &desc);

/// Registers per lane of each operand (32-bit words).
int32_t mmaRegisters(const MmaDesc &desc, char operand);

/// One lane's registers, as 32-bit words.
struct MmaLane {
  std::array<uint32_t, 4> a{}, b{}, c{}, d{};
};

/// D = A * B + C for the whole warp: reads a, b, c of all 32 lanes, writes d.
/// `desc` must pass checkMma.
void computeMma(const MmaDesc &desc, std::array<MmaLane, 32> &lanes);

} // namespace mlir::uop::sim

#endif

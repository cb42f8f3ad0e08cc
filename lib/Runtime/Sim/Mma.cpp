//===- Mma.cpp - the warp matrix multiply of mma.sync ---------------------===//
//
// The warp's product from its lanes' fragments: each element's place is
// the PTX ISA's fragment layout (mmaFragmentCoord, IR/TensorCores.cpp, which
// the TC opt's layouts are checked against too).
//
//===----------------------------------------------------------------------===//

#include "Mma.h"

#include "uop/Dialect/UOp/IR/TensorCores.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace mlir::uop::sim;
using NVVM::MMATypes;

namespace {

struct Coord {
  int32_t row, col;
};

MMATypes type(int32_t t) { return static_cast<MMATypes>(t); }

/// Elements packed in one 32-bit register.
int32_t perRegister(int32_t t) {
  return type(t) == MMATypes::f16 || type(t) == MMATypes::bf16 ? 2 : 1;
}

Coord element(char operand, const MmaDesc &d, int32_t lane, int32_t i) {
  auto [row, col] = mlir::uop::mmaFragmentCoord(operand, d.k, type(d.a) == MMATypes::tf32, lane, i);
  return {static_cast<int32_t>(row), static_cast<int32_t>(col)};
}

float fromBits(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}
uint32_t toBits(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  return bits;
}

float halfToFloat(uint16_t h) {
  _Float16 v;
  std::memcpy(&v, &h, 2);
  return static_cast<float>(v);
}
uint16_t floatToHalf(float f) {
  _Float16 v = static_cast<_Float16>(f); // round to nearest even
  uint16_t h;
  std::memcpy(&h, &v, 2);
  return h;
}

/// Element i of a lane's fragment, as f32. tf32 ignores the 13 low mantissa
/// bits, as the tensor core does with an f32 it is given.
float element(const std::array<uint32_t, 4> &regs, int32_t t, int32_t i) {
  if (perRegister(t) == 1) {
    uint32_t w = regs[i];
    return fromBits(type(t) == MMATypes::tf32 ? w & ~0x1FFFu : w);
  }
  uint16_t h = static_cast<uint16_t>(regs[i / 2] >> (16 * (i % 2)));
  return type(t) == MMATypes::bf16 ? fromBits(static_cast<uint32_t>(h) << 16) : halfToFloat(h);
}

void setElement(std::array<uint32_t, 4> &regs, int32_t t, int32_t i, float v) {
  if (perRegister(t) == 1) {
    regs[i] = toBits(v);
    return;
  }
  uint32_t shift = 16 * (i % 2);
  regs[i / 2] = (regs[i / 2] & ~(0xFFFFu << shift)) | (uint32_t(floatToHalf(v)) << shift);
}

} // namespace

std::string mlir::uop::sim::describeMma(const MmaDesc &d) {
  return llvm::formatv("m{0}n{1}k{2} {3} x {4} + {5} -> {6}", d.m, d.n, d.k,
                       NVVM::stringifyMMATypes(type(d.a)), NVVM::stringifyMMATypes(type(d.b)),
                       NVVM::stringifyMMATypes(type(d.c)), NVVM::stringifyMMATypes(type(d.d)))
      .str();
}

std::string mlir::uop::sim::checkMma(const MmaDesc &d) {
  MMATypes a = type(d.a);
  bool shapeOk = d.m == 16 && d.n == 8 && (d.k == 16 || d.k == 8);
  bool inputsOk = d.a == d.b &&
                  (a == MMATypes::f16 || a == MMATypes::bf16 || (a == MMATypes::tf32 && d.k == 8));
  auto accOk = [&](int32_t t) {
    return type(t) == MMATypes::f32 || (type(t) == MMATypes::f16 && a == MMATypes::f16);
  };
  if (shapeOk && inputsOk && accOk(d.c) && accOk(d.d))
    return "";
  return "the simulator implements mma.sync m16n8k16 (f16, bf16) and m16n8k8 (f16, bf16, "
         "tf32) with f32 or (for f16 inputs) f16 accumulators, not " +
         describeMma(d);
}

int32_t mlir::uop::sim::mmaRegisters(const MmaDesc &d, char operand) {
  switch (operand) {
  case 'a':
    return d.m * d.k / 32 / perRegister(d.a);
  case 'b':
    return d.k * d.n / 32 / perRegister(d.b);
  case 'c':
    return d.m * d.n / 32 / perRegister(d.c);
  default:
    return d.m * d.n / 32 / perRegister(d.d);
  }
}

void mlir::uop::sim::computeMma(const MmaDesc &d, std::array<MmaLane, 32> &lanes) {
  // Gather the matrices from the fragments, multiply, scatter D.
  float A[16][16], B[16][8], C[16][8];
  int32_t aElems = d.m * d.k / 32, bElems = d.k * d.n / 32, cElems = d.m * d.n / 32;
  for (int32_t lane = 0; lane < 32; ++lane) {
    for (int32_t i = 0; i < aElems; ++i) {
      Coord p = element('a', d, lane, i);
      A[p.row][p.col] = element(lanes[lane].a, d.a, i);
    }
    for (int32_t i = 0; i < bElems; ++i) {
      Coord p = element('b', d, lane, i);
      B[p.row][p.col] = element(lanes[lane].b, d.b, i);
    }
    for (int32_t i = 0; i < cElems; ++i) {
      Coord p = element('c', d, lane, i);
      C[p.row][p.col] = element(lanes[lane].c, d.c, i);
    }
  }
  for (int32_t lane = 0; lane < 32; ++lane)
    for (int32_t i = 0; i < cElems; ++i) {
      Coord p = element('c', d, lane, i);
      // Products of halves are exact in f32; the sum is in f32, in k order.
      float acc = C[p.row][p.col];
      for (int32_t kk = 0; kk < d.k; ++kk)
        acc = std::fma(A[p.row][kk], B[kk][p.col], acc);
      setElement(lanes[lane].d, d.d, i, acc);
    }
}

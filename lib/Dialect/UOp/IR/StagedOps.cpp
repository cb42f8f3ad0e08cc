//===- StagedOps.cpp - shared-memory staging: swizzle, copies, ldmatrix ---===//
//
// The ops and the attribute a staged tensor-core schedule (uop-optimize's
// STAGE) is made of; they are not tinygrad's. What each checks is what the
// PTX instruction it becomes requires (cp.async sizes and alignment,
// ldmatrix's 16-bit rows), so that a verified op always lowers.
//
//===----------------------------------------------------------------------===//

#include "uop/Dialect/UOp/IR/UOpOps.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::uop;

//===----------------------------------------------------------------------===//
// #uop.swizzle
//===----------------------------------------------------------------------===//

LogicalResult SwizzleAttr::verify(function_ref<InFlightDiagnostic()> emitError, int64_t bits,
                                  int64_t base, int64_t shift) {
  // CUTLASS's Swizzle requires |shift| >= bits (the XORed bit ranges do not
  // overlap); a period over 2^20 bytes is more than any shared memory.
  if (bits < 1 || bits > 3 || base < 0 || base > 7 || shift < bits || base + shift + bits > 20)
    return emitError() << "swizzle <" << bits << ", " << base << ", " << shift
                       << "> must have 1 <= bits <= 3, 0 <= base <= 7, shift >= bits and a "
                          "period of at most 2^20 bytes";
  return success();
}

int64_t SwizzleAttr::apply(int64_t offset) const {
  int64_t mask = (int64_t(1) << getBits()) - 1;
  return offset ^ (((offset >> (getBase() + getShift())) & mask) << getBase());
}

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

/// Bytes of one element of the pointer's dtype (a bool is one byte).
static int64_t elementBytes(PtrType p) {
  return std::max<int64_t>(1, getScalarType(p.getElementType()).getIntOrFloatBitWidth() / 8);
}

LogicalResult DefineLocalOp::verify() {
  auto t = cast<PtrType>(getType());
  if (t.getAddressSpace() != AddressSpace::local)
    return emitOpError() << "result must be a local pointer, got " << t;
  if (t.getSize() == PtrType::kUnknownSize)
    return emitOpError() << "shared memory needs a known size";
  if (std::optional<SwizzleAttr> s = getSwizzle()) {
    // A partial period would swizzle offsets past the buffer's end.
    int64_t bytes = t.getSize() * elementBytes(t) * getVCount(t.getElementType());
    if (bytes % s->getPeriod() != 0)
      return emitOpError() << "has " << bytes << " bytes, not a whole number of its swizzle's "
                           << s->getPeriod() << "-byte period";
  }
  return success();
}

LogicalResult ClusterMapOp::verify() {
  auto local = getBuf().getDefiningOp<DefineLocalOp>();
  if (!local)
    return emitOpError() << "maps a define_local's buffer";
  if (local.getSwizzle())
    return emitOpError() << "cannot map a swizzled buffer: its index is split by block before "
                            "the swizzle would apply";
  auto src = cast<PtrType>(getBuf().getType()), dst = cast<PtrType>(getType());
  int64_t blocks = getBlocks();
  // 16: the most blocks any sm_90 GPU puts in a cluster (8 portably).
  if (blocks < 1 || blocks > 16)
    return emitOpError() << "blocks must be 1 to 16, not " << blocks;
  if (dst.getAddressSpace() != AddressSpace::cluster || src.getVcount() != 1 ||
      dst.getVcount() != 1 || dst.getElementType() != src.getElementType() ||
      dst.getSize() != src.getSize() * (getRank() ? 1 : blocks))
    return emitOpError() << "result must be a cluster pointer to "
                         << (getRank() ? "" : std::to_string(blocks) + " x ") << src.getSize()
                         << " elements of " << src.getElementType() << ", got " << dst;
  if (auto kernel = (*this)->getParentOfType<KernelOp>())
    if (auto info = UOpDialect::KernelInfoAttrHelper(getContext()).getAttr(kernel)) {
      int64_t launched = 1;
      for (int64_t c : info.getCluster())
        launched *= c;
      if (launched != blocks)
        return emitOpError() << "maps " << blocks << " blocks, but the kernel's clusters have "
                             << launched;
    }
  return success();
}

/// The address space `ptr` points into, and its scalar element type.
static LogicalResult checkPointer(Operation *op, Value ptr, AddressSpace space, StringRef what) {
  auto t = cast<PtrType>(ptr.getType());
  if (t.getAddressSpace() != space)
    return op->emitOpError() << what << " must point into " << stringifyAddressSpace(space)
                             << " memory, got " << t;
  if (t.getVcount() != 1 || isa<VectorType>(t.getElementType()))
    return op->emitOpError() << what << " must be a pointer to scalars, got " << t;
  return success();
}

LogicalResult CopyTileOp::verify() {
  if (failed(checkPointer(*this, getDst(), AddressSpace::local, "dst")) ||
      failed(checkPointer(*this, getSrc(), AddressSpace::global, "src")))
    return failure();
  auto dst = cast<PtrType>(getDst().getType()), src = cast<PtrType>(getSrc().getType());
  if (dst.getElementType() != src.getElementType())
    return emitOpError() << "copies " << src.getElementType() << " into a buffer of "
                         << dst.getElementType();
  int64_t rowBytes = getCols() * elementBytes(src);
  if (rowBytes % 16 != 0)
    return emitOpError() << "copies rows of " << rowBytes
                         << " bytes: a row must be a whole number of 16-byte pieces";
  if (getSrcPitch() < getCols() || getDstPitch() < getCols())
    return emitOpError() << "rows of " << getCols() << " elements overlap at pitches "
                         << getSrcPitch() << ", " << getDstPitch();
  int64_t step = 16 / elementBytes(src); // pieces start 16-byte aligned
  if (getSrcPitch() % step != 0 || getDstPitch() % step != 0)
    return emitOpError() << "pitches must keep each row 16-byte aligned (multiples of " << step
                         << " elements)";
  return success();
}

LogicalResult AsyncCopyOp::verify() {
  if (failed(checkPointer(*this, getDst(), AddressSpace::local, "dst")) ||
      failed(checkPointer(*this, getSrc(), AddressSpace::global, "src")))
    return failure();
  int64_t bytes = getBytes();
  if (bytes != 4 && bytes != 8 && bytes != 16)
    return emitOpError() << "copies 4, 8 or 16 bytes (cp.async), not " << bytes;
  auto src = cast<PtrType>(getSrc().getType());
  if (bytes % elementBytes(src) != 0)
    return emitOpError() << "copies " << bytes << " bytes, not whole elements of "
                         << src.getElementType();
  if (cast<PtrType>(getDst().getType()).getElementType() != src.getElementType())
    return emitOpError() << "copies between pointers to different dtypes";
  return success();
}

LogicalResult LdMatrixOp::verify() {
  if (failed(checkPointer(*this, getPtr(), AddressSpace::local, "the address")))
    return failure();
  int64_t count = getCount();
  if (count != 1 && count != 2 && count != 4)
    return emitOpError() << "reads 1, 2 or 4 matrices, not " << count;
  Type elem = cast<PtrType>(getPtr().getType()).getElementType();
  if (elem.getIntOrFloatBitWidth() != 16)
    return emitOpError() << "reads 16-bit elements, not " << elem;
  auto expected = VectorType::get({2 * count}, elem);
  if (getType() != expected)
    return emitOpError() << "with " << count << " matrices gives " << expected << ", not "
                         << getType();
  return success();
}

//===----------------------------------------------------------------------===//
// wgmma
//===----------------------------------------------------------------------===//

LogicalResult WgmmaTileAttr::verify(function_ref<InFlightDiagnostic()> emitError, StringRef major,
                                    int64_t swizzle, int64_t lbo, int64_t sbo) {
  if (major != "k" && major != "mn")
    return emitError() << "wgmma tile major must be `k` or `mn`, not `" << major << "`";
  if (swizzle != 0 && swizzle != 32 && swizzle != 64 && swizzle != 128)
    return emitError() << "wgmma tile swizzle must be 0, 32, 64 or 128 bytes, not " << swizzle;
  // The descriptor holds each offset as 14 bits of 16-byte units.
  for (auto [name, v] : {std::pair<StringRef, int64_t>{"lbo", lbo}, {"sbo", sbo}})
    if (v < 0 || v % 16 != 0 || v >= (int64_t(1) << 18))
      return emitError() << "wgmma tile " << name << " must be a multiple of 16 below 2^18, not "
                         << v;
  return success();
}

uint64_t WgmmaTileAttr::descriptorHighBits() const {
  // PTX's swizzle mode field (bits 62-63): 1 = 128B, 2 = 64B, 3 = 32B.
  uint64_t mode = getSwizzle() == 128 ? 1 : getSwizzle() == 64 ? 2 : getSwizzle() == 32 ? 3 : 0;
  return (uint64_t(getLbo()) >> 4) << 16 | (uint64_t(getSbo()) >> 4) << 32 | mode << 62;
}

LogicalResult WgmmaOp::verify() {
  if (failed(checkPointer(*this, getA(), AddressSpace::local, "A")) ||
      failed(checkPointer(*this, getB(), AddressSpace::local, "B")))
    return failure();
  Type a = cast<PtrType>(getA().getType()).getElementType(),
       b = cast<PtrType>(getB().getType()).getElementType();
  if (a != b || (!a.isF16() && !a.isBF16()))
    return emitOpError() << "multiplies f16 or bf16 tiles of one dtype, not " << a << " and " << b;
  int64_t n = getN();
  if (n % 8 != 0 || n < 8 || n > 256)
    return emitOpError() << "with " << n / 2 << " accumulator registers has N = " << n
                         << ": wgmma's N is a multiple of 8 from 8 to 256";
  return success();
}

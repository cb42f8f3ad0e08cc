//===- CheckedABI.h - the context a checked host kernel takes ---*- C++ -*-===//
//
// uop-check-host-accesses gives each kernel one more pointer argument, after
// its buffers: an array of 64-bit words, 64-byte aligned, that the caller
// (the CPU runner) fills with each buffer's size and reads the first fault
// from. An access outside its buffer (or its local array) goes to the
// scratch words instead, and is counted.
//
//===----------------------------------------------------------------------===//
#ifndef UOP_CONVERSION_UOPTOSCF_CHECKEDABI_H
#define UOP_CONVERSION_UOPTOSCF_CHECKEDABI_H

#include <cstdint>

namespace mlir::uop::checked {

/// Word indices into the context of a kernel with `numBuffers` buffers.
struct ContextLayout {
  int64_t numBuffers;

  /// Words 0..numBuffers-1: each buffer's size in bytes (set by the caller).
  int64_t bufferBytes(int64_t buffer) const { return buffer; }
  /// How many accesses fell outside (0 before the run).
  int64_t faultCount() const { return numBuffers; }
  /// The first of them: its site (in `uop.sites`), the buffer (-1 for a
  /// local array of the kernel) and the byte offset from the buffer's start.
  int64_t faultSite() const { return numBuffers + 1; }
  int64_t faultBuffer() const { return numBuffers + 2; }
  int64_t faultOffset() const { return numBuffers + 3; }
  /// Where out-of-bounds accesses go: kScratchBytes, 64-byte aligned.
  int64_t scratch() const { return (numBuffers + 4 + 7) / 8 * 8; }
  /// The context's size in words.
  int64_t words() const { return scratch() + kScratchBytes / 8; }

  /// The widest access a checked kernel may make (a vector<64xf32>).
  static constexpr int64_t kScratchBytes = 256;
};

} // namespace mlir::uop::checked

#endif

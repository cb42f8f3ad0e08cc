//===- Stack.h - the tools' stack -------------------------------*- C++ -*-===//
//
// A kernel is a DAG that the passes and the code generator walk
// recursively, once per level of nesting. The tools run on a stack large
// enough for any kernel the importer accepts (tinygrad::kMaxNodeDepth levels,
// with room for the decompositions and sanitizer-sized frames), so that deep
// input gets a located error rather than a stack overflow.
//
//===----------------------------------------------------------------------===//
#ifndef UOP_SUPPORT_STACK_H
#define UOP_SUPPORT_STACK_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/thread.h"

#include <cstdlib>
#include <optional>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace mlir::uop {

/// 1 GiB of address space; only the pages a deep kernel touches are used.
constexpr unsigned kToolStackBytes = 1u << 30;

/// The heap a tool thread starts with. glibc gives a thread other than the
/// first an arena of its own and grows it by one mprotect per few pages
/// (225 in attention k0's one-kernel compile); growing it once, to a size
/// no kernel's compile reaches, leaves those out. The block is allocated
/// from the arena (not mmap'ed: the mmap threshold is raised above it) and
/// freed to it (not trimmed: so is the trim threshold), so it costs address
/// space, not memory. Both thresholds are the process's: blocks up to
/// 32 MB come from the arenas, and up to 64 MB of free heap is kept. Each
/// thread keeps its own arena: one arena for all would make the compile
/// threads of a many-kernel module wait on its lock (docs/compile-speed.md).
constexpr size_t kToolArenaBytes = 16u << 20;

inline void reserveToolArena() {
#if defined(__GLIBC__)
  mallopt(M_MMAP_THRESHOLD, 2 * kToolArenaBytes);
  mallopt(M_TRIM_THRESHOLD, 4 * kToolArenaBytes);
  void *block = malloc(kToolArenaBytes);
  // Opaque to the optimizer, which may drop an unused malloc and free.
  asm volatile("" : : "r"(block) : "memory");
  free(block);
#endif
}

/// `main` on a kToolStackBytes stack, its return value returned. A thread of
/// that stack size, not llvm::runOnNewStack: a stack switched under a
/// running thread is invisible to AddressSanitizer (it would need fiber
/// annotations to know the stack's bounds; scripts/sanitize.sh).
inline int runOnToolStack(llvm::function_ref<int()> main) {
  int rc = 0;
  llvm::thread t(std::optional<unsigned>(kToolStackBytes), [&] {
    reserveToolArena();
    rc = main();
  });
  t.join();
  return rc;
}

} // namespace mlir::uop

#endif

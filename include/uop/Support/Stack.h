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

#include <optional>

namespace mlir::uop {

/// 1 GiB of address space; only the pages a deep kernel touches are used.
constexpr unsigned kToolStackBytes = 1u << 30;

/// `main` on a kToolStackBytes stack, its return value returned. A thread of
/// that stack size, not llvm::runOnNewStack: a stack switched under a
/// running thread is invisible to AddressSanitizer (it would need fiber
/// annotations to know the stack's bounds; scripts/sanitize.sh).
inline int runOnToolStack(llvm::function_ref<int()> main) {
  int rc = 0;
  llvm::thread t(std::optional<unsigned>(kToolStackBytes), [&] { rc = main(); });
  t.join();
  return rc;
}

} // namespace mlir::uop

#endif

//===- Passes.h - uop dialect passes ----------------------------*- C++ -*-===//
#ifndef UOP_DIALECT_UOP_TRANSFORMS_PASSES_H
#define UOP_DIALECT_UOP_TRANSFORMS_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "uop/Dialect/UOp/IR/UOpOps.h"

#include <memory>
#include <mutex>

namespace mlir::uop {

#define GEN_PASS_DECL
#include "uop/Dialect/UOp/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "uop/Dialect/UOp/Transforms/Passes.h.inc"

/// What the uop-canonicalize passes of one pipeline share: the frozen set
/// of canonicalization patterns, built by the first of them to initialize
/// and reused by the others while the context has the same dialects and
/// ops loaded (every pass of a pipeline initializes at the same point).
/// Building it walks every registered op; a one-kernel compile paid that
/// once per instance.
struct CanonicalPatternCache {
  std::mutex mutex;
  MLIRContext *context = nullptr;
  size_t dialects = 0, ops = 0; // what was loaded when `patterns` was built
  std::shared_ptr<const FrozenRewritePatternSet> patterns;
  unsigned builds = 0; // how often `patterns` was built
};
/// uop-canonicalize sharing `cache` with the other passes made with it.
std::unique_ptr<Pass> createUOpCanonicalize(std::shared_ptr<CanonicalPatternCache> cache,
                                            UOpCanonicalizeOptions options = {});

} // namespace mlir::uop

#endif

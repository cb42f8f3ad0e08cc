//===- TargetRewrites.h - how the target rewrites apply their patterns -*- C++ -*-===//
//
// uop-decompose-math, uop-c-expressions and uop-fuse-mulacc build the graph
// tinygrad's code for the target computes. Their greedy rewrites apply only
// their own patterns: no folding and no region simplification, which would
// change that graph (and its roundings).
//
//===----------------------------------------------------------------------===//
#ifndef UOP_LIB_DIALECT_UOP_TRANSFORMS_TARGETREWRITES_H
#define UOP_LIB_DIALECT_UOP_TRANSFORMS_TARGETREWRITES_H

#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::uop {

inline GreedyRewriteConfig targetRewriteConfig() {
  GreedyRewriteConfig config;
  config.enableFolding(false);
  config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
  return config;
}

/// tinygrad's late rewrites of IDIV and MOD by a constant (IntDivision.cpp),
/// for uop-decompose-math.
void populateIntDivisionPatterns(RewritePatternSet &patterns);

} // namespace mlir::uop

#endif

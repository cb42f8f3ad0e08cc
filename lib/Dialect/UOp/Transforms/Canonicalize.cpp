//===- Canonicalize.cpp - uop-canonicalize ---------------------------------===//
//
// Upstream's canonicalize with a RangeMemo as the rewrite driver's listener,
// so that tinygrad's range queries share their walks (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "GreedyWithRanges.h"

#include "uop/Dialect/UOp/IR/UOpOps.h"
#include "uop/Dialect/UOp/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::uop {
#define GEN_PASS_DEF_UOPCANONICALIZE
#include "uop/Dialect/UOp/Transforms/Passes.h.inc"
} // namespace mlir::uop

using namespace mlir;
using namespace mlir::uop;

namespace {

struct UOpCanonicalize : public uop::impl::UOpCanonicalizeBase<UOpCanonicalize> {
  UOpCanonicalize(
      std::shared_ptr<CanonicalPatternCache> cache = std::make_shared<CanonicalPatternCache>(),
      UOpCanonicalizeOptions options = {})
      : UOpCanonicalizeBase(std::move(options)), cache(std::move(cache)) {}
  UOpCanonicalize(UOpCanonicalizeOptions options)
      : UOpCanonicalize(std::make_shared<CanonicalPatternCache>(), std::move(options)) {}

  /// The patterns upstream's canonicalize collects: every loaded dialect's
  /// and every registered op's.
  LogicalResult initialize(MLIRContext *context) override {
    size_t dialects = context->getLoadedDialects().size();
    size_t ops = context->getRegisteredOperations().size();
    std::lock_guard<std::mutex> lock(cache->mutex);
    if (!cache->patterns || cache->context != context || cache->dialects != dialects ||
        cache->ops != ops) {
      RewritePatternSet owning(context);
      for (Dialect *dialect : context->getLoadedDialects())
        dialect->getCanonicalizationPatterns(owning);
      for (RegisteredOperationName op : context->getRegisteredOperations())
        op.getCanonicalizationPatterns(owning, context);
      cache->patterns = std::make_shared<FrozenRewritePatternSet>(std::move(owning));
      cache->context = context;
      cache->dialects = dialects;
      cache->ops = ops;
      ++cache->builds;
    }
    patterns = cache->patterns;
    return success();
  }

  void runOnOperation() override {
    // Upstream canonicalize's defaults.
    GreedyRewriteConfig config;
    config.setUseTopDownTraversal(true).setRegionSimplificationLevel(regionSimplifyLevel);
    // Like canonicalize, not converging within the iterations is no error.
    unsigned stale = 0;
    (void)applyPatternsWithRanges(getOperation(), *patterns, config, testRanges ? &stale : nullptr);
    if (stale)
      signalPassFailure();
  }

  std::shared_ptr<CanonicalPatternCache> cache;
  std::shared_ptr<const FrozenRewritePatternSet> patterns;
};

} // namespace

std::unique_ptr<Pass> mlir::uop::createUOpCanonicalize(std::shared_ptr<CanonicalPatternCache> cache,
                                                       UOpCanonicalizeOptions options) {
  return std::make_unique<UOpCanonicalize>(std::move(cache), std::move(options));
}

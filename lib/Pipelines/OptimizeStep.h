//===- OptimizeStep.h - both pipelines' first step: uop-optimize -*- C++ -*-===//

#ifndef UOP_PIPELINES_OPTIMIZESTEP_H
#define UOP_PIPELINES_OPTIMIZESTEP_H

#include "uop/Dialect/UOp/Transforms/Passes.h"
#include "uop/Pipelines/Pipelines.h"

namespace mlir::uop {

/// uop-optimize on each kernel (`kernelPM` is nested on uop.kernel), unless
/// the pipeline's `optimize` option is off.
template <typename Derived>
void addOptimizeStep(OpPassManager &kernelPM, const UOpOptimizeStepOptions<Derived> &options) {
  if (!options.optimize)
    return;
  UOpOptimizeOptions optimize;
  optimize.opts = options.opts;
  kernelPM.addPass(createUOpOptimize(optimize));
}

} // namespace mlir::uop

#endif

//===- RunGraph.h - uop-run on a tensor graph or a schedule -----*- C++ -*-===//
#ifndef UOP_TOOLS_UOP_RUN_RUNGRAPH_H
#define UOP_TOOLS_UOP_RUN_RUNGRAPH_H

#include "mlir/IR/MLIRContext.h"

#include <string>

struct GraphRunOptions {
  std::string input;      // CASE/case.json, or a .mlir module
  std::string inputsFrom; // the case, for a .mlir module
  std::string target, chip;
  bool checkAccesses = true, exact = false, timing = false;
};

/// uop-run's exit code for a graph case or a module with a tensor graph or
/// schedule.
int uopRunGraph(mlir::MLIRContext &ctx, const GraphRunOptions &options);

#endif

//===- Kernelize.h - tinygrad's kernelize and scheduler ---------*- C++ -*-===//
//
// Tensor graph -> kernels -> schedule, as tinygrad's get_kernelize_map and
// create_schedule_with_vars do it (tinygrad b73e89110e, July 2025), with
// tinygrad's flags as options.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_KERNELIZE_KERNELIZE_H
#define UOP_KERNELIZE_KERNELIZE_H

#include "uop/Kernelize/Graph.h"
#include "uop/Kernelize/Rewrite.h"

#include <string>
#include <vector>

namespace mlir::uop::kernelize {

/// tinygrad's environment flags that change kernelize.
struct KernelizeOptions {
  bool fuseArange = false;                // FUSE_ARANGE
  bool fuseConvBw = false;                // FUSE_CONV_BW
  bool dontRealizeExpand = false;         // DONT_REALIZE_EXPAND
  bool dontGroupReduces = false;          // DONT_GROUP_REDUCES
  bool splitReduceop = true;              // SPLIT_REDUCEOP
  int64_t reduceopSplitThreshold = 32768; // REDUCEOP_SPLIT_THRESHOLD
  int64_t reduceopSplitSize = 22;         // REDUCEOP_SPLIT_SIZE
  int64_t maxKernelBuffers = 0;           // MAX_KERNEL_BUFFERS (0: no limit)
};

/// get_kernelize_map: every node of `sink`'s graph to its image in the
/// kernel graph (ASSIGNs of KERNELs to BUFFERs). On failure (tinygrad
/// raises) returns nullopt and sets `error`.
std::optional<NodeMap> getKernelizeMap(Graph &g, const Node *sink, const KernelizeOptions &opts,
                                       std::string &error);

/// One schedule item: a kernel AST and the buffers bound to its
/// DEFINE_GLOBALs (KERNEL's sources' buf_uops), in execution order.
struct ScheduleItem {
  const Node *ast;
  NodeList bufs;
};

/// create_schedule_with_vars: the KERNELs under `kernelSink` in BFS order
/// over their ASSIGN dependencies.
std::optional<std::vector<ScheduleItem>> createSchedule(const Node *kernelSink, std::string &error);

} // namespace mlir::uop::kernelize

#endif

//===- GraphJSON.h - tinygrad graph cases in and schedules out --*- C++ -*-===//
//
// The graph-case format of ../shared/graphs (README.md there): a tensor
// graph as tinygrad's kernelize receives it, and schedules in the kernel
// corpus's node format.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_KERNELIZE_GRAPHJSON_H
#define UOP_KERNELIZE_GRAPHJSON_H

#include "uop/Kernelize/Kernelize.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

namespace mlir::uop::kernelize {

/// A case's graph in a Graph.
struct GraphCase {
  const Node *sink = nullptr;
  KernelizeOptions options;
  /// Graph BUFFERs to their number in the case.
  llvm::DenseMap<const Node *, int64_t> bufferNumbers;
  int64_t numBuffers = 0;
  /// The graph's nodes in file order (several may be the same node).
  std::vector<const Node *> nodes;
};

/// Reads a case.json (its "graph" and "flags"). On an error in a node,
/// `badNode` (if given) is its index.
llvm::Expected<GraphCase> readGraphCase(Graph &g, llvm::StringRef json,
                                        std::optional<size_t> *badNode = nullptr);

/// A kernel AST in the kernel corpus's node format.
llvm::json::Array astToJSON(const Node *ast);

/// The schedule as the case's "schedule": [{"kind", "ast", "globals"}],
/// buffers kernelize created numbered after the case's, in order of first
/// use (as the cases number them).
llvm::json::Array scheduleToJSON(const std::vector<ScheduleItem> &schedule, GraphCase &gc);

} // namespace mlir::uop::kernelize

#endif

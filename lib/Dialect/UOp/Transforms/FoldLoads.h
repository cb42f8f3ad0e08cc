//===- FoldLoads.h - tinygrad's fold_expanded for a fragment ----*- C++ -*-===//

#ifndef UOP_TRANSFORMS_FOLDLOADS_H
#define UOP_TRANSFORMS_FOLDLOADS_H

#include "mlir/IR/Value.h"

#include <optional>

namespace mlir {
class OpBuilder;
namespace uop {

/// The value of a uop.const of an integer dtype.
std::optional<int64_t> intConstOf(Value v);

/// Copies of one LOAD as vector LOADs through a pointer cast, when they
/// read consecutive elements of a kernel parameter in aligned chunks of 8, 4
/// or 2 (with `whole`, only all of them as one chunk, which reads only the
/// first lane's address); null otherwise.
Value foldContiguousLoads(OpBuilder &b, ArrayRef<Value> lanes, Location loc, bool whole = false);

} // namespace uop
} // namespace mlir

#endif

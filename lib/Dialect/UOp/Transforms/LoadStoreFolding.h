//===- LoadStoreFolding.h - tinygrad's load/store folding -------*- C++ -*-===//

#ifndef UOP_TRANSFORMS_LOADSTOREFOLDING_H
#define UOP_TRANSFORMS_LOADSTOREFOLDING_H

#include "mlir/IR/Value.h"

#include <optional>

namespace mlir {
class OpBuilder;
namespace uop {

/// The value of a uop.const of an integer dtype.
std::optional<int64_t> intConstOf(Value v);

/// LOADs (results of uop.load) folded into vector LOADs through a pointer
/// cast, created at `b`'s insertion point: for each lane, the value that
/// replaces it (a GEP of a vector load) or the lane itself.
SmallVector<Value> foldLoads(OpBuilder &b, ArrayRef<Value> lanes);

/// STOREs (results of uop.store) folded into vector STOREs of a VECTORIZE of
/// their values, created at `b`'s insertion point: the stores that replace
/// them, each folded one where its first lane was.
SmallVector<Value> foldStores(OpBuilder &b, ArrayRef<Value> stores);

} // namespace uop
} // namespace mlir

#endif

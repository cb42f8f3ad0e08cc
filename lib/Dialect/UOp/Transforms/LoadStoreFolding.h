//===- LoadStoreFolding.h - tinygrad's load/store folding -------*- C++ -*-===//

#ifndef UOP_TRANSFORMS_LOADSTOREFOLDING_H
#define UOP_TRANSFORMS_LOADSTOREFOLDING_H

#include "mlir/IR/Value.h"

namespace mlir {
class OpBuilder;
namespace uop {

/// LOADs (results of uop.load) folded into vector LOADs through a pointer
/// cast, created at `b`'s insertion point: for each lane, the value that
/// replaces it (a GEP of a vector load) or the lane itself.
SmallVector<Value> foldLoads(OpBuilder &b, ArrayRef<Value> lanes);

/// STOREs (results of uop.store) folded into vector STOREs of a VECTORIZE of
/// their values, created at `b`'s insertion point: for each store, what
/// replaces it: itself, or for a folded chunk's earliest store the vector
/// store and for its others null. A chunk is not folded where a store
/// between its lanes may write one of their elements.
SmallVector<Value> foldStores(OpBuilder &b, ArrayRef<Value> stores);

} // namespace uop
} // namespace mlir

#endif

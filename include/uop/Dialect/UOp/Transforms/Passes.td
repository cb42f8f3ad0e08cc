//===- Passes.td - uop dialect passes ---------------------------------------===//

#ifndef UOP_DIALECT_UOP_TRANSFORMS_PASSES_TD
#define UOP_DIALECT_UOP_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def UOpLower : Pass<"uop-lower", "::mlir::uop::KernelOp"> {
  let summary = "tinygrad's lowerer: VIEWs to index arithmetic over RANGEs";
  let description = [{
    Lowers a kernel AST the way tinygrad's codegen/lowerer.py does, with no
    optimizations applied:
    - one `uop.range` per axis of the kernel's full shape (the per-dimension
      maximum over its views): `reduce` for the axes some REDUCE_AXIS reduces,
      `global` for the others;
    - each VIEW becomes an index, `offset + sum(idx[i] * stride[i])` over the
      dimensions of size > 1 and stride != 0, and a validity, the AND of
      `idx[i] >= lo` and `idx[i] < hi` for the mask bounds that cut anything;
      a multi-view ShapeTracker unravels that flat index into the previous
      view's shape (`(flat / acc) % dim`) and so on down to the buffer,
      ANDing every view's validity;
    - LOAD(VIEW(buf)) becomes LOAD(INDEX(buf, idx, gate valid), alt 0), so a
      masked load reads 0; STORE(VIEW(buf), x) becomes STORE(INDEX(buf, idx,
      gate valid), x); a CONST under a masked view becomes WHERE(valid, c, 0)
      and VALID(VIEW) the validity itself;
    - REDUCE_AXIS becomes REDUCE over the ranges of its axes.
    As in tinygrad, where only what the SINK reaches exists, ops left unused
    are dropped. A kernel without VIEWs (already lowered) is left alone.
    Index arithmetic is `si32`, tinygrad's `dtypes.int`.
  }];
}

#endif

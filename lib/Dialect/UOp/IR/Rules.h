//===- Rules.h - the dialect's rewrite rules, by source file ----*- C++ -*-===//
//
// Private to the dialect library: the canonicalization patterns each rule
// file adds (the dialect's getCanonicalizationPatterns takes them all), and
// the helpers the folders share.
//
//===----------------------------------------------------------------------===//
#ifndef UOP_LIB_DIALECT_UOP_IR_RULES_H
#define UOP_LIB_DIALECT_UOP_IR_RULES_H

#include "uop/Dialect/UOp/Utils/Symbolic.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir::uop::sym {

/// The self-folding rules (x+0, x*1, x//x, ...) and vmin == vmax, for an
/// ALU or comparison op whose sources are not all constants.
OpFoldResult foldIdentity(Operation *op);
/// Whether every value of dtype `a` converts to `b` and back unchanged.
bool castRoundTrips(Type a, Type b);

/// Patterns of the dialect's canonicalizer, by source file.
void populateSymbolicPatterns(RewritePatternSet &patterns);
void populateDivModPatterns(RewritePatternSet &patterns);
void populateVectorPatterns(RewritePatternSet &patterns);
void populateMemoryPatterns(RewritePatternSet &patterns);
void populateViewPatterns(RewritePatternSet &patterns);
void populateFloatPatterns(RewritePatternSet &patterns);

} // namespace mlir::uop::sym

#endif

//===- Rules.h - kernelize's rule sets (private) ----------------*- C++ -*-===//
//
// tinygrad's kernelize/kernelize.py and grouper.py, one function per rule
// set. Each returns a PatternMatcher built once, whose rules are plain
// functions of a RewriteCtx (the graph, the flags, and the set's own context,
// as tinygrad's rules take `ctx`).
//
//===----------------------------------------------------------------------===//

#ifndef UOP_LIB_KERNELIZE_RULES_H
#define UOP_LIB_KERNELIZE_RULES_H

#include "uop/Kernelize/Kernelize.h"
#include "uop/Kernelize/Rewrite.h"

#include "llvm/ADT/MapVector.h"

namespace mlir::uop::kernelize {

/// An insertion-ordered set of nodes (tinygrad's dict[UOp, None]).
using NodeSet = llvm::SetVector<const Node *>;

/// dtypes.as_const of exec_alu on constants (symbolic_simple's folding);
/// nullopt where tinygrad does not fold.
std::optional<ConstValue> execAlu(Op op, Scalar dtype, llvm::ArrayRef<ConstValue> operands);

// The rule sets, each built once (their rules take a RewriteCtx).

/// symbolic_simple + sym: the tensor-graph simplifications (ctx.opts: the
/// flags).
const PatternMatcher &symRules();
/// merge_views.
const PatternMatcher &mergeViews();
PatternMatcher buildMergeViews();
/// replace_contiguous; ctx.user is its NodeMap (base -> contiguous view).
const PatternMatcher &replaceContiguous();
/// do_fuse (FUSE, and fuse_arange when ctx.opts->fuseArange).
const PatternMatcher &doFuse();
/// view_left (merge_views + pushing views before elementwise ops).
const PatternMatcher &viewLeft();
/// view_right (merge_views + pushing views after reduce/elementwise ops).
const PatternMatcher &viewRight();
/// apply_swizzle.
const Node *applySwizzle(Graph &g, const Node *u);
/// swizzle_reduceop.
const Node *swizzleReduceop(Graph &g, const Node *r, const Node *src, const Node *view, bool fuse);

/// group_realizes: the nodes that become kernel outputs.
NodeSet groupRealizes(Graph &g, const Node *sink, const KernelizeOptions &opts);

/// create_kernels and create_ast (errors in ctx.error).
const PatternMatcher &createKernels();
PatternMatcher buildCreateKernels();
const PatternMatcher &createAst();

} // namespace mlir::uop::kernelize

#endif

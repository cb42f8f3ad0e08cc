//===- Rules.h - kernelize's rule sets (private) ----------------*- C++ -*-===//
//
// tinygrad's kernelize/kernelize.py and grouper.py, one function per rule
// set. Each returns a PatternMatcher whose rules capture the Graph and their
// context by reference, as tinygrad's take `ctx`.
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

/// symbolic_simple + sym: the tensor-graph simplifications.
PatternMatcher symRules(Graph &g, const KernelizeOptions &opts);
/// merge_views.
PatternMatcher mergeViews(Graph &g);
/// replace_contiguous, with its context (base -> contiguous view of it).
PatternMatcher replaceContiguous(Graph &g, NodeMap &ctx);
/// do_fuse (FUSE and fuse_arange) with pm_fuse inside.
PatternMatcher doFuse(Graph &g, const KernelizeOptions &opts);
/// view_left (merge_views + pushing views before elementwise ops).
PatternMatcher viewLeft(Graph &g);
/// view_right (merge_views + pushing views after reduce/elementwise ops).
PatternMatcher viewRight(Graph &g);
/// apply_swizzle.
const Node *applySwizzle(Graph &g, const Node *u);
/// swizzle_reduceop.
const Node *swizzleReduceop(Graph &g, const Node *r, const Node *src, const Node *view, bool fuse);

/// group_realizes: the nodes that become kernel outputs.
NodeSet groupRealizes(Graph &g, const Node *sink, const KernelizeOptions &opts);

/// create_kernels, the ASSIGN dependency fix and create_ast.
PatternMatcher createKernels(Graph &g);
PatternMatcher createAst(Graph &g, std::string &error);

} // namespace mlir::uop::kernelize

#endif

//===- Rewrite.h - tinygrad's PatternMatcher and graph_rewrite --*- C++ -*-===//
//
// tinygrad's rules are (op set, function) pairs tried in order; graph_rewrite
// walks the graph in one order (sources first, a rewritten node rewritten
// again) that the scheduler's results depend on. This is that walk
// (RewriteContext.unified_rewrite), unchanged.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_KERNELIZE_REWRITE_H
#define UOP_KERNELIZE_REWRITE_H

#include "uop/Kernelize/Graph.h"

#include <bitset>
#include <initializer_list>
#include <vector>

namespace mlir::uop::kernelize {

using OpSet = std::bitset<64>;
OpSet ops(std::initializer_list<Op> list);
OpSet allOps();
inline OpSet allOpsExcept(std::initializer_list<Op> list) { return allOps() & ~ops(list); }
/// GroupOp.ALU, Unary, Binary, ...
OpSet aluOps();
OpSet unaryOps();
OpSet movementOps();

/// A rule returns the replacement, or nullptr (or the node itself) for none.
using RuleFn = std::function<const Node *(const Node *)>;

class PatternMatcher {
public:
  PatternMatcher &add(OpSet ops, RuleFn fn) {
    rules.push_back({ops, std::move(fn)});
    return *this;
  }
  PatternMatcher &add(Op op, RuleFn fn) { return add(ops({op}), std::move(fn)); }
  /// pm1 + pm2: the rules of both, in order.
  PatternMatcher &append(const PatternMatcher &other) {
    rules.insert(rules.end(), other.rules.begin(), other.rules.end());
    return *this;
  }
  /// The first rule that rewrites `n`, or nullptr.
  const Node *rewrite(const Node *n) const;
  /// Rewrite until no rule fires.
  const Node *fixedPoint(const Node *n) const;

private:
  struct Rule {
    OpSet ops;
    RuleFn fn;
  };
  std::vector<Rule> rules;
};

/// One RewriteContext: its memo survives across roots (graph_rewrite_map).
class Rewriter {
public:
  Rewriter(Graph &g, const PatternMatcher *pm, const PatternMatcher *bpm)
      : g(g), pm(pm), bpm(bpm) {}
  const Node *rewrite(const Node *root);

private:
  Graph &g;
  const PatternMatcher *pm, *bpm;
  llvm::DenseMap<const Node *, const Node *> replace;
};

const Node *graphRewrite(Graph &g, const Node *sink, const PatternMatcher &pm,
                         bool bottomUp = false);

using NodeMap = llvm::DenseMap<const Node *, const Node *>;
/// graph_rewrite_map: every node of `sink`'s toposort to its rewrite, then
/// `inputMap`'s keys to their values' images.
NodeMap graphRewriteMap(Graph &g, const Node *sink, const PatternMatcher &pm, bool bottomUp = false,
                        const NodeMap *inputMap = nullptr);

} // namespace mlir::uop::kernelize

#endif // UOP_KERNELIZE_REWRITE_H

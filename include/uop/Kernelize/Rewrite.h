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

#include <array>
#include <bitset>
#include <initializer_list>
#include <string>
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

struct KernelizeOptions;

/// What a rule may use besides the node: the graph to build in, tinygrad's
/// flags, where to report an error tinygrad would raise, and the rule set's
/// own context (tinygrad's `ctx`), whose type the rule set knows.
struct RewriteCtx {
  Graph &g;
  const KernelizeOptions *opts = nullptr;
  std::string *error = nullptr;
  void *user = nullptr;
  template <typename T> T &get() const { return *static_cast<T *>(user); }
};

/// A rule returns the replacement, or nullptr (or the node itself) for none.
/// Rules are plain functions, so a rule set is built once, as tinygrad's
/// module-level PatternMatchers are.
using RuleFn = const Node *(*)(RewriteCtx &, const Node *);

class PatternMatcher {
public:
  PatternMatcher &add(OpSet ops, RuleFn fn) {
    rules.push_back({ops, std::move(fn)});
    for (size_t op = 0; op < byOp.size(); ++op)
      if (ops.test(op))
        byOp[op].push_back(rules.size() - 1);
    return *this;
  }
  PatternMatcher &add(Op op, RuleFn fn) { return add(ops({op}), std::move(fn)); }
  /// pm1 + pm2: the rules of both, in order.
  PatternMatcher &append(const PatternMatcher &other) {
    for (const Rule &r : other.rules)
      add(r.ops, r.fn);
    return *this;
  }
  /// The first rule that rewrites `n`, or nullptr.
  const Node *rewrite(RewriteCtx &ctx, const Node *n) const;
  /// Rewrite until no rule fires.
  const Node *fixedPoint(RewriteCtx &ctx, const Node *n) const;

private:
  struct Rule {
    OpSet ops;
    RuleFn fn;
  };
  std::vector<Rule> rules;
  // The rules that apply to each op, in order (tinygrad's pdict).
  std::array<llvm::SmallVector<uint16_t, 8>, 64> byOp;
};

/// One RewriteContext: its memo survives across roots (graph_rewrite_map).
/// The memo (tinygrad's `replace` dict) lives in the nodes themselves where
/// it can: a node has one slot, owned by the innermost rewriter that set it
/// while it is alive (rewriters nest: a rule may rewrite a subgraph); a node
/// whose slot a live rewriter holds goes to this one's map. A hash lookup
/// per source per node was a third of kernelize's time.
class Rewriter {
public:
  Rewriter(RewriteCtx &ctx, const PatternMatcher *pm, const PatternMatcher *bpm);
  ~Rewriter();
  Rewriter(const Rewriter &) = delete;
  Rewriter &operator=(const Rewriter &) = delete;
  const Node *rewrite(const Node *root);

private:
  const Node *lookup(const Node *n) const {
    if (n->memoOwner == id)
      return n->memoValue;
    if (overflow.empty())
      return nullptr;
    return overflow.lookup(n);
  }
  void set(const Node *n, const Node *v);

  RewriteCtx &ctx;
  const PatternMatcher *pm, *bpm;
  uint64_t id;
  llvm::DenseMap<const Node *, const Node *> overflow;
};

const Node *graphRewrite(RewriteCtx &ctx, const Node *sink, const PatternMatcher &pm,
                         bool bottomUp = false);
/// graph_rewrite with no context but the graph.
inline const Node *graphRewrite(Graph &g, const Node *sink, const PatternMatcher &pm,
                                bool bottomUp = false) {
  RewriteCtx ctx{g};
  return graphRewrite(ctx, sink, pm, bottomUp);
}

using NodeMap = llvm::DenseMap<const Node *, const Node *>;
/// graph_rewrite_map: every node of `sink`'s toposort to its rewrite, then
/// `inputMap`'s keys to their values' images.
NodeMap graphRewriteMap(RewriteCtx &ctx, const Node *sink, const PatternMatcher &pm,
                        bool bottomUp = false, const NodeMap *inputMap = nullptr);

} // namespace mlir::uop::kernelize

#endif // UOP_KERNELIZE_REWRITE_H

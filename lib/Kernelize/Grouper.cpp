//===- Grouper.cpp - which UOps realize (tinygrad's kernelize/grouper.py) -===//

#include "Rules.h"

#include <map>
#include <set>

using namespace mlir::uop;
using namespace mlir::uop::kernelize;
using shape::ShapeTracker;

namespace {

struct Grouper {
  Grouper(Graph &g, const KernelizeOptions &opts) : g(g), opts(opts) {}
  Graph &g;
  const KernelizeOptions &opts;
  NodeSet realizes;
  llvm::MapVector<const Node *, NodeSet> children;
  NodeSet assigns;
  llvm::DenseMap<const Node *, const Node *> reduceForOp;

  void realize(const Node *tr) { realizes.insert(tr); }

  /// can_pad: no op that does not keep f(0) = 0 between `root` and the
  /// realized nodes.
  bool canPad(const Node *root) {
    for (const Node *u : root->toposort([&](const Node *x) { return !realizes.contains(x); }))
      if (isUnsafePad(u->op))
        return false;
    return true;
  }

  void realizeBeforeView(const Node *view, const Node *tr) {
    const ShapeTracker &st = view->viewArg();
    if (st.hasMask() && !canPad(tr))
      return realize(tr);
    int64_t trSize = shape::prod(tr->shape());
    if (st.views.size() == 1 && st.views.back().mask) {
      int64_t valid = 1;
      for (auto [lo, hi] : *st.views.back().mask)
        valid *= hi - lo;
      if (trSize >= valid)
        return;
    }
    if (trSize < shape::prod(st.shape()) && !opts.dontRealizeExpand)
      realize(tr);
  }

  /// do_realize, applied to every node in graph_rewrite's order.
  void doRealize(const Node *sink) {
    for (const Node *u : sink->toposort()) {
      if (u->op == Op::SINK)
        for (const Node *x : u->src)
          if (!isAlwaysContiguous(x->base()->op))
            realize(x->base());
      if (u->op == Op::ASSIGN || u->op == Op::CONTIGUOUS || isMeta(u->op))
        realize(u);
      if (u->op == Op::VIEW && u->src.size() == 1 && !isAlwaysContiguous(u->src[0]->op))
        realizeBeforeView(u, u->src[0]);
      if (u->op == Op::COPY || u->op == Op::MSELECT || u->op == Op::MSTACK)
        for (const Node *s : u->src)
          if (!isAlwaysContiguous(s->op))
            realize(s);
    }
  }

  void recursiveGroup(const Node *tr, const ShapeTracker &st, const Node *r, NodeSet &group,
                      std::set<std::pair<const Node *, size_t>> &seen,
                      std::vector<std::pair<const Node *, ShapeTracker>> &cache) {
    // The cache is keyed by (node, ShapeTracker): a hash of the tracker
    // narrows the search, the list holds the keys.
    size_t h = shape::hash_value(st);
    if (seen.count({tr, h}))
      for (auto &[n, s] : cache)
        if (n == tr && s == st)
          return;
    seen.insert({tr, h});
    cache.push_back({tr, st});
    int64_t rsize = r->st()->size();
    if (realizes.contains(tr) && tr != r) {
      if (!st.contiguous() || st.size() != rsize || reduceForOp.count(tr))
        group.insert(r);
      group.insert(tr);
      return;
    }
    auto it = children.find(tr);
    if (it == children.end())
      return;
    NodeSet kids = it->second;
    for (const Node *next : kids) {
      if (next->op == Op::REDUCE_AXIS) {
        group.insert(r);
        return;
      }
      llvm::SmallVector<ShapeTracker, 2> stChilds;
      for (const Node *x : next->src)
        if (x->base() == tr && !llvm::is_contained(stChilds, *x->st()))
          stChilds.push_back(*x->st());
      if (stChilds.size() > 1) {
        group.insert(r);
        return;
      }
      recursiveGroup(next, st.compose(stChilds[0]), r, group, seen, cache);
    }
  }

  NodeSet run(const Node *sink) {
    doRealize(sink);
    if (opts.dontGroupReduces)
      return realizes;
    llvm::SmallVector<const Node *> topo = sink->toposort();
    for (const Node *u : topo) {
      if (u->op == Op::VIEW || u->op == Op::SINK)
        continue;
      if (u->op == Op::ASSIGN)
        assigns.insert(u->bufUop());
      for (const Node *s : u->src)
        children[s->base()].insert(u);
    }
    NodeList doubleReduces;
    for (const Node *r : topo) {
      if (r->op != Op::REDUCE_AXIS || r->reduce().fuse)
        continue;
      if (opts.fuseConvBw && r->src[0]->base()->op == Op::REDUCE_AXIS &&
          r->src[0] != r->src[0]->base())
        doubleReduces.push_back(r);
      if (realizes.contains(r))
        continue;
      NodeSet group;
      std::set<std::pair<const Node *, size_t>> seen;
      std::vector<std::pair<const Node *, ShapeTracker>> cache;
      recursiveGroup(r, *r->st(), r, group, seen, cache);
      bool canChase = llvm::none_of(group, [&](const Node *tr) { return reduceForOp.count(tr); });
      for (const Node *u : r->toposort([&](const Node *x) { return !realizes.contains(x); }))
        if (u->op == Op::REDUCE_AXIS && u->src[0]->base()->op == Op::CONST) {
          canChase = false;
          break;
        }
      bool forced = group.contains(r);
      if (!forced && group.size() > 1)
        forced = true;
      // Fuse an assign only if no other assign target is used in the kernel.
      NodeSet targets;
      for (const Node *x : group)
        if (x->op == Op::ASSIGN)
          targets.insert(x->bufUop());
      if (!forced && !targets.empty()) {
        NodeList parents{r};
        parents.append(group.begin(), group.end());
        while (!parents.empty() && !forced) {
          const Node *p = parents.pop_back_val()->base();
          if (p->op == Op::BUFFER && assigns.contains(p) && !targets.contains(p)) {
            forced = true;
            canChase = false;
          }
          if (realizes.contains(p))
            continue;
          parents.append(p->src.begin(), p->src.end());
        }
      }
      if (forced || group.empty()) {
        const Node *tr = r;
        if (canChase) {
          // Chase down to a contiguous child.
          ShapeTracker st = *tr->st();
          while (true) {
            auto it = children.find(tr);
            if (it == children.end() || it->second.size() != 1)
              break;
            const Node *next = it->second[0];
            llvm::SmallVector<ShapeTracker, 2> stChilds;
            for (const Node *s : next->src)
              if (s->base() == tr && !llvm::is_contained(stChilds, *s->st()))
                stChilds.push_back(*s->st());
            if (stChilds.size() > 1 || st.size() != stChilds[0].size())
              break;
            st = st.compose(stChilds[0]);
            if (!st.contiguous() || next->op == Op::REDUCE_AXIS)
              break;
            tr = next;
          }
          // Do not cast to a larger dtype before the store.
          if (tr->op == Op::CAST && itemSize(tr->dtype.scalar) > itemSize(tr->src[0]->dtype.scalar))
            tr = tr->src[0]->base();
        }
        group.clear();
        group.insert(tr);
        realize(tr);
      }
      for (const Node *tr : group)
        reduceForOp[tr] = r;
    }
    // Fuse double reduces with no other child.
    for (const Node *reduceop : doubleReduces) {
      const Node *top = reduceop->src[0]->base();
      auto it = children.find(top);
      if (it != children.end() && it->second.size() == 1)
        realizes.remove(top);
    }
    return realizes;
  }
};

} // namespace

NodeSet kernelize::groupRealizes(Graph &g, const Node *sink, const KernelizeOptions &opts) {
  Grouper grouper(g, opts);
  return grouper.run(sink);
}

//===- ShapeTrackerIndex.cpp - tinygrad's simplified view index -----------===//
//
// realStrides and axisIsMasked read tinygrad's simplified index expression
// (views_to_indexed_uops). A small affine simplifier builds that expression
// as sum(coefficient * atom) + constant, where an atom is an axis (a RANGE)
// or a division or modulo that could not be removed, and applies tinygrad's
// div/mod, comparison and valid-narrowing rules to it. Where it is weaker
// than tinygrad it keeps an atom, so a stride comes out unknown
// (std::nullopt) rather than wrong.
//
// Why not uop IR and the dialect's canonicalizer: the optimizer asks for
// the strides of every buffer's ShapeTracker at each step of tinygrad's
// heuristic, so this runs many times per kernel and must not build ops and
// run a greedy rewrite each time; and it must reproduce tinygrad's own
// simplifier, whose div/mod folding (CORRECT_DIVMOD_FOLDING=0, its default)
// is not a valid rewrite of C's division of negative values, which the
// dialect's rules must be. The div/mod folding itself is the one algorithm
// of Utils/DivModFolding.h, on this form (LinForm).
//
// tinygrad's rules match nodes of a tree, not sums: like terms combine only
// when neighbours, and uop_given_valid finds a sum only where it is a node.
// So the index is kept as the parts tinygrad adds up, and the sums that are
// nodes are recorded; where the tree is unknown we assume the rule misses.
//
//===----------------------------------------------------------------------===//

#include "ShapeTrackerIndex.h"

#include "uop/Dialect/UOp/Utils/DivModFolding.h"

#include "llvm/ADT/STLExtras.h"
#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <tuple>

using namespace mlir;
using namespace mlir::uop;
using namespace mlir::uop::shape;
using namespace mlir::uop::shape::detail;

namespace {
using Bounds = std::pair<int64_t, int64_t>; // [lo, hi], both included
} // namespace

//===----------------------------------------------------------------------===//
// The index expression (views_to_indexed_uops) in affine form
//===----------------------------------------------------------------------===//

namespace {

/// sum(coefficient * atom) + constant: tinygrad's index after symbolic_flat,
/// which distributes constants over sums.
struct Lin {
  std::map<unsigned, int64_t> terms; // atom id -> coefficient, never 0
  int64_t c = 0;

  static Lin constant(int64_t c) {
    Lin l;
    l.c = c;
    return l;
  }
  static Lin atom(unsigned id, int64_t coef = 1) {
    Lin l;
    if (coef)
      l.terms[id] = coef;
    return l;
  }
  bool isConstant() const { return terms.empty(); }
  /// The term if this is one term and no constant.
  std::optional<std::pair<unsigned, int64_t>> single() const {
    if (c != 0 || terms.size() != 1)
      return std::nullopt;
    return *terms.begin();
  }
  /// The atom if this is exactly one atom.
  std::optional<unsigned> asAtom() const {
    auto s = single();
    return s && s->second == 1 ? std::optional<unsigned>(s->first) : std::nullopt;
  }
  Lin &operator+=(Lin o) {
    c += o.c;
    for (auto [id, k] : o.terms)
      if ((terms[id] += k) == 0)
        terms.erase(id);
    return *this;
  }
  Lin operator*(int64_t k) const {
    if (k == 0)
      return constant(0);
    Lin l = *this;
    l.c *= k;
    for (auto &t : l.terms)
      t.second *= k;
    return l;
  }
  friend Lin operator+(Lin a, const Lin &b) { return a += b; }
  friend Lin operator-(Lin a, const Lin &b) { return a += b * -1; }
  bool operator==(const Lin &o) const { return c == o.c && terms == o.terms; }
  bool operator!=(const Lin &o) const { return !(*this == o); }
  bool operator<(const Lin &o) const { return std::tie(c, terms) < std::tie(o.c, o.terms); }
};

/// Range: a logical axis (arg = axis). Div/Mod: inner // arg, inner % arg
/// (C semantics, as tinygrad's IDIV and MOD). Fake: a variable with fixed
/// bounds (arg = index into the fake bounds) that uop_given_valid puts in
/// place of an expression while it simplifies under a narrowed range.
enum class Kind { Range, Div, Mod, Fake };
struct Atom {
  Kind kind;
  int64_t arg;
  Lin inner;
};

/// One conjunct of the validity: `e >= k` if `lower`, else `e < k`.
struct Clause {
  Lin e;
  int64_t k;
  bool lower;
  bool operator==(const Clause &o) const { return e == o.e && k == o.k && lower == o.lower; }
};
enum class Truth { False, True, Unknown };
/// A clause after simplification: it may have become a constant.
struct Stmt {
  Truth truth = Truth::Unknown;
  Clause cl;
  bool operator==(const Stmt &o) const {
    return truth == o.truth && (truth != Truth::Unknown || cl == o.cl);
  }
  bool operator!=(const Stmt &o) const { return !(*this == o); }
};

/// The index as the sum tinygrad builds: one part per dimension of the first
/// view (a part may itself be a sum). tinygrad combines like terms only
/// between neighbouring nodes, so an axis with terms in two parts has no
/// reliable stride.
using Parts = SmallVector<Lin, 4>;

Lin sum(const Parts &parts) {
  Lin s;
  for (const Lin &p : parts)
    s += p;
  return s;
}

class IndexSimplifier {
public:
  explicit IndexSimplifier(ArrayRef<int64_t> shape) : shape(shape.begin(), shape.end()) {}

  /// The index and validity of the views, as views_to_indexed_uops leaves
  /// them. `validFalse` when the validity folded to False.
  void build(ArrayRef<View> views);

  Parts idx;
  SmallVector<Stmt> valid;
  bool validFalse = false;

  const Atom &atom(unsigned id) const { return atoms[id]; }
  /// Axes (Range atoms) anywhere in `x`.
  void collectAxes(const Lin &x, llvm::SmallBitVector &axes) const;

private:
  Lin axis(unsigned i);
  Lin fake(Bounds b);
  Lin makeAtom(Kind kind, const Lin &inner, int64_t arg);
  Bounds bounds(unsigned id);
  Bounds bounds(const Lin &x);
  Lin recombine(Lin x, const Lin &a, const Lin &b);
  Lin div(const Lin &x, int64_t c);
  Lin mod(const Lin &x, int64_t c);
  /// tinygrad's div_and_mod_folding (DivModFolding.h): nullopt when it
  /// leaves x // c or x % c as it is.
  std::optional<Lin> divMod(const Lin &x, int64_t c, bool isMod);
  struct LinForm;
  Truth simplifyClause(Clause &cl);
  Stmt simplifyStmt(Stmt s);
  Lin substitute(const Lin &x, const Lin &from, const Lin &to, std::map<unsigned, Lin> &memo);
  Lin substitute(const Lin &x, const Lin &from, const Lin &to) {
    std::map<unsigned, Lin> memo;
    return substitute(x, from, to, memo);
  }
  Stmt substitute(Stmt s, const Lin &from, const Lin &to);
  Parts substitute(Parts p, const Lin &from, const Lin &to) {
    for (Lin &x : p)
      x = substitute(x, from, to);
    return p;
  }
  bool occurs(const Lin &x, const Lin &in);
  bool occurs(const Lin &x, const Stmt &in) {
    return in.truth == Truth::Unknown && occurs(x, in.cl.e);
  }
  bool occurs(const Lin &x, const Parts &in) {
    return llvm::any_of(in, [&](const Lin &p) { return occurs(x, p); });
  }
  /// Whether the sum `x` is one node of tinygrad's tree for `in`.
  bool containsNode(const Lin &x, const Lin &in) const {
    if (x.c != 0 || x.terms.size() < 2)
      return false;
    Lin key = in;
    key.c = 0;
    if (key == x)
      return true;
    auto it = subNodes.find(key);
    return it != subNodes.end() && it->second.count(x);
  }
  /// The sums inside `x` that are nodes of tinygrad's tree, scaled by `k`
  /// (tinygrad distributes a constant factor over a sum).
  void nodesOf(const Lin &x, int64_t k, std::set<Lin> &out) const {
    Lin key = x;
    key.c = 0;
    if (key.terms.size() > 1)
      out.insert(key * k);
    auto it = subNodes.find(key);
    if (it != subNodes.end())
      for (const Lin &n : it->second)
        out.insert(n * k);
  }
  template <typename T> std::optional<T> givenValid(ArrayRef<Stmt> valid, T target);
  void simplifyValid();

  Shape shape;
  std::vector<Atom> atoms;
  std::map<std::tuple<Kind, int64_t, Lin>, unsigned> ids;
  std::map<unsigned, Bounds> boundsMemo;
  std::vector<Bounds> fakes;
  /// For a sum built by a view (constant dropped): its sums that are nodes of
  /// tinygrad's tree, which uop_given_valid can find and replace. Sums made
  /// by the div/mod folding have none recorded: their order is unknown.
  std::map<Lin, std::set<Lin>> subNodes;
};

Bounds scaled(Bounds b, int64_t k) {
  return k >= 0 ? Bounds{b.first * k, b.second * k} : Bounds{b.second * k, b.first * k};
}

Lin IndexSimplifier::makeAtom(Kind kind, const Lin &inner, int64_t arg) {
  auto key = std::make_tuple(kind, arg, inner);
  auto it = ids.find(key);
  unsigned id;
  if (it != ids.end()) {
    id = it->second;
  } else {
    id = atoms.size();
    atoms.push_back({kind, arg, inner});
    ids.emplace(std::move(key), id);
  }
  // tinygrad folds any node whose range is one value to that constant.
  Bounds b = bounds(id);
  return b.first == b.second ? Lin::constant(b.first) : Lin::atom(id);
}

Lin IndexSimplifier::axis(unsigned i) { return makeAtom(Kind::Range, Lin(), i); }

Lin IndexSimplifier::fake(Bounds b) {
  fakes.push_back(b);
  return makeAtom(Kind::Fake, Lin(), fakes.size() - 1);
}

// vmin/vmax as tinygrad computes them (UOp._min_max): a modulo's range is
// the divisor's, whatever the dividend's.
Bounds IndexSimplifier::bounds(unsigned id) {
  auto it = boundsMemo.find(id);
  if (it != boundsMemo.end())
    return it->second;
  Atom a = atoms[id];
  Bounds b;
  switch (a.kind) {
  case Kind::Range:
    b = {0, shape[a.arg] - 1};
    break;
  case Kind::Fake:
    b = fakes[a.arg];
    break;
  case Kind::Div: {
    Bounds in = bounds(a.inner);
    b = {cdiv(in.first, a.arg), cdiv(in.second, a.arg)};
    break;
  }
  case Kind::Mod: {
    Bounds in = bounds(a.inner);
    int64_t m = a.arg - 1;
    b = in.first >= 0 ? Bounds{0, m} : in.second <= 0 ? Bounds{-m, 0} : Bounds{-m, m};
    break;
  }
  }
  boundsMemo[id] = b;
  return b;
}

Bounds IndexSimplifier::bounds(const Lin &x) {
  Bounds r{x.c, x.c};
  for (auto [id, k] : x.terms) {
    Bounds t = scaled(bounds(id), k);
    r.first += t.first;
    r.second += t.second;
  }
  return r;
}

void IndexSimplifier::collectAxes(const Lin &x, llvm::SmallBitVector &axes) const {
  for (auto [id, k] : x.terms) {
    const Atom &a = atoms[id];
    if (a.kind == Kind::Range)
      axes.set(a.arg);
    else
      collectAxes(a.inner, axes);
  }
}

/// x%c + (x//c)*c -> x, and (x//c1)*c3 + (x%c1)*c2 -> x*c2 when c1*c2 == c3,
/// for the terms `a` and `b` of `x`. tinygrad matches these on one ADD node, so
/// the callers only try terms that are certainly the two sources of one node:
/// missing a recombination leaves a stride unknown, a wrong one invents it.
Lin IndexSimplifier::recombine(Lin x, const Lin &a, const Lin &b) {
  auto ta = a.single(), tb = b.single();
  if (!ta || !tb)
    return x;
  for (auto [m, d] : {std::make_pair(*ta, *tb), std::make_pair(*tb, *ta)}) {
    Atom mod = atoms[m.first], div = atoms[d.first];
    if (mod.kind == Kind::Mod && div.kind == Kind::Div && mod.arg == div.arg &&
        mod.inner == div.inner && d.second == m.second * mod.arg)
      return x - a - b + mod.inner * m.second;
  }
  return x;
}

Lin IndexSimplifier::div(const Lin &x, int64_t c) {
  assert(c > 0 && "division by a non-positive constant");
  if (c == 1)
    return x;
  Bounds b = bounds(x);
  if (cdiv(b.first, c) == cdiv(b.second, c))
    return Lin::constant(cdiv(b.first, c));
  // (x//c1)//c2 -> x//(c1*c2)
  if (auto a = x.asAtom(); a && atoms[*a].kind == Kind::Div) {
    Atom d = atoms[*a];
    return div(d.inner, d.arg * c);
  }
  // (x//c1 + a)//c2 -> (x + a*c1)//(c1*c2) when x and a have one sign
  if (x.terms.size() == 1 && x.terms.begin()->second == 1 &&
      atoms[x.terms.begin()->first].kind == Kind::Div) {
    Atom d = atoms[x.terms.begin()->first];
    Bounds in = bounds(d.inner);
    if ((in.first >= 0 && x.c >= 0) || (in.second <= 0 && x.c <= 0))
      return div(d.inner + Lin::constant(x.c * d.arg), d.arg * c);
  }
  if (std::optional<Lin> folded = divMod(x, c, /*isMod=*/false))
    return *folded;
  if (b.second <= 0)
    return div(x * -1, c) * -1;
  return makeAtom(Kind::Div, x, c);
}

Lin IndexSimplifier::mod(const Lin &x, int64_t c) {
  assert(c > 0 && "modulo by a non-positive constant");
  if (c == 1)
    return Lin::constant(0);
  // (x%c)%c -> x%c
  if (auto a = x.asAtom(); a && atoms[*a].kind == Kind::Mod && atoms[*a].arg == c)
    return x;
  if (std::optional<Lin> folded = divMod(x, c, /*isMod=*/true))
    return *folded;
  if (bounds(x).second <= 0)
    return mod(x * -1, c) * -1;
  return makeAtom(Kind::Mod, x, c);
}

/// DivModFolding.h's form for the affine index: what tinygrad's simplifier
/// does (CORRECT_DIVMOD_FOLDING off, its default), on Lin sums.
struct IndexSimplifier::LinForm {
  using Expr = Lin;
  static constexpr bool kCorrectDivMod = false;
  IndexSimplifier &s;

  static VRange vrange(Bounds b) { return {b.first, b.second}; }
  std::optional<VRange> range(const Lin &x) { return vrange(s.bounds(x)); }
  /// One term per atom (coefficient included), then the constant.
  SmallVector<Lin> summands(const Lin &x) {
    SmallVector<Lin> out;
    for (auto [id, k] : x.terms)
      out.push_back(Lin::atom(id, k));
    if (x.c != 0)
      out.push_back(Lin::constant(x.c));
    return out;
  }
  std::optional<int64_t> constant(const Lin &u) {
    return u.isConstant() ? std::optional<int64_t>(u.c) : std::nullopt;
  }
  std::optional<std::pair<Lin, int64_t>> modOf(const Lin &u) {
    std::optional<unsigned> a = u.asAtom();
    if (!a || s.atoms[*a].kind != Kind::Mod)
      return std::nullopt;
    return std::make_pair(s.atoms[*a].inner, s.atoms[*a].arg);
  }
  int64_t constFactor(const Lin &u) {
    if (auto t = u.single())
      return t->second;
    if (u.isConstant())
      return u.c;
    int64_t f = std::abs(u.c);
    for (auto t : u.terms)
      f = std::gcd(f, t.second);
    return f;
  }
  Lin divides(const Lin &u, int64_t f) {
    Lin v = Lin::constant(u.c / f);
    for (auto t : u.terms)
      v.terms[t.first] = t.second / f;
    return v;
  }
  std::optional<VRange> dividedRange(const Lin &u, int64_t f) {
    return vrange(s.bounds(divides(u, f)));
  }
  bool fits(const Lin &, __int128, __int128) { return true; } // no dtype: no wrap
  Lin constantLike(const Lin &, int64_t c) { return Lin::constant(c); }
  Lin add(const Lin &x, const Lin &y) { return x + y; }
  Lin add(const Lin &x, int64_t c) { return x + Lin::constant(c); }
  Lin mul(const Lin &x, int64_t c) { return x * c; }
  Lin div(const Lin &x, int64_t c) { return s.div(x, c); }
  Lin mod(const Lin &x, int64_t c) { return s.mod(x, c); }
};

std::optional<Lin> IndexSimplifier::divMod(const Lin &x, int64_t c, bool isMod) {
  LinForm form{*this};
  return divAndModFolding(form, x, c, isMod);
}

/// The comparison rules of tinygrad's symbolic on `e < k` (and on the
/// `e < k` inside `e >= k`): constants move right, a comparison its bounds
/// decide folds, a constant factor or a division on the left moves right, and
/// lt_folding drops terms too small to change the outcome.
Truth IndexSimplifier::simplifyClause(Clause &cl) {
  for (;;) {
    cl.k -= cl.e.c;
    cl.e.c = 0;
    Bounds b = bounds(cl.e);
    if (b.second < cl.k)
      return cl.lower ? Truth::False : Truth::True;
    if (b.first >= cl.k)
      return cl.lower ? Truth::True : Truth::False;
    if (cl.e.terms.size() == 1) {
      auto [id, f] = *cl.e.terms.begin();
      if (f == 1 && atoms[id].kind == Kind::Div) {
        // x//d < k -> x < k*d (or k*d - (d-1) for k <= 0)
        Atom d = atoms[id];
        cl.e = d.inner;
        cl.k = cl.k > 0 ? cl.k * d.arg : cl.k * d.arg - (d.arg - 1);
        continue;
      }
      if (f > 1 && cl.k > 0) {
        cl.e = Lin::atom(id);
        cl.k = ceildiv(cl.k, f);
        continue;
      }
      if (f < -1 && cl.k <= 0) {
        cl.e = Lin::atom(id, -1);
        cl.k = -floordiv(cl.k, f);
        continue;
      }
    }
    if (cl.k > 0) {
      // lt_folding: terms with factor 1 that together stay below the gcd d
      // of the others and k cannot change (sum of the others)/d < k/d.
      int64_t d = cl.k;
      bool others = false;
      Bounds ones{0, 0};
      for (auto [id, f] : cl.e.terms) {
        if (f == 1) {
          Bounds t = bounds(id);
          ones.first += t.first;
          ones.second += t.second;
        } else {
          d = std::gcd(d, f);
          others = true;
        }
      }
      if (others && d > 1 && ones.first >= 0 && ones.second < d) {
        Lin ne;
        for (auto [id, f] : cl.e.terms)
          if (f != 1)
            ne.terms[id] = f / d;
        cl.e = ne;
        cl.k /= d;
        continue;
      }
    }
    break;
  }
  // canonicalize_simplex: sum(a_i * x_i) >= 1 with a_i > 0 and x_i >= 0 is
  // sum(x_i) >= 1.
  if (cl.lower && cl.k == 1) {
    bool simplex = true, scaledTerm = false;
    for (auto [id, f] : cl.e.terms) {
      Kind kind = atoms[id].kind;
      simplex &= f > 0 && (kind == Kind::Range || kind == Kind::Fake) && bounds(id).first >= 0;
      scaledTerm |= f != 1;
    }
    if (simplex && scaledTerm)
      for (auto &t : cl.e.terms)
        t.second = 1;
  }
  return Truth::Unknown;
}

Stmt IndexSimplifier::simplifyStmt(Stmt s) {
  if (s.truth == Truth::Unknown)
    s.truth = simplifyClause(s.cl);
  return s;
}

/// `x` with `from` (an atom, a term or an atom's whole dividend) replaced by
/// `to`, every division and modulo above a replacement folded again.
Lin IndexSimplifier::substitute(const Lin &x, const Lin &from, const Lin &to,
                                std::map<unsigned, Lin> &memo) {
  if (x == from)
    return to;
  Lin base = x;
  if (containsNode(from, x))
    base = x - from + to;
  std::optional<std::pair<unsigned, int64_t>> fromTerm = from.single();
  Lin out = Lin::constant(base.c);
  for (auto [id, k] : base.terms) {
    if (fromTerm && fromTerm->first == id) {
      if (fromTerm->second == k) {
        out += to;
        continue;
      }
      if (fromTerm->second == 1) {
        out += to * k;
        continue;
      }
    }
    auto it = memo.find(id);
    if (it == memo.end()) {
      Atom a = atoms[id];
      Lin repl = Lin::atom(id);
      if (a.kind == Kind::Div || a.kind == Kind::Mod) {
        Lin inner = substitute(a.inner, from, to, memo);
        if (inner != a.inner)
          repl = a.kind == Kind::Div ? div(inner, a.arg) : mod(inner, a.arg);
      }
      it = memo.emplace(id, repl).first;
    }
    out += it->second * k;
  }
  return out;
}

Stmt IndexSimplifier::substitute(Stmt s, const Lin &from, const Lin &to) {
  if (s.truth != Truth::Unknown)
    return s;
  s.cl.e = substitute(s.cl.e, from, to);
  return simplifyStmt(s);
}

/// Whether `x` is a node of `in` (an atom, a term, an atom's dividend).
bool IndexSimplifier::occurs(const Lin &x, const Lin &in) {
  if (in == x || containsNode(x, in))
    return true;
  std::optional<std::pair<unsigned, int64_t>> term = x.single();
  for (auto [id, k] : in.terms) {
    if (term && term->first == id && (term->second == 1 || term->second == k))
      return true;
    if (atoms[id].kind == Kind::Div || atoms[id].kind == Kind::Mod) {
      Lin inner = atoms[id].inner;
      if (occurs(x, inner))
        return true;
    }
  }
  return false;
}

/// uop_given_valid: `target` simplified under the bounds the clauses put on
/// their expressions; nullopt when they contradict each other.
template <typename T> std::optional<T> IndexSimplifier::givenValid(ArrayRef<Stmt> valid, T target) {
  // parse_valid: expression -> [lower, upper]; a later clause overrides.
  SmallVector<std::pair<Lin, std::pair<std::optional<int64_t>, std::optional<int64_t>>>> parsed;
  for (const Stmt &s : valid) {
    assert(s.truth == Truth::Unknown && "constants cannot be parsed");
    auto it = llvm::find_if(parsed, [&](auto &p) { return p.first == s.cl.e; });
    if (it == parsed.end()) {
      parsed.push_back({s.cl.e, {}});
      it = std::prev(parsed.end());
    }
    if (s.cl.lower)
      it->second.first = s.cl.k;
    else
      it->second.second = s.cl.k - 1;
  }
  for (auto &[x, lohi] : parsed) {
    Bounds xb = bounds(x);
    int64_t v0 = lohi.first.value_or(xb.first), v1 = lohi.second.value_or(xb.second);
    if (v0 > v1)
      return std::nullopt;
    if (v0 == v1) {
      target = substitute(target, x, Lin::constant(v0));
      continue;
    }
    // Candidates: each is a set of (expression, narrowed stand-in); when every
    // one of a set simplifies the target to the same thing, that is the target.
    SmallVector<SmallVector<std::pair<Lin, Lin>, 4>, 2> candidates;
    if (x.terms.size() > 1 && x.c == 0 && v0 == 1 && llvm::all_of(x.terms, [&](auto t) {
          Kind kind = atoms[t.first].kind;
          return t.second == 1 && (kind == Kind::Range || kind == Kind::Fake);
        })) {
      auto &cand = candidates.emplace_back();
      for (auto t : x.terms)
        cand.push_back({Lin::atom(t.first), fake({1, bounds(t.first).second})});
    }
    if (occurs(x, target))
      candidates.push_back({{x, fake({v0, v1})}});
    for (auto &cand : candidates) {
      SmallVector<T> results;
      for (auto &[from, stand] : cand)
        results.push_back(substitute(substitute(target, from, stand), stand, from));
      if (llvm::all_equal(results))
        target = results.front();
    }
  }
  return target;
}

/// simplify_valid: each clause simplified under the ones before it, the
/// clauses whose expression the others contain first.
void IndexSimplifier::simplifyValid() {
  SmallVector<std::pair<int, size_t>> order;
  for (auto [i, s] : llvm::enumerate(valid)) {
    int priority = 0;
    for (const Stmt &o : valid)
      priority -= occurs(s.cl.e, o) ? 1 : 0;
    order.push_back({priority, i});
  }
  llvm::sort(order); // by priority, then position: stable
  SmallVector<Stmt> ret;
  bool changed = false, parsable = true;
  for (auto [priority, i] : order) {
    Stmt stmt = valid[i];
    // A constant among the earlier clauses cannot be parsed: tinygrad then
    // leaves the clause as it is.
    if (!ret.empty() && parsable)
      if (std::optional<Stmt> s = givenValid<Stmt>(ret, stmt))
        stmt = *s;
    changed |= stmt != valid[i];
    parsable &= stmt.truth == Truth::Unknown;
    ret.push_back(stmt);
  }
  if (changed)
    valid = std::move(ret);
}

void IndexSimplifier::build(ArrayRef<View> views) {
  SmallVector<Stmt> raw;
  // to_indexed_uops of one view over the index expressions of its axes.
  auto apply = [&](const View &v, ArrayRef<Lin> in) {
    // The sum tinygrad builds, dimension by dimension, with its constants
    // moved to the end. Its ADD rules only see two neighbouring terms: a term
    // merges with the one before it if both are multiples of one atom, and
    // x%c and (x//c)*c recombine only as the whole (innermost) sum so far.
    Parts chain;
    int64_t cnst = v.offset;
    std::set<Lin> inner; // nodes inside the parts
    auto add = [&](Lin t) {
      // (y + x*c0) + x*c1 -> y + x*(c0+c1): x*c0 must be a source of the sum
      // so far: its last part, or with fewer than three parts any single
      // term, or a term of a lone two-term part.
      if (std::optional<std::pair<unsigned, int64_t>> term = t.single()) {
        auto sameAtom = [&](const Lin &p) {
          return p.single() && p.single()->first == term->first;
        };
        Lin *into = nullptr;
        if (!chain.empty() && sameAtom(chain.back()))
          into = &chain.back();
        else if (chain.size() == 2 && sameAtom(chain.front()))
          into = &chain.front();
        else if (chain.size() == 1 && chain[0].c == 0 && chain[0].terms.size() == 2 &&
                 chain[0].terms.count(term->first))
          into = &chain[0];
        if (into) {
          *into += t;
          if (into->isConstant())
            chain.erase(chain.begin() + (into - chain.begin()));
          return;
        }
      }
      if (chain.size() == 1) {
        Lin pair = chain[0] + t;
        Lin merged = recombine(pair, chain[0], t);
        if (merged != pair) {
          chain[0] = merged;
          return;
        }
      }
      chain.push_back(std::move(t));
    };
    for (size_t i = 0; i < v.shape.size(); ++i) {
      if (v.shape[i] != 1 && v.strides[i] != 0) {
        Lin t = in[i] * v.strides[i];
        cnst += t.c;
        t.c = 0;
        if (!t.isConstant()) {
          nodesOf(in[i], v.strides[i], inner);
          add(std::move(t));
        }
      }
      if (!v.mask)
        continue;
      auto [lo, hi] = (*v.mask)[i];
      if (lo != 0)
        raw.push_back({Truth::Unknown, {in[i], lo, /*lower=*/true}});
      if (hi != v.shape[i])
        raw.push_back({Truth::Unknown, {in[i], hi, /*lower=*/false}});
    }
    // The nodes of the whole sum: the parts, the sums so far and what is
    // inside the parts (unless a merge changed that part).
    Lin prefix;
    for (const Lin &p : chain) {
      nodesOf(p, 1, inner);
      nodesOf(prefix += p, 1, inner);
    }
    if (prefix.terms.size() > 1) {
      std::set<Lin> &known = subNodes[prefix];
      for (const Lin &n : inner)
        if (n != prefix)
          known.insert(n);
    }
    chain.push_back(Lin::constant(cnst));
    return chain;
  };
  SmallVector<Lin> ranges;
  for (size_t i = 0; i < shape.size(); ++i)
    ranges.push_back(axis(i));
  idx = apply(views.back(), ranges);
  for (const View &view : llvm::reverse(views.drop_back())) {
    View v = minify(view);
    SmallVector<Lin> in(v.shape.size());
    int64_t acc = 1;
    for (size_t i = v.shape.size(); i-- > 0;) {
      in[i] = mod(div(sum(idx), acc), v.shape[i]);
      acc *= v.shape[i];
    }
    idx = apply(v, in);
  }

  for (Stmt &s : raw) {
    s = simplifyStmt(s);
    if (s.truth == Truth::False)
      validFalse = true;
    if (s.truth == Truth::Unknown)
      valid.push_back(s);
  }
  // An AND with False is False, and uop_given_valid cannot parse it.
  if (validFalse) {
    valid.clear();
    return;
  }
  simplifyValid();
  if (llvm::any_of(valid, [](const Stmt &s) { return s.truth == Truth::False; }))
    validFalse = true;
  if (llvm::all_of(valid, [](const Stmt &s) { return s.truth == Truth::Unknown; }))
    if (std::optional<Parts> n = givenValid<Parts>(valid, idx))
      idx = *n;
  if (validFalse)
    valid.clear();
  llvm::erase_if(valid, [](const Stmt &s) { return s.truth == Truth::True; });
}

} // namespace

RealStrides shape::detail::realStridesOfIndex(ArrayRef<View> views, bool ignoreValid) {
  const View &last = views.back();
  int64_t rank = last.shape.size();
  RealStrides ret(rank, std::nullopt);
  IndexSimplifier s(last.shape);
  s.build(views);
  // A stride is the coefficient of the axis in the top-level sum, if only one
  // part has a term in it.
  SmallVector<int> parts(rank, 0);
  llvm::SmallBitVector used(rank), masked(rank);
  for (const Lin &p : s.idx) {
    for (auto [id, k] : p.terms) {
      if (s.atom(id).kind != Kind::Range)
        continue;
      ret[s.atom(id).arg] = k;
      ++parts[s.atom(id).arg];
    }
    s.collectAxes(p, used);
  }
  for (int64_t i = 0; i < rank; ++i)
    if (parts[i] > 1)
      ret[i] = std::nullopt;
  for (int64_t i = 0; i < rank; ++i)
    if (!used[i])
      ret[i] = 0;
  if (!ignoreValid) {
    for (const Stmt &st : s.valid)
      s.collectAxes(st.cl.e, masked);
    for (int64_t i = 0; i < rank; ++i)
      if (masked[i])
        ret[i] = std::nullopt;
  }
  return ret;
}

llvm::SmallBitVector shape::detail::maskedAxesOfIndex(ArrayRef<View> views) {
  IndexSimplifier s(views.back().shape);
  s.build(views);
  llvm::SmallBitVector masked(views.back().shape.size());
  for (const Stmt &st : s.valid)
    s.collectAxes(st.cl.e, masked);
  return masked;
}

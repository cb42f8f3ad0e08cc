#!/usr/bin/env python3
"""Generates Inputs/cases.json: differential fixtures for lib/Dialect/UOp/IR/ShapeTracker.cpp.

Needs tinygrad at commit b73e89110e unpacked at /tmp/tg (or TINYGRAD_PATH):
  mkdir -p /tmp/tg && cd /tmp/tg && \
    git --git-dir=/work/.mirror/tinygrad+tinygrad/repo archive b73e89110e tinygrad | tar x
The test suite does NOT run this script; it only reads the JSON it wrote. Rerun it by
hand (python3 gen_cases.py) after changing it, and commit the new cases.json.

Each case starts from a ShapeTracker (from_shape, or the views of a VIEW node of a
real kernel in ../shared/corpus) and applies a random sequence of movement ops. Every
state (the start, then after each op) records tinygrad's views, real_strides() (None
as null), real_strides(ignore_valid=True), unit_stride_axes(), axis_is_masked(i) for
each axis and real_size(). The cases from plain shapes are picked from a pool (each pool
case has its own random stream): the first ones that need the symbolic simplifier, a
sample of the others, and RARE ones. `gen_cases.py --pool N out.json` writes the first N
pool cases, to look for more of those (run uop-shapetracker-check on it with a
deliberately broken rule in ShapeTracker.cpp; keep a case it then gets wrong).
"""
import glob, json, os, random, sys

sys.path.insert(0, os.environ.get("TINYGRAD_PATH", "/tmp/tg"))
from tinygrad.shape.shapetracker import ShapeTracker  # noqa: E402
from tinygrad.shape.view import View  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "..", "..", "..", "..", "..", "shared", "corpus")
SEED, MAX_SIZE = 20250707, 1 << 16
# From a pool of random cases from plain shapes, keep the ones that make the
# symbolic part work (a state with several views where tinygrad still finds a
# stride or a masked axis) and a sample of the rest.
POOL, KEEP_HARD, KEEP_PLAIN = 6000, 500, 150
# Pool cases that exercise rules of tinygrad's symbolic simplifier the sample above
# hardly reaches: with one of those rules broken in ShapeTracker.cpp, each got a
# wrong answer or lost a stride (lt_folding's bound, the nearest remainders, a
# modulo inside a modulo, x//d < c, canonicalize_simplex, the simplex candidate of
# uop_given_valid, x%c + (x//c)*c, merging like terms, a view's sum as a node).
RARE = [22, 1287, 1308, 1445, 1857, 2385, 2525, 2670, 2953, 4389, 5640, 5674, 6493, 9682, 10362, 11057,
        22013, 23549]
DIMS = [1, 1, 2, 2, 3, 4, 4, 5, 6, 8, 12, 16]

def prod(xs):
  r = 1
  for x in xs: r *= x
  return r

def corpus_views():
  seen, out = set(), []
  for f in sorted(glob.glob(os.path.join(CORPUS, "*", "k*.json"))):
    for op, _, arg, _ in json.load(open(f))["nodes"]:
      if op != "VIEW": continue
      key = json.dumps(arg["views"])
      if key not in seen:
        seen.add(key)
        out.append(arg["views"])
  return out

def st_from_json(views):
  return ShapeTracker(tuple(View.create(tuple(v["shape"]), tuple(v["strides"]), v["offset"],
                                        tuple(map(tuple, v["mask"])) if v["mask"] else None)
                            for v in views))

def view_json(v: View):
  return {"shape": list(v.shape), "strides": list(v.strides), "offset": v.offset,
          "mask": [list(m) for m in v.mask] if v.mask is not None else None,
          "contiguous": v.contiguous}

def factor_pairs(n):
  return [(a, n // a) for a in range(1, n + 1) if n % a == 0]

def random_shape_of_size(rng, n):
  # a random factorisation of n, sometimes with 1s sprinkled in
  dims = []
  while n > 1:
    f = rng.choice([d for d in range(2, n + 1) if n % d == 0][:6] + [n])
    dims.append(f)
    n //= f
  for _ in range(rng.randint(0, 2)): dims.insert(rng.randint(0, len(dims)), 1)
  rng.shuffle(dims)
  return tuple(dims) if dims else (1,)

def random_op(rng, st):
  shape = st.shape
  n = len(shape)
  kind = rng.choice(["split", "split", "merge", "merge", "reshape", "permute", "permute", "pad",
                     "expand", "shrink"])
  if kind == "split":
    i = rng.randrange(n)
    a, b = rng.choice(factor_pairs(shape[i]))
    return "reshape", list(shape[:i] + (a, b) + shape[i + 1:])
  if kind == "merge" and n >= 2:
    i = rng.randrange(n - 1)
    return "reshape", list(shape[:i] + (shape[i] * shape[i + 1],) + shape[i + 2:])
  if kind == "reshape" or kind == "merge":
    return "reshape", list(random_shape_of_size(rng, prod(shape)))
  if kind == "permute":
    p = list(range(n))
    rng.shuffle(p)
    return "permute", p
  if kind == "pad":
    if prod(shape) * 4 > MAX_SIZE: return None
    return "pad", [[rng.choice([0, 0, 1, 2]), rng.choice([0, 0, 1, 3])] if rng.random() < 0.6 else [0, 0]
                   for _ in shape]
  if kind == "expand":
    ones = [i for i, s in enumerate(shape) if s == 1]
    if not ones: return None
    new = list(shape)
    for i in ones:
      if rng.random() < 0.7: new[i] = rng.choice([2, 3, 4, 8])
    if prod(new) > MAX_SIZE: return None
    return "expand", new
  # shrink
  arg = []
  for s in shape:
    if rng.random() < 0.5 or s == 1: arg.append([0, s])
    else:
      b = rng.randrange(0, s)
      arg.append([b, b if rng.random() < 0.02 else rng.randrange(b + 1, s + 1)])  # rarely empty
  return "shrink", arg

def apply(st, op, arg):
  if op == "reshape": return st.reshape(tuple(arg))
  if op == "permute": return st.permute(tuple(arg))
  if op == "pad": return st.pad(tuple(map(tuple, arg)))
  if op == "expand": return st.expand(tuple(arg))
  return st.shrink(tuple(map(tuple, arg)))

def state(st, op=None, arg=None):
  rs = lambda xs: [None if x is None else int(x) for x in xs]
  return {"op": op, "arg": arg, "views": [view_json(v) for v in st.views],
          "real_strides": rs(st.real_strides()), "real_strides_ignore_valid": rs(st.real_strides(True)),
          "unit_stride_axes": st.unit_stride_axes(),
          "axis_is_masked": [st.axis_is_masked(i) for i in range(len(st.shape))],
          "real_size": st.real_size()}

def run_case(rng, start, st):
  states = [state(st)]
  for _ in range(rng.randint(1, 8)):
    if 0 in st.shape: break  # nothing to split or merge in an empty shape
    for _ in range(20):  # an op that keeps the ShapeTracker small and cheap to check
      op = random_op(rng, st)
      if op is None: continue
      nst = apply(st, *op)
      if prod(nst.shape) <= MAX_SIZE and len(nst.views) <= 4 and len(nst.shape) <= 8: break
    else: break
    st = nst
    states.append(state(st, *op))
  return {"start": start, "states": states}

def is_hard(state):
  return len(state["views"]) > 1 and (any(x not in (None, 0) for x in state["real_strides_ignore_valid"]) or
                                      any(state["axis_is_masked"]))

def shape_case(i):
  # each pool case has its own random stream, so that one can be rebuilt alone
  rng = random.Random(SEED * 1000003 + i)
  shape = [rng.choice(DIMS) for _ in range(rng.randint(1, 5))]
  while prod(shape) > 4096: shape[shape.index(max(shape))] //= 2
  return dict(run_case(rng, {"shape": shape}, ShapeTracker.from_shape(tuple(shape))), pool_index=i)

def write(path, cases):
  with open(path, "w") as f:
    json.dump({"generator": "gen_cases.py", "tinygrad": "b73e89110e", "seed": SEED, "cases": cases}, f,
              separators=(",", ":"))
    f.write("\n")
  print(f"{len(cases)} cases, {sum(len(c['states']) for c in cases)} states -> {path}")

def main():
  if len(sys.argv) == 4 and sys.argv[1] == "--pool":
    # every case of pool indices [0, N): for finding cases that exercise rare rules
    return write(sys.argv[3], [shape_case(i) for i in range(int(sys.argv[2]))])
  rng = random.Random(SEED)
  cases = []
  for views in corpus_views():
    for _ in range(2):
      cases.append(run_case(rng, {"views": views}, st_from_json(views)))
  hard, plain = [], []
  for i in range(POOL):
    case = shape_case(i)
    (hard if any(is_hard(s) for s in case["states"]) else plain).append(case)
  kept = hard[:KEEP_HARD] + plain[:KEEP_PLAIN]
  seen = {c["pool_index"] for c in kept}
  kept += [shape_case(i) for i in RARE if i not in seen]
  write(os.path.join(HERE, "Inputs", "cases.json"), cases + kept)

if __name__ == "__main__":
  main()

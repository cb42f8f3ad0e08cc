#!/usr/bin/env python3
"""Kernelize + schedule time per graph case: uop-mlir against tinygrad.

  python3 scripts/bench_kernelize.py [--build build] [--shared ../shared] [--reps 3]

tinygrad: ../shared/tinygrad imported in this process; each case's graph is
rebuilt as tinygrad UOps (from case.json, as the cases were captured) and
get_kernelize_map + create_schedule_with_vars are timed, with the case's flags
(tinygrad's ContextVars). uop-mlir: `uop-translate --kernelize-tinygrad-graph
--timing`, which times the same two steps in process (reading the case not
counted; the first case is kernelized once first, uncounted, to warm up the
process as tinygrad's is). Each side's time for a case is the minimum over --reps runs (for
tinygrad, each run rebuilds the graph, so no rewrite result is reused; its
View caches stay warm, as in a long-running program). Prints a Markdown
summary for docs/benchmarks.md. Not a test: it measures this machine."""
import argparse, json, os, re, statistics, subprocess, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

def main():
  ap = argparse.ArgumentParser()
  ap.add_argument("--build", default=os.path.join(ROOT, "build"))
  ap.add_argument("--shared", default=os.path.join(os.path.dirname(ROOT), "shared"))
  ap.add_argument("--reps", type=int, default=3)
  ap.add_argument("--list", action="store_true", help="also list the 10 cases with the smallest ratio")
  args = ap.parse_args()
  graphs = os.path.join(args.shared, "graphs")
  sys.path.insert(0, os.path.join(args.shared, "tinygrad"))
  os.environ.setdefault("CPU", "1")
  from tinygrad.uop.ops import UOp, Ops
  from tinygrad.dtype import dtypes
  from tinygrad.shape.shapetracker import ShapeTracker
  from tinygrad.shape.view import View
  from tinygrad.helpers import Context
  from tinygrad.kernelize.kernelize import get_kernelize_map
  from tinygrad.engine.schedule import create_schedule_with_vars

  names = {"bool": dtypes.bool, "i8": dtypes.int8, "u8": dtypes.uint8, "i16": dtypes.int16, "u16": dtypes.uint16,
           "i32": dtypes.int32, "u32": dtypes.uint32, "i64": dtypes.int64, "u64": dtypes.uint64,
           "f16": dtypes.float16, "bf16": dtypes.bfloat16, "f32": dtypes.float32, "f64": dtypes.float64,
           "void": dtypes.void}
  def st_of(arg):
    return ShapeTracker(tuple(View.create(tuple(v["shape"]), tuple(v["strides"]), v["offset"],
                                          tuple(map(tuple, v["mask"])) if v["mask"] is not None else None)
                              for v in arg["views"]))
  def const_of(v, dt):
    if isinstance(v, str): v = float(v)
    return dtypes.as_const(v, dt)
  def build(graph):
    nodes = []
    for op, dt, arg, src in graph:
      o, d, s = Ops[op], names[dt], tuple(nodes[i] for i in src)
      if o is Ops.BUFFER: arg = arg["size"]
      elif o is Ops.VIEW: arg = st_of(arg)
      elif o is Ops.CONST: arg = const_of(arg, d)
      elif o is Ops.REDUCE_AXIS: arg = (Ops[arg["op"]], tuple(arg["axes"]))
      elif o in (Ops.RESHAPE, Ops.EXPAND, Ops.PERMUTE, Ops.FLIP): arg = tuple(arg)
      elif o in (Ops.PAD, Ops.SHRINK): arg = tuple(map(tuple, arg))
      nodes.append(UOp(o, d, s, arg))
    return nodes[-1]
  flag_names = ["FUSE_ARANGE", "FUSE_CONV_BW", "DONT_REALIZE_EXPAND", "DONT_GROUP_REDUCES", "SPLIT_REDUCEOP"]
  cases = sorted(json.load(open(os.path.join(graphs, "index.json"))))
  theirs, ours, kernels_t = {}, {}, {}
  # Warm the interpreter (imports, first-use caches) on the first case.
  first = json.load(open(os.path.join(graphs, cases[0], "case.json")))
  sink = build(first["graph"]); m = get_kernelize_map(sink); create_schedule_with_vars(UOp.sink(*[m[s] for s in sink.src]))
  for case in cases:
    c = json.load(open(os.path.join(graphs, case, "case.json")))
    ctx = {k: c["flags"][k] for k in flag_names}
    os.environ["REDUCEOP_SPLIT_THRESHOLD"] = str(c["flags"]["REDUCEOP_SPLIT_THRESHOLD"])
    best = None
    for _ in range(args.reps):
      sink = build(c["graph"])
      with Context(**ctx):
        t0 = time.perf_counter()
        m = get_kernelize_map(sink)
        sched, _ = create_schedule_with_vars(UOp.sink(*[m[s] for s in sink.src]))
        dt = (time.perf_counter() - t0) * 1e3
      best = dt if best is None else min(best, dt)
    theirs[case] = best
    kernels_t[case] = sum(1 for si in sched if si.ast.op is Ops.SINK)
  tool = os.path.join(args.build, "bin", "uop-translate")
  paths = [os.path.join(graphs, c, "case.json") for c in cases]
  for _ in range(args.reps):
    # The first case once more in front, not counted: the process warms up
    # (its rule sets are built on first use), as tinygrad's interpreter did.
    p = subprocess.run([tool, "--kernelize-tinygrad-graph", "--timing", paths[0], *paths], capture_output=True,
                       text=True, check=True)
    for line in p.stderr.splitlines()[1:]:
      m_ = re.match(r"(.*)/case\.json: kernelize\+schedule ([0-9.]+) ms", line)
      case = os.path.basename(m_.group(1))
      ours[case] = min(ours.get(case, 1e30), float(m_.group(2)))
  st, so = sum(theirs.values()), sum(ours.values())
  mt, mo = statistics.median(theirs.values()), statistics.median(ours.values())
  ratios = sorted(theirs[c] / ours[c] for c in cases)
  slowest = max(cases, key=lambda c: ours[c])
  print(f"| | tinygrad | uop-mlir | ratio |")
  print(f"| --- | --- | --- | --- |")
  print(f"| sum over {len(cases)} cases | {st:.1f} ms | {so:.2f} ms | {st/so:.0f}x |")
  print(f"| median case | {mt:.2f} ms | {mo:.3f} ms | {mt/mo:.0f}x |")
  print(f"| smallest ratio (a case) | | | {ratios[0]:.0f}x |")
  print(f"| slowest case for uop-mlir ({slowest}) | {theirs[slowest]:.2f} ms | {ours[slowest]:.3f} ms | {theirs[slowest]/ours[slowest]:.0f}x |")
  print(f"\nkernels per tinygrad's schedule in this run: {sum(kernels_t.values())} over {len(cases)} cases")
  if "--list" in sys.argv:
    for c in sorted(cases, key=lambda c: theirs[c] / ours[c])[:10]:
      print(f"  {c}: tinygrad {theirs[c]:.3f} ms, uop-mlir {ours[c]:.3f} ms, {theirs[c]/ours[c]:.1f}x")

main()

#!/usr/bin/env python3
"""Kernelize every case of ../shared/graphs and compare the schedule with
tinygrad's: kernel count, each kernel's AST (structural equality of the DAG
after the canonical export, docs/kernelize.md) and buffer bindings.

  compare_schedules.py UOP_TRANSLATE UOP_OPT GRAPHS_DIR [--verbose] [--case NAME]
      through the IR: uop-translate --import-tinygrad-graph | uop-opt
      --uop-kernelize{the case's flags} | uop-translate --export-tinygrad
  compare_schedules.py UOP_TRANSLATE GRAPHS_DIR [--verbose] [--case NAME]
      in memory: uop-translate --kernelize-tinygrad-graph

Prints one line per mismatching case and N/206 for each check; exits 1 unless
every case matches (unless --report, which always exits 0)."""
import json, os, struct, subprocess, sys

INT_BITS = {"i8": 8, "u8": 8, "i16": 16, "u16": 16, "i32": 32, "u32": 32, "i64": 64, "u64": 64}
FLAGS = [("FUSE_ARANGE", "fuse-arange"), ("FUSE_CONV_BW", "fuse-conv-bw"),
         ("DONT_REALIZE_EXPAND", "dont-realize-expand"), ("DONT_GROUP_REDUCES", "dont-group-reduces"),
         ("SPLIT_REDUCEOP", "split-reduceop"), ("REDUCEOP_SPLIT_THRESHOLD", "reduceop-split-threshold"),
         ("REDUCEOP_SPLIT_SIZE", "reduceop-split-size"), ("MAX_KERNEL_BUFFERS", "max-kernel-buffers")]

def canon_const(v, dtype):
  """A constant as the kernel computes with it: floats rounded to their dtype,
  ints modulo 2^bits (tinygrad keeps Python ints: x - 8 on a u32 is x + -8)."""
  if isinstance(v, str): return v
  if dtype == "bool": return bool(v)
  if dtype in ("f32", "f16", "bf16", "f64"):
    v = float(v)
    if dtype == "f32": return struct.unpack("f", struct.pack("f", v))[0]
    if dtype == "f16": return struct.unpack("e", struct.pack("e", v))[0]
    return v
  return int(v) % (1 << INT_BITS[dtype])

def kernelize_via_ir(translate, opt, path, flags):
  opts = " ".join(f"{o}={(('true' if flags[f] else 'false') if o.startswith(('fuse', 'dont', 'split-reduceop')) else flags[f])}"
                  for f, o in FLAGS if f in flags)
  imp = subprocess.run([translate, "--import-tinygrad-graph", path], capture_output=True, text=True)
  if imp.returncode: return imp.returncode, imp.stderr, None
  ker = subprocess.run([opt, f"--pass-pipeline=builtin.module(uop-kernelize{{{opts}}})"], input=imp.stdout,
                       capture_output=True, text=True)
  if ker.returncode: return ker.returncode, ker.stderr, None
  exp = subprocess.run([translate, "--export-tinygrad"], input=ker.stdout, capture_output=True, text=True)
  if exp.returncode: return exp.returncode, exp.stderr, None
  items = json.loads(exp.stdout)
  return 0, "", [{"kind": x["kind"], "globals": x["globals"], "ast": x.get("nodes", [])} for x in items]

def canon_ast(nodes):
  """Each node as a nested tuple: equal tuples are equal DAGs."""
  memo = []
  for op, dtype, arg, src in nodes:
    if op == "CONST": arg = canon_const(arg, dtype)
    memo.append((op, json.dumps(dtype, sort_keys=True), json.dumps(arg, sort_keys=True), tuple(memo[s] for s in src)))
  return memo[-1]

def main():
  args = [a for a in sys.argv[1:] if not a.startswith("--")]
  verbose, report = "--verbose" in sys.argv, "--report" in sys.argv
  only = sys.argv[sys.argv.index("--case")+1] if "--case" in sys.argv else None
  if only: args = [a for a in args if a != only]
  via_ir = len(args) == 3
  tool, opt, graphs = (args[0], args[1], args[2]) if via_ir else (args[0], None, args[1])
  if not os.path.isdir(graphs):
    print(f"error: the graph cases are missing ({graphs}): nothing was compared"); sys.exit(1)
  index = json.load(open(os.path.join(graphs, "index.json")))
  n = len(index)
  count_ok = ast_ok = bind_ok = 0
  failures = []
  for case in sorted(index):
    if only and case != only: continue
    path = os.path.join(graphs, case, "case.json")
    ref = json.load(open(path))
    if via_ir:
      rc, err, ours = kernelize_via_ir(tool, opt, path, ref["flags"])
    else:
      p = subprocess.run([tool, "--kernelize-tinygrad-graph", path], capture_output=True, text=True)
      rc, err, ours = p.returncode, p.stderr, (json.loads(p.stdout)["schedule"] if p.returncode == 0 else None)
    if rc != 0:
      failures.append(f"{case}: exit {rc}: {err.strip()[:300]}")
      continue
    theirs = ref["schedule"]
    nk = lambda s: sum(1 for x in s if x["kind"] == "kernel")
    if nk(ours) == nk(theirs) and len(ours) == len(theirs): count_ok += 1
    else:
      failures.append(f"{case}: {nk(ours)} kernels ({len(ours)} items), tinygrad {nk(theirs)} ({len(theirs)} items)")
      continue
    # A copy's AST is not a kernel: the schedule says it is a copy and between which buffers.
    a = [canon_ast(x["ast"]) if x["kind"] == "kernel" else "copy" for x in ours]
    b = [canon_ast(x["ast"]) if x["kind"] == "kernel" else "copy" for x in theirs]
    if a == b: ast_ok += 1
    else:
      bad = [i for i in range(len(a)) if a[i] != b[i]]
      failures.append(f"{case}: kernel ASTs differ at {bad}")
      if verbose:
        for i in bad[:2]:
          print(f"--- {case} kernel {i} ours:"); [print("  ", x) for x in ours[i]["ast"]]
          print(f"--- tinygrad:"); [print("  ", x) for x in theirs[i]["ast"]]
      continue
    if [x["globals"] for x in ours] == [x["globals"] for x in theirs]: bind_ok += 1
    else: failures.append(f"{case}: bindings {[x['globals'] for x in ours]} != tinygrad {[x['globals'] for x in theirs]}")
  for f in failures: print(f)
  total = 1 if only else n
  print(f"kernel count: {count_ok}/{total}")
  print(f"kernel ASTs equal: {ast_ok}/{total}")
  print(f"buffer bindings equal: {bind_ok}/{total}")
  sys.exit(0 if report or bind_ok == total else 1)

main()

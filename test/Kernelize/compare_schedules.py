#!/usr/bin/env python3
"""Kernelize every case of ../shared/graphs with uop-translate and compare the
schedule with tinygrad's: kernel count, each kernel's AST (structural equality
of the DAG after the canonical export, docs/kernelize.md) and buffer bindings.

  compare_schedules.py UOP_TRANSLATE GRAPHS_DIR [--verbose] [--case NAME]

Prints one line per mismatching case and N/206 for each check; exits 1 unless
every case matches (unless --report, which always exits 0)."""
import json, os, struct, subprocess, sys

def canon_const(v, dtype):
  if isinstance(v, str) or isinstance(v, bool) or dtype == "bool": return v if not isinstance(v, (int, float)) or isinstance(v, bool) else bool(v)
  if dtype in ("f32", "f16", "bf16", "f64"):
    v = float(v)
    if dtype == "f32": return struct.unpack("f", struct.pack("f", v))[0]
    if dtype == "f16": return struct.unpack("e", struct.pack("e", v))[0]
    return v
  return int(v)

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
  tool, graphs = args[0], args[1]
  if only: args = [a for a in args if a != only]
  index = json.load(open(os.path.join(graphs, "index.json")))
  n = len(index)
  count_ok = ast_ok = bind_ok = 0
  failures = []
  for case in sorted(index):
    if only and case != only: continue
    path = os.path.join(graphs, case, "case.json")
    ref = json.load(open(path))
    p = subprocess.run([tool, "--kernelize-tinygrad-graph", path], capture_output=True, text=True)
    if p.returncode != 0:
      failures.append(f"{case}: uop-translate exit {p.returncode}: {p.stderr.strip()[:300]}")
      continue
    ours = json.loads(p.stdout)["schedule"]
    theirs = ref["schedule"]
    nk = lambda s: sum(1 for x in s if x["kind"] == "kernel")
    if nk(ours) == nk(theirs) and len(ours) == len(theirs): count_ok += 1
    else:
      failures.append(f"{case}: {nk(ours)} kernels ({len(ours)} items), tinygrad {nk(theirs)} ({len(theirs)} items)")
      continue
    a = [canon_ast(x["ast"]) for x in ours]
    b = [canon_ast(x["ast"]) for x in theirs]
    if a == b: ast_ok += 1
    elif sorted(map(repr, a)) == sorted(map(repr, b)): ast_ok += 1
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

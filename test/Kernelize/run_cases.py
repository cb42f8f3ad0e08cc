#!/usr/bin/env python3
"""Runs every graph case of ../shared/graphs through uop-run (import, kernelize,
compile every kernel, run the schedule, compare every result and buffer with
tinygrad's) on one target, and prints N/206: the cases whose results all
match. A case without data (buffers over 65536 elements) still kernelizes,
compiles and runs; it counts as passing only if that succeeds, and the line
says how many had nothing to compare.

  run_cases.py UOP_RUN GRAPHS_DIR TARGET [-j N]"""
import concurrent.futures, json, os, subprocess, sys

def main():
  args = [a for a in sys.argv[1:] if not a.startswith("-j")]
  jobs = int(next((a[2:] for a in sys.argv[1:] if a.startswith("-j")), "2") or 2)
  tool, graphs, target = args
  if not os.path.isdir(graphs):
    print(f"error: the graph cases are missing ({graphs}): nothing was run"); sys.exit(1)
  cases = sorted(json.load(open(os.path.join(graphs, "index.json"))))
  def run(case):
    p = subprocess.run([tool, os.path.join(graphs, case, "case.json"), f"--target={target}"],
                       capture_output=True, text=True)
    return case, p.returncode, p.stdout, p.stderr
  passed, nodata, failures = 0, 0, []
  with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
    for case, rc, out, err in ex.map(run, cases):
      if rc == 0:
        passed += 1
        nodata += "nothing to compare" in out or "no data to compare" in out
      else:
        fails = [l.strip() for l in out.splitlines() if "FAIL" in l and l.strip() != "FAIL"]
        why = err.strip() or (fails[0] if fails else out.strip())
        failures.append(f"{case}: exit {rc}: {why[:400]}")
  for f in failures: print(f)
  print(f"cases passing on {target}: {passed}/{len(cases)} ({nodata} without data: kernelized, compiled and run only)")
  sys.exit(0 if passed == len(cases) else 1)

main()

#!/usr/bin/env python3
"""run_opts.py BIN_DIR CORPUS ORACLE: kernels with explicit opts still compute tinygrad's outputs.

For each legal opt sequence of ORACLE (test/Dialect/UOp/Optimize/Inputs/
tinygrad-apply-opt.json) on a corpus kernel (which has buffer data), runs
`uop-run K.json --opts=...` on the simulator (sm_80 sequences) or the CPU
(cpu sequences) and requires PASS. Sequences with TC are listed as
tc-pending. Exits 1 on any failure.
"""
import json
import os
import subprocess
import sys


def main():
    bin_dir, corpus, oracle = sys.argv[1:4]
    passed, failed, pending = 0, 0, 0
    for case in json.load(open(oracle))["cases"]:
        if case.get("error") or case["kernel"].startswith("perf_"):
            continue
        if "TC:" in case["apply"]:
            pending += 1
            continue
        target = "sim" if case["renderer"] == "ptx_sm80" else "cpu"
        cmd = [os.path.join(bin_dir, "uop-run"), os.path.join(corpus, case["kernel"]),
               f"--target={target}", f"--opts={case['apply']}"]
        r = subprocess.run(cmd, capture_output=True, text=True)
        ok = r.returncode == 0 and "PASS" in r.stdout
        print(f"{'PASS' if ok else 'FAIL'} {target} {case['kernel']} {case['apply']}")
        if not ok:
            print(r.stdout + r.stderr)
        passed += ok
        failed += not ok
    print(f"explicit opts: {passed}/{passed + failed} kernels pass, {pending} tc-pending")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""run_opts.py BIN_DIR CORPUS ORACLE: kernels with explicit opts still compute tinygrad's outputs.

For each legal opt sequence of ORACLE (test/Dialect/UOp/Optimize/Inputs/
tinygrad-apply-opt.json) on a corpus kernel (which has buffer data), runs
`uop-run K.json --opts=...` on the simulator (sm_80 sequences) or the CPU
(cpu sequences) and requires PASS; a sequence with the TC opt must also
put mma.sync in the kernel's PTX (TC:...,1), or none (TC:...,2, the TC's
shapes without WMMA). Exits 1 on any failure.
"""
import json
import os
import subprocess
import sys
import tempfile


def count_mma(bin_dir, kernel, opts):
    """mma.sync instructions in the kernel's PTX for sm_80 with these opts."""
    with tempfile.TemporaryDirectory() as tmp:
        ptx = os.path.join(tmp, "k.ptx")
        subprocess.run([os.path.join(bin_dir, "uop-translate"), "--export-ptx", kernel,
                        f"--opts={opts}", "-o", ptx], capture_output=True)
        return open(ptx).read().count("mma.sync") if os.path.exists(ptx) else -1


def main():
    bin_dir, corpus, oracle = sys.argv[1:4]
    passed, failed, tc = 0, 0, 0
    for case in json.load(open(oracle))["cases"]:
        if case.get("error") or case["kernel"].startswith("perf_"):
            continue
        target = "sim" if case["renderer"] == "ptx_sm80" else "cpu"
        cmd = [os.path.join(bin_dir, "uop-run"), os.path.join(corpus, case["kernel"]),
               f"--target={target}", f"--opts={case['apply']}"]
        r = subprocess.run(cmd, capture_output=True, text=True)
        ok = r.returncode == 0 and "PASS" in r.stdout
        note = ""
        if "TC:" in case["apply"]:
            tc += 1
            mma = count_mma(bin_dir, os.path.join(corpus, case["kernel"]), case["apply"])
            wmma = case["apply"].split(":")[2].split(",")[2] == "1"
            ok = ok and (mma > 0) == wmma
            note = f" ({mma} mma.sync)"
        print(f"{'PASS' if ok else 'FAIL'} {target} {case['kernel']} {case['apply']}{note}")
        if not ok:
            print(r.stdout + r.stderr)
        passed += ok
        failed += not ok
    print(f"explicit opts: {passed}/{passed + failed} kernels pass ({tc} with TC)")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

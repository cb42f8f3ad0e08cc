#!/usr/bin/env python3
"""run_corpus_sim.py BIN_DIR CORPUS [SUMMARY]: every corpus kernel on the SIMT simulator.

For each kernel K.json of the corpus, `uop-run K.json --target=sim --timing`: import, the
uop-to-ptx pipeline up to the GPU-level IR, convert-nvvm-to-sim, JIT, every thread of the grid
simulated, outputs compared with tinygrad's. Prints one line per kernel, then the simulated
threads, their rate, and the wall time of the whole run; "corpus on sim: N/N passed" (also
written to SUMMARY, which scripts/test.sh prints). Exits 1 if any kernel fails or the corpus
is missing.
"""
import glob
import os
import re
import subprocess
import sys
import time


def main():
    bin_dir, corpus = sys.argv[1:3]
    summary_file = sys.argv[3] if len(sys.argv) > 3 else None
    if not os.path.exists(os.path.join(corpus, "index.json")):
        print(f"error: no corpus at {corpus} (expected ../shared/corpus beside the project)")
        sys.exit(1)
    kernels = sorted(glob.glob(os.path.join(corpus, "*", "k*.json")))
    passed, threads, sim_ms = 0, 0, 0.0
    start = time.monotonic()
    for path in kernels:
        name = os.path.relpath(path, corpus)
        r = subprocess.run([os.path.join(bin_dir, "uop-run"), path, "--target=sim", "--timing"],
                           capture_output=True, text=True)
        m = re.search(r"simulated (\d+) threads in \d+ blocks in ([\d.]+) ms", r.stdout)
        ok = r.returncode == 0 and m is not None
        if m:
            threads += int(m.group(1))
            sim_ms += float(m.group(2))
        passed += ok
        errs = re.findall(r"max rel err (\S+):", r.stdout)
        print(f"{'PASS' if ok else 'FAIL'} {name}: max rel err {max(errs, default='-')}, "
              f"{m.group(1) if m else '?'} threads")
        if not ok:
            sys.stdout.write(r.stdout[-2000:] + r.stderr[-2000:])
    wall = time.monotonic() - start
    summary = [f"corpus on sim: {threads} threads simulated in {sim_ms:.0f} ms "
               f"({threads / max(sim_ms, 1e-3) * 1e3:.2e} threads/s); whole run {wall:.1f} s",
               f"corpus on sim: {passed}/{len(kernels)} passed"]
    print("\n".join(summary))
    if summary_file:
        with open(summary_file, "w") as f:
            f.write("\n".join(summary) + "\n")
    sys.exit(0 if kernels and passed == len(kernels) else 1)


if __name__ == "__main__":
    main()

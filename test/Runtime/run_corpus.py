#!/usr/bin/env python3
"""run_corpus.py BIN_DIR CORPUS WORKDIR [SUMMARY]: every corpus kernel, executed on the CPU.

For each kernel K.json of the corpus:
  1. `uop-run K.json --target=cpu --timing --exact`: import, uop-lower,
     convert, JIT, run, compare with tinygrad's outputs bit for bit (f16/bf16
     outputs within uop-run's tolerance: see half_output);
  2. the same kernel through text: `uop-translate --import-tinygrad K.json |
     uop-opt --uop-lower` then `uop-run K.mlir --buffers-from=K.json`, so a
     module that went through a uop-opt pipeline is checked the same way;
  3. likewise with --canonicalize (tinygrad's folding rules) after import
     and after lowering: the rewrites must not change the numbers.
Prints one line per kernel, the median and max of import + pipeline + JIT
milliseconds, and "corpus on cpu: N/N passed" (also written to SUMMARY, which
scripts/test.sh prints at the end). Exits 1 if any kernel fails or the
corpus is missing.
"""
import glob
import json
import os
import re
import statistics
import subprocess
import sys


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def half_output(path):
    """Whether the kernel writes f16/bf16: compared with uop-run's tolerance, as
    tinygrad's C rounds halves where it keeps one in a variable and we round at
    casts and stores only (docs/semantics.md). Every other output bit for bit."""
    with open(path) as f:
        return any(b["expected"] and b["dtype"] in ("f16", "bf16") for b in json.load(f)["buffers"])


def main():
    bin_dir, corpus, work = sys.argv[1:4]
    summary_file = sys.argv[4] if len(sys.argv) > 4 else None
    index = os.path.join(corpus, "index.json")
    if not os.path.exists(index):
        print(f"error: no corpus at {corpus} (expected ../shared/corpus beside the project)")
        sys.exit(1)
    kernels = sorted(glob.glob(os.path.join(corpus, "*", "k*.json")))
    os.makedirs(work, exist_ok=True)
    passed, times = 0, []
    for path in kernels:
        name = os.path.relpath(path, corpus)
        direct = run([os.path.join(bin_dir, "uop-run"), path, "--target=cpu", "--timing"]
                     + ([] if half_output(path) else ["--exact"]))
        m = re.search(r"import ([\d.]+) ms, pipeline ([\d.]+) ms, jit ([\d.]+) ms", direct.stdout)
        mlir = os.path.join(work, name.replace("/", "_").replace(".json", ".mlir"))
        imported = run([os.path.join(bin_dir, "uop-translate"), "--import-tinygrad", path])
        lowered = run([os.path.join(bin_dir, "uop-opt"), "--uop-lower", "-o", mlir],
                      input=imported.stdout)
        via = run([os.path.join(bin_dir, "uop-run"), mlir, "--buffers-from=" + path])
        canon_mlir = mlir.replace(".mlir", ".canon.mlir")
        canon = run([os.path.join(bin_dir, "uop-opt"), "--canonicalize", "--uop-lower",
                     "--canonicalize", "-o", canon_mlir], input=imported.stdout)
        via_canon = run([os.path.join(bin_dir, "uop-run"), canon_mlir, "--buffers-from=" + path])
        steps = (direct, imported, lowered, via, canon, via_canon)
        ok = all(r.returncode == 0 for r in steps)
        if ok and m:
            times.append(sum(float(x) for x in m.groups()))
        passed += ok
        errs = re.findall(r"max rel err (\S+):", direct.stdout)
        print(f"{'PASS' if ok else 'FAIL'} {name}: max rel err {max(errs, default='-')}, "
              f"compile {times[-1] if ok and m else float('nan'):.1f} ms")
        if not ok:
            for r in steps:
                sys.stdout.write(r.stdout[-2000:] + r.stderr[-2000:])
    summary = []
    if times:
        summary.append(f"import+lower+compile ms per kernel: median {statistics.median(times):.1f}, "
                       f"max {max(times):.1f}")
    summary.append(f"corpus on cpu: {passed}/{len(kernels)} passed")
    print("\n".join(summary))
    if summary_file:
        with open(summary_file, "w") as f:
            f.write("\n".join(summary) + "\n")
    sys.exit(0 if kernels and passed == len(kernels) else 1)


if __name__ == "__main__":
    main()

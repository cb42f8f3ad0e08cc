#!/usr/bin/env python3
"""run_ptx_printer_sim.py BIN_DIR OUT_DIR CHIP [--tc-schedule=S] KERNEL.json...: the direct PTX
printer's text, executed.

The kernels go to PTX by uop-mlir's own printer (uop-translate --export-ptx
--ptx-printer=direct), and the PTX runs on the SIMT simulator (uop-run K.ptx
--target=sim, which reads each instruction as the PTX ISA defines it; every
thread of the kernel's launch). Every buffer must end bit for bit as
it ends when the simulator runs the IR the printer read (uop-run K.json --target=sim, which
the other tests compare with tinygrad): the two paths differ only in the printer and the
importer. A kernel without inputs (corpus-perf) gets seeded random ones
(test/Runtime/Sim/run_perf.py's with_buffers). A template that does not compute what its
op means fails here. Prints a line per failure and "ptx printer on sim (CHIP): N/M
passed"; exits 1 if any kernel fails.
"""
import concurrent.futures
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Runtime", "Sim"))
from run_perf import with_buffers  # noqa: E402


def name_of(path):
    """The kernel's name, as uop-translate gives it: <case>_<kernel>."""
    k = json.load(open(path))
    return f"{k['case']}_k{k['kernel']}"


def ptx_on_sim(bin_dir, ptx, path, ref):
    """uop-run's command for PTX text `ptx` (kernel JSON `path`'s buffers) on the simulator,
    every buffer expected bit for bit as in the directory `ref` (uop-run --write-buffers);
    None if `ref` was not written. The differential suite uses it too."""
    if not os.path.isdir(ref):
        return None
    expect = [f"--expect={f[1:-4]}={os.path.join(ref, f)}" for f in sorted(os.listdir(ref))
              if f.startswith("b") and f.endswith(".bin")]
    return [os.path.join(bin_dir, "uop-run"), ptx, f"--buffers-from={path}", "--target=sim",
            "--exact", *expect]


def run_one(bin_dir, out_dir, chip, schedule, path):
    name = name_of(path)
    ptx = os.path.join(out_dir, name + ".ptx")
    # The reference: the same kernel on the simulator through the IR path,
    # every buffer as it ends.
    ref = os.path.join(out_dir, name + ".ref")
    r = subprocess.run([os.path.join(bin_dir, "uop-run"), path, "--target=sim", f"--chip={chip}",
                        *schedule, f"--write-buffers={ref}"], capture_output=True, text=True)
    command = ptx_on_sim(bin_dir, ptx, path, ref)
    if not command:
        return f"reference: {(r.stdout + r.stderr).strip()[-1500:]}"
    r = subprocess.run(command, capture_output=True, text=True)
    if r.returncode != 0 or "PASS" not in r.stdout:
        return f"sim: {(r.stdout + r.stderr).strip()[-1500:]}"
    return None


def main():
    bin_dir, out_dir, chip, *kernels = sys.argv[1:]
    # The tensor-core schedule both paths compile with (default: the heuristic's).
    schedule = [a for a in kernels if a.startswith("--tc-schedule=")]
    kernels = [a for a in kernels if a not in schedule]
    if not kernels:
        print("error: no kernels given")
        return 1
    os.makedirs(out_dir, exist_ok=True)
    prepared = []
    for path in kernels:
        if any(b.get("expected") for b in json.load(open(path))["buffers"]):
            prepared.append(path)
            continue
        want, why = with_buffers(bin_dir, path, os.path.join(out_dir, name_of(path)))
        if not want:
            print(f"FAIL {name_of(path)}: {why}")
            return 1
        prepared.append(want)
    kernels = prepared
    r = subprocess.run([os.path.join(bin_dir, "uop-translate"), "--export-ptx", *kernels,
                        f"--chip={chip}", *schedule, "--ptx-printer=direct", f"--ptx-dir={out_dir}"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        print(f"FAIL export: {r.stderr.strip()[-2000:]}")
        return 1
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        results = list(pool.map(lambda p: (p, run_one(bin_dir, out_dir, chip, schedule, p)), kernels))
    failed = [(p, e) for p, e in results if e]
    for p, e in failed:
        print(f"FAIL {name_of(p)}: {e}")
    print(f"ptx printer on sim ({chip}): {len(kernels) - len(failed)}/{len(kernels)} passed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

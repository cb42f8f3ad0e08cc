#!/usr/bin/env python3
"""check_mma.py BIN_DIR PYTHON GEN_MMA WORKDIR [--uop]: every mma.sync shape and type the simulator implements.

For each combination, generates the documented-layout kernel (must PASS on `uop-run
--target=sim`, exit 0) and each wrong-layout variant (must FAIL, exit 1: a mismatch, not a
crash or a bad-input error). The documented-layout kernel's PTX (uop-translate --export-ptx)
goes to WORKDIR/ptx/ for ptxas and must hold the expected mma.sync instruction. Prints one line
per combination and "mma layouts: N/7".

With --uop, the kernels are uop-level (gen_mma.py --level=uop: one uop.wmma, lowered by
convert-uop-to-gpu) for each tensor core of the target table, on the chip that has it; each
must PASS on sim and its PTX hold the mma.sync. Prints "wmma: N/5".
"""
import os
import subprocess
import sys

COMBOS = [("m16n8k16", "f16", "f32"), ("m16n8k16", "f16", "f16"), ("m16n8k16", "bf16", "f32"),
          ("m16n8k8", "f16", "f32"), ("m16n8k8", "f16", "f16"), ("m16n8k8", "bf16", "f32"),
          ("m16n8k8", "tf32", "f32")]
WRONG = ["a-khalf", "b-transposed", "c-rows"]
# The tensor cores of the target table (TensorCores.cpp) and the oldest chip with each.
TABLE = [("m16n8k16", "f16", "f32", "sm_80"), ("m16n8k16", "f16", "f16", "sm_80"),
         ("m16n8k16", "bf16", "f32", "sm_80"), ("m16n8k8", "tf32", "f32", "sm_80"),
         ("m16n8k8", "f16", "f32", "sm_75")]


def run_case(bin_dir, python, gen, out, combo, wrong=None, chip="sm_80", level="nvvm"):
    cmd = [python, gen, *combo, out, f"--level={level}", f"--chip={chip}"] + (
        [f"--wrong={wrong}"] if wrong else [])
    subprocess.run(cmd, check=True, capture_output=True)
    return subprocess.run([os.path.join(bin_dir, "uop-run"), os.path.join(out, "mma.mlir"),
                           "--buffers-from=" + os.path.join(out, "mma.json"), "--target=sim",
                           f"--chip={chip}"], capture_output=True, text=True)


def export_ptx(bin_dir, out, combo, ptx_dir, chip="sm_80"):
    """The kernel's PTX as ptx_dir/<combo>.ptx; True if it has the combination's mma.sync."""
    shape, a, c = combo
    tmp = os.path.join(out, "ptx")
    os.makedirs(tmp, exist_ok=True)
    subprocess.run([os.path.join(bin_dir, "uop-translate"), "--export-ptx",
                    os.path.join(out, "mma.mlir"), f"--chip={chip}", "--ptx-dir=" + tmp],
                   check=True, capture_output=True)
    target = os.path.join(ptx_dir, "_".join(combo) + ".ptx")
    os.replace(os.path.join(tmp, "mma_k0.ptx"), target)
    with open(target) as f:
        return f"mma.sync.aligned.{shape}.row.col.{c}.{a}.{a}.{c}" in f.read()


def check_uop(bin_dir, python, gen, work):
    """uop.wmma through convert-uop-to-gpu, for each tensor core of the table."""
    good = 0
    for shape, a, c, chip in TABLE:
        combo = (shape, a, c)
        name = "_".join(combo)
        out = os.path.join(work, chip, name)
        r = run_case(bin_dir, python, gen, out, combo, chip=chip, level="uop")
        ok = r.returncode == 0 and r.stdout.rstrip().endswith("PASS")
        ptx_dir = os.path.join(work, "ptx-" + chip)
        os.makedirs(ptx_dir, exist_ok=True)
        has_mma = export_ptx(bin_dir, out, combo, ptx_dir, chip)
        print(f"{chip} {' '.join(combo)}: {'PASS' if ok else 'FAIL'}"
              f"{'' if has_mma else ' (no mma.sync in the PTX)'}")
        if not ok:
            print(r.stdout + r.stderr)
        good += ok and has_mma
    print(f"wmma: {good}/{len(TABLE)}")
    return good == len(TABLE)


def main():
    bin_dir, python, gen, work = sys.argv[1:5]
    if "--uop" in sys.argv[5:]:
        sys.exit(0 if check_uop(bin_dir, python, gen, work) else 1)
    good = 0
    ptx_dir = os.path.join(work, "ptx")
    os.makedirs(ptx_dir, exist_ok=True)
    for combo in COMBOS:
        name = "_".join(combo)
        r = run_case(bin_dir, python, gen, os.path.join(work, name), combo)
        ok = r.returncode == 0 and r.stdout.rstrip().endswith("PASS")
        if not export_ptx(bin_dir, os.path.join(work, name), combo, ptx_dir):
            print(f"{' '.join(combo)}: the PTX lacks its mma.sync instruction")
            ok = False
        caught = []
        for w in WRONG:
            rw = run_case(bin_dir, python, gen, os.path.join(work, f"{name}.{w}"), combo, w)
            if rw.returncode == 1 and "FAIL" in rw.stdout:
                caught.append(w)
            else:
                print(f"{' '.join(combo)} --wrong={w}: exit {rw.returncode}\n{rw.stdout}{rw.stderr}")
        print(f"{' '.join(combo)}: {'PASS' if ok else 'FAIL'}; wrong layouts caught: "
              f"{' '.join(caught)}")
        if not ok:
            print(r.stdout + r.stderr)
        good += ok and len(caught) == len(WRONG)
    print(f"mma layouts: {good}/{len(COMBOS)}")
    sys.exit(0 if good == len(COMBOS) else 1)


if __name__ == "__main__":
    main()

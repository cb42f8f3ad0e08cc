#!/usr/bin/env python3
"""check_ldmatrix.py BIN_DIR PYTHON GEN WORKDIR: cp.async and ldmatrix on the simulator.

For ldmatrix .x1, .x2, .x4, with and without .trans, gen_ldmatrix.py's kernel (cp.async into
shared memory, then each lane's row address to ldmatrix; the expected registers from the PTX
ISA) must PASS on `uop-run --target=sim`, and its PTX (uop-translate --export-ptx, into
WORKDIR/ptx/ for ptxas) must hold the ldmatrix and cp.async instructions. Each wrong variant
must FAIL (exit 1: a mismatch, not a crash), and each hazard must stop the run with the
simulator's error (exit 3), printed. One line per case, then "ldmatrix: N/6, wrong variants
caught: M/12".
"""
import os
import subprocess
import sys


def case(bin_dir, python, gen, out, count, trans, extra=()):
    args = [python, gen, str(count), out] + (["--trans"] if trans else []) + list(extra)
    subprocess.run(args, check=True, capture_output=True)
    return subprocess.run([os.path.join(bin_dir, "uop-run"), os.path.join(out, "ldm.mlir"),
                           "--buffers-from=" + os.path.join(out, "ldm.json"), "--target=sim"],
                          capture_output=True, text=True)


def main():
    bin_dir, python, gen, work = sys.argv[1:5]
    ptx_dir = os.path.join(work, "ptx")
    os.makedirs(ptx_dir, exist_ok=True)
    good, caught = 0, 0
    for count in (1, 2, 4):
        for trans in (False, True):
            name = f"x{count}{'.trans' if trans else ''}"
            out = os.path.join(work, name)
            r = case(bin_dir, python, gen, out, count, trans)
            ok = r.returncode == 0 and r.stdout.rstrip().endswith("PASS")
            ptx = os.path.join(ptx_dir, f"ldm_{count}{'_trans' if trans else ''}.ptx")
            subprocess.run([os.path.join(bin_dir, "uop-translate"), "--export-ptx",
                            os.path.join(out, "ldm.mlir"), "-o", ptx], capture_output=True)
            text = open(ptx).read() if os.path.exists(ptx) else ""
            inst = f"ldmatrix.sync.aligned.m8n8.x{count}{'.trans' if trans else ''}.shared.b16"
            has = inst in text and "cp.async.cg.shared.global" in text
            wrong = []
            for variant in ("rows-by-lane", "untransposed"):
                w = case(bin_dir, python, gen, os.path.join(out, variant), count, trans,
                         [f"--wrong={variant}"])
                wrong.append(w.returncode == 1 and w.stdout.rstrip().endswith("FAIL"))
            caught += sum(wrong)
            good += ok and has
            print(f"{name}: {'PASS' if ok else 'FAIL'}, PTX {'has' if has else 'lacks'} {inst}, "
                  f"wrong variants caught {sum(wrong)}/2")
            if not ok:
                print(r.stdout + r.stderr)
    for hazard in ("no-wait", "no-barrier", "misaligned", "row-align"):
        r = case(bin_dir, python, gen, os.path.join(work, hazard), 4, False, [f"--hazard={hazard}"])
        error = next((l for l in r.stderr.splitlines() if "error:" in l), "(no error)")
        print(f"{hazard}: exit {r.returncode}: {error}")
    print(f"ldmatrix: {good}/6, wrong variants caught: {caught}/12")
    return 0 if good == 6 and caught == 12 else 1


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""check_wgmma.py BIN_DIR PYTHON GEN WORKDIR: Hopper's wgmma.mma_async on the simulator.

For each case (A's and B's tile layouts, N, the input type; one with zero_acc), gen_wgmma.py's
kernel (cp.async of A's and B's shared-memory images, fence.proxy.async, barrier, one
wgmma.mma_async.m64nNk16 by a warpgroup; the expected registers from the PTX ISA) must PASS on
`uop-run --target=sim --chip=sm_90a`, and its PTX (uop-translate --export-ptx --chip=sm_90a,
into WORKDIR/ptx/ for ptxas) must hold the wgmma instructions and fence.proxy.async. Each wrong
variant meaningful for the case must FAIL (exit 1: a mismatch, not a crash), and each hazard
must stop the run with the simulator's error (exit 3), printed. One line per case, then
"wgmma: N/7, wrong variants caught: M/25"; exit 0 only when everything holds.
"""
import os
import subprocess
import sys

CHIP = "sm_90a"
ALL = ("swap-lbo-sbo", "wrong-swizzle", "wrong-major", "acc-rows")
NO_SWAP = ("wrong-swizzle", "wrong-major", "acc-rows")  # no operand uses both LBO and SBO
# name, A's tile, B's tile, N, input type, zero_acc, the wrong variants meaningful for it.
CASES = [("k128.k128.n64.f16", "k/128", "k/128", 64, "f16", False, NO_SWAP),
         ("k128.mn128.n128.f16", "k/128", "mn/128", 128, "f16", False, ALL),
         ("k64.mn64.n64.bf16", "k/64", "mn/64", 64, "bf16", False, ALL),
         ("k32.k32.n32.f16", "k/32", "k/32", 32, "f16", False, NO_SWAP),
         ("k0.mn0.n64.f16", "k/0", "mn/0", 64, "f16", False, ALL),
         ("k128.mn128.n256.bf16", "k/128", "mn/128", 256, "bf16", False, ALL),
         ("k128.k128.n64.f16.zero_acc", "k/128", "k/128", 64, "f16", True, NO_SWAP)]
HAZARDS = ("no-fence", "early-use", "overwrite", "no-proxy-fence", "misaligned")


def run(bin_dir, python, gen, out, spec, extra=()):
    _, a, b, n, dtype, zero_acc, _ = spec
    args = [python, gen, a, b, str(n), dtype, out] + (["--zero-acc"] if zero_acc else []) + list(extra)
    subprocess.run(args, check=True, capture_output=True)
    return subprocess.run([os.path.join(bin_dir, "uop-run"), os.path.join(out, "wgmma.mlir"),
                           "--buffers-from=" + os.path.join(out, "wgmma.json"), "--target=sim",
                           f"--chip={CHIP}"], capture_output=True, text=True)


def main():
    bin_dir, python, gen, work = sys.argv[1:5]
    ptx_dir = os.path.join(work, "ptx")
    os.makedirs(ptx_dir, exist_ok=True)
    good, caught, wrongs = 0, 0, 0
    for spec in CASES:
        name, n, dtype, variants = spec[0], spec[3], spec[4], spec[6]
        out = os.path.join(work, name)
        r = run(bin_dir, python, gen, out, spec)
        ok = r.returncode == 0 and r.stdout.rstrip().endswith("PASS")
        ptx = os.path.join(ptx_dir, f"wgmma_{name.replace('.', '_')}.ptx")
        subprocess.run([os.path.join(bin_dir, "uop-translate"), "--export-ptx",
                        os.path.join(out, "wgmma.mlir"), f"--chip={CHIP}", "-o", ptx], capture_output=True)
        text = open(ptx).read() if os.path.exists(ptx) else ""
        inst = f"wgmma.mma_async.sync.aligned.m64n{n}k16.f32.{dtype}.{dtype}"
        missing = [i for i in (inst, "wgmma.fence.sync.aligned", "wgmma.commit_group.sync.aligned",
                               "wgmma.wait_group.sync.aligned", "fence.proxy.async") if i not in text]
        wrong = []
        for variant in variants:
            w = run(bin_dir, python, gen, os.path.join(out, variant), spec, [f"--wrong={variant}"])
            wrong.append(w.returncode == 1 and w.stdout.rstrip().endswith("FAIL"))
            if not wrong[-1]:
                print(f"{name} --wrong={variant}: exit {w.returncode}\n{w.stdout}{w.stderr}")
        caught += sum(wrong)
        wrongs += len(wrong)
        good += ok and not missing
        ptx_says = f"has {inst}" if not missing else f"lacks {', '.join(missing)}"
        print(f"{name}: {'PASS' if ok else 'FAIL'}, PTX {ptx_says}, wrong variants caught {sum(wrong)}/{len(wrong)}")
        if not ok:
            print(r.stdout + r.stderr)
    stopped = 0
    for hazard in HAZARDS:
        r = run(bin_dir, python, gen, os.path.join(work, hazard), CASES[0], [f"--hazard={hazard}"])
        error = next((l for l in r.stderr.splitlines() if "error:" in l), "(no error)")
        stopped += r.returncode == 3 and error != "(no error)"
        print(f"{hazard}: exit {r.returncode}: {error}")
    print(f"wgmma: {good}/{len(CASES)}, wrong variants caught: {caught}/{wrongs}")
    return 0 if good == len(CASES) and caught == wrongs and stopped == len(HAZARDS) else 1


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""run_perf.py BIN_DIR CORPUS_PERF ANCHORS WORK: the corpus-perf kernels on the simulator.

corpus-perf kernels carry no buffers, so for each kernel:
  1. seeded random inputs, small multiples of 1/8 in [-1, 1] (exact in f16);
  2. the reference: `uop-run --target=cpu --no-opt --write-buffers`, the
     plain loops of the unoptimized kernel;
  3. `uop-run --target=sim` with the default heuristic (tensor cores, upcast
     and unroll axes expanded, vector loads and stores, gated ones too),
     compared with that reference; and the kernel's sm_80 PTX, which must
     have mma.sync exactly where tinygrad's has (mma > 0 in ANCHORS,
     ../shared/anchors/tinygrad_sm80_perf.json).
Prints one line per kernel and a summary; exits 1 on any failure.
"""
import json
import os
import random
import shutil
import struct
import subprocess
import sys

FORMATS = {"f16": "e", "f32": "f"}


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True)


def stored_buffers(nodes):
    """The DEFINE_GLOBAL indices the kernel's STOREs write (through a VIEW)."""
    out = set()
    for op, _, _, srcs in nodes:
        if op == "STORE":
            target = nodes[srcs[0]]
            if target[0] == "VIEW":
                target = nodes[target[3][0]]
            out.add(target[2])
    return out


def with_buffers(bin_dir, kernel_path, work):
    """The kernel as a JSON in `work` with seeded random inputs and, as its expected outputs,
    what the unoptimized kernel computes on the CPU: (that JSON's path, the kernel), or
    (None, why not). scripts/bench_tc.py makes its inputs with this too."""
    kernel = json.load(open(kernel_path))
    name = f"{kernel['case']}_{kernel['kernel']}"
    os.makedirs(work, exist_ok=True)
    rng = random.Random(name)
    outputs = stored_buffers(kernel["nodes"])
    for b in kernel["buffers"]:
        if b["dtype"] not in FORMATS:
            return None, f"buffer dtype {b['dtype']} not generated"
        if b["index"] in outputs:
            continue
        b["input"] = f"in{b['index']}.bin"
        with open(os.path.join(work, b["input"]), "wb") as f:
            f.write(struct.pack(f"<{b['size']}{FORMATS[b['dtype']]}",
                                *(rng.randint(-8, 8) / 8 for _ in range(b["size"]))))
    inputs_json = os.path.join(work, "inputs.json")
    json.dump(kernel, open(inputs_json, "w"))
    ref = run([os.path.join(bin_dir, "uop-run"), inputs_json, "--target=cpu", "--no-opt",
               "--write-buffers=" + os.path.join(work, "ref")])
    if ref.returncode:
        return None, f"reference run: {ref.stdout}{ref.stderr}"
    for b in kernel["buffers"]:
        if b["index"] in outputs:
            b["expected"] = f"want{b['index']}.bin"
            shutil.copy(os.path.join(work, "ref", f"b{b['index']}.bin"),
                        os.path.join(work, b["expected"]))
    want_json = os.path.join(work, "kernel.json")
    json.dump(kernel, open(want_json, "w"))
    return want_json, kernel


def check(bin_dir, kernel_path, work, tinygrad_mma):
    want_json, kernel = with_buffers(bin_dir, kernel_path, work)
    if not want_json:
        return f"FAIL {kernel_path}: {kernel}"
    name = f"{kernel['case']}_{kernel['kernel']}"
    sim = run([os.path.join(bin_dir, "uop-run"), want_json, "--target=sim"])
    ptx = os.path.join(work, "k.ptx")
    run([os.path.join(bin_dir, "uop-translate"), "--export-ptx", kernel_path, "-o", ptx])
    mma = open(ptx).read().count("mma.sync") if os.path.exists(ptx) else 0
    ok = sim.returncode == 0 and sim.stdout.rstrip().endswith("PASS") and (mma > 0) == (tinygrad_mma > 0)
    detail = [line.strip() for line in sim.stdout.splitlines() if "buffer" in line]
    line = f"{'PASS' if ok else 'FAIL'} {name}: {mma} mma.sync (tinygrad {tinygrad_mma}); " + "; ".join(detail)
    return line if ok else line + "\n" + sim.stdout + sim.stderr


def main():
    bin_dir, perf, anchors, work = sys.argv[1:5]
    mma = {e["kernel"]: e.get("mma", 0) for e in json.load(open(anchors))}
    kernels = sorted(os.path.relpath(os.path.join(d, f), perf)
                     for d, _, files in os.walk(perf) for f in files if f.startswith("k") and f.endswith(".json"))
    if not kernels:
        print(f"error: no kernel in {perf}")
        sys.exit(1)
    passed = 0
    for i, k in enumerate(kernels):
        if k not in mma:
            line = f"FAIL {k}: not in {anchors}"
        else:
            line = check(bin_dir, os.path.join(perf, k), os.path.join(work, str(i)), mma[k])
        print(line, flush=True)
        passed += line.startswith("PASS")
    print(f"corpus-perf kernels on sim: {passed}/{len(kernels)} pass, "
          f"{sum(1 for k in kernels if mma.get(k))} with mma.sync as tinygrad's")
    sys.exit(0 if passed == len(kernels) else 1)


if __name__ == "__main__":
    main()

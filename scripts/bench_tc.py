#!/usr/bin/env python3
"""Tensor-core schedules compared: tinygrad's against ours, on the simulator's counters.

For the corpus-perf kernels tinygrad runs on tensor cores (the 1024^3 f16 matmul and the two
attention matmuls), under each tensor-core schedule of uop-optimize (`--tc-schedule`:
tinygrad's, fragments loaded from global memory; staged, tiles copied to shared memory with
cp.async and read with ldmatrix; wgmma, the same tiles multiplied by Hopper's wgmma, sm_90a
only, estimated on the H100 only, or the reason it does not apply; tma, wgmma with the tiles
copied by Hopper's tensor memory accelerator; cluster, tma's in thread-block clusters whose
blocks share their tiles by multicast; splitk, cluster's with K split between pairs of blocks
whose partial sums meet in distributed shared memory), this reports as markdown:
  - the opts, launch dimensions, registers and spills (ptxas -v, sm_80 and sm_90a);
  - from one run on the simulator (seeded random inputs, checked against the unoptimized
    kernel on the CPU): warp instructions per mma.sync and per k16 step of a warp, global
    sectors against the fewest possible, shared-memory bank conflicts, barriers;
  - the roofline estimate on an A100 and an H100 (uop-run --estimate, with ptxas's
    registers for the occupancy): time, the bound and the fraction of the tensor peak that
    time gives the kernel's own flops (padding, which the tensor cores also run, not counted). These are estimates from a model (docs/simulator.md, "Estimates"), not timings.
With --target=cuda (a GPU), it also runs each kernel on the GPU and reports the measured
time and TFLOP/s.

usage: bench_tc.py [--build DIR] [--shared DIR] [--target sim|cuda] [--output FILE]
"""
import argparse
import datetime
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KERNELS = ["perf_matmul_f16_1024/k0.json", "perf_attention/k0.json", "perf_attention/k4.json"]
SCHEDULES = ["tinygrad", "staged", "wgmma", "tma", "cluster", "splitk"]
HOPPER = ("wgmma", "tma", "cluster", "splitk")  # Hopper's schedules: sm_90a only


def die(msg):
    print(f"bench_tc: error: {msg}", file=sys.stderr)
    sys.exit(1)


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def ptxas_path():
    return shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"


def useful_percent(est, flops):
    """The fraction of the tensor peak an estimate's time gives the kernel's own flops: uop-run's
    TFLOP/s counts the flops the tensor cores execute, a padded schedule's (PADTO) included."""
    us, tflops, percent = float(est.group(1)), float(est.group(3)), float(est.group(4))
    peak = tflops / (percent / 100)
    return flops / (us * 1e-6) / 1e12 / peak * 100


def matmul_shape(nodes):
    """(flops, K) of the kernel's sum of products: 2 * output elements * K, the full shape
    being the largest size of each dimension over the kernel's views."""
    shapes = [n[2]["views"][-1]["shape"] for n in nodes if n[0] == "VIEW" and n[2]]
    full = [max(s[i] for s in shapes) for i in range(len(shapes[0]))]
    for op, _, arg, srcs in nodes:
        if op == "REDUCE_AXIS":
            k, out = 1, 1
            for i, d in enumerate(full):
                if i in arg["axes"]:
                    k *= d
                else:
                    out *= d
            return 2 * out * k, k
    die("no REDUCE_AXIS")


def prepare(bin_dir, path, work):
    """The kernel with seeded random inputs and, as expected outputs, the unoptimized kernel's
    results on the CPU, as the perf test makes them (test/Runtime/Sim/run_perf.py)."""
    spec = importlib.util.spec_from_file_location(
        "run_perf", os.path.join(ROOT, "test", "Runtime", "Sim", "run_perf.py"))
    run_perf = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(run_perf)
    kernel_json, kernel = run_perf.with_buffers(bin_dir, path, work)
    if not kernel_json:
        die(f"{path}: {kernel}")
    return kernel_json, kernel


def ptxas_info(bin_dir, path, schedule, chip, work):
    """(registers, spill bytes, launch dims), or None where the schedule does not apply."""
    if schedule in HOPPER and chip != "sm_90a":
        return None
    ptx = os.path.join(work, f"{schedule}-{chip}.ptx")
    r = run([os.path.join(bin_dir, "uop-translate"), "--export-ptx", path, f"--chip={chip}",
             f"--tc-schedule={schedule}", "-o", ptx])
    if r.returncode and schedule in HOPPER:
        return None
    if r.returncode:
        die(f"--export-ptx {path}: {r.stderr}")
    header = open(ptx).readline()
    m = re.search(r"grid=(\S+) block=(\S+)", header)
    if not os.access(ptxas_path(), os.X_OK):
        return None, None, m.groups()
    a = run([ptxas_path(), f"-arch={chip}", "-v", ptx, "-o", os.devnull])
    regs = re.search(r"Used (\d+) registers", a.stderr)
    spill = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", a.stderr)
    return (int(regs.group(1)) if regs else None,
            int(spill.group(1)) + int(spill.group(2)) if spill else None, m.groups())


def simulate(bin_dir, kernel_json, schedule, regs):
    # wgmma, tma and cluster are Hopper's: run for sm_90a, estimated on the H100 only.
    cmd = [os.path.join(bin_dir, "uop-run"), kernel_json, "--target=sim", "--counters",
           f"--tc-schedule={schedule}"]
    cmd += (["--chip=sm_90a", "--estimate=H100"] if schedule in HOPPER
            else ["--estimate=A100,H100"])
    if regs:
        cmd.append(f"--registers={regs}")
    r = run(cmd)
    if r.returncode or not r.stdout.rstrip().endswith("PASS"):
        die(f"{kernel_json} ({schedule}) on the simulator: {r.stdout}{r.stderr}")
    return r.stdout


def on_gpu(bin_dir, kernel_json, schedule):
    r = run([os.path.join(bin_dir, "uop-run"), kernel_json, "--target=cuda", "--timing",
             f"--tc-schedule={schedule}"])
    if r.returncode:
        return None, r.stdout + r.stderr
    m = re.search(r"run ([\d.]+) ms", r.stdout)
    return (float(m.group(1)) if m else None), r.stdout


def num(pattern, text, group=1, cast=int):
    m = re.search(pattern, text)
    return cast(m.group(group)) if m else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--shared", default=os.path.join(os.path.dirname(ROOT), "shared"))
    ap.add_argument("--target", choices=("sim", "cuda"), default="sim")
    ap.add_argument("--output")
    o = ap.parse_args()
    bin_dir = os.path.join(o.build, "bin")
    if not os.access(os.path.join(bin_dir, "uop-run"), os.X_OK):
        die(f"no uop-run in {bin_dir}: build first")
    work = tempfile.mkdtemp(prefix="bench_tc.")
    lines = ["| kernel | schedule | opts | grid / block | regs / spill (sm_80, sm_90a) | "
             "instructions per mma.sync or wgmma | per k16 step of a warp | global sectors / fewest | "
             "bank conflicts | barriers | A100 estimate | H100 estimate |"
             + (" GPU ms | GPU TFLOP/s |" if o.target == "cuda" else ""),
             "|" + "---|" * (12 + (2 if o.target == "cuda" else 0))]
    notes = []
    for rel in KERNELS:
        path = os.path.join(o.shared, "corpus-perf", rel)
        if not os.path.exists(path):
            die(f"{path} not found: clone with ../shared beside the project")
        kernel_json, kernel = prepare(bin_dir, path, os.path.join(work, rel.replace("/", "_")))
        flops, k = matmul_shape(kernel["nodes"])
        for schedule in SCHEDULES:
            on80 = ptxas_info(bin_dir, path, schedule, "sm_80", work)
            on90 = ptxas_info(bin_dir, path, schedule, "sm_90a", work)
            if on90 is None:
                why = run([os.path.join(bin_dir, "uop-translate"), "--export-ptx", path,
                           "--chip=sm_90a", f"--tc-schedule={schedule}", "-o", os.devnull]).stderr
                m = re.search(r"\((.*)\)\s*$", why.strip())
                lines.append(f"| {rel} | {schedule} | not applicable: {m.group(1) if m else why.strip()} |"
                             + " |" * (9 + (2 if o.target == "cuda" else 0)))
                print(lines[-1], file=sys.stderr)
                continue
            regs80, spill80, dims = on80 if on80 else (None, None, on90[2])
            regs90, spill90, _ = on90
            out = simulate(bin_dir, kernel_json, schedule, regs80 or regs90)
            opts = num(r"opts: (\S+)", out, cast=str)
            warps = num(r"counters: (\d+) warps", out)
            total = num(r"(\d+) warp instructions", out)
            mma = num(r" mma (\d+)", out) or num(r" wgmma (\d+)", out) or 0
            ld = re.search(r"global loads: \d+ requests, \d+ bytes, (\d+) sectors \(fewest possible (\d+)\)", out)
            conflicts = sum(int(x) for x in re.findall(r"(\d+) from bank conflicts", out))
            barriers = num(r"(\d+) barriers", out)
            est = {g: re.search(rf"estimate on {g}: ([\d.]+) us, bound by ([^;]+); ([\d.]+) TFLOP/s, "
                                r"([\d.]+)% of the tensor peak", out) for g in ("A100", "H100")}
            per_mma = f"{total / mma:.1f}" if mma else "n/a"
            per_step = f"{total / (warps * k / 16):.0f}" if warps else "n/a"
            regs = (f"{regs80 if on80 else '-'} / {spill80 if on80 else '-'}, {regs90} / {spill90}"
                    if regs90 is not None else "n/a (no ptxas)")
            cell = lambda e: (f"{e.group(1)} us, {useful_percent(e, flops):.1f}% ({e.group(2)})"
                              if e else "n/a")
            row = (f"| {rel} | {schedule} | `{opts}` | {dims[0]} / {dims[1]} | {regs} | {per_mma} | "
                   f"{per_step} | {ld.group(1)} / {ld.group(2)} | {conflicts} | {barriers} | "
                   f"{cell(est['A100'])} | {cell(est['H100'])} |")
            if o.target == "cuda":
                ms, text = on_gpu(bin_dir, kernel_json, schedule)
                row += (f" {ms:.3f} | {flops / (ms * 1e-3) / 1e12:.1f} |" if ms
                        else " failed | |")
                if not ms:
                    notes.append(f"{rel} ({schedule}) on the GPU: {text.strip()}")
            lines.append(row)
            print(row, file=sys.stderr)
    report = [f"- date: {datetime.datetime.now(datetime.timezone.utc).isoformat(timespec='seconds')}",
              f"- ptxas: {run([ptxas_path(), '--version']).stdout.strip().splitlines()[-1] if os.access(ptxas_path(), os.X_OK) else 'not found'}",
              f"- target: {o.target}", ""] + lines + [""] + [f"- {n}" for n in notes]
    text = "\n".join(report) + "\n"
    print(text)
    if o.output:
        open(o.output, "w").write(text)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()

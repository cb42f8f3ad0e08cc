#!/usr/bin/env python3
"""LLVM's optimization level for device code, decided on evidence: -O1 against -O3.

For every kernel of <shared>/corpus (with its inputs and tinygrad's outputs) and of
<shared>/corpus-perf (seeded random inputs, the unoptimized kernel's CPU results as the
expected outputs, as test/Runtime/Sim/run_perf.py makes them), at each level this measures:
  - on the simulator (uop-run --target=sim --opt-level=L --counters --estimate=A100, which
    must PASS): the warp instructions executed (the dynamic count) and the roofline
    estimate on an A100, with ptxas's registers for the occupancy;
  - from the PTX (uop-translate --export-ptx --opt-level=L): ptxas -v registers and spill
    bytes, and the PTX instruction count (scripts/bench_ptx.py's rule);
  - the CPU time of compiling each corpus as one module (uop-translate --timing, median of
    --repeat runs).
and prints the comparison as markdown. Heuristic opts and tinygrad's tensor-core schedule
(--tc-schedule=tinygrad), as bench_ptx.py compiles.

This is a benchmark, not a test: it fails if a tool fails or a simulator run does not PASS.
Without ptxas the register columns are "n/a" and the estimates assume no register limit.

usage: bench_opt_level.py [--build DIR] [--shared DIR] [--levels 1,3] [--repeat 3] [--output FILE]
"""
import argparse
import importlib.util
import os
import re
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


bench_ptx = load("bench_ptx", os.path.join(ROOT, "scripts", "bench_ptx.py"))
run_perf = load("run_perf", os.path.join(ROOT, "test", "Runtime", "Sim", "run_perf.py"))


def die(msg):
    print(f"bench_opt_level: error: {msg}", file=sys.stderr)
    sys.exit(1)


def run(cmd, what):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode:
        die(f"{what} failed (exit {p.returncode}): {' '.join(cmd)}\n{p.stdout}{p.stderr}")
    return p


def static_facts(bin_dir, path, level, ptxas, work):
    """(ptxas facts or None, PTX instruction count) of the kernel's PTX at `level`."""
    ptx_dir = os.path.join(work, f"ptx-O{level}")
    bench_ptx.compile_ptx(os.path.join(bin_dir, "uop-translate"), [path], "sm_80", ptx_dir,
                          f"--export-ptx of {path}", [f"--opt-level={level}"])
    ptx = os.path.join(ptx_dir, bench_ptx.kernel_name(path) + ".ptx")
    return bench_ptx.ptxas_facts(ptxas, "sm_80", ptx), bench_ptx.ptx_facts(ptx)[2]


def simulate(bin_dir, kernel_json, level, regs):
    """(warp instructions, A100 estimate in us, its bound) of one simulator run."""
    cmd = [os.path.join(bin_dir, "uop-run"), kernel_json, "--target=sim", "--counters",
           "--estimate=A100", f"--opt-level={level}", "--tc-schedule=tinygrad"]
    if regs:
        cmd.append(f"--registers={regs}")
    p = run(cmd, f"simulator run of {kernel_json}")
    if not p.stdout.rstrip().endswith("PASS"):
        die(f"{kernel_json} at -O{level} did not PASS on the simulator:\n{p.stdout}")
    warp = re.search(r"(\d+) warp instructions", p.stdout)
    est = re.search(r"estimate on A100: ([\d.]+) us, bound by ([^;]+);", p.stdout)
    if not warp or not est:
        die(f"no counters or estimate in the simulator's output for {kernel_json}")
    return int(warp.group(1)), float(est.group(1)), est.group(2)


def compile_cpu(bin_dir, paths, level, repeat, work):
    """Median CPU ms of compiling `paths` as one module (bench_ptx.compile_ptx's)."""
    return statistics.median(
        bench_ptx.compile_ptx(os.path.join(bin_dir, "uop-translate"), paths, "sm_80",
                              os.path.join(work, "whole"), "whole-corpus compile",
                              [f"--opt-level={level}"])["cpu"]
        for _ in range(repeat))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--shared", default=os.path.join(ROOT, "..", "shared"))
    ap.add_argument("--levels", default="1,3")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--output")
    args = ap.parse_args()
    levels = [int(x) for x in args.levels.split(",")]
    bin_dir = os.path.join(os.path.abspath(args.build), "bin")
    ptxas = bench_ptx.PTXAS if os.access(bench_ptx.PTXAS, os.X_OK) else None
    corpora = {name: bench_ptx.corpus_kernels(os.path.join(args.shared, name))
               for name in ("corpus", "corpus-perf")}
    rows = {}  # (corpus, key) -> {level: facts}
    cpu = {}   # (corpus, level) -> ms
    with tempfile.TemporaryDirectory(prefix="bench_opt_level.") as work:
        for corpus, kernels in corpora.items():
            for i, (key, path) in enumerate(kernels):
                print(f"bench_opt_level: {corpus}/{key}", file=sys.stderr)
                kwork = os.path.join(work, corpus, str(i))
                if corpus == "corpus":
                    kernel_json = path
                else:
                    kernel_json, why = run_perf.with_buffers(bin_dir, path, kwork)
                    if not kernel_json:
                        die(f"{path}: {why}")
                facts = {}
                for level in levels:
                    regs, instrs = static_facts(bin_dir, path, level, ptxas, kwork)
                    r = regs["regs"] if regs and regs.get("ok") else None
                    warp, us, bound = simulate(bin_dir, kernel_json, level, r)
                    facts[level] = {"ptxas": regs, "instrs": instrs, "warp": warp, "us": us,
                                    "bound": bound}
                rows[(corpus, key)] = facts
            for level in levels:
                cpu[(corpus, level)] = compile_cpu(bin_dir, [p for _, p in kernels], level,
                                                   args.repeat, work)
    text = "\n".join(report(rows, cpu, corpora, levels, bool(ptxas), args.repeat)) + "\n"
    sys.stdout.write(text)
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)


def report(rows, cpu, corpora, levels, have_ptxas, repeat):
    lv = lambda cell: " / ".join(cell(l) for l in levels)
    names = " / ".join(f"-O{l}" for l in levels)
    regs = lambda f: str(f["ptxas"]["regs"]) if f["ptxas"] and f["ptxas"].get("ok") else "n/a"
    out = [f"## LLVM -O levels for device code ({names})", "",
           f"- ptxas: {'found' if have_ptxas else 'NOT found: registers n/a, estimates without a register limit'}",
           f"- compile CPU times: median of {repeat} runs of each corpus as one module", ""]
    head = ["kernel", f"warp instructions ({names})", f"A100 estimate us ({names})",
            f"registers ({names})", f"PTX instructions ({names})"]
    out += ["### corpus-perf, per kernel", "", "| " + " | ".join(head) + " |",
            "|" + "---|" * len(head)]
    for key, _ in corpora["corpus-perf"]:
        f = rows[("corpus-perf", key)]
        out.append("| " + " | ".join([
            key, lv(lambda l: str(f[l]["warp"])),
            lv(lambda l: f"{f[l]['us']:.2f} ({f[l]['bound']})"), lv(lambda l: regs(f[l])),
            lv(lambda l: str(f[l]["instrs"]))]) + " |")
    out += ["", "### Totals", "",
            "| corpus | level | warp instructions | A100 estimate, sum us | registers, sum | "
            "spill bytes | PTX instructions | compile CPU ms |", "|---|---|---|---|---|---|---|---|"]
    for corpus, kernels in corpora.items():
        for l in levels:
            fs = [rows[(corpus, k)][l] for k, _ in kernels]
            ok = [f["ptxas"] for f in fs if f["ptxas"] and f["ptxas"].get("ok")]
            out.append(f"| {corpus} ({len(kernels)}) | -O{l} | {sum(f['warp'] for f in fs)} | "
                       f"{sum(f['us'] for f in fs):.2f} | "
                       f"{sum(r['regs'] for r in ok) if ok else 'n/a'} | "
                       f"{sum(r['spill'] for r in ok) if ok else 'n/a'} | "
                       f"{sum(f['instrs'] for f in fs)} | {cpu[(corpus, l)]:.1f} |")
    if len(levels) == 2:
        a, b = levels
        out += ["", f"### Per kernel, -O{a} against -O{b}", ""]
        for corpus, kernels in corpora.items():
            fewer = [k for k, _ in kernels if rows[(corpus, k)][a]["warp"] < rows[(corpus, k)][b]["warp"]]
            more = [k for k, _ in kernels if rows[(corpus, k)][a]["warp"] > rows[(corpus, k)][b]["warp"]]
            slower = [f"{k} ({rows[(corpus, k)][a]['us']:.2f} vs {rows[(corpus, k)][b]['us']:.2f} us)"
                      for k, _ in kernels if rows[(corpus, k)][a]["us"] > rows[(corpus, k)][b]["us"]]
            out += [f"- {corpus}: -O{a} executes fewer warp instructions on {len(fewer)}, more on "
                    f"{len(more)} of {len(kernels)} kernels; its A100 estimate is longer on "
                    f"{len(slower)}" + (f": {', '.join(slower)}" if slower else "")]
    return out


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Compile-time and code-quality benchmark: uop-translate --export-ptx against tinygrad.

For every kernel of <shared>/corpus-perf (compile-only kernels at model sizes) this
measures, and prints as markdown:
  - our in-process compile time: MLIR's "Total Execution Time" from --mlir-timing,
    median of --repeat runs, each kernel compiled alone in its own process;
  - our wall-clock time for the whole process (start-up + JSON import + compile + write),
    and the difference (start-up/import overhead); plus plain process start-up, i.e. the
    wall time of `uop-translate --import-tinygrad` on the smallest corpus kernel;
  - one compile of the whole corpus as a single module: total time, time per kernel and
    the most expensive passes;
  - ptxas -v on our PTX (registers, spill bytes), our PTX instruction count, mma.sync
    count and vector memory instructions (ld/st .v2/.v4, global and shared), with
    tinygrad's heuristic opts (the default) and, for comparison, without (--no-opt);
next to tinygrad's and nvcc's figures from <shared>/anchors/tinygrad_sm80_perf.json,
and the vector ld/st count of tinygrad's own PTX (recorded by
test/Dialect/UOp/Optimize/gen_tinygrad_opts.py in Inputs/tinygrad-opts.json).

Caveat: tinygrad's figure is get_program (heuristic opts, lowering, linearizing,
rendering PTX) in a warm process. We apply the same heuristic opts and expand
upcast and unroll axes as its expander does, but LLVM schedules and unrolls
further, so the PTX differs.

This is a benchmark, not a test: it fails only if uop-translate is missing or a
compile fails. Without ptxas the register/spill columns are "n/a".

usage: bench_ptx.py [--build DIR] [--shared DIR] [--chip sm_80] [--repeat 5] [--output FILE]
"""
import argparse
import datetime
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PTXAS = "/usr/local/cuda/bin/ptxas"
TOTAL_RE = re.compile(r"Total Execution Time:\s*([\d.]+) seconds")
# One row of the timing report: one or more "secs (pct%)" columns, then the indented name.
ROW_RE = re.compile(r"^\s*((?:[\d.]+ \(\s*[\d.]+%\)\s+)*[\d.]+ \(\s*[\d.]+%\))  ( *)(\S.*)$")
HEADER_RE = re.compile(r"^// uop-mlir kernel (\S+) grid=(\S+) block=(\S+)")
COUNT_RULE = ("PTX instructions = lines between the kernel's opening `{` and its closing `}`, "
              "stripped, that are not empty, not `//` comments, not labels (ending in `:`), "
              "not lone braces and not directives (starting with `.`, e.g. `.reg`); "
              "predicated instructions (`@%p bra ...`) and instructions written over several "
              "lines (an `mma.sync` and its operands, up to the `;`) count as one.")


def die(msg):
    print(f"bench_ptx: error: {msg}", file=sys.stderr)
    sys.exit(1)


def kernel_name(path):
    """perf_attention/k0.json -> perf_attention_k0, as uop-translate names it."""
    case = os.path.basename(os.path.dirname(path))
    stem = os.path.splitext(os.path.basename(path))[0]
    return re.sub(r"[^A-Za-z0-9]", "_", f"{case}_{stem}")


def corpus_kernels(corpus):
    """[(key 'case/kN.json', absolute path)] in index.json order (or sorted dirs)."""
    index = os.path.join(corpus, "index.json")
    if os.path.exists(index):
        with open(index) as f:
            cases = json.load(f).items()
    else:
        cases = [(c, sorted((k for k in os.listdir(os.path.join(corpus, c))
                             if re.fullmatch(r"k\d+\.json", k)), key=lambda k: int(k[1:-5])))
                 for c in sorted(os.listdir(corpus)) if os.path.isdir(os.path.join(corpus, c))]
    return [(f"{c}/{k}", os.path.join(corpus, c, k)) for c, ks in cases for k in ks]


def run(cmd, what):
    """Run cmd; return (wall ms, stdout, stderr); exit non-zero if it fails."""
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    wall = (time.perf_counter() - t0) * 1e3
    if p.returncode != 0:
        die(f"{what} failed (exit {p.returncode}): {' '.join(cmd)}\n{p.stderr.strip()}")
    return wall, p.stdout, p.stderr


def parse_timing(report):
    """(total ms, [(indent, name, wall ms)]) from an --mlir-timing report."""
    m = TOTAL_RE.search(report)
    if not m:
        die("no 'Total Execution Time' in the --mlir-timing output")
    rows = []
    for line in report.splitlines():
        r = ROW_RE.match(line)
        if r:
            wall = float(re.findall(r"([\d.]+) \(", r.group(1))[-1])  # last column: wall
            rows.append((len(r.group(2)), r.group(3).strip(), wall * 1e3))
    return float(m.group(1)) * 1e3, rows


def pass_totals(rows):
    """{pass name: (wall ms summed over its instances, instances)}, without pipelines
    (sums of their nested passes), analyses (inside their pass's time), Rest and Total."""
    totals = {}
    for _, name, ms in rows:
        if name.endswith("Pipeline") or name.startswith("(A)") or name in ("Rest", "Total"):
            continue
        t, n = totals.get(name, (0.0, 0))
        totals[name] = (t + ms, n + 1)
    return totals


def compile_ptx(tool, files, chip, ptx_dir, what, extra=()):
    """One --export-ptx process with --mlir-timing: (wall ms, in-process ms, rows). The
    tensor-core kernels keep tinygrad's schedule (--tc-schedule=tinygrad), so that every
    kernel is compared with tinygrad's and nvcc's compile of the same schedule
    (scripts/bench_tc.py compares the schedules)."""
    cmd = [tool, "--export-ptx", *files, f"--chip={chip}", f"--ptx-dir={ptx_dir}", "--mlir-timing",
           "--tc-schedule=tinygrad", *extra]
    wall, _, err = run(cmd, what)
    total, rows = parse_timing(err)
    return wall, total, rows


VEC_RE = re.compile(r"^(ld|st)\.(global|shared)(\.\w+)*\.v[24]\b")


def ptx_facts(path):
    """(grid, block, instruction count, mma.sync count, vector ld/st count) of our PTX."""
    with open(path) as f:
        lines = f.read().splitlines()
    m = HEADER_RE.match(lines[0]) if lines else None
    grid, block = (m.group(2), m.group(3)) if m else ("?", "?")
    count, mma, vec, depth = 0, 0, 0, 0
    statement = ""  # an instruction spanning lines (mma's operands) ends at its `;`
    for line in lines:
        s = line.strip()
        if statement:
            statement += " " + s
        elif s == "{":
            depth += 1
            continue
        elif s == "}":
            depth -= 1
            continue
        elif depth > 0 and s and not s.startswith(("//", ".")) and not s.endswith(":"):
            statement = s
        if statement and statement.endswith(";"):
            count += 1
            op = re.sub(r"^@!?%\w+\s+", "", statement)  # the predicate of `@%p ld...`
            mma += op.startswith("mma.sync")
            vec += bool(VEC_RE.match(op))
            statement = ""
    return grid, block, count, mma, vec


def ptxas_facts(ptxas, chip, path):
    """'regs / spill' of ptxas -v on path, 'fail' if ptxas rejects it, None without ptxas."""
    if not ptxas:
        return None
    p = subprocess.run([ptxas, f"-arch={chip}", "-v", path, "-o", os.devnull],
                       capture_output=True, text=True)
    if p.returncode != 0:
        return {"ok": False, "err": (p.stderr.strip().splitlines() or ["?"])[0]}
    out = p.stdout + p.stderr
    regs = re.search(r"Used (\d+) registers", out)
    spill = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", out)
    return {"ok": True, "regs": int(regs.group(1)) if regs else 0,
            "spill": int(spill.group(1)) + int(spill.group(2)) if spill else 0}


def fmt_regs(facts):
    if facts is None:
        return "n/a"
    if not facts.get("ok"):
        return "**fail**"
    return f"{facts['regs']} / {facts['spill']}"


def machine_facts(tool, chip, ptxas):
    version = "ptxas not found"
    if ptxas:
        out = subprocess.run([ptxas, "--version"], capture_output=True, text=True).stdout
        version = next((l for l in out.splitlines() if "release" in l), out.strip())
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    return [f"- nproc: {os.cpu_count()}; load average at start: {load}",
            f"- date: {datetime.datetime.now().astimezone().isoformat(timespec='seconds')}",
            f"- chip: {chip}", f"- uop-translate: {tool}", f"- ptxas: {version}"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--shared", default=os.path.join(ROOT, "..", "shared"))
    ap.add_argument("--chip", default="sm_80")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--output", help="also write the markdown report to this file")
    args = ap.parse_args()
    if args.repeat < 1:
        die("--repeat must be at least 1")

    tool = os.path.abspath(os.path.join(args.build, "bin", "uop-translate"))
    if not os.access(tool, os.X_OK):
        die(f"uop-translate not found at {tool} (build it, or pass --build)")
    corpus = os.path.abspath(os.path.join(args.shared, "corpus-perf"))
    with open(os.path.join(args.shared, "anchors", "tinygrad_sm80_perf.json")) as f:
        anchors = {row["kernel"]: row for row in json.load(f)}
    with open(os.path.join(ROOT, "test", "Dialect", "UOp", "Optimize", "Inputs", "tinygrad-opts.json")) as f:
        tg_vec = {r["kernel"]: r.get("ptx_vector_ld", 0) + r.get("ptx_vector_st", 0)
                  for r in json.load(f)["kernels"]["ptx_sm80"] if r.get("corpus") == "corpus-perf"}
    ptxas = PTXAS if os.access(PTXAS, os.X_OK) else shutil.which("ptxas")
    kernels = corpus_kernels(corpus)
    out = ["# uop-mlir PTX benchmark: corpus-perf against tinygrad", ""]
    out += machine_facts(tool, args.chip, ptxas) + [""]
    if not ptxas:
        warn = "**WARNING: ptxas not found: register/spill columns are NOT measured (n/a).**"
        print(warn, file=sys.stderr)
        out += [warn, ""]

    rows, tmp = [], tempfile.mkdtemp(prefix="bench_ptx.")
    try:
        for key, path in kernels:
            print(f"bench_ptx: {key}", file=sys.stderr)
            runs = [compile_ptx(tool, [path], args.chip, tmp, f"compile of {key}")
                    for _ in range(args.repeat)]
            ptx = os.path.join(tmp, kernel_name(path) + ".ptx")
            grid, block, instrs, mma, vec = ptx_facts(ptx)
            row = {"key": key, "wall": statistics.median(r[0] for r in runs),
                   "ms": statistics.median(r[1] for r in runs), "grid": grid,
                   "block": block, "instrs": instrs, "mma": mma, "vec": vec,
                   "ptxas": ptxas_facts(ptxas, args.chip, ptx), "tg": anchors.get(key),
                   "tg_vec": tg_vec.get(key)}
            compile_ptx(tool, [path], args.chip, tmp, f"--no-opt compile of {key}", ["--no-opt"])
            row["noopt_ptxas"] = ptxas_facts(ptxas, args.chip, ptx)
            rows.append(row)
        print("bench_ptx: whole corpus as one module", file=sys.stderr)
        whole = sorted((compile_ptx(tool, [p for _, p in kernels], args.chip, tmp,
                                    "whole-corpus compile") for _ in range(args.repeat)),
                       key=lambda r: r[1])[(args.repeat - 1) // 2]
        smallest = min(kernels, key=lambda k: len(json.load(open(k[1]))["nodes"]))
        startup = statistics.median(
            run([tool, "--import-tinygrad", smallest[1], "-o", os.devnull], "import")[0]
            for _ in range(args.repeat))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    out += report_table(rows) + [""] + report_summary(rows, whole, smallest[0], startup,
                                                      len(kernels), args.repeat, bool(ptxas))
    text = "\n".join(out) + "\n"
    sys.stdout.write(text)
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)


def report_table(rows):
    head = ["kernel", "our ms (in-process)", "tinygrad ms", "ratio tinygrad/ours", "our wall ms",
            "our grid / block", "tinygrad global / local", "our regs / spill",
            "tinygrad regs / spill", "nvcc regs / spill", "our regs / spill, no opts",
            "our PTX instrs", "tinygrad ptx_lines", "nvcc ptx lines", "our mma / tinygrad's",
            "our vector ld/st", "tinygrad's vector ld/st"]
    out = ["## Per kernel", "", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    dims = lambda v: ",".join(map(str, v)) if v else "?"
    for r in rows:
        tg = r["tg"] or {}
        tg_ms = tg.get("tinygrad_ptx_ms")
        cells = [r["key"], f"{r['ms']:.1f}", f"{tg_ms:.1f}" if tg_ms else "n/a",
                 f"{tg_ms / r['ms']:.1f}x" if tg_ms else "n/a", f"{r['wall']:.1f}",
                 f"{r['grid']} / {r['block']}",
                 f"{dims(tg.get('global'))} / {dims(tg.get('local'))}",
                 fmt_regs(r["ptxas"]), fmt_regs(tg.get("ptxas")), fmt_regs(tg.get("nvcc_ptxas")),
                 fmt_regs(r["noopt_ptxas"]), str(r["instrs"]), str(tg.get("ptx_lines", "n/a")),
                 str(tg.get("nvcc_ptx_lines", "n/a")), f"{r['mma']} / {tg.get('mma', 'n/a')}",
                 str(r["vec"]), str(r["tg_vec"]) if r["tg_vec"] is not None else "n/a"]
        out.append("| " + " | ".join(cells) + " |")
    return out


def report_summary(rows, whole, smallest, startup, nkernels, repeat, have_ptxas):
    med = statistics.median
    paired = [r for r in rows if r["tg"]]
    ours = [r["ms"] for r in paired]
    tg = [r["tg"]["tinygrad_ptx_ms"] for r in paired]
    walls = [r["wall"] for r in rows]
    if not paired:
        die("no kernel of corpus-perf has a row in tinygrad_sm80_perf.json")
    sum_ratio, med_ratio = sum(tg) / sum(ours), med(tg) / med(ours)
    per_kernel = med(t / o for t, o in zip(tg, ours))
    whole_wall, whole_ms, whole_rows = whole
    top = sorted(pass_totals(whole_rows).items(), key=lambda kv: -kv[1][0])[:5]
    top = [f"{n}{f' (x{k})' if k > 1 else ''} {ms:.1f} ms ({ms / whole_ms:.0%})"
           for n, (ms, k) in top]
    rest = next((ms for _, n, ms in whole_rows if n == "Rest"), 0.0)
    overhead = [r["wall"] - r["ms"] for r in rows]
    spills = sum(r["ptxas"]["spill"] for r in rows if r["ptxas"] and r["ptxas"].get("ok"))
    fails = [r["key"] for r in rows if r["ptxas"] and not r["ptxas"].get("ok")]
    yes = lambda ok: "**met**" if ok else "**not met**"
    out = ["## Summary", "",
           f"Timings are medians of {repeat} run(s), each its own process.", "",
           f"- kernels: {nkernels} ({len(paired)} with a tinygrad anchor)",
           f"- sum: ours {sum(ours):.1f} ms, tinygrad {sum(tg):.1f} ms, "
           f"ratio tinygrad/ours {sum_ratio:.2f}x",
           f"- median: ours {med(ours):.1f} ms, tinygrad {med(tg):.1f} ms, "
           f"ratio tinygrad/ours {med_ratio:.2f}x (median of per-kernel ratios {per_kernel:.2f}x)",
           f"- our wall-clock per kernel process: sum {sum(walls):.1f} ms, median {med(walls):.1f} ms;"
           f" start-up + import overhead (wall - in-process): median {med(overhead):.1f} ms",
           f"- plain process start-up (`--import-tinygrad` of {smallest} to /dev/null): "
           f"{startup:.1f} ms wall",
           f"- whole corpus as one module ({nkernels} kernels, one process): in-process "
           f"{whole_ms:.1f} ms ({whole_ms / nkernels:.1f} ms per kernel), wall {whole_wall:.1f} ms",
           f"- most expensive passes in that run (share of in-process time): " + "; ".join(top)
           + f"; unattributed 'Rest' {rest:.1f} ms ({rest / whole_ms:.0%})",
           f"- total spill bytes (stores + loads) over our kernels: "
           + (f"{spills} (goal: 0)" if have_ptxas else "n/a (ptxas not found)"),
           f"- ptxas failures: " + (", ".join(fails) if fails else "none" if have_ptxas else "n/a"),
           *quality_goals(rows, have_ptxas),
           f"- goal 10x faster than tinygrad: sum-based {yes(sum_ratio >= 10)} ({sum_ratio:.2f}x), "
           f"median-based {yes(med_ratio >= 10)} ({med_ratio:.2f}x)",
           "", "Notes:", "",
           "- tinygrad's ms is get_program in a warm process with its heuristic opts; ours "
           "applies the same opts and expands upcast and unroll axes as tinygrad's expander "
           "does; LLVM then schedules and unrolls further, so the PTX differs.",
           f"- {COUNT_RULE} tinygrad's and nvcc's line counts are the anchor file's figures."]
    return out


def quality_goals(rows, have_ptxas):
    """The code-quality goals: registers within nvcc's + 10%, mma where tinygrad has it."""
    if not have_ptxas:
        return ["- register goal: n/a (ptxas not found)"]
    ok = [r for r in rows if r["ptxas"] and r["ptxas"].get("ok") and r["tg"]
          and (r["tg"].get("nvcc_ptxas") or {}).get("ok")]
    within = [r for r in ok if r["ptxas"]["regs"] <= 1.1 * r["tg"]["nvcc_ptxas"]["regs"]]
    over = [f"{r['key']} ({r['ptxas']['regs']} vs {r['tg']['nvcc_ptxas']['regs']})"
            for r in ok if r not in within]
    tc = [r for r in rows if r["tg"] and r["tg"].get("mma")]
    return [f"- registers <= nvcc's + 10%: {len(within)}/{len(ok)} kernels"
            + (f"; over: {', '.join(over)}" if over else ""),
            f"- mma.sync where tinygrad uses tensor cores: {sum(r['mma'] > 0 for r in tc)}/"
            f"{len(tc)} ({', '.join(r['key'] for r in tc)})",
            f"- kernels with vector loads/stores (.v2/.v4): ours {sum(r['vec'] > 0 for r in rows)}/{len(rows)}, "
            f"tinygrad's {sum((r['tg_vec'] or 0) > 0 for r in rows)}/{len(rows)} (NVPTX spells our pairs of "
            "halves as one .b32 access, which this count misses; test/Integration/vectors.test counts "
            "at the uop level)"]


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Compile-time and code-quality benchmark: uop-translate --export-ptx against tinygrad.

Compile time, for ../shared/corpus (70 kernels) and ../shared/corpus-perf (16, at model
sizes), each against tinygrad's get_program on this machine in this run
(scripts/tinygrad_ptx_times.py, ../shared/tinygrad; each kernel's median over --repeat
processes, each warmed on the other corpus first), or with --tinygrad-figures=anchors
against the figures ../shared/anchors recorded (another day; this machine's speed drifts):
  - each corpus as one module in one process: the CPU time of compiling it (uop-translate
    --timing: "compile and write", every thread), the process's wall time, the most
    expensive passes (--mlir-timing), against the sum of tinygrad's milliseconds;
  - each kernel alone in its own process: its compile CPU time (median of --repeat runs,
    one per round over the corpus),
    against tinygrad's median kernel, and the CPU time of the whole process (start-up,
    JSON import, compile, write; from the kernel's rusage);
  - each kernel in a warm process (--separate: a module per kernel, one pass manager for all,
    the second of two rounds), as tinygrad's figures are measured;
  - process start-up: the CPU time of the tool's `--list-tinygrad-ops` (--tool: uop-translate,
    which links no LLVM back end and runs uop-translate-llvm for LLVM's printer, or
    uop-translate-llvm itself).
Code quality, for corpus-perf with tinygrad's heuristic opts (and, for comparison, without,
--no-opt): ptxas -v on our PTX (registers, spill bytes), our PTX instruction count, mma.sync
count, fma count and vector memory instructions (ld/st .v2/.v4, global and shared), next to
tinygrad's and nvcc's figures from ../shared/anchors/tinygrad_sm80_perf.json, the vector
ld/st count of tinygrad's own PTX and nvcc's fma count (recorded by
test/Dialect/UOp/Optimize/gen_tinygrad_opts.py in Inputs/tinygrad-opts.json and, with
--nvcc, Inputs/nvcc-sm80.json).
The goals of issue 23 are checked at the end: >= 4x tinygrad on each corpus's sum, faster
than tinygrad on the median kernel, a one-kernel process under 15 ms CPU, registers within
nvcc's + 10% and no spills.

Caveat: tinygrad's figure is get_program (heuristic opts, lowering, linearizing,
rendering PTX) in a warm process. We apply the same heuristic opts and expand
upcast and unroll axes as its expander does, but LLVM schedules and unrolls
further, so the PTX differs.

This is a benchmark, not a test: it fails only if uop-translate is missing or a
compile fails. Without ptxas the register/spill columns are "n/a".

With --ptx-printer=direct every compile uses uop-mlir's own PTX printer instead of LLVM's
NVPTX backend (uop-translate --ptx-printer, docs/compile-speed.md). uop-translate has no LLVM
back end: with LLVM's printer each of its processes becomes uop-translate-llvm (execv; the
rusage counts both); --tool=uop-translate-llvm runs that tool directly.

usage: bench_ptx.py [--build DIR] [--shared DIR] [--chip sm_80] [--repeat 5] [--output FILE]
                    [--ptx-printer llvm|direct] [--tool uop-translate|uop-translate-llvm]
                    [--startup-of DIR]... [--tinygrad-figures live|anchors] [--cpu N]

--cpu N pins it all to one CPU: this project's 2-CPU virtual machines have run one CPU
1.2-1.5x slower than the other for hours (docs/benchmarks.md), which alone decides whether a
large kernel's process is under 15 ms.
"""
import argparse
import datetime
import json
import os
import re
import resource
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


def children_cpu_ms():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (r.ru_utime + r.ru_stime) * 1e3


def run(cmd, what, stdout=subprocess.PIPE):
    """Run cmd; return (wall ms, process CPU ms, stdout, stderr); exit non-zero if it fails.
    The CPU time is the process's (user + system, every thread), from its rusage."""
    cpu0, t0 = children_cpu_ms(), time.perf_counter()
    p = subprocess.run(cmd, stdout=stdout, stderr=subprocess.PIPE, text=True)
    wall, cpu = (time.perf_counter() - t0) * 1e3, children_cpu_ms() - cpu0
    if p.returncode != 0:
        die(f"{what} failed (exit {p.returncode}): {' '.join(cmd)}\n{p.stderr.strip()}")
    return wall, cpu, p.stdout, p.stderr


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


PTX_PRINTER = ["llvm"]  # --ptx-printer, set once by main()
COMPILE_RE = re.compile(r"--export-ptx: compile and write ([\d.]+) ms \(cpu ([\d.]+) ms")


def compile_ptx(tool, files, chip, ptx_dir, what, extra=(), mlir_timing=False):
    """One --export-ptx process with --timing: a dict of its wall ms, process CPU ms and
    compile CPU ms (uop-translate's "compile and write", every thread); with mlir_timing, also
    the --mlir-timing rows (its timers cost time of their own: the timed runs have none). The
    tensor-core kernels keep tinygrad's schedule
    (--tc-schedule=tinygrad), so that every kernel is compared with tinygrad's and nvcc's
    compile of the same schedule (scripts/bench_tc.py compares the schedules)."""
    cmd = [tool, "--export-ptx", *files, f"--chip={chip}", f"--ptx-dir={ptx_dir}", "--timing",
           *(["--mlir-timing"] if mlir_timing else []), "--tc-schedule=tinygrad",
           f"--ptx-printer={PTX_PRINTER[0]}", *extra]
    wall, cpu, _, err = run(cmd, what)
    m = COMPILE_RE.search(err)
    if not m:
        die(f"{what}: no '--export-ptx: compile and write' line from --timing")
    rows = parse_timing(err)[1] if mlir_timing else None
    return {"wall": wall, "process_cpu": cpu, "cpu": float(m.group(2)), "rows": rows}


SEPARATE_RE = re.compile(r"--export-ptx: (.+): import [\d.]+ ms \(cpu ([\d.]+) ms\); compile and "
                         r"write [\d.]+ ms \(cpu ([\d.]+) ms")


def warm_kernels(tool, files, chip, ptx_dir, repeat):
    """{file: median CPU ms of compiling it in a warm process, after its import, as in the
    kernel-alone figures}: uop-translate
    --export-ptx --separate compiles each file as a module of its own, one after another with
    one pass manager, as tinygrad's get_program compiles a kernel per call. The files go
    through twice and the second round counts, so that no kernel pays the process's
    first-use costs (tinygrad's figures are from a warm process too)."""
    cmd = [tool, "--export-ptx", "--separate", *files, *files, f"--chip={chip}",
           f"--ptx-dir={ptx_dir}", "--timing", "--tc-schedule=tinygrad",
           f"--ptx-printer={PTX_PRINTER[0]}"]
    times = {f: [] for f in files}
    for _ in range(repeat):
        _, _, _, err = run(cmd, "--separate compile")
        rows = [SEPARATE_RE.match(line) for line in err.splitlines()]
        rows = [m for m in rows if m]
        if len(rows) != 2 * len(files):
            die(f"--separate compile: {len(rows)} timing lines for {2 * len(files)} compiles")
        for m in rows[len(files):]:
            times[m.group(1)].append(float(m.group(3)))
    return {f: statistics.median(t) for f, t in times.items()}


def median_run(runs, key):
    """The run whose `key` is the median (the lower middle one for an even count)."""
    return sorted(runs, key=lambda r: r[key])[(len(runs) - 1) // 2]


VEC_RE = re.compile(r"^(ld|st)\.(global|shared)(\.\w+)*\.v[24]\b")
FMUL_RE = re.compile(r"^mul(\.\w+)*\.(f16|f16x2|bf16|bf16x2|f32|f64)$")
FADD_RE = re.compile(r"^(add|sub)(\.\w+)*\.(f16|f16x2|bf16|bf16x2|f32|f64)$")


def unfused_pairs(ops):
    """Float adds and subtracts that take a float multiply's result and some other value:
    the a * b + c that nvcc contracts into an fma and we left as two roundings. (x + x of a
    product is how LLVM writes 2 * x; nothing adds to the product there.)"""
    products, unfused = set(), 0
    for op in ops:
        name, *args = op.rstrip(";").split(None, 1)
        text = args[0] if args else ""
        # A vector destination, {%r1, %r2}, writes each of its registers.
        dests = text[1:text.find("}")].split(",") if text.startswith("{") else text.split(",")[:1]
        regs = [a.strip() for a in text.split(",")]
        if FMUL_RE.match(name):
            products.add(regs[0])
            continue
        if FADD_RE.match(name) and len(regs) == 3:
            unfused += any(r in products for r in regs[1:]) and regs[1] != regs[2]
        products.difference_update(d.strip() for d in dests)  # written again: no product
    return unfused


def ptx_facts(path):
    """(grid, block, instruction count, mma.sync count, vector ld/st count, fma count,
    unfused multiply-adds) of our PTX."""
    with open(path) as f:
        lines = f.read().splitlines()
    m = HEADER_RE.match(lines[0]) if lines else None
    grid, block = (m.group(2), m.group(3)) if m else ("?", "?")
    count, mma, vec, fma, depth = 0, 0, 0, 0, 0
    ops = []
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
            fma += op.startswith("fma.")
            ops.append(op)
            statement = ""
    return grid, block, count, mma, vec, fma, unfused_pairs(ops)


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
    cpus = sorted(os.sched_getaffinity(0))
    pinned = f"; run on CPU {cpus[0]} only (--cpu)" if len(cpus) == 1 else ""
    return [f"- nproc: {os.cpu_count()}{pinned}; load average at start: {load}",
            f"- date: {datetime.datetime.now().astimezone().isoformat(timespec='seconds')}",
            f"- chip: {chip}", f"- tool: {tool}", f"- ptxas: {version}"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--shared", default=os.path.join(ROOT, "..", "shared"))
    ap.add_argument("--chip", default="sm_80")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--ptx-printer", choices=["llvm", "direct"], default="llvm",
                    help="who writes the PTX (uop-translate --ptx-printer)")
    ap.add_argument("--tool", choices=["uop-translate", "uop-translate-llvm"],
                    default="uop-translate",
                    help="which of the build's tools compiles: uop-translate (no LLVM back "
                         "end: for LLVM's printer it runs uop-translate-llvm) or "
                         "uop-translate-llvm (the same tool with LLVM's back end)")
    ap.add_argument("--output", help="also write the markdown report to this file")
    ap.add_argument("--startup-of", action="append", default=[], metavar="DIR",
                    help="also report the start-up of this build's tool (--tool; e.g. the "
                         "shared-library build next to a static one)")
    ap.add_argument("--tinygrad-figures", choices=["live", "anchors"], default="live",
                    help="tinygrad's compile times: measured now (../shared/tinygrad) or the "
                         "anchors' recorded figures")
    ap.add_argument("--cpu", type=int, metavar="N",
                    help="run the benchmark, and so every process it starts (ours and "
                         "tinygrad's), on CPU N only: on a virtual machine whose CPUs run at "
                         "different speeds, figures from one CPU compare (CPU times count "
                         "every thread either way; wall times lose the parallel compile)")
    args = ap.parse_args()
    if args.repeat < 1:
        die("--repeat must be at least 1")
    if args.cpu is not None:
        try:
            os.sched_setaffinity(0, {args.cpu})
        except (OSError, ValueError) as e:
            die(f"--cpu {args.cpu}: {e}")

    tool = translate_of(args.build, args.tool)
    anchors = {}
    for corpus, name in (("corpus", "tinygrad_sm80_corpus.json"),
                         ("corpus-perf", "tinygrad_sm80_perf.json")):
        with open(os.path.join(args.shared, "anchors", name)) as f:
            anchors[corpus] = {row["kernel"]: row for row in json.load(f)}
    inputs = os.path.join(ROOT, "test", "Dialect", "UOp", "Optimize", "Inputs")
    with open(os.path.join(inputs, "tinygrad-opts.json")) as f:
        tg_vec = {r["kernel"]: r.get("ptx_vector_ld", 0) + r.get("ptx_vector_st", 0)
                  for r in json.load(f)["kernels"]["ptx_sm80"] if r.get("corpus") == "corpus-perf"}
    with open(os.path.join(inputs, "nvcc-sm80.json")) as f:  # gen_tinygrad_opts.py --nvcc
        nvcc_fma = {r["kernel"]: r["fma"] for r in json.load(f)["kernels"]}
    ptxas = PTXAS if os.access(PTXAS, os.X_OK) else shutil.which("ptxas")
    out = ["# uop-mlir PTX benchmark: corpus and corpus-perf against tinygrad", ""]
    PTX_PRINTER[0] = args.ptx_printer
    out += machine_facts(tool, args.chip, ptxas)
    out += [f"- PTX printer: {args.ptx_printer} (uop-translate --ptx-printer)", ""]
    if not ptxas:
        warn = "**WARNING: ptxas not found: register/spill columns are NOT measured (n/a).**"
        print(warn, file=sys.stderr)
        out += [warn, ""]

    out += [f"- tinygrad's compile times: {TINYGRAD_FIGURES[args.tinygrad_figures]}", ""]

    timings, rows, tmp = {}, [], tempfile.mkdtemp(prefix="bench_ptx.")
    all_kernels = {c: corpus_kernels(os.path.abspath(os.path.join(args.shared, c)))
                   for c in ("corpus", "corpus-perf")}
    try:
        for corpus in ("corpus", "corpus-perf"):
            kernels = all_kernels[corpus]
            other = all_kernels["corpus-perf" if corpus == "corpus" else "corpus"]
            per_kernel = []
            # Each kernel alone in a process, --repeat rounds over the corpus rather than
            # --repeat runs in a row: this machine slows down for seconds at a time, and a
            # kernel whose runs all fall in one slow spell would carry it into its median.
            alone = {path: [] for _, path in kernels}
            for round_ in range(args.repeat):
                print(f"bench_ptx: {corpus}, each kernel in its own process, round "
                      f"{round_ + 1} of {args.repeat}", file=sys.stderr)
                for key, path in kernels:
                    alone[path].append(compile_ptx(tool, [path], args.chip, tmp,
                                                   f"compile of {key}"))
            for key, path in kernels:
                runs = alone[path]
                per_kernel.append({"key": key, "cpu": statistics.median(r["cpu"] for r in runs),
                                   "process_cpu": statistics.median(r["process_cpu"] for r in runs),
                                   "wall": statistics.median(r["wall"] for r in runs),
                                   "tg": anchors[corpus].get(key),
                                   "tg_anchor_ms": (anchors[corpus].get(key) or {}).get(
                                       "tinygrad_ptx_ms")})
                if corpus == "corpus-perf":
                    rows.append(quality_row(path, per_kernel[-1], args.chip, tmp, tool, ptxas,
                                            tg_vec.get(key)))
                    rows[-1]["nvcc_fma"] = nvcc_fma.get(key)
            print(f"bench_ptx: {corpus}, kernel by kernel in a warm process", file=sys.stderr)
            warm = warm_kernels(tool, [p for _, p in kernels], args.chip, tmp, args.repeat)
            for k, (_, path) in zip(per_kernel, kernels):
                k["warm"] = warm[path]
            print(f"bench_ptx: {corpus} as one module", file=sys.stderr)
            # tinygrad's figures, each process next to one of ours: the machine's speed
            # drifts within minutes, and the ratio is what is reported.
            runs, tg_runs = [], []
            for _ in range(args.repeat):
                if args.tinygrad_figures == "live":
                    tg_runs.append(tinygrad_run(args.shared, args.chip, [p for _, p in other],
                                                [p for _, p in kernels]))
                runs.append(compile_ptx(tool, [p for _, p in kernels], args.chip, tmp,
                                        f"{corpus} compile"))
            for k, (_, path) in zip(per_kernel, kernels):
                k["tg_ms"] = (statistics.median(r[path] for r in tg_runs) if tg_runs
                              else k["tg_anchor_ms"])
            tg_of = {k["key"]: k["tg_ms"] for k in per_kernel}
            for row in rows:  # corpus-perf's, made before the figures
                if row["key"] in tg_of:
                    row["tg_ms"] = tg_of[row["key"]]
            # The pass breakdown from a run of its own: --mlir-timing's timers cost time.
            timed = compile_ptx(tool, [p for _, p in kernels], args.chip, tmp,
                                f"{corpus} compile with --mlir-timing", mlir_timing=True)
            timings[corpus] = {"kernels": per_kernel, "whole": median_run(runs, "cpu"),
                               "whole_range": (min(r["cpu"] for r in runs),
                                               max(r["cpu"] for r in runs)),
                               "rows": timed["rows"]}
        startups = [(args.build, startup_cpu(tool, args.repeat))]
        startups += [(d, startup_cpu(translate_of(d, args.tool), args.repeat))
                     for d in args.startup_of]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    out += report_compile_time(timings, startups, args.repeat)
    out += [""] + report_table(rows) + [""] + report_quality(rows, bool(ptxas))
    text = "\n".join(out) + "\n"
    sys.stdout.write(text)
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)


TINYGRAD_FIGURES = {
    "live": "measured in this run on this machine (scripts/tinygrad_ptx_times.py: get_program "
            "with PTXRenderer, each kernel once per process after the other corpus, median "
            "of --repeat processes; CPU ms)",
    "anchors": "../shared/anchors' recorded figures (measured another day, on a machine of "
               "this kind; this machine's speed drifts by 2-3x within a day)"}


def tinygrad_run(shared, chip, warm, measure):
    """{path: CPU ms} of tinygrad's get_program on each kernel of `measure`, in one process
    of scripts/tinygrad_ptx_times.py warmed on `warm`."""
    tinygrad = os.path.join(shared, "tinygrad")
    if not os.path.isfile(os.path.join(tinygrad, "tinygrad", "__init__.py")):
        die(f"tinygrad not found at {tinygrad}: it is needed to measure tinygrad here "
            "(or pass --tinygrad-figures=anchors for the recorded figures)")
    script = os.path.join(ROOT, "scripts", "tinygrad_ptx_times.py")
    stdout = run(["/usr/bin/python3", script, "--tinygrad", tinygrad, "--chip", chip,
                  "--warm", *warm, "--measure", *measure], "tinygrad's compile")[2]
    return {p: t["cpu_ms"] for p, t in json.loads(stdout).items()}


def translate_of(build, name="uop-translate"):
    tool = os.path.abspath(os.path.join(build, "bin", name))
    if not os.access(tool, os.X_OK):
        die(f"{name} not found at {tool} (build it, or pass --build)")
    return tool


def startup_cpu(tool, repeat):
    """Median CPU ms of a process that only starts and lists the op table."""
    return statistics.median(run([tool, "--list-tinygrad-ops"], "start-up",
                                 stdout=subprocess.DEVNULL)[1] for _ in range(repeat))


def quality_row(path, timing, chip, tmp, tool, ptxas, tg_vec):
    """The code-quality facts of one corpus-perf kernel (its PTX is the last compile's)."""
    ptx = os.path.join(tmp, kernel_name(path) + ".ptx")
    grid, block, instrs, mma, vec, fma, unfused = ptx_facts(ptx)
    row = {**timing, "grid": grid, "block": block, "instrs": instrs, "mma": mma, "vec": vec,
           "fma": fma, "unfused": unfused, "ptxas": ptxas_facts(ptxas, chip, ptx), "tg_vec": tg_vec}
    compile_ptx(tool, [path], chip, tmp, f"--no-opt compile of {timing['key']}", ["--no-opt"])
    row["noopt_ptxas"] = ptxas_facts(ptxas, chip, ptx)
    return row


def report_compile_time(timings, startups, repeat):
    med = statistics.median
    yes = lambda ok: "**met**" if ok else "**not met**"
    out = ["## Compile time (CPU)", "",
           f"Medians of {repeat} run(s), each its own process. CPU ms = user + system time of "
           "every thread; a compile's CPU is uop-translate --timing's \"compile and write\" "
           "(after the JSON import), a process's is its rusage (start-up, import, compile, write); "
           "the timed runs have no --mlir-timing (the pass breakdown below is a run of its own). "
           "A kernel alone in its process pays the first-use costs (code paged in, pattern sets "
           "and target machines built) that a module's later kernels do not; tinygrad's figure "
           "is each kernel's first compile in a warm process. \"Warm\" for ours: each kernel "
           "imported and compiled as a module of its own in a process that has compiled them all "
           "once already (uop-translate --export-ptx --separate, one pass manager for all).",
           "", "| corpus | kernels | one module: compile CPU ms (fastest - slowest run) | wall ms | "
           "tinygrad sum ms | anchors' sum ms | "
           "ratio tinygrad/ours | median kernel alone in its process: ours ms | median kernel, "
           "warm: ours ms | tinygrad ms | ratio (warm) | one-kernel "
           "process CPU ms: median | max |", "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    goals = []
    for corpus, t in timings.items():
        ks = [k for k in t["kernels"] if k["tg_ms"] is not None]
        if not ks:
            die(f"no kernel of {corpus} has a tinygrad figure")
        tg_sum = sum(k["tg_ms"] for k in ks)
        anchor_sum = sum(k["tg_anchor_ms"] or 0 for k in ks)
        ours_med, tg_med = med(k["cpu"] for k in ks), med(k["tg_ms"] for k in ks)
        warm_med = med(k["warm"] for k in ks)
        whole = t["whole"]["cpu"]
        procs = [k["process_cpu"] for k in t["kernels"]]
        lo, hi = t["whole_range"]
        out.append(f"| {corpus} | {len(t['kernels'])} | {whole:.1f} ({lo:.0f} - {hi:.0f}) | "
                   f"{t['whole']['wall']:.1f} | "
                   f"{tg_sum:.1f} | {anchor_sum:.1f} | {tg_sum / whole:.2f}x | {ours_med:.2f} | "
                   f"{warm_med:.2f} | "
                   f"{tg_med:.2f} | {tg_med / warm_med:.2f}x | {med(procs):.1f} | "
                   f"{max(procs):.1f} |")
        goals += [f"- {corpus}: >= 4x tinygrad on the sum: {yes(tg_sum / whole >= 4)} "
                  f"({tg_sum / whole:.2f}x); faster than tinygrad on the median kernel, both "
                  f"warm: {yes(warm_med < tg_med)} ({warm_med:.2f} vs {tg_med:.2f} ms), and ours "
                  f"alone in a process: {yes(ours_med < tg_med)} ({ours_med:.2f} ms); one-kernel "
                  f"process under 15 ms CPU: {yes(max(procs) < 15)} (median {med(procs):.1f}, "
                  f"max {max(procs):.1f} ms)"]
    out += ["", "Goals (issue 23):", ""] + goals + [""]
    out += ["Start-up (the tool's `--list-tinygrad-ops`, CPU ms): " +
            "; ".join(f"{d}: {ms:.1f}" for d, ms in startups), ""]
    for corpus, t in timings.items():
        top = sorted(pass_totals(t["rows"]).items(), key=lambda kv: -kv[1][0])[:6]
        n = len(t["kernels"])
        out.append(f"- {corpus} as one module, wall time of the most expensive passes "
                   f"(--mlir-timing; {n} kernels): " +
                   "; ".join(f"{name}{f' (x{k})' if k > 1 else ''} {ms:.1f} ms "
                             f"({ms / n:.2f} per kernel)" for name, (ms, k) in top))
    return out


def report_table(rows):
    head = ["kernel", "our compile CPU ms", "tinygrad ms", "ratio tinygrad/ours",
            "our grid / block", "tinygrad global / local", "our regs / spill",
            "tinygrad regs / spill", "nvcc regs / spill", "our regs / spill, no opts",
            "our PTX instrs", "tinygrad ptx_lines", "nvcc ptx lines", "our fma / nvcc's",
            "our unfused mul+add",
            "our mma / tinygrad's", "our vector ld/st", "tinygrad's vector ld/st"]
    out = ["## corpus-perf, per kernel", "", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    dims = lambda v: ",".join(map(str, v)) if v else "?"
    for r in rows:
        tg = r["tg"] or {}
        tg_ms = r["tg_ms"]
        cells = [r["key"], f"{r['cpu']:.1f}", f"{tg_ms:.1f}" if tg_ms else "n/a",
                 f"{tg_ms / r['cpu']:.1f}x" if tg_ms else "n/a",
                 f"{r['grid']} / {r['block']}",
                 f"{dims(tg.get('global'))} / {dims(tg.get('local'))}",
                 fmt_regs(r["ptxas"]), fmt_regs(tg.get("ptxas")), fmt_regs(tg.get("nvcc_ptxas")),
                 fmt_regs(r["noopt_ptxas"]), str(r["instrs"]), str(tg.get("ptx_lines", "n/a")),
                 str(tg.get("nvcc_ptx_lines", "n/a")),
                 f"{r['fma']} / {r['nvcc_fma'] if r['nvcc_fma'] is not None else 'n/a'}",
                 str(r["unfused"]), f"{r['mma']} / {tg.get('mma', 'n/a')}",
                 str(r["vec"]), str(r["tg_vec"]) if r["tg_vec"] is not None else "n/a"]
        out.append("| " + " | ".join(cells) + " |")
    return out


def report_quality(rows, have_ptxas):
    spills = sum(r["ptxas"]["spill"] for r in rows if r["ptxas"] and r["ptxas"].get("ok"))
    fails = [r["key"] for r in rows if r["ptxas"] and not r["ptxas"].get("ok")]
    out = ["## Code quality (corpus-perf)", "",
           f"- total spill bytes (stores + loads) over our kernels: "
           + (f"{spills} (goal: 0)" if have_ptxas else "n/a (ptxas not found)"),
           f"- ptxas failures: " + (", ".join(fails) if fails else "none" if have_ptxas else "n/a"),
           *quality_goals(rows, have_ptxas),
           "", "Notes:", "",
           "- tinygrad's ms is get_program (see the top for where the figure comes from) "
           "with its heuristic opts; ours "
           "applies the same opts and expands upcast and unroll axes as tinygrad's expander "
           "does; LLVM then schedules and unrolls further, so the PTX differs.",
           f"- {COUNT_RULE} tinygrad's and nvcc's line counts are the anchor file's figures."]
    return out


def quality_goals(rows, have_ptxas):
    """The code-quality goals: registers within nvcc's + 10%, fma where nvcc has it, mma
    where tinygrad has it."""
    if not have_ptxas:
        return ["- register goal: n/a (ptxas not found)"]
    ok = [r for r in rows if r["ptxas"] and r["ptxas"].get("ok") and r["tg"]
          and (r["tg"].get("nvcc_ptxas") or {}).get("ok")]
    within = [r for r in ok if r["ptxas"]["regs"] <= 1.1 * r["tg"]["nvcc_ptxas"]["regs"]]
    over = [f"{r['key']} ({r['ptxas']['regs']} vs {r['tg']['nvcc_ptxas']['regs']})"
            for r in ok if r not in within]
    tc = [r for r in rows if r["tg"] and r["tg"].get("mma")]
    fma = [r for r in rows if r["nvcc_fma"]]
    fewer = [f"{r['key']} ({r['fma']} vs {r['nvcc_fma']})" for r in fma if r["fma"] < r["nvcc_fma"]]
    unfused = [f"{r['key']} ({r['unfused']})" for r in rows if r["unfused"]]
    return [f"- registers <= nvcc's + 10%: {len(within)}/{len(ok)} kernels"
            + (f"; over: {', '.join(over)}" if over else ""),
            f"- fma where nvcc has fma (as many or more): {len(fma) - len(fewer)}/{len(fma)} kernels"
            + (f"; fewer: {', '.join(fewer)}" if fewer else ""),
            f"- no float multiply feeding an add left unfused (a contraction nvcc makes): "
            f"{len(rows) - len(unfused)}/{len(rows)} kernels"
            + (f"; unfused: {', '.join(unfused)}" if unfused else "")
            + " (static fma counts differ where the code is unrolled differently, and where "
            "x + m * -1 is written sub, which rounds once as fma does)",
            f"- mma.sync where tinygrad uses tensor cores: {sum(r['mma'] > 0 for r in tc)}/"
            f"{len(tc)} ({', '.join(r['key'] for r in tc)})",
            f"- kernels with vector loads/stores (.v2/.v4): ours {sum(r['vec'] > 0 for r in rows)}/{len(rows)}, "
            f"tinygrad's {sum((r['tg_vec'] or 0) > 0 for r in rows)}/{len(rows)} (NVPTX spells our pairs of "
            "halves as one .b32 access, which this count misses; test/Integration/vectors.test counts "
            "at the uop level)"]


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""run_differential.py BIN_DIR WORKDIR [options]: uop-mlir against tinygrad itself.

1. Generates the kernels: capture.py runs every program of cases.py with
   tinygrad on its CPU device and writes each kernel tinygrad ran, with its
   buffers before and after, in the corpus format under WORKDIR/kernels
   (nothing of it is committed; the lit test puts it in the build tree).
2. Runs every captured kernel:
     cpu  `uop-run K.json --target=cpu --exact`: bit for bit what tinygrad's
          CPU computed. Kernels with an f16 or bf16 output use uop-run's
          default tolerance instead (our rule rounds half only at casts and
          stores; tinygrad's C also rounds where it keeps a half in a variable).
     sim  `uop-run K.json --target=sim` with the default tolerance (the GPU
          path computes as tinygrad's PTX does: approximate transcendentals,
          fma). Kernels of kind "target" (cases.py: float -> int casts of NaN,
          inf, out of range, whose values the target defines) must compile and
          run there, but their values are not compared; the summary says how many.
          Every buffer as it ends is kept for `printer`.
     ptx  `uop-translate --export-ptx K.json --chip=C`, then NVIDIA's ptxas
          -arch=C, for sm_80 and sm_90a; a kernel passes if both assemble.
     printer  the same with uop-mlir's own PTX printer (--ptx-printer=direct),
          and its sm_80 PTX run on the simulator (`uop-run K.ptx`, which reads
          each instruction as the PTX ISA defines it): every buffer must end
          bit for bit as it ended in `sim`, which ran the IR the printer read
          (for every kind of kernel: both runs are ours). Needs `sim` first.
3. Prints one line per failing kernel (case/kernel, target, the first line of
   the error), then
     differential on cpu: N/M passed
     differential on sim: N/M passed
     differential on ptx: N/M passed
     differential on ptx printer: N/M passed
   and exits 1 on any failure. tinygrad missing: a clear error, exit 1.
   ptxas missing: "differential on ptx: not run" (the PTX is still exported
   and export failures reported) and exit 1: a part that did not run never
   passes.

Options: --only REGEX (cases whose name matches), --every N (check every
Nth captured kernel only: the sanitized suite's sample), --jobs N (default: the
number of cores), --tinygrad DIR, --ptxas PATH, --no-capture (reuse
WORKDIR/kernels), --targets cpu,sim,ptx,printer.
Needs only Debian's python3 (tinygrad needs nothing else on its CPU device).
"""
import argparse
import concurrent.futures
import errno
import json
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Integration"))
from run_ptx_printer_sim import ptx_on_sim  # noqa: E402
DEFAULT_TINYGRAD = os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared", "tinygrad"))
CHIPS = ("sm_80", "sm_90a")
HALF = ("f16", "bf16")
TIMEOUT = 300


def run(cmd, **kw):
    """subprocess.run, retried while a tool is briefly missing (a rebuild replacing it)."""
    for attempt in range(60):
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT, **kw)
        except subprocess.TimeoutExpired:
            return subprocess.CompletedProcess(cmd, -1, "", f"timeout after {TIMEOUT} s")
        except OSError as e:
            if e.errno in (errno.ENOENT, errno.ETXTBSY, errno.EACCES) and attempt < 59:
                time.sleep(1)
                continue
            return subprocess.CompletedProcess(cmd, -1, "", f"cannot run {cmd[0]}: {e}")
        # 127: the dynamic loader could not find a library being replaced.
        if r.returncode == 127 and attempt < 59 and "error while loading shared libraries" in r.stderr:
            time.sleep(1)
            continue
        return r


def first_error(r):
    """The first line that says what went wrong in a failed run."""
    lines = (r.stderr + "\n" + r.stdout).splitlines()
    for pat in (r"error:", r"FAIL \(", r"\bFAIL\b", r"\S"):
        for line in lines:
            if re.search(pat, line):
                return line.strip()[:300]
    return f"exit code {r.returncode}, no output"


def capture(args, work):
    """Runs capture.py (one process per job, cases split between them) and merges the shards."""
    kdir = os.path.join(work, "kernels")
    shutil.rmtree(kdir, ignore_errors=True)
    os.makedirs(kdir)
    jobs = max(1, args.jobs)
    cmd = [sys.executable, os.path.join(HERE, "capture.py"), kdir, "--tinygrad", args.tinygrad]
    if args.only:
        cmd += ["--only", args.only]
    procs = [subprocess.Popen(cmd + ["--shard", f"{i}/{jobs}"], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for i in range(jobs)]
    outs = [p.communicate() for p in procs]
    failures = []
    for p, (out, err) in zip(procs, outs):
        failures += [line[len("CAPTURE FAIL "):] for line in out.splitlines() if line.startswith("CAPTURE FAIL ")]
        if p.returncode not in (0, 1):
            sys.stdout.write(out + err)
            failures.append(f"capture.py exited with {p.returncode}")
    meta = {}
    for i in range(jobs):
        path = os.path.join(kdir, f"cases.json.{i}")
        if os.path.exists(path):
            with open(path) as f:
                meta.update(json.load(f))
        for name in ("cases.json", "index.json", "capture-failures.txt"):
            if os.path.exists(os.path.join(kdir, f"{name}.{i}")):
                os.remove(os.path.join(kdir, f"{name}.{i}"))
    # Cases in table order; a kernel equal to one of an earlier case (another shard) is dropped.
    seen, kernels, dropped = {}, [], 0
    for name in sorted(meta, key=lambda c: meta[c]["order"]):
        kept = []
        for k in meta[name]["kernels"]:
            path = os.path.join(kdir, name, k)
            key = kernel_key(path)
            if key in seen:
                dropped += 1
                os.remove(path)
                continue
            seen[key] = path
            kept.append(k)
            kernels.append((name, k, meta[name]["kind"]))
        meta[name]["kernels"] = kept
    meta = {c: meta[c] for c in sorted(meta, key=lambda c: meta[c]["order"])}
    with open(os.path.join(kdir, "index.json"), "w") as f:
        json.dump({c: m["kernels"] for c, m in meta.items() if m["kernels"]}, f, indent=1)
    with open(os.path.join(kdir, "cases.json"), "w") as f:
        json.dump(meta, f, indent=1)
    dups = sum(m["duplicates"] for m in meta.values()) + dropped
    return kernels, failures, len(meta), dups


def kernel_key(path):
    with open(path) as f:
        k = json.load(f)
    parts = [json.dumps(k["nodes"])]
    for b in k["buffers"]:
        if b["input"]:
            with open(os.path.join(os.path.dirname(path), b["input"]), "rb") as f:
                parts.append(f.read().hex())
        else:
            parts.append("-")
    return "|".join(parts)


def load_kernels(work):
    kdir = os.path.join(work, "kernels")
    with open(os.path.join(kdir, "cases.json")) as f:
        meta = json.load(f)
    return [(c, k, m["kind"]) for c, m in meta.items() for k in m["kernels"]]


def half_output(path):
    with open(path) as f:
        return any(b["expected"] and b["dtype"] in HALF for b in json.load(f)["buffers"])


def run_only(r):
    """Values not compared: it must compile and run (uop-run exits 1 on a mismatch)."""
    return r.returncode in (0, 1), None if r.returncode in (0, 1) else first_error(r), "run only"


def compared(r, how=None):
    return r.returncode == 0, None if r.returncode == 0 else first_error(r), how


def check_cpu(bin_dir, path, kind):
    cmd = [os.path.join(bin_dir, "uop-run"), path, "--target=cpu"]
    exact = not half_output(path) and kind != "reassociated"
    if exact:
        cmd.append("--exact")
    r = run(cmd)
    if kind in ("unspecified", "tinygrad_bug"):
        return run_only(r)
    return compared(r, None if exact or half_output(path) else "tolerance")


def check_sim(bin_dir, path, kind, sim_dir):
    """On the simulator; with `sim_dir`, every buffer as it ends is kept there for `printer`."""
    keep = [f"--write-buffers={os.path.join(sim_dir, kernel_name(path))}"] if sim_dir else []
    r = run([os.path.join(bin_dir, "uop-run"), path, "--target=sim", *keep])
    if kind in ("target", "unspecified", "tinygrad_bug"):
        return run_only(r)
    return compared(r)


def kernel_name(path):
    with open(path) as f:
        k = json.load(f)
    return f"{k['case']}_k{k['kernel']}"


def export_ptx(bin_dir, paths, chip, out_dir, extra):
    """{path: error or None}: the kernels of `paths` exported to out_dir/<kernel>.ptx.

    One uop-translate process for the whole list (process start-up dominates a
    kernel's export); a kernel it names in an error is failed and taken out,
    and the rest exported again. An error naming no kernel: one process each."""
    tool = os.path.join(bin_dir, "uop-translate")
    result, pending = {}, list(paths)
    while pending:
        r = run([tool, "--export-ptx", *pending, f"--chip={chip}", f"--ptx-dir={out_dir}", *extra])
        if r.returncode == 0:
            for p in pending:
                ok = os.path.exists(os.path.join(out_dir, kernel_name(p) + ".ptx"))
                result[p] = None if ok else "uop-translate wrote no PTX for this kernel"
            break
        named = [p for p in pending if re.search(r"^" + re.escape(p) + r":", r.stderr, re.M)]
        if not named:
            if len(pending) == 1:
                result[pending[0]] = first_error(r)
                break
            for p in pending:
                result.update(export_ptx(bin_dir, [p], chip, out_dir, extra))
            break
        for p in named:
            line = next(l for l in r.stderr.splitlines() if l.startswith(p + ":"))
            result[p] = line.strip()[:300]
        pending = [p for p in pending if p not in named]
    return result


def check_ptx_all(bin_dir, paths, ptxas, ptx_dir, jobs, extra=()):
    """[(ok, error, None)] per path: exported (uop-translate's `extra` options)
    and (with ptxas) assembled for every chip."""
    errors = {p: None for p in paths}
    chunk = max(1, min(64, -(-len(paths) // max(1, jobs))))
    with concurrent.futures.ThreadPoolExecutor(max(1, jobs)) as pool:
        for chip in CHIPS:
            out_dir = os.path.join(ptx_dir, chip)
            os.makedirs(out_dir, exist_ok=True)
            futs = [pool.submit(export_ptx, bin_dir, paths[i:i + chunk], chip, out_dir, extra)
                    for i in range(0, len(paths), chunk)]
            exported = {}
            for f in futs:
                exported.update(f.result())
            if ptxas:
                def assemble(p):
                    out = os.path.join(out_dir, kernel_name(p) + ".ptx")
                    r = run([ptxas, f"-arch={chip}", out, "-o", os.devnull])
                    return None if r.returncode == 0 else first_error(r)
                todo = [p for p in paths if exported[p] is None]
                for p, err in zip(todo, pool.map(assemble, todo)):
                    if err:
                        exported[p] = f"ptxas: {err}"
            for p in paths:
                if exported[p] and not errors[p]:
                    errors[p] = f"[{chip}] {exported[p]}"
    return [(errors[p] is None, errors[p], None) for p in paths]


def check_printer_sim(bin_dir, path, ptx, ref):
    """The printer's PTX on the simulator, every buffer bit for bit as `sim` left it."""
    command = ptx_on_sim(bin_dir, ptx, path, ref)
    if not command:
        return False, "no reference: the sim run wrote no buffers", None
    return compared(run(command))


def check_printer_all(bin_dir, paths, ptxas, ptx_dir, sim_dir, jobs):
    """[(ok, error, None)] per path: the direct printer's PTX assembled for every
    chip (as check_ptx_all) and its sm_80 PTX run on the simulator."""
    results = check_ptx_all(bin_dir, paths, ptxas, ptx_dir, jobs, ["--ptx-printer=direct"])
    todo = [i for i, (ok, _, _) in enumerate(results) if ok]

    def one(i):
        name = kernel_name(paths[i])
        ptx = os.path.join(ptx_dir, "sm_80", name + ".ptx")
        ok, err, how = check_printer_sim(bin_dir, paths[i], ptx, os.path.join(sim_dir, name))
        return ok, err and f"[sm_80 on sim] {err}", how
    with concurrent.futures.ThreadPoolExecutor(max(1, jobs)) as pool:
        for i, res in zip(todo, pool.map(one, todo)):
            results[i] = res
    return results


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("bin_dir")
    ap.add_argument("work")
    ap.add_argument("--only")
    ap.add_argument("--every", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--tinygrad", default=os.environ.get("TINYGRAD_PATH", DEFAULT_TINYGRAD))
    ap.add_argument("--ptxas", default=shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas")
    ap.add_argument("--no-capture", action="store_true")
    ap.add_argument("--targets", default="cpu,sim,ptx,printer")
    ap.add_argument("--summary", help="also write the summary lines to this file (scripts/test.sh prints it)")
    args = ap.parse_args()
    bin_dir, work = os.path.abspath(args.bin_dir), os.path.abspath(args.work)
    args.work = work
    targets = args.targets.split(",")
    unknown = [t for t in targets if t not in ("cpu", "sim", "ptx", "printer")]
    if unknown:
        print(f"error: --targets: unknown target {unknown[0]} (cpu, sim, ptx, printer)")
        return 1
    if "printer" in targets and ("sim" not in targets or targets.index("sim") > targets.index("printer")):
        print("error: --targets: printer compares with sim's buffers: give sim before it")
        return 1

    if not os.path.isfile(os.path.join(args.tinygrad, "tinygrad", "__init__.py")):
        print(f"error: tinygrad not found at {args.tinygrad} (expected ../shared/tinygrad beside the "
              "project, or --tinygrad DIR): the differential suite needs tinygrad as its oracle")
        return 1
    for tool in ("uop-run", "uop-translate"):
        if not os.path.exists(os.path.join(bin_dir, tool)):
            time.sleep(5)  # a rebuild may be replacing it
            if not os.path.exists(os.path.join(bin_dir, tool)):
                print(f"error: {tool} not found in {bin_dir}")
                return 1
    os.makedirs(work, exist_ok=True)

    t0 = time.perf_counter()
    if args.no_capture:
        kernels, cap_failures, ncases, dups = load_kernels(work), [], None, None
    else:
        kernels, cap_failures, ncases, dups = capture(args, work)
    t_capture = time.perf_counter() - t0
    for line in cap_failures:
        print(f"FAIL capture {line}")
    if ncases is not None:
        print(f"generated {len(kernels)} distinct kernels from {ncases} tinygrad programs "
              f"({dups} duplicate kernels dropped) in {t_capture:.1f} s")
    sample = ""
    if args.every > 1:
        sample = f" (one in {args.every} of {len(kernels)} kernels)"
        kernels = kernels[::args.every]
    print(f"checking {len(kernels)} kernels{sample}")

    ptxas = args.ptxas if os.path.isfile(args.ptxas) and os.access(args.ptxas, os.X_OK) else None
    ptx_dir, printer_dir, sim_dir = (os.path.join(work, d) for d in ("ptx", "printer", "sim"))
    for d in (ptx_dir, printer_dir, sim_dir):
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
    keep = sim_dir if "printer" in targets else None
    checks = {"cpu": check_cpu, "sim": lambda b, p, k: check_sim(b, p, k, keep)}
    kdir = os.path.join(work, "kernels")
    summary, times, failed_any = [], {}, bool(cap_failures)
    for target in targets:
        t1 = time.perf_counter()
        paths = [os.path.join(kdir, c, k) for c, k, _ in kernels]
        if target == "ptx":
            results = check_ptx_all(bin_dir, paths, ptxas, ptx_dir, args.jobs)
        elif target == "printer":
            results = check_printer_all(bin_dir, paths, ptxas, printer_dir, sim_dir, args.jobs)
        else:
            with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
                futs = [pool.submit(checks[target], bin_dir, p, kind) for p, (_, _, kind) in zip(paths, kernels)]
                results = [f.result() for f in futs]
        times[target] = time.perf_counter() - t1
        passed = sum(ok for ok, _, _ in results)
        n_run_only = sum(ok and how == "run only" for ok, _, how in results)
        tolerance = sum(ok and how == "tolerance" for ok, _, how in results)
        for (c, k, _), (ok, err, _) in zip(kernels, results):
            if not ok:
                print(f"FAIL {c}/{k} {target}: {err}")
        failed_any |= passed != len(kernels)
        label = "ptx printer" if target == "printer" else target
        if target in ("ptx", "printer") and not ptxas:
            failed_any = True
            summary.append(f"differential on {label}: not run: ptxas not found ({args.ptxas}); "
                           f"PTX export alone{' and sm_80 on sim' if target == 'printer' else ''}: "
                           f"{passed}/{len(kernels)} kernels")
            continue
        extra = (f" ({n_run_only} of them run only: values target-defined, unspecified or a tinygrad bug,"
                 f" cases.py's kinds)") if n_run_only else ""
        extra += (f" ({tolerance} within tolerance, not bit-exact: tinygrad reassociates)"
                  if tolerance else "")
        extra += " (sm_80 and sm_90a)" if target == "ptx" else ""
        extra += (" (ptxas sm_80 and sm_90a; sm_80 on sim, bit for bit as sim ran the IR)"
                  if target == "printer" else "")
        summary.append(f"differential on {label}: {passed}/{len(kernels)} passed{sample}{extra}")
    print(f"time: capture {t_capture:.1f} s, " + ", ".join(f"{t} {s:.1f} s" for t, s in times.items())
          + f" ({args.jobs} jobs)")
    print("\n".join(summary))
    if args.summary:
        with open(args.summary, "w") as f:
            f.write("\n".join(summary) + "\n")
    if not kernels:
        print("error: no kernel was captured")
        failed_any = True
    return 1 if failed_any else 0


if __name__ == "__main__":
    sys.exit(main())

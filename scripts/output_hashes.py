#!/usr/bin/env python3
"""Hashes of everything the compiler produces for the corpora, to prove a refactor
changed nothing (or to list exactly what it changed).

What is hashed (SHA-256, one line per item):
  - ptx <chip> <kernel>: the PTX `uop-translate --export-ptx` writes for every kernel of
    <shared>/corpus and <shared>/corpus-perf, for each --chip (default sm_80 and sm_90a),
    with tinygrad's heuristic opts (the default pipeline), header line included (it has
    the launch dimensions);
  - llvm <corpus>: the LLVM dialect `uop-opt --uop-to-llvm` makes of each corpus imported
    as one module (the host pipeline's code, before LLVM's own optimizations);
  - cpu <kernel> b<i>: every buffer after `uop-run K.json --target=cpu --write-buffers`
    for every kernel of <shared>/corpus (the buffer-less corpus-perf kernels have no
    inputs to run on), and that run's exit status;
  - with --sim, the same through `uop-run --target=sim`.

usage:
  output_hashes.py --write FILE   [--build DIR] [--shared DIR] [--chips sm_80,sm_90a] [--sim]
  output_hashes.py --check FILE   (same options): exit 1 and list every difference

A typical refactor: `--write /tmp/before.txt` on the base commit, rebuild, then
`--check /tmp/before.txt`. Nothing here is a tolerance: a single changed byte of PTX or
of an output buffer is a difference.
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def die(msg):
    print(f"output_hashes: error: {msg}", file=sys.stderr)
    sys.exit(2)


def sha(data):
    return hashlib.sha256(data).hexdigest()


def kernels(corpus):
    """Every kernel JSON of a corpus directory, as (name, path), in a stable order."""
    out = []
    for case in sorted(os.listdir(corpus)):
        d = os.path.join(corpus, case)
        if not os.path.isdir(d):
            continue
        for k in sorted((f for f in os.listdir(d) if re.fullmatch(r"k\d+\.json", f)),
                        key=lambda f: int(f[1:-5])):
            out.append((f"{case}_{k[:-5]}", os.path.join(d, k)))
    return out


def ptx_hashes(tool, files, chip, what):
    """{kernel name: hash} of one --export-ptx process over `files`."""
    with tempfile.TemporaryDirectory() as tmp:
        p = subprocess.run([tool, "--export-ptx", *files, f"--chip={chip}", f"--ptx-dir={tmp}"],
                           capture_output=True, text=True)
        if p.returncode != 0:
            die(f"--export-ptx of {what} for {chip} failed (exit {p.returncode}):\n"
                f"{p.stderr.strip()}")
        out = {}
        for f in sorted(os.listdir(tmp)):
            with open(os.path.join(tmp, f), "rb") as fh:
                out[f[:-4]] = sha(fh.read())
        if len(out) != len(files):
            die(f"--export-ptx of {what} for {chip} wrote {len(out)} files for "
                f"{len(files)} kernels")
        return out


def llvm_hash(translate, opt, files, what):
    """The hash of the host pipeline's output for `files` imported as one module."""
    imp = subprocess.run([translate, "--import-tinygrad", *files], capture_output=True)
    if imp.returncode != 0:
        die(f"--import-tinygrad of {what} failed:\n{imp.stderr.decode().strip()}")
    low = subprocess.run([opt, "-", "--uop-to-llvm"], input=imp.stdout, capture_output=True)
    if low.returncode != 0:
        die(f"--uop-to-llvm of {what} failed:\n{low.stderr.decode().strip()}")
    return sha(low.stdout)


def run_hashes(tool, name, path, target):
    """[(key, value)] for one uop-run: its exit status and each buffer's hash."""
    with tempfile.TemporaryDirectory() as tmp:
        p = subprocess.run([tool, path, f"--target={target}", f"--write-buffers={tmp}"],
                           capture_output=True, text=True)
        rows = [(f"{target} {name} exit", str(p.returncode))]
        # Exit 0 (pass) and 1 (a mismatch with tinygrad) both wrote the buffers.
        if p.returncode in (0, 1):
            for f in sorted(os.listdir(tmp), key=lambda f: int(f[1:-4])):
                with open(os.path.join(tmp, f), "rb") as fh:
                    rows.append((f"{target} {name} {f[:-4]}", sha(fh.read())))
        return rows


def collect(args):
    bin_dir = os.path.join(args.build, "bin")
    translate, run = os.path.join(bin_dir, "uop-translate"), os.path.join(bin_dir, "uop-run")
    opt = os.path.join(bin_dir, "uop-opt")
    for t in (translate, run, opt):
        if not os.access(t, os.X_OK):
            die(f"{t} is missing: build first")
    corpus = os.path.join(args.shared, "corpus")
    perf = os.path.join(args.shared, "corpus-perf")
    if not os.path.isdir(corpus) or not os.path.isdir(perf):
        die(f"no corpus and corpus-perf in {args.shared}")
    rows = []
    for what, d in (("corpus", corpus), ("corpus-perf", perf)):
        files = [p for _, p in kernels(d)]
        for chip in args.chips.split(","):
            for name, h in sorted(ptx_hashes(translate, files, chip, what).items()):
                rows.append((f"ptx {chip} {name}", h))
        rows.append((f"llvm {what}", llvm_hash(translate, opt, files, what)))
    targets = ["cpu"] + (["sim"] if args.sim else [])
    jobs = [(name, path, t) for t in targets for name, path in kernels(corpus)]
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        for r in pool.map(lambda j: run_hashes(run, *j), jobs):
            rows.extend(r)
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", metavar="FILE")
    mode.add_argument("--check", metavar="FILE")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--shared", default=os.path.join(os.path.dirname(ROOT), "shared"))
    ap.add_argument("--chips", default="sm_80,sm_90a")
    ap.add_argument("--sim", action="store_true", help="also run every corpus kernel on sim")
    args = ap.parse_args()

    rows = collect(args)
    if args.write:
        with open(args.write, "w") as f:
            f.writelines(f"{k} {v}\n" for k, v in rows)
        print(f"output_hashes: wrote {len(rows)} hashes to {args.write}")
        return 0
    with open(args.check) as f:
        before = dict(line.rstrip("\n").rsplit(" ", 1) for line in f if line.strip())
    now = dict(rows)
    changed = [k for k in before if k in now and before[k] != now[k]]
    missing = [k for k in before if k not in now]
    added = [k for k in now if k not in before]
    for what, keys in (("changed", changed), ("missing", missing), ("new", added)):
        for k in keys:
            print(f"{what}: {k}")
    same = len(before) - len(changed) - len(missing)
    print(f"output_hashes: {same} of {len(before)} identical, {len(changed)} changed, "
          f"{len(missing)} missing, {len(added)} new")
    return 1 if changed or missing or added else 0


if __name__ == "__main__":
    sys.exit(main())

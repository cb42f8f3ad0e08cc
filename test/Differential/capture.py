#!/usr/bin/env python3
"""capture.py WORKDIR [--tinygrad DIR] [--only REGEX] [--shard I/N]

Runs every program of cases.py with tinygrad on its CPU device (CPU=1,
CC=tinygrad_cc.py: clang-22) and captures every kernel tinygrad executes, in the corpus
format (../shared/corpus/README.md):

  WORKDIR/<case>/kN.json      the kernel AST tinygrad hands to code generation
                              (ScheduleItem.ast, the AST get_program receives)
  WORKDIR/<case>/kN_bI_in.bin  buffer I before the kernel runs
  WORKDIR/<case>/kN_bI_out.bin buffer I after it runs (buffers the kernel stores to)
  WORKDIR/index.json          {case: [kernel files]} as in the corpus
  WORKDIR/cases.json          {case: {"order", "kind", "kernels", "duplicates"}} for run_differential.py
  WORKDIR/capture-failures.txt the cases tinygrad itself failed on (if any)

Only code-generated kernels are captured: COPY (BufferCopy/BufferXfer) and
BUFFER_VIEW items are not kernels. A buffer the kernel only writes, all of it
(one contiguous view, no mask, no offset), gets no input file, so uop-run
fills it with 0xA5 and an element we fail to write cannot match by luck.
Identical kernels (same AST, same input bytes) are kept once: the first case
that ran one owns it (run_differential.py also drops those repeated across
shards). Exits 1 if tinygrad fails on a case, runs no kernel for it, or an
AST cannot be exported. TINYGRAD_CC overrides the C compiler (clang-22).
Needs only Debian's python3 (tinygrad itself needs nothing else here).
"""
import argparse
import hashlib
import json
import math
import os
import re
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_TINYGRAD = os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared", "tinygrad"))


def setup_tinygrad(path):
    """Import tinygrad from `path` on its CPU device; exit with a clear message if absent."""
    if not os.path.isfile(os.path.join(path, "tinygrad", "__init__.py")):
        sys.exit(f"error: tinygrad not found at {path} (expected ../shared/tinygrad beside the "
                 "project; pass --tinygrad DIR): the differential suite needs tinygrad as its oracle")
    # tinygrad's CPU device, compiling its C with clang-22 (Debian's clang 14 cannot compile
    # tinygrad's bf16 kernels) through tinygrad_cc.py, which supplies the float -> bf16
    # routine clang calls on a host without AVX512-BF16; TINYGRAD_CC overrides the compiler.
    os.environ["CPU"] = "1"
    os.environ["CC"] = os.path.join(HERE, "tinygrad_cc.py")
    sys.path.insert(0, path)
    sys.path.insert(0, HERE)
    import tinygrad  # noqa: F401


# ---------------------------------------------------------------- AST -> JSON
# The exporter is the uop_mlir package's (python/uop_mlir/tinygrad/ast.py), the one
# the tinygrad backend uses, loaded from the source tree on its own: it is pure
# Python, and the package's native module need not load here (in a sanitized
# build it would need the ASan runtime preloaded).
def _load_exporter():
    import importlib.util
    path = os.path.join(HERE, "..", "..", "python", "uop_mlir", "tinygrad", "ast.py")
    spec = importlib.util.spec_from_file_location("uop_mlir_tinygrad_ast", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_exporter = _load_exporter()
ExportError, dtype_name, export_ast = _exporter.ExportError, _exporter.dtype_name, _exporter.export_ast


def stored_and_loaded(order):
    """(DEFINE_GLOBAL indices stored to, those also loaded, those whose STORE may not cover
    the whole buffer: a view with a mask, an offset, or fewer elements than the buffer)."""
    from tinygrad.uop.ops import Ops

    def global_of(view):
        for s in view.toposort():
            if s.op is Ops.DEFINE_GLOBAL:
                return s.arg
        return None

    stored, loaded, masked = set(), set(), set()
    for u in order:
        if u.op is Ops.STORE:
            g = global_of(u.src[0])
            stored.add(g)
            view = u.src[0]
            vs = view.arg.views if view.op is Ops.VIEW else ()
            whole = (len(vs) == 1 and vs[0].mask is None and vs[0].offset == 0 and vs[0].contiguous
                     and math.prod(vs[0].shape) == view.dtype.size)
            if not whole:
                masked.add(g)
        elif u.op is Ops.LOAD:
            loaded.add(global_of(u.src[0]))
    return stored, loaded, masked


# ---------------------------------------------------------------- capture


class Capture:
    def __init__(self, workdir):
        self.workdir = workdir
        self.case = None
        self.seen = {}          # kernel key -> "case/kN.json"
        self.kernels = {}       # case -> [kN.json]
        self.duplicates = {}    # case -> number of kernels already captured elsewhere
        self.errors = []        # (case, message)
        self.pending = []

    def record(self, si, run):
        """Runs the kernel of `si` through `run()` and writes it with its buffers."""
        bufs = si.bufs
        before = [bytes(b.as_buffer()) if b.is_initialized() else None for b in bufs]
        ret = run()
        try:
            self._write(si, before)
        except Exception as e:  # noqa: BLE001 -- an exporter bug must not look like tinygrad's
            self.errors.append((self.case, f"cannot export a kernel: {type(e).__name__}: {e}"))
        return ret

    def _write(self, si, before):
        from tinygrad.uop.ops import Ops
        nodes, order = export_ast(si.ast)
        globals_ = sorted({u.arg for u in order if u.op is Ops.DEFINE_GLOBAL})
        if globals_ != list(range(len(globals_))) or len(globals_) > len(si.bufs):
            raise ExportError(f"DEFINE_GLOBAL indices {globals_} for {len(si.bufs)} buffers")
        stored, loaded, masked = stored_and_loaded(order)
        buffers = []
        for i, b in enumerate(si.bufs):
            write_only = i in stored and i not in loaded and i not in masked
            buffers.append({
                "index": i, "dtype": dtype_name(b.dtype), "size": b.size,
                "in": None if write_only else before[i],
                "out": bytes(b.as_buffer()) if i in stored else None,
            })
        h = hashlib.sha256(json.dumps(nodes).encode())
        for b in buffers:
            h.update(b"|" + (b["in"] if b["in"] is not None else b"-"))
        key = h.hexdigest()
        if key in self.seen:
            self.duplicates[self.case] = self.duplicates.get(self.case, 0) + 1
            return
        ks = self.kernels.setdefault(self.case, [])
        k = len(ks)
        folder = os.path.join(self.workdir, self.case)
        os.makedirs(folder, exist_ok=True)
        entries = []
        for b in buffers:
            e = {"index": b["index"], "dtype": b["dtype"], "size": b["size"], "input": None, "expected": None}
            for field, data, suffix in (("input", b["in"], "in"), ("expected", b["out"], "out")):
                if data is not None:
                    e[field] = f"k{k}_b{b['index']}_{suffix}.bin"
                    with open(os.path.join(folder, e[field]), "wb") as f:
                        f.write(data)
            entries.append(e)
        with open(os.path.join(folder, f"k{k}.json"), "w") as f:
            json.dump({"case": self.case, "kernel": k, "nodes": nodes, "buffers": entries}, f)
        ks.append(f"k{k}.json")
        self.seen[key] = f"{self.case}/k{k}.json"


def install_hook(cap):
    """Wraps tinygrad's lowering so that every code-generated kernel is captured when it runs."""
    from dataclasses import dataclass
    from tinygrad.engine import realize
    from tinygrad.uop.ops import Ops

    @dataclass(frozen=True)
    class CapturingExecItem(realize.ExecItem):
        si: object = None

        def run(self, *args, **kwargs):
            return cap.record(self.si, lambda: realize.ExecItem.run(self, *args, **kwargs))

    orig = realize.lower_schedule_item

    def lower_schedule_item(si):
        ei = orig(si)
        if si.ast.op is not Ops.SINK or not isinstance(ei.prg, realize.CompiledRunner):
            return ei  # COPY, BUFFER_VIEW: not kernels
        if not ei.prg.device.startswith("CPU"):
            cap.errors.append((cap.case, f"a kernel ran on {ei.prg.device}, not on CPU"))
            return ei
        return CapturingExecItem(ei.prg, ei.bufs, ei.metadata, ei.fixedvars, si)

    realize.lower_schedule_item = lower_schedule_item


def realize_all(result):
    from tinygrad import Tensor
    ts = list(result) if isinstance(result, (tuple, list)) else [result]
    for t in ts:
        if not isinstance(t, Tensor):
            raise TypeError(f"a case must return a Tensor or a tuple of them, got {type(t).__name__}")
    # contiguous(): a result that is only a view of a buffer (pad, repeat, ...) becomes a kernel.
    Tensor.realize(*[t.contiguous() for t in ts])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("workdir")
    ap.add_argument("--tinygrad", default=os.environ.get("TINYGRAD_PATH", DEFAULT_TINYGRAD))
    ap.add_argument("--only", help="capture only the cases whose name matches this regex")
    ap.add_argument("--shard", default="0/1", help="I/N: capture every N-th case starting at I")
    args = ap.parse_args()
    setup_tinygrad(args.tinygrad)
    import cases as case_table

    shard, nshards = (int(x) for x in args.shard.split("/"))
    table = case_table.cases()
    order = {c.name: i for i, c in enumerate(table)}
    names = [c.name for c in table]
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        sys.exit(f"error: case names used twice in cases.py: {sorted(dup)}")
    if args.only:
        table = [c for c in table if re.search(args.only, c.name)]
    table = table[shard::nshards]

    os.makedirs(args.workdir, exist_ok=True)
    cap = Capture(args.workdir)
    install_hook(cap)
    t0 = time.perf_counter()
    for c in table:
        cap.case = c.name
        n_before = len(cap.errors)
        try:
            realize_all(c.program())
        except Exception as e:  # tinygrad itself failed: the table is wrong
            msg = traceback.format_exception_only(type(e), e)[-1].strip()
            cap.errors.append((c.name, f"tinygrad failed: {msg}"))
        if len(cap.errors) == n_before and not cap.kernels.get(c.name) and not cap.duplicates.get(c.name):
            cap.errors.append((c.name, "tinygrad ran no kernel for this case (constant-folded?)"))
    secs = time.perf_counter() - t0

    index = {c.name: cap.kernels[c.name] for c in table if cap.kernels.get(c.name)}
    meta = {c.name: {"order": order[c.name], "kind": c.kind, "kernels": cap.kernels.get(c.name, []),
                     "duplicates": cap.duplicates.get(c.name, 0)} for c in table}
    suffix = "" if nshards == 1 else f".{shard}"
    with open(os.path.join(args.workdir, f"index.json{suffix}"), "w") as f:
        json.dump(index, f, indent=1)
    with open(os.path.join(args.workdir, f"cases.json{suffix}"), "w") as f:
        json.dump(meta, f, indent=1)
    with open(os.path.join(args.workdir, f"capture-failures.txt{suffix}"), "w") as f:
        for name, msg in cap.errors:
            f.write(f"{name}: {msg}\n")
    nk = sum(len(v) for v in cap.kernels.values())
    print(f"captured {nk} distinct kernels from {len(table)} cases "
          f"({sum(cap.duplicates.values())} duplicates skipped) in {secs:.1f} s")
    for name, msg in cap.errors:
        print(f"CAPTURE FAIL {name}: {msg}")
    return 1 if cap.errors else 0


if __name__ == "__main__":
    sys.exit(main())

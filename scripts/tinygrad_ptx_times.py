#!/usr/bin/env python3
"""tinygrad's compile time on this machine: get_program(ast, PTXRenderer(chip)) per kernel.

usage: tinygrad_ptx_times.py [--tinygrad DIR] [--chip sm_80] --warm K.json... --measure K.json...

Each kernel JSON (the corpus format) is read into tinygrad UOps by uop_mlir's import_ast
and compiled by tinygrad's get_program (its heuristic opts and tensor cores, lowering,
linearizing, rendering PTX; no GPU needed), as tinygrad compiles a kernel it has not
seen in a process that has run for a while: the --warm kernels are compiled first
(imports, pattern matchers and tinygrad's caches warmed), then each --measure kernel
once. A kernel is measured once per process because tinygrad caches what it derives from
UOps it has seen, and rebuilt UOps are the same objects: the same kernels compiled again
in one process took up to a third less time here (the corpus after corpus-perf, four
processes: 769-1089 ms the first time, 584-756 the third).

Prints JSON, {"path": {"cpu_ms": ..., "wall_ms": ...}} for the measured kernels (CPU:
process_time, every thread of this process).

scripts/bench_ptx.py runs this for its tinygrad figures (warm on the other corpus).
"""
import argparse
import importlib.util
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# get_program's default environment (as ../shared/anchors measured it): nothing that
# changes the optimizer or prints.
for var in ("DEBUG", "IMAGE", "BEAM", "NOOPT", "TC", "TC_SELECT", "TC_OPT", "AMX", "NOLOCALS",
            "MV", "TRANSCENDENTAL", "DEVECTORIZE", "VIZ", "SPLIT_REDUCEOP", "PTX"):
    os.environ.pop(var, None)


def load_ast_module():
    """uop_mlir's ast.py from the source tree on its own (pure Python: the package's
    native module need not be built)."""
    path = os.path.join(ROOT, "python", "uop_mlir", "tinygrad", "ast.py")
    spec = importlib.util.spec_from_file_location("uop_mlir_tinygrad_ast", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tinygrad", default=os.path.join(ROOT, "..", "shared", "tinygrad"))
    ap.add_argument("--chip", default="sm_80")
    ap.add_argument("--warm", nargs="*", default=[])
    ap.add_argument("--measure", nargs="+", required=True)
    args = ap.parse_args()
    if not os.path.isfile(os.path.join(args.tinygrad, "tinygrad", "__init__.py")):
        sys.exit(f"tinygrad_ptx_times: tinygrad not found at {args.tinygrad}")
    sys.path.insert(0, os.path.abspath(args.tinygrad))
    from tinygrad.engine.realize import get_program
    from tinygrad.renderer.ptx import PTXRenderer
    import_ast = load_ast_module().import_ast
    renderer = PTXRenderer(args.chip)

    def nodes_of(path):
        with open(path) as f:
            return json.load(f)["nodes"]

    for path in args.warm:
        get_program(import_ast(nodes_of(path))[-1], renderer)
    times = {}
    for path in args.measure:
        ast = import_ast(nodes_of(path))[-1]
        cpu0, wall0 = time.process_time(), time.perf_counter()
        get_program(ast, renderer)
        times[path] = {"cpu_ms": (time.process_time() - cpu0) * 1e3,
                       "wall_ms": (time.perf_counter() - wall0) * 1e3}
    json.dump(times, sys.stdout)
    print()


if __name__ == "__main__":
    main()

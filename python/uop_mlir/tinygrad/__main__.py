"""python3 -m uop_mlir.tinygrad [--fallback] SCRIPT [ARGS...]
python3 -m uop_mlir.tinygrad [--fallback] -m MODULE [ARGS...]

Runs a Python program with uop-mlir installed as tinygrad's compiler, as
`python3 -m coverage run` runs one under coverage: SCRIPT (or MODULE, e.g.
`-m pytest test/`) sees the arguments after it as its sys.argv. --fallback lets
tinygrad compile the kernels uop-mlir cannot (UOP_MLIR_FALLBACK=1 does too);
UOP_MLIR_STATS=1 prints "uop-mlir: N kernels compiled, M fallbacks" at exit.
"""
import os
import runpy
import sys


def main(argv):
    fallback = False
    while argv and argv[0] == "--fallback":
        fallback, argv = True, argv[1:]
    if not argv or argv[0] in ("-h", "--help") or (argv[0] == "-m" and len(argv) < 2):
        print(__doc__.strip(), file=sys.stderr if argv[:1] != ["-h"] and argv[:1] != ["--help"] else sys.stdout)
        return 0 if argv[:1] in (["-h"], ["--help"]) else 2
    from . import install
    install(fallback=fallback or None)
    if argv[0] == "-m":
        sys.argv = argv[1:]
        runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
    else:
        script = argv[0]
        if not os.path.isfile(script):
            print(f"error: no such script: {script}", file=sys.stderr)
            return 2
        sys.argv = argv
        sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
        runpy.run_path(script, run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""uop-mlir as tinygrad's compiler (docs/python.md):

    import uop_mlir.tinygrad
    uop_mlir.tinygrad.install()      # every kernel tinygrad schedules now compiles with uop-mlir

or, for a whole program: python3 -m uop_mlir.tinygrad SCRIPT [ARGS] / -m MODULE [ARGS].
compile_program(device, ast) gives the ProgramSpec (and our compiled kernel or PTX)
for one kernel AST without installing anything.
"""
from .backend import (UopMLIRBackendError, compile_program, compile_runner, install, installed,
                      stats, uninstall)

__all__ = ["install", "uninstall", "installed", "stats", "compile_program", "compile_runner",
           "UopMLIRBackendError"]

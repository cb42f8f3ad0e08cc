"""uop-mlir as tinygrad's compiler (docs/python.md):

    import uop_mlir.tinygrad
    uop_mlir.tinygrad.install()      # every kernel tinygrad schedules now compiles with uop-mlir

or, for a whole program: python3 -m uop_mlir.tinygrad SCRIPT [ARGS] / -m MODULE [ARGS].
"""
from .backend import UopMLIRBackendError, install, installed, stats, uninstall

__all__ = ["install", "uninstall", "installed", "stats", "UopMLIRBackendError"]

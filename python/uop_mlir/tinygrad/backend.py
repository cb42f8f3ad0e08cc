"""uop-mlir as tinygrad's compiler: install() replaces the code generation of tinygrad's
get_runner (tinygrad/engine/realize.py) for every kernel AST it schedules.

tinygrad hands get_program the kernel AST before its own opts; here the AST becomes
kernel JSON (ast.py), is imported and compiled by uop-mlir with uop-mlir's opts
(tinygrad's heuristic, reimplemented; NOOPT=1 turns it off), and runs:

- on tinygrad's CPU device: the uop-to-llvm pipeline, JIT-compiled, called on
  tinygrad's buffers in place;
- on tinygrad's CUDA device: our PTX with our launch dims, loaded and launched by
  tinygrad's own CUDA runtime (CUDAProgram).

A kernel uop-mlir cannot compile is an error (UopMLIRBackendError), unless a fallback
is asked for (install(fallback=True) or UOP_MLIR_FALLBACK=1): then tinygrad compiles
it itself, and it counts as a fallback. UOP_MLIR_STATS=1 prints at exit
"uop-mlir: N kernels compiled, M fallbacks".
"""
import atexit
import ctypes
import functools
import operator
import os
import time

import uop_mlir

from .ast import kernel_json


class UopMLIRBackendError(RuntimeError):
    """A kernel the backend could not compile (and no fallback was asked for)."""


class Stats:
    def __init__(self):
        self.compiled = 0          # kernels compiled by uop-mlir
        self.fallbacks = 0         # kernels tinygrad compiled itself
        self.compile_seconds = 0.0  # in uop-mlir: AST export, import, pipeline, JIT or PTX
        self.host_runs = 0         # runs of uop-mlir's CPU kernels
        self.fallback_reasons = []

    def line(self):
        return f"uop-mlir: {self.compiled} kernels compiled, {self.fallbacks} fallbacks"


stats = Stats()
_state = {"orig": None, "orig_lowerer": None, "fallback": False, "context": None, "cache": {},
          "atexit": False}

HOST_DEVICES = ("CPU",)
PTX_DEVICES = ("CUDA",)


def installed():
    return _state["orig"] is not None


def install(fallback=None):
    """Makes tinygrad compile every kernel with uop-mlir (idempotent). `fallback`
    (default: UOP_MLIR_FALLBACK=1) lets tinygrad compile what uop-mlir cannot."""
    try:
        from tinygrad.engine import realize
    except ImportError as e:
        raise ImportError("uop_mlir.tinygrad needs tinygrad importable (e.g. PYTHONPATH="
                          "../shared/tinygrad)") from e
    _state["fallback"] = (os.environ.get("UOP_MLIR_FALLBACK", "0") not in ("", "0")
                          if fallback is None else bool(fallback))
    if _state["context"] is None:
        _state["context"] = uop_mlir.Context()
    if _state["orig"] is None:
        from tinygrad.uop.ops import Ops, PatternMatcher, UPat
        _state["orig"], _state["orig_lowerer"] = realize.get_runner, realize.si_lowerer
        realize.get_runner = get_runner
        # si_lowerer's rules hold the get_runner they were made with (PatternMatcher
        # copies a rule's globals): a rule for kernels comes first, tinygrad's after it.
        realize.si_lowerer = PatternMatcher([(UPat(Ops.SINK, name="sink"), _lower_kernel)]) + \
            _state["orig_lowerer"]
    if os.environ.get("UOP_MLIR_STATS", "0") not in ("", "0") and not _state["atexit"]:
        atexit.register(lambda: print(stats.line(), flush=True))
        _state["atexit"] = True


def uninstall():
    """Gives tinygrad its own code generation back (kernels already compiled stay cached
    in tinygrad's runners that hold them)."""
    from tinygrad.engine import realize
    if _state["orig"] is not None:
        realize.get_runner, realize.si_lowerer = _state["orig"], _state["orig_lowerer"]
        _state["orig"] = _state["orig_lowerer"] = None


def _lower_kernel(ctx, sink):
    """si_lowerer's rule for a kernel (ctx: the schedule item's buffers)."""
    runner = get_runner(ctx[0].device, sink)
    return runner, [ctx[x] for x in runner.p.globals]


def get_runner(device, ast):
    """realize.get_runner with uop-mlir's code generation."""
    from tinygrad.helpers import NOOPT
    key = (device, ast.key, NOOPT.value)
    runner = _state["cache"].get(key)
    if runner is not None:
        return runner
    start = time.perf_counter()
    try:
        runner = compile_runner(device, ast, heuristic=not NOOPT.value)
        stats.compile_seconds += time.perf_counter() - start
        stats.compiled += 1
    except Exception as e:  # noqa: BLE001 -- reported, or raised below
        if not _state["fallback"]:
            raise UopMLIRBackendError(f"uop-mlir cannot compile a kernel for {device}: {e}") from e
        stats.fallbacks += 1
        stats.fallback_reasons.append(f"{type(e).__name__}: {e}")
        runner = _state["orig"](device, ast)
    _state["cache"][key] = runner
    return runner


def kernel_name(ast):
    """A name in tinygrad's style: r_ for kernels that reduce, E_ for the others, then
    the stored view's shape."""
    from tinygrad.uop.ops import Ops
    order = ast.toposort()
    reduce = any(u.op is Ops.REDUCE_AXIS for u in order)
    store = next((u for u in order if u.op is Ops.STORE), None)
    shape = store.src[0].arg.shape if store is not None and store.src[0].op is Ops.VIEW else ()
    # a symbolic size as tinygrad renders it ("n", "(n+1)")
    return ("r" if reduce else "E") + "".join(f"_{s if isinstance(s, int) else s.render()}"
                                              for s in shape)


def buffer_roles(ast):
    """(DEFINE_GLOBAL indices, those stored to, those loaded), sorted."""
    from tinygrad.uop.ops import Ops

    def global_of(u):
        return next(s.arg for s in u.toposort() if s.op is Ops.DEFINE_GLOBAL)
    order = ast.toposort()
    globals_ = sorted(u.arg for u in order if u.op is Ops.DEFINE_GLOBAL)
    outs = sorted({global_of(u.src[0]) for u in order if u.op is Ops.STORE})
    ins = sorted({global_of(u.src[0]) for u in order if u.op is Ops.LOAD})
    return globals_, outs, ins


def compile_program(device, ast, heuristic=True, chip=None):
    """(ProgramSpec, compiled) for `ast` on `device`: compiled is a uop_mlir.Kernel on
    the host devices, a uop_mlir.PTXKernel on the PTX ones (for `chip`, by default the
    newest chip the device runs)."""
    from tinygrad.device import Device
    from tinygrad.renderer import ProgramSpec
    base = device.split(":")[0]
    if base not in HOST_DEVICES + PTX_DEVICES:
        raise UopMLIRBackendError(f"device {device}: uop-mlir compiles for "
                                  f"{', '.join(HOST_DEVICES + PTX_DEVICES)}")
    name = kernel_name(ast)
    module = uop_mlir.import_tinygrad(kernel_json(ast, name), filename=f"<tinygrad {name}>",
                                      context=_state["context"] or uop_mlir.default_context())
    globals_, outs, ins = buffer_roles(ast)
    spec = dict(name=name, src=str(module), device=device, ast=ast, uops=None,
                globals=globals_, outs=outs, ins=ins)
    # The values tinygrad passes at launch: the variables the compiled kernel takes, in
    # its order (sorted by name, as tinygrad sorts them).
    by_name = {v.arg[0]: v for v in ast.variables()}
    if base in HOST_DEVICES:
        kernel = uop_mlir.compile(module, "cpu", heuristic=heuristic,
                                  check_accesses=os.environ.get("UOP_MLIR_CHECK_ACCESSES", "1") != "0")
        spec["vars"] = [by_name[name] for name, _, _ in kernel.variables]
        return ProgramSpec(**spec), kernel
    chip = chip or chip_for_arch(Device[device].arch)
    (ptx,) = uop_mlir.compile(module, "ptx", chip=chip, heuristic=heuristic)
    spec["vars"] = [by_name[name] for name, _, _ in ptx.variables]
    # A symbolic launch size as the tinygrad expression launch_dims evaluates.
    dims = list(ptx.grid) + list(ptx.block)
    for slot, constant, terms in ptx.symbolic_sizes:
        products = [by_name[var] if coef == 1 else by_name[var] * coef for var, coef in terms]
        size = functools.reduce(operator.add, products)
        dims[slot] = size + constant if constant else size
    return ProgramSpec(**spec, global_size=dims[:3], local_size=dims[3:]), ptx


def chip_for_arch(arch):
    """uop-mlir's chip for tinygrad's CUDA arch ("sm_89"): the newest one the device runs."""
    digits = arch.removeprefix("sm_").rstrip("a")
    major, minor = int(digits[:-1]), int(digits[-1])
    chip = (_state["context"] or uop_mlir.default_context()).chip_for_compute_capability(major, minor)
    if not chip:
        raise UopMLIRBackendError(f"no chip uop-mlir knows runs on {arch}")
    return chip


class HostProgram:
    """tinygrad's program interface (CPUProgram's) over a uop-mlir CPU kernel: called
    with tinygrad's host buffers (ctypes arrays), run in place."""

    def __init__(self, kernel):
        self.kernel = kernel

    def __call__(self, *bufs, vals=(), wait=False):
        ms = self.kernel.run_pointers([ctypes.addressof(b) for b in bufs],
                                      [ctypes.sizeof(b) for b in bufs], vals)
        stats.host_runs += 1
        return ms / 1e3 if wait else None


def compile_runner(device, ast, heuristic=True):
    """A tinygrad CompiledRunner for `ast` on `device`, compiled by uop-mlir."""
    from tinygrad.engine.realize import CompiledRunner
    spec, compiled = compile_program(device, ast, heuristic)
    if isinstance(compiled, uop_mlir.Kernel):
        return CompiledRunner(spec, precompiled=spec.src.encode(), prg=HostProgram(compiled))
    # tinygrad's CUDA runtime loads PTX as it loads its own (cuModuleLoadData).
    return CompiledRunner(spec, precompiled=compiled.ptx.encode())

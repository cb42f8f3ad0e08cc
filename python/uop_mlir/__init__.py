"""uop-mlir from Python: tinygrad's UOp IR compiled through MLIR.

    import numpy as np, uop_mlir
    m = uop_mlir.import_tinygrad(open("k0.json").read())   # or uop_mlir.parse(mlir_text)
    add = uop_mlir.compile(m, target="cpu")                 # or "sim", "cuda", "auto"
    out, a, b = add(np.zeros(128, np.float32), np.ones(128, np.float32), np.ones(128, np.float32))
    ptx = uop_mlir.compile(m, target="ptx", chip="sm_80")   # [PTXKernel(name, chip, ptx, grid, block)]

A tensor graph (tinygrad's kernelize input) becomes kernels and a schedule, and
runs whole:

    m = uop_mlir.import_tinygrad_graph(open("case.json").read())
    schedule = uop_mlir.kernelize(m)                        # tinygrad's kernels, in its order
    results = schedule.run({0: a, 1: b}, target="sim")      # the graph's results

Every failure raises uop_mlir.Error, whose `diagnostics` are MLIR's, with
their locations (docs/python.md).
"""
import json as _json

import numpy as _np

from . import _uop_mlir as _native
from . import graphs as _graphs
from .graphs import Schedule

__all__ = ["Error", "Context", "Module", "Kernel", "PTXKernel", "Schedule", "parse",
           "import_tinygrad", "import_tinygrad_graph", "kernelize", "compile", "default_context",
           "__version__"]

__version__ = _native.version()
Context = _native.Context
Module = _native.Module
PTXKernel = _native.PTXKernel


class Error(Exception):
    """A failure of uop-mlir: `message` says what failed, `diagnostics` lists MLIR's
    diagnostics ("file:line:col: error: ...") in the order they were emitted."""

    def __init__(self, message, diagnostics=()):
        self.message = message
        self.diagnostics = list(diagnostics)
        super().__init__("\n".join([message, *self.diagnostics]))


_native._set_error_type(Error)

_default = None


def default_context():
    """The context functions use when none is given (made on first use)."""
    global _default
    if _default is None:
        _default = Context()
    return _default


def parse(text, context=None):
    """A module parsed from MLIR text (uop kernels, or any level of the pipelines)."""
    return Module.parse(context or default_context(), text)


def import_tinygrad(kernel, name="kernel", filename="<json>", context=None, module=None):
    """Imports a tinygrad kernel in the corpus JSON format (a str, or the decoded dict) as
    a uop.kernel appended to `module` (a new module if None), which is returned. The
    kernel is named from the JSON's "case"/"kernel" or "name" fields, else `name`."""
    text = kernel if isinstance(kernel, str) else _json.dumps(kernel)
    if module is None:
        module = Module.empty(context or default_context())
    module.import_tinygrad(text, filename, name)
    return module


def import_tinygrad_graph(case, name="graph", filename="<json>", context=None, module=None):
    """Imports a tinygrad tensor graph (a ../shared/graphs case: a str or the decoded dict)
    as a func.func of uop tensor ops appended to `module` (a new module if None), which
    is returned. The function is named from the case's "case" field, else `name`."""
    if module is None:
        module = Module.empty(context or default_context())
    return _graphs.import_tinygrad_graph(case, module, name, filename)


def kernelize(module, *, plan_buffers=True, in_place=True, **flags):
    """tinygrad's kernelize and scheduler on every tensor graph of `module`
    (`uop-kernelize`, then `uop-plan-buffers` unless plan_buffers=False), with tinygrad's
    flags as keywords (FUSE_ARANGE=1, DONT_GROUP_REDUCES=1, ...). Returns the Schedule
    (of the only graph), or a list of them; on a copy of `module` if not in_place."""
    m = module if in_place else module.clone()
    m.run_pipeline(_graphs.kernelize_pipeline(plan_buffers, **flags))
    names = m.schedules
    schedules = [Schedule(m, n) for n in names]
    return schedules[0] if len(schedules) == 1 else schedules


def _quote(value):
    return '"' + value + '"' if any(c in value for c in ' ,{}="') else value


def _codegen_options(opts, heuristic, optimize, tc_schedule="auto"):
    out = [f"optimize={'true' if optimize else 'false'}",
           f"heuristic={'true' if heuristic else 'false'}",
           "tc-schedule=" + _quote(tc_schedule)]
    if opts:
        out.append("opts=" + _quote(opts))
    return out


def compile(module, target="cpu", *, kernel=None, chip="", opts=None, heuristic=True,
            optimize=True, opt_level=3, check_accesses=True, in_place=False, tc_schedule="auto",
            ptx_printer="llvm"):
    """Compiles `module`'s kernels for `target`:

    - "ptx": every kernel to PTX; returns [PTXKernel] (name, chip, ptx, grid, block,
      tensor_maps: what cuTensorMapEncodeTiled needs for each tensor map the kernel takes after
      its buffers and variables, and for a symbolic kernel its variables, symbolic_sizes and
      launch_dims(**values));
    - "llvm": every kernel to host LLVM IR; returns its text;
    - "cpu", "sim", "cuda", "auto": kernel `kernel` (the only one if None) as a Kernel
      to call on numpy arrays.

    `opts` are tinygrad opts in uop-mlir's notation ("LOCAL:0:4,UPCAST:1:4"); without them
    tinygrad's heuristic runs unless `heuristic` is False (tinygrad's NOOPT); its tensor-core
    kernels stage their operands in shared memory where they can (`tc_schedule` "auto"; "staged"
    insists, "tinygrad" loads fragments from global memory as tinygrad does, "wgmma" uses
    Hopper's wgmma on sm_90a, "tma" also its tensor memory accelerator). The module
    is compiled on a copy unless `in_place`.

    For "ptx", `ptx_printer` "direct" writes the PTX with uop-mlir's own printer instead of
    LLVM's NVPTX backend (docs/compile-speed.md). The context keeps the PTX pipelines of
    the 8 sets of options it used last, so kernel after kernel compiled one at a time pay
    for building a pipeline once."""
    m = module if in_place else module.clone()
    codegen = _codegen_options(opts, heuristic, optimize, tc_schedule)
    if target == "ptx":
        options = (codegen + [f"O={opt_level}", "printer=" + _quote(ptx_printer)]
                   + ([f"chip={chip}"] if chip else []))
        return _native.compile_ptx(m, " ".join(options))
    if target == "llvm":
        options = codegen + [f"check-accesses={'true' if check_accesses else 'false'}"]
        return _native.compile_host_llvm_ir(m, " ".join(options))
    if kernel is None:
        names = m.kernels
        if len(names) != 1:
            raise Error(f"the module has {len(names)} kernels ({', '.join(names)}): name one "
                        "with kernel=")
        kernel = names[0]
    return Kernel(_native.compile_kernel(m, kernel, target, chip, " ".join(codegen),
                                         check_accesses))


def _aligned_copy(a, alignment=64):
    """`a` as a C-contiguous copy whose data is `alignment`-aligned (GPU code assumes 16)."""
    a = _np.asarray(a)
    raw = _np.empty(a.nbytes + alignment, dtype=_np.uint8)
    start = -raw.ctypes.data % alignment
    out = raw[start:start + a.nbytes].view(a.dtype).reshape(a.shape)
    out[...] = a
    return out


class Kernel:
    """A kernel compiled for cpu, sim or cuda. Call it with one numpy array per buffer
    (DEFINE_GLOBAL order, each at least as large as the kernel's buffer): it runs on
    copies and returns them, results included. `run_pointers` runs on memory the caller
    owns, in place."""

    def __init__(self, native):
        self._k = native
        self.last_ms = None

    name = property(lambda self: self._k.name)
    target = property(lambda self: self._k.target, doc='"cpu", "sim" or "cuda"')
    chip = property(lambda self: self._k.chip, doc='the sm_XX compiled for ("" on cpu)')
    num_buffers = property(lambda self: self._k.num_buffers)
    applied_opts = property(lambda self: self._k.applied_opts,
                            doc="the opts uop-optimize applied, in tinygrad's notation")
    launch_dims = property(lambda self: self._k.launch_dims,
                           doc="((grid), (block)) on sim and cuda; None on cpu")

    variables = property(lambda self: self._k.variables,
                         doc="a symbolic kernel's variables: [(name, min, max)], sorted by name")

    def __call__(self, *arrays, **variables):
        """Runs on copies of `arrays` and returns them; a symbolic kernel's variables are
        keyword arguments (k(out, x, n=4))."""
        if len(arrays) != self.num_buffers:
            raise Error(f"kernel {self.name} takes {self.num_buffers} buffers, "
                        f"not {len(arrays)}")
        values = _variable_values(self, variables)
        bufs = [_aligned_copy(a) for a in arrays]
        self.run_pointers([b.ctypes.data for b in bufs], [b.nbytes for b in bufs], values)
        return bufs

    def run_pointers(self, pointers, sizes, vars=()):
        """Runs on host memory: `sizes[i]` bytes at address `pointers[i]`, with the
        variables' values in `variables` order. Returns the run's milliseconds."""
        self.last_ms = self._k.run(list(pointers), list(sizes), list(vars))
        return self.last_ms

    def __repr__(self):
        return f"<uop_mlir.Kernel {self.name} on {self.target}{' ' + self.chip if self.chip else ''}>"


def _variable_values(kernel, given):
    """The values of `kernel`'s variables from keyword arguments, in its order."""
    names = [v[0] for v in kernel.variables]
    unknown = sorted(set(given) - set(names))
    missing = [n for n in names if n not in given]
    if unknown or missing:
        raise Error(f"kernel {kernel.name} takes the variables ({', '.join(names)}): "
                    + (f"missing {', '.join(missing)}" if missing else
                       f"no variable {', '.join(unknown)}"))
    return [int(given[n]) for n in names]


def _ptx_launch_dims(self, **variables):
    """((grid), (block)) for a launch with these variable values (k.launch_dims(n=4));
    `grid` and `block` alone give a symbolic kernel's upper bounds. A size 0 launches
    nothing."""
    return self.evaluate_launch_dims(_variable_values(self, variables))


PTXKernel.launch_dims = _ptx_launch_dims

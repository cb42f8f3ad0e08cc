"""Tensor graphs: tinygrad's kernelize, the schedule, and whole programs run
(docs/kernelize.md).

    import uop_mlir
    m = uop_mlir.import_tinygrad_graph(open("case.json").read())  # a func.func of tensor ops
    uop_mlir.kernelize(m)                                            # uop.kernels + a schedule
    s = uop_mlir.Schedule(m)
    outs = s.run({0: a, 1: b}, target="sim")                         # the graph's results
"""
import json as _json

import numpy as _np

# tinygrad's dtype names (as uop-mlir prints them) to numpy; bf16 as its bits.
_NUMPY = {"bool": _np.bool_, "char": _np.int8, "uchar": _np.uint8, "short": _np.int16,
          "ushort": _np.uint16, "int": _np.int32, "uint": _np.uint32, "long": _np.int64,
          "ulong": _np.uint64, "half": _np.float16, "float": _np.float32, "double": _np.float64,
          "__bf16": _np.uint16}

# uop-kernelize's options by tinygrad's flag names.
FLAGS = {"FUSE_ARANGE": "fuse-arange", "FUSE_CONV_BW": "fuse-conv-bw",
         "DONT_REALIZE_EXPAND": "dont-realize-expand", "DONT_GROUP_REDUCES": "dont-group-reduces",
         "SPLIT_REDUCEOP": "split-reduceop", "REDUCEOP_SPLIT_THRESHOLD": "reduceop-split-threshold",
         "REDUCEOP_SPLIT_SIZE": "reduceop-split-size", "MAX_KERNEL_BUFFERS": "max-kernel-buffers"}
_BOOL_FLAGS = {"FUSE_ARANGE", "FUSE_CONV_BW", "DONT_REALIZE_EXPAND", "DONT_GROUP_REDUCES",
               "SPLIT_REDUCEOP"}


def import_tinygrad_graph(case, module, name="graph", filename="<json>"):
    """Imports a tensor-graph case (the ../shared/graphs format, a str or the decoded dict)
    as a func.func of uop tensor ops appended to `module`, which is returned."""
    text = case if isinstance(case, str) else _json.dumps(case)
    module.import_tinygrad_graph(text, filename, name)
    return module


def kernelize_pipeline(plan_buffers=True, **flags):
    """The pass pipeline text for kernelize with tinygrad's flags (FUSE_ARANGE=1, ...)."""
    options = []
    for flag, value in flags.items():
        if flag not in FLAGS:
            raise ValueError(f"unknown kernelize flag {flag} (one of {', '.join(FLAGS)})")
        value = ("true" if value else "false") if flag in _BOOL_FLAGS else str(int(value))
        options.append(f"{FLAGS[flag]}={value}")
    passes = ["uop-kernelize{" + " ".join(options) + "}"]
    if plan_buffers:
        passes.append("uop-plan-buffers")
    return "builtin.module(" + ",".join(passes) + ")"


class Schedule:
    """A schedule `uop-kernelize` made (a function of kernel launches on buffers) in a
    module: its arguments (the graph's buffers and the result buffers), its outputs (the
    tensor graph's results), and `run` on numpy arrays."""

    def __init__(self, module, name=None):
        names = module.schedules
        if name is None:
            if len(names) != 1:
                raise ValueError(f"the module has {len(names)} schedules ({', '.join(names)}): "
                                 "name one")
            name = names[0]
        self.module, self.name = module, name
        info = _json.loads(module.describe_schedule(name))
        self.arguments = [dict(a, dtype=_NUMPY[a["dtype"]]) for a in info["arguments"]]
        self.outputs = [dict(o, dtype=_NUMPY[o["dtype"]], shape=tuple(o["shape"]))
                        for o in info["outputs"]]
        self.num_kernels = info["kernels"]

    def run(self, inputs=None, target="cpu", chip=""):
        """Runs the schedule on `target` ("cpu", "sim", "cuda", "auto"): `inputs` maps a
        buffer number (uop.unique) to its contents (a numpy array of the buffer's dtype and
        size, any shape); buffers not given start as zeros. Returns the graph's results as
        numpy arrays of their shapes, and leaves every buffer's final contents in
        `self.buffers` (by number)."""
        inputs = dict(inputs or {})
        known = {a["unique"] for a in self.arguments}
        if set(inputs) - known:
            raise ValueError(f"no buffers {sorted(set(inputs) - known)} in schedule {self.name} "
                             f"(its buffers: {sorted(known)})")
        buffers = []
        for a in self.arguments:
            buf = _np.zeros(a["size"], dtype=a["dtype"])
            if a["unique"] in inputs:
                given = _np.asarray(inputs[a["unique"]])
                if given.dtype != buf.dtype or given.size != buf.size:
                    raise ValueError(f"buffer {a['unique']} is {buf.dtype}[{buf.size}], "
                                     f"got {given.dtype}[{given.size}]")
                buf[...] = given.reshape(-1)
            buffers.append(buf)
        pointers, sizes = [b.ctypes.data for b in buffers], [b.nbytes for b in buffers]
        self.module.run_schedule(self.name, target, chip, pointers, sizes)
        self.buffers = {a["unique"]: b for a, b in zip(self.arguments, buffers)}
        results = []
        for i, o in enumerate(self.outputs):
            out = _np.zeros(o["shape"], dtype=o["dtype"])
            self.module.read_output(self.name, i, pointers, sizes, out.ctypes.data, out.nbytes)
            results.append(out)
        return results

    def export(self):
        """The schedule as tinygrad's JSON (kernels in order with their buffers), decoded."""
        return _json.loads(self.module.export_schedule(self.name))

    def __repr__(self):
        return (f"<uop_mlir.Schedule {self.name}: {self.num_kernels} kernels, "
                f"{len(self.arguments)} buffers, {len(self.outputs)} outputs>")

"""tinygrad kernel ASTs as uop-mlir's kernel JSON (the corpus format, docs/README.md).

export_ast(ast) turns the SINK that tinygrad's scheduler hands to get_program into the
node list [op, dtype, arg, [source indices]]; kernel_json adds the kernel's name;
import_ast is the inverse, a node list back into tinygrad UOps (for measuring tinygrad on
the corpus). Imports tinygrad lazily: this module loads without it.
"""
import math

DTYPE_NAMES = {"bool": "bool", "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64",
               "uint8": "u8", "uint16": "u16", "uint32": "u32", "uint64": "u64", "float16": "f16",
               "bfloat16": "bf16", "float32": "f32", "float64": "f64", "void": "void",
               "fp8e4m3": "fp8e4m3", "fp8e5m2": "fp8e5m2"}


class ExportError(Exception):
    """An AST with something the kernel JSON format cannot say."""


def dtype_name(dt):
    """A scalar dtype's name in the format ("f32", "u8", ...)."""
    from tinygrad.dtype import dtypes
    if dt.count != 1:
        raise ExportError(f"vector dtype {dt} in a kernel AST")
    for attr, short in DTYPE_NAMES.items():
        if getattr(dtypes, attr, None) == dt:
            return short
    raise ExportError(f"dtype {dt} has no name in the kernel JSON format")


def dtype_json(dt):
    from tinygrad.dtype import PtrDType, ImageDType
    if isinstance(dt, ImageDType):
        raise ExportError(f"image dtype {dt}")
    if isinstance(dt, PtrDType):
        if dt.v != 1:
            raise ExportError(f"vector pointer {dt}")
        return {"ptr": dtype_name(dt.base), "size": dt.size, "addrspace": "local" if dt.local else "global"}
    return dtype_name(dt)


def const_json(value, dt):
    """A CONST arg: bool, int, or float with "inf"/"-inf"/"nan" for the special floats."""
    from tinygrad.dtype import dtypes
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        if dtypes.is_int(dt) and value.is_integer():
            return int(value)
        return value
    raise ExportError(f"CONST arg {value!r} of type {type(value).__name__}")


def int_list(xs, what):
    out = []
    for x in xs:
        if not isinstance(x, int):
            raise ExportError(f"symbolic {what} {x!r} where the kernel JSON format needs an integer")
        out.append(x)
    return out


def sym_json(x):
    """A view entry: an int, or tinygrad's symbolic expression of Variables as
    {"var", "min", "max"} and {"op": "ADD" | "MUL", "src": [a, b]} (docs/README.md)."""
    from tinygrad.uop.ops import Ops
    if isinstance(x, int):
        return x
    if x.op is Ops.DEFINE_VAR:
        name, lo, hi = x.arg
        return {"var": name, "min": lo, "max": hi}
    if x.op is Ops.BIND:
        return sym_json(x.src[0])
    if x.op is Ops.CONST and isinstance(x.arg, int):
        return x.arg
    if x.op in (Ops.ADD, Ops.MUL) and len(x.src) == 2:
        return {"op": x.op.name, "src": [sym_json(s) for s in x.src]}
    raise ExportError(f"symbolic view entry {x.op.name} (the kernel JSON format has ADD and MUL "
                      "of Variables and integers)")


def view_json(st):
    views = []
    for v in st.views:
        views.append({
            "shape": [sym_json(x) for x in v.shape],
            "strides": [sym_json(x) for x in v.strides],
            "offset": sym_json(v.offset),
            "mask": None if v.mask is None else [[sym_json(x) for x in m] for m in v.mask],
            "contiguous": bool(v.contiguous),
        })
    return {"views": views}


def export_ast(ast):
    """The kernel AST as the node list [op, dtype, arg, [source indices]], and the UOps
    in that (topological) order."""
    from tinygrad.uop.ops import Ops
    from tinygrad.shape.shapetracker import ShapeTracker
    order = list(ast.toposort())
    index = {u: i for i, u in enumerate(order)}
    nodes = []
    for u in order:
        if u.op is Ops.VIEW:
            if not isinstance(u.arg, ShapeTracker):
                raise ExportError(f"VIEW arg {u.arg!r}")
            arg = view_json(u.arg)
        elif u.op is Ops.REDUCE_AXIS:
            op, axes = u.arg
            arg = {"op": op.name, "axes": int_list(axes, "axis")}
        elif u.op is Ops.CONST:
            arg = const_json(u.arg, u.dtype)
        elif u.op is Ops.DEFINE_GLOBAL:
            arg = int_list([u.arg], "buffer index")[0]
        elif u.op is Ops.SINK:
            # KernelInfo (name, opts) is not part of the format; the scheduler's is None.
            if u.arg is not None and getattr(u.arg, "opts_to_apply", None):
                raise ExportError(f"SINK with opts to apply {u.arg!r}")
            arg = None
        elif u.arg is None:
            arg = None
        else:
            raise ExportError(f"{u.op.name} with arg {u.arg!r} (no form in the kernel JSON format)")
        nodes.append([u.op.name, dtype_json(u.dtype), arg, [index[s] for s in u.src]])
    return nodes, order


def kernel_json(ast, name):
    """The whole kernel JSON object for `ast`, named `name`."""
    nodes, _ = export_ast(ast)
    return {"name": name, "nodes": nodes}


# ---------------------------------------------------------------- JSON -> AST

def dtype_of_json(d):
    """The tinygrad dtype of a node's dtype entry (dtype_json's inverse)."""
    from tinygrad.dtype import dtypes
    if isinstance(d, dict):
        base = dtype_of_json(d["ptr"])
        return base.ptr(d["size"], local=d.get("addrspace", "global") == "local")
    for attr, short in DTYPE_NAMES.items():
        if short == d and getattr(dtypes, attr, None) is not None:
            return getattr(dtypes, attr)
    raise ExportError(f"dtype {d!r} is not a kernel JSON dtype")


def sym_of_json(x):
    """A view entry as tinygrad has it: an int or an expression of Variables (sym_json's
    inverse)."""
    from tinygrad.uop.ops import Variable
    if isinstance(x, int):
        return x
    if "var" in x:
        return Variable(x["var"], x["min"], x["max"])
    a, b = (sym_of_json(s) for s in x["src"])
    return a + b if x["op"] == "ADD" else a * b


def view_of_json(arg):
    """A VIEW arg as the ShapeTracker it was exported from: each View as it was, not
    as View.create would canonicalize it."""
    from tinygrad.shape.shapetracker import ShapeTracker
    from tinygrad.shape.view import View
    views = []
    for v in arg["views"]:
        entries = lambda xs: tuple(sym_of_json(x) for x in xs)
        mask = None if v["mask"] is None else tuple(entries(m) for m in v["mask"])
        views.append(View(entries(v["shape"]), entries(v["strides"]), sym_of_json(v["offset"]), mask,
                          v["contiguous"]))
    return ShapeTracker(tuple(views))


def import_ast(nodes):
    """The UOps of a node list (export_ast's inverse); the last is the kernel's SINK."""
    from tinygrad.dtype import dtypes
    from tinygrad.uop.ops import UOp, Ops
    uops = []
    for op, dt, arg, srcs in nodes:
        o, dtype = Ops[op], dtype_of_json(dt)
        if o is Ops.VIEW:
            arg = view_of_json(arg)
        elif o is Ops.REDUCE_AXIS:
            arg = (Ops[arg["op"]], tuple(arg["axes"]))
        elif o is Ops.CONST:
            arg = dtypes.as_const(float(arg) if isinstance(arg, str) else arg, dtype)  # "inf", "nan"
        elif o is Ops.DEFINE_GLOBAL:
            arg = int(arg)
        elif arg is not None:
            raise ExportError(f"{op} with arg {arg!r}")
        uops.append(UOp(o, dtype, tuple(uops[s] for s in srcs), arg))
    if not uops or uops[-1].op is not Ops.SINK:
        raise ExportError("a kernel's last node is its SINK")
    return uops

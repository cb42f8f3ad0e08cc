#!/usr/bin/env python3
"""Oracle data from tinygrad's own kernel optimizer, for the tests of our C++ port
of tinygrad/opt/kernel.py (Kernel, apply_opt) and tinygrad/opt/heuristic.py
(hand_coded_optimizations).

This script is NOT run by the test suite (lit only picks up .mlir/.test files and
the suite does not need tinygrad). It writes two files that the tests read:

  Inputs/tinygrad-opts.json       what tinygrad's default optimizer does with every
                                  corpus kernel (../shared/corpus and corpus-perf),
                                  for two renderers: "ptx_sm80" (PTXRenderer("sm_80"))
                                  and "cpu" (ClangRenderer, has_local False).
  Inputs/tinygrad-apply-opt.json  explicit opt sequences through Kernel.apply_opt:
                                  the kernel state afterwards, or the KernelOptError.

With --nvcc it writes only Inputs/nvcc-sm80.json, for scripts/bench_ptx.py: each
corpus-perf kernel through tinygrad's CUDA renderer (CUDARenderer("sm_80"), the same
default opts) and nvcc -ptx -arch=sm_80 (--nvcc-path, default
/usr/local/cuda/bin/nvcc): how many fma instructions nvcc's PTX has, and its PTX
line count (which ../shared/anchors records as nvcc_ptx_lines: the agreement is
printed, showing that the kernel is the one the anchors compiled).
../shared/tinygrad holds the same tinygrad (--tinygrad ../shared/tinygrad).

It needs tinygrad's Python source at /tmp/tg (commit b73e89110e, the July 2025
tinygrad the corpus was exported from; no GPU, no numpy needed):

  mkdir -p /tmp/tg && cd /tmp/tg && \
    git --git-dir=/work/.mirror/tinygrad+tinygrad/repo archive b73e89110e tinygrad | tar x

Rerun (from the repository root):

  python3 test/Dialect/UOp/Optimize/gen_tinygrad_opts.py \
      [--tinygrad /tmp/tg] [--corpus ../shared/corpus] [--perf ../shared/corpus-perf] \
      [--anchors ../shared/anchors]

What it does per kernel JSON: rebuilds the AST as tinygrad UOps (node by node,
UOp(Ops[op], dtype, src, arg); VIEW args become ShapeTracker(View(...)) exactly as
exported, REDUCE_AXIS args (Ops.X, axes), CONST args through dtypes.as_const), then
runs exactly what tinygrad/opt/__init__.py get_optimized_ast does with the default
environment (no BEAM, TC=1, TC_OPT=0, TC_SELECT=-1, NOLOCALS=0):

  k = Kernel(ast, opts=renderer)
  if not k.apply_tensor_cores(1): k.apply_opts(hand_coded_optimizations(k))

and records the state of k (see state() below). For the PTX renderer the launch
dimensions come from tinygrad's get_program(k.get_optimized_ast(), renderer), which
only lowers and renders (no CUDA needed); they are compared with
../shared/anchors/tinygrad_sm80_*.json (a real tinygrad run on sm_80) and the
agreement is printed. A kernel that fails is recorded as {"kernel", "error"} and
printed; nothing is dropped silently.

Opt notation (tinygrad's): "OP:axis:arg" joined by ","; TC is "TC:axis:tc_select,tc_opt,use_tc";
NOLOCALS is "NOLOCALS"; an opt without arg is "OP:axis".
"""
import argparse
import json
import os
import re
import sys
import time
import traceback

# the default environment of get_optimized_ast: drop anything that changes the optimizer
for _v in ("DEBUG", "IMAGE", "BEAM", "NOOPT", "TC", "TC_SELECT", "TC_OPT", "AMX", "NOLOCALS", "MV", "MV_BLOCKSIZE",
           "MV_THREADS_PER_ROW", "MV_ROWS_PER_THREAD", "ALLOW_TF32", "TRANSCENDENTAL", "DEVECTORIZE", "VIZ",
           "TC_SEARCH_OVER_SHAPE", "SPLIT_REDUCEOP", "PTX"):
  os.environ.pop(_v, None)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", "..", ".."))
SHARED = os.path.join(os.path.dirname(ROOT), "shared")

ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
ap.add_argument("--tinygrad", default="/tmp/tg", help="directory holding the tinygrad package")
ap.add_argument("--corpus", default=os.path.join(SHARED, "corpus"))
ap.add_argument("--perf", default=os.path.join(SHARED, "corpus-perf"))
ap.add_argument("--anchors", default=os.path.join(SHARED, "anchors"))
ap.add_argument("--out-dir", default=os.path.join(HERE, "Inputs"))
ap.add_argument("--no-program", action="store_true", help="skip get_program (launch dims) for speed")
ap.add_argument("--nvcc", action="store_true", help="write only Inputs/nvcc-sm80.json (nvcc's fma counts)")
ap.add_argument("--nvcc-path", default="/usr/local/cuda/bin/nvcc")
ARGS = ap.parse_args()
sys.path.insert(0, ARGS.tinygrad)

from tinygrad.uop.ops import UOp, Ops  # noqa: E402
from tinygrad.dtype import dtypes  # noqa: E402
from tinygrad.shape.shapetracker import ShapeTracker  # noqa: E402
from tinygrad.shape.view import View  # noqa: E402
from tinygrad.opt.kernel import Kernel, KernelOptError  # noqa: E402
from tinygrad.opt.heuristic import hand_coded_optimizations  # noqa: E402
from tinygrad.renderer import Opt, OptOps  # noqa: E402
from tinygrad.renderer.ptx import PTXRenderer  # noqa: E402
from tinygrad.renderer.cstyle import ClangRenderer  # noqa: E402
from tinygrad.helpers import BEAM, NOOPT, USE_TC, TC_OPT, TC_SELECT, NOLOCALS, AMX  # noqa: E402

assert (BEAM.value, NOOPT.value, USE_TC.value, TC_OPT.value, TC_SELECT.value, NOLOCALS.value, AMX.value) == (0, 0, 1, 0, -1, 0, 0)

DTYPES = {"f32": dtypes.float32, "f16": dtypes.float16, "bf16": dtypes.bfloat16, "f64": dtypes.float64,
          "i8": dtypes.int8, "i16": dtypes.int16, "i32": dtypes.int32, "i64": dtypes.int64,
          "u8": dtypes.uint8, "u16": dtypes.uint16, "u32": dtypes.uint32, "u64": dtypes.uint64,
          "bool": dtypes.bool, "void": dtypes.void}


def parse_dtype(d):
  if isinstance(d, dict):
    assert d.get("addrspace", "global") == "global", d
    return DTYPES[d["ptr"]].ptr(d["size"])
  return DTYPES[d]


def parse_const(v, dtype):
  if isinstance(v, str): v = float(v)  # "inf", "-inf", "nan"
  return dtypes.as_const(v, dtype)


VIEW_CREATE_MISMATCH = []


def parse_view(v, where):
  shape, strides = tuple(v["shape"]), tuple(v["strides"])
  mask = tuple(tuple(m) for m in v["mask"]) if v["mask"] is not None else None
  view = View(shape, strides, v["offset"], mask, v["contiguous"])
  # the exported views are tinygrad Views already; note any that View.create would canonicalize differently
  if View.create(shape, strides, v["offset"], mask) != view: VIEW_CREATE_MISMATCH.append(where)
  return view


def build_ast(nodes, where):
  uops = []
  for i, (op, dt, arg, srcs) in enumerate(nodes):
    o, dtype = Ops[op], parse_dtype(dt)
    if o is Ops.VIEW: arg = ShapeTracker(tuple(parse_view(v, f"{where} node {i}") for v in arg["views"]))
    elif o is Ops.REDUCE_AXIS: arg = (Ops[arg["op"]], tuple(arg["axes"]))
    elif o is Ops.CONST: arg = parse_const(arg, dtype)
    elif o is Ops.DEFINE_GLOBAL: arg = int(arg)
    else: assert arg is None, (where, i, op, arg)
    uops.append(UOp(o, dtype, tuple(uops[s] for s in srcs), arg))
  assert uops[-1].op is Ops.SINK
  return uops


# ---------------------------------------------------------------- serialization

def opt_str(o: Opt) -> str:
  if o.op is OptOps.NOLOCALS: return "NOLOCALS"
  if o.op is OptOps.TC: return f"TC:{o.axis}:{','.join(map(str, o.arg))}"
  if o.arg is None: return f"{o.op.name}:{o.axis}"
  return f"{o.op.name}:{o.axis}:{o.arg}"


def parse_opt(s: str) -> Opt:
  parts = s.split(":")
  op = OptOps[parts[0]]
  if op is OptOps.NOLOCALS: return Opt(op)
  axis = int(parts[1])
  if op is OptOps.TC: return Opt(op, axis, tuple(int(x) for x in parts[2].split(",")))
  return Opt(op, axis, int(parts[2]) if len(parts) > 2 else None)


def jint(x):
  assert isinstance(x, int), f"symbolic value {x}"
  return x


def view_json(v: View):
  return {"shape": [jint(s) for s in v.shape], "strides": [jint(s) for s in v.strides], "offset": jint(v.offset),
          "mask": [[jint(a), jint(b)] for a, b in v.mask] if v.mask is not None else None}


def define_global_of(u: UOp):
  x = u.src[0] if u.src else None
  while x is not None and x.op is Ops.VIEW and x.src: x = x.src[0]
  return x.arg if x is not None and x.op is Ops.DEFINE_GLOBAL else None


def state(k: Kernel, node_index) -> dict:
  tco = k.tensor_core_opts
  return {
    "opts": ",".join(opt_str(o) for o in k.applied_opts),
    "full_shape": [jint(s) for s in k.full_shape],
    "first_reduce": k.first_reduce,
    "first_upcast": k.first_upcast,
    "local_dims": k.local_dims,
    "upcasted": k.upcasted,
    "group_for_reduces": k.group_for_reduces,
    "global_dims": k.global_dims,
    "dont_use_locals": k.dont_use_locals,
    "tensor_core": str(k.tensor_core) if k.tensor_core is not None else None,
    "use_tensor_cores": k.use_tensor_cores,
    "tensor_core_opts": None if tco is None else {"axes": list(tco.axes), "axes_exist": list(tco.axes_exist),
                                                   "axis_pads": [list(p) for p in tco.axis_pads]},
    "sts": [[view_json(v) for v in st.views] for st in k.sts],
    "bufs": [{"op": b.op.name, "global": define_global_of(b) if b.op in (Ops.LOAD, Ops.STORE) else None,
              "node": node_index[b]} for b in k.bufs],
  }


# ---------------------------------------------------------------- renderers

RENDERERS = {"ptx_sm80": PTXRenderer("sm_80"), "cpu": ClangRenderer()}


def renderer_props(r):
  return {"class": type(r).__name__, "device": r.device, "has_local": r.has_local, "has_shared": r.has_shared,
          "shared_max": r.shared_max, "global_max": list(r.global_max) if r.global_max is not None else None,
          "local_max": list(r.local_max) if r.local_max is not None else None,
          "tensor_cores": [{"name": str(tc), "dims": list(tc.dims), "threads": tc.threads,
                            "elements_per_thread": list(tc.elements_per_thread), "dtype_in": tc.dtype_in.name,
                            "dtype_out": tc.dtype_out.name, "opts": list(tc.opts),
                            "swizzle": [None if s is None else [list(s[0]), list(s[1])] for s in tc.swizzle]}
                           for tc in r.tensor_cores]}


# ---------------------------------------------------------------- corpus

def corpus_files():
  out = []
  for root in (ARGS.corpus, ARGS.perf):
    index = json.load(open(os.path.join(root, "index.json")))
    for case, ks in index.items():
      for kf in ks: out.append((os.path.basename(root.rstrip("/")), f"{case}/{kf}", os.path.join(root, case, kf)))
  return out


def load_kernel(path, name):
  nodes = json.load(open(path))["nodes"]
  uops = build_ast(nodes, name)
  node_index = {}
  for i, u in enumerate(uops): node_index.setdefault(u, i)
  return uops[-1], node_index


def optimize_default(ast, renderer):
  # tinygrad/opt/__init__.py get_optimized_ast, default env
  k = Kernel(ast, opts=renderer)
  initial = (list(k.full_shape), k.first_reduce)
  if not k.apply_tensor_cores(USE_TC.value): k.apply_opts(hand_coded_optimizations(k))
  return k, initial


def run_heuristic(files):
  from tinygrad.engine.realize import get_program
  results = {name: [] for name in RENDERERS}
  for corpus, kname, path in files:
    for rname, r in RENDERERS.items():
      rec = {"kernel": kname, "corpus": corpus}
      try:
        ast, node_index = load_kernel(path, kname)
        t0 = time.perf_counter()
        k, (fs0, fr0) = optimize_default(ast, r)
        rec["initial_full_shape"], rec["initial_first_reduce"] = fs0, fr0
        rec.update(state(k, node_index))
        rec["global_size"] = rec["local_size"] = None
        if r.has_local and not ARGS.no_program:
          try:
            prg = get_program(k.get_optimized_ast(), r)
            assert prg.applied_opts is not None and ",".join(opt_str(o) for o in prg.applied_opts) == rec["opts"]
            rec["global_size"], rec["local_size"] = prg.global_size, prg.local_size
            # vector memory instructions of tinygrad's PTX (ld/st .global/.shared .v2/.v4)
            for kind in ("ld", "st"):
              rec[f"ptx_vector_{kind}"] = len(re.findall(rf"\b{kind}\.(?:global|shared)[.\w]*\.v[24]\b", prg.src))
          except Exception as e:  # launch dims are optional: say why they are missing
            rec["launch_error"] = f"{type(e).__name__}: {e}"
            print(f"  launch dims failed {rname} {kname}: {rec['launch_error']}")
        rec["seconds"] = round(time.perf_counter() - t0, 3)
      except Exception as e:
        rec = {"kernel": kname, "corpus": corpus, "error": f"{type(e).__name__}: {e}"}
        print(f"ERROR {rname} {kname}: {rec['error']}")
        traceback.print_exc()
      results[rname].append(rec)
      print(f"{rname:8s} {kname:32s} {rec.get('opts', rec.get('error'))}", flush=True)
  for rec in (x for rs in results.values() for x in rs): rec.pop("seconds", None)  # keep the output stable
  return results


# ---------------------------------------------------------------- explicit apply_opt cases
# (kernel, renderer, opts, what the case is about). Whether a case is legal is what tinygrad says;
# "expect" is the intent (ok / a fragment of the KernelOptError message) and is checked below.
APPLY_CASES = [
  # --- LOCAL
  ("matmul_f32/k0.json", "ptx_sm80", "LOCAL:0:4", "ok"),
  ("matmul_f32/k0.json", "ptx_sm80", "LOCAL:1:8,LOCAL:0:4", "ok"),
  ("matmul_f32/k0.json", "ptx_sm80", "LOCAL:0:0", "ok"),                       # 0 = the whole axis
  ("transpose/k0.json", "ptx_sm80", "LOCAL:0:2,LOCAL:0:3", "ok"),
  ("matmul_f32/k0.json", "ptx_sm80", "LOCAL:2:4", "local is for globals"),     # LOCAL on the reduce axis
  ("matmul_f32/k0.json", "ptx_sm80", "LOCAL:3:4", "invalid axis"),
  ("matmul_f32/k0.json", "ptx_sm80", "LOCAL:0:5", "no longer valid shift"),
  ("matmul_f32/k0.json", "ptx_sm80", "LOCAL:0:1", "1 or symbolic amount is meaningless"),
  ("matmul_f32/k0.json", "cpu", "LOCAL:0:4", "target does not support local"),
  # --- UPCAST
  ("matmul_f32/k0.json", "ptx_sm80", "UPCAST:0:4", "ok"),
  ("matmul_f32/k0.json", "ptx_sm80", "UPCAST:1:4,UPCAST:0:2", "ok"),
  ("matmul_f32/k0.json", "cpu", "UPCAST:1:4,UPCAST:0:4", "ok"),
  ("mul_broadcast/k0.json", "ptx_sm80", "UPCAST:0:0", "ok"),                 # 0 = the whole axis (8)
  ("sum_axis0/k0.json", "ptx_sm80", "UPCAST:0:0", "don't upcast more than 16"),  # the whole axis is 24
  ("pad2d/k0.json", "ptx_sm80", "UPCAST:0:0", "ok"),
  ("perf_matmul_f32_512/k0.json", "ptx_sm80", "UPCAST:0:32", "don't upcast more than 16"),
  ("matmul_f32/k0.json", "ptx_sm80", "UPCAST:2:4", "upcast is for non-reduce"),
  ("matmul_f32/k0.json", "ptx_sm80", "UPCAST:0:3", "no longer valid shift"),
  ("matmul_f32/k0.json", "ptx_sm80", "UPCAST:1:4,UPCAST:3:2", "upcast is for non-reduce"),  # the upcasted axis is last
  ("matmul_f32/k0.json", "ptx_sm80", "UPCAST:1:4,UPCAST:4:2", "invalid axis"),
  # --- UNROLL
  ("matmul_f32/k0.json", "ptx_sm80", "UNROLL:0:4", "ok"),
  ("matmul_f32/k0.json", "ptx_sm80", "UNROLL:0:0", "ok"),                      # full unroll of the reduce
  ("sum_all/k0.json", "ptx_sm80", "UNROLL:0:11", "ok"),                      # 407 = 11 * 37
  ("sum_all/k0.json", "ptx_sm80", "UNROLL:0:4", "no longer valid shift"),
  ("big_sum/k0.json", "ptx_sm80", "UNROLL:0:64", "don't unroll more than 32"),
  ("matmul_f32/k0.json", "ptx_sm80", "UPCAST:0:4,UNROLL:0:4,UPCAST:1:4", "ok"),
  ("matmul_f32/k0.json", "ptx_sm80", "UNROLL:1:4", "invalid axis"),
  ("matmul_f32/k0.json", "ptx_sm80", "UNROLL:0:4,UNROLL:1:2", "can't upcasted already upcasted"),
  # --- GROUP / GROUPTOP
  ("sum_all/k0.json", "ptx_sm80", "GROUP:0:11", "ok"),
  ("sum_all/k0.json", "ptx_sm80", "GROUPTOP:0:37", "ok"),
  ("sum_axis0/k0.json", "ptx_sm80", "GROUPTOP:0:4", "ok"),
  ("softmax/k0.json", "ptx_sm80", "GROUP:0:5,UPCAST:0:2", "ok"),
  ("softmax/k1.json", "ptx_sm80", "GROUPTOP:0:2,LOCAL:0:2", "ok"),
  ("gemv/k0.json", "ptx_sm80", "GROUP:0:8,LOCAL:0:4,UPCAST:0:4", "ok"),
  ("big_sum/k0.json", "ptx_sm80", "GROUP:0:16,GROUP:0:4", "ok"),
  ("sum_all/k0.json", "ptx_sm80", "GROUP:0:11,UNROLL:0:0", "ok"),              # UNROLL:0 is the GROUP axis: unrolls it fully
  ("big_sum/k0.json", "ptx_sm80", "GROUPTOP:0:256,UNROLL:1:4", "ok"),
  ("matmul_f32/k0.json", "ptx_sm80", "UNROLL:0:2,GROUP:1:2", "must be reduce axis to group"),  # axis 1 is the upcasted one
  ("matmul_f32/k0.json", "ptx_sm80", "GROUP:1:4", "invalid axis"),            # GROUP axis counts from first_reduce
  ("add/k0.json", "ptx_sm80", "GROUP:0:4", "invalid axis"),                  # no reduce: axis 0 is past the shape
  ("sum_all/k0.json", "cpu", "GROUP:0:11", "target does not support local or shared mem"),
  ("perf_sum_rows/k0.json", "ptx_sm80", "LOCAL:0:16,UPCAST:0:16,GROUP:0:64", "exceeds maximum shared memory size"),
  ("softmax/k0.json", "ptx_sm80", "GROUP:0:3", "no longer valid shift"),
  # --- PADTO
  ("matmul_f32/k0.json", "ptx_sm80", "PADTO:0:32", "ok"),
  ("sum_axis0/k0.json", "ptx_sm80", "PADTO:1:32", "ok"),                       # pad a reduce (sum of a load: f(0)=0)
  ("pad2d/k0.json", "ptx_sm80", "PADTO:1:16", "ok"),                         # 10 -> 16, a masked load
  ("matmul_f32/k0.json", "ptx_sm80", "PADTO:0:128", "pad adds more than quadruple the work"),
  ("matmul_f32/k0.json", "ptx_sm80", "PADTO:0:16", "nothing was padded"),
  ("softmax/k0.json", "ptx_sm80", "PADTO:1:64", "cannot pad"),                 # MAX reduce can't be padded
  ("matmul_f32/k0.json", "ptx_sm80", "UPCAST:0:4,PADTO:3:8", "cannot pad upcasted"),
  # --- NOLOCALS
  ("matmul_f32/k0.json", "ptx_sm80", "NOLOCALS", "ok"),
  ("matmul_f32/k0.json", "ptx_sm80", "NOLOCALS,UPCAST:0:4", "ok"),
  ("matmul_f32/k0.json", "ptx_sm80", "LOCAL:0:4,NOLOCALS", "can't have no locals with locals"),
  ("matmul_f32/k0.json", "ptx_sm80", "NOLOCALS,LOCAL:0:4", "not using locals"),
  ("sum_all/k0.json", "ptx_sm80", "NOLOCALS,GROUP:0:11", "not using locals"),
  ("matmul_f32/k0.json", "ptx_sm80", "NOLOCALS,NOLOCALS", "NOLOCALS is meaningless"),
  ("matmul_f32/k0.json", "cpu", "NOLOCALS", "NOLOCALS is meaningless"),
  # --- TC
  ("matmul_f16_acc_f32/k0.json", "ptx_sm80", "TC:0:-1,0,1", "ok"),
  ("matmul_f16_acc_f32/k0.json", "ptx_sm80", "TC:0:-1,0,1,UPCAST:0:4,LOCAL:0:2", "ok"),
  ("matmul_f16/k0.json", "ptx_sm80", "TC:0:-1,0,1", "ok"),
  ("matmul_f16/k0.json", "ptx_sm80", "TC:0:2,0,1", "ok"),                       # tc_select 2: WMMA_8_16_8_half_float
  ("matmul_f16/k0.json", "ptx_sm80", "TC:0:3,0,1", "no tensor core available"),  # WMMA_8_16_8_half_half: the AST accumulates in float
  ("matmul_f16_acc_f32/k0.json", "ptx_sm80", "TC:0:-1,0,2", "ok"),              # use_tc 2: shapes only
  ("perf_matmul_f16_1024/k0.json", "ptx_sm80", "TC:0:-1,0,1", "ok"),
  ("matmul_f32/k0.json", "ptx_sm80", "TC:0:-1,0,1", "no tensor core available"),  # f32 in: no tf32 TC without ALLOW_TF32
  ("matmul_f16_acc_f32/k0.json", "ptx_sm80", "UPCAST:0:2,TC:0:-1,0,1", "tensor core opts must be first"),
  ("matmul_f16_acc_f32/k0.json", "ptx_sm80", "TC:0:4,0,1", "tensor core opts must have valid tc_select"),
  ("matmul_f16_acc_f32/k0.json", "ptx_sm80", "TC:0:-1,3,1", "tensor core opts must have valid tc_opt"),
  ("matmul_f16_acc_f32/k0.json", "ptx_sm80", "TC:0:-1,0,3", "use_tensor_cores value is not valid"),
  ("matmul_f16_acc_f32/k0.json", "ptx_sm80", "TC:1:-1,0,1", "no tensor core available"),  # only one axis choice
  ("matmul_f16_acc_f32/k0.json", "cpu", "TC:0:-1,0,1", "must have tensor cores"),
  ("matmul_f16_acc_f32/k0.json", "ptx_sm80", "TC:0:-1,0,1,GROUP:0:2", "can't group with tensor cores"),
  ("matmul_f16_acc_f32/k0.json", "ptx_sm80", "TC:0:-1,0,1,UPCAST:1:2", "ok"),   # axis 1 is still global
  ("matmul_f16_acc_f32/k0.json", "ptx_sm80", "TC:0:-1,0,1,UPCAST:2:2", "can't upcast TC locals"),
  # --- SWAP (not used by the heuristic)
  ("matmul_f32/k0.json", "ptx_sm80", "SWAP:0:1", "ok"),
  ("matmul_f32/k0.json", "ptx_sm80", "SWAP:0:2", "swap is only for globals"),
]


def run_apply_cases(files):
  by_name = {kname: path for _, kname, path in files}
  out = []
  for kname, rname, opts, expect in APPLY_CASES:
    rec = {"kernel": kname, "renderer": rname, "apply": opts}
    try:
      ast, node_index = load_kernel(by_name[kname], kname)
      k = Kernel(ast, opts=RENDERERS[rname])
      rec["initial_full_shape"], rec["initial_first_reduce"] = list(k.full_shape), k.first_reduce
      for i, o in enumerate(split_opts(opts)):
        try:
          k.apply_opt(o)
        except KernelOptError as e:
          rec["error"], rec["error_opt_index"] = str(e), i
          break
      if "error" not in rec: rec.update(state(k, node_index))
    except Exception as e:  # anything but KernelOptError is a bug in this script or in tinygrad: record and report
      rec["internal_error"] = f"{type(e).__name__}: {e}"
      traceback.print_exc()
    got = rec.get("error", "ok" if "internal_error" not in rec else rec["internal_error"])
    good = (expect == "ok" and got == "ok") or (expect != "ok" and expect in got)
    print(f"{'ok  ' if good else 'MISS'} {rname:8s} {kname:28s} {opts:40s} -> {got}" + ("" if good else f"   (intended: {expect})"))
    if not good: rec["intended"] = expect
    elif expect != "ok": rec["error_match"] = expect  # a fixed part of the message (the rest may hold values or a UOp repr)
    out.append(rec)
  return out


def split_opts(s):
  # "TC:0:-1,0,1,UPCAST:0:4" -> the TC arg holds commas: an item starts at an OP name
  items, cur = [], None
  for part in s.split(","):
    if part.split(":")[0] in OptOps.__members__:
      if cur is not None: items.append(cur)
      cur = part
    else: cur += "," + part
  if cur is not None: items.append(cur)
  return [parse_opt(x) for x in items]


# ---------------------------------------------------------------- anchors

def compare_anchors(results):
  anchors = {}
  for f in ("tinygrad_sm80_corpus.json", "tinygrad_sm80_perf.json"):
    p = os.path.join(ARGS.anchors, f)
    if os.path.exists(p):
      for row in json.load(open(p)): anchors[row["kernel"]] = row
  agree, disagree, missing = 0, [], []
  for rec in results["ptx_sm80"]:
    a = anchors.get(rec["kernel"])
    if a is None or rec.get("global_size") is None: missing.append(rec["kernel"]); continue
    if a["global"] == rec["global_size"] and a["local"] == rec["local_size"]: agree += 1
    else: disagree.append((rec["kernel"], rec["opts"], rec["global_size"], rec["local_size"], a["global"], a["local"]))
  print(f"\nanchors: {agree} agree, {len(disagree)} disagree, {len(missing)} without data")
  for d in disagree: print("  DISAGREE %s opts=%s ours g=%s l=%s anchor g=%s l=%s" % d)
  for m in missing: print("  MISSING", m)


def main():
  files = corpus_files()
  os.makedirs(ARGS.out_dir, exist_ok=True)
  results = run_heuristic(files)
  doc = {
    "generator": "test/Dialect/UOp/Optimize/gen_tinygrad_opts.py",
    "tinygrad": "b73e89110e (July 2025), default env: no BEAM, TC=1, TC_OPT=0, TC_SELECT=-1, NOLOCALS=0",
    "procedure": "k = Kernel(ast, opts=renderer); if not k.apply_tensor_cores(1): k.apply_opts(hand_coded_optimizations(k))",
    "sts_order": "k.sts: one per k.bufs entry, then per reduceop (reduce.st, reduce.src[0].st), then the full-shape st",
    "bufs": "k.bufs (buffer UOps of the AST in reversed toposort order): op, DEFINE_GLOBAL index (null for CONST/VALID), "
            "index of the node in the kernel JSON",
    "launch": "global_size/local_size: ProgramSpec of get_program(k.get_optimized_ast(), renderer) for ptx_sm80 "
              "(render only, no GPU); null for cpu (has_local False: tinygrad has no launch dims there)",
    "ptx_vector": "ptx_vector_ld/ptx_vector_st: how many ld/st .global/.shared .v2/.v4 instructions the PTX "
                  "source of that get_program has (ptx_sm80 only)",
    "renderers": {name: renderer_props(r) for name, r in RENDERERS.items()},
    "kernels": results,
  }
  with open(os.path.join(ARGS.out_dir, "tinygrad-opts.json"), "w") as f:
    json.dump(doc, f, indent=1)
    f.write("\n")
  cases = run_apply_cases(files)
  with open(os.path.join(ARGS.out_dir, "tinygrad-apply-opt.json"), "w") as f:
    json.dump({"generator": "test/Dialect/UOp/Optimize/gen_tinygrad_opts.py",
               "tinygrad": "b73e89110e (July 2025)",
               "note": "apply: opts applied one by one with Kernel.apply_opt; on KernelOptError: error + error_opt_index "
                       "(opts before it applied fine) and error_match (a fixed substring of the message), else the state afterwards",
               "renderers": {name: renderer_props(r) for name, r in RENDERERS.items()},
               "cases": cases}, f, indent=1)
    f.write("\n")

  for rname, rs in results.items():
    ok = [r for r in rs if "error" not in r]
    print(f"\n{rname}: {len(ok)} ok, {len(rs) - len(ok)} failed")
    for r in rs:
      if "error" in r: print("  FAILED", r["kernel"], r["error"])
    for op in ("GROUP", "GROUPTOP", "LOCAL", "UPCAST", "UNROLL", "TC", "PADTO", "NOLOCALS"):
      users = [r["kernel"] for r in ok if any(o.split(":")[0] == op for o in split_for_count(r["opts"]))]
      print(f"  {op:9s} {len(users):3d}" + (f"  {users}" if op == "TC" else ""))
  if VIEW_CREATE_MISMATCH: print(f"\nnote: {len(VIEW_CREATE_MISMATCH)} exported views differ from View.create's canonical form")
  if not ARGS.no_program: compare_anchors(results)


def split_for_count(s):
  return [x for x in s.split(",") if x and x.split(":")[0] in OptOps.__members__] if s else []


def run_nvcc():
  """nvcc's PTX for each corpus-perf kernel, as tinygrad's CUDA renderer writes it."""
  import subprocess, tempfile
  from tinygrad.engine.realize import get_program
  from tinygrad.renderer.cstyle import CUDARenderer
  renderer = CUDARenderer("sm_80")
  anchors = {a["kernel"]: a for a in json.load(open(os.path.join(ARGS.anchors, "tinygrad_sm80_perf.json")))}
  kernels = []
  for corpus, kname, path in corpus_files():
    if corpus != os.path.basename(ARGS.perf.rstrip("/")): continue
    ast, _ = load_kernel(path, kname)
    k, _ = optimize_default(ast, renderer)
    prg = get_program(k.get_optimized_ast(), renderer)
    with tempfile.TemporaryDirectory() as d:
      with open(os.path.join(d, "k.cu"), "w") as f: f.write(prg.src)
      p = subprocess.run([ARGS.nvcc_path, "-ptx", "-arch=sm_80", os.path.join(d, "k.cu"), "-o", os.path.join(d, "k.ptx")],
                         capture_output=True, text=True)
      if p.returncode: sys.exit(f"nvcc failed on {kname}: {p.stderr}")
      ptx = open(os.path.join(d, "k.ptx")).read()
    body = ptx[ptx.index("{") + 1:ptx.rindex("}")]
    # instructions as the anchors count nvcc's lines: not empty, comments, labels, braces or directives
    lines = [l.strip() for l in body.splitlines()]
    lines = [l for l in lines if l and not l.startswith(("//", ".", "{", "}")) and not l.endswith(":")]
    fma = sum(1 for l in lines if re.sub(r"^@!?%\w+\s+", "", l).startswith("fma."))
    want = anchors.get(kname, {}).get("nvcc_ptx_lines")
    print(f"{kname}: nvcc fma {fma}, PTX lines {len(lines)} (anchors: {want})")
    kernels.append({"kernel": kname, "fma": fma, "ptx_lines": len(lines), "anchor_ptx_lines": want})
  with open(os.path.join(ARGS.out_dir, "nvcc-sm80.json"), "w") as f:
    json.dump({"generator": "test/Dialect/UOp/Optimize/gen_tinygrad_opts.py --nvcc",
               "procedure": "tinygrad's CUDARenderer('sm_80') with the default opts, get_program, nvcc -ptx -arch=sm_80",
               "nvcc": subprocess.run([ARGS.nvcc_path, "--version"], capture_output=True, text=True).stdout.strip().splitlines()[-1],
               "kernels": kernels}, f, indent=1)
    f.write("\n")


if __name__ == "__main__":
  run_nvcc() if ARGS.nvcc else main()

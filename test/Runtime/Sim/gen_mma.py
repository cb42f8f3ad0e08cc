#!/usr/bin/env python3
"""Generate a one-warp nvvm.mma.sync test whose answer depends on the PTX ISA fragment layouts.

usage: gen_mma.py SHAPE ATYPE CTYPE OUTDIR [--wrong=VARIANT] [--seed=N]

  SHAPE m16n8k16 (ATYPE f16, bf16) or m16n8k8 (ATYPE f16, bf16, tf32); CTYPE f32, or f16 with
  ATYPE f16; D has C's type. An invalid combination exits 2.

OUTDIR gets mma.mlir (GPU level: nvvm + llvm dialects, kernel mma_k0, one warp), mma.json (for
`uop-run mma.mlir --buffers-from=mma.json`) and raw little-endian buffers, all row-major: 0 D
(M x N, no input, expected d_expected.bin), 1 A (M x K), 2 B (K x N), 3 C (M x N). In memory f16
is half, bf16 bf16, tf32 f32. A, B, C are seeded random integers in [-4, 4], so D = A @ B + C is
exact in every type; it is computed here.

Each lane loads its A, B, C fragment elements at the (row, col) the PTX ISA gives, packs them as
nvvm.mma.sync wants (NVVMOps.td, NVVM_MmaOp: f16 pairs as vector<2xf16>, lower index in element
0; bf16 pairs (via vector<2xbf16>) and tf32 as i32, lower index in the low bits), runs one
mma.sync row.col and stores the result struct to D at the C/D fragment positions. The layouts
come from the PTX ISA, 9.7.14.5.7 "Matrix Fragments for mma.m16n8k8" and 9.7.14.5.8 "Matrix
Fragments for mma.m16n8k16 with floating point type"
(https://docs.nvidia.com/cuda/parallel-thread-execution/#warp-level-matrix-fragment-mma-1688 and
#warp-level-matrix-fragment-mma-16816-float), with groupID = %laneid >> 2 and
threadID_in_group = %laneid % 4.

--level=uop writes the kernel in the uop dialect instead: SPECIAL lidx0 (32 lanes), scalar
LOAD/STORE at the same positions, VECTORIZE/GEP, and one uop.wmma, so that convert-uop-to-gpu's
WMMA lowering (register packing, nvvm.mma.sync) is what runs. It is given only for the tensor
cores of the target table (not m16n8k8 bf16).

--wrong=VARIANT loads in a plausible but wrong layout; the expected file stays the true
A @ B + C. The script computes what a simulator following the documented layouts writes for that
kernel and exits 1 unless it differs from the expected D beyond uop-run's tolerance.
  a-khalf       A: swap the roles of "row + 8" and "the other k half" (m16n8k16: a2,a3 at col + 8,
                a4,a5 at row + 8; m16n8k8 tf32: a1 at col + 4, a2 at row + 8; m16n8k8 f16/bf16,
                with no k half: a1 at row + 8, a2 at col + 1)
  b-transposed  B's memory read as if it held B^T (N x K), the classic "col means column-major"
  c-rows        C/D rows 2 * groupID + (i >> 1) instead of groupID + 8 * (i >> 1)
"""
import argparse
import json
import os
import random
import struct
import sys

from kernel_text import Body

SHAPES = {"m16n8k16": (16, 8, 16), "m16n8k8": (16, 8, 8)}
ATYPES = {"m16n8k16": ("f16", "bf16"), "m16n8k8": ("f16", "bf16", "tf32")}
MEMTYPE = {"f16": "f16", "bf16": "bf16", "tf32": "f32", "f32": "f32"}
TOL = {"f32": 1e-4, "f16": 2e-2}  # uop-run's atol = rtol per dtype (docs/uop-run.md)
LANE = "%lane"  # a layout called with this lane gives its formulas in %g and %t, for the IR


class Lin:
    """c + g * groupID + t * threadID_in_group: a layout formula kept symbolic for the IR."""
    def __init__(self, g=0, t=0, c=0):
        self.g, self.t, self.c = g, t, c

    def __add__(self, o):
        o = o if isinstance(o, Lin) else Lin(c=o)
        return Lin(self.g + o.g, self.t + o.t, self.c + o.c)
    __radd__ = __add__

    def __mul__(self, k):
        return Lin(self.g * k, self.t * k, self.c * k)
    __rmul__ = __mul__


def gt(lane):
    """groupID, threadID_in_group."""
    return (Lin(g=1), Lin(t=1)) if lane == LANE else (lane >> 2, lane % 4)


# PTX ISA 9.7.14.5.8 "Matrix Fragments for mma.m16n8k16 with floating point type".
def a_k16(lane, i):  # A .f16/.bf16 (Figure 79): row g for a0,a1,a4,a5 else g+8; col 2t + (i & 1), +8 for i >= 4
    g, t = gt(lane)
    return g + 8 * ((i >> 1) & 1), t * 2 + (i & 1) + 8 * (i >> 2)


def b_k16(lane, i):  # B .f16/.bf16 (Figure 81): row 2t + (i & 1), +8 for i >= 2; col g
    g, t = gt(lane)
    return t * 2 + (i & 1) + 8 * (i >> 1), g


# PTX ISA 9.7.14.5.7 "Matrix Fragments for mma.m16n8k8".
def a_k8(lane, i):  # A .f16/.bf16 (Figure 71): row g for a0,a1, g+8 for a2,a3; col 2t + (i & 1)
    g, t = gt(lane)
    return g + 8 * (i >> 1), t * 2 + (i & 1)


def a_k8_tf32(lane, i):  # A .tf32 (Figure 72): row g for a0,a2, g+8 for a1,a3; col t for a0,a1, t+4 for a2,a3
    g, t = gt(lane)
    return g + 8 * (i & 1), t + 4 * (i >> 1)


def b_k8(lane, i):  # B .f16/.bf16 (Figure 74): row 2t + i; col g
    g, t = gt(lane)
    return t * 2 + i, g


def b_k8_tf32(lane, i):  # B .tf32 (Figure 75): row t for b0, t+4 for b1; col g
    g, t = gt(lane)
    return t + 4 * i, g


def c_frag(lane, i):  # C/D .f16x2/.f32 (m16n8k8 Figure 77, m16n8k16 Figure 83): row g, g+8 for i >= 2; col 2t + (i & 1)
    g, t = gt(lane)
    return g + 8 * (i >> 1), t * 2 + (i & 1)


# The wrong variants (see the docstring).
def a_k16_khalf(lane, i):
    g, t = gt(lane)
    return g + 8 * (i >> 2), t * 2 + (i & 1) + 8 * ((i >> 1) & 1)


def a_k8_khalf(lane, i):
    g, t = gt(lane)
    return g + 8 * (i & 1), t * 2 + (i >> 1)


def a_k8_tf32_khalf(lane, i):
    g, t = gt(lane)
    return g + 8 * (i >> 1), t + 4 * (i & 1)


def c_rows(lane, i):
    g, t = gt(lane)
    return 2 * g + (i >> 1), t * 2 + (i & 1)


def layouts(shape, atype, wrong):
    """The documented layouts, name -> f(lane, i) -> (row, col), and the kernel's flat offsets."""
    M, N, K = SHAPES[shape]
    a, b, a_bad = ((a_k16, b_k16, a_k16_khalf) if shape == "m16n8k16" else
                   (a_k8_tf32, b_k8_tf32, a_k8_tf32_khalf) if atype == "tf32" else (a_k8, b_k8, a_k8_khalf))
    doc = {"a": a, "b": b, "c": c_frag, "d": c_frag}
    pos = dict(doc, **({"a": a_bad} if wrong == "a-khalf" else {}),
               **({"c": c_rows, "d": c_rows} if wrong == "c-rows" else {}))
    ld = {"a": K, "b": N, "c": N, "d": N}

    def offset(m):
        def f(lane, i):
            r, c = pos[m](lane, i)
            return c * K + r if m == "b" and wrong == "b-transposed" else r * ld[m] + c
        return f
    return doc, {m: offset(m) for m in "abcd"}


def counts(shape):
    """Fragment elements per lane of A, B, C/D."""
    M, N, K = SHAPES[shape]
    return M * K // 32, K * N // 32, M * N // 32


def simulate(shape, doc, offs, A, B, C):
    """What a simulator following the documented layouts writes to D (None: never written)."""
    M, N, K = SHAPES[shape]
    eff = {m: [[None] * cols for _ in range(rows)] for m, rows, cols in (("a", M, K), ("b", K, N), ("c", M, N))}
    for m, n, flat in zip("abc", counts(shape), (A, B, C)):
        for lane in range(32):
            for i in range(n):
                r, c = doc[m](lane, i)
                assert eff[m][r][c] is None, "a documented layout is not a permutation"
                eff[m][r][c] = flat[offs[m](lane, i)]
    D = [None] * (M * N)
    for lane in range(32):
        for i in range(counts(shape)[2]):
            r, c = doc["d"](lane, i)
            D[offs["d"](lane, i)] = sum(eff["a"][r][k] * eff["b"][k][c] for k in range(K)) + eff["c"][r][c]
    return D


def emit(shape, atype, ctype, offs):
    M, N, K = SHAPES[shape]
    cmem, body = MEMTYPE[ctype], Body()
    lines, new = body.lines, body.new

    def const(v):
        return new(f"llvm.mlir.constant({v} : i32) : i32", f"%c{v}_i32")

    def ptr(base, m, i, ty):  # &base[offset of fragment element i], the offset in %g and %t
        lin = offs[m](LANE, i)
        terms = [x if k == 1 else new(f"llvm.mul {x}, {const(k)} : i32") for x, k in (("%g", lin.g), ("%t", lin.t)) if k]
        v = terms[0] if terms else const(lin.c)
        for x in terms[1:] + ([const(lin.c)] if terms and lin.c else []):
            v = new(f"llvm.add {v}, {x} : i32")
        return new(f"llvm.getelementptr {base}[{v}] : (!llvm.ptr, i32) -> !llvm.ptr, {ty}")

    def regs(base, m, count, ty):  # load a fragment, pack it into mma.sync operands
        vals = [new(f"llvm.load {ptr(base, m, i, MEMTYPE[ty])} : !llvm.ptr -> {MEMTYPE[ty]}") for i in range(count)]
        if ty in ("tf32", "f32"):
            return [new(f"llvm.bitcast {v} : f32 to i32") if ty == "tf32" else v for v in vals]
        vecs = []
        for x, y in zip(vals[::2], vals[1::2]):
            v = new(f"llvm.insertelement {x}, {new(f'llvm.mlir.poison : vector<2x{ty}>')}[{const(0)} : i32] : vector<2x{ty}>")
            vecs.append(new(f"llvm.insertelement {y}, {v}[{const(1)} : i32] : vector<2x{ty}>"))
        return [new(f"llvm.bitcast {v} : vector<2xbf16> to i32") for v in vecs] if ty == "bf16" else vecs

    lines += [f"{LANE} = nvvm.read.ptx.sreg.tid.x : i32",
              f"%g = llvm.lshr {LANE}, {const(2)} : i32  // groupID",
              f"%t = llvm.urem {LANE}, {const(4)} : i32  // threadID_in_group"]
    na, nb, nc = counts(shape)
    ra, rb, rc = regs("%a", "a", na, atype), regs("%b", "b", nb, atype), regs("%c", "c", nc, ctype)
    opty = {"f16": "vector<2xf16>", "bf16": "i32", "tf32": "i32"}[atype]
    cty = "f32" if ctype == "f32" else "vector<2xf16>"
    st = f"!llvm.struct<({', '.join([cty] * len(rc))})>"
    ptx = (f"multiplicandAPtxType = #nvvm.mma_type<{atype}>, multiplicandBPtxType = #nvvm.mma_type<{atype}>, "
           if atype != "f16" else "")
    res = new(f"nvvm.mma.sync A[{', '.join(ra)}] B[{', '.join(rb)}] C[{', '.join(rc)}] "
              f"{{layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, {ptx}"
              f"shape = #nvvm.shape<m = {M}, n = {N}, k = {K}>}} : ({opty}, {opty}, {cty}) -> {st}")
    for i in range(nc):
        if ctype == "f32":
            d = new(f"llvm.extractvalue {res}[{i}] : {st}")
        else:
            v = new(f"llvm.extractvalue {res}[{i // 2}] : {st}")
            d = new(f"llvm.extractelement {v}[{const(i % 2)} : i32] : vector<2xf16>")
        lines.append(f"llvm.store {d}, {ptr('%d', 'd', i, cmem)} : {cmem}, !llvm.ptr")
    lines.append("llvm.return")
    args = ", ".join(f"%{x}: !llvm.ptr {{llvm.noalias}}" for x in "dabc")
    body = "\n".join("      " + line for line in lines)
    return (f"// Generated by gen_mma.py {shape} {atype} {ctype}: D = A @ B + C by one warp's nvvm.mma.sync.\n"
            "module attributes {gpu.container_module, uop.launch = {mma_k0 = {block = array<i32: 32, 1, 1>, "
            "grid = array<i32: 1, 1, 1>}}} {\n"
            '  gpu.module @mma_k0 [#nvvm.target<chip = "sm_80", features = "+ptx80">] {\n'
            f"    llvm.func @mma_k0({args}) attributes {{gpu.kernel, nvvm.kernel}} {{\n{body}\n    }}\n  }}\n}}\n")


UOP_TYPES = {"f16": "f16", "bf16": "bf16", "tf32": "f32", "f32": "f32"}


def emit_uop(shape, atype, ctype, offs, chip):
    """The same kernel in the uop dialect, around one uop.wmma."""
    M, N, K = SHAPES[shape]
    body = Body()
    lines, new, const = body.lines, body.new, body.const

    def index(buf, m, i, ptr):  # the lane's fragment element i of m, as an index into buf
        lin = offs[m](LANE, i)
        v = const(lin.c)
        for x, k in (("%g", lin.g), ("%t", lin.t)):
            if k:
                term = x if k == 1 else new(f"uop.mul {x}, {const(k)} : si32")
                v = new(f"uop.add {v}, {term} : si32")
        return new(f"uop.index {buf}[{v}] : {ptr}, si32")

    na, nb, nc = counts(shape)
    ta, tc = UOP_TYPES[atype], UOP_TYPES[ctype]
    ptrs = {"d": f"!uop.ptr<{tc}, {M * N}>", "a": f"!uop.ptr<{ta}, {M * K}>",
            "b": f"!uop.ptr<{ta}, {K * N}>", "c": f"!uop.ptr<{tc}, {M * N}>"}
    for i, m in enumerate("dabc"):
        lines.append(f"%{m} = uop.define_global {i} : {ptrs[m]}")
    lines += ['%lane = uop.special "lidx0" 32 : si32',
              f"%g = uop.idiv %lane, {const(4)} : si32  // groupID",
              f"%t = uop.mod %lane, {const(4)} : si32  // threadID_in_group"]

    def fragment(m, count, ty):
        vals = [new(f"uop.load {index('%' + m, m, i, ptrs[m])} : {ptrs[m]}") for i in range(count)]
        return new(f"uop.vectorize {', '.join(vals)} : {ty}")

    va, vb, vc = fragment("a", na, ta), fragment("b", nb, ta), fragment("c", nc, tc)

    def axes(count, first):  # upcast axes of 2 whose sizes multiply to count
        return "#uop.axes<" + ", ".join(f"({first + j}, 2)" for j in range(count.bit_length() - 1)) + ">"
    reduce = ", ".join(str(4 + j) for j in range(K.bit_length() - 1))
    w = new(f"uop.wmma {va}, {vb}, {vc} dims [{N}, {M}, {K}] device \"CUDA\" threads 32 "
            f"upcast [{axes(na, 8)}, {axes(nb, 8)}, {axes(nc, 8)}] reduce [{reduce}] "
            f": vector<{na}x{ta}>, vector<{nb}x{ta}>, vector<{nc}x{tc}>")
    stores = []
    for i in range(nc):
        d = new(f"uop.gep {w} [{i}] : vector<{nc}x{tc}>")
        stores.append(new(f"uop.store {index('%d', 'd', i, ptrs['d'])}, {d} : {ptrs['d']}"))
    lines.append(f"uop.sink {', '.join(stores)}")
    body = "\n".join("    " + line for line in lines)
    # A target that lists this tensor core (bf16 and tf32 are not among a
    # chip's defaults, which are tinygrad's PTX renderer's).
    din = "f32" if atype == "tf32" else atype
    target = (f'#uop.target<"{chip}", tensor_cores = [#uop.tensor_core<m = {M}, n = {N}, k = {K}, '
              f"dtype_in = {din}, dtype_out = {ctype}>]>")
    return (f"// Generated by gen_mma.py {shape} {atype} {ctype} --level=uop: D = A @ B + C by one "
            f"uop.wmma.\nmodule attributes {{uop.target = {target}}} {{\n"
            f"  uop.kernel @mma_k0 {{\n{body}\n  }}\n}}\n")


def pack(vals, dtype):
    if dtype == "bf16":  # the top 16 bits of the f32, exact for these small integers
        return b"".join(struct.pack("<f", v)[2:] for v in vals)
    return struct.pack("<%d%s" % (len(vals), "e" if dtype == "f16" else "f"), *vals)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    for name in ("shape", "atype", "ctype", "outdir"):
        ap.add_argument(name)
    ap.add_argument("--wrong", choices=("a-khalf", "b-transposed", "c-rows"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--level", choices=("nvvm", "uop"), default="nvvm")
    ap.add_argument("--chip", default="sm_80", help="the #uop.target of --level=uop")
    o = ap.parse_args()
    if (o.shape not in SHAPES or o.atype not in ATYPES[o.shape] or o.ctype not in ("f32", "f16")
            or (o.ctype == "f16" and o.atype != "f16")):
        print(f"error: unsupported combination {o.shape} {o.atype} {o.ctype}: m16n8k16 takes f16/bf16, "
              "m16n8k8 f16/bf16/tf32; C/D f32, or f16 with f16 inputs", file=sys.stderr)
        return 2
    M, N, K = SHAPES[o.shape]
    rng = random.Random(o.seed)
    A, B, C = ([float(rng.randint(-4, 4)) for _ in range(n)] for n in (M * K, K * N, M * N))
    want = [sum(A[r * K + k] * B[k * N + c] for k in range(K)) + C[r * N + c] for r in range(M) for c in range(N)]
    assert simulate(o.shape, *layouts(o.shape, o.atype, None), A, B, C) == want
    doc, offs = layouts(o.shape, o.atype, o.wrong)
    for m, n, size in zip("abcd", counts(o.shape) + counts(o.shape)[2:], (M * K, K * N, M * N, M * N)):
        assert all(0 <= offs[m](lane, i) < size for lane in range(32) for i in range(n)), f"{m} out of bounds"
    if o.wrong:
        got, tol = simulate(o.shape, doc, offs, A, B, C), TOL[o.ctype]
        bad = sum(g is None or abs(g - w) > tol + tol * abs(w) for g, w in zip(got, want))
        if not bad:
            print(f"error: --wrong={o.wrong} gives the expected D with seed {o.seed}", file=sys.stderr)
            return 1
        print(f"--wrong={o.wrong}: {bad}/{M * N} elements of D differ under the documented layouts")
    os.makedirs(o.outdir, exist_ok=True)
    amem, cmem = MEMTYPE[o.atype], MEMTYPE[o.ctype]
    buffers = [(0, cmem, want, None, "d_expected.bin"), (1, amem, A, "a.bin", None),
               (2, amem, B, "b.bin", None), (3, cmem, C, "c.bin", None)]
    for _, dtype, vals, inp, exp in buffers:
        with open(os.path.join(o.outdir, inp or exp), "wb") as f:
            f.write(pack(vals, dtype))
    spec = {"case": "mma", "kernel": 0, "buffers": [
        {"index": i, "dtype": dt, "size": len(v), "input": inp, "expected": exp} for i, dt, v, inp, exp in buffers]}
    with open(os.path.join(o.outdir, "mma.json"), "w") as f:
        f.write(json.dumps(spec) + "\n")
    with open(os.path.join(o.outdir, "mma.mlir"), "w") as f:
        f.write(emit_uop(o.shape, o.atype, o.ctype, offs, o.chip) if o.level == "uop"
                else emit(o.shape, o.atype, o.ctype, offs))
    return 0


if __name__ == "__main__":
    sys.exit(main())

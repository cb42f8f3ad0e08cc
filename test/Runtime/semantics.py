#!/usr/bin/env python3
"""semantics.py UOP_RUN WORKDIR [TARGET]: tinygrad's value semantics, checked by running.

Each case is a small kernel with hand-picked inputs at the edges (negative
division, shifts past the width, NaN, half rounding, ...). The expected
outputs come from the Python oracle below, written from tinygrad's
definitions (its C backend, which the corpus was computed with), not from
our C++. Every case runs through `uop-run --exact` (bit-exact compare) unless
it says otherwise. Prints one line per case and "semantics: N/N passed";
exits 1 if any case fails.
"""
import math
from fractions import Fraction
import os
import struct
import subprocess
import sys

FMT = {"f64": "d", "f32": "f", "f16": "e", "i8": "b", "u8": "B", "i16": "h", "u16": "H",
       "i32": "i", "u32": "I", "i64": "q", "u64": "Q", "bool": "B"}
MLIR = {"bf16": "bf16", "f64": "f64", "f32": "f32", "f16": "f16", "i8": "si8", "u8": "ui8", "i16": "si16",
        "u16": "ui16", "i32": "si32", "u32": "ui32", "i64": "si64", "u64": "ui64", "bool": "i1"}
BITS = {"i8": 8, "u8": 8, "i16": 16, "u16": 16, "i32": 32, "u32": 32, "i64": 64, "u64": 64}

# --- the oracle: tinygrad's definitions -------------------------------------


def wrap(v, dt):
    bits = BITS[dt]
    v &= (1 << bits) - 1
    return v - (1 << bits) if dt.startswith("i") and v >= 1 << (bits - 1) else v


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0] if math.isfinite(x) else x


def f16(x):
    try:
        return struct.unpack("<e", struct.pack("<e", x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def bf16_bits(x):  # round-to-nearest-even of the f32 bits to the top 16
    b = struct.unpack("<I", struct.pack("<f", x))[0]
    return (b + 0x7FFF + ((b >> 16) & 1)) >> 16


def bf16(x):
    return struct.unpack("<f", struct.pack("<I", bf16_bits(x) << 16))[0]


def c_div(a, b, dt):  # C's truncating /, with x/0 = 0 (C would trap)
    if b == 0:
        return 0
    q = abs(a) // abs(b)
    return wrap(q if (a < 0) == (b < 0) else -q, dt)


def c_mod(a, b, dt):  # C's %, sign of the dividend, with x%0 = 0
    if b == 0:
        return 0
    return wrap(a - b * int(a / b) if abs(a) < 2**52 else int(math.fmod(a, b)), dt)


def shl(x, n, dt):
    return 0 if n >= BITS[dt] else wrap(x << n, dt)


def shr(x, n, dt):  # arithmetic for signed, logical for unsigned
    if n >= BITS[dt]:
        return -1 if x < 0 else 0
    return x >> n


def c_max(a, b):  # a < b ? b : a
    return b if a < b else a


def float_to_int(x, dt):  # truncate toward zero (in range: the only defined case)
    assert wrap(int(x), dt) == int(x), "out of range: the target's value"
    return int(x)


# --- kernels -----------------------------------------------------------------


def elementwise(name, n, ins, outs):
    """ins: dtypes of buffers read as %x0, %x1, ...; outs: (dtype, body lines
    ending in a value %r<i>) for buffers written. Buffer order: outs then ins."""
    lines = [f"uop.kernel @{name} {{"]
    stores = []
    bufs = [dt for dt, _ in outs] + ins
    for i, dt in enumerate(bufs):
        t = f"!uop.ptr<{MLIR[dt]}, {n}>"
        lines.append(f"  %b{i} = uop.define_global {i} : {t}")
        lines.append(f"  %v{i} = uop.view %b{i} [#uop.view<shape = [{n}], strides = [1]>] : {t}")
    for j, dt in enumerate(ins):
        i = len(outs) + j
        lines.append(f"  %x{j} = uop.load %v{i} : !uop.ptr<{MLIR[dt]}, {n}>")
    for i, (dt, body) in enumerate(outs):
        lines += ["  " + l for l in body]
        lines.append(f"  %s{i} = uop.store %v{i}, %r{i} : !uop.ptr<{MLIR[dt]}, {n}>")
        stores.append(f"%s{i}")
    lines.append(f"  uop.sink {', '.join(stores)}")
    lines.append("}")
    return "\n".join(lines) + "\n"


CASES = []


def case(name, kernel, buffers, exact=True, gpu_buffers=None):
    """buffers: list of (dtype, input values or None, expected values or None);
    gpu_buffers: the same where the GPU targets (sim, cuda) differ by design."""
    CASES.append((name, kernel, buffers, exact, gpu_buffers or buffers))


def ew_case(name, ins, outs, inputs, expected, exact=True, gpu_expected=None):
    n = len(inputs[0])
    kernel = elementwise(name, n, [dt for dt in ins], outs)

    def buffers(expected):
        # An output not checked (None) starts as zeros, for its size.
        bufs = [(dt, [0] * n if exp is None else None, exp) for (dt, _), exp in zip(outs, expected)]
        return bufs + [(dt, vals, None) for dt, vals in zip(ins, inputs)]
    case(name, kernel, buffers(expected), exact,
         buffers(gpu_expected) if gpu_expected else None)


# IDIV and MOD truncate toward zero (C), signed and unsigned.
a = [7, -7, 7, -7, 0, 5, -2**31, -2**31, 9, 123]
b = [2, 2, -2, -2, 3, 0, -1, 1, 0, -1]
ew_case("idiv_mod_signed", ["i32", "i32"],
        [("i32", ["%r0 = uop.idiv %x0, %x1 : si32"]), ("i32", ["%r1 = uop.mod %x0, %x1 : si32"])],
        [a, b], [[c_div(x, y, "i32") for x, y in zip(a, b)],
                 [c_mod(x, y, "i32") for x, y in zip(a, b)]])
ua = [7, 2**32 - 7, 2**31, 5, 4000000000]
ub = [2, 2, 3, 0, 7]
ew_case("idiv_mod_unsigned", ["u32", "u32"],
        [("u32", ["%r0 = uop.idiv %x0, %x1 : ui32"]), ("u32", ["%r1 = uop.mod %x0, %x1 : ui32"])],
        [ua, ub], [[x // y if y else 0 for x, y in zip(ua, ub)],
                   [x % y if y else 0 for x, y in zip(ua, ub)]])
# Division by constants (index math) takes the unguarded path.
ca = [-9, -1, 0, 8, 2**31 - 1]
ew_case("idiv_mod_by_constant", ["i32"],
        [("i32", ["%c4 = uop.const 4 : si32", "%r0 = uop.idiv %x0, %c4 : si32"]),
         ("i32", ["%c3 = uop.const 3 : si32", "%r1 = uop.mod %x0, %c3 : si32"])],
        [ca], [[c_div(x, 4, "i32") for x in ca], [c_mod(x, 3, "i32") for x in ca]])

# Integer arithmetic wraps; unsigned compares and max are unsigned.
wa = [2**31 - 1, -2**31, 100000, -5]
wb = [1, -1, 100000, 3]
ew_case("int_wraparound", ["i32", "i32"],
        [("i32", ["%r0 = uop.add %x0, %x1 : si32"]), ("i32", ["%r1 = uop.mul %x0, %x1 : si32"]),
         ("i32", ["%r2 = uop.sub %x0, %x1 : si32"]), ("i32", ["%r3 = uop.neg %x0 : si32"])],
        [wa, wb], [[wrap(x + y, "i32") for x, y in zip(wa, wb)],
                   [wrap(x * y, "i32") for x, y in zip(wa, wb)],
                   [wrap(x - y, "i32") for x, y in zip(wa, wb)], [wrap(-x, "i32") for x in wa]])
u8a = [250, 3, 128, 0]
u8b = [10, 255, 128, 1]
ew_case("uint8_ops", ["u8", "u8"],
        [("u8", ["%r0 = uop.add %x0, %x1 : ui8"]), ("u8", ["%r1 = uop.max %x0, %x1 : ui8"]),
         ("bool", ["%r2 = uop.cmplt %x0, %x1 : ui8"])],
        [u8a, u8b], [[wrap(x + y, "u8") for x, y in zip(u8a, u8b)],
                     [max(x, y) for x, y in zip(u8a, u8b)], [int(x < y) for x, y in zip(u8a, u8b)]])
sa = [1, -1, 2**31 - 1, 5, 5, -8, 1, -8]
sn = [3, 3, 1, 31, 32, 40, 0, 2]
ew_case("shifts_i32", ["i32", "i32"],
        [("i32", ["%r0 = uop.shl %x0, %x1 : si32, si32"]),
         ("i32", ["%r1 = uop.shr %x0, %x1 : si32, si32"])],
        [sa, sn], [[shl(x, n, "i32") for x, n in zip(sa, sn)],
                   [shr(x, n, "i32") for x, n in zip(sa, sn)]])
usa = [2**32 - 1, 2**31, 1, 7]
usn = [4, 31, 32, 0]
ew_case("shifts_u32", ["u32", "u32"],
        [("u32", ["%r0 = uop.shl %x0, %x1 : ui32, ui32"]),
         ("u32", ["%r1 = uop.shr %x0, %x1 : ui32, ui32"])],
        [usa, usn], [[shl(x, n, "u32") for x, n in zip(usa, usn)],
                     [shr(x, n, "u32") for x, n in zip(usa, usn)]])

# bool is a byte; any nonzero byte reads as true; stores write 0 or 1.
ba = [0, 1, 2, 255, 0]
bb = [0, 0, 1, 1, 7]
ew_case("bool_bytes", ["bool", "bool"],
        [("i32", ["%r0 = uop.cast %x0 : i1 -> si32"]), ("bool", ["%r1 = uop.and %x0, %x1 : i1"]),
         ("bool", ["%r2 = uop.neg %x0 : i1"]), ("bool", ["%r3 = uop.add %x0, %x1 : i1"])],
        [ba, bb], [[int(x != 0) for x in ba], [int(x != 0 and y != 0) for x, y in zip(ba, bb)],
                   [int(x == 0) for x in ba], [int(x != 0 or y != 0) for x, y in zip(ba, bb)]])

# float -> int truncates toward zero; out of range (and NaN) the value is the
# target's (docs/semantics.md), checked against tinygrad itself by
# test/Differential. -> bool is != 0, NaN is true.
fs = [3.7, -3.7, 100.5, -1.5, -0.0, 127.9, -128.9, 0.5]
fu8 = [3.7, 0.5, 255.9, 200.5, -0.0, 0.0, 1.5, 128.0]
fu32 = [3.7, 0.5, 2.5e9, 4.2e9, -0.0, 65536.5, 1.5, 2.0**31]
fa = [3.7, -3.7, 300.5, -1.5, float("nan"), 1e10, -0.0, 2.5e9]
ew_case("float_to_int", ["f32", "f32", "f32", "f32"],
        [("i32", ["%r0 = uop.cast %x0 : f32 -> si32"]), ("i8", ["%r1 = uop.cast %x0 : f32 -> si8"]),
         ("u8", ["%r2 = uop.cast %x1 : f32 -> ui8"]), ("u32", ["%r3 = uop.cast %x2 : f32 -> ui32"]),
         ("bool", ["%r4 = uop.cast %x3 : f32 -> i1"])],
        [fs, fu8, fu32, fa], [[float_to_int(f32(x), "i32") for x in fs], [float_to_int(f32(x), "i8") for x in fs],
                              [float_to_int(f32(x), "u8") for x in fu8], [float_to_int(f32(x), "u32") for x in fu32],
                              [int(x != 0 or math.isnan(x)) for x in fa]])
# Out of range, a float -> int cast is the target's: C's undefined behaviour
# on the CPU (run, not checked), PTX's cvt.rzi on the GPU, which saturates
# and gives 0 for NaN. (The simulator's host code once gave a half NaN
# -32768 on x86 machines with AVX512-FP16, an LLVM 22 bug: see HostJIT.cpp.)
hs = [float("nan"), math.inf, -math.inf, 40000.0, -40000.0, 300.5, -300.5, -1.5]
ew_case("half_to_short_out_of_range", ["f16"], [("i16", ["%r0 = uop.cast %x0 : f16 -> si16"])],
        [hs], [None], gpu_expected=[[0, 32767, -32768, 32767, -32768, 300, -300, -1]])
ia = [2**24 + 1, -7, 65519, 70000]
ew_case("int_to_float", ["i32"],
        [("f32", ["%r0 = uop.cast %x0 : si32 -> f32"]), ("f16", ["%r1 = uop.cast %x0 : si32 -> f16"])],
        [ia], [[f32(float(x)) for x in ia], [f16(float(x)) for x in ia]])

# Half is computed in f32 and rounded once at the store: a*b+c where
# rounding a*b to half first would give another answer.
ha, hb, hc = [1.134765625, 3.0, 1000.0], [1.84765625, 1 / 3, 1.001], [-1.47265625, 0.0, 0.5]
fused = [f16(f32(f32(f16(x) * f16(y)) + f16(z))) for x, y, z in zip(ha, hb, hc)]
twice = [f16(f16(f16(x) * f16(y)) + f16(z)) for x, y, z in zip(ha, hb, hc)]
assert fused != twice, "the half case must tell the two roundings apart"
ew_case("half_in_float", ["f16", "f16", "f16"],
        [("f16", ["%m = uop.mul %x0, %x1 : f16", "%r0 = uop.add %m, %x2 : f16"]),
         ("f32", ["%m2 = uop.mul %x0, %x1 : f16", "%r1 = uop.cast %m2 : f16 -> f32"])],
        [ha, hb, hc], [fused, [f32(f16(x) * f16(y)) for x, y in zip(ha, hb)]],
        # The GPU fuses a half a * b + c into MULACC, fma.rn.f32 of the widened
        # halves rounded back once (tinygrad's PTX), which is the CPU's value;
        # a half product cast to f32 is exact on both.
        gpu_expected=[fused, [f32(f16(x) * f16(y)) for x, y in zip(ha, hb)]])

# f64 -> bf16 rounds once (not through f32, which would round twice: 1 + 2^-8
# + 2^-30 is 1 + 2^-8 in f32, a tie that bf16 rounds down to 1).
def bf16_of_double(x):
    if math.isnan(x):
        return x
    near = bf16_bits(f32(x))  # within one bf16 step of the answer
    cands = [struct.unpack("<f", struct.pack("<I", (b & 0xFFFF) << 16))[0] for b in (near - 1, near, near + 1)]
    return min(zip(cands, (near - 1, near, near + 1)),
               key=lambda cb: (abs(Fraction(cb[0]) - Fraction(x)), cb[1] & 1))[0]


da = [1 + 2**-8 + 2**-30, -(1 + 2**-8 + 2**-30), 1.0, 0.1, 3.0e38, 2.0**-130, -7.25, float("nan")]
ew_case("f64_to_bf16", ["f64"], [("bf16", ["%r0 = uop.cast %x0 : f64 -> bf16"])],
        [da], [[bf16_of_double(x) for x in da]])

# bfloat16 likewise: computed in f32, rounded to nearest even when stored.
bfa, bfb = [1.0, 3.0, 1 / 3, 1000.5], [1 / 3, 1.0078125, 3.0, 1.00390625]
ew_case("bfloat16", ["bf16", "bf16"],
        [("bf16", ["%r0 = uop.mul %x0, %x1 : bf16"]),
         ("f32", ["%m = uop.add %x0, %x1 : bf16", "%r1 = uop.cast %m : bf16 -> f32"])],
        [bfa, bfb], [[bf16(f32(bf16(x) * bf16(y))) for x, y in zip(bfa, bfb)],
                     [f32(bf16(x) + bf16(y)) for x, y in zip(bfa, bfb)]],
        # The GPU computes each bf16 op in f32 and rounds it back to bf16
        # (tinygrad's PTX renderer), so the sum is rounded before the cast.
        gpu_expected=[[bf16(f32(bf16(x) * bf16(y))) for x, y in zip(bfa, bfb)],
                      [f32(bf16(f32(bf16(x) + bf16(y)))) for x, y in zip(bfa, bfb)]])

# MAX is a < b ? b : a; comparisons with NaN: < and == false, != true.
nan = float("nan")
ma, mb = [nan, 1.0, 2.0, -0.0], [1.0, nan, 3.0, 0.0]
ew_case("max_and_compare_nan", ["f32", "f32"],
        [("f32", ["%r0 = uop.max %x0, %x1 : f32"]), ("bool", ["%r1 = uop.cmplt %x0, %x1 : f32"]),
         ("bool", ["%r2 = uop.cmpne %x0, %x1 : f32"]), ("bool", ["%r3 = uop.cmpeq %x0, %x1 : f32"])],
        [ma, mb], [[c_max(x, y) for x, y in zip(ma, mb)], [int(x < y) for x, y in zip(ma, mb)],
                   [int(x != y) for x, y in zip(ma, mb)], [int(x == y) for x, y in zip(ma, mb)]])

# Transcendentals: libm's, within the f32 tolerance, with IEEE special values.
ta = [0.5, 3.0, 0.0, -1.0, 200.0, 1e-3]


def ieee(fn, x):
    try:
        return f32(fn(x))
    except (ValueError, ZeroDivisionError):
        return {"log2": -math.inf if x == 0 else nan, "sqrt": nan, "recip": math.inf}[fn.__name__]
    except OverflowError:
        return math.inf


def log2(x): return math.log2(x)
def sqrt(x): return math.sqrt(x)
def recip(x): return 1 / x


ew_case("transcendentals", ["f32"],
        [("f32", ["%r0 = uop.exp2 %x0 : f32"]), ("f32", ["%r1 = uop.log2 %x0 : f32"]),
         ("f32", ["%r2 = uop.sin %x0 : f32"]), ("f32", ["%r3 = uop.sqrt %x0 : f32"]),
         ("f32", ["%r4 = uop.recip %x0 : f32"])],
        [ta], [[ieee(lambda x: 2.0 ** x, x) for x in ta], [ieee(log2, x) for x in ta],
               [f32(math.sin(x)) for x in ta], [ieee(sqrt, x) for x in ta], [ieee(recip, x) for x in ta]],
        exact=False)

# Reductions. A MAX reduce is acc = max(acc, x) from -inf: a NaN element is
# dropped. A half ADD accumulator is rounded to half at every step. (No opts:
# the CPU heuristic would unroll the 5-wide axis; see the unrolled cases.)
red = """uop.kernel @{name} attributes {{uop.opts = "{opts}"}} {{
  %o = uop.define_global 0 : !uop.ptr<{t}, 2>
  %ov = uop.view %o [#uop.view<shape = [2, 1], strides = [1, 0]>] : !uop.ptr<{t}, 2>
  %i = uop.define_global 1 : !uop.ptr<{t}, 10>
  %iv = uop.view %i [#uop.view<shape = [2, 5], strides = [5, 1]>] : !uop.ptr<{t}, 10>
  %x = uop.load %iv : !uop.ptr<{t}, 10>
  %s = uop.reduce_axis {op} %x [1] : {t}
  %st = uop.store %ov, %s : !uop.ptr<{t}, 2>
  uop.sink %st
}}
"""
rm = [1.0, nan, 3.0, 2.0, -1.0, nan, nan, nan, nan, nan]
acc = []
for row in (rm[:5], rm[5:]):
    m = -math.inf
    for x in row:
        m = c_max(m, x)
    acc.append(m)
case("reduce_max_nan", red.format(name="reduce_max_nan", t="f32", op="max", opts=""),
     [("f32", None, acc), ("f32", rm, None)])
rh = [2048.0, 1.0, 1.0, 1.0, 1.0, 0.5, 0.25, 0.125, 1000.0, 3.0]
acc = []
for row in (rh[:5], rh[5:]):
    s = 0.0
    for x in row:
        s = f16(s + x)
    acc.append(s)
case("reduce_half_accumulator", red.format(name="reduce_half_accumulator", t="f16", op="add", opts=""),
     [("f16", None, acc), ("f16", rh, None)])

# The same reductions with the reduce axis unrolled (UNROLL:0:0, what the
# heuristic picks): tinygrad's devectorizer folds the lanes without an
# accumulator, x[0] op x[1] op ..., so a row of NaNs is NaN (the first
# operand of MAX is kept when the compare fails), and the half sum is one
# expression: computed in float on the CPU and rounded once at the store,
# rounded at every op on the GPU.
unrolled = []
for row in (rm[:5], rm[5:]):
    m = row[0]
    for x in row[1:]:
        m = c_max(m, x)
    unrolled.append(m)
case("reduce_max_nan_unrolled", red.format(name="reduce_max_nan_unrolled", t="f32", op="max",
                                           opts="UNROLL:0:0"),
     [("f32", None, unrolled), ("f32", rm, None)])
in_float, in_half = [], []
for row in (rh[:5], rh[5:]):
    s, h = row[0], row[0]
    for x in row[1:]:
        s, h = s + x, f16(h + x)
    in_float.append(f16(s))
    in_half.append(h)
assert in_float != in_half, "the unrolled half case must tell the two roundings apart"
case("reduce_half_unrolled", red.format(name="reduce_half_unrolled", t="f16", op="add", opts="UNROLL:0:0"),
     [("f16", None, in_float), ("f16", rh, None)], gpu_buffers=[("f16", None, in_half), ("f16", rh, None)])

# Gated vector accesses (uop-devectorize): the four loads of a row share
# their gate (row < 3), so they are one gated vector load, whose alt value
# every lane gets where the gate is off; the four stores share theirs (row
# != 1), one gated vector store, which leaves row 1 as it was.
gated = """uop.kernel @gated_vectors {
  %c1 = uop.const 1 : si32
  %c3 = uop.const 3 : si32
  %c4 = uop.const 4 : si32
  %alt = uop.const -1.0 : f32
  %g = uop.range %c4 axis 0 global : si32
  %u = uop.range %c4 axis 1 upcast : si32
  %o = uop.define_global 0 : !uop.ptr<f32, 16>
  %i = uop.define_global 1 : !uop.ptr<f32, 16>
  %row = uop.mul %g, %c4 : si32
  %idx = uop.add %row, %u : si32
  %in_row = uop.cmplt %g, %c3 : si32
  %p = uop.index %i[%idx] gate %in_row : i1 : !uop.ptr<f32, 16>, si32
  %x = uop.load %p alt %alt : f32 : !uop.ptr<f32, 16>
  %y = uop.add %x, %x : f32
  %keep = uop.cmpne %g, %c1 : si32
  %q = uop.index %o[%idx] gate %keep : i1 : !uop.ptr<f32, 16>, si32
  %st = uop.store %q, %y : !uop.ptr<f32, 16>
  uop.sink %st
}
"""
gx = [float(v) for v in range(1, 17)]
g_out = [7.0] * 16
g_want = [g_out[k] if k // 4 == 1 else (2 * gx[k] if k // 4 < 3 else -2.0) for k in range(16)]
case("gated_vectors", gated, [("f32", g_out, g_want), ("f32", gx, None)])

# Two reduces over the same range, one inside the other's source (a lowered
# kernel: the AST level cannot broadcast a reduce back). The inner REDUCE
# runs to completion before the outer loop needs it, once per row:
# out[i] = sum_j exp2(x[i,j] - max_j x[i,j]).
two = """uop.kernel @nested_reduces {
  %c3 = uop.const 3 : si32
  %c4 = uop.const 4 : si32
  %r0 = uop.range %c3 axis 0 global : si32
  %r1 = uop.range %c4 axis 1 reduce : si32
  %o = uop.define_global 0 : !uop.ptr<f32, 3>
  %i = uop.define_global 1 : !uop.ptr<f32, 12>
  %row = uop.mul %r0, %c4 : si32
  %idx = uop.add %row, %r1 : si32
  %p = uop.index %i[%idx] : !uop.ptr<f32, 12>, si32
  %x = uop.load %p : !uop.ptr<f32, 12>
  %m = uop.reduce max %x [%r1 : si32] : f32
  %d = uop.sub %x, %m : f32
  %e = uop.exp2 %d : f32
  %s = uop.reduce add %e [%r1 : si32] : f32
  %q = uop.index %o[%r0] : !uop.ptr<f32, 3>, si32
  %st = uop.store %q, %s : !uop.ptr<f32, 3>
  uop.sink %st
}
"""
tx = [1.0, 2.0, 3.0, 4.0, -1.0, 0.0, -2.0, 5.0, 0.5, 0.5, 0.5, 0.5]
rows = [tx[4 * r:4 * r + 4] for r in range(3)]
case("nested_reduces", two, [("f32", None, [sum(2.0 ** (x - max(row)) for x in row) for row in rows]),
                             ("f32", tx, None)], exact=False)
# Two sibling reduces of one axis in a kernel AST (uop-lower gives them one
# range): out[i] = sum_j x[i,j] * max_j x[i,j].
sib = """uop.kernel @sibling_reduces {
  %o = uop.define_global 0 : !uop.ptr<f32, 3>
  %ov = uop.view %o [#uop.view<shape = [3, 1], strides = [1, 0]>] : !uop.ptr<f32, 3>
  %i = uop.define_global 1 : !uop.ptr<f32, 12>
  %iv = uop.view %i [#uop.view<shape = [3, 4], strides = [4, 1]>] : !uop.ptr<f32, 12>
  %x = uop.load %iv : !uop.ptr<f32, 12>
  %m = uop.reduce_axis max %x [1] : f32
  %s = uop.reduce_axis add %x [1] : f32
  %y = uop.mul %s, %m : f32
  %st = uop.store %ov, %y : !uop.ptr<f32, 3>
  uop.sink %st
}
"""
case("sibling_reduces", sib, [("f32", None, [f32(sum(row) * max(row)) for row in rows]),
                              ("f32", tx, None)])

# A reduce over axis 0 stored along axis 1: the reduce loop nests inside the
# store's loop although its axis number is lower.
col = """uop.kernel @column_sums {
  %o = uop.define_global 0 : !uop.ptr<si32, 3>
  %ov = uop.view %o [#uop.view<shape = [1, 3], strides = [0, 1]>] : !uop.ptr<si32, 3>
  %i = uop.define_global 1 : !uop.ptr<si32, 6>
  %iv = uop.view %i [#uop.view<shape = [2, 3], strides = [3, 1]>] : !uop.ptr<si32, 6>
  %x = uop.load %iv : !uop.ptr<si32, 6>
  %s = uop.reduce_axis add %x [0] : si32
  %st = uop.store %ov, %s : !uop.ptr<si32, 3>
  uop.sink %st
}
"""
cx = [1, 2, 3, 10, 20, 30]
case("column_sums", col, [("i32", None, [11, 22, 33]), ("i32", cx, None)])

# --- driver ------------------------------------------------------------------


def pack(dt, vals):
    if dt == "bf16":
        return struct.pack("<%dH" % len(vals), *[bf16_bits(v) for v in vals])
    if dt == "bool":
        return bytes(int(v) & 0xFF for v in vals)
    return struct.pack("<%d%s" % (len(vals), FMT[dt]), *vals)


def main():
    uop_run, work = sys.argv[1], sys.argv[2]
    target = sys.argv[3] if len(sys.argv) > 3 else "cpu"
    os.makedirs(work, exist_ok=True)
    passed = 0
    for name, kernel, cpu_buffers, exact, gpu_buffers in CASES:
        buffers = cpu_buffers if target == "cpu" else gpu_buffers
        d = os.path.join(work, name)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "k.mlir"), "w") as f:
            f.write(kernel)
        specs = []
        for i, (dt, inp, exp) in enumerate(buffers):
            size = len(inp if inp is not None else exp)
            spec = {"index": i, "dtype": dt, "size": size, "input": None, "expected": None}
            for key, vals in (("input", inp), ("expected", exp)):
                if vals is not None:
                    spec[key] = f"b{i}_{key}.bin"
                    with open(os.path.join(d, spec[key]), "wb") as f:
                        f.write(pack(dt, vals))
            specs.append(spec)
        import json
        with open(os.path.join(d, "k.json"), "w") as f:
            json.dump({"nodes": [], "buffers": specs}, f)
        cmd = [uop_run, os.path.join(d, "k.mlir"), "--buffers-from=" + os.path.join(d, "k.json"),
               "--target=" + target]
        if exact:
            cmd.append("--exact")
        r = subprocess.run(cmd, capture_output=True, text=True)
        ok = r.returncode == 0
        passed += ok
        print(f"case {name}: {'PASS' if ok else 'FAIL (exit %d)' % r.returncode}")
        if not ok:
            print(r.stdout + r.stderr)
    print(f"semantics: {passed}/{len(CASES)} passed")
    sys.exit(0 if passed == len(CASES) else 1)


if __name__ == "__main__":
    main()

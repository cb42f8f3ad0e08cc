"""The differential suite's programs: one tinygrad program per line.

Each entry is (name, program) or (name, program, kind). `program` takes no
argument and returns a Tensor (or a tuple of Tensors); capture.py realizes it
on tinygrad's CPU device and captures every kernel tinygrad runs for it.
Names are [a-z0-9_], unique. Adding a case is adding a line.

kind (what run_differential.py compares; the expected values are always
tinygrad's CPU results):
  "exact"   (the default) cpu: bit-exact (uop-run --exact) unless an output is
            f16/bf16, where uop-run's default tolerance applies (our rule
            rounds half only at casts and stores; tinygrad's C rounds also
            where it assigns a half to a variable); sim: default tolerance
            (the GPU path uses approximate transcendentals and fma, as
            tinygrad's PTX does).
  "target"  the value is target-defined (float -> int casts of NaN, inf and
            out-of-range values: x86-64's truncating conversion on tinygrad's
            CPU, cvt's saturation in PTX). cpu: bit-exact against tinygrad's
            CPU; sim: run only (it must compile and run without a fault; its
            values are not compared).
  "unspecified"  C leaves the value undefined and tinygrad's CPU gives what
            clang's code happens to do: an out-of-range float -> 8/16-bit
            int is truncated from the 32-bit conversion in scalar code but
            saturated by a vector pack (packssdw) where clang vectorizes;
            to u32 without AVX-512, scalar and vector code disagree too.
            cpu and sim: run only.
  "reassociated"  tinygrad's symbolic rules reorder a float sum or fold a
            chain of float constants (they flatten and sort ADD chains and
            move a constant factor out of a REDUCE), which uop-mlir does not
            do yet (docs/semantics.md): cpu and sim compare with uop-run's
            default tolerance.
  "tinygrad_bug"  tinygrad's result contradicts its own semantics (the
            comment at the case says how); cpu and sim: run only.

Everything here runs on tinygrad at ../shared/tinygrad (CPU=1, CC=tinygrad_cc.py);
what tinygrad itself cannot run is left out with a comment saying so.
"""
import math

from tinygrad import Tensor, dtypes

NAN, INF = math.nan, math.inf

F16, BF16, F32, F64 = dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64
I8, I16, I32, I64 = dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64
U8, U16, U32, U64 = dtypes.uint8, dtypes.uint16, dtypes.uint32, dtypes.uint64
BOOL = dtypes.bool
FLOATS = [F16, BF16, F32, F64]
SINTS = [I8, I16, I32, I64]
UINTS = [U8, U16, U32, U64]
INTS = SINTS + UINTS
NUMERIC = FLOATS + INTS
ALL = NUMERIC + [BOOL]
# tinygrad's CPU backend fails on bf16 transcendentals at this commit
# (KeyError Ops.EXP2 in its C renderer, ../shared/tinygrad/README.md): bf16 is left
# out of every transcendental below.
TRANS = [F16, F32, F64]

SHORT = {F16: "f16", BF16: "bf16", F32: "f32", F64: "f64", I8: "i8", I16: "i16", I32: "i32",
         I64: "i64", U8: "u8", U16: "u16", U32: "u32", U64: "u64", BOOL: "bool"}


def n(dt):
    return SHORT[dt]


def T(values, dt=F32):
    """A realized tensor of `values` (a list, or a list of lists) with dtype `dt`.

    Realized, so that the op under test loads a buffer of `dt`: tinygrad makes a
    bf16 tensor from a list with a float -> bf16 cast that would otherwise fuse
    into the op's kernel (that cast kernel is captured too, once)."""
    return Tensor(values, dtype=dt).realize()


# ------------------------------------------------------------------ sample values

# Ordinary values, exact in every float dtype (8 of them, so 2x4 reshapes work).
FV = [-3.5, -1.25, -0.5, 0.0, 0.75, 1.0, 2.5, 7.0]
FV2 = [2.0, -0.75, 4.0, 1.5, -2.0, 0.5, 3.0, -1.0]
POS = [0.125, 0.5, 0.75, 1.0, 1.5, 2.0, 3.25, 10.0]           # logs, sqrt
UNIT = [-0.875, -0.5, -0.25, 0.0, 0.125, 0.5, 0.75, 0.9375]   # asin, acos, atanh
GE1 = [1.0, 1.125, 1.5, 2.0, 3.0, 4.5, 10.0, 100.0]           # acosh
WIDE = [-20.0, -8.5, -3.0, -0.0, 0.0, 3.0, 8.5, 20.0]         # exp, sigmoid, tanh

# Special values: NaN, the infinities, signed zero, the smallest denormal and the largest finite.
DENORM = {F16: 2.0 ** -24, BF16: 2.0 ** -133, F32: 2.0 ** -149, F64: 2.0 ** -1074}
FMAX = {F16: 65504.0, BF16: 3.3895313892515355e38, F32: 3.4028234663852886e38, F64: 1.7976931348623157e308}


def special(dt):
    return [NAN, INF, -INF, -0.0, 0.0, DENORM[dt], -DENORM[dt], 3 * DENORM[dt], FMAX[dt], -FMAX[dt], 1.0, -2.5]


INTV = {
    I8: [-128, -127, -1, 0, 1, 5, 100, 127],
    I16: [-32768, -129, -1, 0, 1, 255, 1000, 32767],
    I32: [-2 ** 31, -65536, -1, 0, 1, 1000, 65537, 2 ** 31 - 1],
    I64: [-2 ** 63, -2 ** 32, -1, 0, 1, 2 ** 32 + 1, 2 ** 53 + 1, 2 ** 63 - 1],
    U8: [0, 1, 5, 127, 128, 200, 254, 255],
    U16: [0, 1, 255, 256, 1000, 32768, 65534, 65535],
    U32: [0, 1, 65535, 65536, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 2, 2 ** 32 - 1],
    U64: [0, 1, 2 ** 32, 2 ** 53 + 1, 2 ** 63 - 1, 2 ** 63, 2 ** 64 - 2, 2 ** 64 - 1],
}
# A second operand: small, nonzero (divisors), never -1 (INT_MIN / -1 traps).
INTV2 = {dt: [3, 7, 2, 5, 1, 9, 4, 6] if dt in UINTS else [3, -7, 2, -5, 1, 9, -4, 6] for dt in INTS}
BOOLV = [True, False, True, True, False, False, True, False]
BOOLV2 = [True, True, False, True, False, True, False, False]


def vals(dt):
    """Ordinary sample values of dtype `dt`."""
    return BOOLV if dt == BOOL else INTV[dt] if dt in INTS else FV


def vals2(dt):
    return BOOLV2 if dt == BOOL else INTV2[dt] if dt in INTS else FV2


def irange(dt):
    info = {I8: 8, I16: 16, I32: 32, I64: 64, U8: 8, U16: 16, U32: 32, U64: 64}[dt]
    return (0, 2 ** info - 1) if dt in UINTS else (-2 ** (info - 1), 2 ** (info - 1) - 1)


# Floats exact in f16, bf16, f32 and f64 (where finite), for float -> int casts in range.
CAST_FLOATS = [0.0, -0.0, 0.25, 1.0, 1.5, 2.75, 7.5, 100.5, 127.0, -1.0, -2.5, -100.5, -128.0,
               200.0, 255.0, 1000.0, -1000.0, 32512.0, -32768.0, 65280.0, 2.0 ** 30, -2.0 ** 31,
               2.0 ** 31 + 2.0 ** 24, 2.0 ** 40, -2.0 ** 40, 2.0 ** 63]


def cast_input(src, dst):
    """Values of `src` whose conversion to `dst` is defined in C (no float -> int out of range)."""
    if src == BOOL:
        return BOOLV
    if src in INTS:
        return INTV[src]
    if dst in INTS:  # float -> int: truncated value in dst's range, finite in src
        lo, hi = irange(dst)
        return [v for v in CAST_FLOATS if abs(v) <= FMAX[src] and lo <= math.trunc(v) <= hi]
    # float -> float (overflow is inf, well defined) and float -> bool (NaN is true)
    return special(src) + [0.1, 1e5, -3e38, 1e-30]


# float -> int of NaN, +-inf and out-of-range values: target-defined (kind "target").
CAST_UB = [NAN, INF, -INF, 1e10, -1e10, 300.5, -300.5, -1.5, 70000.0, -2.0 ** 31 - 2.0 ** 24]

# Bitcast partners: same item size, plus some that change the last dimension.
BITCAST_SAME = [[F16, BF16, I16, U16], [F32, I32, U32], [F64, I64, U64], [I8, U8]]
BITCAST_RESIZE = [(F32, U8), (U8, F32), (F16, U32), (U32, F16), (F64, U32), (I64, F32), (U16, U64),
                  (BF16, F32), (F32, F64)]
BITS = {F16: [0x3c00, 0x7c00, 0xfc00, 0x7e00, 0x8000, 0x0001, 0x7bff, 0x1234],
        BF16: [0x3f80, 0x7f80, 0xff80, 0x7fc0, 0x8000, 0x0001, 0x7f7f, 0x1234],
        F32: [0x3f800000, 0x7f800000, 0xff800000, 0x7fc00000, 0x80000000, 0x00000001, 0x7f7fffff, 0x12345678],
        F64: [0x3ff0000000000000, 0x7ff0000000000000, 0xfff0000000000000, 0x7ff8000000000000,
              0x8000000000000000, 0x0000000000000001, 0x7fefffffffffffff, 0x123456789abcdef0]}


def bitcast_input(src):
    """Values of `src` for a bitcast: the interesting bit patterns, built by bitcasting ints."""
    if src in INTS:
        return T(INTV[src], src)
    uint = {2: U16, 4: U32, 8: U64}[src.itemsize]
    return T(BITS[src], uint).bitcast(src)


def rng(seed, fn):
    Tensor.manual_seed(seed)
    return fn()


def train(fn):
    prev, Tensor.training = Tensor.training, True
    try:
        return fn()
    finally:
        Tensor.training = prev


M = [[1.0, -2.0, 3.5, 0.25], [-1.5, 4.0, 0.0, 2.0], [7.0, -0.5, -3.0, 1.0]]       # 3x4
M2 = [[0.5, 1.0, -1.0], [2.0, 0.0, 1.5], [-2.5, 1.0, 0.25], [1.0, -1.0, 3.0]]     # 4x3
IM = [[3, -1, 4, 1], [-5, 9, 2, -6], [5, 3, -5, 8]]
X4 = [[[[float((i * 7 + j * 3 + k) % 11) - 5.0 for k in range(6)] for j in range(6)] for i in range(2)]]  # 1x2x6x6
W4 = [[[[0.5, -1.0, 0.25], [1.0, 0.0, -0.5], [0.75, 2.0, -1.5]] for _ in range(2)] for _ in range(3)]  # 3x2x3x3


# ------------------------------------------------------------------ the table

CASES = [
    # ---- elementwise arithmetic on every dtype
    *[(f"add_{n(d)}", lambda d=d: T(vals(d), d) + T(vals2(d), d)) for d in NUMERIC],
    *[(f"sub_{n(d)}", lambda d=d: T(vals(d), d) - T(vals2(d), d)) for d in NUMERIC],
    *[(f"mul_{n(d)}", lambda d=d: T(vals(d), d) * T(vals2(d), d)) for d in NUMERIC],
    *[(f"maximum_{n(d)}", lambda d=d: T(vals(d), d).maximum(T(vals2(d), d))) for d in NUMERIC],
    *[(f"minimum_{n(d)}", lambda d=d: T(vals(d), d).minimum(T(vals2(d), d))) for d in NUMERIC],
    *[(f"neg_{n(d)}", lambda d=d: -T(vals(d), d)) for d in NUMERIC],
    *[(f"abs_{n(d)}", lambda d=d: T(vals(d), d).abs()) for d in NUMERIC],
    *[(f"sign_{n(d)}", lambda d=d: T(vals(d), d).sign()) for d in FLOATS + [I8, I32]],
    *[(f"square_{n(d)}", lambda d=d: T(vals(d), d).square()) for d in FLOATS + [I32, U8]],
    *[(f"add_const_{n(d)}", lambda d=d: T(vals(d), d) + 3) for d in (F32, I32, U8)],
    *[(f"sub_const_{n(d)}", lambda d=d: T(vals(d), d) - 8) for d in NUMERIC],   # unsigned: ADD(x, CONST -8)
    *[(f"rsub_const_{n(d)}", lambda d=d: 5 - T(vals(d), d)) for d in (F32, U32, I8)],
    *[(f"mul_const_{n(d)}", lambda d=d: T(vals(d), d) * 3) for d in (F16, I64, U16)],
    *[(f"div_{n(d)}", lambda d=d: T(vals(d), d) / T(vals2(d), d)) for d in FLOATS],
    *[(f"truediv_{n(d)}", lambda d=d: T(vals(d), d) / T(vals2(d), d)) for d in (I8, I32, U8, I64)],  # int / int -> float
    *[(f"idiv_{n(d)}", lambda d=d: T(vals(d), d) // T(vals2(d), d)) for d in INTS],
    *[(f"idiv_trunc_{n(d)}", lambda d=d: T(vals(d), d).div(T(vals2(d), d), rounding_mode="trunc")) for d in SINTS],
    *[(f"mod_{n(d)}", lambda d=d: T(vals(d), d) % T(vals2(d), d)) for d in INTS],
    *[(f"idiv_const_{n(d)}", lambda d=d: T(vals(d), d) // 4) for d in (I8, I32, U32, U64)],
    *[(f"mod_const_{n(d)}", lambda d=d: T(vals(d), d) % 3) for d in (I8, I32, U32, U64)],
    *[(f"floordiv_{n(d)}", lambda d=d: T(vals(d), d) // T(vals2(d), d)) for d in (F32, F64)],
    *[(f"relu_{n(d)}", lambda d=d: T(vals(d), d).relu()) for d in FLOATS + [I32]],
    # clip_u8 is a tinygrad bug: its AST has MAX(x, CONST u8 -1), and its
    # simplifier reads that constant as -1 (max(x, -1) -> x), where its C and
    # exec_alu read 255: its CPU returns x unchanged.
    *[(f"clip_{n(d)}", lambda d=d: T(vals(d), d).clip(-1, 2), "tinygrad_bug" if d == U8 else "exact")
      for d in FLOATS + [I8, I32, U8]],
    *[(f"{op}_{n(d)}", lambda d=d, op=op: getattr(T(FV + [-2.5, 2.5, 0.5, -0.5, 1.5, -1.5], d), op)())
      for op in ("floor", "ceil", "round", "trunc") for d in FLOATS],
    *[(f"lerp_{n(d)}", lambda d=d: T(FV, d).lerp(T(FV2, d), 0.25)) for d in FLOATS],
    ("copysign_f32", lambda: T(FV + [NAN, -0.0]).copysign(T(FV2 + [-1.0, 1.0]))),
    ("add_broadcast_f32", lambda: T(M) + T([[1.0], [2.0], [3.0]])),
    ("mul_broadcast_row_i32", lambda: T(IM, I32) * T([1, -2, 3, 4], I32)),
    ("fma_f32", lambda: T(FV) * T(FV2) + T(POS)),
    ("fma_f64", lambda: T(FV, F64) * T(FV2, F64) + T(POS, F64)),
    ("fma_f16", lambda: T(FV, F16) * T(FV2, F16) + T(POS, F16)),
    ("mixed_i32_f32", lambda: T(INTV[I32], I32) + T(FV)),
    ("mixed_u8_i8", lambda: T(INTV[U8], U8) + T(INTV[I8], I8)),
    ("mixed_f16_f32", lambda: T(FV, F16) * T(FV2, F32)),
    ("mixed_bf16_f16", lambda: T(FV, BF16) + T(FV2, F16)),
    ("mixed_bool_i32", lambda: T(BOOLV, BOOL) + T(INTV[I32], I32)),

    # ---- bitwise and logical
    *[(f"and_{n(d)}", lambda d=d: T(vals(d), d) & T(vals2(d), d)) for d in INTS + [BOOL]],
    *[(f"or_{n(d)}", lambda d=d: T(vals(d), d) | T(vals2(d), d)) for d in INTS + [BOOL]],
    *[(f"xor_{n(d)}", lambda d=d: T(vals(d), d) ^ T(vals2(d), d)) for d in INTS + [BOOL]],
    *[(f"not_{n(d)}", lambda d=d: ~T(vals(d), d)) for d in INTS + [BOOL]],     # XOR(x, CONST -1)
    *[(f"shl_{n(d)}", lambda d=d: T(vals(d), d) << 3) for d in UINTS],
    *[(f"shr_{n(d)}", lambda d=d: T(vals(d), d) >> 2) for d in UINTS],
    ("logical_not_bool", lambda: T(BOOLV, BOOL).logical_not()),
    ("logical_not_f32", lambda: T(special(F32), F32).logical_not()),

    # ---- comparisons and where
    *[(f"lt_{n(d)}", lambda d=d: T(vals(d), d) < T(vals2(d), d)) for d in ALL],
    *[(f"eq_{n(d)}", lambda d=d: T(vals(d), d) == T(vals2(d), d)) for d in ALL],
    *[(f"ne_{n(d)}", lambda d=d: T(vals(d), d) != T(vals2(d), d)) for d in ALL],
    *[(f"ge_{n(d)}", lambda d=d: T(vals(d), d) >= T(vals2(d), d)) for d in (F32, BF16, I32, U64)],
    *[(f"gt_const_{n(d)}", lambda d=d: T(vals(d), d) > 1) for d in (F16, F32, I64, U8)],
    *[(f"where_{n(d)}", lambda d=d: T(BOOLV, BOOL).where(T(vals(d), d), T(vals2(d), d))) for d in ALL],
    *[(f"cmp_special_{n(d)}", lambda d=d: (T(special(d), d) < T(special(d)[::-1], d),
                                            T(special(d), d) == T(special(d)[::-1], d),
                                            T(special(d), d) != T(special(d), d))) for d in FLOATS],
    *[(f"max_special_{n(d)}", lambda d=d: T(special(d), d).maximum(T(special(d)[::-1], d))) for d in FLOATS],
    *[(f"isnan_isinf_{n(d)}", lambda d=d: (T(special(d), d).isnan(), T(special(d), d).isinf(),
                                            T(special(d), d).isfinite())) for d in FLOATS],
    ("where_nan_f32", lambda: (T(FV) > 0).where(T(FV), NAN)),
    ("where_inf_const_f32", lambda: (T(FV) > 0).where(INF, -INF)),
    ("masked_fill_f32", lambda: T(M).masked_fill(T(M) < 0, -0.0)),
    ("where_broadcast_i32", lambda: (T(IM, I32) > 0).where(T(IM, I32), T([[10], [20], [30]], I32))),

    # ---- transcendentals and friends (bf16: see TRANS)
    *[(f"exp_{n(d)}", lambda d=d: T(WIDE, d).exp()) for d in TRANS],
    *[(f"exp2_{n(d)}", lambda d=d: T(WIDE, d).exp2()) for d in TRANS],
    *[(f"log_{n(d)}", lambda d=d: T(POS, d).log()) for d in TRANS],
    *[(f"log2_{n(d)}", lambda d=d: T(POS, d).log2()) for d in TRANS],
    *[(f"sin_{n(d)}", lambda d=d: T(FV + [3.0, 100.0, -1000.5, 31.4], d).sin()) for d in TRANS],
    *[(f"cos_{n(d)}", lambda d=d: T(FV + [3.0, 100.0, -1000.5, 31.4], d).cos()) for d in TRANS],
    *[(f"tan_{n(d)}", lambda d=d: T(FV, d).tan()) for d in TRANS],
    *[(f"sqrt_{n(d)}", lambda d=d: T(POS, d).sqrt()) for d in TRANS],
    *[(f"rsqrt_{n(d)}", lambda d=d: T(POS, d).rsqrt()) for d in TRANS],
    *[(f"reciprocal_{n(d)}", lambda d=d: T(FV2, d).reciprocal()) for d in FLOATS],
    *[(f"sigmoid_{n(d)}", lambda d=d: T(WIDE, d).sigmoid()) for d in TRANS],
    *[(f"tanh_{n(d)}", lambda d=d: T(WIDE, d).tanh()) for d in TRANS],
    # gelu: tinygrad folds its chain of float constants, 2 * 0.797... * -1.442...,
    # into one (in double) before rounding it to the dtype
    *[(f"{op}_{n(d)}", lambda d=d, op=op: getattr(T(FV, d), op)(), "reassociated" if op == "gelu" else "exact")
      for op in ("erf", "gelu", "quick_gelu", "silu", "softplus", "mish", "elu", "celu", "selu",
                 "hardswish", "hardsigmoid", "hardtanh", "relu6", "softsign", "logsigmoid", "atan",
                 "sinh", "cosh", "asinh", "leaky_relu") for d in (F32,)],
    *[(f"{op}_f16", lambda op=op: getattr(T(FV, F16), op)()) for op in ("erf", "gelu", "silu", "softplus", "elu")],
    *[(f"{op}_{n(d)}", lambda d=d, op=op: getattr(T(UNIT, d), op)())
      for op in ("asin", "acos", "atanh") for d in (F32, F64)],
    *[(f"acosh_{n(d)}", lambda d=d: T(GE1, d).acosh()) for d in (F32, F64)],
    *[(f"{op}_f64", lambda op=op: getattr(T(FV, F64), op)(), "reassociated" if op == "gelu" else "exact")
      for op in ("erf", "gelu", "silu", "softplus")],
    # special values through every transcendental
    # log of a negative denormal is the target's: tinygrad's CPU decomposition
    # gives -inf (its -0.0 test, 1/x == -inf, overflows there), PTX's
    # lg2.approx NaN (kind "target").
    *[(f"{op}_special_{n(d)}", lambda d=d, op=op: getattr(T(special(d), d), op)(),
       "target" if op in ("log", "log2") else "exact")
      for op in ("exp", "exp2", "log", "log2", "sin", "cos", "sqrt", "rsqrt", "reciprocal", "sigmoid",
                 "tanh") for d in TRANS],
    *[(f"{op}_special_{n(d)}", lambda d=d, op=op: getattr(T(special(d), d), op)())
      for op in ("abs", "neg", "relu", "sign", "square") for d in FLOATS],
    # tinygrad's trunc is x.cast(int32).cast(x.dtype) (floor, ceil, round build on it): on NaN,
    # inf and |x| >= 2^31 that is a float -> int cast out of range, so target-defined
    *[(f"{op}_special_{n(d)}", lambda d=d, op=op: getattr(T(special(d), d), op)(), "target")
      for op in ("floor", "ceil", "round", "trunc") for d in FLOATS],
    *[(f"exp_wide_{n(d)}", lambda d=d: T([-800.0, -100.0, -87.5, -16.0, 11.0, 88.5, 100.0, 710.0], d).exp()) for d in TRANS],
    ("log_denormals_f32", lambda: T([2.0 ** -149, 2.0 ** -140, 2.0 ** -127, 2.0 ** -126, 1e-38, 1.5e-39]).log2()),
    ("sin_large_f32", lambda: T([1e4, 1e6, 3e7, 1e10, 1e20, -1e30, 8388608.5, 65536.0]).sin()),
    ("sin_large_f64", lambda: T([1e4, 1e6, 3e7, 1e10, 1e20, -1e30, 8388608.5, 65536.0], F64).sin()),
    ("sigmoid_extreme_f32", lambda: T([-1e4, -100.0, -89.0, 89.0, 100.0, 1e4, -INF, INF]).sigmoid()),
    ("div_special_f32", lambda: T([1.0, -1.0, 0.0, -0.0, INF, NAN, 2.0 ** -149, 1e38]) / T([0.0, 0.0, 0.0, 0.0, INF, 1.0, 2.0, 0.1])),
    ("div_special_f64", lambda: T([1.0, -1.0, 0.0, -0.0, INF, NAN, 5e-324, 1e308], F64) / T([0.0, -0.0, 0.0, 0.0, INF, 1.0, 2.0, 0.1], F64)),
    ("mul_inf_const_f32", lambda: T(FV) * INF),
    ("add_nan_const_f32", lambda: T(FV) + NAN),
    # x * -0.0 is folded to a constant 0 by tinygrad (no kernel): multiply by a tensor instead
    ("mul_neg_zero_f32", lambda: T(FV) * T([-0.0] * 8)),
    ("denormal_arith_f32", lambda: T([2.0 ** -149] * 4 + [2.0 ** -126] * 4) * T([0.5, 1.0, 3.0, -1.0, 0.5, 2 ** -10, 1.5, -0.75])),
    ("denormal_arith_f16", lambda: T([2.0 ** -24] * 4 + [2.0 ** -14] * 4, F16) * T([0.5, 1.0, 3.0, -1.0, 0.5, 2 ** -5, 1.5, -0.75], F16)),

    # ---- pow
    ("pow_f32", lambda: T(POS) ** T(FV2)),
    ("pow_f64", lambda: T(POS, F64) ** T(FV2, F64)),
    ("pow_f16", lambda: T(POS, F16) ** T(FV2, F16)),
    ("pow_broadcast_f32", lambda: T([[2.0], [-2.0], [0.5], [0.0]]) ** T([[0.0, 1.0, 2.0, 3.0, -1.0, 0.5]])),
    ("pow_negative_base_f32", lambda: T([-2.0, -2.0, -2.0, -0.5, -3.0, -1.0, -8.0, -2.0]) ** T([2.0, 3.0, 0.5, -2.0, 1.0, 1e9, 1.0 / 3, -3.0])),
    ("pow_zero_zero_f32", lambda: T([0.0, 0.0, -0.0, 0.0, NAN, 1.0, INF, 0.0]) ** T([0.0, -0.0, 0.0, -1.0, 0.0, NAN, 0.0, 2.0])),
    # xpow tests a negative base's exponent for an integer with a float ->
    # int32 cast, out of range for +-inf: target-defined (x86's INT_MIN and
    # clang's folds on the CPU, cvt's saturation in PTX)
    ("pow_special_f32", lambda: T(special(F32)) ** T([2.0, 0.5, 3.0, -1.0, 2.0, 0.5, 2.0, -2.0, 0.5, 2.0, INF, -INF]),
     "target"),
    ("pow_const_exp_f32", lambda: T(FV) ** 3),
    ("pow_half_f32", lambda: T(POS) ** 0.5),
    ("pow_const_base_f32", lambda: 2.0 ** T(FV)),
    ("pow_neg_const_base_f32", lambda: (-2.0) ** T([0.0, 1.0, 2.0, 3.0, -1.0, 0.5, -2.0, 4.0])),
    ("pow_int_float_i32", lambda: T([1, 2, 3, -2, 0, 5, -1, 4], I32) ** T([2.0, 0.5, 3.0, 2.0, 0.0, 1.0, 3.0, -1.0])),
    # int ** int: tinygrad refuses ("base needs to be float")

    # ---- reductions
    *[(f"sum_{n(d)}", lambda d=d: T([vals(d)] * 3, d).sum(axis=1)) for d in ALL],
    *[(f"sum_all_{n(d)}", lambda d=d: T([vals(d)] * 3, d).sum()) for d in (F32, F16, I32, U8, BOOL, F64, BF16)],
    *[(f"max_{n(d)}", lambda d=d: T([vals(d), vals2(d)], d).max(axis=0)) for d in ALL],
    *[(f"min_{n(d)}", lambda d=d: T([vals(d), vals2(d)], d).min(axis=0)) for d in (F16, F32, F64, I8, U32, BOOL)],
    *[(f"prod_{n(d)}", lambda d=d: T([vals2(d), vals2(d)], d).prod(axis=1)) for d in (F16, F32, F64, I32, I64, U8)],
    *[(f"mean_{n(d)}", lambda d=d: T([vals(d)] * 3, d).mean(axis=1)) for d in FLOATS + [I32, U8]],
    *[(f"argmax_{n(d)}", lambda d=d: T([vals(d), vals2(d)], d).argmax(axis=1)) for d in (F32, F16, I32, U8, BOOL, I64)],
    *[(f"argmin_{n(d)}", lambda d=d: T([vals(d), vals2(d)], d).argmin(axis=1)) for d in (F32, I8)],
    ("sum_axis0_f32", lambda: T(M).sum(axis=0)),
    ("sum_keepdim_f32", lambda: T(M).sum(axis=1, keepdim=True)),
    ("sum_3d_axes_f32", lambda: T(X4).sum(axis=(1, 3))),
    ("sum_large_f32", lambda: Tensor.arange(4096, dtype=F32).reshape(64, 64).sin().sum(axis=1)),
    # tinygrad moves the constant factor out of the sum and reorders the
    # unrolled adds: acc = x3 + x2 + x1 + x0 + acc + -4
    ("sum_large_all_f32", lambda: (Tensor.arange(10000, dtype=F32) * 0.001).sum(), "reassociated"),
    ("max_all_f32", lambda: T(M).max()),
    ("max_nan_f32", lambda: T([[1.0, NAN, 3.0], [-INF, -1.0, -0.0], [NAN, NAN, NAN]]).max(axis=1)),
    ("min_special_f32", lambda: T([special(F32)[:6], special(F32)[6:]]).min(axis=1)),
    ("sum_special_f32", lambda: T([special(F32)[:6], special(F32)[6:]]).sum(axis=1)),
    ("prod_special_f32", lambda: T([special(F32)[:6], special(F32)[6:]]).prod(axis=1)),
    ("argmax_all_f32", lambda: T(M).argmax()),
    ("argmax_nan_f32", lambda: T([[1.0, NAN, 3.0], [2.0, 2.0, 1.0]]).argmax(axis=1)),
    ("any_bool", lambda: T([BOOLV, [False] * 8], BOOL).any(axis=1)),
    ("all_bool", lambda: T([BOOLV, [True] * 8], BOOL).all(axis=1)),
    ("any_f32", lambda: T(M).any(axis=0)),
    ("std_f32", lambda: T(M).std(axis=1)),
    ("var_f64", lambda: T(M, F64).var(axis=0)),
    ("cumsum_f32", lambda: T(M).cumsum(axis=1)),
    ("cumsum_i32", lambda: T(IM, I32).cumsum(axis=0)),
    ("cumprod_f32", lambda: T(M).cumprod(axis=1)),
    ("cummax_f32", lambda: T(M).cummax(axis=1)),
    ("softmax_f32", lambda: T(M).softmax(axis=1)),
    ("softmax_f16", lambda: T(M, F16).softmax(axis=1)),
    ("log_softmax_f32", lambda: T(M).log_softmax(axis=0)),
    ("logsumexp_f32", lambda: T(M).logsumexp(axis=1)),
    ("layernorm_f32", lambda: T(M).layernorm()),
    ("sum_f16_acc", lambda: T([[60000.0, 60000.0, -60000.0, 1.0]], F16).sum(axis=1)),
    ("sum_u8_wrap", lambda: T([[255, 255, 2, 7]], U8).sum(axis=1, dtype=U8)),
    ("sum_i8_acc", lambda: T([INTV[I8]], I8).sum(axis=1)),

    # ---- movement (each made a kernel by a contiguous copy or an op)
    ("reshape_add_f32", lambda: T(M).reshape(4, 3) + 1),
    ("permute_f32", lambda: T(M).permute(1, 0).contiguous()),
    ("permute3d_i16", lambda: T([[[i * 12 + j * 4 + k for k in range(4)] for j in range(3)] for i in range(2)], I16).permute(2, 0, 1).contiguous()),
    ("transpose_f16", lambda: T(M, F16).transpose().contiguous()),
    ("expand_f32", lambda: T([[1.0], [2.0], [3.0]]).expand(3, 5).contiguous()),
    ("expand_u8", lambda: T([[1, 2, 3]], U8).expand(4, 3).contiguous()),
    ("pad_f32", lambda: T(M).pad(((1, 2), (0, 1)))),
    ("pad_value_f32", lambda: T(M).pad(((1, 0), (2, 1)), value=-INF)),
    ("pad_i32", lambda: T(IM, I32).pad(((0, 1), (1, 1)), value=7)),
    ("pad_bool", lambda: T([BOOLV], BOOL).pad(((1, 1), (0, 0)))),
    ("pad_negative_f32", lambda: T(M).pad(((0, 0), (-1, 2)))),
    ("shrink_f32", lambda: T(M).shrink(((1, 3), (1, 3))).contiguous()),
    ("flip_f32", lambda: T(M).flip(1).contiguous()),
    ("flip_both_i64", lambda: T(IM, I64).flip((0, 1)).contiguous()),
    ("cat_f32", lambda: T(M).cat(T(M) * 2, dim=0)),
    ("cat_dim1_i32", lambda: T(IM, I32).cat(T(IM, I32), T(IM, I32) + 1, dim=1)),
    ("stack_f16", lambda: Tensor.stack(T(FV, F16), T(FV2, F16), dim=1)),
    ("repeat_f32", lambda: T([[1.0, 2.0], [3.0, 4.0]]).repeat(2, 3)),
    ("repeat_interleave_i8", lambda: T([1, -2, 3], I8).repeat_interleave(3)),
    ("roll_f32", lambda: T(M).roll(1, dims=1)),
    ("tril_f32", lambda: T(M).tril()),
    ("triu_i32", lambda: T(IM, I32).triu(1)),
    ("gather_f32", lambda: T(M).gather(1, T([[0, 3], [1, 1], [2, 0]], I32))),
    ("one_hot_i32", lambda: T([0, 3, 1, 2], I32).one_hot(4)),
    ("arange_f32", lambda: Tensor.arange(0, 10, 0.5)),
    ("arange_i64", lambda: Tensor.arange(-5, 50, 3, dtype=I64)),
    ("eye_f32", lambda: Tensor.eye(5)),
    ("full_f16", lambda: Tensor.full((3, 5), -0.0, dtype=F16).contiguous()),
    ("linspace_f32", lambda: Tensor.linspace(-1, 1, 9)),
    ("flip_pad_shrink_chain", lambda: T(M).flip(0).pad(((1, 1), (1, 1))).shrink(((0, 4), (1, 5))) * 2),
    ("setitem_f32", lambda: _setitem()),
    ("interpolate_f32", lambda: T(X4).interpolate((3, 9), mode="linear")),
    ("interpolate_nearest_f32", lambda: T(X4).interpolate((4, 3), mode="nearest")),
    # trilinear (tinygrad's test_ops): a*b+c fused where tinygrad's C is contracted by clang
    ("interpolate_trilinear_f32", lambda: (Tensor.arange(2 * 3 * 4 * 5, dtype=F32).reshape(1, 2, 3, 4, 5) * 0.37)
     .interpolate((5, 6, 7), mode="linear")),
    ("interpolate_trilinear_corners_f32", lambda: (Tensor.arange(2 * 3 * 4 * 5, dtype=F32).reshape(1, 2, 3, 4, 5) * 0.37)
     .interpolate((5, 6, 7), mode="linear", align_corners=True)),

    # ---- matmul, convolution, pooling
    ("matmul_f32", lambda: T(M) @ T(M2)),
    ("matmul_f16", lambda: T(M, F16) @ T(M2, F16)),
    ("matmul_f16_acc_f32", lambda: T(M, F16).matmul(T(M2, F16), dtype=F32)),
    ("matmul_bf16", lambda: T(M, BF16) @ T(M2, BF16)),
    ("matmul_f64", lambda: T(M, F64) @ T(M2, F64)),
    ("matmul_i32", lambda: T(IM, I32) @ T([[1, 0, 2], [3, -1, 1], [0, 2, -2], [1, 1, 1]], I32)),
    ("matmul_i8", lambda: T(IM, I8) @ T([[1, 0, 2], [3, -1, 1], [0, 2, -2], [1, 1, 1]], I8)),
    ("dot_f32", lambda: T(FV).dot(T(FV2))),
    # tinygrad's arange becomes a reordered float sum of int casts
    ("matmul_large_f32", lambda: Tensor.arange(32 * 48, dtype=F32).reshape(32, 48).cos() @ Tensor.arange(48 * 16, dtype=F32).reshape(48, 16).sin(),
     "reassociated"),
    ("conv2d_f32", lambda: T(X4).conv2d(T(W4))),
    ("conv2d_pad_stride_f32", lambda: T(X4).conv2d(T(W4), padding=1, stride=2)),
    ("conv2d_f16", lambda: T(X4, F16).conv2d(T(W4, F16))),
    ("max_pool2d_f32", lambda: T(X4).max_pool2d()),
    ("avg_pool2d_f32", lambda: T(X4).avg_pool2d(kernel_size=(3, 3), stride=2)),
    ("linear_relu_f32", lambda: (T(M) @ T(M2) + T([0.5, -1.0, 0.25])).relu()),
    ("attention_f32", lambda: Tensor.scaled_dot_product_attention(T([M]), T([M]), T([M]))),
    ("cross_entropy_f32", lambda: T(M).cross_entropy(T([1, 0, 3], I32))),

    # ---- random numbers (THREEFRY), each from its own seed
    ("rand_f32", lambda: rng(42, lambda: Tensor.rand(16))),
    ("rand_2d_f32", lambda: rng(7, lambda: Tensor.rand(5, 7))),
    ("rand_f16", lambda: rng(42, lambda: Tensor.rand(8, dtype=F16))),
    ("rand_f64", lambda: rng(3, lambda: Tensor.rand(6, dtype=F64))),
    ("rand_bf16", lambda: rng(5, lambda: Tensor.rand(6, dtype=BF16))),
    ("rand_twice_f32", lambda: rng(9, lambda: (Tensor.rand(5), Tensor.rand(5)))),
    ("randn_f32", lambda: rng(11, lambda: Tensor.randn(12))),
    ("randint_i32", lambda: rng(13, lambda: Tensor.randint(10, low=-5, high=100))),
    ("uniform_f32", lambda: rng(17, lambda: Tensor.uniform(3, 4, low=-2.0, high=3.0))),
    ("dropout_f32", lambda: rng(19, lambda: train(lambda: T(M).dropout(0.5)))),
    ("rand_like_f32", lambda: rng(23, lambda: Tensor.rand_like(T(M)))),
]

# ---- casts between every pair of dtypes (values defined in C; see cast_input)
# tinygrad itself cannot run bf16 -> f16 (clang-22 crashes compiling its C) nor f64 -> bf16
# (its CPU program needs __truncdfbf2, which it does not link).
CANNOT_CAST = {(BF16, F16), (F64, BF16)}
CASES += [(f"cast_{n(s)}_{n(d)}", lambda s=s, d=d: T(cast_input(s, d), s).cast(d))
          for s in ALL for d in ALL if s != d and (s, d) not in CANNOT_CAST]
# float -> int of NaN, inf and out-of-range values: target-defined results.
# To u32 they are unspecified, as to 8/16 bits: x86 without AVX-512 has no
# unsigned conversion, and clang's scalar code (a 64-bit cvttss2si,
# truncated: NaN -> 0) and vector code (cvttps2dq: NaN -> 2^31) disagree.
CASES += [(f"cast_ub_{n(s)}_{n(d)}", lambda s=s, d=d: T(CAST_UB, s).cast(d),
           "target" if d.itemsize >= 4 and d != U32 else "unspecified")
          for s in FLOATS for d in INTS]
# float -> float narrowing of specials, denormals and overflow
CASES += [(f"cast_special_{n(s)}_{n(d)}", lambda s=s, d=d: T(special(s) + [1e-7, 65519.0, 65520.0, 1e39, 2.0 ** -149], s).cast(d))
          for s in (F32, F64) for d in (F16, BF16, F32) if s != d and (s, d) not in CANNOT_CAST]
# a cast after arithmetic, so the conversion is not folded into a load. A u8
# sum is a tinygrad bug: its C adds two unsigned chars in int (C's
# promotion) and casts that, 200 + 58 = 258, where its own semantics
# (exec_alu, dtypes truncate) wrap to 2.
CASES += [(f"cast_after_add_{n(s)}_{n(d)}", lambda s=s, d=d: (T(vals(s), s) + T(vals2(s), s)).cast(d),
           "tinygrad_bug" if s == U8 else "exact")
          for s in (F16, BF16, I32, U8) for d in (F32, F64, I64, F16) if s != d and not (s in FLOATS and d in INTS) and (s, d) not in CANNOT_CAST]

# ---- bitcasts: every pair of the same size, then some that resize the last dimension
CASES += [(f"bitcast_{n(s)}_{n(d)}", lambda s=s, d=d: bitcast_input(s).bitcast(d))
          for group in BITCAST_SAME for s in group for d in group if s != d]
CASES += [(f"bitcast_{n(s)}_{n(d)}", lambda s=s, d=d: bitcast_input(s).bitcast(d)) for s, d in BITCAST_RESIZE]
CASES += [("bitcast_after_exp2_f32", lambda: T(WIDE).exp2().bitcast(U32)),
          # the bits of an approximate sin are the target's (sin.approx on the GPU)
          ("bitcast_after_sin_f32", lambda: T(FV + [3.0, 100.0]).sin().bitcast(I32), "target")]


def _setitem():
    t = T(M).contiguous()
    t[1:, 2:] = T([[9.0, 8.0], [7.0, 6.0]])
    return t


KINDS = ("exact", "target", "unspecified", "reassociated", "tinygrad_bug")


class Case:
    def __init__(self, name, program, kind="exact"):
        if kind not in KINDS:
            raise ValueError(f"case {name}: unknown kind {kind!r}")
        self.name, self.program, self.kind = name, program, kind


def cases():
    return [Case(*c) for c in CASES]

#!/usr/bin/env python3
"""Generate a one-warpgroup wgmma.mma_async kernel whose answer depends on the PTX ISA's layouts.

usage: gen_wgmma.py A B N DTYPE OUTDIR [--zero-acc] [--wrong=VARIANT] [--hazard=HAZARD] [--seed=N]

A and B are MAJOR/SWIZZLE: the major-ness of the operand's tile in shared memory (k, or mn: M for
A, N for B) and its swizzle in bytes (0, 32, 64, 128), e.g. k/128 or mn/0. N is the instruction's
n (8 .. 256, a multiple of 8), DTYPE the inputs' type (f16 or bf16); the accumulator is f32. The
kernel, in the uop dialect at the lowered level (uop-run lowers it through convert-uop-to-gpu),
is one warpgroup (lidx0: 128 threads) that
  1. copies A's and B's shared-memory images (made here) from global buffers into two
     define_locals, 16 bytes per uop.async_copy, piece p by thread p % 128; commits, waits for
     every group, fence.proxy.async (the copies are the generic proxy's writes, wgmma reads
     through the async proxy), barrier;
  2. loads its accumulator fragment of C (row-major in global memory) at the (row, col) the PTX
     ISA gives, uop.vectorize, wgmma_fence, one uop.wgmma with each tile's matrix descriptor
     (start, LBO, SBO, swizzle), wgmma_commit, wgmma_wait 0;
  3. stores its N/2 result registers to out[lane * N/2 + i].
OUTDIR gets wgmma.mlir (kernel wgmma_k0), wgmma.json (for `uop-run wgmma.mlir
--buffers-from=wgmma.json`) and raw little-endian buffers: 0 out (f32, 64 N, expected want.bin),
1 A's image, 2 B's image (DTYPE; bf16 as its top 16 bits), 3 C (f32, 64 x N row-major).

A (64 x 16), B (16 x N) and C (64 x N) are seeded random integers in [-4, 4], so
D = A @ B + C (A @ B with --zero-acc, the instruction's scale-d = 0: C is loaded but ignored)
is exact in f32; it is computed here. Where each element lives comes from the PTX ISA,
9.7.15.5.1 "Register Fragments and Shared Memory Matrix Layouts"
(https://docs.nvidia.com/cuda/parallel-thread-execution/#asynchronous-warpgroup-level-matrix-register-fragment
and #asynchronous-warpgroup-level-matrix-shared-memory-layout), independently of the simulator:
  - the accumulator (Figure "WGMMA .m64nNk16 register fragment layout for accumulator matrix D"):
    thread lane of the warpgroup, w = lane / 32, groupID g = (lane % 32) / 4, threadID_in_group
    t = lane % 4, holds in register i < N/2 the element at row 16 w + g + 8 ((i >> 1) & 1),
    column 2 t + (i & 1) + 8 (i >> 2);
  - the shared-memory tiles (9.7.15.5.1.2.1.3 "Canonical Layouts", the CuTe layouts which CUTLASS's
    cute/atom/mma_traits_sm90_gmma.hpp, make_gmma_desc, also gives): with s = 2 bytes per
    element, T = 16 / s = 8 elements per 16 bytes and W the swizzle's bytes, element (mn, k)
    (mn the row of A or the column of B) is at the byte
      K-major,  no swizzle: start + (mn % 8) 16 + (mn / 8) SBO + (k % T) s + (k / T) LBO
      K-major,  swizzle W:  swz_W(start + (mn % 8) W + (mn / 8) SBO + k s)      (LBO unused)
      MN-major, no swizzle: start + (mn % T) s + (mn / T) SBO + (k % 8) 16 + (k / 8) LBO
      MN-major, swizzle W:  swz_W(start + (mn % (W/s)) s + (mn / (W/s)) LBO + (k % 8) W + (k / 8) SBO)
    where swz_W XORs address bits 7 .. 6 + log2(W/16) into bits 4 .. 3 + log2(W/16) (W = 128:
    a ^ (((a >> 7) & 7) << 4)), applied to the shared address: a tile starts 1024-byte aligned.
    LBO and SBO (9.7.15.5.1.2.1.1/2, the matrix descriptor's fields, 9.7.15.5.1.2.2) are chosen
    here for compact images: K-major swizzled SBO = 8 W (LBO 16, unused); MN-major swizzled
    SBO = 8 W (the next 8 k), LBO = 16 W (the next W/s columns, after both 8-k groups);
    no swizzle LBO = 128 (the next 8 k), SBO = 256 (the next 8 mn). The bytes of an image that
    hold no element are the garbage value 99, so a read at a wrong address changes the answer;
    each image is large enough for every wrong variant's reads, a whole number of 1024 bytes.

--wrong=VARIANT gives the kernel a plausible but wrong descriptor, or the expectation a wrong
layout; the expected file stays what the ISA gives for the right kernel. The script computes what
a simulator following the ISA writes for the kernel and exits 1 unless it differs from the
expected output beyond uop-run's f32 tolerance. A variant not meaningful for the case exits 2.
  swap-lbo-sbo   LBO and SBO swapped in the descriptor of each operand that uses both (no
                 swizzle; MN-major swizzled with more than W/s elements along MN)
  wrong-swizzle  B's descriptor says another swizzle than its image has (128 -> 64, 64 -> 32,
                 32 -> none, none -> 32)
  wrong-major    A's descriptor says the other major-ness than its image has (A is K-major in
                 every case check_wgmma.py runs, so the B-side cases alone would not show that
                 A's is read; the M-major reading of a K-major image stays inside it)
  acc-rows       the expectation places register i of a thread at row 16 w + 2 g + ((i >> 1) & 1)

--hazard=HAZARD makes the kernel break a rule the simulator reports, with a located error:
  no-fence        no wgmma_fence before the wgmma (its accumulator registers were just written)
  early-use       the result stored from the wgmma itself, after the commit, with no wait
  overwrite       after the commit, before the wait, thread 0 stores into A's tile (the element
                  A[0][0] the wgmma reads)
  no-proxy-fence  no fence.proxy.async between the copies and the wgmma
  misaligned      A's (swizzled) tile starts 128 bytes into its buffer, not at a multiple of
                  the swizzle's repeating pattern (its image is built there)
"""
import argparse
import json
import os
import random
import struct
import sys

from kernel_text import Body

M, K = 64, 16
ELEM = 2  # bytes of an f16/bf16
GARBAGE = 99.0
TOL = 1e-4  # uop-run's f32 atol = rtol (docs/uop-run.md)
SWIZZLES = (0, 32, 64, 128)
WRONG = ("swap-lbo-sbo", "wrong-swizzle", "wrong-major", "acc-rows")
HAZARDS = ("no-fence", "early-use", "overwrite", "no-proxy-fence", "misaligned")
WRONG_SWIZZLE = {128: 64, 64: 32, 32: 0, 0: 32}


class Tile:
    """A tile's matrix descriptor (bytes) and the major-ness the instruction is told."""

    def __init__(self, major, swizzle, lbo, sbo, start=0):
        self.major, self.swizzle, self.lbo, self.sbo, self.start = major, swizzle, lbo, sbo, start

    def but(self, **kw):
        t = Tile(self.major, self.swizzle, self.lbo, self.sbo, self.start)
        for k, v in kw.items():
            setattr(t, k, v)
        return t

    def attr(self):
        return f"#uop.wgmma_tile<{self.major}, swizzle = {self.swizzle}, lbo = {self.lbo}, sbo = {self.sbo}>"


def swz(a, w):
    """The PTX ISA's W-byte swizzle of a shared address: bits 7.. XORed into bits 4.. (16-byte chunks)."""
    bits = {0: 0, 32: 1, 64: 2, 128: 3}[w]
    return a ^ (((a >> 7) & ((1 << bits) - 1)) << 4)


def address(tile, mn, k):
    """The byte (from the shared window's 1024-aligned base) of element (mn, k): 9.7.15.5.1.2.1.3."""
    s, T, W = ELEM, 16 // ELEM, tile.swizzle
    if tile.major == "k":
        if W == 0:
            return tile.start + (mn % 8) * 16 + (mn // 8) * tile.sbo + (k % T) * s + (k // T) * tile.lbo
        return swz(tile.start + (mn % 8) * W + (mn // 8) * tile.sbo + k * s, W)
    if W == 0:
        return tile.start + (mn % T) * s + (mn // T) * tile.sbo + (k % 8) * 16 + (k // 8) * tile.lbo
    per = W // s  # elements along MN in one swizzle row
    return swz(tile.start + (mn % per) * s + (mn // per) * tile.lbo + (k % 8) * W + (k // 8) * tile.sbo, W)


def compact(major, swizzle):
    """The descriptor of a compact image of a tile (see the docstring)."""
    if swizzle == 0:
        return Tile(major, 0, 128, 256)
    if major == "k":
        return Tile(major, swizzle, 16, 8 * swizzle)
    return Tile(major, swizzle, 16 * swizzle, 8 * swizzle)


def uses_both(tile, extent):
    """Whether the tile's addresses depend on both LBO and SBO (extent: its MN size)."""
    return tile.swizzle == 0 or (tile.major == "mn" and extent > tile.swizzle // ELEM)


def frag(lane, i):
    """(row, col) of accumulator register i of `lane` (ISA Figure "... accumulator matrix D")."""
    w, g, t = lane // 32, (lane % 32) >> 2, lane & 3
    return 16 * w + g + 8 * ((i >> 1) & 1), 2 * t + (i & 1) + 8 * (i >> 2)


def frag_acc_rows(lane, i):  # the wrong variant acc-rows
    w, g, t = lane // 32, (lane % 32) >> 2, lane & 3
    return 16 * w + 2 * g + ((i >> 1) & 1), 2 * t + (i & 1) + 8 * (i >> 2)


def kernel_tiles(ta, tb, n, wrong):
    """The descriptors the kernel gives for images laid out by ta, tb, under --wrong."""
    a, b = ta, tb
    if wrong == "swap-lbo-sbo":
        a = a.but(lbo=a.sbo, sbo=a.lbo) if uses_both(a, M) else a
        b = b.but(lbo=b.sbo, sbo=b.lbo) if uses_both(b, n) else b
    elif wrong == "wrong-swizzle":
        b = b.but(swizzle=WRONG_SWIZZLE[b.swizzle])
    elif wrong == "wrong-major":
        a = a.but(major="mn" if a.major == "k" else "k")
    return a, b


def meaningful(ta, tb, n, wrong):
    return wrong != "swap-lbo-sbo" or uses_both(ta, M) or uses_both(tb, n)


def image(tile, rows, cols, value, nbytes):
    """The operand's shared-memory image: value(mn, k) at address(mn, k), the rest garbage."""
    img, placed = [GARBAGE] * (nbytes // ELEM), {}
    for mn in range(rows):
        for k in range(cols):
            a = address(tile, mn, k)
            assert a % ELEM == 0 and a + ELEM <= nbytes, f"element ({mn}, {k}) at byte {a} outside the image"
            assert a not in placed, f"elements {placed[a]} and ({mn}, {k}) share byte {a}: not a layout"
            placed[a] = (mn, k)
            img[a // ELEM] = value(mn, k)
    return img


def read(img, tile, mn, k):
    a = address(tile, mn, k)
    if a % ELEM or a < 0 or a + ELEM > len(img) * ELEM:
        raise SystemExit(f"error: a read of element ({mn}, {k}) at byte {a} is outside the image")
    return img[a // ELEM]


def simulate(n, a_img, b_img, ka, kb, C, zero_acc):
    """What a simulator following the ISA writes to out for a kernel with descriptors ka, kb."""
    A = [[read(a_img, ka, m, k) for k in range(K)] for m in range(M)]
    B = [[read(b_img, kb, c, k) for c in range(n)] for k in range(K)]
    out = []
    for lane in range(128):
        for i in range(n // 2):
            r, c = frag(lane, i)
            acc = 0.0 if zero_acc else C[r * n + c]  # the kernel loads C at the ISA's positions
            out.append(sum(A[r][k] * B[k][c] for k in range(K)) + acc)
    return out


def extent(tiles, rows, cols):
    """Bytes an image needs for every read under these descriptors, a whole number of 1024."""
    top = max(address(t, mn, k) for t in tiles for mn in range(rows) for k in range(cols)) + ELEM
    return -(-top // 1024) * 1024


def emit(args, n, dt, ta, tb, ka, kb, size_a, size_b, hazard):
    half = n // 2
    body = Body()
    lines, new, const = body.lines, body.new, body.const

    optr = cptr = f"!uop.ptr<f32, {128 * half}>"
    gptr = {"a": f"!uop.ptr<{dt}, {size_a // ELEM}>", "b": f"!uop.ptr<{dt}, {size_b // ELEM}>"}
    sptr = {"a": f"!uop.ptr<{dt}, {size_a // ELEM}, local>", "b": f"!uop.ptr<{dt}, {size_b // ELEM}, local>"}
    vt = f"vector<{half}xf32>"
    lines += [f"%out = uop.define_global 0 : {optr}", f"%ga = uop.define_global 1 : {gptr['a']}",
              f"%gb = uop.define_global 2 : {gptr['b']}", f"%gc = uop.define_global 3 : {cptr}",
              f'%sa = uop.define_local "wgmma_a" : {sptr["a"]}',
              f'%sb = uop.define_local "wgmma_b" : {sptr["b"]}', '%lane = uop.special "lidx0" 128 : si32']
    # 1. Each image, piece p (16 bytes, 8 elements) by thread p % 128.
    prev = None
    for m, size in (("a", size_a), ("b", size_b)):
        pieces = size // 16
        for first in range(0, pieces, 128):
            p = new(f"uop.add %lane, {const(first)} : si32") if first else "%lane"
            at = new(f"uop.mul {p}, {const(8)} : si32")
            gate = (f" gate {new(f'uop.cmplt {p}, {const(pieces)} : si32')} : i1"
                    if first + 128 > pieces else "")
            s = new(f"uop.index %g{m}[{at}]{gate} : {gptr[m]}, si32")
            d = new(f"uop.index %s{m}[{at}] : {sptr[m]}, si32")
            after = f" after {prev}" if prev else ""
            prev = new(f"uop.async_copy {d}, {s} bytes 16{after} : {sptr[m]}, {gptr[m]}")
    done = new(f"uop.async_commit after {prev}")
    done = new(f"uop.async_wait 0 after {done}")
    if hazard != "no-proxy-fence":
        done = new(f"uop.fence_proxy_async after {done}")
    done = new(f"uop.barrier after {done}")
    if hazard != "no-fence":
        done = new(f"uop.wgmma_fence after {done}")
    # 2. The accumulator: C[row][col] of each register, from the ISA's fragment layout.
    q = new(f"uop.mod %lane, {const(32)} : si32")
    lines += [f"%w = uop.idiv %lane, {const(32)} : si32  // warp of the warpgroup",
              f"%g = uop.idiv {q}, {const(4)} : si32  // groupID",
              f"%t = uop.mod %lane, {const(4)} : si32  // threadID_in_group"]
    row = new(f"uop.add {new(f'uop.mul %w, {const(16)} : si32')}, %g : si32")  # 16 w + g
    base = new(f"uop.add {new(f'uop.mul {row}, {const(n)} : si32')}, "
               f"{new(f'uop.mul %t, {const(2)} : si32')} : si32")  # (16 w + g) N + 2 t
    vals = []
    for i in range(half):
        r, c = frag(0, i)  # lane 0's (row, col): the offset from the lane's base
        at = new(f"uop.add {base}, {const(r * n + c)} : si32") if r * n + c else base
        vals.append(new(f"uop.load {new(f'uop.index %gc[{at}] : {cptr}, si32')} : {cptr}"))
    acc = new(f"uop.vectorize {', '.join(vals)} : f32")
    pa = new(f"uop.index %sa[{const(ka.start // ELEM)}] : {sptr['a']}, si32")
    pb = new(f"uop.index %sb[{const(kb.start // ELEM)}] : {sptr['b']}, si32")
    zero = " zero_acc" if args.zero_acc else ""
    d = new(f"uop.wgmma {acc}, {pa} [{ka.attr()}], {pb} [{kb.attr()}]{zero} after {done} "
            f": {sptr['a']}, {sptr['b']} -> {vt}")
    c = new(f"uop.wgmma_commit {d} : {vt}")
    deps = c
    if hazard == "overwrite":  # thread 0 writes A[0][0] while the wgmma may still read it
        ok = new(f"uop.cmpeq %lane, {const(0)} : si32")
        x = new(f"uop.const 7.0 : {dt}")
        at = new(f"uop.index %sa[{const(address(ta, 0, 0) // ELEM)}] : {sptr['a']}, si32")
        deps += ", " + new(f"uop.store {at}, {x} gate {ok} : i1 : {sptr['a']}")
    res = d if hazard == "early-use" else new(f"uop.wgmma_wait 0, {d} after {deps} : {vt}")
    # 3. Register i to out[lane * N/2 + i].
    obase = new(f"uop.mul %lane, {const(half)} : si32")
    stores = [c] if hazard == "early-use" else []  # the commit, then the stores: no wait
    for i in range(half):
        x = new(f"uop.gep {res} [{i}] : {vt}")
        at = new(f"uop.add {obase}, {const(i)} : si32") if i else obase
        stores.append(new(f"uop.store {new(f'uop.index %out[{at}] : {optr}, si32')}, {x} : {optr}"))
    lines.append(f"uop.sink {', '.join(stores)}")
    body = "\n".join("    " + line for line in lines)
    what = (f"gen_wgmma.py {args.a} {args.b} {n} {dt}{' --zero-acc' if args.zero_acc else ''}"
            f"{f' --wrong={args.wrong}' if args.wrong else ''}{f' --hazard={hazard}' if hazard else ''}")
    return (f"// Generated by {what}: D = A @ B{'' if args.zero_acc else ' + C'} by one warpgroup's "
            f"wgmma.mma_async.m64n{n}k16.\n"
            'module attributes {uop.target = #uop.target<"sm_90a">} {\n'
            f"  uop.kernel @wgmma_k0 {{\n{body}\n  }}\n}}\n")


def pack(vals, dtype):
    if dtype == "bf16":  # the top 16 bits of the f32, exact for these small integers
        return b"".join(struct.pack("<f", v)[2:] for v in vals)
    return struct.pack("<%d%s" % (len(vals), "e" if dtype == "f16" else "f"), *vals)


def tile_arg(text):
    major, _, swizzle = text.partition("/")
    if major not in ("k", "mn") or not swizzle.isdigit() or int(swizzle) not in SWIZZLES:
        raise argparse.ArgumentTypeError(f"'{text}': want MAJOR/SWIZZLE, MAJOR k or mn, SWIZZLE 0, 32, 64 or 128")
    return major, int(swizzle)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("a", help="A's tile: MAJOR/SWIZZLE")
    ap.add_argument("b", help="B's tile: MAJOR/SWIZZLE")
    ap.add_argument("n", type=int)
    ap.add_argument("dtype", choices=("f16", "bf16"))
    ap.add_argument("outdir")
    ap.add_argument("--zero-acc", action="store_true", help="scale-d = 0: D = A @ B")
    ap.add_argument("--wrong", choices=WRONG)
    ap.add_argument("--hazard", choices=HAZARDS)
    ap.add_argument("--seed", type=int, default=1)
    o = ap.parse_args()
    try:
        (amaj, asw), (bmaj, bsw) = tile_arg(o.a), tile_arg(o.b)
    except argparse.ArgumentTypeError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    n = o.n
    if not (8 <= n <= 256 and n % 8 == 0):
        print(f"error: N = {n}: wgmma's n is 8 .. 256, a multiple of 8", file=sys.stderr)
        return 2
    ta, tb = compact(amaj, asw), compact(bmaj, bsw)
    if o.hazard == "misaligned":
        if asw == 0:
            print("error: --hazard=misaligned needs a swizzled A (an unswizzled tile may start at any 16 bytes)",
                  file=sys.stderr)
            return 2
        ta = ta.but(start=128)
    if o.wrong and not meaningful(ta, tb, n, o.wrong):
        print(f"error: --wrong={o.wrong} is not meaningful here: no operand uses both LBO and SBO", file=sys.stderr)
        return 2
    # Each image holds every read of the right kernel and of each meaningful wrong variant.
    variants = [w for w in WRONG if meaningful(ta, tb, n, w)]
    size_a = extent([ta] + [kernel_tiles(ta, tb, n, w)[0] for w in variants], M, K)
    size_b = extent([tb] + [kernel_tiles(ta, tb, n, w)[1] for w in variants], n, K)

    rng = random.Random(o.seed)
    A, B, C = ([float(rng.randint(-4, 4)) for _ in range(cnt)] for cnt in (M * K, K * n, M * n))
    a_img = image(ta, M, K, lambda m, k: A[m * K + k], size_a)
    b_img = image(tb, n, K, lambda c, k: B[k * n + c], size_b)

    def expected(place):
        out = []
        for lane in range(128):
            for i in range(n // 2):
                r, c = place(lane, i)
                out.append(sum(A[r * K + k] * B[k * n + c] for k in range(K)) + (0.0 if o.zero_acc else C[r * n + c]))
        return out
    right = expected(frag)
    assert simulate(n, a_img, b_img, ta, tb, C, o.zero_acc) == right, "the images do not hold A and B"
    want = expected(frag_acc_rows) if o.wrong == "acc-rows" else right
    ka, kb = kernel_tiles(ta, tb, n, o.wrong)
    if o.wrong:
        got = simulate(n, a_img, b_img, ka, kb, C, o.zero_acc)
        bad = sum(abs(g - w) > TOL + TOL * abs(w) for g, w in zip(got, want))
        if not bad:
            print(f"error: --wrong={o.wrong} gives the expected output with seed {o.seed}", file=sys.stderr)
            return 1
        print(f"--wrong={o.wrong}: {bad}/{len(want)} elements of the output differ under the ISA's layouts")

    os.makedirs(o.outdir, exist_ok=True)
    buffers = [(0, "f32", want, None, "want.bin"), (1, o.dtype, a_img, "a.bin", None),
               (2, o.dtype, b_img, "b.bin", None), (3, "f32", C, "c.bin", None)]
    for _, dtype, vals, inp, exp in buffers:
        with open(os.path.join(o.outdir, inp or exp), "wb") as f:
            f.write(pack(vals, dtype))
    spec = {"case": "wgmma", "kernel": 0, "buffers": [
        {"index": i, "dtype": dt, "size": len(v), "input": inp, "expected": exp} for i, dt, v, inp, exp in buffers]}
    with open(os.path.join(o.outdir, "wgmma.json"), "w") as f:
        f.write(json.dumps(spec) + "\n")
    with open(os.path.join(o.outdir, "wgmma.mlir"), "w") as f:
        f.write(emit(o, n, o.dtype, ta, tb, ka, kb, size_a, size_b, o.hazard))
    return 0


if __name__ == "__main__":
    sys.exit(main())

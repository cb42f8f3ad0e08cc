#!/usr/bin/env python3
"""Generate a one-warp cp.async + ldmatrix kernel whose answer depends on the PTX ISA's layouts.

usage: gen_ldmatrix.py COUNT OUTDIR [--trans] [--wrong=VARIANT] [--hazard=HAZARD] [--seed=N]

COUNT is ldmatrix's number of 8x8 matrices (1, 2 or 4). The kernel, in the uop dialect at the
lowered level (uop-run lowers it through convert-uop-to-gpu, so nvvm.cp.async and nvvm.ldmatrix
are what run), has one warp:
  1. copies a global buffer of ROWS rows of 8 halves (16 bytes) into shared memory, 16 bytes per
     uop.async_copy, piece p by lane p % 32; commits, waits for every group, barrier;
  2. each lane 8j + r gives ldmatrix the shared address of row r of matrix j, which lives at
     memory row PERM[8j + r] (a seeded permutation, so that each lane's own address matters);
  3. stores its COUNT registers (2 halves each, element 0 the low half) to out[lane][2j + h].
The halves are the distinct integers 0 .. 8 * ROWS - 1 (exact in f16). The expected output comes
from the PTX ISA's ldmatrix description ("Warp-level matrix load instruction: ldmatrix",
https://docs.nvidia.com/cuda/parallel-thread-execution/#warp-level-matrix-instructions-ldmatrix):
each thread receives, from each matrix, two elements of row laneid / 4 at columns
2 * (laneid % 4) and 2 * (laneid % 4) + 1 (its "Figure: ldmatrix fragment"); with .trans the
matrix is read transposed, i.e. column laneid / 4 at rows 2 * (laneid % 4) and + 1. Computed
here, independently of the simulator.

--wrong=VARIANT gives the kernel a plausible but wrong expectation; uop-run must then FAIL:
  rows-by-lane  lane l expected to receive, per matrix, row l % 8 at columns 2 (l / 8) and
                2 (l / 8) + 1: lanes grouped by eight (as they give addresses), not by four
  untransposed  the kernel reads with the other .trans than the one the expectation assumes

--hazard=HAZARD makes the kernel break a rule the simulator reports, with a located error:
  no-wait       no cp.async.wait_group before the barrier (the data has not landed)
  no-barrier    the wait but no barrier (another lane's copy is not published)
  misaligned    a cp.async from a source 8 bytes off 16-byte alignment
  row-align     an ldmatrix row address 8 bytes off 16-byte alignment
"""
import argparse
import json
import os
import random
import struct
import sys

from kernel_text import Body

HAZARDS = ("no-wait", "no-barrier", "misaligned", "row-align")


def received(count, trans, rows_of, lane):
    """What `lane` receives: per matrix j, 2 halves, from the matrices' rows as stored (the ISA)."""
    out = []
    for j in range(count):
        for h in range(2):
            if trans:  # column lane / 4 at rows 2 * (lane % 4) + h
                out.append(rows_of(j, 2 * (lane % 4) + h)[lane // 4])
            else:  # row lane / 4 at columns 2 * (lane % 4) + h
                out.append(rows_of(j, lane // 4)[2 * (lane % 4) + h])
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("count", type=int, choices=(1, 2, 4))
    ap.add_argument("outdir")
    ap.add_argument("--trans", action="store_true")
    ap.add_argument("--wrong", choices=("rows-by-lane", "untransposed"))
    ap.add_argument("--hazard", choices=HAZARDS)
    ap.add_argument("--seed", type=int, default=1)
    o = ap.parse_args()
    count, trans = o.count, o.trans
    rows = 8 * count + 8  # a spare matrix: PERM does not just reorder the ones read
    rng = random.Random(o.seed)
    perm = list(range(rows))
    rng.shuffle(perm)
    data = [float(i) for i in range(8 * rows)]
    memory_row = lambda r: data[8 * r: 8 * r + 8]
    # Lane 8j + r gives matrix j's row r: the memory row PERM[8j + r].
    rows_of = lambda j, r: memory_row(perm[8 * j + r])
    want = [x for lane in range(32) for x in received(count, trans, rows_of, lane)]
    if o.wrong == "rows-by-lane":
        want = [x for lane in range(32) for j in range(count) for x in rows_of(j, lane % 8)[2 * (lane // 8): 2 * (lane // 8) + 2]]
    kernel_trans = trans != (o.wrong == "untransposed")
    if o.wrong:
        right = [x for lane in range(32) for x in received(count, kernel_trans, rows_of, lane)]
        bad = sum(a != b for a, b in zip(right, want))
        if not bad:
            print(f"error: --wrong={o.wrong} expects what the ISA gives", file=sys.stderr)
            return 1
        print(f"--wrong={o.wrong}: {bad}/{len(want)} halves differ from the ISA's")

    src_size = 8 * rows + (8 if o.hazard == "misaligned" else 0)
    out_size = 32 * 2 * count
    body = Body()
    lines, new, const = body.lines, body.new, body.const

    gptr, sptr, optr = (f"!uop.ptr<f16, {src_size}>", f"!uop.ptr<f16, {8 * rows}, local>",
                        f"!uop.ptr<f16, {out_size}>")
    lines += [f"%out = uop.define_global 0 : {optr}", f"%src = uop.define_global 1 : {gptr}",
              f'%smem = uop.define_local "tile" : {sptr}', '%lane = uop.special "lidx0" 32 : si32']
    # 1. Piece p (16 bytes, 8 halves) by lane p % 32.
    prev = None
    shift = 4 if o.hazard == "misaligned" else 0  # 8 bytes: a cp.async of 16 must be 16-aligned
    for first in range(0, rows, 32):
        p = new(f"uop.add %lane, {const(first)} : si32")
        at = new(f"uop.mul {p}, {const(8)} : si32")
        gate = new(f"uop.cmplt {p}, {const(rows)} : si32")
        src_at = new(f"uop.add {at}, {const(shift)} : si32") if shift else at
        s = new(f"uop.index %src[{src_at}] gate {gate} : i1 : {gptr}, si32")
        d = new(f"uop.index %smem[{at}] : {sptr}, si32")
        after = f" after {prev}" if prev else ""
        prev = new(f"uop.async_copy {d}, {s} bytes 16{after} : {sptr}, {gptr}")
    done = new(f"uop.async_commit after {prev}")
    if o.hazard != "no-wait":
        done = new(f"uop.async_wait 0 after {done}")
    if o.hazard != "no-barrier":
        done = new(f"uop.barrier after {done}")
    # 2. Lane 8j + r (j < count; the others repeat lanes 0 .. 8 count - 1) gives memory row
    # PERM[8j + r]: a table of the permutation, as a nested select on the lane.
    used = new(f"uop.mod %lane, {const(8 * count)} : si32")
    row = const(perm[0])
    for l in range(1, 8 * count):
        is_l = new(f"uop.cmpeq {used}, {const(l)} : si32")
        row = new(f"uop.where {is_l}, {const(perm[l])}, {row} : si32")
    addr = new(f"uop.mul {row}, {const(8)} : si32")
    if o.hazard == "row-align":
        addr = new(f"uop.add {addr}, {const(4)} : si32")
    ptr = new(f"uop.index %smem[{addr}] : {sptr}, si32")
    t = " trans" if kernel_trans else ""
    ld = new(f"uop.ldmatrix {ptr} count {count}{t} after {done} : {sptr} -> vector<{2 * count}xf16>")
    # 3. Each register's halves to out[lane][2j + h].
    base = new(f"uop.mul %lane, {const(2 * count)} : si32")
    stores = []
    for e in range(2 * count):
        x = new(f"uop.gep {ld} [{e}] : vector<{2 * count}xf16>")
        at = new(f"uop.add {base}, {const(e)} : si32")
        ptr_e = new(f"uop.index %out[{at}] : {optr}, si32")
        stores.append(new(f"uop.store {ptr_e}, {x} : {optr}"))
    lines.append(f"uop.sink {', '.join(stores)}")
    body = "\n".join("    " + line for line in lines)
    what = f"ldmatrix .x{count}{' .trans' if kernel_trans else ''}"
    os.makedirs(o.outdir, exist_ok=True)
    with open(os.path.join(o.outdir, "ldm.mlir"), "w") as f:
        f.write(f"// Generated by gen_ldmatrix.py: cp.async of {rows} rows, {what} by one warp.\n"
                'module attributes {uop.target = #uop.target<"sm_80">} {\n'
                f"  uop.kernel @ldm_k0 {{\n{body}\n  }}\n}}\n")
    src = data + [0.0] * (src_size - len(data))
    if shift:  # the rows start 8 bytes in
        src = [0.0] * shift + data + [0.0] * (8 - shift)
    with open(os.path.join(o.outdir, "src.bin"), "wb") as f:
        f.write(struct.pack(f"<{len(src)}e", *src))
    with open(os.path.join(o.outdir, "want.bin"), "wb") as f:
        f.write(struct.pack(f"<{len(want)}e", *want))
    spec = {"case": "ldm", "kernel": 0, "buffers": [
        {"index": 0, "dtype": "f16", "size": out_size, "input": None, "expected": "want.bin"},
        {"index": 1, "dtype": "f16", "size": src_size, "input": "src.bin", "expected": None}]}
    with open(os.path.join(o.outdir, "ldm.json"), "w") as f:
        f.write(json.dumps(spec) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

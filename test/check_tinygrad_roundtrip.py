#!/usr/bin/env python3
"""JSON -> MLIR -> JSON over the whole corpus must reproduce every kernel's nodes.

usage: check_tinygrad_roundtrip.py UOP_TRANSLATE CORPUS_DIR WORK_DIR

Imports every kernel listed in CORPUS_DIR/index.json in one uop-translate call
(one module, one uop.kernel per file), exports the module back to JSON and
compares node by node: op, dtype, sources and arg. A float CONST is compared
after rounding both sides to its dtype, the value the kernel computes with
(tinygrad keeps a Python double there). Prints N/N; fails on any mismatch.
"""
import json
import os
import struct
import subprocess
import sys


def round_to(dtype, x):
    if isinstance(x, str):  # "inf", "-inf", "nan"
        return x
    if dtype == "f32":
        return struct.unpack("f", struct.pack("f", x))[0]
    if dtype == "f16":
        return struct.unpack("e", struct.pack("e", x))[0]
    if dtype == "bf16":  # round-to-nearest-even on the top 16 bits of the f32
        bits = struct.unpack("I", struct.pack("f", x))[0]
        bits = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) << 16
        return struct.unpack("f", struct.pack("I", bits & 0xFFFFFFFF))[0]
    return float(x)


def same_arg(op, dtype, a, b):
    if op == "CONST" and isinstance(dtype, str) and dtype.startswith(("f", "bf")):
        return round_to(dtype, a) == round_to(dtype, b)
    return a == b


def main() -> int:
    translate, corpus, work = sys.argv[1:4]
    index_path = os.path.join(corpus, "index.json")
    if not os.path.isfile(index_path):
        print(f"error: no corpus at {corpus} (expected ../shared/corpus beside the project)")
        return 1
    index = json.load(open(index_path))
    files = [os.path.join(corpus, case, k) for case, ks in index.items() for k in ks]
    os.makedirs(work, exist_ok=True)
    mlir = os.path.join(work, "corpus.mlir")
    out = os.path.join(work, "corpus.json")
    subprocess.run([translate, "--import-tinygrad", *files, "-o", mlir], check=True)
    subprocess.run([translate, "--export-tinygrad", mlir, "-o", out], check=True)
    exported = {k["name"]: k["nodes"] for k in json.load(open(out))}

    ok = 0
    for path in files:
        orig = json.load(open(path))
        name = f'{orig["case"]}_k{orig["kernel"]}'
        nodes = exported.get(name)
        if nodes is None:
            print(f"FAIL {path}: kernel {name} missing from the export")
            continue
        problems = []
        if len(nodes) != len(orig["nodes"]):
            problems.append(f"{len(orig['nodes'])} nodes became {len(nodes)}")
        for i, (a, b) in enumerate(zip(orig["nodes"], nodes)):
            if a[0] != b[0] or a[1] != b[1] or a[3] != b[3] or not same_arg(a[0], a[1], a[2], b[2]):
                problems.append(f"node {i}: {json.dumps(a)} became {json.dumps(b)}")
        if problems:
            print(f"FAIL {path}: " + "; ".join(problems[:3]))
        else:
            ok += 1
    print(f"round trip: {ok}/{len(files)} corpus kernels reproduce their nodes")
    return 0 if ok == len(files) else 1


if __name__ == "__main__":
    sys.exit(main())

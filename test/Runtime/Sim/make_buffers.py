#!/usr/bin/env python3
"""make_buffers.py DIR NAME SPEC...: a kernel JSON with buffers for `uop-run --buffers-from`.

Each SPEC is `dtype:size[:in=EXPR][:want=EXPR]` for buffers 0, 1, ... in order; EXPR is a
Python expression for the list of values (e.g. `list(range(64))`). Writes DIR/NAME.json in the
corpus format (case NAME, kernel 0) and the raw little-endian files it names.
"""
import json
import os
import struct
import sys

FORMATS = {"f32": "f", "f16": "e", "i32": "i", "f64": "d"}


def main():
    out_dir, name, specs = sys.argv[1], sys.argv[2], sys.argv[3:]
    os.makedirs(out_dir, exist_ok=True)
    buffers = []
    for index, spec in enumerate(specs):
        dtype, size, *parts = spec.split(":")
        entry = {"index": index, "dtype": dtype, "size": int(size), "input": None,
                 "expected": None}
        for part in parts:
            key, expr = part.split("=", 1)
            values = eval(expr)
            assert len(values) == int(size), f"{spec}: {len(values)} values for size {size}"
            file = f"{name}_b{index}_{key}.bin"
            with open(os.path.join(out_dir, file), "wb") as f:
                f.write(struct.pack(f"<{size}{FORMATS[dtype]}", *values))
            entry["input" if key == "in" else "expected"] = file
        buffers.append(entry)
    with open(os.path.join(out_dir, name + ".json"), "w") as f:
        json.dump({"case": name, "kernel": 0, "buffers": buffers}, f)


if __name__ == "__main__":
    main()

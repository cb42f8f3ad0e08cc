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


def write_case(out_dir, name, buffers):
    """Writes DIR/NAME.json and its files; `buffers`: (dtype, size, {"in"/"want": values})."""
    os.makedirs(out_dir, exist_ok=True)
    entries = []
    for index, (dtype, size, values_of) in enumerate(buffers):
        entry = {"index": index, "dtype": dtype, "size": size, "input": None, "expected": None}
        for key, values in values_of.items():
            assert len(values) == size, f"buffer {index}: {len(values)} values for size {size}"
            file = f"{name}_b{index}_{key}.bin"
            with open(os.path.join(out_dir, file), "wb") as f:
                f.write(struct.pack(f"<{size}{FORMATS[dtype]}", *values))
            entry["input" if key == "in" else "expected"] = file
        entries.append(entry)
    with open(os.path.join(out_dir, name + ".json"), "w") as f:
        json.dump({"case": name, "kernel": 0, "buffers": entries}, f)


def main():
    out_dir, name, specs = sys.argv[1], sys.argv[2], sys.argv[3:]
    buffers = []
    for spec in specs:
        dtype, size, *parts = spec.split(":")
        values_of = {}
        for part in parts:
            key, expr = part.split("=", 1)
            values_of[key] = eval(expr)
        buffers.append((dtype, int(size), values_of))
    write_case(out_dir, name, buffers)


if __name__ == "__main__":
    main()

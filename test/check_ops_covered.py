#!/usr/bin/env python3
"""Fails unless every op in the generated dialect reference has a CHECK in the test.

usage: check_ops_covered.py UOpDialect.md ops.mlir
"""
import re
import sys


def main() -> int:
    doc, test = sys.argv[1], sys.argv[2]
    ops = sorted(set(re.findall(r"^### `(uop\.[a-z0-9_]+)`", open(doc).read(), re.M)))
    if not ops:
        print(f"error: no ops found in {doc}")
        return 1
    checks = "\n".join(l for l in open(test) if re.match(r"\s*// CHECK", l))
    missing = [op for op in ops if not re.search(re.escape(op) + r"\b", checks)]
    print(f"{len(ops) - len(missing)}/{len(ops)} ops have a round-trip CHECK in {test}")
    for op in missing:
        print(f"error: {op} has no CHECK line")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Fails unless the uop ops' tinygrad names and groups are tinygrad's own.

Reads `uop-translate --list-tinygrad-ops` (one line per op: `uop.add ADD ALU Binary ...`)
and tinygrad's uop/__init__.py (its Ops enum and GroupOp), and checks that
  - every tinygrad name is a member of tinygrad's Ops;
  - ops that share a tinygrad name (uop.const and uop.shaped_const) are in the same groups;
  - for every group, the ops in it are exactly the ops whose tinygrad name is in
    tinygrad's GroupOp.<group> (Buffer is BufferOpInterface);
  - ALU is exactly Unary + Binary + Ternary.

usage: check_op_groups.py LIST tinygrad/uop/__init__.py
"""
import sys

GROUPS = ["ALU", "Unary", "Binary", "Ternary", "Commutative", "Associative", "Idempotent",
          "UnsafePad", "Irreducible", "Movement", "Buffer"]


def tinygrad_groups(path):
    """(set of Ops names, {group: set of names}) from tinygrad's source, executed alone:
    uop/__init__.py imports nothing from tinygrad."""
    scope = {"__name__": "tinygrad_uop"}
    with open(path) as f:
        exec(compile(f.read(), path, "exec"), scope)
    ops, group_op = scope["Ops"], scope["GroupOp"]
    return {o.name for o in ops}, {g: {o.name for o in getattr(group_op, g)} for g in GROUPS}


def main():
    listing, source = sys.argv[1], sys.argv[2]
    names, groups = tinygrad_groups(source)
    ours = {}  # uop op -> (tinygrad name, groups)
    for line in open(listing):
        op, name, *gs = line.split()
        ours[op] = (name, set(gs))
    errors = []
    if not ours:
        errors.append(f"no ops in {listing}")
    by_name = {}
    for op, (name, gs) in sorted(ours.items()):
        if name == "-":
            continue
        if name not in names:
            errors.append(f"{op}: '{name}' is not a member of tinygrad's Ops")
        if name in by_name and by_name[name][1] != gs:
            errors.append(f"{op} and {by_name[name][0]} are both {name} but in groups "
                          f"{sorted(gs)} and {sorted(by_name[name][1])}")
        by_name.setdefault(name, (op, gs))
    for g in GROUPS:
        have = {n for n, (_, gs) in by_name.items() if g in gs}
        want = groups[g] & set(by_name)
        for n in sorted(want - have):
            errors.append(f"{n} ({by_name[n][0]}) is in tinygrad's GroupOp.{g} but not ours")
        for n in sorted(have - want):
            errors.append(f"{n} ({by_name[n][0]}) is in our {g} but not tinygrad's GroupOp.{g}")
    for n, (op, gs) in sorted(by_name.items()):
        if ("ALU" in gs) != bool(gs & {"Unary", "Binary", "Ternary"}):
            errors.append(f"{op}: ALU must be exactly Unary, Binary and Ternary")
    for e in errors:
        print(f"error: {e}")
    grouped = sum(1 for _, gs in by_name.values() if gs)
    print(f"{len(by_name)} tinygrad ops, {grouped} in groups: "
          f"{'OK' if not errors else f'{len(errors)} errors'}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())

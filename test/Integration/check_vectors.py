#!/usr/bin/env python3
"""check_vectors.py IR_DUMP ORACLE: vector loads and stores where tinygrad has them.

IR_DUMP is the output of `uop-opt --uop-to-ptx --mlir-print-ir-after=uop-devectorize`
on corpus kernels: each kernel as uop-devectorize leaves it. ORACLE is
test/Dialect/UOp/Optimize/Inputs/tinygrad-opts.json, whose ptx_sm80 records count
the .v2/.v4 ld/st instructions of tinygrad's own PTX for each kernel
(ptx_vector_ld, ptx_vector_st). The comparison is made at the uop level, where a
vector access is a uop.load/uop.store through a !uop.ptr<vector<...>>: NVPTX
spells a pair of halves as one .b32 access, which a count of .v2 in our PTX
would miss.

For every kernel where tinygrad's PTX has a vector load (store), ours must have
one: prints MISSING for each that does not, then a summary; exits 1 if any is
missing or a kernel of the oracle is absent from the dump.
"""
import json
import re
import sys


def our_counts(dump):
    """kernel symbol -> [vector loads, vector stores] in the IR dump."""
    counts, current = {}, None
    for line in open(dump):
        m = re.match(r"\s*uop\.kernel @(\w+)", line)
        if m:
            current = counts.setdefault(m.group(1), [0, 0])
        elif current is not None and ": !uop.ptr<vector<" in line:
            if re.search(r"= uop\.load ", line):
                current[0] += 1
            elif re.search(r"= uop\.store ", line):
                current[1] += 1
    return counts


def main():
    dump, oracle = sys.argv[1], sys.argv[2]
    ours = our_counts(dump)
    records = json.load(open(oracle))["kernels"]["ptx_sm80"]
    missing, absent, want, have, extra = 0, 0, [0, 0], [0, 0], 0
    for rec in records:
        if "ptx_vector_ld" not in rec:
            print(f"NO ORACLE DATA for {rec['kernel']}")
            absent += 1
            continue
        name = rec["kernel"].replace(".json", "").replace("/", "_")
        if name not in ours:
            print(f"ABSENT {name}: not in the IR dump")
            absent += 1
            continue
        theirs = (rec["ptx_vector_ld"], rec["ptx_vector_st"])
        for i, what in enumerate(("load", "store")):
            if theirs[i]:
                want[i] += 1
                have[i] += ours[name][i] > 0
                if not ours[name][i]:
                    print(f"MISSING vector {what} in {name}: tinygrad has {theirs[i]}, we have none")
                    missing += 1
        extra += (not theirs[0] and ours[name][0] > 0) or (not theirs[1] and ours[name][1] > 0)
    print(f"vector loads in {have[0]}/{want[0]} kernels where tinygrad has them, "
          f"vector stores in {have[1]}/{want[1]}; {extra} kernels have vectors where tinygrad has none")
    return 1 if missing or absent else 0


if __name__ == "__main__":
    sys.exit(main())

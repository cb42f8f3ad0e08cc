#!/usr/bin/env python3
"""check_launch.py PTX_DIR ANCHORS: our launch dimensions against tinygrad's.

PTX_DIR holds `uop-translate --export-ptx` output for the corpus (each file
starts `// uop-mlir kernel NAME grid=X,Y,Z block=X,Y,Z`); ANCHORS is
../shared/anchors/tinygrad_sm80_corpus.json, tinygrad's own global (grid)
and local (block) sizes per kernel on sm_80. With the same opts the sizes are
the same, so this checks the heuristic and gpudims end to end. Kernels where
tinygrad used tensor cores (mma > 0) are listed as tc-pending: the TC opt is
not implemented yet. Exits 1 on any other difference or missing kernel.
"""
import json
import os
import re
import sys


def main():
    ptx_dir, anchors = sys.argv[1:3]
    same, pending, bad = 0, [], 0
    for entry in json.load(open(anchors)):
        name = entry["kernel"].replace("/", "_").removesuffix(".json")
        path = os.path.join(ptx_dir, name + ".ptx")
        if entry.get("mma", 0) > 0:
            pending.append(name)
            continue
        if not os.path.exists(path):
            print(f"MISSING {name}")
            bad += 1
            continue
        head = open(path).readline()
        m = re.search(r"grid=(\d+),(\d+),(\d+) block=(\d+),(\d+),(\d+)", head)
        ours = [int(x) for x in m.groups()] if m else None
        want = entry["global"] + entry["local"]
        if ours != want:
            print(f"MISMATCH {name}: grid/block {ours}, tinygrad {want}")
            bad += 1
        else:
            same += 1
    for name in pending:
        print(f"tc-pending {name}")
    print(f"launch dims: {same}/{same + bad} kernels as tinygrad's on sm_80, "
          f"{len(pending)} tc-pending")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()

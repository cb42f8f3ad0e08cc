#!/usr/bin/env python3
"""check_launch.py PTX_DIR ANCHORS: our launch dimensions and tensor cores against tinygrad's.

PTX_DIR holds `uop-translate --export-ptx` output for the corpus (each file
starts `// uop-mlir kernel NAME grid=X,Y,Z block=X,Y,Z`); ANCHORS is
../shared/anchors/tinygrad_sm80_corpus.json, tinygrad's own global (grid)
and local (block) sizes per kernel on sm_80. With the same opts the sizes are
the same, so this checks the heuristic and gpudims end to end. Where tinygrad
used tensor cores (mma > 0), our PTX must have mma.sync too, and none where
tinygrad has none. Exits 1 on any difference or missing kernel.
"""
import json
import os
import re
import sys


def main():
    ptx_dir, anchors = sys.argv[1:3]
    same, tc, bad = 0, 0, 0
    for entry in json.load(open(anchors)):
        name = entry["kernel"].replace("/", "_").removesuffix(".json")
        path = os.path.join(ptx_dir, name + ".ptx")
        if not os.path.exists(path):
            print(f"MISSING {name}")
            bad += 1
            continue
        text = open(path).read()
        head = text.split("\n", 1)[0]
        mma, want_mma = text.count("mma.sync"), entry.get("mma", 0)
        tc += want_mma > 0
        if (mma > 0) != (want_mma > 0):
            print(f"MISMATCH {name}: {mma} mma.sync, tinygrad {want_mma}")
            bad += 1
            continue
        m = re.search(r"grid=(\d+),(\d+),(\d+) block=(\d+),(\d+),(\d+)", head)
        ours = [int(x) for x in m.groups()] if m else None
        want = entry["global"] + entry["local"]
        if ours != want:
            print(f"MISMATCH {name}: grid/block {ours}, tinygrad {want}")
            bad += 1
        else:
            same += 1
    print(f"launch dims: {same}/{same + bad} kernels as tinygrad's on sm_80, "
          f"{tc} with mma.sync as tinygrad's")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()

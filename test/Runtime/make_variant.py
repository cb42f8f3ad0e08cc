#!/usr/bin/env python3
"""make_variant.py SRC_DIR DST_DIR KERNEL EDIT: copy a corpus case and break it.

EDIT is a Python expression over `j` (the kernel JSON, edited in place) and
`write(name, bytes)` (overwrite a buffer file), e.g.
  "j['buffers'][1].update(size=3)"."""
import json
import os
import shutil
import sys

src, dst, kernel, edit = sys.argv[1:5]
shutil.rmtree(dst, ignore_errors=True)
shutil.copytree(src, dst)
path = os.path.join(dst, kernel)
j = json.load(open(path))


def write(name, data):
    with open(os.path.join(dst, name), "wb") as f:
        f.write(data)


exec(edit)
json.dump(j, open(path, "w"))

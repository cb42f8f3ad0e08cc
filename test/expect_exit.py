#!/usr/bin/env python3
"""expect_exit.py CODE CMD...: run CMD, pass its output through, succeed iff it exits CODE."""
import subprocess
import sys

code = int(sys.argv[1])
rc = subprocess.call(sys.argv[2:])
if rc != code:
    print(f"expect_exit: {sys.argv[2]} exited {rc}, expected {code}", file=sys.stderr)
    sys.exit(1)

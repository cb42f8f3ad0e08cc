#!/usr/bin/env python3
"""check_tutorial.py TUTORIAL.md TOOLS_DIR SRC_ROOT: run a tutorial's commands.

In a fresh directory, with TOOLS_DIR first on PATH:
- a ```mlir file=NAME``` block (any language) is written to NAME;
- in a ```console``` block, each "$ COMMAND" line runs in bash (stderr joined
  to stdout), and the lines after it, up to the next "$", are its expected
  output, compared line by line (trailing spaces ignored); a "..." line
  matches any number of lines. A command must exit 0 unless its expected
  output has an "error:" line, and then it must not;
- a ```cpp from=PATH``` block must appear verbatim in SRC_ROOT/PATH (which
  a test compiles and runs).
Prints one line per command and fails on the first difference."""
import os
import re
import subprocess
import sys
import tempfile

tutorial, tools, src_root = sys.argv[1:4]
text = open(tutorial).read()
blocks = re.findall(r"^```([^\n]*)\n(.*?)^```$", text, re.S | re.M)
if not blocks:
    sys.exit(f"{tutorial}: no code blocks")


def matches(want, got):
    """want's lines against got's, '...' matching any run of lines."""
    if not want:
        return not got
    if want[0] == "...":
        return any(matches(want[1:], got[i:]) for i in range(len(got) + 1))
    return bool(got) and want[0] == got[0] and matches(want[1:], got[1:])


env = dict(os.environ, PATH=tools + os.pathsep + os.environ["PATH"])
commands = 0
with tempfile.TemporaryDirectory() as work:
    for info, body in blocks:
        attrs = dict(a.split("=", 1) for a in info.split()[1:] if "=" in a)
        if "file" in attrs:
            with open(os.path.join(work, attrs["file"]), "w") as f:
                f.write(body)
            continue
        if "from" in attrs:
            source = open(os.path.join(src_root, attrs["from"])).read()
            if body not in source:
                sys.exit(f"{tutorial}: this snippet is not in {attrs['from']}:\n{body}")
            print(f"snippet found in {attrs['from']}")
            continue
        if not info.startswith("console"):
            continue
        steps = []
        for line in body.splitlines():
            if line.startswith("$ "):
                steps.append((line[2:], []))
            elif steps:
                steps[-1][1].append(line.rstrip())
        for command, want in steps:
            commands += 1
            run = subprocess.run(["bash", "-c", command], cwd=work, env=env,
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            got = [l.rstrip() for l in run.stdout.splitlines()]
            expect_error = any("error:" in l for l in want)
            if (run.returncode != 0) != expect_error:
                sys.exit(f"$ {command}\nexit {run.returncode}, expected "
                         f"{'non-zero' if expect_error else '0'}; output:\n{run.stdout}")
            if not matches(want, got):
                sys.exit(f"$ {command}\nexpected:\n" + "\n".join(want) +
                         "\ngot:\n" + "\n".join(got))
            print(f"ok: {command}")
print(f"tutorial: {commands} commands ran as shown")

#!/usr/bin/env python3
"""Assemble every .ptx file of a directory with NVIDIA's ptxas.

usage: check_ptxas.py PTXAS ARCH DIR EXPECTED_COUNT

Fails (exit 1) when ptxas is missing, when a file does not assemble, or when
DIR does not hold EXPECTED_COUNT files (a kernel that produced no PTX must
not pass silently). Prints each ptxas warning as `WARNING ARCH FILE: ...`
(e.g. wgmma instructions serialized), then one summary line: files,
registers, spills.
"""
import os
import re
import subprocess
import sys


def main():
    ptxas, arch, directory, expected = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    if not (os.path.isfile(ptxas) and os.access(ptxas, os.X_OK)):
        print(f"error: ptxas not found ({ptxas}): this test assembles our PTX with NVIDIA's "
              "assembler; install the CUDA toolkit (ptxas in PATH or /usr/local/cuda/bin)")
        return 1
    files = sorted(f for f in os.listdir(directory) if f.endswith(".ptx"))
    failed, regs, spills = [], {}, 0
    for name in files:
        r = subprocess.run([ptxas, f"-arch={arch}", "-v", os.path.join(directory, name),
                            "-o", os.devnull], capture_output=True, text=True)
        if r.returncode != 0:
            failed.append((name, r.stderr.strip()))
            continue
        for line in r.stderr.splitlines():
            if "warning" in line.lower():
                print(f"WARNING {arch} {name}: {line.strip()}")
        m = re.search(r"Used (\d+) registers", r.stderr)
        regs[name] = int(m.group(1)) if m else 0
        spills += sum(int(x) for x in re.findall(r"(\d+) bytes spill (?:stores|loads)", r.stderr))
    for name, err in failed:
        print(f"FAIL {arch} {name}:\n{err}")
    top = max(regs.items(), key=lambda kv: kv[1]) if regs else ("-", 0)
    print(f"ptxas -arch={arch}: {len(files) - len(failed)}/{len(files)} kernels assemble "
          f"(expected {expected}); max registers {top[1]} ({top[0]}); spill bytes {spills}")
    return 1 if failed or len(files) != expected else 0


if __name__ == "__main__":
    sys.exit(main())

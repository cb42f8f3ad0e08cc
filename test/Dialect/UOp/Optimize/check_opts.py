#!/usr/bin/env python3
"""check_opts.py heuristic|staged|apply BIN_DIR CORPUS ORACLE: uop-optimize against tinygrad's optimizer.

CORPUS is ../shared/corpus; kernels of ../shared/corpus-perf (beside it) are
checked too.

heuristic: ORACLE (Inputs/tinygrad-opts.json, written by gen_tinygrad_opts.py from
tinygrad's Kernel and hand_coded_optimizations) has, per corpus kernel and
renderer (PTX for sm_80, and the CPU), the opts tinygrad's heuristic applies
and every buffer's ShapeTracker afterwards. For each, this imports the
kernel, runs `uop-opt --uop-optimize=tc-schedule=tinygrad` (with
`--uop-attach-target=chip=sm_80` for PTX) and compares:
  - the applied opts (the kernel's #uop.kernel_info), as tinygrad writes them;
  - each buffer VIEW's views (shape, strides, offset, mask), in node order.
Where tinygrad uses tensor cores (WMMA), its get_optimized_ast reads the two
sources of the WMMA through the tensor core's swizzle (get_tc_swizzle_st):
those two views must be tinygrad's ShapeTracker permuted by that swizzle,
computed here from the renderer's tensor-core table in the oracle. Prints
one line per mismatch and a summary per renderer; exits 1 on any mismatch.

staged: the same kernels with the default tc-schedule (auto) for sm_80: tinygrad's opts,
and where they use tensor cores the TC opt with the staged schedule's upcasts, locals and
padding, then STAGE (and UNROLL:0:2 for k-steps of 32).

apply: ORACLE (Inputs/tinygrad-apply-opt.json) has explicit opt sequences,
legal and illegal, for every OptOp. A legal one must give tinygrad's views;
an illegal one must fail with tinygrad's reason (its `error_match`) in the
diagnostic.
"""
import json
import os
import re
import subprocess
import sys

VIEW = re.compile(r"#uop\.view<([^>]*)>")
FIELD = re.compile(r"(\w+) = (\[\[.*?\]\]|\[[^\]]*\]|-?\d+)")


def parse_view(text):
    fields = {k: json.loads(v) for k, v in FIELD.findall(text)}
    mask = fields.get("mask")
    return {"shape": fields["shape"], "strides": fields["strides"],
            "offset": fields.get("offset", 0), "mask": mask}


def kernel_path(corpus, entry):
    if entry["kernel"].startswith("perf_"):
        return os.path.join(os.path.dirname(os.path.abspath(corpus)), "corpus-perf", entry["kernel"])
    return os.path.join(corpus, entry["kernel"])


def our_state(bin_dir, path, renderer, opts=None, schedule="tinygrad"):
    """Our opts and buffer views; the heuristic's tensor-core kernels as tinygrad schedules them
    unless `schedule` says otherwise (uop-optimize's tc-schedule)."""
    imported = subprocess.run([os.path.join(bin_dir, "uop-translate"), "--import-tinygrad", path],
                              capture_output=True, text=True)
    if imported.returncode:
        return None, "import failed: " + imported.stderr.strip()
    passes = ["--uop-optimize=" + (f"opts={opts}" if opts else f"tc-schedule={schedule}")]
    if renderer == "ptx_sm80":
        passes = ["--uop-attach-target=chip=sm_80"] + passes
    opt = subprocess.run([os.path.join(bin_dir, "uop-opt")] + passes, input=imported.stdout,
                         capture_output=True, text=True)
    if opt.returncode:
        return None, opt.stderr.strip()
    info = re.search(r'opts = "([^"]*)"', opt.stdout)
    locals_ = set(re.findall(r"(%\w+) = uop\.define_local", opt.stdout))
    views = []
    for line in opt.stdout.splitlines():
        m = re.search(r"uop\.view (%\w+ )?\[(.*)\] :", line)
        if not m or (m.group(1) and m.group(1).strip() in locals_):
            continue
        views.append([parse_view(v) for v in VIEW.findall(m.group(2))])
    return {"opts": info.group(1) if info else None, "views": views}, None


def oracle_views(corpus, entry):
    nodes = json.load(open(kernel_path(corpus, entry)))["nodes"]
    by_view = {}
    for buf, st in zip(entry["bufs"], entry["sts"]):
        view = next(s for s in nodes[buf["node"]][3] if nodes[s][0] == "VIEW")
        by_view[view] = [{"shape": v["shape"], "strides": v["strides"], "offset": v["offset"],
                          "mask": v["mask"]} for v in st]
    return [by_view[k] for k in sorted(by_view)]


def swizzles(oracle, entry):
    """get_tc_swizzle_st's permutation for A and B of the entry's tensor core."""
    tc = next(t for t in oracle["renderers"][entry["renderer"]]["tensor_cores"]
              if t["name"] == entry["tensor_core"])
    wd, tcd, rank = entry["global_dims"], entry["first_upcast"], len(entry["full_shape"])
    n_local = sum(o[0] == "l" for o in tc["opts"])
    at = lambda x: wd + x + (tcd - (wd + n_local) if x >= n_local else 0)
    return [list(range(wd)) + [at(x) for x in local] + list(range(wd + n_local, tcd)) +
            [at(x) for x in upcast] + list(range(tcd + len(upcast), rank))
            for local, upcast in tc["swizzle"]]


def permute(views, perm):
    *rest, last = views
    return rest + [{"shape": [last["shape"][p] for p in perm],
                    "strides": [last["strides"][p] for p in perm], "offset": last["offset"],
                    "mask": last["mask"] and [last["mask"][p] for p in perm]}]


def compare(ours, corpus, oracle, entry):
    problems = []
    if ours["opts"] != entry["opts"]:
        problems.append(f"opts {ours['opts']!r}, tinygrad {entry['opts']!r}")
    expected = oracle_views(corpus, entry)
    # (TC=2, the TC's shapes without a WMMA, keeps the sources unswizzled:
    # tinygrad's swizzled plain sum pairs the wrong elements.)
    perms = swizzles(oracle, entry) if entry.get("use_tensor_cores") == 1 else []
    swizzled = 0
    for i, (a, b) in enumerate(zip(ours["views"], expected)):
        if a == b:
            continue
        if any(a == permute(b, p) for p in perms):
            swizzled += 1
        else:
            problems.append(f"view {i}: {a}, tinygrad {b}")
    if len(ours["views"]) != len(expected):
        problems.append(f"{len(ours['views'])} views, tinygrad {len(expected)}")
    if perms and not 1 <= swizzled <= 2:
        problems.append(f"{swizzled} views are swizzled; the tensor core's two sources are")
    return problems


def check_apply(bin_dir, corpus, oracle):
    ok, bad = 0, 0
    for entry in oracle["cases"]:
        name = f"{entry['renderer']} {entry['kernel']} {entry['apply']}"
        ours, error = our_state(bin_dir, kernel_path(corpus, entry), entry["renderer"],
                                entry["apply"])
        if entry.get("error"):
            want = entry["error_match"]
            problems = [] if error and want in error else [
                f"expected an error with {want!r}, got " + (repr(error) if error else "success")]
        else:
            problems = [error] if error else compare(ours, corpus, oracle, entry)
        if problems:
            bad += 1
            print(f"MISMATCH {name}: " + "; ".join(problems))
        else:
            ok += 1
    tc = sum("TC:" in e["apply"] for e in oracle["cases"])
    print(f"apply: {ok}/{len(oracle['cases'])} opt sequences as tinygrad ({tc} with TC)")
    return bad == 0


def check_staged(bin_dir, corpus, oracle):
    """The default heuristic (tc-schedule=auto) on sm_80: tinygrad's opts, and where tinygrad
    uses tensor cores the TC opt with the staged schedule's upcasts, locals and padding (its warp
    tiles, StagedTensorCores.cpp), then STAGE (after an UNROLL:0:2 for k-steps of 32)."""
    entries = oracle["kernels"]["ptx_sm80"]
    ok, staged = 0, 0
    for entry in entries:
        ours, error = our_state(bin_dir, kernel_path(corpus, entry), "ptx_sm80", schedule="auto")
        want = entry["opts"]
        got = error or ours["opts"]
        tc = r"TC:0:-1,0,1(,(PADTO|UPCAST|LOCAL):\d+:\d+)*(,UNROLL:0:2)?,STAGE:0:[34]"
        if want.startswith("TC:0:-1,0,1") and re.fullmatch(tc, got or ""):
            ok, staged = ok + 1, staged + 1
        elif got == want and not want.startswith("TC:"):
            ok += 1
        else:
            print(f"MISMATCH staged {entry['kernel']}: {got!r}, tinygrad {want!r}")
    print(f"ptx_sm80 tc-schedule=auto: {ok}/{len(entries)} kernels take tinygrad's opts, "
          f"{staged} of them with their tensor-core operands staged")
    return ok == len(entries)


def main():
    mode, bin_dir, corpus, oracle_path = sys.argv[1:5]
    oracle = json.load(open(oracle_path))
    if mode == "apply":
        sys.exit(0 if check_apply(bin_dir, corpus, oracle) else 1)
    if mode == "staged":
        sys.exit(0 if check_staged(bin_dir, corpus, oracle) else 1)
    failed = False
    for renderer, entries in oracle["kernels"].items():
        ok, bad = 0, 0
        for entry in entries:
            ours, error = our_state(bin_dir, kernel_path(corpus, entry), renderer)
            problems = [error] if error else compare(ours, corpus, oracle,
                                                     dict(entry, renderer=renderer))
            if problems:
                bad += 1
                print(f"MISMATCH {renderer} {entry['kernel']}: " + "; ".join(problems))
            else:
                ok += 1
        tc = sum(e["opts"].startswith("TC:") for e in entries)
        print(f"{renderer}: {ok}/{len(entries)} kernels match tinygrad's opts and views "
              f"({tc} with TC)")
        failed |= bad > 0
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

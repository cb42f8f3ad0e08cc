"""uop_mlir.tinygrad.ast both ways: every kernel of ../shared/corpus and corpus-perf,
read into tinygrad UOps by import_ast and written back by export_ast, is the node list
it was, node for node (import_ast is what scripts/bench_ptx.py hands tinygrad's
get_program when it measures tinygrad on this machine)."""
import glob
import json
import os

from uop_mlir.tinygrad.ast import export_ast, import_ast, ExportError

import pytest


def kernel_files(corpus):
    files = sorted(glob.glob(os.path.join(corpus, "*", "k*.json")))
    files += sorted(glob.glob(os.path.join(os.path.dirname(corpus), "corpus-perf", "*", "k*.json")))
    return files


def test_round_trip(tinygrad, corpus):
    files = kernel_files(corpus)
    assert len(files) >= 86, f"{len(files)} kernel files under {corpus} and corpus-perf"
    for path in files:
        with open(path) as f:
            nodes = json.load(f)["nodes"]
        uops = import_ast(nodes)
        back, order = export_ast(uops[-1])
        assert back == nodes, path
        assert len(order) == len(nodes), path


def test_bad_nodes(tinygrad):
    with pytest.raises(ExportError, match="last node is its SINK"):
        import_ast([["CONST", "f32", 1.0, []]])
    with pytest.raises(ExportError, match="not a kernel JSON dtype"):
        import_ast([["CONST", "f31", 1.0, []]])

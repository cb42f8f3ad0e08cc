"""Tensor graphs from Python: import, kernelize (tinygrad's kernels and order), run whole
on cpu and sim, and errors."""
import json
import os

import numpy as np
import pytest

import uop_mlir

DTYPES = {"bool": np.bool_, "i8": np.int8, "u8": np.uint8, "i16": np.int16, "u16": np.uint16,
          "i32": np.int32, "u32": np.uint32, "i64": np.int64, "u64": np.uint64,
          "f16": np.float16, "f32": np.float32, "f64": np.float64}


def case_inputs(graphs, name):
    """The case's JSON and its input buffers by number."""
    folder = os.path.join(graphs, name)
    case = json.load(open(os.path.join(folder, "case.json")))
    inputs = {b["num"]: np.fromfile(os.path.join(folder, b["input"]), DTYPES[b["dtype"]])
              for b in case["buffers"] if b["input"]}
    return case, inputs


def expected(graphs, name, case, i):
    out = case["outputs"][i]
    data = np.fromfile(os.path.join(graphs, name, out["file"]), DTYPES[out["dtype"]])
    return data.reshape(out["shape"])


@pytest.mark.parametrize("target", ["cpu", "sim"])
@pytest.mark.parametrize("name", ["hw_attention", "hw_layernorm_affine", "hw_assign_chain", "hw_rand", "hw_softmax"])
def test_graph_runs_like_tinygrad(graphs, name, target):
    case, inputs = case_inputs(graphs, name)
    m = uop_mlir.import_tinygrad_graph(json.dumps(case), filename=name)
    flags = {k: v for k, v in case["flags"].items()}
    schedule = uop_mlir.kernelize(m, **flags)
    assert schedule.num_kernels == case["tinygrad_kernels"]
    results = schedule.run(inputs, target=target)
    assert len(results) == len(case["outputs"])
    for i, got in enumerate(results):
        want = expected(graphs, name, case, i)
        assert got.shape == want.shape and got.dtype == want.dtype
        if np.issubdtype(want.dtype, np.floating):
            np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
        else:
            np.testing.assert_array_equal(got, want)


def test_schedule_is_tinygrads(graphs):
    case, _ = case_inputs(graphs, "hw_attention")
    schedule = uop_mlir.kernelize(uop_mlir.import_tinygrad_graph(case))
    items = schedule.export()
    assert [x["globals"] for x in items] == [x["globals"] for x in case["schedule"]]
    assert all(x["kind"] == "kernel" for x in items)
    # The graph's buffers and the result buffer are the arguments; the
    # intermediates share one planned arena.
    assert [a["unique"] for a in schedule.arguments] == [0, 1, 2, 7]
    assert schedule.outputs == [{"shape": (1, 2, 8, 16), "dtype": np.float32}]
    assert "memref.view" in str(schedule.module)


def test_kernelize_flags(graphs):
    # FUSE_ARANGE changes tinygrad's schedule for this case: one kernel, not two.
    case, _ = case_inputs(graphs, "ts_arange_sum")
    assert case["flags"]["FUSE_ARANGE"] == 1 and case["tinygrad_kernels"] == 1
    fused = uop_mlir.kernelize(uop_mlir.import_tinygrad_graph(case), FUSE_ARANGE=1)
    plain = uop_mlir.kernelize(uop_mlir.import_tinygrad_graph(case))
    assert fused.num_kernels == 1 and plain.num_kernels == 2
    with pytest.raises(ValueError, match="unknown kernelize flag"):
        uop_mlir.kernelize(uop_mlir.import_tinygrad_graph(case), FUSE_EVERYTHING=1)


def test_bad_graph_is_an_error():
    with pytest.raises(uop_mlir.Error) as e:
        uop_mlir.import_tinygrad_graph('{"graph": [["UNIQUE", "void", 0, []], ["FROB", "void", null, []]]}',
                                       filename="bad.json")
    assert any("bad.json:1:" in d and 'unknown op "FROB"' in d for d in e.value.diagnostics)


def test_wrong_inputs_are_errors(graphs):
    case, inputs = case_inputs(graphs, "hw_attention")
    schedule = uop_mlir.kernelize(uop_mlir.import_tinygrad_graph(case))
    with pytest.raises(ValueError, match="no buffers"):
        schedule.run({99: np.zeros(4, np.float32)})
    with pytest.raises(ValueError, match="buffer 0 is float32"):
        schedule.run({0: np.zeros(3, np.float32)})

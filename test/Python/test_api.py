"""The uop_mlir package's API: modules, import, pipelines, compiling and running."""
import json
import os

import numpy as np
import pytest

import uop_mlir

SCALE = """
uop.kernel @scale {
  %out = uop.define_global 0 : !uop.ptr<f32, 16>
  %in = uop.define_global 1 : !uop.ptr<f32, 16>
  %vo = uop.view %out [#uop.view<shape = [16], strides = [1]>] : !uop.ptr<f32, 16>
  %vi = uop.view %in [#uop.view<shape = [16], strides = [1]>] : !uop.ptr<f32, 16>
  %x = uop.load %vi : !uop.ptr<f32, 16>
  %two = uop.const 2.0 : f32
  %y = uop.mul %x, %two : f32
  %s = uop.store %vo, %y : !uop.ptr<f32, 16>
  uop.sink %s
}
"""


def load(corpus, case, k=0):
    path = os.path.join(corpus, case, f"k{k}.json")
    spec = json.load(open(path))
    arrays = []
    for b in spec["buffers"]:
        dt = np.dtype({"f32": np.float32, "f16": np.float16, "i32": np.int32}[b["dtype"]])
        data = (np.fromfile(os.path.join(corpus, case, b["input"]), dt) if b["input"]
                else np.zeros(b["size"], dt))
        expected = (np.fromfile(os.path.join(corpus, case, b["expected"]), dt) if b["expected"]
                    else None)
        arrays.append((data, expected))
    return path, spec, arrays


def test_version():
    assert uop_mlir.__version__.count(".") == 2


def test_parse_print_roundtrip():
    m = uop_mlir.parse(SCALE)
    assert m.kernels == ["scale"]
    again = uop_mlir.parse(str(m))
    assert str(again) == str(m)
    assert m.verify()


def test_parse_error_has_location():
    with pytest.raises(uop_mlir.Error) as e:
        uop_mlir.parse("uop.kernel @k {\n  %0 = uop.nonsense\n}")
    assert e.value.diagnostics
    assert e.value.diagnostics[0].startswith("-:2:")
    assert "error:" in e.value.diagnostics[0]


def test_verifier_error():
    with pytest.raises(uop_mlir.Error) as e:
        uop_mlir.parse("uop.kernel @bad { %0 = uop.define_global 0 : !uop.ptr<f32, 4, local> uop.sink }")
    assert "must be a global pointer" in str(e.value)


@pytest.mark.parametrize("target", ["cpu", "sim"])
def test_run_hand_written_kernel(target):
    k = uop_mlir.compile(uop_mlir.parse(SCALE), target)
    x = np.arange(16, dtype=np.float32)
    out, back = k(np.zeros(16, np.float32), x)
    assert np.array_equal(out, 2 * x)
    assert np.array_equal(back, x)
    assert k.num_buffers == 2
    assert k.applied_opts  # the heuristic upcasts
    if target == "cpu":
        assert k.launch_dims is None
    else:
        grid, block = k.launch_dims
        assert grid[0] * block[0] * 4 == 16 or grid[0] * block[0] == 16


@pytest.mark.parametrize("target", ["cpu", "sim"])
def test_corpus_kernel_matches_tinygrad(corpus, target):
    path, spec, arrays = load(corpus, "matmul_f32")
    m = uop_mlir.import_tinygrad(open(path).read(), filename=path)
    k = uop_mlir.compile(m, target)
    outs = k(*[a for a, _ in arrays])
    for out, (_, expected) in zip(outs, arrays):
        if expected is not None:
            np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-4)


def test_explicit_opts_and_noopt(corpus):
    path, _, _ = load(corpus, "matmul_f32")
    m = uop_mlir.import_tinygrad(open(path).read())
    assert uop_mlir.compile(m, "sim", opts="LOCAL:0:4,UPCAST:1:4").applied_opts == "LOCAL:0:4,UPCAST:1:4"
    assert uop_mlir.compile(m, "cpu", heuristic=False).applied_opts == ""


def test_tensor_core_schedule(corpus):
    """tc_schedule picks the heuristic's tensor-core schedule: staged (cp.async, ldmatrix)
    by default, tinygrad's on request; both compute tinygrad's result on the simulator."""
    path, spec, arrays = load(corpus, "matmul_f16")
    m = uop_mlir.import_tinygrad(open(path).read(), filename=path)
    (staged,) = uop_mlir.compile(m, "ptx")
    (tinygrad,) = uop_mlir.compile(m, "ptx", tc_schedule="tinygrad")
    assert "ldmatrix" in staged.ptx and "cp.async" in staged.ptx
    assert "ldmatrix" not in tinygrad.ptx and "mma.sync" in tinygrad.ptx
    for schedule in ("auto", "tinygrad"):
        k = uop_mlir.compile(m, "sim", tc_schedule=schedule)
        assert ("STAGE" in k.applied_opts) == (schedule == "auto")
        outs = k(*[a for a, _ in arrays])
        for out, (_, expected) in zip(outs, arrays):
            if expected is not None:
                np.testing.assert_allclose(out, expected, rtol=2e-2, atol=2e-2)
    with pytest.raises(uop_mlir.Error, match="unknown tensor-core schedule 'fast'"):
        uop_mlir.compile(m, "ptx", tc_schedule="fast")


def test_ptx(corpus):
    path, _, _ = load(corpus, "add")
    m = uop_mlir.import_tinygrad(json.load(open(path)))
    (k,) = uop_mlir.compile(m, "ptx", chip="sm_90")
    assert (k.name, k.chip) == ("add_k0", "sm_90")
    assert ".target sm_90" in k.ptx and ".visible .entry add_k0(" in k.ptx
    assert k.grid[0] * k.block[0] >= 1 and k.grid[1:] == (1, 1)
    assert m.kernels == ["add_k0"]  # compiled on a copy


VECTOR_SIN = """module {
  uop.kernel @vector_sin {
    %z = uop.const 0 : si32
    %g = uop.define_global 0 : !uop.ptr<f32, 1>
    %p = uop.index %g[%z] : !uop.ptr<f32, 1>, si32
    %x = uop.load %p : !uop.ptr<f32, 1>
    %v = uop.vectorize %x, %x : f32
    %s = uop.sin %v : vector<2xf32>
    %e = uop.gep %s[0] : vector<2xf32>
    %st = uop.store %p, %e : !uop.ptr<f32, 1>
    uop.sink %st
  }
}"""


def test_ptx_compiler_reused(corpus):
    """A context keeps one PTX compiler per options: compiling kernel after kernel with it
    gives the PTX a fresh context gives, whatever it compiled before."""
    kernels = [open(load(corpus, case)[0]).read() for case in ("add", "softmax", "matmul_f16")]

    def ptx(text, context, **options):
        (k,) = uop_mlir.compile(uop_mlir.import_tinygrad(text, context=context), "ptx", **options)
        return k.ptx

    fresh = [ptx(text, uop_mlir.Context()) for text in kernels]
    ctx = uop_mlir.Context()
    for _ in range(2):
        assert [ptx(text, ctx) for text in kernels] == fresh
    # Other options are another compiler; the first is still there.
    assert ".target sm_90" in ptx(kernels[0], ctx, chip="sm_90")
    assert ptx(kernels[0], ctx) == fresh[0]
    # Options that cannot compile make no compiler, each time.
    for _ in range(2):
        with pytest.raises(uop_mlir.Error, match="unknown GPU arch 'sm_1'"):
            ptx(kernels[0], ctx, chip="sm_1")
    # A kernel that fails leaves the compiler as it was.
    with pytest.raises(uop_mlir.Error, match="vector transcendentals are not supported"):
        uop_mlir.compile(uop_mlir.parse(VECTOR_SIN, context=ctx), "ptx")
    assert ptx(kernels[1], ctx) == fresh[1]
    # The context keeps the most recently used compilers; more options than it keeps
    # (each kernel's own opts, say) evict the oldest, which come back the same.
    for opts in ["UPCAST:0:4", "UPCAST:0:2"] + [f"LOCAL:0:{2 ** i}" for i in range(1, 8)]:
        (k,) = uop_mlir.compile(uop_mlir.import_tinygrad(kernels[0], context=ctx), "ptx",
                                opts=opts)
        assert ".entry add_k0(" in k.ptx
    assert [ptx(text, ctx) for text in kernels] == fresh
    direct = ptx(kernels[1], ctx, ptx_printer="direct")
    assert "Generated by uop-mlir's PTX printer" in direct and direct != fresh[1]
    with pytest.raises(uop_mlir.Error, match="printer"):
        ptx(kernels[1], ctx, ptx_printer="nvcc")


def test_host_llvm_ir():
    ir = uop_mlir.compile(uop_mlir.parse(SCALE), "llvm", check_accesses=False)
    assert "define void @scale(ptr" in ir


def test_pipeline_by_text():
    m = uop_mlir.parse(SCALE)
    m.run_pipeline("builtin.module(uop.kernel(uop-optimize{opts=UPCAST:0:4},uop-lower))")
    assert "uop.range" in str(m)
    with pytest.raises(uop_mlir.Error) as e:
        m.run_pipeline("builtin.module(no-such-pass)")
    assert "no-such-pass" in str(e.value)


def test_import_error_located():
    with pytest.raises(uop_mlir.Error) as e:
        uop_mlir.import_tinygrad('{"nodes": [["SINK", "void", null, [3]]]}', filename="k.json")
    assert e.value.diagnostics[0].startswith("k.json:1:")


def test_export_roundtrip(corpus):
    path, spec, _ = load(corpus, "softmax")
    m = uop_mlir.import_tinygrad(open(path).read())
    out = json.loads(m.export_tinygrad(m.kernels[0]))
    assert [n[0] for n in out["nodes"]] == [n[0] for n in spec["nodes"]]


def test_run_errors():
    k = uop_mlir.compile(uop_mlir.parse(SCALE), "cpu")
    with pytest.raises(uop_mlir.Error, match="takes 2 buffers"):
        k(np.zeros(16, np.float32))
    with pytest.raises(uop_mlir.Error, match="buffer 1 has 16 bytes"):
        k(np.zeros(16, np.float32), np.zeros(4, np.float32))
    with pytest.raises(uop_mlir.Error, match="unknown target 'tpu'"):
        uop_mlir.compile(uop_mlir.parse(SCALE), "tpu")
    with pytest.raises(uop_mlir.Error, match="unknown GPU arch 'sm_1'"):
        uop_mlir.compile(uop_mlir.parse(SCALE), "ptx", chip="sm_1")
    m = uop_mlir.parse(SCALE + SCALE.replace("@scale", "@scale2"))
    with pytest.raises(uop_mlir.Error, match="name one"):
        uop_mlir.compile(m, "cpu")
    assert uop_mlir.compile(m, "cpu", kernel="scale2").name == "scale2"


def test_view_past_its_buffer_is_refused():
    bad = SCALE.replace("%vi = uop.view %in [#uop.view<shape = [16], strides = [1]>]",
                        "%vi = uop.view %in [#uop.view<shape = [16], strides = [1], offset = 8>]")
    assert bad != SCALE
    with pytest.raises(uop_mlir.Error, match="reaches element 23 of a buffer of 16 elements") as e:
        uop_mlir.parse(bad)
    assert e.value.diagnostics[0].startswith("-:6:")


def test_chip_for_compute_capability():
    ctx = uop_mlir.default_context()
    assert ctx.chip_for_compute_capability(8, 9) == "sm_89"
    assert ctx.chip_for_compute_capability(9, 0) == "sm_90"
    assert ctx.chip_for_compute_capability(5, 0) == ""


def python_blocks(path):
    text = open(path).read()
    return [b.split("```", 1)[0] for b in text.split("```python\n")[1:]]


@pytest.mark.parametrize("doc", ["README.md", "docs/python.md"])
def test_documented_example_runs(corpus, doc, capsys, monkeypatch):
    """The five-line example of the README and docs/python.md, run from the project root
    (its path to ../shared is relative to it)."""
    root = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
    (block,) = [b for b in python_blocks(os.path.join(root, doc)) if "import numpy" in b]
    assert len(block.strip().splitlines()) == 5
    monkeypatch.chdir(root)
    exec(compile(block, doc, "exec"), {})
    printed = capsys.readouterr().out
    assert printed.startswith("[2. 2. 2. 2.] ")
    assert "(" in printed  # the PTX kernel's grid


KV_ROWS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Target", "Tinygrad",
                       "Inputs", "kv_rows.json")


@pytest.mark.parametrize("target", ["cpu", "sim"])
def test_symbolic_kernel(target):
    """kv_rows: out[i] = 2 * sum(cache[i]) for the first n rows, n bound at each call."""
    m = uop_mlir.import_tinygrad(open(KV_ROWS).read())
    k = uop_mlir.compile(m, target, chip="sm_80" if target == "sim" else "")
    assert k.variables == [("n", 1, 15)]
    cache = np.arange(128, dtype=np.float32)
    for n in (1, 3, 15):
        out, _ = k(np.zeros(15, np.float32), cache, n=n)
        want = np.zeros(15, np.float32)
        want[:n] = cache.reshape(16, 8)[:n].sum(axis=1) * 2
        np.testing.assert_array_equal(out, want)
    with pytest.raises(uop_mlir.Error, match="missing n"):
        k(np.zeros(15, np.float32), cache)
    with pytest.raises(uop_mlir.Error) as e:
        k(np.zeros(15, np.float32), cache, n=16)
    assert "variable n = 16 is outside its range [1, 15]" in "\n".join(e.value.diagnostics)


def test_symbolic_ptx():
    (k,) = uop_mlir.compile(uop_mlir.import_tinygrad(open(KV_ROWS).read()), "ptx", chip="sm_80")
    assert k.variables == [("n", 1, 15)]
    assert k.grid == (15, 1, 1)  # the bound
    assert k.symbolic_sizes == [(0, 0, [("n", 1)])]
    assert k.launch_dims(n=3) == ((3, 1, 1), (1, 1, 1))
    assert ".param .u32 kv_rows_param_2" in k.ptx
    with pytest.raises(uop_mlir.Error) as e:
        k.launch_dims(n=0)
    assert "variable n = 0 is outside its range [1, 15]" in "\n".join(e.value.diagnostics)


def test_tensor_maps_ptx():
    # GPU-level kernels that copy with TMA (tensor-copy.test's): each PTXKernel says what
    # cuTensorMapEncodeTiled needs for the maps it takes, innermost dimension first.
    path = os.path.join(os.path.dirname(__file__), "..", "Runtime", "Sim", "Inputs", "tensor-copy.mlir")
    kernels = {k.name: k for k in uop_mlir.compile(uop_mlir.parse(open(path).read()), "ptx", chip="sm_90a")}
    assert kernels["sw128_f32_2d"].tensor_maps == [
        dict(buffer=1, element="f32", sizes=[40, 20], strides=[160], box=[32, 8], swizzle=128)]
    assert kernels["sw64_f16_3d"].tensor_maps == [
        dict(buffer=1, element="f16", sizes=[32, 6, 4], strides=[64, 384], box=[32, 4, 2], swizzle=64)]
    assert kernels["none_f32_1d"].tensor_maps == [
        dict(buffer=1, element="f32", sizes=[100], strides=[], box=[16], swizzle=0)]
    (plain,) = uop_mlir.compile(uop_mlir.parse(SCALE), "ptx", chip="sm_80")
    assert plain.tensor_maps == []


# x // d and x % d as uop-decompose-math rewrites them: for x in
# [0, 2^31 - 1], shifts and masks for 2 and 8, fast_idiv's products for 3
# (in si32's 64-bit product) and 7 and 1000 (in si64, cast); for x in
# [-1000, 1000], the shift after tinygrad's x + (x < 0 ? d - 1 : 0) for 2 and
# 8, and 3's division as it was. C's truncation, at the ranges' ends.
DIVISIONS = [((0, 2**31 - 1), [2, 8, 3, 7, 1000],
              [0, 1, 6, 7, 999, 1000, 2**31 - 1000, 2**31 - 8, 2**31 - 2, 2**31 - 1]),
             ((-1000, 1000), [2, 8, 3], [-1000, -999, -9, -8, -7, -1, 0, 1, 7, 8, 1000])]


def division_kernel(lo, hi, divisors):
    lines = ["uop.kernel @divide {", f'  %x = uop.define_var "x" [{lo}, {hi}] : si32']
    stores = []
    for j, d in enumerate(divisors):
        for k, op in enumerate(["idiv", "mod"]):
            b = 2 * j + k
            lines += [f"  %g{b} = uop.define_global {b} : !uop.ptr<si32, 1>",
                      f"  %v{b} = uop.view %g{b} [#uop.view<shape = [1], strides = [0]>]"
                      " : !uop.ptr<si32, 1>",
                      f"  %c{b} = uop.const {d} : si32",
                      f"  %r{b} = uop.{op} %x, %c{b} : si32",
                      f"  %s{b} = uop.store %v{b}, %r{b} : !uop.ptr<si32, 1>"]
            stores.append(f"%s{b}")
    return "\n".join(lines + ["  uop.sink " + ", ".join(stores), "}"])


def c_division(x, d):
    q = abs(x) // d * (-1 if x < 0 else 1)
    return q, x - q * d


@pytest.mark.parametrize("target", ["cpu", "sim"])
@pytest.mark.parametrize("case", range(len(DIVISIONS)))
def test_division_by_constants(target, case):
    (lo, hi), divisors, xs = DIVISIONS[case]
    k = uop_mlir.compile(uop_mlir.parse(division_kernel(lo, hi, divisors)), target,
                         chip="sm_80" if target == "sim" else "")
    for x in xs:
        outs = k(*[np.zeros(1, np.int32) for _ in range(2 * len(divisors))], x=x)
        assert [int(o[0]) for o in outs] == [v for d in divisors for v in c_division(x, d)], x


@pytest.mark.parametrize("printer", ["llvm", "direct"])
def test_division_by_constants_ptx(printer):
    (lo, hi), divisors, _ = DIVISIONS[0]
    (k,) = uop_mlir.compile(uop_mlir.parse(division_kernel(lo, hi, divisors)), "ptx",
                            chip="sm_80", ptx_printer=printer)
    body = [line.split()[0] for line in k.ptx.splitlines() if line.startswith("\t")]
    assert not [op for op in body if op.startswith(("div.", "rem."))]
    assert "shr.s64" in body  # the product of 7 and of 1000, in 64 bits

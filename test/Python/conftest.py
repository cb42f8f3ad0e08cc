"""pytest set-up for the uop_mlir package's tests (run by pytest.test through lit, or
by hand: PYTHONPATH=build/python_packages python3 -m pytest test/Python).

The tinygrad tests need tinygrad at ../shared/tinygrad (or $TINYGRAD_PATH): without
it they fail and say so; they are never skipped. tinygrad runs on its CPU device,
compiling its own C with clang-22 (CC), as the corpus was made."""
import os
import shutil
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
SHARED = os.path.normpath(os.path.join(ROOT, "..", "shared"))
TINYGRAD = os.environ.get("TINYGRAD_PATH", os.path.join(SHARED, "tinygrad"))
CORPUS = os.path.join(SHARED, "corpus")
GRAPHS = os.path.join(SHARED, "graphs")

# In a sanitized build, the ASan runtime preloaded for this interpreter (lit.cfg.py)
# goes to the Python programs the tests start (PRELOAD), not to clang or ptxas.
PRELOAD = os.environ.pop("LD_PRELOAD", None)

os.environ.setdefault("CPU", "1")
os.environ.setdefault("CC", "clang-22")
# tinygrad compiles every kernel afresh (no disk cache): its compile time is measured.
os.environ.setdefault("CACHELEVEL", "0")


@pytest.fixture(scope="session")
def corpus():
    if not os.path.isfile(os.path.join(CORPUS, "index.json")):
        pytest.fail(f"the kernel corpus is missing at {CORPUS} (../shared beside the project)")
    return CORPUS


@pytest.fixture(scope="session")
def graphs():
    if not os.path.isfile(os.path.join(GRAPHS, "index.json")):
        pytest.fail(f"the graph cases are missing at {GRAPHS} (../shared beside the project)")
    return GRAPHS


@pytest.fixture(scope="session")
def tinygrad():
    if not os.path.isfile(os.path.join(TINYGRAD, "tinygrad", "__init__.py")):
        pytest.fail(f"tinygrad is missing at {TINYGRAD} (../shared/tinygrad beside the project, "
                    "or $TINYGRAD_PATH): the tinygrad backend tests cannot run")
    if TINYGRAD not in sys.path:
        sys.path.insert(0, TINYGRAD)
    import tinygrad as tg
    return tg


def ptxas_path():
    """NVIDIA's assembler (PATH, then the CUDA toolkit's usual place); a test that needs
    it fails, saying so, where it is missing."""
    path = shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
    if not os.access(path, os.X_OK):
        pytest.fail("ptxas not found (PATH, /usr/local/cuda/bin): cannot check the PTX")
    return path

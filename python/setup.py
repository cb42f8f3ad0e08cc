"""pip install for the uop_mlir package, from the source tree, offline:

    bash scripts/build.sh                  # or any configured build: UOP_MLIR_BUILD_DIR=...
    python3 -m venv --system-site-packages venv
    venv/bin/pip install --no-build-isolation --no-index ./python

The native parts come from uop-mlir's CMake build (ninja builds _uop_mlir and
libUOpCAPI.so there, configuring ./build with scripts/build.sh if there is none);
this script copies them beside the Python modules. libUOpCAPI.so finds Debian's
libMLIR/libLLVM where it was built against them (/usr/lib/llvm-22/lib).
"""
import os
import re
import shutil
import subprocess

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BUILD = os.path.abspath(os.environ.get("UOP_MLIR_BUILD_DIR", os.path.join(ROOT, "build")))
# setuptools' own build/ and egg-info go into the CMake build, not the source tree.
SCRATCH = os.path.join(BUILD, "python-setup")


def version():
    text = open(os.path.join(ROOT, "CMakeLists.txt")).read()
    return re.search(r"project\(uop-mlir VERSION ([0-9.]+)", text).group(1)


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build = BUILD
        if not os.path.isfile(os.path.join(build, "build.ninja")):
            subprocess.check_call(["bash", os.path.join(ROOT, "scripts", "build.sh"), "_uop_mlir"],
                                  env=dict(os.environ, UOP_BUILD_DIR=build))
        subprocess.check_call(["ninja", "-C", build, "_uop_mlir", "UOpCAPI"])
        target = self.get_ext_fullpath(ext.name)
        built = os.path.join(build, "python_packages", "uop_mlir", os.path.basename(target))
        if not os.path.isfile(built):
            raise RuntimeError(f"{built} was not built: the build in {build} is for another "
                               "Python, or has UOP_ENABLE_PYTHON off")
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copy2(built, target)
        # The extension looks for it beside itself first ($ORIGIN).
        shutil.copy2(os.path.join(build, "lib", "libUOpCAPI.so"), os.path.dirname(target))


os.makedirs(SCRATCH, exist_ok=True)
setup(
    name="uop-mlir",
    version=version(),
    description="tinygrad's UOp IR compiled through MLIR: kernels to PTX, CPU and a GPU simulator",
    packages=["uop_mlir", "uop_mlir.tinygrad"],
    ext_modules=[Extension("uop_mlir._uop_mlir", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    python_requires=">=3.9",
    options={"build": {"build_base": SCRATCH}, "egg_info": {"egg_base": SCRATCH}},
)

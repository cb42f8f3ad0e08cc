# -*- Python -*-
import os
import shutil
import sys

import lit.formats
from lit.llvm import llvm_config

config.name = "UOP"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "external", "external-c", "Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.uop_obj_root, "test")

config.substitutions.append(("%uop_src_root", config.uop_src_root))
config.substitutions.append(("%uop_obj_root", config.uop_obj_root))
config.substitutions.append(("%mlir_dir", config.mlir_dir))
# Longer names first: lit substitutes in order, and %cmake is a prefix.
config.substitutions.append(("%cmake_generator", '"%s"' % config.cmake_generator))
config.substitutions.append(("%cmake", config.cmake_command))
config.substitutions.append(("%cxx_flags", '"%s"' % config.consumer_cxx_flags))
config.substitutions.append(("%cxx", config.cxx_compiler))
config.substitutions.append(("%cc", config.c_compiler))
# The corpus lives beside the project (../shared/corpus); tests fail loudly without it.
config.substitutions.append(("%corpus", os.path.join(os.path.dirname(config.uop_src_root), "shared", "corpus")))
# The tensor-graph cases for kernelize (../shared/graphs).
config.substitutions.append(("%graphs", os.path.join(os.path.dirname(config.uop_src_root), "shared", "graphs")))
# tinygrad itself at the corpus's commit (../shared/tinygrad), for tests that read its source.
config.substitutions.append(("%tinygrad", os.path.join(os.path.dirname(config.uop_src_root), "shared", "tinygrad")))
# A sanitized build's uop_mlir package (instrumented libUOpCAPI.so) loads into
# an uninstrumented python3 only with the shared ASan runtime preloaded (it
# carries the UBSan and coverage hooks too): `env %asan_preload python3 ...`.
# Only Python gets it: the sanitized tools link their runtime statically.
asan_preload = ""
if "-fsanitize=address" in config.consumer_cxx_flags:
    # Tests whose cost is simulating full-size kernels (9x slower under ASan)
    # and that exercise no code the smaller ones do not are UNSUPPORTED here.
    config.available_features.add("sanitized")
    import subprocess
    runtime = subprocess.check_output([config.cxx_compiler, "-print-file-name=libclang_rt.asan-x86_64.so"],
                                      text=True).strip()
    asan_preload = "LD_PRELOAD=" + runtime
config.substitutions.append(("%asan_preload", asan_preload))
# The interpreter the uop_mlir package was built for (Debian's python3).
config.substitutions.append(("%python", config.python_executable or sys.executable))
# The CUDA driver stand-in (test/Runtime/CUDA/standin_driver.cpp), for UOP_CUDA_DRIVER.
config.substitutions.append(("%cuda_standin", config.cuda_standin))
config.substitutions.append(("%expect_exit", "%s %s" % (sys.executable, os.path.join(config.uop_src_root, "test", "expect_exit.py"))))

# A build with LLVM_USE_SANITIZE_COVERAGE (scripts/sanitize.sh) links the
# fuzz targets with libFuzzer rather than the replay main.
if config.fuzzing:
    config.available_features.add("fuzzing")

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.add_tool_substitutions(["uop-opt", "uop-translate", "uop-translate-llvm", "uop-run", "uop-json-fuzzer",
                                    "uop-parser-fuzzer", "uop-pipeline-fuzzer", "uop-ptx-fuzzer"],
                                   [config.uop_tools_dir])
llvm_config.add_tool_substitutions(["FileCheck", "not", "count"], [config.llvm_tools_dir])

# NVIDIA's assembler is not a Debian package: PATH, then the CUDA toolkit's
# usual place. A missing ptxas is passed on as a path that does not exist, so
# the tests that need it fail and say so (test/check_ptxas.py).
ptxas = shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
if not os.access(ptxas, os.X_OK):
    lit_config.warning("ptxas not found (PATH, /usr/local/cuda/bin): the PTX assembly tests will fail")
config.substitutions.append(("%ptxas", ptxas))
# libdevice, in the CUDA toolkit: CUDA_HOME or CUDA_PATH if set (lit does not
# pass them on to the tools, so the path is given explicitly), beside the real
# ptxas, then the toolkit's usual place. ptxas on PATH may be a wrapper
# script outside the toolkit (/usr/local/bin/ptxas on the CI machines), so it
# is not the only clue. Missing, it is passed on as the first candidate, a
# path that does not exist, and the tests that link it fail and say so.
def libdevice_candidates():
    roots = [os.environ.get(v) for v in ("CUDA_HOME", "CUDA_PATH")]
    roots.append(os.path.dirname(os.path.dirname(os.path.realpath(ptxas))))
    roots.append("/usr/local/cuda")
    return [os.path.join(r, "nvvm", "libdevice", "libdevice.10.bc") for r in roots if r]
candidates = libdevice_candidates()
libdevice = next((c for c in candidates if os.access(c, os.R_OK)), candidates[0])
if not os.access(libdevice, os.R_OK):
    lit_config.warning(f"libdevice not found ({', '.join(candidates)}): the tests that link it will fail")
config.substitutions.append(("%libdevice", libdevice))

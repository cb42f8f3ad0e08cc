#!/usr/bin/env bash
# Configures (once) and builds uop-mlir in ./build with Ninja, clang-22 and
# ccache, linking the shared libMLIR.so. With UOP_STATIC_LLVM=1 it builds in
# ./build-static instead, linking LLVM's and MLIR's static archives (tools
# that start in milliseconds; no Python package, no C API). Extra arguments
# go to ninja.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
static="${UOP_STATIC_LLVM:-0}"
if [ "$static" = 1 ]; then
  build="${UOP_BUILD_DIR:-$root/build-static}"
  extra=(-DUOP_STATIC_LLVM=ON -DUOP_ENABLE_PYTHON=OFF)
else
  build="${UOP_BUILD_DIR:-$root/build}"
  extra=()
fi

bash "$root/scripts/install-deps.sh"

if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    -DCMAKE_INSTALL_PREFIX="$build/install" "${extra[@]}"
fi
ninja -C "$build" "$@"

#!/usr/bin/env bash
# The README's main job, for now: build uop-opt and take a real tinygrad kernel
# (conv2d from the corpus) through it: parse, verify, print in the custom and
# generic forms, and show that an invalid kernel is rejected with a location.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${UOP_BUILD_DIR:-$root/build}"

bash "$root/scripts/build.sh" uop-opt
opt="$build/bin/uop-opt"

echo "== docs/examples/conv2d.mlir, parsed, verified and printed by uop-opt"
"$opt" "$root/docs/examples/conv2d.mlir"
echo "== the same kernel in MLIR's generic form"
"$opt" --mlir-print-op-generic "$root/docs/examples/conv2d.mlir"
echo "== an invalid kernel (REDUCE_AXIS over axis 8 of a rank-8 shape) is rejected"
sed 's/\[5, 6, 7\]/[5, 6, 8]/' "$root/docs/examples/conv2d.mlir" > "$build/conv2d-bad.mlir"
if "$opt" "$build/conv2d-bad.mlir" > /dev/null; then
  echo "error: the invalid kernel was accepted" >&2
  exit 1
fi
echo "== done"

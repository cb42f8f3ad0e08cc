#!/usr/bin/env bash
# The README's main job, for now: build the tools and take a real tinygrad
# kernel from the corpus (conv2d) through them: import tinygrad's JSON, verify
# and print it with uop-opt, lower it (uop-lower) and place it in loops
# (convert-uop-to-scf), compile it for the CPU and run it on the corpus
# inputs, comparing with tinygrad's outputs (uop-run), compile it to PTX for
# sm_80 and assemble it with ptxas where NVIDIA's toolkit is installed, run
# the GPU code on the best target there is (a CUDA GPU through the driver,
# else the SIMT simulator: uop-run --target=auto) against tinygrad's outputs,
# run a tensor-core matmul with its operands staged in shared memory on the
# simulator with its counters and a roofline estimate,
# export the AST back to JSON, and show that a broken variant is rejected
# with a location. Then a whole program: tinygrad's tensor graph for
# attention (../shared/graphs) kernelized into tinygrad's kernels and
# schedule, run on the best target and compared with tinygrad's results.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# The tools linked statically (./build-static): uop-translate starts in
# about 13 ms CPU rather than the 75-80 it takes the dynamic loader to
# resolve libLLVM.so and libMLIR.so (measured 2026-11-27, docs/benchmarks.md).
export UOP_STATIC_LLVM=1
build="${UOP_BUILD_DIR:-$root/build-static}"
corpus="$root/../shared/corpus"

bash "$root/scripts/build.sh" uop-opt uop-translate uop-run
opt="$build/bin/uop-opt"
translate="$build/bin/uop-translate"
run="$build/bin/uop-run"

kernel="$corpus/conv2d/k0.json"
if [ ! -f "$kernel" ]; then
  echo "error: $kernel not found: clone with tinygrad's corpus in ../shared beside the project" >&2
  exit 2
fi

echo "== import $kernel (tinygrad's kernel AST) into the uop dialect"
"$translate" --import-tinygrad "$kernel" -o "$build/conv2d.mlir"
"$opt" "$build/conv2d.mlir"
echo "== lowered by uop-lower: views become index arithmetic over ranges"
"$opt" --uop-lower "$build/conv2d.mlir"
echo "== placed in loops by convert-uop-to-scf (first 40 lines)"
"$opt" --uop-lower --convert-uop-to-scf --canonicalize --cse "$build/conv2d.mlir" > "$build/conv2d-loops.mlir"
head -n 40 "$build/conv2d-loops.mlir"
echo "   ..."
echo "== compiled for the CPU (uop-to-llvm + LLVM JIT) and run on the corpus inputs"
"$run" "$kernel" --target=cpu --timing
echo "== compiled to PTX for sm_80 (uop-to-ptx: gpu and nvvm dialects, LLVM's NVPTX backend; first 45 lines)"
"$translate" --export-ptx "$kernel" --chip=sm_80 -o "$build/conv2d.ptx"
head -n 45 "$build/conv2d.ptx"
echo "   ... ($(wc -l < "$build/conv2d.ptx") lines in $build/conv2d.ptx)"
ptxas="$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)"
if [ -x "$ptxas" ]; then
  echo "== assembled by NVIDIA's ptxas for sm_80"
  "$ptxas" -arch=sm_80 -v "$build/conv2d.ptx" -o "$build/conv2d.cubin"
else
  echo "== ptxas not found (NVIDIA's CUDA toolkit is not a Debian package): PTX not assembled here"
fi
echo "== the GPU code run on the best available target (a CUDA GPU, else the SIMT simulator)"
"$run" "$kernel" --target=auto --timing
echo "== tensor cores: tinygrad's f16 matmul with its operands staged in shared memory (cp.async, ldmatrix),"
echo "   on the simulator with what it counted per warp and a roofline estimate of its time on an A100"
"$run" "$corpus/matmul_f16/k0.json" --target=sim --counters --estimate=A100
echo "== export the AST back to tinygrad's JSON"
"$translate" --export-tinygrad "$build/conv2d.mlir" | head -c 400
echo " ..."
echo "== a broken variant (REDUCE_AXIS over axis 8 of a rank-8 shape) is rejected"
sed 's/\[5, 6, 7\]/[5, 6, 8]/' "$build/conv2d.mlir" > "$build/conv2d-bad.mlir"
if "$opt" "$build/conv2d-bad.mlir" > /dev/null; then
  echo "error: the invalid kernel was accepted" >&2
  exit 1
fi
graph="$root/../shared/graphs/hw_attention/case.json"
if [ -f "$graph" ]; then
  echo "== a whole program: tinygrad's tensor graph for attention, kernelized as tinygrad does (uop-kernelize)"
  "$translate" --import-tinygrad-graph "$graph" -o "$build/attention-graph.mlir"
  "$opt" --uop-kernelize --uop-plan-buffers "$build/attention-graph.mlir" -o "$build/attention.mlir"
  sed -n '/func.func @hw_attention/,/^  }/p' "$build/attention.mlir"
  echo "== ... its 5 kernels compiled and the schedule run on the best target, compared with tinygrad's results"
  "$run" "$graph" --target=auto --timing
else
  echo "== $graph not found: the whole-program step needs ../shared/graphs"
fi
echo "== done"

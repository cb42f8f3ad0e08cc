#!/usr/bin/env bash
# Runs the fuzz targets (tools/fuzzers, docs/fuzzing.md) with libFuzzer in the
# sanitized build of scripts/sanitize.sh, each for SECONDS (default 1200),
# seeded from ../shared's kernels and the test suite's .mlir files, and
# reports each target's executions and findings. libFuzzer runs in fork mode
# and goes on after a finding. Findings (inputs that
# crash, hang, exhaust memory or trip a sanitizer) are left in
# build-sanitize/fuzz/<target>/findings; once fixed, each goes into
# test/Fuzz/Inputs/<target>/ so that every build replays it.
#   scripts/fuzz.sh [SECONDS] [TARGET...]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${UOP_SANITIZE_BUILD_DIR:-$root/build-sanitize}"
shared="$(cd "$root/.." && pwd)/shared"
seconds="${1:-1200}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(uop-json-fuzzer uop-parser-fuzzer uop-pipeline-fuzzer uop-ptx-fuzzer)

bash "$root/scripts/sanitize.sh" --build-only >/dev/null
work="$build/fuzz"
mkdir -p "$work"

# Seeds: the kernels as JSON and as .mlir, and the suite's .mlir split at its
# `// -----` markers (each part is a test on its own).
seeds="$work/seeds"
if [ ! -d "$seeds" ]; then
  mkdir -p "$seeds/json" "$seeds/mlir"
  for f in "$shared"/corpus/*/k*.json "$shared"/corpus-perf/*/k*.json; do
    name="$(basename "$(dirname "$f")")_$(basename "$f" .json)"
    cp "$f" "$seeds/json/$name.json"
    "$root/build/bin/uop-translate" --import-tinygrad "$f" -o "$seeds/mlir/$name.mlir" 2>/dev/null ||
      "$build/bin/uop-translate" --import-tinygrad "$f" -o "$seeds/mlir/$name.mlir"
  done
  /usr/bin/python3 - "$root/test" "$seeds/mlir" <<'PY'
import pathlib, sys
src, dst = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
for f in sorted(src.rglob("*.mlir")):
    for i, part in enumerate(f.read_text().split("// -----")):
        (dst / f"{f.stem}_{i}.mlir").write_text(part)
PY
  # Dictionaries: the op names of both notations, and the dtypes.
  "$build/bin/uop-translate" --list-tinygrad-ops |
    awk '{print "\"" $1 "\""; if ($2 != "-") print "\"\\\"" $2 "\\\"\""}' > "$work/ops.dict"
  for t in bool i8 u8 i16 u16 i32 u32 i64 u64 f16 bf16 f32 f64 si32 ui32 si64; do
    echo "\"$t\"" >> "$work/ops.dict"
  done
fi

# Our printer's PTX of the same kernels, for sm_80 and sm_90a (uop-ptx-fuzzer).
if [ ! -d "$seeds/ptx" ]; then
  mkdir -p "$seeds/ptx"
  for f in "$shared"/corpus/*/k*.json "$shared"/corpus-perf/*/k*.json; do
    name="$(basename "$(dirname "$f")")_$(basename "$f" .json)"
    for chip in sm_80 sm_90a; do
      args=(--export-ptx --ptx-printer=direct --chip=$chip "$f" -o "$seeds/ptx/$name.$chip.ptx")
      "$root/build/bin/uop-translate" "${args[@]}" 2>/dev/null || "$build/bin/uop-translate" "${args[@]}"
    done
  done
fi

export ASAN_OPTIONS="allow_user_poisoning=0:use_sigaltstack=0:detect_leaks=0" # as scripts/sanitize.sh
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
for t in "${targets[@]}"; do
  case "$t" in
    uop-json-fuzzer) seed_dirs=("$seeds/json") ;;
    uop-parser-fuzzer) seed_dirs=("$seeds/mlir") ;;
    uop-pipeline-fuzzer) seed_dirs=("$seeds/json" "$seeds/mlir") ;;
    uop-ptx-fuzzer) seed_dirs=("$seeds/ptx") ;;
    *) echo "fuzz: unknown target $t" >&2; exit 2 ;;
  esac
  mkdir -p "$work/$t/corpus" "$work/$t/findings"
  log="$work/$t/log.txt"
  set +e
  "$build/bin/$t" "$work/$t/corpus" "${seed_dirs[@]}" -max_total_time="$seconds" \
    -timeout=30 -rss_limit_mb=4096 -max_len=131072 -dict="$work/ops.dict" \
    -artifact_prefix="$work/$t/findings/" -fork=1 -ignore_crashes=1 -ignore_timeouts=1 \
    -ignore_ooms=1 > "$log" 2>&1
  status=$?
  set -e
  # Fork mode's progress lines: "#EXECS: cov: N ft: N corp: N exec/s: N ...".
  execs=$(sed -nE 's/^#([0-9]+): cov:.*/\1/p' "$log" | tail -1)
  cov=$(grep -oE "cov: [0-9]+" "$log" | tail -1)
  # libFuzzer also keeps inputs that ran over 10 s (slow-unit-*): the PTX
  # target's tensor-core kernels can, under the sanitizers. Not findings.
  findings=$(find "$work/$t/findings" -type f ! -name 'slow-unit-*' | wc -l)
  slow=$(find "$work/$t/findings" -type f -name 'slow-unit-*' | wc -l)
  echo "$t: ${seconds} s, ${execs:-?} executions, ${cov:-cov: ?}, $findings findings, $slow slow inputs (exit $status)"
done

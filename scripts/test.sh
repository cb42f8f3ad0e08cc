#!/usr/bin/env bash
# The README's test command: installs what is missing, builds everything and
# runs the whole suite through ctest (which runs the lit suite, check-uop).
# Then runs the suite again under ASan and UBSan (scripts/sanitize.sh). Ends
# with the summaries of the corpus runs (CPU, simulator), of the differential
# suite, of tinygrad run with uop-mlir as its compiler and of the sanitized run, and one line "uop-mlir: N passed, M failed"
# counted from lit's results.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${UOP_BUILD_DIR:-$root/build}"

bash "$root/scripts/build.sh"

log="$build/test-output.log"
summary="$build/test/corpus-cpu-summary.txt"
sim_summary="$build/test/corpus-sim-summary.txt"
diff_summary="$build/test/differential-summary.txt"
tinygrad_summary="$build/test/tinygrad-backend-summary.txt"
rm -f "$summary" "$sim_summary" "$diff_summary" "$tinygrad_summary"
set +e
ctest --test-dir "$build" --output-on-failure -V 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e

# lit's summary, as ctest -V prefixes it: "1:   Passed: 8 (100.00%)".
count() {
  local n=0 x
  for x in $(sed -nE "s/^[0-9]+: +($1) *: +([0-9]+).*/\2/p" "$log"); do n=$((n + x)); done
  echo "$n"
}
passed=$(count 'Passed|Expectedly Failed')
failed=$(count 'Failed|Unresolved|Timed Out|Unexpectedly Passed')
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then
  failed=1 # ctest failed outside lit (e.g. lit could not start)
fi
if [ "$passed" -eq 0 ] && [ "$status" -eq 0 ]; then
  echo "uop-mlir: no test ran" >&2
  status=1
fi
if [ -f "$summary" ]; then
  cat "$summary" # the corpus run on the CPU (test/Runtime/corpus-cpu.test)
else
  echo "corpus on cpu: did not run"
fi
if [ -f "$sim_summary" ]; then
  cat "$sim_summary" # the corpus on the simulator (test/Runtime/Sim/corpus-sim.test)
else
  echo "corpus on sim: did not run"
fi
if [ -f "$diff_summary" ]; then
  cat "$diff_summary" # tinygrad's own kernels on cpu, sim and ptx (test/Differential)
else
  echo "differential suite: did not run"
fi
if [ -f "$tinygrad_summary" ]; then
  cat "$tinygrad_summary" # tinygrad programs with uop-mlir as their compiler (test/Python)
else
  echo "tinygrad backend: did not run"
fi
# The same suite under AddressSanitizer and UndefinedBehaviorSanitizer, in
# ./build-sanitize (scripts/sanitize.sh; about 4 minutes to build and 4 to run
# on 2 cores). Its last line is the summary; a failure shows the log's end.
sanitize_log="$build/sanitize-suite.log"
set +e
bash "$root/scripts/sanitize.sh" > "$sanitize_log" 2>&1
sanitize_status=$?
set -e
if [ "$sanitize_status" -ne 0 ]; then
  tail -n 60 "$sanitize_log"
  status=1
fi
grep -E "^sanitized suite:" "$sanitize_log" || echo "sanitized suite: did not run (exit $sanitize_status; $sanitize_log)"
echo "uop-mlir: $passed passed, $failed failed"
exit "$status"

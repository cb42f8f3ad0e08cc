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
started=$(date +%s)
# CI's time limit; the sanitized suite is left out (and the summary says so)
# when the rest took so long that it would not fit. 0: no limit.
budget="${UOP_TEST_BUDGET:-5400}"

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
# ./build-sanitize (scripts/sanitize.sh; a cold build about 13 minutes on 2
# cores, the suite about 7: a little more than the build and suite above).
# Its last line is the summary; a failure shows the log's end. Left out when
# what ran so far took more than 45% of the budget (a slow machine: the
# sanitized part would not fit), and then the summary says so.
sanitize_log="$build/sanitize-suite.log"
elapsed=$(( $(date +%s) - started ))
not_run=""
if [ "$budget" -gt 0 ] && [ $(( elapsed * 100 )) -gt $(( budget * 45 )) ]; then
  not_run="not run: the build and suite took $elapsed s, and the sanitized build and suite take about as long again, past the $budget s budget (UOP_TEST_BUDGET); run scripts/sanitize.sh"
  echo "sanitized suite: $not_run"
else
  set +e
  bash "$root/scripts/sanitize.sh" > "$sanitize_log" 2>&1
  sanitize_status=$?
  set -e
  if [ "$sanitize_status" -ne 0 ]; then
    tail -n 60 "$sanitize_log"
    status=1
  fi
  grep -E "^sanitized suite:" "$sanitize_log" || echo "sanitized suite: did not run (exit $sanitize_status; $sanitize_log)"
fi
echo "uop-mlir: $passed passed, $failed failed${not_run:+ (sanitized suite not run: time)}"
exit "$status"

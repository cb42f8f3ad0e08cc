#!/usr/bin/env bash
# The whole suite under AddressSanitizer and UndefinedBehaviorSanitizer.
# Builds uop-mlir instrumented in ./build-sanitize (LLVM_USE_SANITIZER, with
# libFuzzer's coverage too, so scripts/fuzz.sh runs from the same build),
# then runs the lit suite with it: a cold instrumented build takes about 13
# minutes on 2 cores, the suite about 7. Tests that only simulate full-size
# kernels (the simulator is about 9x slower under ASan) are UNSUPPORTED
# there (lit's feature `sanitized`; the summary names them), and the
# differential suite checks one kernel in 4. The README's test command (and
# so CI) runs it after the normal suite. `--build-only` stops after the build.
#
# Debian's libMLIR is not instrumented: its inline allocator code compiled
# into our objects poisons memory that the uninstrumented library then
# touches, so user poisoning is off (allow_user_poisoning=0). LLVM installs
# its own alternate signal stack (malloc'd) on every thread; ASan's would
# replace it and, at thread exit, munmap LLVM's instead ("failed to
# deallocate ... error code: 22"), so ASan's is off (use_sigaltstack=0).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${UOP_SANITIZE_BUILD_DIR:-$root/build-sanitize}"

bash "$root/scripts/install-deps.sh" libclang-rt-22-dev
if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
    -DLLVM_USE_SANITIZER="Address;Undefined" -DLLVM_USE_SANITIZE_COVERAGE=ON \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    -DCMAKE_INSTALL_PREFIX="$build/install"
fi
ninja -C "$build"
if [ "${1:-}" = "--build-only" ]; then
  exit 0
fi

export ASAN_OPTIONS="allow_user_poisoning=0:use_sigaltstack=0:detect_leaks=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
start=$(date +%s)
set +e
/usr/lib/llvm-22/bin/lit -sv --show-unsupported "$build/test" 2>&1 | tee "$build/sanitize-output.log"
status=${PIPESTATUS[0]}
set -e
reports=$(grep -cE "ERROR: AddressSanitizer|runtime error:" "$build/sanitize-output.log" || true)
unsupported=$(sed -n '/^Unsupported Tests/,/^$/s/^  UOP :: //p' "$build/sanitize-output.log" | paste -sd, -)
echo "sanitized suite: lit exit $status, $reports sanitizer reports, $(( $(date +%s) - start )) s${unsupported:+ (not run sanitized, full-size simulations: $unsupported)}"
exit "$status"

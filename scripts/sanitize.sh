#!/usr/bin/env bash
# Run the compiled kernels' tests under AddressSanitizer and UndefinedBehaviorSanitizer.
#
# Builds every compiled module of the package with gcc -fsanitize=address,undefined into a fresh
# temporary copy of the package (the normal in-place build is never touched), then runs the
# tests that reach them against that copy, with libasan preloaded into Python. Any
# sanitizer report fails the run: every error aborts the process it happens in (in a child, the
# test that started it fails), and reports are looked for in the output. Self-contained and
# idempotent: it installs nothing, writes nothing in the checkout, and removes its temporary
# directory. Needs gcc with libasan and libubsan, and the test dependencies.
#
#   scripts/sanitize.sh                 # the default selection (a few minutes)
#   scripts/sanitize.sh -k lcs -x       # further pytest arguments are passed on
#
# The default selection leaves out three slow tests that spend their time in pure-Python
# children (the whole pipeline, twice, in fresh processes) or in a long stream of tiny rows; the
# kernels they reach are covered by the other tests. SANITIZE_ALL=1 runs them too.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
python=${PYTHON:-python}

if ! command -v gcc >/dev/null 2>&1; then
    echo "sanitize.sh: gcc is needed and was not found" >&2
    exit 2
fi
libasan=$(gcc -print-file-name=libasan.so)
if [[ "$libasan" != /* || ! -e "$libasan" ]]; then
    echo "sanitize.sh: gcc has no libasan.so (install the libasan package matching gcc)" >&2
    exit 2
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/rouge_plus_sanitize.XXXXXX")
trap 'rm -rf "$work"' EXIT

source scripts/package_copy.sh
echo "sanitize.sh: building the extensions with -fsanitize=address,undefined"
build_package_copy "$work" -std=c11 -O1 -g -Wall -ffp-contract=off \
    -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

export LD_PRELOAD="$libasan"
export ASAN_OPTIONS="detect_leaks=0:halt_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export PYTHONPATH="$work/site${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONDONTWRITEBYTECODE=1
unset ROUGE_PLUS_PURE_PYTHON

# Run from the temporary directory, so that the checkout's own rouge_plus (and its in-place
# build) is not first on sys.path; check which extension is loaded before testing.
cd "$work"
check_copy_is_loaded "$work"

# The tests that reach the compiled modules: the kernels themselves, their limits, memory and
# hash, hostile input, properties, threads, the one-pair scorer; the stemmers, the per-row
# scores, the synonym matching, the tagger, the global level's coefficients and the join's
# candidate pairs against their Python twins.
tests=()
for name in native_kernels kernel_limits kernel_memory vocabulary_hash hostile_input properties \
    parallel threads stemmers compiled_rouge2 cold_start pair_scorer meta_global_level \
    similarity_join; do
    tests+=("$repo/tests/unit/test_$name.py")
done
deselect=()
if [[ "${SANITIZE_ALL:-0}" != 1 ]]; then
    slow="test_new_processes_pure_python_and_hash_seeds_give_identical_results"
    slow+=" or test_whole_pipeline_pure_python_equals_native or test_a_long_stream_of_small_rows"
    deselect=(-k "not ($slow)")
fi
# --capture=sys: what the sanitizers write to file descriptor 2 is shown, not held back by a
# test process that a report then aborts.
status=0
"$python" -m pytest -q -p no:cacheprovider --capture=sys --rootdir "$repo" \
    "${tests[@]}" "${deselect[@]}" "$@" 2>&1 |
    tee "$work/output.log" || status=$?

if grep -Eq "runtime error:|ERROR: AddressSanitizer|UndefinedBehaviorSanitizer" "$work/output.log"
then
    echo "sanitize.sh: sanitizer reports above" >&2
    exit 1
fi
if [[ $status -ne 0 ]]; then
    echo "sanitize.sh: the tests failed under the sanitizers (exit status $status)" >&2
    exit "$status"
fi
echo "sanitize.sh: no sanitizer report"

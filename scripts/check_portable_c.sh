#!/usr/bin/env bash
# Build the compiled modules from standard C11 alone and check that they score as the usual build
# and the pure-Python twins do.
#
# rouge_plus/_compiled/portable.h holds everything the C needs beyond C11: GCC and Clang
# builtins, MSVC intrinsics (the Windows wheels), and plain C. ROUGE_PLUS_PORTABLE_C selects the
# plain C whatever the compiler, so that the code standing in for the MSVC branch, which cannot
# be compiled here, is tested where gcc runs. This builds every compiled module so, with
# -std=c11 -pedantic-errors -Werror=vla (a GNU extension left, or an array MSVC cannot size, is
# an error), into a fresh temporary copy of the package (the normal in-place build is never
# touched), then runs against that copy the tests that compare the compiled modules with their
# Python twins. Self-contained: it installs nothing, writes nothing in the checkout, and removes
# its temporary directory. Needs gcc and the test dependencies.
#
#   scripts/check_portable_c.sh              # the kernels' twins (about a minute on 2 CPUs)
#   CHECK_PORTABLE_ALL=1 scripts/check_portable_c.sh   # every module's twins and rouge_score's
#                                                      # parity on the bench corpus (2-5 minutes)
#   scripts/check_portable_c.sh -k lcs -x    # further pytest arguments are passed on
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
python=${PYTHON:-python}

if ! command -v gcc >/dev/null 2>&1; then
    echo "check_portable_c.sh: gcc is needed and was not found" >&2
    exit 2
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/rouge_plus_portable_c.XXXXXX")
trap 'rm -rf "$work"' EXIT

source scripts/package_copy.sh
echo "check_portable_c.sh: building the extensions from plain C11 (-DROUGE_PLUS_PORTABLE_C)"
build_package_copy "$work" -DROUGE_PLUS_PORTABLE_C -std=c11 -pedantic-errors -Werror=vla -O2 \
    -Wall -ffp-contract=off

export PYTHONPATH="$work/site${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONDONTWRITEBYTECODE=1
unset ROUGE_PLUS_PURE_PYTHON

# Run from the temporary directory, so that the checkout's own rouge_plus (and its in-place
# build) is not first on sys.path.
cd "$work"
check_copy_is_loaded "$work"

# The compiled code that runs the plain C helpers, against its Python twins: every measure kind
# under every multi_ref mode and the one-pair scorer, the kernels (the LCS's bit counts and
# carries, the tokenizer's byte scans), the vocabulary's hash table, the join's bit counts.
# CHECK_PORTABLE_ALL=1 adds the other modules' twins (stemmers, synonyms and tagger, global
# level, counts) and the bench corpus against rouge_score.
tests=()
names=(measure_kinds native_kernels vocabulary_hash pair_scorer similarity_join)
if [[ "${CHECK_PORTABLE_ALL:-0}" == 1 ]]; then
    names+=(stemmers compiled_rouge2 meta_global_level counts)
fi
for name in "${names[@]}"; do
    tests+=("$repo/tests/unit/test_$name.py")
done
if [[ "${CHECK_PORTABLE_ALL:-0}" == 1 ]]; then
    tests+=("$repo/tests/conformance/test_parity_rouge_score.py")
fi
"$python" -m pytest -q -p no:cacheprovider --rootdir "$repo" "${tests[@]}" "$@"
echo "check_portable_c.sh: the plain C11 build equals the Python twins"

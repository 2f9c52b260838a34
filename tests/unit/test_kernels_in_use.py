"""Never silently slow: which kernels score is said to code (``rouge_plus.kernels_in_use()``) and
on the command line (``rouge-plus --version``), and a process running the pure-Python twins
that nobody asked for warns once, at the user's line, naming why and the command that fixes it.

The missing and broken builds are copies of the package without its extensions (a source tree
never built), with a file that is no extension in place of one, run in a child process.
"""

from __future__ import annotations

import json
import os
import re
import runpy
import shutil
import subprocess
import sys
import textwrap
from importlib import machinery
from pathlib import Path

import pytest

import rouge_plus
from rouge_plus import _compiled
from rouge_plus.cli.main import version_text

REPO = Path(__file__).resolve().parents[2]
SCRIPT = """\
import json, warnings
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    import rouge_plus
    first = rouge_plus.score(["the cat sat"], ["the cat sat down"])
    second = rouge_plus.score(["a dog ran"], ["the dog runs"], use_stemmer=True)
    kernels = rouge_plus.kernels_in_use()
print(json.dumps({
    "warnings": [
        {"category": w.category.__name__, "file": w.filename, "line": w.lineno,
         "message": str(w.message)}
        for w in caught
    ],
    "kernels": [str(kernels), kernels.compiled, kernels.reason, kernels.fix],
    "first": first,
}))
"""


def _source_tree_copy(directory: Path) -> Path:
    """A source tree: setup.py, pyproject.toml and the package, without built extensions."""
    for name in ("setup.py", "pyproject.toml"):
        shutil.copy2(REPO / name, directory / name)
    shutil.copytree(
        REPO / "rouge_plus",
        directory / "rouge_plus",
        ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"),
    )
    return directory


def _run(directory: Path, *args: str, **environment: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "ROUGE_PLUS"))}
    done = subprocess.run(
        [sys.executable, *args], cwd=directory, capture_output=True, text=True, timeout=300,
        env={**env, "PYTHONPATH": str(directory), **environment},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    return done


def _score_script(directory: Path, **environment: str) -> dict:
    (directory / "user_script.py").write_text(SCRIPT, encoding="utf-8")
    return json.loads(_run(directory, "user_script.py", **environment).stdout)


def test_setup_builds_exactly_the_extensions_the_switch_knows():
    built = runpy.run_path(str(REPO / "setup.py"), run_name="setup")["EXTENSIONS"]
    assert sorted(built) == sorted(f"rouge_plus.{name}" for name in _compiled.EXTENSIONS)


def test_the_built_checkout_runs_the_compiled_kernels(monkeypatch):
    if not any((REPO / "rouge_plus" / "kernels").glob("_native*")):
        pytest.skip("the extensions are not built here")
    monkeypatch.delenv("ROUGE_PLUS_PURE_PYTHON", raising=False)
    kernels = rouge_plus.kernels_in_use()
    assert (str(kernels), kernels.compiled, kernels.fix) == ("compiled C kernels", True, "")
    assert str(Path(rouge_plus.__file__).parent) in kernels.reason
    monkeypatch.setenv("ROUGE_PLUS_PURE_PYTHON", "1")
    kernels = rouge_plus.kernels_in_use()
    assert (str(kernels), kernels.compiled, kernels.fix) == ("pure Python", False, "")
    assert "ROUGE_PLUS_PURE_PYTHON=1" in kernels.reason


def test_an_unbuilt_source_tree_warns_once_at_the_users_line(tmp_path):
    tree = _source_tree_copy(tmp_path)
    out = _score_script(tree)
    [warning] = out["warnings"]
    assert warning["category"] == "PurePythonWarning"
    assert (warning["file"], warning["line"]) == (str(tree / "user_script.py"), 5)
    assert f"the C extensions of the source tree {tree} are not built" in warning["message"]
    assert f"python -m pip install -e {tree}" in warning["message"]
    assert "ROUGE_PLUS_PURE_PYTHON=1" in warning["message"]
    assert out["kernels"][:2] == ["pure Python", False]
    assert out["kernels"][3] == f"python -m pip install -e {tree}"
    assert out["first"] == rouge_plus.score(["the cat sat"], ["the cat sat down"])


def test_no_warning_when_pure_python_is_chosen(tmp_path):
    out = _score_script(_source_tree_copy(tmp_path), ROUGE_PLUS_PURE_PYTHON="1")
    assert out["warnings"] == []
    assert out["kernels"][:2] == ["pure Python", False]


def test_the_warning_is_filtered_by_its_category(tmp_path):
    tree = _source_tree_copy(tmp_path)
    code = textwrap.dedent("""
        import warnings, rouge_plus
        warnings.simplefilter("ignore", rouge_plus.PurePythonWarning)
        rouge_plus.score(["the cat sat"], ["the cat sat down"])
    """)
    done = _run(tree, "-W", "error", "-c", code)
    assert done.stderr == ""


def test_an_extension_that_does_not_load_is_named(tmp_path):
    tree = _source_tree_copy(tmp_path)
    suffix = machinery.EXTENSION_SUFFIXES[0]
    (tree / "rouge_plus" / "kernels" / f"_native{suffix}").write_bytes(b"not a shared object")
    out = _score_script(tree)
    [warning] = out["warnings"]
    assert re.search(r"the C extension rouge_plus\.kernels\._native in .+ does not load \(",
                     warning["message"])  # fmt: skip
    assert out["kernels"][2].startswith("the C extension rouge_plus.kernels._native in")


def test_version_says_which_kernels_run_and_imports_no_stage(tmp_path):
    tree = _source_tree_copy(tmp_path)
    done = _run(tree, "-X", "importtime", "-m", "rouge_plus", "--version")
    assert done.stdout.splitlines() == [
        f"rouge-plus {rouge_plus.__version__}",
        f"kernels: pure Python (the C extensions of the source tree {tree} are not built)",
        f"to run the compiled C kernels: python -m pip install -e {tree}",
    ]
    imported = re.findall(r"\|\s+(\S+)$", done.stderr, re.M)
    assert "numpy" not in imported and "rouge_plus.options" not in imported
    assert "argparse" not in imported
    chosen = _run(tree, "-m", "rouge_plus", "--version", ROUGE_PLUS_PURE_PYTHON="1")
    assert chosen.stdout.splitlines()[1:] == [
        "kernels: pure Python (ROUGE_PLUS_PURE_PYTHON=1 selects the pure-Python kernels)"
    ]


def test_version_text_in_this_process_matches_kernels_in_use():
    kernels = rouge_plus.kernels_in_use()
    assert version_text().splitlines()[1] == f"kernels: {kernels} ({kernels.reason})"


@pytest.mark.skipif(
    not os.environ.get("ROUGE_PLUS_TEST_INSTALLED"),
    reason="scripts/check_wheel.py and cibuildwheel set ROUGE_PLUS_TEST_INSTALLED=1",
)
def test_the_installed_wheel_is_under_test_with_its_compiled_kernels():
    """Where the tests run against an installed wheel, the package they import is that one (not
    the checkout's ``rouge_plus/``), and its compiled kernels run."""
    package = Path(rouge_plus.__file__).resolve().parent
    assert package != REPO / "rouge_plus", "the tests import the checkout, not the wheel"
    assert "site-packages" in package.parts
    kernels = rouge_plus.kernels_in_use()
    assert kernels.compiled, kernels.reason

"""Loading rouge_score 0.1.2's own test files with ``rouge_score`` pointing at the compat shim.

``scripts/fetch_rouge_score_tests.py`` puts the files in ``.test-data/rouge_score-0.1.2/``. Each
one is executed as a fresh module while ``sys.modules`` maps ``rouge_score`` and its submodules to
``rouge_plus.compat.rouge_score``; the mapping is undone as soon as the file is loaded (the tests
hold the shim's modules in their globals from then on), so the real rouge_score that other tests
compare against is untouched.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
import types
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SUITE = REPO / ".test-data" / "rouge_score-0.1.2" / "rouge_score"
TESTDATA = SUITE / "testdata"
FETCH_COMMAND = "python scripts/fetch_rouge_score_tests.py"
TEST_FILES = ("rouge_scorer_test", "scoring_test", "tokenize_test", "tokenizers_test", "io_test")

# The test_util names of rouge_score's data files; see empty_testdata().
_DATA_FILES = (
    "TARGETS_FILE",
    "PREDICTIONS_FILE",
    "LARGE_TARGETS_FILE",
    "LARGE_PREDICTIONS_FILE",
    "DELIMITED_FILE",
    "PYROUGE_DIR",
)


def missing_files() -> list[str]:
    names = [f"{name}.py" for name in (*TEST_FILES, "test_util")]
    return [name for name in names if not (SUITE / name).exists()]


def has_testdata() -> bool:
    return TESTDATA.is_dir()


def _load(name: str, path: Path) -> types.ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_suite() -> dict[str, types.ModuleType]:
    """Every test file, by name, loaded against the shim (rouge_score's own ``io`` module, which
    the shim does not provide, drives the shim's scorer and aggregator in ``io_test``)."""
    from rouge_plus.compat.rouge_score import rouge_scorer, scoring, tokenize, tokenizers

    real_io = importlib.import_module("rouge_score.io")  # before the patch: the real package
    test_util = _load("rouge_score_suite.test_util", SUITE / "test_util.py")
    if not has_testdata():
        empty_testdata(test_util)
    submodules = {
        "rouge_scorer": rouge_scorer,
        "scoring": scoring,
        "tokenize": tokenize,
        "tokenizers": tokenizers,
        "test_util": test_util,
        "io": real_io,
    }
    package = types.ModuleType("rouge_score")
    package.__path__ = []
    vars(package).update(submodules)
    patch = {"rouge_score": package, **{f"rouge_score.{k}": m for k, m in submodules.items()}}
    saved = {name: sys.modules.get(name) for name in patch}
    try:
        sys.modules.update(patch)
        return {
            name: _load(f"rouge_score_suite.{name}", SUITE / f"{name}.py") for name in TEST_FILES
        }
    finally:
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module


def empty_testdata(test_util: types.ModuleType) -> None:
    """Point test_util's data files at an empty file: the test classes' ``setUp`` reads them for
    every test, so without them no test could run; the tests that use their contents are
    skipped."""
    for name in _DATA_FILES:
        assert hasattr(test_util, name), f"rouge_score's test_util has no {name}"
        setattr(test_util, name, os.devnull)

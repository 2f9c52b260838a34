"""The ``slow`` marker: registered in pyproject's pytest options, left out only on request
(``python -m pytest -m "not slow"``, the quick loop README and docs/install.md describe), so
that README's test command still runs every test."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib")

REPO = Path(__file__).resolve().parents[2]
QUICK_LOOP = 'python -m pytest -m "not slow"'


def _pytest_options() -> dict:
    with open(REPO / "pyproject.toml", "rb") as handle:
        return tomllib.load(handle)["tool"]["pytest"]["ini_options"]


def test_slow_is_a_registered_marker():
    assert [m for m in _pytest_options()["markers"] if m.startswith("slow:")]


def test_the_default_run_leaves_nothing_out():
    options = _pytest_options()
    assert "-m" not in options["addopts"].split()
    assert "slow" not in options["addopts"]


@pytest.mark.parametrize("document", ["README.md", "docs/install.md"])
def test_the_test_command_runs_everything_and_the_quick_loop_is_documented(document):
    text = (REPO / document).read_text(encoding="utf-8")
    assert re.search(r"install_test_deps\.sh && python -m pytest$", text, re.MULTILINE)
    assert QUICK_LOOP in text

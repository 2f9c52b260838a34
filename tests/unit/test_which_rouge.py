"""docs/WHICH_ROUGE.md and README's "Which ROUGE?" table are scripts/which_rouge.py's output, and
the numbers behind them are the library's."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from rouge_plus.meta import compare_correlations, correlate, realsumm

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def script():
    spec = importlib.util.spec_from_file_location(
        "which_rouge", ROOT / "scripts" / "which_rouge.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def results(script):
    return json.loads(script.RESULTS.read_text(encoding="utf-8"))


def test_the_page_is_the_scripts_output(script, results):
    assert script.PAGE.read_text(encoding="utf-8") == script.render_page(results)


def test_the_readme_table_is_the_scripts_output(script, results):
    readme = script.README.read_text(encoding="utf-8")
    assert script.render_readme(results) in readme


def test_every_variant_and_level_is_ranked(script, results):
    labels = set(results["levels"]["system"]["all"])
    for rouge_type in script.TYPES + script.ROUGE2_TYPES:
        assert {f"{rouge_type} {letter}" for _, letter in script.NUMBERS} <= labels
    for suffix, _ in script.CONFIGURATIONS[1:]:
        assert f"rouge2 R ({suffix})" in labels
    for level in script.LEVELS:
        assert set(results["levels"][level]) == {group for group, _ in script.GROUPS}


@pytest.mark.parametrize("level", ["system", "summary"])
def test_the_stored_rows_are_the_librarys_numbers(results, level):
    """REALSumm's stored ROUGE-2 rows need no scoring: recomputed here with the public API."""
    data = realsumm().subset("ext")
    human = data.human["litepyramid"]
    rows = results["levels"][level]["ext"]
    recall, f_score = (data.metrics[name] for name in ("rouge_2_recall", "rouge_2_f_score"))
    label = "ROUGE-2 R, as REALSumm stored it (1.5.5 via pyrouge)"
    expected = correlate(recall, human, level, "kendall", n_resamples=1000, seed=0)
    assert (rows[label]["tau"], rows[label]["lower"], rows[label]["upper"]) == pytest.approx(
        expected[:3], abs=1e-12
    )
    f_label = label.replace("ROUGE-2 R", "ROUGE-2 F")
    test = compare_correlations(
        recall, f_score, human, level, test="bootstrap", n_resamples=1000, seed=0
    )
    assert test.difference == pytest.approx(rows[label]["tau"] - rows[f_label]["tau"])

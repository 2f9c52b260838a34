"""docs/WHICH_ROUGE.md and README's "Which ROUGE?" table are scripts/which_rouge.py's output, and
the numbers behind them are the library's."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from rouge_plus.meta import compare_correlations, correlate, realsumm, rose, summeval

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


# (set, level, column) of the judgments made against the reference, for the short answer.
REFERENCE_BASED = [
    ("summeval", "summary", "relevance, 1 ref"),
    ("summeval", "summary", "relevance, 11 ref"),
    ("rose", "summary", "acu"),
    ("rose-llm", "summary", "acu"),
]


def test_the_short_answer_holds(results):
    """A recall variant is best or not significantly worse, a precision variant never best,
    on every reference-based judgment; SummEval's system-level winner moves to ROUGE-1 F."""
    columns = [results["levels"]["summary"]["all"]] + [
        results["sets"][key][level][column] for key, level, column in REFERENCE_BASED
    ]
    for rows in columns:
        best = max(rows, key=lambda label: rows[label]["tau"])
        assert not best.split(" (")[0].endswith(" P")
        recall = [label for label, row in rows.items() if label.split(" (")[0].endswith(" R")]
        assert any(rows[label]["p_vs_best"] >= results["alpha"] for label in recall)
    system = results["sets"]["summeval"]["system"]
    for column, winner in (("relevance, 1 ref", " R"), ("relevance, 11 ref", "rouge1 F")):
        rows = system[column]
        assert max(rows, key=lambda label: rows[label]["tau"]).endswith(winner)


@pytest.mark.parametrize(
    ("key", "loader", "column", "dimension", "references"),
    [
        ("summeval", summeval, "relevance, 1 ref", "relevance", 1),
        ("summeval", summeval, "relevance, 11 ref", "relevance", 11),
        ("rose", rose, "acu", "acu", None),
    ],
)
def test_the_sets_system_level_numbers_equal_scipy(
    script, results, key, loader, column, dimension, references
):
    """The system-level taus of the other sets, recomputed from scores with SciPy."""
    stats = pytest.importorskip("scipy.stats")
    data = loader()
    human = data.human[dimension].mean(axis=1)
    for label, metric in script.set_scores(data, references).items():
        expected = stats.kendalltau(metric.mean(axis=1), human)[0]
        assert results["sets"][key]["system"][column][label]["tau"] == pytest.approx(expected)


def test_the_space_panel_is_the_scripts_output(script, results):
    """The Space's "Which ROUGE?" panel shows the short answer and README's table, from the
    same results (it once showed prose with a figure the table did not have)."""
    panel = script.SPACE_PANEL.read_text(encoding="utf-8")
    assert panel == script.render_space(results)
    table = script.render_readme(results).split("\n")[1:-1]
    assert "\n".join(table) in panel

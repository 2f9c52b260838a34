"""The corpus tab's comparison (rouge_plus.space.comparison) without a browser, and its handlers."""

from __future__ import annotations

import html
import json
import math
import re

import numpy as np
import pytest

import rouge_plus
from rouge_plus import compare, power_analysis
from rouge_plus.comparison import compare_scores
from rouge_plus.readers import InputError, parse_records, sample_text
from rouge_plus.space import comparison, limits, scoring

ROWS = [
    {"base": "the cat sat", "same": "the cat sat", "other": "a dog", "refs": ["the cat sat down"]},
    {"base": "a dog", "same": "a dog", "other": "the dog ran", "refs": ["the dog ran"]},
    {"base": "it rained", "same": "it rained", "other": "rain <b>", "refs": ["it rained all day"]},
]
PASTED = "".join(json.dumps(row) + "\n" for row in ROWS)
RECORDS = parse_records(PASTED, "pasted text", jsonl=True)


def options(rouge_types: list[str]) -> dict:
    return scoring.build_options(
        rouge_types=rouge_types, use_stemmer=False, tokenizer="default",
        split_sentences="newline", multi_ref="best", beta=1.0,
    )  # fmt: skip


def cells(table: str) -> list[list[str]]:
    """The text of every body row's cells."""
    body = table.split("<tbody>")[1].split("</tbody>")[0]
    texts = [
        re.findall(r"<t[hd][^>]*>.*?</t[hd]>", row) for row in re.findall(r"<tr>.*?</tr>", body)
    ]
    return [[html.unescape(re.sub(r"<[^>]+>", "", cell)) for cell in row] for row in texts]


def test_identical_column_differs_by_zero_with_p_one() -> None:
    table = comparison.comparison_html(RECORDS, "base", ["same"], ["refs"], options(["rouge1"]))
    baseline, same = cells(table)
    assert baseline[:3] == ["Baseline: base", "ROUGE-1", baseline[2]]
    assert baseline[3:] == ["", "", "", ""]
    assert same[0] == "same" and same[3:] == ["+0.0000", "+0.0000 – +0.0000", "1.0000", "no gap"]
    assert "exact over all 2^3 sign assignments" in table
    assert "no gap: the pilot's paired differences have mean 0" in html.unescape(table)
    assert not re.search(r"\b(nan|inf)\b", table, re.I)


def test_table_matches_compare_and_escapes_names() -> None:
    chosen = options(["rouge1", "rougeL"])
    table = comparison.comparison_html(
        RECORDS, "base", ["other", "base", "other"], ["refs"], chosen,
        confidence_level=0.9, n_resamples=500, seed=3,
    )  # fmt: skip
    expected = compare(
        [row["base"] for row in ROWS], {"other": [row["other"] for row in ROWS]},
        [row["refs"] for row in ROWS], n_resamples=500, seed=3, confidence_level=0.9,
        baseline_name="base", **chosen,
    )  # fmt: skip
    rows = cells(table)
    assert len(rows) == 4  # the baseline column is not compared with itself, "other" once
    for row, tested in zip(rows[2:], expected.rows, strict=True):
        assert row[2].endswith(f"{tested.score:.4f}")
        assert row[3] == f"{tested.delta:+.4f}"
        assert row[4] == f"{tested.ci_low:+.4f} – {tested.ci_high:+.4f}"
    assert "90% CI of Δ" in table


def test_column_names_are_escaped() -> None:
    records = [(where, {**row, "<i>x</i>": row["other"]}) for where, row in RECORDS]
    table = comparison.comparison_html(records, "base", ["<i>x</i>"], ["refs"], options(["rouge1"]))
    assert "&lt;i&gt;x&lt;/i&gt;" in table and "<i>" not in table


def test_no_system_column_gives_an_empty_table() -> None:
    assert comparison.comparison_html(RECORDS, "base", [], ["refs"], options(["rouge1"])) == ""
    assert (
        comparison.comparison_html(RECORDS, "base", ["base"], ["refs"], options(["rouge1"])) == ""
    )
    assert comparison.compare_corpus(None, PASTED, "base", ["refs"], None, 0.95, 100, 0, {}) == ""


def test_bad_columns_raise_input_errors_naming_the_row() -> None:
    with pytest.raises(InputError, match=r"pasted text:1: no column 'missing'"):
        comparison.comparison_html(RECORDS, "base", ["missing"], ["refs"], options(["rouge1"]))
    with pytest.raises(InputError, match="'refs' is a reference column"):
        comparison.comparison_html(RECORDS, "base", ["refs"], ["refs"], options(["rouge1"]))
    with pytest.raises(InputError, match="'refs' is a list, not a text"):
        comparison.comparison_html(RECORDS, "refs", ["base"], ["other"], options(["rouge1"]))


def test_system_choices_offer_every_column_but_the_prediction_and_references() -> None:
    assert comparison.system_choices(None, PASTED, "base", ["refs"]) == ["same", "other"]
    assert comparison.system_choices(None, sample_text(), "prediction", ["references"]) == ["short"]
    assert comparison.system_choices(None, "{oops", "base", ["refs"]) == []
    assert comparison.system_choices(None, "  ", "base", ["refs"]) == []


def test_page_handlers() -> None:
    pytest.importorskip("gradio", reason="the page needs gradio")
    pytest.importorskip("matplotlib", reason="the page draws histograms with matplotlib")
    from rouge_plus.space import corpus_tab, events

    update = corpus_tab.update_compare_columns(None, sample_text(), "prediction", ["references"])
    assert update["choices"] == ["short"] and update["value"] == []
    settings = events.read_options(
        rouge_types=["rouge1"], use_stemmer=False, tokenizer="default",
        split_sentences="newline", multi_ref="best", beta=1.0,
    )  # fmt: skip
    table = corpus_tab.compare_corpus(
        None, sample_text(), "prediction", ["references"], ["short"], 0.95, 200, 0, settings
    )
    assert cells(table)[1][0] == "short" and "*" in cells(table)[1][5]
    compare = corpus_tab.compare_corpus
    assert compare(None, PASTED, "base", ["refs"], [], 0.95, 200, 0, settings) == ""
    with pytest.raises(corpus_tab.gr.Error, match="no column 'nope'"):
        compare(None, PASTED, "base", ["refs"], ["nope"], 0.95, 200, 0, settings)


def per_example_f(records: list, column: str, references: str, rouge_type: str) -> np.ndarray:
    """Each row's F of ``column`` against ``references``, scored by rouge_plus.score alone."""
    rows = [row for _, row in records]
    scores = rouge_plus.score(
        [row[column] for row in rows], [row[references] for row in rows],
        use_aggregator=False, **options([rouge_type]),
    )  # fmt: skip
    return np.array(scores[rouge_type])


def t_test_examples_needed(differences: np.ndarray, alpha: float = 0.05) -> int:
    """The paired t-test's examples for power 0.8, from statsmodels (independent of
    rouge_plus.power_analysis)."""
    stats_power = pytest.importorskip(
        "statsmodels.stats.power", reason="statsmodels is a test dependency"
    )
    effect = float(np.mean(differences) / np.std(differences, ddof=1))
    return math.ceil(
        stats_power.TTestPower().solve_power(effect_size=abs(effect), alpha=alpha, power=0.8)
    )


@pytest.mark.parametrize(
    ("records", "baseline", "system", "references"),
    [
        (parse_records(sample_text(), "sample", jsonl=True), "prediction", "short", "references"),
        (RECORDS, "base", "other", "refs"),  # a pilot of 3 examples
        (RECORDS[:2], "base", "other", "refs"),  # of 2
    ],
    ids=["sample", "3 examples", "2 examples"],
)
def test_each_gap_shows_the_examples_a_paired_t_test_needs(
    records, baseline, system, references
) -> None:
    types = ["rouge1", "rouge2", "rougeL"]
    table = comparison.comparison_html(records, baseline, [system], [references], options(types))
    shown = [row[6] for row in cells(table)[len(types) :]]
    for rouge_type, cell in zip(types, shown, strict=True):
        a = per_example_f(records, system, references, rouge_type)
        b = per_example_f(records, baseline, references, rouge_type)
        needed = t_test_examples_needed(a - b)
        assert needed == power_analysis(a, b, test="t").documents
        assert cell == f"{needed:,}" + (" ✓" if needed <= len(records) else "")
    assert "two-sided paired t-test" in table and f"these {len(records)} suffice" in table


def test_examples_needed_follow_the_tables_significance_level() -> None:
    records = parse_records(sample_text(), "sample", jsonl=True)
    table = comparison.comparison_html(
        records, "prediction", ["short"], ["references"], options(["rouge2"]), confidence_level=0.99
    )
    a, b = (
        per_example_f(records, column, "references", "rouge2") for column in ("short", "prediction")
    )
    assert cells(table)[1][6].split()[0] == str(t_test_examples_needed(a - b, alpha=0.01))
    assert "(p &lt; 0.01) 80% of the time" in table


def scored(values: list[float]) -> dict[str, np.ndarray]:
    """``{type: (n, 3) array}`` of one type whose precision, recall and F are ``values``."""
    return {"rouge1": np.repeat(np.asarray(values, dtype=np.float64)[:, None], 3, axis=1)}


@pytest.mark.parametrize(
    ("baseline", "system", "confidence_level", "cell", "reason"),
    [
        ([0.5, 0.6, 0.7], [0.6, 0.5, 0.7], 0.95, "no gap",
         "no gap: the pilot's paired differences have mean 0"),
        ([0.25, 0.5, 0.75], [0.5, 0.75, 1.0], 0.95, "—",
         "—: the pilot's paired differences do not vary"),
        ([0.5], [0.75], 0.95, "—", "—: the pilot must give one score per document for at least 2"),
        ([0.25, 0.5, 0.75], [0.5, 0.5, 1.0], 0.1, "—", "—: power (0.8) must exceed alpha (0.9)"),
        ([0.5] * 4, [1.0, 0.0, 1.0, 1e-7], 0.95, "&gt; 100,000", "&gt; 100,000: more than that"),
    ],
    ids=["no gap", "the same gap everywhere", "one example", "alpha above the power", "tiny gap"],
)  # fmt: skip
def test_a_gap_without_an_answer_says_why(baseline, system, confidence_level, cell, reason) -> None:
    columns = {"baseline": scored(baseline), "system": scored(system)}
    result = compare_scores(
        columns["baseline"], {"system": columns["system"]}, n_resamples=100,
        confidence_level=confidence_level,
    )  # fmt: skip
    table = comparison.comparison_table_html(result, comparison.power_analyses(result, columns))
    assert re.search(r"<td[^>]*>([^<]*)</td></tr></tbody>", table).group(1) == cell
    assert reason in table.replace("&#x27;", "'")
    assert not re.search(r"\b(nan|inf)\b", table, re.I)


def test_the_power_analyses_count_towards_the_requests_work(monkeypatch) -> None:
    """Three one-letter rows compared with 41 columns: no scoring or resampling to speak of, yet
    41 power analyses, which make the request a large one (worked on in its turn)."""
    systems = [f"s{j}" for j in range(41)]
    rows = [{"base": "a", "refs": "a", **{name: "a b"[: 1 + 2 * (j % 2)] for name in systems}}
            for j in range(3)]  # fmt: skip
    records = parse_records("".join(json.dumps(row) + "\n" for row in rows), "rows", jsonl=True)
    sized = []

    def sizing_only(budget, work, task, *args):
        sized.append(work)
        return task(*args)

    monkeypatch.setattr(comparison, "within_budget", sizing_only)
    table = comparison.comparison_html(
        records, "base", systems, ["refs"], options(["rouge1"]), n_resamples=1
    )
    (work,) = sized
    assert work.resampled == 2 * 41 * 3 + 41 * limits.POWER_ANALYSIS_RESAMPLED
    assert work.characters < limits.SMALL_REQUEST_CHARS and not work.is_small
    assert len(cells(table)) == 1 + 41

"""The corpus tab's comparison (rouge_plus.space.comparison) without a browser, and its handlers."""

from __future__ import annotations

import html
import json
import re

import pytest

from rouge_plus import compare
from rouge_plus.readers import InputError, parse_records, sample_text
from rouge_plus.space import comparison, scoring

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
    assert baseline[3:] == ["", "", ""]
    assert same[0] == "same" and same[3:] == ["+0.0000", "+0.0000 – +0.0000", "1.0000"]
    assert "exact over all 2^3 sign assignments" in table


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

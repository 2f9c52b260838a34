"""The app's logic (rouge_plus.space) without Gradio: options, pair input, files, rendering."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from support.space_plans import scoring_plan

import rouge_plus
from rouge_plus.plan import signature_of
from rouge_plus.readers import InputError, column_names, corpus_from_records, sample_text
from rouge_plus.scorer import score_examples
from rouge_plus.scoring.measures import parse_rouge_type
from rouge_plus.space import corpus_files as files
from rouge_plus.space import render, scoring
from rouge_plus.space.limits import MAX_REFERENCES, MAX_TEXT_CHARS
from rouge_plus.space.pair_input import check_pair, split_references
from rouge_plus.text.stopwords import smart_words_file

CAT = ("The cat and the dog.", ["The cat is on the mat."])
CAR = ("the car is fast", ["the automobile is quick"])


def options(**overrides: object) -> dict:
    values = {
        "rouge_types": ["rouge1", "rougeL"], "use_stemmer": False, "tokenizer": "default",
        "split_sentences": "newline", "multi_ref": "best", "beta": 1.0,
    }  # fmt: skip
    values.update(overrides)
    return scoring.build_options(**values)


# --- options -------------------------------------------------------------------------------


def test_type_choices_parse_and_offer_the_whole_family() -> None:
    for name in scoring.TYPE_CHOICES:
        parse_rouge_type(name)
    wanted = {
        "rouge1", "rouge2", "rougeL", "rougeLsum", "rougeW", "rougeS4", "rougeSU4",
        "rouge1+synonyms", "rougeTopic", "rougeTopicUniq",
    }  # fmt: skip
    assert wanted <= set(scoring.TYPE_CHOICES)
    assert set(scoring.DEFAULT_TYPES) <= set(scoring.TYPE_CHOICES)


def test_options_are_validated() -> None:
    with pytest.raises(InputError, match="at least one ROUGE type"):
        options(rouge_types=[])
    with pytest.raises(InputError, match="beta"):
        options(beta=-1.0)
    with pytest.raises(InputError, match="unknown ROUGE type 'rougeX'"):
        options(rouge_types=["rougeX"])
    with pytest.raises(InputError, match="topic_pos"):
        options(topic_pos="  ")
    assert options(beta=2.0)["beta"] == 2.0


def test_advanced_options_become_score_keywords() -> None:
    chosen = options(profile="rouge155", stopwords="english", topic_pos="NN, VB")
    assert chosen["profile"] == "rouge155"
    assert chosen["remove_stopwords"] is True
    assert chosen["topic_pos"] == "NN|VB"
    assert options()["remove_stopwords"] is None
    signature = signature_of(scoring.score_options(chosen))
    assert "profile:rouge155" in signature and "stop:english" in signature


def test_stopword_choices_offer_smart_only_when_installed() -> None:
    values = [value for _, value in scoring.stopword_choices()]
    assert values[:2] == ["none", "english"]
    assert ("smart" in values) == (smart_words_file() is not None)


def test_profile_defaults_come_from_the_library() -> None:
    assert scoring.profile_defaults("default") == ("default", "best")
    assert scoring.profile_defaults("rouge155") == ("rouge155", "pooled")


# --- single pair ---------------------------------------------------------------------------


def test_references_split_at_dash_lines_and_keep_inner_newlines() -> None:
    text = "First line.\nSecond line.\n---\nOther reference.\n  ----  \n\n---\n"
    assert split_references(text) == ["First line.\nSecond line.", "Other reference."]
    assert split_references("one - two --- three") == ["one - two --- three"]
    assert split_references("") == []


@pytest.mark.parametrize(
    ("prediction", "references", "message"),
    [
        ("", ["ref"], "prediction is empty"),
        ("  ", ["ref"], "prediction is empty"),
        ("pred", [], "no reference"),
        ("x" * (MAX_TEXT_CHARS + 1), ["r"], "command line"),
        ("pred", ["r"] * (MAX_REFERENCES + 1), f"up to {MAX_REFERENCES}"),
    ],
)
def test_bad_pairs_are_refused_with_a_message(prediction, references, message) -> None:
    with pytest.raises(InputError, match=message):
        check_pair(prediction, references)


@pytest.mark.parametrize("mode", ["best", "pooled", "mean", "jackknife"])
def test_pair_scores_equal_the_library(mode: str) -> None:
    prediction = "Water spinach is a leaf vegetable commonly eaten in tropical areas of Asia."
    references = ["Water spinach is a green leafy vegetable.", "A commonly eaten leaf vegetable."]
    chosen = options(multi_ref=mode, rouge_types=["rouge1", "rougeSU4", "rouge1+synonyms"])
    expected = rouge_plus.score([prediction], [references], return_precision_recall=True, **chosen)
    for name, (p, r, f) in scoring.pair_scores(
        prediction, references, scoring_plan(chosen)
    ).items():
        assert (p, r, f) == (
            expected[f"{name}_precision"],
            expected[f"{name}_recall"],
            expected[name],
        )


def test_explanations_follow_the_options() -> None:
    plain = scoring.explain_references(*CAR, scoring_plan(options()), 1)
    synonyms = scoring.explain_references(
        *CAR, scoring_plan(options(rouge_types=["rouge1+synonyms"])), 1
    )
    assert [s.kind for s in plain[0].explanation.prediction] == ["both", None, "both", None]
    assert [s.kind for s in synonyms[0].explanation.prediction] == [
        "both",
        "synonym",
        "both",
        "synonym",
    ]
    assert synonyms[0].scores == {"rouge1+synonyms": (1.0, 1.0, 1.0)}
    without_stopwords = scoring.explain_references(
        *CAT, scoring_plan(options(stopwords="english")), 1
    )
    assert [s.kind for s in without_stopwords[0].explanation.prediction] == [
        None,
        "both",
        None,
        None,
        None,
    ]


def test_scores_table_shows_formatted_scores() -> None:
    table = render.scores_table_html(
        scoring.pair_scores(*CAT, scoring_plan(options(rouge_types=["rouge1"])))
    )
    # SPEC §6: 3 unigrams match, R 0.5, P 0.6, F 0.545455.
    assert "<th scope='row'>ROUGE-1</th><td>0.6000</td><td>0.5000</td>" in table
    assert "0.5455" in table and "np.float64" not in table


def test_highlighting_escapes_html() -> None:
    text = "<b>cat</b> & dog"
    spans = scoring.explain_references(text, ["cat dog"], scoring_plan(options()), 1)[
        0
    ].explanation.prediction
    rendered = render.highlight_html(text, spans)
    assert rendered.startswith("&lt;")
    assert "<mark class='rp-both' title='n-gram and LCS'>cat</mark>" in rendered
    assert "&amp;" in rendered


def test_legend_lists_synonyms_only_when_they_are_marked() -> None:
    chosen = options(rouge_types=["rouge1", "rouge1+synonyms"])
    page = render.explanation_html(
        CAR[0], scoring.explain_references(*CAR, scoring_plan(chosen), 1), 1, True
    )
    assert "<mark class='rp-synonym'>synonym</mark>" in page
    assert page.count("<mark class='rp-synonym' title=") == 4
    assert "ROUGE-1+synonyms F 1.0000" in page
    assert "rp-synonym" not in render.legend_html(2, False)
    assert "matched 2-gram" in render.legend_html(2, False)


# --- corpus --------------------------------------------------------------------------------

ROWS = [
    {"prediction": "the cat sat", "references": ["a cat sat", "the cat is sitting"]},
    {"prediction": "it rained", "references": ["rain fell all day"]},
    {"prediction": "the team won", "references": "the team won the final"},
]


def write(path: Path, content: str | bytes) -> Path:
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def test_jsonl_and_csv_files_give_rows_and_columns(tmp_path: Path) -> None:
    jsonl = write(tmp_path / "c.jsonl", "\n".join(json.dumps(r) for r in ROWS) + "\n\n")
    records = files.read_upload(jsonl)
    assert [row for _, row in records] == ROWS
    assert column_names(records) == ["prediction", "references"]

    csv_file = write(tmp_path / "c.csv", "id,Summary,target\n1,the cat sat,a cat sat\n")
    records = files.read_upload(csv_file)
    assert [row for _, row in records] == [
        {"id": "1", "Summary": "the cat sat", "target": "a cat sat"}
    ]
    columns = column_names(records)
    assert files.guess_column(columns, files.PREDICTION_COLUMNS) == "Summary"
    assert files.guess_column(columns, files.REFERENCE_COLUMNS) == "target"


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("big.jsonl", b"x" * (files.MAX_UPLOAD_BYTES + 1), "limit is 5 MB"),
        ("latin1.csv", "prediction,reference\ncafé,thé\n".encode("latin-1"), "not UTF-8"),
        ("bad.jsonl", '{"prediction": "a"}\n{oops\n', "bad.jsonl:2: not valid JSON"),
        ("list.jsonl", "[1, 2]\n", "not a JSON object"),
        ("empty.csv", "prediction,reference\n", "empty.csv: no rows"),
    ],
)
def test_bad_files_are_refused_with_a_message(tmp_path: Path, name, content, message) -> None:
    with pytest.raises(InputError, match=message):
        files.read_upload(write(tmp_path / name, content))


def test_ten_megabyte_upload_is_refused_before_reading(tmp_path: Path) -> None:
    path = tmp_path / "huge.csv"
    with path.open("wb") as handle:
        handle.truncate(10 * 1024 * 1024)
    with pytest.raises(InputError, match="10.0 MB"):
        files.read_upload(path)


def test_pasted_text_and_missing_source() -> None:
    assert [row for _, row in files.load_source(None, json.dumps(ROWS[0]))] == [ROWS[0]]
    with pytest.raises(InputError, match="Upload a CSV or JSONL file"):
        files.load_source(None, "  ")


def records(rows: list[dict]) -> list[tuple[str, dict]]:
    return [(f"row {number}", row) for number, row in enumerate(rows, start=1)]


def test_missing_or_malformed_columns_name_the_row() -> None:
    with pytest.raises(InputError, match="row 2: no column 'summary'"):
        corpus_from_records(
            records([{"summary": "a", "ref": "b"}, {"ref": "c"}]), "summary", ["ref"]
        )
    with pytest.raises(InputError, match="row 1: references must be a text or a non-empty list"):
        corpus_from_records(records([{"p": "a", "ref": 3}]), "p", ["ref"])
    with pytest.raises(InputError, match="choose the prediction column"):
        corpus_from_records(records(ROWS), None, [])


def test_several_reference_columns_give_several_references() -> None:
    rows = records([{"p": "a b", "r1": "a", "r2": ["b", "c"]}])
    assert corpus_from_records(rows, "p", ["r1", "r2"]) == (["a b"], [["a", "b", "c"]])


def test_corpus_summary_is_the_library_bootstrap_plus_means(tmp_path: Path) -> None:
    predictions, references = corpus_from_records(records(ROWS * 3), "prediction", ["references"])
    chosen = options()
    examples = score_examples(predictions, references, scoring.score_options(chosen), chunk_size=2)
    bootstrap = scoring.bootstrap_options(chosen, 0.9, 200, 3)
    summary = scoring.corpus_summary(examples, bootstrap)
    expected = rouge_plus.score(
        predictions, references, aggregation="bootstrap", confidence_level=0.9,
        n_resamples=200, seed=3, return_precision_recall=True, **chosen,
    )  # fmt: skip
    means = {"_mean", "_mean_precision", "_mean_recall"}
    assert {k: v for k, v in summary.items() if not k.endswith(tuple(means))} == expected
    mean = rouge_plus.score(predictions, references, return_precision_recall=True, **chosen)
    assert summary["rouge1_mean"] == mean["rouge1_fmeasure"]
    table = render.summary_table_html(summary, chosen["rouge_types"], 0.9)
    assert "90% CI of F (bootstrap)" in table and f"{summary['rougeL_low']:.4f}" in table

    lines = files.write_scores_csv(examples, tmp_path).read_text(encoding="utf-8").splitlines()
    assert lines[0].split(",") == [
        "row", "rouge1_precision", "rouge1_recall", "rouge1_fmeasure",
        "rougeL_precision", "rougeL_recall", "rougeL_fmeasure",
    ]  # fmt: skip
    written = np.array([[float(v) for v in line.split(",")[1:]] for line in lines[1:]])
    np.testing.assert_array_equal(written[:, 3:], examples.scores["rougeL"])


def test_the_corpus_table_shows_the_command_line_means_labeled() -> None:
    """P and R beside the mean F are means too (the command line's numbers), not bootstrap
    medians; every column says what it is."""
    predictions = ["the cat sat on the mat", "a dog barked", "rain fell all day long", "x"]
    references = ["a cat sat on a mat", "the dog barked loudly", "it rained all day", "y z"]
    examples = score_examples(predictions, references, scoring.score_options(options()))
    bootstrap = scoring.bootstrap_options(options(), 0.95, 100, 0)
    summary = scoring.corpus_summary(examples, bootstrap)
    mean = rouge_plus.score(predictions, references, return_precision_recall=True, **options())
    table = render.summary_table_html(summary, ["rouge1"], 0.95)
    precision, recall = mean["rouge1_precision"], mean["rouge1_recall"]
    assert f"<td>{precision:.4f}</td><td>{recall:.4f}</td></tr>" in table
    headers = re.findall(r"<th>(?:<span class='rp-long'>)?([^<]+)", table)
    assert headers == ["Type", "Mean F", "95% CI of F (bootstrap)", "Mean precision", "Mean recall"]


def test_sample_corpus_has_prediction_and_references() -> None:
    sample = sample_text()
    columns = column_names(files.load_source(None, sample))
    assert files.guess_column(columns, files.PREDICTION_COLUMNS) == "prediction"
    assert files.guess_column(columns, files.REFERENCE_COLUMNS) == "references"

"""The evaluate metric: loading offline, options at load and compute time, combine, state."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

evaluate = pytest.importorskip("evaluate")

from rouge_plus import RougePlus, score  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
PREDICTIONS = ["The cat and the dog.", "the cat was on the mat\nmy dog ate the homework"]
REFERENCES = [["The cat is on the mat."], ["the cat sat on the mat\nthe dog ate my homework"]]


@pytest.mark.slow  # a fresh interpreter importing evaluate: over 30 s here
def test_load_from_repo_path_offline(tmp_path):
    script = (
        "import evaluate, json\n"
        "m = evaluate.load('./rouge_plus', use_stemmer=True)\n"
        f"print(json.dumps(m.compute(predictions={PREDICTIONS!r}, references={REFERENCES!r})))\n"
    )
    env = {
        **os.environ,
        "HF_HUB_OFFLINE": "1",
        "HF_HOME": str(tmp_path),
        "HF_DATASETS_OFFLINE": "1",
    }
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    import json

    assert json.loads(done.stdout.strip().splitlines()[-1]) == score(
        PREDICTIONS, REFERENCES, use_stemmer=True
    )


def test_compute_matches_core_and_returns_plain_floats():
    result = RougePlus().compute(predictions=PREDICTIONS, references=REFERENCES)
    assert result == score(PREDICTIONS, REFERENCES)
    assert set(result) == {"rouge1", "rouge2", "rougeL", "rougeLsum"}
    assert all(type(v) is float for v in result.values())
    assert result["rougeLsum"] == pytest.approx((6 / 11 + 9 / 11) / 2)


def test_single_reference_strings_and_lists_give_the_same_result():
    flat = [refs[0] for refs in REFERENCES]
    metric = RougePlus()
    assert metric.compute(predictions=PREDICTIONS, references=flat) == metric.compute(
        predictions=PREDICTIONS, references=REFERENCES
    )


def test_add_batch_then_compute_goes_through_evaluate_and_agrees():
    metric = RougePlus(return_precision_recall=True)
    metric.add_batch(predictions=PREDICTIONS[:1], references=REFERENCES[:1])
    metric.add_batch(predictions=PREDICTIONS[1:], references=[r[0] for r in REFERENCES[1:]])
    assert metric.compute() == score(PREDICTIONS, REFERENCES, return_precision_recall=True)


def test_counts_micro_and_strip_reasoning_reach_the_metric():
    options = {"rouge_types": ["rouge1"], "return_counts": True, "aggregation": "micro"}
    result = RougePlus(**options).compute(predictions=PREDICTIONS, references=REFERENCES)
    assert result == score(PREDICTIONS, REFERENCES, **options)
    assert set(result) == {
        "rouge1", "rouge1_matches", "rouge1_prediction_total", "rouge1_reference_total",
    }  # fmt: skip
    stripped = RougePlus(rouge_types=["rouge1"], strip_reasoning=True).compute(
        predictions=["<think>x</think>a b"], references=["a b"]
    )
    assert stripped == {"rouge1": 1.0}


def test_options_at_load_time_are_defaults_and_compute_overrides_them():
    metric = RougePlus(rouge_types=["rouge1"], use_aggregator=False)
    assert metric.compute(predictions=PREDICTIONS, references=REFERENCES) == {
        "rouge1": [6 / 11, 10 / 11]
    }
    assert list(
        metric.compute(predictions=PREDICTIONS, references=REFERENCES, rouge_types=["rouge2"])
    ) == ["rouge2"]


def test_combine_with_another_metric_when_options_are_given_at_load_time():
    rouge = RougePlus(rouge_types=["rouge1", "rougeL"])
    exact = evaluate.load(str(REPO / "tests" / "support" / "exact_match_metric.py"))
    result = evaluate.combine([rouge, exact]).compute(
        predictions=["a b", "c"], references=["a b", "d"]
    )
    assert result == {"rouge1": 0.5, "rougeL": 0.5, "exact_match": 0.5}


def test_signature_records_every_setting():
    signature = RougePlus(use_stemmer=True).signature(multi_ref="pooled", aggregation="bootstrap")
    for part in (
        "types:rouge1,rouge2,rougeL,rougeLsum",
        "stem:porter",
        "multiref:pooled",
        "agg:bootstrap",
        "seed:0",
        "version:",
    ):
        assert part in signature


@pytest.mark.parametrize(
    ("predictions", "references", "error", "message"),
    [
        (["a", "b"], ["a"], ValueError, "2 predictions, 1 references"),
        ([None], ["a"], TypeError, r"predictions\[0\] is None"),
        (["a", 3], ["a", "b"], TypeError, r"predictions\[1\] is a int"),
        (["a"], [["x", None]], TypeError, r"references\[0\]\[1\] is None"),
        ([], [], ValueError, "nothing to score"),
        (["a", "b"], [["a"], []], ValueError, r"references\[1\] is an empty list"),
        ("a text", ["a"], TypeError, "not a single str"),
    ],
)
def test_bad_input_names_the_row_and_leaves_no_state(predictions, references, error, message):
    metric = RougePlus()
    with pytest.raises(error, match=message):
        metric.compute(predictions=predictions, references=references)
    with pytest.raises(error, match=message):
        metric.add_batch(predictions=predictions, references=references)
    assert metric.compute(predictions=PREDICTIONS, references=REFERENCES) == score(
        PREDICTIONS, REFERENCES
    )


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        (
            {"rouge_types": ["rouge10"]},
            ValueError,
            r"valid types are: rouge1 \.\. rouge9;.*rougeLsum;.*rougeSU",
        ),
        ({"multi_ref": "max"}, ValueError, "multi_ref: unknown value 'max'"),
        ({"beta": 2, "alpha": 0.5}, ValueError, "not both"),
        ({"use_stemer": True}, TypeError, "unknown option 'use_stemer'"),
        ({"use_stemmer": "yes"}, TypeError, "use_stemmer must be True or False"),
        ({"tokenizer": "nope"}, ValueError, "nope"),
    ],
)
def test_bad_options_are_named(options, error, message):
    with pytest.raises(error, match=message):
        RougePlus().compute(predictions=PREDICTIONS, references=REFERENCES, **options)


def test_empty_strings_score_zero_not_nan():
    result = RougePlus().compute(predictions=["", "a b"], references=["", ""])
    assert result == {"rouge1": 0.0, "rouge2": 0.0, "rougeL": 0.0, "rougeLsum": 0.0}


def test_combine_add_one_example_at_a_time():
    """evaluate.combine(...).add passes each module ``predictions=`` / ``references=``."""
    rouge = RougePlus(rouge_types=["rouge1", "rougeL"])
    exact = evaluate.load(str(REPO / "tests" / "support" / "exact_match_metric.py"))
    combined = evaluate.combine([rouge, exact])
    for prediction, reference in [("a b", "a b"), ("c", "d")]:
        combined.add(prediction=prediction, reference=reference)
    assert combined.compute() == {"rouge1": 0.5, "rougeL": 0.5, "exact_match": 0.5}
    combined.add_batch(predictions=["a b", "c"], references=["a b", "d"])
    assert combined.compute() == {"rouge1": 0.5, "rougeL": 0.5, "exact_match": 0.5}


def test_add_takes_both_spellings_and_several_references():
    metric = RougePlus()
    metric.add(prediction=PREDICTIONS[0], reference=REFERENCES[0])
    metric.add(predictions=PREDICTIONS[1], references=REFERENCES[1])
    assert metric.compute() == score(PREDICTIONS, REFERENCES)
    with pytest.raises(TypeError, match=r"predictions\[0\] is None"):
        metric.add(reference="a")


@pytest.mark.slow
def test_load_is_the_metric_with_default_options(tmp_path):
    """``rouge_plus.load(**options)``: the metric from any directory, offline, combinable."""
    code = (
        "import evaluate, json, rouge_plus\n"
        "rouge = rouge_plus.load(rouge_types=['rouge1'], use_stemmer=True)\n"
        "assert isinstance(rouge, evaluate.EvaluationModule)\n"
        "combined = evaluate.combine([rouge, rouge_plus.load(rouge_types=['rougeL'])])\n"
        f"print(json.dumps(combined.compute(predictions={PREDICTIONS!r}, "
        f"references={REFERENCES!r})))\n"
    )
    env = {
        **os.environ,
        "PYTHONPATH": str(REPO),
        "HF_HUB_OFFLINE": "1",
        "HF_EVALUATE_OFFLINE": "1",
        "HF_HOME": str(tmp_path / "hf"),
    }
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True,
        timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    import json

    expected = {
        **score(PREDICTIONS, REFERENCES, rouge_types=["rouge1"], use_stemmer=True),
        **score(PREDICTIONS, REFERENCES, rouge_types=["rougeL"]),
    }
    assert json.loads(done.stdout.strip().splitlines()[-1]) == expected


def test_metric_info_is_filled():
    info = RougePlus().info
    assert info.homepage.startswith("https://") and info.license == "MIT"
    assert info.codebase_urls and info.reference_urls and info.citation
    assert "lin-2004-rouge" in info.citation


def test_inputs_description_names_every_option():
    """One description per option the metric takes, so a new ScoreOptions field cannot be
    forgotten in evaluate's documentation of the metric."""
    from rouge_plus._records import fields as record_fields
    from rouge_plus.options import ScoreOptions
    from rouge_plus.rouge_plus import OPTION_DESCRIPTIONS

    options = {f.name for f in record_fields(ScoreOptions)} - {"fmeasure"} | {"beta", "alpha"}
    assert set(OPTION_DESCRIPTIONS) == options
    description = RougePlus().inputs_description
    for name in options:
        assert f"\n    {name}: " in description, name


@pytest.mark.parametrize("keep_in_memory", [False, True], ids=["cache-file", "in-memory"])
def test_a_failed_compute_keeps_the_added_rows(keep_in_memory, tmp_path):
    """An error while scoring (here a stopword file that does not exist) leaves the rows added
    with add_batch in place: compute with fixed options scores them all, and more rows can still
    be added."""
    metric = RougePlus(keep_in_memory=keep_in_memory, cache_dir=str(tmp_path))
    metric.add_batch(predictions=PREDICTIONS, references=REFERENCES)
    with pytest.raises(FileNotFoundError, match="stopwords"):
        metric.compute(remove_stopwords=str(tmp_path / "missing.txt"))
    assert metric.compute() == score(PREDICTIONS, REFERENCES)
    metric.add_batch(predictions=PREDICTIONS, references=REFERENCES)
    with pytest.raises(TypeError, match="must return a list"):
        metric.compute(tokenizer=lambda text: None)
    metric.add_batch(predictions=PREDICTIONS[:1], references=REFERENCES[:1])
    assert metric.compute(rouge_types=["rouge1"]) == score(
        PREDICTIONS + PREDICTIONS[:1], REFERENCES + REFERENCES[:1], rouge_types=["rouge1"]
    )
    assert not list(tmp_path.rglob("*.arrow"))  # no cache file left behind


ROW_TEXTS = ["the cat sat", "a dog", "the mat", "", "cat on the mat\nthe end"]
rows_strategy = st.lists(
    st.tuples(
        st.sampled_from(ROW_TEXTS),
        st.one_of(
            st.sampled_from(ROW_TEXTS),
            st.lists(st.sampled_from(ROW_TEXTS), min_size=1, max_size=3),
        ),
    ),
    min_size=1,
    max_size=12,
)


@settings(max_examples=40, deadline=None)
@given(rows=rows_strategy, cuts=st.lists(st.integers(0, 12), max_size=4), data=st.data())
def test_rows_added_in_any_batches_score_as_one_call(rows, cuts, data, tmp_path_factory):
    """In a single process, rows added one by one or in batches of any size (references as a
    text or a list, mixed across batches) score as the same rows given at once, and no cache
    file is written."""
    cache = tmp_path_factory.mktemp("cache")
    metric = RougePlus(rouge_types=["rouge1", "rougeL"], cache_dir=str(cache))
    bounds = sorted({0, len(rows), *(min(cut, len(rows)) for cut in cuts)})
    for start, stop in zip(bounds[:-1], bounds[1:], strict=True):
        part = rows[start:stop]
        if stop - start == 1 and data.draw(st.booleans(), label="add one"):
            metric.add(prediction=part[0][0], reference=part[0][1])
        else:
            metric.add_batch(predictions=[p for p, _ in part], references=[r for _, r in part])
    assert len(metric) == len(rows)
    assert not list(cache.rglob("*.arrow")) and not list(cache.rglob("*.lock"))
    expected = score([p for p, _ in rows], [r for _, r in rows], rouge_types=["rouge1", "rougeL"])
    assert metric.compute() == expected
    assert len(metric) == 0


def test_compute_with_added_rows_and_inputs_scores_both_and_a_bad_input_keeps_the_rows():
    metric = RougePlus(rouge_types=["rouge1"])
    metric.add_batch(predictions=PREDICTIONS[:1], references=REFERENCES[:1])
    with pytest.raises(TypeError, match=r"predictions\[0\] is None"):
        metric.compute(predictions=[None], references=["a"])
    assert len(metric) == 1
    result = metric.compute(predictions=PREDICTIONS[1:], references=REFERENCES[1:])
    assert result == score(PREDICTIONS, REFERENCES, rouge_types=["rouge1"])
    with pytest.raises(ValueError, match="add or add_batch"):
        metric.compute()
    with pytest.raises(ValueError, match="Bad inputs"):
        metric.add_batch(predictions=["a"], references=["a"], sources=["x"])

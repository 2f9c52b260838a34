"""``return_counts=True`` and ``aggregation="micro"``: the counts behind every score, per example
and type, and the corpus precision and recall of their sums.

The counts equal a count written out here (n-grams, LCS, skip-bigrams; ROUGE-W's bases), in both
kernels; for every type they give back the scores by the type's own formula; micro is the
formula over the sums.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.backends import without_compiled

import rouge_plus.scorer
from rouge_plus import RougeScorer, score
from rouge_plus.errors import OptionError
from rouge_plus.results import COUNT_COLUMNS, ExampleScores
from rouge_plus.scoring.measures import NAME_FORMS, parse_rouge_type
from rouge_plus.scoring.multiref import MULTI_REF_MODES

WORDS = ["the", "big", "large", "cat", "cats", "kitty", "sat", "on", "mat", "a"]
line = st.lists(st.sampled_from(WORDS), max_size=8).map(" ".join)
texts = st.lists(line, min_size=1, max_size=3).map("\n".join)
SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
KERNELS = ["compiled", "pure_python"]
EVERY_TYPE = [name for form in NAME_FORMS for name in form.examples]


def _scored(kernel: str, names: list[str], predictions, references, **options) -> ExampleScores:
    def make() -> ExampleScores:
        scorer = RougeScorer(names, return_counts=True, **options)
        return rouge_plus.scorer.score_examples(predictions, references, scorer.plan)

    if kernel == "compiled":
        return make()
    with without_compiled():
        return make()


def _counts(examples: ExampleScores, name: str) -> np.ndarray:
    """``(n, 3)``: each row's matches, prediction total and reference total."""
    result = examples.per_example()
    return np.column_stack([result[f"{name}_{column}"] for column in COUNT_COLUMNS])


# --- the counts written out -------------------------------------------------------------------


def _ngrams(tokens: list[str], n: int) -> Counter:
    return Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


def _lcs(a: list[str], b: list[str]) -> int:
    table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i, j in itertools.product(range(len(a)), range(len(b))):
        same = a[i] == b[j]
        table[i + 1][j + 1] = table[i][j] + 1 if same else max(table[i][j + 1], table[i + 1][j])
    return table[-1][-1]


def _skip_units(tokens: list[str], gap: int | None, unigrams: bool) -> Counter:
    """ROUGE-1.5.5's units: pairs at most ``gap`` words apart; SU adds each word but the last."""
    units = Counter(
        (tokens[i], tokens[j])
        for i, j in itertools.combinations(range(len(tokens)), 2)
        if gap is None or j - i - 1 <= gap
    )
    if unigrams:
        units.update((token,) for token in tokens[:-1])
    return units


def _overlap(pred: Counter, ref: Counter) -> tuple[int, int, int]:
    return sum((pred & ref).values()), pred.total(), ref.total()


def written_out(name: str, prediction: str, reference: str) -> tuple[float, float, float]:
    """Matches, prediction total and reference total of one pair, counted here."""
    measure = parse_rouge_type(name)
    pred, ref = prediction.split(), reference.split()
    if measure.kind == "ngram":
        return _overlap(_ngrams(pred, measure.n), _ngrams(ref, measure.n))
    if measure.kind == "skip_bigram":
        units = (_skip_units(t, measure.max_gap, measure.unigrams) for t in (pred, ref))
        return _overlap(*units)
    if measure.kind in ("lcs", "summary_lcs"):  # one sentence each: the union LCS is the LCS
        return _lcs(pred, ref), len(pred), len(ref)
    raise AssertionError(name)


COUNTED_HERE = ["rouge1", "rouge2", "rouge3", "rougeL", "rougeLsum", "rougeS4", "rougeSU4",
                "rougeS*", "rougeSU*", "rougeS0"]  # fmt: skip


@pytest.mark.parametrize("kernel", KERNELS)
@SETTINGS
@given(pairs=st.lists(st.tuples(line, line), min_size=1, max_size=5))
def test_counts_equal_the_counts_written_out(kernel, pairs):
    predictions, references = map(list, zip(*pairs, strict=True))
    examples = _scored(kernel, COUNTED_HERE, predictions, references)
    for name in COUNTED_HERE:
        expected = [written_out(name, p, r) for p, r in pairs]
        np.testing.assert_array_equal(_counts(examples, name), np.reshape(expected, (-1, 3)), name)


@pytest.mark.parametrize("kernel", KERNELS)
@SETTINGS
@given(
    rows=st.lists(st.tuples(line, st.lists(line, min_size=1, max_size=3)), min_size=1, max_size=4)
)
def test_pooled_counts_are_the_sums_over_the_references(kernel, rows):
    predictions = [p for p, _ in rows]
    references = [refs for _, refs in rows]
    examples = _scored(kernel, COUNTED_HERE, predictions, references, multi_ref="pooled")
    for name in COUNTED_HERE:
        expected = [np.sum([written_out(name, p, r) for r in refs], axis=0) for p, refs in rows]
        np.testing.assert_array_equal(_counts(examples, name), np.reshape(expected, (-1, 3)), name)


@pytest.mark.parametrize("kernel", KERNELS)
@SETTINGS
@given(pairs=st.lists(st.tuples(texts, texts), min_size=1, max_size=4))
def test_rouge_w_bases_are_its_weighted_lengths(kernel, pairs):
    """ROUGE-W-1.2: P = f⁻¹(hit / f(n)) and R = f⁻¹(hit / f(Σ_s f(|s|))), f(k) = k**1.2."""
    predictions, references = map(list, zip(*pairs, strict=True))
    counts = _counts(_scored(kernel, ["rougeW"], predictions, references), "rougeW")
    for (prediction, reference), (_, pred_total, ref_total) in zip(pairs, counts, strict=True):
        sentences = [s.split() for s in reference.split("\n")]
        assert pred_total == pytest.approx(len(prediction.split()) ** 1.2, rel=1e-12)
        assert ref_total == pytest.approx(sum(len(s) ** 1.2 for s in sentences) ** 1.2, rel=1e-12)


# --- every type, every kernel: the counts give the scores -------------------------------------


@pytest.mark.parametrize("multi_ref", ["best", "best_recall", "pooled"])
@SETTINGS
@given(
    rows=st.lists(st.tuples(texts, st.lists(texts, min_size=1, max_size=3)), min_size=1, max_size=4)
)
def test_every_type_gives_its_scores_from_its_counts_in_both_kernels(multi_ref, rows):
    predictions = [p for p, _ in rows]
    references = [refs for _, refs in rows]
    compiled = _scored("compiled", EVERY_TYPE, predictions, references, multi_ref=multi_ref)
    pure = _scored("pure_python", EVERY_TYPE, predictions, references, multi_ref=multi_ref)
    for name in EVERY_TYPE:
        counts = _counts(compiled, name)
        np.testing.assert_array_equal(counts, _counts(pure, name), name)
        measure = parse_rouge_type(name)
        precision, recall = measure.precision_recall(*counts.T)
        scores = compiled.scores[name]
        np.testing.assert_allclose(precision, scores[:, 0], rtol=1e-12, atol=0, err_msg=name)
        np.testing.assert_allclose(recall, scores[:, 1], rtol=1e-12, atol=0, err_msg=name)


@SETTINGS
@given(
    rows=st.lists(
        st.tuples(texts, st.lists(texts, min_size=1, max_size=3)), min_size=1, max_size=4
    ),
    multi_ref=st.sampled_from(MULTI_REF_MODES),
)
def test_the_counts_of_every_mode_are_the_same_in_both_kernels(rows, multi_ref):
    predictions = [p for p, _ in rows]
    references = [refs for _, refs in rows]
    names = ["rouge2", "rougeL", "rougeLsum", "rougeW", "rougeSU4"]
    compiled = _scored("compiled", names, predictions, references, multi_ref=multi_ref)
    pure = _scored("pure_python", names, predictions, references, multi_ref=multi_ref)
    for name in names:
        np.testing.assert_array_equal(_counts(compiled, name), _counts(pure, name), name)


def test_modes_without_one_reference_give_mean_counts():
    """mean and mean_prf: the mean over the references; jackknife: the mean over the
    leave-one-out sets of the counts of the reference each set picks."""
    prediction = "the cat sat on the mat"
    references = ["the cat sat", "a cat", "the cat sat on a mat"]  # rouge1 hits 3, 1, 5
    for mode in ("mean", "mean_prf"):
        result = score([prediction], [references], rouge_types=["rouge1"], multi_ref=mode,
                       return_counts=True)  # fmt: skip
        assert result["rouge1_matches"] == pytest.approx((3 + 1 + 5) / 3)
        assert result["rouge1_reference_total"] == pytest.approx((3 + 2 + 6) / 3)
    # Leaving out the third picks the first; leaving out either other picks the third.
    result = score([prediction], [references], rouge_types=["rouge1"], multi_ref="jackknife",
                   return_counts=True)  # fmt: skip
    assert result["rouge1_matches"] == pytest.approx((5 + 5 + 3) / 3)
    assert result["rouge1_prediction_total"] == 6


# --- micro ------------------------------------------------------------------------------------


@SETTINGS
@given(
    rows=st.lists(
        st.tuples(texts, st.lists(texts, min_size=1, max_size=2)), min_size=1, max_size=5
    ),
    beta=st.sampled_from([0.5, 1.0, 2.0]),
)
def test_micro_is_precision_and_recall_of_the_summed_counts(rows, beta):
    predictions = [p for p, _ in rows]
    references = [refs for _, refs in rows]
    names = ["rouge1", "rouge2", "rougeL", "rougeLsum", "rougeSU4", "rougeW"]
    per_example = score(predictions, references, rouge_types=names, beta=beta,
                        use_aggregator=False, return_counts=True)  # fmt: skip
    micro = score(predictions, references, rouge_types=names, beta=beta, aggregation="micro",
                  return_counts=True, return_precision_recall=True)  # fmt: skip
    for name in names:
        matches, pred_total, ref_total = (
            math.fsum(per_example[f"{name}_{column}"]) for column in COUNT_COLUMNS
        )
        assert micro[f"{name}_matches"] == matches
        assert micro[f"{name}_prediction_total"] == pred_total
        assert micro[f"{name}_reference_total"] == ref_total
        precision = matches / pred_total if pred_total else 0.0
        recall = matches / ref_total if ref_total else 0.0
        if parse_rouge_type(name).is_weighted:
            precision, recall = precision ** (1 / 1.2), recall ** (1 / 1.2)
        f = (1 + beta**2) * precision * recall / (beta**2 * precision + recall) if recall else 0.0
        assert micro[f"{name}_precision"] == pytest.approx(precision, rel=1e-12)
        assert micro[f"{name}_recall"] == pytest.approx(recall, rel=1e-12)
        assert micro[name] == pytest.approx(f, rel=1e-12, abs=1e-15)


def test_micro_weighs_long_examples_more_than_the_mean():
    predictions = ["a b c d e f g h", "x"]
    references = ["a b c d e f g h", "y"]
    mean = score(predictions, references, rouge_types=["rouge1"])
    micro = score(predictions, references, rouge_types=["rouge1"], aggregation="micro")
    assert mean["rouge1"] == 0.5
    assert micro["rouge1"] == pytest.approx(8 / 9)
    assert "rouge1_matches" not in micro  # the counts are reported only when asked for
    assert "agg:micro" in RougeScorer(aggregation="micro").signature


def test_micro_of_scores_kept_without_counts_is_an_error_naming_the_fix():
    examples = rouge_plus.scorer.score_examples(["a b"], ["a c"], RougeScorer().plan)
    assert examples.counts is None  # not kept unless asked for
    with pytest.raises(OptionError, match="return_counts=True"):
        examples.aggregate(RougeScorer(aggregation="micro").options)


def test_counts_survive_chunks_and_columns():
    predictions = ["the cat sat", "a dog", "the mat"] * 3
    references = ["the cat", "a dog ran", "on the mat"] * 3
    plan = RougeScorer(["rouge1", "rougeL"], return_counts=True).plan
    whole = rouge_plus.scorer.score_examples(predictions, references, plan)
    chunked = rouge_plus.scorer.score_examples(predictions, references, plan, chunk_size=2)
    assert chunked.per_example() == whole.per_example()
    columns = whole.columns()
    assert columns["rouge1_matches"] == [2.0, 2.0, 2.0] * 3
    again = ExampleScores.from_columns(columns, plan.options, plan.signature)
    assert again.aggregate() == whole.aggregate()


def test_one_pair_per_call_gives_the_counts_too():
    scorer = RougeScorer(["rouge1"], return_counts=True)
    assert scorer.plan.compiled.pair_specs is None  # the compiled one-pair scorer has no counts
    assert (
        RougeScorer(["rouge1"]).plan.compiled.pair_specs is not None or not rouge_plus.plan.NATIVE
    )
    assert scorer.score(["a b c"], ["a b"]) == {
        "rouge1": 0.8, "rouge1_matches": 2.0, "rouge1_prediction_total": 3.0,
        "rouge1_reference_total": 2.0,
    }  # fmt: skip


def test_return_counts_must_be_a_bool():
    with pytest.raises(OptionError, match="return_counts must be True or False"):
        score(["a"], ["a"], return_counts="yes")


def test_the_arrow_batch_scorer_of_ray_and_spark_carries_the_counts():
    pa = pytest.importorskip("pyarrow")
    from rouge_plus.integrations.distributed import BatchScorer, gathered_scores
    from rouge_plus.options import ScoreOptions

    predictions = ["the cat sat", "a dog", "", "the mat"]
    references = ["the cat", "a dog ran", "x", "on the mat"]
    options = ScoreOptions.from_kwargs(
        rouge_types=["rouge1", "rougeL"], aggregation="micro", return_counts=True
    )
    batch = pa.RecordBatch.from_pydict({"prediction": predictions, "reference": references})
    scorer = BatchScorer({"": "prediction"}, "reference", options)
    scored = pa.Table.from_batches([scorer(batch), scorer(batch.slice(0, 0))])
    assert "rougeL_reference_total" in scored.column_names
    expected = score(predictions, references, rouge_types=["rouge1", "rougeL"],
                     aggregation="micro", return_counts=True)  # fmt: skip
    assert gathered_scores(scored, options, None).aggregate() == expected

"""torchmetrics' ROUGEScore against rouge_plus: accumulate="best" is multi_ref="best" and
accumulate="avg" is multi_ref="mean_prf" (torchmetrics computes in float32, hence the tolerance).

Where two references of a row tie for the best F of a type (equal in exact arithmetic, such as
2·0.4·(2/7)/(0.4 + 2/7) and 2·0.2·1/(0.2 + 1)), which one is "best" depends on the last bit:
torchmetrics compares float32 values, rouge_plus (like rouge_score) float64 ones. Both then give
the same F, but their precision and recall may differ, so only F is compared for such a type.

torchmetrics splits ROUGE-Lsum sentences with NLTK's punkt model, which needs a download, so
ROUGE-Lsum is left out here; its other types use rouge_score's tokenizer rule.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rouge_plus import RougeScorer, score

torchmetrics_text = pytest.importorskip("torchmetrics.text", reason="needs torchmetrics + torch")

TYPES = {"rouge1": 1, "rouge2": 2, "rougeL": "L"}
WORDS = st.sampled_from(["the", "cat", "sat", "on", "a", "mat", "dog", "ran", "far", "away"])
TEXT = st.lists(WORDS, min_size=1, max_size=12).map(" ".join)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(TEXT, st.lists(TEXT, min_size=1, max_size=4)), min_size=1, max_size=5),
    st.sampled_from([("best", "best"), ("avg", "mean_prf")]),
)
def test_torchmetrics_accumulate_modes(rows, modes):
    accumulate, multi_ref = modes
    predictions = [prediction for prediction, _ in rows]
    references = [refs for _, refs in rows]
    metric = torchmetrics_text.ROUGEScore(rouge_keys=tuple(TYPES), accumulate=accumulate)
    theirs = {key: float(value) for key, value in metric(predictions, references).items()}
    ours = score(
        predictions, references, rouge_types=list(TYPES), multi_ref=multi_ref,
        return_precision_recall=True,
    )  # fmt: skip
    tied = _types_with_tied_references(predictions, references) if accumulate == "best" else set()
    for name in TYPES:
        columns = ("fmeasure",) if name in tied else ("precision", "recall", "fmeasure")
        for column in columns:
            assert ours[f"{name}_{column}"] == pytest.approx(
                theirs[f"{name}_{column}"], abs=1e-6
            ), (name, column)


def _types_with_tied_references(predictions: list[str], references: list[list[str]]) -> set[str]:
    """The types for which some row has references that tie for the best F (within 1e-6) with
    different precision."""
    pairs = [(p, r) for p, refs in zip(predictions, references, strict=True) for r in refs]
    scores = RougeScorer(list(TYPES)).score_examples(*map(list, zip(*pairs, strict=True))).scores
    tied, start = set(), 0
    for refs in references:
        for name in TYPES:
            rows = scores[name][start : start + len(refs)]  # precision, recall, F per reference
            best = rows[:, 2].max()
            near = rows[abs(rows[:, 2] - best) <= 1e-6]
            if len(set(near[:, 0].round(9))) > 1:
                tied.add(name)
        start += len(refs)
    return tied

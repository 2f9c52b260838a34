"""torchmetrics' ROUGEScore against rouge_plus: accumulate="best" is multi_ref="best" and
accumulate="avg" is multi_ref="mean_prf" (torchmetrics computes in float32, hence the tolerance).

torchmetrics splits ROUGE-Lsum sentences with NLTK's punkt model, which needs a download, so
ROUGE-Lsum is left out here; its other types use rouge_score's tokenizer rule.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rouge_plus import score

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
    for name in TYPES:
        for column in ("precision", "recall", "fmeasure"):
            assert ours[f"{name}_{column}"] == pytest.approx(
                theirs[f"{name}_{column}"], abs=1e-6
            ), (name, column)

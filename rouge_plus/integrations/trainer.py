"""A ``compute_metrics`` for a transformers ``Seq2SeqTrainer`` run with ``predict_with_generate``.

It does what the Hugging Face summarization examples do by hand: put the pad token back where the
loss mask (-100) is, decode, strip, score and add ``gen_len``. Sentences for ``rougeLsum`` come
from rouge_plus's own rule-based splitter (no ``nltk.download`` needed). Nothing from
transformers is imported: any tokenizer with ``batch_decode`` and ``pad_token_id`` works.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..scorer import RougeScorer

IGNORE_INDEX = -100  # transformers' label value for positions the loss ignores


def _token_ids(values: Any, pad_token_id: int, what: str) -> np.ndarray:
    if isinstance(values, tuple):  # some models return (generated ids, ...)
        values = values[0]
    ids = np.asarray(values)
    if ids.ndim != 2 or not np.issubdtype(ids.dtype, np.integer):
        raise ValueError(
            f"{what} must be a 2-d array of token ids, got shape {ids.shape} of {ids.dtype}; "
            "run the trainer with predict_with_generate=True"
        )
    return np.where(ids == IGNORE_INDEX, pad_token_id, ids)


def _decode(tokenizer: Any, ids: np.ndarray) -> list[str]:
    return [text.strip() for text in tokenizer.batch_decode(ids, skip_special_tokens=True)]


def make_compute_metrics(
    tokenizer: Any,
    *,
    rouge_types: list[str] | str | None = None,
    split_sentences: str | Callable[[str], list[str]] = "rules",
    percent: bool = True,
    **options: object,
) -> Callable[[Any], dict[str, float]]:
    """Build ``compute_metrics(eval_pred)`` for ``Seq2SeqTrainer(compute_metrics=...)``.

    ``eval_pred`` is an ``EvalPrediction`` or a ``(predictions, labels)`` tuple of generated
    and label token ids. Returns the flat score dict of :func:`rouge_plus.score` (options as
    there) plus ``gen_len``, the mean number of non-pad generated tokens. With ``percent=True``
    (default, as in the Hugging Face examples) scores are ``round(100 * value, 4)``; with
    ``percent=False`` they are the unrounded 0..1 floats.
    """
    pad_token_id = getattr(tokenizer, "pad_token_id", None)
    if pad_token_id is None:
        raise ValueError("the tokenizer has no pad_token_id; set tokenizer.pad_token first")
    scorer = RougeScorer(rouge_types, split_sentences=split_sentences, **options)
    if not scorer.options.use_aggregator:
        raise ValueError("compute_metrics returns corpus scores: use_aggregator must stay True")

    def compute_metrics(eval_pred: Any) -> dict[str, float]:
        if hasattr(eval_pred, "predictions"):
            predictions, labels = eval_pred.predictions, eval_pred.label_ids
        else:
            predictions, labels = eval_pred[0], eval_pred[1]
        generated = _token_ids(predictions, pad_token_id, "predictions")
        targets = _token_ids(labels, pad_token_id, "labels")
        result = scorer.score(_decode(tokenizer, generated), _decode(tokenizer, targets))
        if percent:
            result = {key: round(value * 100, 4) for key, value in result.items()}
        gen_len = float(np.mean(np.count_nonzero(generated != pad_token_id, axis=1)))
        result["gen_len"] = round(gen_len, 4)
        return result

    return compute_metrics

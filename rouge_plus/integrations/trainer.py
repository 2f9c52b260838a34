"""A ``compute_metrics`` for a transformers ``Seq2SeqTrainer`` run with ``predict_with_generate``.

It does what the Hugging Face summarization examples do by hand: put the pad token back where the
loss mask (-100) is, decode, strip, score and add ``gen_len``. The mask is replaced in the
generated ids too: the Trainer pads each batch's generations to a common width with -100 when it
concatenates batches, and a fast tokenizer cannot decode -100 ("OverflowError: number too
small to fit in target type"). Sentences for ``rougeLsum`` come from rouge_plus's own
rule-based splitter (no ``nltk.download`` needed).

The Trainer's three ways of handing over the evaluation set all work:

- by default, one ``EvalPrediction`` of the whole set;
- ``eval_do_concat_batches=False``: predictions and labels are lists of per-batch arrays, of
  different widths;
- ``batch_eval_metrics=True``: one call per batch with ``compute_result=False``, then the last
  batch with ``compute_result=True``. Each batch is scored as it comes (per-example scores are
  kept, not texts) and the corpus result is returned on the last call; the batches' tensors may
  still be on the accelerator.

Nothing from transformers is imported: any tokenizer with ``batch_decode`` and ``pad_token_id``
works.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..errors import InputError, OptionError
from ..results import ExampleScores
from ..scorer import RougeScorer

IGNORE_INDEX = -100  # transformers' label value for positions the loss ignores


def _as_array(values: Any) -> np.ndarray:
    """A NumPy array of a NumPy array, a nested list, or a torch tensor on any device."""
    if isinstance(values, tuple):  # some models return (generated ids, ...)
        values = values[0]
    if hasattr(values, "detach") and hasattr(values, "cpu"):  # a torch tensor
        values = values.detach().cpu().numpy()
    return np.asarray(values)


def _batches(values: Any, what: str) -> list[np.ndarray]:
    """The token-id arrays of ``values``: one, or one per batch (eval_do_concat_batches=False)."""
    if isinstance(values, tuple):
        values = values[0]
    if isinstance(values, list) and values and all(_is_2d(v) for v in values):
        arrays = [_as_array(v) for v in values]
    else:
        arrays = [_as_array(values)]
    for ids in arrays:
        if ids.ndim != 2 or not np.issubdtype(ids.dtype, np.integer):
            raise InputError(
                f"{what} must be 2-d arrays of token ids, got shape {ids.shape} of {ids.dtype}; "
                "run the trainer with predict_with_generate=True"
            )
    return arrays


def _is_2d(value: Any) -> bool:
    if isinstance(value, tuple):
        value = value[0]
    return len(getattr(value, "shape", ())) == 2


class _Decoder:
    """Decodes token-id arrays to stripped texts, -100 read as padding."""

    def __init__(self, tokenizer: Any) -> None:
        pad_token_id = getattr(tokenizer, "pad_token_id", None)
        if pad_token_id is None:
            raise OptionError("the tokenizer has no pad_token_id; set tokenizer.pad_token first")
        self.tokenizer = tokenizer
        self.pad_token_id = pad_token_id

    def texts_and_lengths(self, values: Any, what: str) -> tuple[list[str], list[int]]:
        """Decoded texts and the number of non-pad tokens of each row."""
        texts: list[str] = []
        lengths: list[int] = []
        for ids in _batches(values, what):
            ids = np.where(ids == IGNORE_INDEX, self.pad_token_id, ids)
            decoded = self.tokenizer.batch_decode(ids, skip_special_tokens=True)
            texts.extend(text.strip() for text in decoded)
            lengths.extend(np.count_nonzero(ids != self.pad_token_id, axis=1).tolist())
        return texts, lengths


def make_compute_metrics(
    tokenizer: Any,
    *,
    rouge_types: list[str] | str | None = None,
    split_sentences: str | Callable[[str], list[str]] = "rules",
    percent: bool = True,
    **options: object,
) -> Callable[..., dict[str, float]]:
    """Build ``compute_metrics(eval_pred, compute_result=None)`` for ``Seq2SeqTrainer``.

    ``eval_pred`` is an ``EvalPrediction`` or a ``(predictions, labels)`` tuple of generated and
    label token ids (arrays, per-batch lists of arrays, or tensors). Returns the flat score dict
    of :func:`rouge_plus.score` (options as there) plus ``gen_len``, the mean number of non-pad
    generated tokens. With ``percent=True`` (default, as in the Hugging Face examples) scores
    are ``round(100 * value, 4)``; with ``percent=False`` they are the unrounded 0..1 floats.

    ``compute_result`` is the Trainer's ``batch_eval_metrics=True`` protocol: ``False`` scores
    and keeps the batch and returns ``{}``; ``True`` adds the batch and returns the result of
    every batch kept since the last result.
    """
    decoder = _Decoder(tokenizer)
    scorer = RougeScorer(rouge_types, split_sentences=split_sentences, **options)
    if not scorer.options.use_aggregator:
        raise OptionError("compute_metrics returns corpus scores: use_aggregator must stay True")
    kept: list[ExampleScores] = []  # batch_eval_metrics: the batches since the last result
    kept_lengths: list[int] = []

    def result(parts: list[ExampleScores], lengths: list[int]) -> dict[str, float]:
        scores = ExampleScores.concatenate(parts).aggregate()
        if percent:
            scores = {key: round(value * 100, 4) for key, value in scores.items()}
        return {**scores, "gen_len": round(float(np.mean(lengths)), 4)}

    def compute_metrics(eval_pred: Any, compute_result: bool | None = None) -> dict[str, float]:
        if hasattr(eval_pred, "predictions"):
            predictions, labels = eval_pred.predictions, eval_pred.label_ids
        else:
            predictions, labels = eval_pred[0], eval_pred[1]
        generated, lengths = decoder.texts_and_lengths(predictions, "predictions")
        targets, _ = decoder.texts_and_lengths(labels, "labels")
        scores = scorer.score_examples(generated, targets)
        if compute_result is None:  # the whole evaluation set in one call
            return result([scores], lengths)
        kept.append(scores)
        kept_lengths.extend(lengths)
        if not compute_result:
            return {}
        try:
            return result(kept, kept_lengths)
        finally:
            kept.clear()
            kept_lengths.clear()

    return compute_metrics

"""The implementations the benchmark compares, behind one interface.

Each peer scores a corpus of (prediction, references) pairs and returns, per ROUGE type, an
``(n, 3)`` array of precision, recall and F, so every peer can be checked against rouge_score
before it is timed.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Sequence

import numpy as np

Scores = dict[str, np.ndarray]
Peer = Callable[[Sequence[str], Sequence[str]], Scores]


def _from_score_dicts(rows: list[dict], types: Sequence[str]) -> Scores:
    return {
        t: np.array([[r[t].precision, r[t].recall, r[t].fmeasure] for r in rows]) for t in types
    }


def rouge_plus_peer(types: Sequence[str], use_stemmer: bool, **options) -> Peer:
    from rouge_plus import RougeScorer

    scorer = RougeScorer(list(types), use_stemmer=use_stemmer, tokenizer="rouge_score", **options)
    return lambda preds, refs: scorer.score_examples(preds, refs).scores


def rouge_score_peer(types: Sequence[str], use_stemmer: bool) -> Peer:
    from rouge_score import rouge_scorer

    scorer = rouge_scorer.RougeScorer(list(types), use_stemmer=use_stemmer)
    return lambda preds, refs: _from_score_dicts(
        [scorer.score(r, p) for p, r in zip(preds, refs, strict=True)], types
    )


def rouge_score_rs_peer(types: Sequence[str], use_stemmer: bool) -> Peer:
    from rouge_score_rs import rouge_scorer

    scorer = rouge_scorer.RougeScorer(list(types), use_stemmer=use_stemmer)
    return lambda preds, refs: _from_score_dicts(scorer.score_batch(list(refs), list(preds)), types)


def rapidrouge_peer(types: Sequence[str], use_stemmer: bool) -> Peer:
    from rapidrouge import rouge_scorer

    scorer = rouge_scorer.RougeScorer(list(types), use_stemmer=use_stemmer)
    return lambda preds, refs: _from_score_dicts(
        [scorer.score(r, p) for p, r in zip(preds, refs, strict=True)], types
    )


def evaluate_rouge_peer(types: Sequence[str], use_stemmer: bool) -> Peer:
    """evaluate's "rouge" from the Hub when reachable, else the local re-creation of it."""
    import evaluate

    try:
        metric = evaluate.load("rouge")
    except Exception:  # noqa: BLE001 - offline: no Hub
        from evaluate_rouge_recreation import EvaluateRouge

        metric = EvaluateRouge()

    def run(preds, refs):
        result = metric.compute(
            predictions=list(preds),
            references=list(refs),
            rouge_types=list(types),
            use_stemmer=use_stemmer,
            use_aggregator=False,
        )
        return {t: np.column_stack([np.full(len(preds), np.nan)] * 2 + [result[t]]) for t in types}

    return run


PEERS: dict[str, Callable[..., Peer]] = {
    "rouge_plus": rouge_plus_peer,
    "rouge_score": rouge_score_peer,
    "evaluate-rouge": evaluate_rouge_peer,
    "rouge-score-rs": rouge_score_rs_peer,
    "rapidrouge": rapidrouge_peer,
}

_MODULES = {
    "rouge_plus": "rouge_plus",
    "rouge_score": "rouge_score",
    "evaluate-rouge": "evaluate",
    "rouge-score-rs": "rouge_score_rs",
    "rapidrouge": "rapidrouge",
}


def available(name: str) -> bool:
    return importlib.util.find_spec(_MODULES[name]) is not None

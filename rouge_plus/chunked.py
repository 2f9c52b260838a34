"""Scoring a large corpus a chunk of rows at a time, and joining per-example scores.

Per-example scores do not depend on which other rows share a batch, so a corpus scored in
chunks gives exactly the per-example arrays of one big call; the corpus aggregate is then computed
once over all rows (bootstrap needs them all). Chunks bound memory and let a progress bar move.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from .inputs import Batch, normalize_inputs
from .options import ScoreOptions
from .results import ExampleScores
from .scorer import score_examples

SCORE_COLUMNS = ("precision", "recall", "fmeasure")


def concatenate(parts: Sequence[ExampleScores]) -> ExampleScores:
    """One :class:`ExampleScores` holding the rows of ``parts`` in order."""
    if not parts:
        raise ValueError("there is nothing to score: no rows")
    names = parts[0].scores.keys()
    scores = {name: np.concatenate([part.scores[name] for part in parts]) for name in names}
    return ExampleScores(scores, parts[0].signature)


def score_in_chunks(
    predictions: object,
    references: object,
    options: ScoreOptions,
    *,
    chunk_size: int = 1000,
    on_chunk: Callable[[int, int], None] | None = None,
) -> ExampleScores:
    """Per-example scores of every row, computed ``chunk_size`` rows at a time.

    ``on_chunk(start, stop)`` is called after each chunk (rows ``start:stop``), e.g. to advance
    a progress bar.
    """
    if chunk_size < 1:
        raise ValueError(f"chunk_size must be a positive int, got {chunk_size!r}")
    corpus = normalize_inputs(predictions, references)  # error messages count rows from 0
    parts = []
    for start in range(0, len(corpus), chunk_size):
        stop = min(start + chunk_size, len(corpus))
        chunk = Batch(corpus.predictions[start:stop], corpus.references[start:stop])
        parts.append(score_examples(chunk, options))
        if on_chunk is not None:
            on_chunk(start, stop)
    return concatenate(parts)


def examples_from_columns(
    columns: dict[str, Sequence[float]], options: ScoreOptions
) -> ExampleScores:
    """Rebuild per-example arrays from ``<type>_precision``/``_recall``/``_fmeasure`` columns."""
    scores = {
        name: np.column_stack(
            [np.asarray(columns[f"{name}_{col}"], dtype=np.float64) for col in SCORE_COLUMNS]
        )
        for name in options.type_names
    }
    return ExampleScores(scores, options.signature())


def example_columns(examples: ExampleScores) -> dict[str, list[float]]:
    """Per-example ``<type>_precision``/``_recall``/``_fmeasure`` columns as Python floats."""
    return {
        f"{name}_{col}": values[:, i].tolist()
        for name, values in examples.scores.items()
        for i, col in enumerate(SCORE_COLUMNS)
    }

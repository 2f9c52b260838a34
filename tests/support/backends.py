"""Scoring without the compiled code, in the same process.

The switch ``ROUGE_PLUS_PURE_PYTHON=1`` chooses the pure-Python twins at import time; tests that
search inputs with hypothesis need the same choice in-process. :func:`without_compiled` swaps the
compiled code of some parts for what runs without it, and plans built inside it read the
swapped state (a plan decides once what runs compiled: see ``rouge_plus.plan.CompiledWork``), so
the scorers under comparison are built inside.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator

import pytest

import rouge_plus.plan
from rouge_plus import RougeScorer
from rouge_plus.kernels import native
from rouge_plus.kernels.python import PythonVocabulary, count_pairs_python
from rouge_plus.results import ExampleScores
from rouge_plus.scoring import multiref, tables
from rouge_plus.text import encoding

EVERY_PART = ("kernels", "reduction", "stems")


@contextlib.contextmanager
def without_compiled(parts: tuple[str, ...] = EVERY_PART) -> Iterator[None]:
    """Plans built inside run without the compiled code of ``parts``: ``"kernels"`` (the
    counting kernels and the vocabulary: their Python twins), ``"reduction"`` (the reduction of
    references and the column means: NumPy's), ``"stems"`` (the stem-id remap). The one-pair
    scorer is compiled code only: never used inside."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(rouge_plus.plan, "NATIVE", False)
        if "reduction" in parts:
            patch.setattr(rouge_plus.plan, "COMPILED_REDUCTION", False)
            patch.setattr(multiref, "per_row_scores", None)
            patch.setattr(tables, "_column_means", None)
        if "stems" in parts:
            patch.setattr(encoding, "_compiled", None)
        if "kernels" in parts:
            patch.setattr(native, "count_pairs_packed", count_pairs_python)
            patch.setattr(encoding, "Vocabulary", PythonVocabulary)
        rouge_plus.plan.clear_kept_plans()
        try:
            yield
        finally:
            rouge_plus.plan.clear_kept_plans()


def both_ways(
    make_scorer: Callable[[], RougeScorer],
    predictions: list,
    references: list,
    parts: tuple[str, ...] = EVERY_PART,
) -> tuple[ExampleScores, ExampleScores]:
    """The scores of a scorer built as usual, and of one built without ``parts`` of the
    compiled code."""
    compiled_way = make_scorer().score_examples(predictions, references)
    with without_compiled(parts):
        other_way = make_scorer().score_examples(predictions, references)
    return compiled_way, other_way

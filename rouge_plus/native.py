"""The compiled kernels, or their pure-Python twins when the extension is not built.

Set ``ROUGE_PLUS_PURE_PYTHON=1`` to use the Python code even when the extension is present (the
tests run both and require identical results).
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import numpy as np

from .kernels.python_backend import (
    LCS,
    NGRAM,
    SKIP_BIGRAM,
    SUMMARY_LCS,
    WEIGHTED_LCS,
    PythonVocabulary,
    count_pairs_python,
)

if os.environ.get("ROUGE_PLUS_PURE_PYTHON") != "1":
    try:
        from ._native import Vocabulary
        from ._native import count_pairs as _count_pairs_native
    except ImportError:  # pragma: no cover - depends on the build
        Vocabulary = PythonVocabulary  # type: ignore[misc,assignment]
        _count_pairs_native = None
else:
    Vocabulary = PythonVocabulary  # type: ignore[misc,assignment]
    _count_pairs_native = None

NATIVE = _count_pairs_native is not None
# The measure kinds the compiled kernel computes; the others always run in Python.
NATIVE_KINDS = (
    frozenset({NGRAM, LCS, SUMMARY_LCS, WEIGHTED_LCS, SKIP_BIGRAM}) if NATIVE else frozenset()
)


def count_pairs(
    ids: np.ndarray,
    sentences: np.ndarray,
    documents: np.ndarray,
    pred_docs: np.ndarray,
    ref_docs: np.ndarray,
    measures: Sequence[tuple[int, int, float]],
    vocab_size: int,
) -> np.ndarray:
    """``(len(measures), 3, n_pairs)`` float64: hit, pred_base and ref_base of every pair."""
    arrays = (
        np.ascontiguousarray(ids, dtype=np.int32),
        np.ascontiguousarray(sentences, dtype=np.int64),
        np.ascontiguousarray(documents, dtype=np.int64),
        np.ascontiguousarray(pred_docs, dtype=np.int64),
        np.ascontiguousarray(ref_docs, dtype=np.int64),
    )
    out = np.empty((len(measures), 3, len(pred_docs)))
    native = [i for i, spec in enumerate(measures) if spec[0] in NATIVE_KINDS]
    python = [i for i, spec in enumerate(measures) if spec[0] not in NATIVE_KINDS]
    if native:
        raw = _count_pairs_native(*arrays, [measures[i] for i in native], vocab_size)
        out[native] = np.frombuffer(raw, dtype=np.float64).reshape(len(native), 3, -1)
    if python:
        out[python] = count_pairs_python(*arrays, [measures[i] for i in python], vocab_size)
    return out

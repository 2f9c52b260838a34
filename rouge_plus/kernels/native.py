"""The kernel backend: the compiled extension, or its pure-Python twins when it is not built.

The choice is made once, for every kernel at once. Set ``ROUGE_PLUS_PURE_PYTHON=1`` to use the
Python code even when the extension is present (the tests run both and require identical
results).
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import numpy as np

from .python import PythonVocabulary, count_pairs_python
from .spec import Kernel, KernelSpec

NATIVE = False
if os.environ.get("ROUGE_PLUS_PURE_PYTHON") != "1":
    try:
        from . import _native
    except ImportError:  # pragma: no cover - depends on the build
        pass
    else:
        NATIVE = True

if NATIVE:
    Vocabulary = _native.Vocabulary
    _count_pairs = _native.count_pairs
    _native_codes = {name: getattr(_native, f"KIND_{name}", None) for name in Kernel.__members__}
    if _native_codes != {kernel.name: kernel.value for kernel in Kernel}:  # pragma: no cover
        raise ImportError(f"rouge_plus: the compiled kernels disagree on codes: {_native_codes}")
else:
    Vocabulary = PythonVocabulary  # type: ignore[misc,assignment]
    _count_pairs = count_pairs_python


def count_pairs(
    ids: np.ndarray,
    sentences: np.ndarray,
    documents: np.ndarray,
    pred_docs: np.ndarray,
    ref_docs: np.ndarray,
    specs: Sequence[KernelSpec],
    vocab_size: int,
) -> np.ndarray:
    """``(len(specs), 3, n_pairs)`` float64: hit, pred_base and ref_base of every pair."""
    raw = _count_pairs(
        np.ascontiguousarray(ids, dtype=np.int32),
        np.ascontiguousarray(sentences, dtype=np.int64),
        np.ascontiguousarray(documents, dtype=np.int64),
        np.ascontiguousarray(pred_docs, dtype=np.int64),
        np.ascontiguousarray(ref_docs, dtype=np.int64),
        [spec.packed() for spec in specs],
        vocab_size,
    )
    if isinstance(raw, np.ndarray):
        return raw
    return np.frombuffer(raw, dtype=np.float64).reshape(len(specs), 3, len(pred_docs))

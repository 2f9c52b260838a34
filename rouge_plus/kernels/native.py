"""The kernel backend: the compiled extension, or its pure-Python twins when it is not built.

The choice is made once, for every kernel at once, by the package-wide switch of
:mod:`rouge_plus._compiled` (``ROUGE_PLUS_PURE_PYTHON=1`` selects the Python code even when the
extension is present). NumPy is imported by :func:`count_pairs` only: the compiled kernels read
and return plain buffers (``count_pairs_buffers``), which the NumPy-free lane of the scorer uses.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .._compiled import compiled
from .spec import Kernel, KernelSpec

if TYPE_CHECKING:
    import numpy as np


_native = compiled("kernels._native")
NATIVE = _native is not None

if NATIVE:
    Vocabulary = _native.Vocabulary
    # count_pairs on buffers: int32/int64 buffers in, bytes of float64 out (see _native.c).
    count_pairs_buffers = _count_pairs = _native.count_pairs
    _native_codes = {name: getattr(_native, f"KIND_{name}", None) for name in Kernel.__members__}
    if _native_codes != {kernel.name: kernel.value for kernel in Kernel}:  # pragma: no cover
        raise ImportError(f"rouge_plus: the compiled kernels disagree on codes: {_native_codes}")
else:
    from .python import PythonVocabulary, count_pairs_python

    Vocabulary = PythonVocabulary  # type: ignore[misc,assignment]
    count_pairs_buffers = None
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
    import numpy as np

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

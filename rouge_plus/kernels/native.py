"""The kernel backend: the compiled extension, or its pure-Python twins when it is not built.

The choice is made once, for every kernel at once, by the package-wide switch of
:mod:`rouge_plus._compiled` (``ROUGE_PLUS_PURE_PYTHON=1`` selects the Python code even when the
extension is present; the tests run both and require identical results). :func:`count_pairs`
reads and returns buffers: the compiled kernels need no NumPy.
"""

from __future__ import annotations

from collections.abc import Sequence

from .._compiled import compiled
from ..errors import CompiledBuildError
from .spec import Kernel, KernelSpec

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .spec import Buffer


_native = compiled("kernels._native")
NATIVE = _native is not None

if NATIVE:
    Vocabulary = _native.Vocabulary
    # count_pairs with the specs already packed (the tests swap in the Python twin here).
    count_pairs_packed = _native.count_pairs
    # One pair per call, from two str to precision, recall and F (none without the extension:
    # its callers then take the general path).
    PairScorer = _native.PairScorer
    _native_codes = {name: getattr(_native, f"KIND_{name}", None) for name in Kernel.__members__}
    if _native_codes != {kernel.name: kernel.value for kernel in Kernel}:  # pragma: no cover
        raise CompiledBuildError(
            f"rouge_plus: the compiled kernels were built from other sources (their kind codes "
            f"{_native_codes} are not kernels/spec.py's): rebuild them (python setup.py "
            "build_ext --inplace in a checkout), or reinstall rouge_plus"
        )
else:
    from .python import PythonVocabulary, count_pairs_python

    Vocabulary = PythonVocabulary  # type: ignore[misc,assignment]
    count_pairs_packed = count_pairs_python
    PairScorer = None


def count_pairs(
    ids: Buffer,
    sentences: Buffer,
    documents: Buffer,
    pred_docs: Buffer,
    ref_docs: Buffer,
    specs: Sequence[KernelSpec],
    vocab_size: int,
) -> Buffer:
    """Hit, pred_base and ref_base of every pair ``(pred_docs[k], ref_docs[k])`` under each of
    ``specs``: float64 shaped ``(len(specs), 3, n_pairs)``, as bytes from the compiled kernels
    or a NumPy array from their twins. ``ids`` is a C-contiguous buffer of int32, the others of
    int64 (bytes, ``array``, NumPy arrays)."""
    packed = [spec.packed() for spec in specs]
    return count_pairs_packed(ids, sentences, documents, pred_docs, ref_docs, packed, vocab_size)

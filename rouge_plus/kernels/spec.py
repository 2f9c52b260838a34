"""The one table of counting kernels, and the spec a kernel is called with.

The compiled kernel (``_native.c``) and its pure-Python twin (``python.py``) take a measure as a
packed ``(code, n, x)`` tuple; this module is the only place that knows how the fields are
packed, and ``native.py`` checks at import that the C module's codes are the ones below. Texts
reach the kernels as buffers of int32 token ids and int64 offsets (see :func:`int_list`).
"""

from __future__ import annotations

import re
from enum import IntEnum

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import NamedTuple

    import numpy as np

    # What the kernels read and return: bytes from the compiled ones, NumPy from their twins.
    Buffer = bytes | bytearray | memoryview | np.ndarray
else:
    from .._records import NamedTuple

# The compiled tokenizer's rule (lowercased, it is rouge_score's): runs of ASCII letters and
# digits. The Python twin, the text tokenizers and the explanations use this one pattern too.
ASCII_WORD = re.compile(r"[A-Za-z0-9]+")


class Kernel(IntEnum):
    """What a kernel counts for one (prediction, reference) pair; the values are the C codes."""

    NGRAM = 0  # clipped n-gram overlap over the whole token list
    LCS = 1  # one longest common subsequence of the whole token lists
    SUMMARY_LCS = 2  # Lin's union LCS, reference sentence by sentence (ROUGE-Lsum)
    WEIGHTED_LCS = 3  # ROUGE-1.5.5's weighted LCS, f(k) = k ** weight
    SKIP_BIGRAM = 4  # ROUGE-1.5.5's skip-bigrams (and unigrams for SU)


class KernelSpec(NamedTuple):
    """One kernel call, with named parameters."""

    kernel: Kernel
    n: int = 0  # NGRAM: the n-gram length
    weight: float = 0.0  # WEIGHTED_LCS: the exponent w
    max_gap: int | None = None  # SKIP_BIGRAM: most words between the pair; None: no limit
    unigrams: bool = False  # SKIP_BIGRAM: also count unigrams (ROUGE-SU)

    def packed(self) -> tuple[int, int, float]:
        """The ``(code, n, x)`` tuple of the kernels' calling convention: for skip-bigrams
        ``n`` is the gap (-1: no limit) and ``x`` 1.0 to add unigrams; for ROUGE-W ``x`` is the
        weight."""
        if self.kernel == Kernel.SKIP_BIGRAM:
            gap = -1 if self.max_gap is None else self.max_gap
            return int(self.kernel), gap, 1.0 if self.unigrams else 0.0
        return int(self.kernel), self.n, self.weight


def unpack(packed: tuple[int, int, float]) -> KernelSpec:
    """The inverse of :meth:`KernelSpec.packed`."""
    code, n, x = packed
    kernel = Kernel(code)
    if kernel == Kernel.SKIP_BIGRAM:
        return KernelSpec(kernel, max_gap=None if n < 0 else n, unigrams=x == 1.0)
    return KernelSpec(kernel, n=n, weight=x)


def int_list(values: object, code: str) -> list[int]:
    """The integers of a C-contiguous buffer of int32 (``code`` ``"i"``) or int64 (``"q"``):
    bytes as the vocabulary returns them, an ``array``, a NumPy array."""
    return memoryview(values).cast("B").cast(code).tolist()

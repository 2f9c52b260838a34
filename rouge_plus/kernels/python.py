"""Pure-Python twins of the compiled kernels' interface (``_native.c``).

They are the reference the C code is tested against, and the fallback where the extension is
not built. Same inputs, same outputs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from . import skip_bigram, weighted_lcs
from .lcs import lcs_length, summary_lcs_hits
from .ngram import clipped_overlap, ngram_counts
from .spec import ASCII_WORD, Kernel, unpack

if TYPE_CHECKING:
    import numpy as np

__all__ = ["ASCII_WORD", "PythonVocabulary", "count_pairs_python"]


class PythonVocabulary:
    """Words to dense ids; ``encode`` tokenizes str items with rouge_score's rule."""

    def __init__(self) -> None:
        self._ids: dict[str, int] = {}

    def __len__(self) -> int:
        return len(self._ids)

    def words(self) -> list[str]:
        return list(self._ids)

    def encode(
        self,
        items: Sequence[str | list[list[str]]],
        split_newlines: bool,
        prepare: Callable[[int, str], str | list[list[str]]] | None = None,
    ):
        import numpy as np

        word_id = self._ids.setdefault
        ids: list[int] = []
        sentences = [0]
        documents = [0]
        for index, item in enumerate(items):
            if prepare is not None and isinstance(item, str) and not item.isascii():
                item = prepare(index, item)
            if isinstance(item, str):
                lines = item.split("\n") if split_newlines else [item]
                item = [[t.lower() for t in ASCII_WORD.findall(line)] for line in lines]
            for sentence in item:
                if sentence:
                    ids.extend(word_id(token, len(self._ids)) for token in sentence)
                    sentences.append(len(ids))
            documents.append(len(sentences) - 1)
        return (
            np.asarray(ids, dtype=np.int32).tobytes(),
            np.asarray(sentences, dtype=np.int64).tobytes(),
            np.asarray(documents, dtype=np.int64).tobytes(),
        )


def count_pairs_python(
    ids: np.ndarray,
    sentences: np.ndarray,
    documents: np.ndarray,
    pred_docs: np.ndarray,
    ref_docs: np.ndarray,
    measures: Sequence[tuple[int, int, float]],
    vocab_size: int,
) -> np.ndarray:
    """Hit, pred_base and ref_base of every pair and measure (see ``_native.count_pairs``)."""
    import numpy as np

    del vocab_size  # the C kernel sizes its scratch tables with it
    bounds = sentences.tolist()
    doc_bounds = documents.tolist()
    flat = ids.tolist()

    def doc_sentences(doc: int) -> list[list[int]]:
        first, last = doc_bounds[doc], doc_bounds[doc + 1]
        return [flat[bounds[s] : bounds[s + 1]] for s in range(first, last)]

    def doc_tokens(doc: int) -> list[int]:
        return flat[bounds[doc_bounds[doc]] : bounds[doc_bounds[doc + 1]]]

    grams: dict[tuple[int, int], Counter] = {}

    def ngrams(doc: int, n: int) -> Counter:
        if (doc, n) not in grams:
            grams[doc, n] = ngram_counts(doc_tokens(doc), n)
        return grams[doc, n]

    specs = [unpack(packed) for packed in measures]
    out = np.zeros((len(measures), 3, len(pred_docs)))
    for k, (p, r) in enumerate(zip(pred_docs.tolist(), ref_docs.tolist(), strict=True)):
        pred, ref = doc_tokens(p), doc_tokens(r)
        for m, spec in enumerate(specs):
            if spec.kernel == Kernel.NGRAM:
                n = spec.n
                hit = clipped_overlap(ngrams(p, n), ngrams(r, n))
                bases = (max(len(pred) - n + 1, 0), max(len(ref) - n + 1, 0))
            elif spec.kernel == Kernel.LCS:
                hit, bases = lcs_length(ref, pred), (len(pred), len(ref))
            elif spec.kernel == Kernel.SUMMARY_LCS:
                hit = summary_lcs_hits(
                    doc_sentences(r), doc_sentences(p), ngrams(r, 1), ngrams(p, 1)
                )
                bases = (len(pred), len(ref))
            elif spec.kernel == Kernel.WEIGHTED_LCS:
                hit, *bases = weighted_lcs.counts(doc_sentences(p), doc_sentences(r), spec.weight)
            else:
                hit, *bases = skip_bigram.counts(
                    doc_sentences(p), doc_sentences(r), spec.max_gap, spec.unigrams
                )
            out[m, :, k] = (hit, *bases)
    return out

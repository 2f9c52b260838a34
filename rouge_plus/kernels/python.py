"""Pure-Python twins of the compiled kernels' interface (the extension ``_native``).

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
from .spec import ASCII_WORD, Kernel, KernelSpec, int_list, unpack

if TYPE_CHECKING:
    import numpy as np

    from .spec import Buffer

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


class _Documents:
    """The flat arrays of encoded documents, read back as Python lists (n-grams cached)."""

    def __init__(self, ids: Buffer, sentences: Buffer, documents: Buffer) -> None:
        self._flat = int_list(ids, "i")
        self._bounds = int_list(sentences, "q")
        self._doc_bounds = int_list(documents, "q")
        self._grams: dict[tuple[int, int], Counter] = {}

    def sentences(self, doc: int) -> list[list[int]]:
        first, last = self._doc_bounds[doc], self._doc_bounds[doc + 1]
        return [self._flat[self._bounds[s] : self._bounds[s + 1]] for s in range(first, last)]

    def tokens(self, doc: int) -> list[int]:
        bounds = self._bounds
        return self._flat[bounds[self._doc_bounds[doc]] : bounds[self._doc_bounds[doc + 1]]]

    def ngrams(self, doc: int, n: int) -> Counter:
        if (doc, n) not in self._grams:
            self._grams[doc, n] = ngram_counts(self.tokens(doc), n)
        return self._grams[doc, n]


def count_pairs_python(
    ids: Buffer,
    sentences: Buffer,
    documents: Buffer,
    pred_docs: Buffer,
    ref_docs: Buffer,
    measures: Sequence[tuple[int, int, float]],
    vocab_size: int,
) -> np.ndarray:
    """Hit, pred_base and ref_base of every pair and measure (see ``_native.count_pairs``)."""
    import numpy as np

    del vocab_size  # the C kernel sizes its scratch tables with it
    docs = _Documents(ids, sentences, documents)
    specs = [unpack(packed) for packed in measures]
    preds, refs = int_list(pred_docs, "q"), int_list(ref_docs, "q")
    out = np.zeros((len(measures), 3, len(preds)))
    for k, (p, r) in enumerate(zip(preds, refs, strict=True)):
        pred, ref = docs.tokens(p), docs.tokens(r)
        for m, spec in enumerate(specs):
            if spec.kernel == Kernel.NGRAM:
                n = spec.n
                hit = clipped_overlap(docs.ngrams(p, n), docs.ngrams(r, n))
                bases = (max(len(pred) - n + 1, 0), max(len(ref) - n + 1, 0))
            elif spec.kernel == Kernel.LCS:
                hit, bases = lcs_length(ref, pred), (len(pred), len(ref))
            elif spec.kernel == Kernel.SKIP_BIGRAM:
                hit, *bases = skip_bigram.counts(
                    docs.sentences(p), docs.sentences(r), spec.max_gap, spec.unigrams
                )
            else:
                hit, *bases = _sentence_counts(spec, docs, (p, r), (p, r))
            out[m, :, k] = (hit, *bases)
    return out


def count_pairs_clipped(
    ids: Buffer,
    sentences: Buffer,
    documents: Buffer,
    pairs: tuple[Buffer, Buffer],
    clip_pairs: tuple[Buffer, Buffer],
    measures: Sequence[tuple[int, int, float]],
) -> np.ndarray:
    """Like :func:`count_pairs_python` for the sentence-level kernels (summary-level and
    weighted LCS) of the pairs ``pairs = (pred_docs, ref_docs)``, with the unigram counts that
    clip the hits, and the prediction's length, taken from the documents ``clip_pairs``.

    ROUGE-1.5.5 under ``-b`` reads a text twice: its sentences as the LCS sees them, and its
    tokens for the clipping counts and the peer's length under another byte limit (see
    :mod:`rouge_plus.rouge155.length_limit`).
    """
    import numpy as np

    docs = _Documents(ids, sentences, documents)
    specs = [unpack(packed) for packed in measures]
    sides = [int_list(side, "q") for side in (*pairs, *clip_pairs)]
    out = np.zeros((len(measures), 3, len(sides[0])))
    for k, (p, r, clip_p, clip_r) in enumerate(zip(*sides, strict=True)):
        for m, spec in enumerate(specs):
            out[m, :, k] = _sentence_counts(spec, docs, (p, r), (clip_p, clip_r))
    return out


def _sentence_counts(
    spec: KernelSpec, docs: _Documents, pair: tuple[int, int], clip: tuple[int, int]
) -> tuple[float, float, float]:
    """Hit, pred_base and ref_base of a summary-level or weighted LCS: sentences from the
    documents ``pair``, clipping counts and prediction length from the documents ``clip``."""
    (p, r), (clip_p, clip_r) = pair, clip
    if spec.kernel == Kernel.SUMMARY_LCS:
        hit = summary_lcs_hits(
            docs.sentences(r), docs.sentences(p), docs.ngrams(clip_r, 1), docs.ngrams(clip_p, 1)
        )
        return hit, len(docs.tokens(clip_p)), len(docs.tokens(r))
    if spec.kernel == Kernel.WEIGHTED_LCS:
        return weighted_lcs.counts(
            docs.sentences(p),
            docs.sentences(r),
            spec.weight,
            clip=(docs.tokens(clip_p), docs.tokens(clip_r)),
        )
    raise NotImplementedError(f"the Python twins have no sentence-level kernel {spec.kernel.name}")

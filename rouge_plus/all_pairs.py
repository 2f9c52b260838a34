"""Every text against every other under one ROUGE type, and the Self-Instruct/Alpaca rule that
deduplicates instruction datasets with it.

:func:`pairwise` scores a collection against itself (or against ``others``) and returns the
matrix, or with a threshold only the pairs that reach it; :func:`dedupe` keeps a text unless its
ROUGE-L F with a text kept before it exceeds 0.7. Each text is tokenized once: ``texts`` and
``others`` are encoded together, and the counting kernel runs over index pairs in tiles of at
most ``TILE_PAIRS`` pairs, so memory stays bounded for any number of texts.

With a threshold, most pairs are never counted: :class:`_Bounds` gives an upper bound on each
pair's score from the two texts' sizes and an upper bound on their unigram overlap, for every
pair of a tile at once, and only the pairs whose bound reaches the threshold are counted.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import math
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from .errors import OptionError, OptionTypeError
from .inputs import normalize_texts
from .kernels.similarity_join import (
    Elements,
    Needs,
    candidate_pairs,
    document_frequency,
    popcount,
)
from .options import REPORT, ScoreOptions, option_keywords
from .parallel import default_workers, map_in_workers
from .plan import ScoringPlan
from .rouge2.synonyms import load_synonyms
from .scoring.counting import count_measures
from .scoring.fmeasure import FMeasure, rounded_prf
from .scoring.measures import Measure
from .scoring.protocols import SynonymMatcher
from .text.diagnostics import warn_wordless, wordless_places
from .text.encoding import Encoded

if TYPE_CHECKING:
    from .scoring.measures import Bound

# Which of precision, recall and F ``statistic`` picks.
STATISTICS = {"p": 0, "r": 1, "f": 2}
BACKENDS = ("threads", "processes")
# Pairs counted by one kernel call (and bounded at once): about 30 MB of intermediate arrays.
TILE_PAIRS = 1 << 18
TILE_SIDE = 512
# Texts that dedupe() decides at a time: each is compared with every text kept before its block,
# then with the texts of its block.
DEDUPE_BLOCK = 1024
# Words are hashed into this many buckets for the overlap bound; the OWN_BUCKETS most frequent
# words get a bucket each, so the bound is exact on the words most texts share, and the others
# share the rest (fewer own buckets: fewer collisions among the rarer words of long texts).
BUCKETS = 320
OWN_BUCKETS = 32
# A pair is counted when its bound is at least ``threshold - PRUNE_MARGIN``: floating-point
# rounding can put a computed score a few ulps above the exact value its bound dominates.
PRUNE_MARGIN = 1e-9
# ROUGE-1.5.5's printed values (profile="rouge155") round P, R and F to 5 decimals: the bound adds
# the most that rounding can add to each.
ROUND5_SLACK = 1e-5

# Candidate pairs of the prefix filter generated at a time (before the bound and the count), and
# tasks handed to the workers at a time.
JOIN_CHUNK_PAIRS = 1 << 20
TASK_GROUP = 8
# The prefix filter gives way to the tiled path when its prefixes meet more often than this many
# times per pair (see _meetings). Measured on 1,500 texts of 100-200 Zipf-drawn words and on
# 3,000 CNN/DM summaries, rougeL: the join took 1.7x the tiles' time at 27 meetings a pair
# (threshold 0.3), half of it at 12 (0.5) and at 3 (the summaries, 0.3).
MEETINGS_PER_PAIR = 16
# The most (prediction profile, reference profile) cells of the prefix filter's table.
PROFILE_CELLS = 1 << 24

# The pairs ``pairwise(..., threshold=...)`` returns.
PAIR_DTYPE = np.dtype([("i", np.int64), ("j", np.int64), ("score", np.float64)])


class Deduplication(NamedTuple):
    """What :func:`dedupe` keeps and drops, by index into its ``texts``."""

    kept: list[int]  # in input order
    dropped: dict[int, int]  # dropped index -> the kept index that caused it


def _words(bits: np.ndarray) -> np.ndarray:
    """Rows of packed bytes as rows of little-endian uint64 words (zero-padded)."""
    padded = np.zeros((len(bits), -(-bits.shape[1] // 8) * 8), dtype=np.uint8)
    padded[:, : bits.shape[1]] = bits
    return padded.view("<u8").astype(np.uint64)


@dataclass(frozen=True)
class _Bounds:
    """Upper bounds on the ``hit`` count of any pair of documents, a tile of pairs at once.

    Why a bound on ``hit`` bounds the score: for every type, ``pred_base`` depends only on the
    prediction and ``ref_base`` only on the reference (both are read from each document counted
    against itself), P = g(hit / pred_base) and R = g(hit / ref_base) with g the identity (for
    ROUGE-W, g(x) = x^(1/w)), and F is a weighted harmonic mean of P and R; P, R and F all grow
    with ``hit``. Let U = Σ_w min(a_w, b_w), the clipped unigram overlap of the two texts.

    - ROUGE-N: hit = Σ_g min(a_g, b_g) ≤ min(pred_base, ref_base), the n-gram totals; and hit ≤ U:
      the matched n-gram occurrences, paired one to one, pair their first tokens one to one.
    - ROUGE-L: an LCS pairs tokens one to one, so hit ≤ U ≤ min(|a|, |b|), the bases.
    - ROUGE-Lsum and ROUGE-1.5.5's ROUGE-L: a token scores only while both texts have an unused
      occurrence of it, which it then uses: hit ≤ U ≤ min(|a|, |b|).
    - ROUGE-W: scored tokens are clipped the same way, so there are S ≤ U of them, and
      hit = Σ_i k_i^w over runs with Σ_i k_i ≤ S, which is ≤ S^w for w ≥ 1 (x^w is
      superadditive) and ≤ S for w < 1.
    - ROUGE-S/SU and the +synonyms types: a clipped overlap or a one-to-one matching of units,
      so hit ≤ min(pred_base, ref_base).
    - Topic types: ROUGE-1 (or its +synonyms form) of the topic words, encoded as such.

    U itself is bounded by hashing words into buckets: Σ_w min(a_w, b_w) ≤ Σ_B min(a_B, b_B)
    with a_B = Σ_{w in B} a_w (min is superadditive). As min(x, y) = [x ≥ 1]·[y ≥ 1] +
    min((x - 1)⁺, (y - 1)⁺), that is at most a product of 0/1 vectors (one matrix product for a
    whole tile) plus min(Σ_B (a_B - 1)⁺, Σ_B (b_B - 1)⁺), the repeated tokens of either text.
    """

    pred_base: np.ndarray  # per document
    ref_base: np.ndarray
    kind: Bound  # "overlap": min(U, bases); "weighted": U^w or U; "bases": min(bases)
    weight: float = 1.0
    present: np.ndarray | None = None  # (n_documents, buckets / 64) uint64: [count_B ≥ 1] bits
    excess: np.ndarray | None = None  # Σ_B (count_B - 1)⁺ per document
    frequency: np.ndarray | None = None  # per word id, the documents that hold it

    @classmethod
    def build(cls, measure: Measure, encoded: Encoded, self_counts: tuple) -> _Bounds:
        _, pred_base, ref_base = self_counts
        kind = measure.bound
        if kind == "bases":
            return cls(pred_base, ref_base, kind)
        owner, ids = _tokens(encoded)
        frequency = document_frequency(owner, ids, max(encoded.vocab_size, 1))
        present, excess = _bucket_counts(owner, ids, len(pred_base), frequency)
        weight = measure.weight if kind == "weighted" else 1.0
        return cls(pred_base, ref_base, kind, weight, present, excess, frequency)

    def hits(self, preds: np.ndarray, refs: np.ndarray) -> np.ndarray:
        """At least the hit count of every pair ``(preds[k], refs[k])``, the two index arrays
        broadcast (``preds[:, None], refs[None, :]``: every pair of the two)."""
        sizes = np.minimum(self.pred_base[preds], self.ref_base[refs])
        if self.kind == "bases":
            return sizes
        a, b = self.present[preds], self.present[refs]
        overlap = np.minimum(self.excess[preds], self.excess[refs])
        for word in range(a.shape[-1]):
            overlap = overlap + popcount(np.bitwise_and(a[..., word], b[..., word]))
        return self.of_overlap(overlap, sizes)

    def of_overlap(self, overlap: np.ndarray, sizes: np.ndarray) -> np.ndarray:
        """At least the hit count of a pair whose clipped unigram overlap is at most
        ``overlap`` and whose smaller base is ``sizes``; nondecreasing in ``overlap``."""
        if self.kind == "weighted":
            return overlap**self.weight if self.weight >= 1 else overlap
        return np.minimum(overlap, sizes)


def _tokens(encoded: Encoded) -> tuple[np.ndarray, np.ndarray]:
    """The document and the word id of every token of ``encoded``'s documents (int64)."""
    ids, sentences, documents = encoded.arrays()
    lengths = np.diff(sentences[documents])
    owner = np.repeat(np.arange(len(lengths), dtype=np.int64), lengths)
    return owner, ids[sentences[documents[0]] :].astype(np.int64)


def _bucket_counts(
    owner: np.ndarray, ids: np.ndarray, n_docs: int, frequency: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Per document: which buckets its tokens fall in, and how many of its tokens fall in a
    bucket already used, Σ_B (count_B - 1)⁺ (see :class:`_Bounds`)."""
    vocab = len(frequency)
    lengths = np.bincount(owner, minlength=n_docs)
    rank = np.empty(vocab, dtype=np.int64)
    rank[np.argsort(-frequency, kind="stable")] = np.arange(vocab)
    if vocab <= BUCKETS:
        width, bucket = vocab, rank
    else:
        own = min(OWN_BUCKETS, BUCKETS // 2)
        shared = BUCKETS - own
        width, bucket = BUCKETS, np.where(rank < own, rank, own + rank % shared)
    present = np.zeros((n_docs, -(-width // 64)), dtype=np.uint64)
    excess = np.zeros(n_docs)
    starts = np.concatenate([[0], np.cumsum(lengths)])
    step = max(1, (1 << 22) // width)  # documents per chunk: bounds the dense counts' memory
    for first in range(0, n_docs, step):
        last = min(first + step, n_docs)
        span = slice(starts[first], starts[last])
        cells = (owner[span] - first) * width + bucket[ids[span]]
        counts = np.bincount(cells, minlength=(last - first) * width).reshape(-1, width)
        bits = np.packbits(counts >= 1, axis=1, bitorder="little")
        present[first:last] = _words(bits)
        excess[first:last] = np.maximum(counts - 1, 0).sum(axis=1)
    return present, excess


@dataclass(frozen=True)
class _PairScorer:
    """Scores pairs of documents of one encoding under one measure; picklable, so that worker
    processes can hold one (the synonym source is reloaded there, see :func:`_workers`)."""

    encoded: Encoded
    measure: Measure
    fmeasure: FMeasure
    rounded: bool  # ROUGE-1.5.5's 5-decimal values (profile="rouge155")
    column: int  # 0, 1, 2: precision, recall, F
    synonyms: SynonymMatcher | None
    bounds: _Bounds | None = None

    def counts(self, preds: np.ndarray, refs: np.ndarray) -> tuple:
        """``(hit, pred_base, ref_base)`` of the pairs ``(preds[k], refs[k])``."""
        preds, refs = (np.ascontiguousarray(docs, dtype=np.int64) for docs in (preds, refs))
        counts = count_measures([self.measure], self.encoded, preds, refs, self.synonyms)
        return counts[self.measure]

    def values(self, preds: np.ndarray, refs: np.ndarray) -> np.ndarray:
        """The statistic of each pair ``(preds[k], refs[k])``, as ``score()`` computes it."""
        precision, recall = self.measure.precision_recall(*self.counts(preds, refs))
        if self.rounded:
            return rounded_prf(precision, recall, self.fmeasure)[self.column]
        if self.column < 2:
            return (precision, recall)[self.column]
        return self.fmeasure(precision, recall)

    def block(self, preds: np.ndarray, refs: np.ndarray) -> np.ndarray:
        """``(len(preds), len(refs))``: every pair's statistic."""
        pred_docs = np.repeat(preds, len(refs))
        ref_docs = np.tile(refs, len(preds))
        return self.values(pred_docs, ref_docs).reshape(len(preds), len(refs))

    def ceiling(self, preds: np.ndarray, refs: np.ndarray) -> np.ndarray:
        """At least the statistic of every pair ``(preds[k], refs[k])``, the two index arrays
        broadcast as in :meth:`_Bounds.hits` (see :class:`_Bounds`)."""
        bounds = self.bounds
        return self.ceiling_of_hits(
            bounds.hits(preds, refs), bounds.pred_base[preds], bounds.ref_base[refs]
        )

    def ceiling_of_hits(
        self, hits: np.ndarray, pred_base: np.ndarray, ref_base: np.ndarray
    ) -> np.ndarray:
        """At least the statistic of a pair with at most ``hits`` hits and these bases:
        nondecreasing in ``hits``, as P, R and F are (plus what 5-decimal rounding can add)."""
        precision, recall = self.measure.precision_recall(hits, pred_base, ref_base)
        slack = ROUND5_SLACK if self.rounded else 0.0
        precision, recall = precision + slack, recall + slack
        if self.column < 2:
            return (precision, recall)[self.column]
        return self.fmeasure(precision, recall) + slack

    def confirmed(
        self, preds: np.ndarray, refs: np.ndarray, threshold: float, strict: bool
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The pairs ``(preds[k], refs[k])`` whose statistic is ``>= threshold`` (``>`` when
        ``strict``): their documents and statistics. Every pair is counted: the callers pass
        only pairs whose bound reaches the threshold."""
        values = self.values(preds, refs) if len(preds) else np.zeros(0)
        keep = values > threshold if strict else values >= threshold
        return preds[keep], refs[keep], values[keep]

    def matches(
        self, preds: np.ndarray, refs: np.ndarray, threshold: float, strict: bool, ordered: bool
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The pairs of ``preds × refs`` whose statistic is ``>= threshold`` (``> threshold``
        when ``strict``), with only pairs whose prediction comes first when ``ordered``: their
        documents and statistics."""
        candidate = self.ceiling(preds[:, None], refs[None, :]) >= threshold - PRUNE_MARGIN
        if ordered:
            candidate &= preds[:, None] < refs[None, :]
        rows, cols = np.nonzero(candidate)
        return self.confirmed(preds[rows], refs[cols], threshold, strict)


@dataclass(frozen=True)
class _PrefixFilter:
    """The candidates of a thresholded join, by prefix filtering (:mod:`.kernels.similarity_join`):
    only pairs whose prefixes share an element, that the positional filter admits, and whose
    exact clipped unigram overlap U reaches need (below) are counted, by
    :meth:`_PairScorer.confirmed`.

    **The least overlap of a pair.** Every bound of :class:`_Bounds` except ``"bases"`` is a
    function of the clipped unigram overlap U: the statistic of a pair is at most
    ``ceiling_of_hits(of_overlap(U, ...), pred_base, ref_base)``, nondecreasing in U, and U is
    at most the smaller token count. So a pair (x, y) reaches the threshold only if
    U ≥ need(x, y), the least u ≤ min(|x|, |y|) at which that ceiling reaches it (the same
    ``threshold - PRUNE_MARGIN`` as the tiled path); no such u (need = ∞) means it never does:
    that is the length filter, for every statistic (p, r, F) and F-measure (beta, alpha) and
    ROUGE-1.5.5's rounding, as the ceiling has them all. need depends on the two documents
    only through their *profiles* (base, token count), so it is one table over the profiles
    of the predictions and of the references.

    **The prefix filter.** A prediction x needs at least α_x = min over the references' profiles
    of need(x, ·), a reference y at least α_y = min over the predictions' profiles; by the
    prefix lemma, a pair that reaches the threshold shares an element of the first
    ``|x| − α_x + 1`` elements of x and the first ``|y| − α_y + 1`` of y (a document with
    α = ∞ reaches it with nothing: no prefix). For ROUGE-L F with beta = 1, need is
    ⌈t(|x| + |y|)/2⌉ and α = ⌈t|x|/(2 − t)⌉.

    Not built (``build`` returns None, and the tiled path runs) when the bound is ``"bases"``
    (skip-bigrams, +synonyms: not a function of U), when a pair could reach the threshold with
    U = 0 (a threshold at or below the ceiling of two disjoint texts, such as 0), when the
    profile table would exceed ``PROFILE_CELLS`` cells (ROUGE-W bases of many sentence
    shapes), or when the prefixes meet more than ``MEETINGS_PER_PAIR`` times per pair
    (:func:`_meetings`).
    """

    elements: Elements
    # need(x, y) by (prediction profile, reference profile), ∞ for never; each document's
    # profile as a prediction and as a reference (-1: not one); the bound's buckets.
    needs: Needs
    pred_prefix: np.ndarray  # per document, its prefix size as a prediction
    ref_prefix: np.ndarray

    @classmethod
    def build(
        cls, scorer: _PairScorer, preds: np.ndarray, refs: np.ndarray, threshold: float
    ) -> _PrefixFilter | None:
        bounds, encoded = scorer.bounds, scorer.encoded
        if bounds.kind == "bases" or not len(preds) or not len(refs):
            return None
        ids, sentences, documents = encoded.arrays()
        lengths = np.diff(sentences[documents])
        pred_profiles, pred_of = _profiles(bounds.pred_base, lengths, preds)
        ref_profiles, ref_of = _profiles(bounds.ref_base, lengths, refs)
        if len(pred_profiles) * len(ref_profiles) > PROFILE_CELLS:
            return None
        pred_base, pred_len = pred_profiles[:, :1], pred_profiles[:, 1:]
        ref_base, ref_len = ref_profiles[:, 0], ref_profiles[:, 1]

        def reaches(overlap: np.ndarray) -> np.ndarray:
            hits = bounds.of_overlap(overlap, np.minimum(pred_base, ref_base))
            return scorer.ceiling_of_hits(hits, pred_base, ref_base) >= threshold - PRUNE_MARGIN

        if reaches(np.zeros((1, 1))).any():
            return None
        cap = np.minimum(pred_len, ref_len)
        viable = reaches(cap)
        low, high = np.zeros_like(cap), cap.copy()  # reaches(low) is False, reaches(high) True
        while np.any(viable & (high - low > 1)):
            middle = (low + high) // 2
            up = reaches(middle)
            high, low = np.where(up, middle, high), np.where(up, low, middle)
        need = np.where(viable, high, np.inf)
        n_docs = len(lengths)
        pred_profile = np.full(n_docs, -1, dtype=np.int64)
        ref_profile = pred_profile.copy()
        pred_profile[preds], ref_profile[refs] = pred_of, ref_of
        pred_prefix, ref_prefix = np.zeros(n_docs, np.int64), np.zeros(n_docs, np.int64)
        pred_prefix[preds] = _prefix_sizes(lengths[preds], need.min(axis=1)[pred_of])
        ref_prefix[refs] = _prefix_sizes(lengths[refs], need.min(axis=0)[ref_of])
        elements = Elements(*_tokens(encoded), n_docs, bounds.frequency)
        meetings = _meetings(elements, (preds, pred_prefix[preds]), (refs, ref_prefix[refs]))
        if meetings > MEETINGS_PER_PAIR * len(preds) * len(refs):
            return None
        needs = Needs.of(need, pred_profile, ref_profile, bounds.present, bounds.excess)
        return cls(elements, needs, pred_prefix, ref_prefix)

    def candidates(
        self, preds: np.ndarray, refs: np.ndarray, ordered: bool
    ) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """``(preds, refs)``: the candidate pairs of ``preds × refs`` (each prediction before
        its reference when ``ordered``), in chunks."""
        yield from candidate_pairs(
            self.elements,
            (preds, self.pred_prefix[preds]),
            (refs, self.ref_prefix[refs]),
            ordered,
            JOIN_CHUNK_PAIRS,
            self.needs,
        )


def _meetings(
    elements: Elements,
    probes: tuple[np.ndarray, np.ndarray],
    indexed: tuple[np.ndarray, np.ndarray],
) -> int:
    """How often the prefixes of ``probes`` and of ``indexed`` (documents, prefix sizes) share
    an element: the join reads a candidate at each meeting, so when they outnumber the pairs
    many times over (a low threshold, over texts of common words: prefixes nearly whole) the
    tiled path, which bounds every pair once, costs less."""
    probe_keys = elements.prefixes(*probes)[1]
    indexed_keys = elements.prefixes(*indexed)[1]
    size = int(max(probe_keys.max(initial=-1), indexed_keys.max(initial=-1))) + 1
    per_key = np.bincount(probe_keys, minlength=size) * np.bincount(indexed_keys, minlength=size)
    return int(per_key.sum())


def _profiles(
    base: np.ndarray, lengths: np.ndarray, docs: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The distinct ``(base, token count)`` of ``docs``, and which one each document has."""
    profiles, which = np.unique(
        np.stack([base[docs], lengths[docs]], axis=1).astype(np.float64),
        axis=0,
        return_inverse=True,
    )
    return profiles, which.ravel()


def _prefix_sizes(lengths: np.ndarray, need: np.ndarray) -> np.ndarray:
    """``|x| − α + 1`` elements, none when α is infinite."""
    finite = np.isfinite(need)
    return np.where(finite, lengths - np.where(finite, need, 0) + 1, 0).astype(np.int64)


# ------------------------------------------------------------------ workers

_INSTALLED: list[_PairScorer] = []


def _install(scorer: _PairScorer, synonym_source: object) -> None:
    if scorer.measure.synonyms:
        scorer = dataclasses.replace(scorer, synonyms=load_synonyms(synonym_source))
    _INSTALLED[:] = [scorer]


def _run_installed(method: str, task: tuple) -> object:
    return getattr(_INSTALLED[0], method)(*task)


Mapper = Callable[[str, Sequence[tuple]], list]


@contextmanager
def _workers(
    scorer: _PairScorer, num_proc: int, backend: str, synonym_source: object
) -> Iterator[Mapper]:
    """``run(method, tasks)``: ``[scorer.method(*task) for task in tasks]`` on ``num_proc``
    threads, or worker processes that each hold a copy of ``scorer``."""
    if backend == "processes" and num_proc > 1:
        shipped = dataclasses.replace(scorer, synonyms=None)
        with ProcessPoolExecutor(
            num_proc, initializer=_install, initargs=(shipped, synonym_source)
        ) as pool:

            def run_in_processes(method: str, tasks: Sequence[tuple]) -> list:
                return list(pool.map(functools.partial(_run_installed, method), tasks))

            yield run_in_processes
        return

    def run_in_threads(method: str, tasks: Sequence[tuple]) -> list:
        return map_in_workers(lambda task: getattr(scorer, method)(*task), tasks, num_proc)

    yield run_in_threads


def _tiles(preds: np.ndarray, refs: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """``preds × refs`` cut into tiles of at most ``TILE_PAIRS`` pairs."""
    ref_step = max(1, min(len(refs), TILE_SIDE))
    pred_step = max(1, TILE_PAIRS // ref_step)
    return [
        (preds[p : p + pred_step], refs[r : r + ref_step])
        for p in range(0, len(preds), pred_step)
        for r in range(0, len(refs), ref_step)
    ]


def _matches(
    run: Mapper,
    preds: np.ndarray,
    refs: np.ndarray,
    threshold: float,
    *,
    strict: bool = False,
    ordered: bool = False,
    prefix: _PrefixFilter | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The pairs of ``preds × refs`` that reach ``threshold``: the candidates of ``prefix``,
    or every tile's pairs whose bound reaches it."""
    if prefix is None:
        method = "matches"
        tasks: Iterator[tuple] = iter(
            [(p, r, threshold, strict, ordered) for p, r in _tiles(preds, refs)]
        )
    else:
        method = "confirmed"
        candidates = prefix.candidates(preds, refs, ordered)
        tasks = ((p, r, threshold, strict) for p, r in candidates)
    found: list = []
    while group := list(itertools.islice(tasks, TASK_GROUP)):  # bounded memory
        found += run(method, group)
    if not found:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(0)
    return tuple(np.concatenate([part[k] for part in found]) for k in range(3))  # type: ignore


# ------------------------------------------------------------------ setup


def _check_threshold(threshold: object) -> float:
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float)):
        raise OptionTypeError(f"threshold must be a number, got {threshold!r}")
    if math.isnan(threshold):
        raise OptionError("threshold must be a number, got nan")
    return float(threshold)


# What a pairwise score does not have: several references, a corpus aggregate, kept counts, a
# prediction side to strip (every text is on both sides).
_NOT_FOR_PAIRS = frozenset(
    name for name, option in option_keywords().items() if option.group == REPORT
) | {"multi_ref", "strip_reasoning"}


def _setup(
    texts: list[str],
    rouge_type: str,
    statistic: str,
    num_proc: int | None,
    backend: str,
    options: dict[str, object],
    place: Callable[[int], str],
    prune: bool,
) -> tuple[_PairScorer, int, object]:
    """The scorer of ``texts`` (one encoding), the number of workers, the synonym source."""
    if "rouge_types" in options:
        raise OptionTypeError("pass one ROUGE type as rouge_type=..., not rouge_types")
    if not isinstance(rouge_type, str):
        raise OptionTypeError(f"rouge_type must be one ROUGE type name (a str), got {rouge_type!r}")
    if statistic not in STATISTICS:
        raise OptionError(f"statistic: unknown value {statistic!r}; valid values are: p, r, f")
    if backend not in BACKENDS:
        raise OptionError(
            f"backend: unknown value {backend!r}; valid values are: threads, processes"
        )
    refused = sorted(_NOT_FOR_PAIRS.intersection(options))
    if refused:
        raise OptionError(
            f"{', '.join(refused)}: not {'an option' if len(refused) == 1 else 'options'} of "
            "pairwise or dedupe, which score one text against one and return that score alone "
            "(these shape score()'s results: its references, aggregates, counts or predictions)"
        )
    settings = ScoreOptions.from_kwargs(rouge_types=[rouge_type], num_proc=num_proc, **options)
    plan = ScoringPlan(settings)
    (measure,) = settings.rouge_types
    encoded = _encode(measure, texts, plan, place, settings.tokenizer)
    scorer = _PairScorer(
        encoded,
        measure,
        settings.fmeasure,
        settings.rouge155,
        STATISTICS[statistic],
        plan.synonyms,
    )
    if prune:
        everything = np.arange(len(texts), dtype=np.int64)
        bounds = _Bounds.build(measure, encoded, scorer.counts(everything, everything))
        scorer = dataclasses.replace(scorer, bounds=bounds)
    workers = default_workers() if settings.num_proc is None else settings.num_proc
    return scorer, workers, settings.synonyms


def _encode(
    measure: Measure,
    texts: list[str],
    plan: ScoringPlan,
    place: Callable[[int], str],
    tokenizer: object,
) -> Encoded:
    """``texts`` encoded as ``measure`` counts them (as :func:`count_texts` does); warns once
    about texts without tokens."""
    pipeline = plan.pipeline
    if measure.is_topic:
        topics = pipeline.encode_topics(texts, plan.topic_words, keep_words=measure.synonyms)
        return topics.unique_per_document() if measure.unique else topics
    encoded = pipeline.encode(
        texts, by_sentence=measure.uses_sentences, keep_words=measure.synonyms, describe=place
    )
    warn_wordless(wordless_places(texts, place, encoded.tokenless(len(texts))), tokenizer)
    return encoded


# ------------------------------------------------------------------ the API


def pairwise(
    texts: Sequence[str],
    others: Sequence[str] | None = None,
    rouge_type: str = "rougeL",
    threshold: float | None = None,
    statistic: str = "f",
    num_proc: int | None = 1,
    backend: str = "threads",
    **options: object,
) -> np.ndarray:
    """ROUGE of every text against every other text (or every text of ``others``).

    Returns the ``(len(texts), len(others or texts))`` matrix of F (``statistic="p"`` or
    ``"r"``: precision or recall), in which row ``i`` scores ``texts[i]`` as the prediction and
    column ``j`` is the reference; entry ``[i, j]`` equals ``score([texts[i]], [others[j]],
    rouge_types=[rouge_type], **options)`` per example. With ``threshold``, returns instead only
    the pairs whose statistic is ``>= threshold``: a NumPy record array of ``(i, j, score)``
    sorted by ``i`` then ``j`` (``.tolist()`` gives the triples), computed without counting the
    pairs whose upper bound (from lengths and unigram overlap) is below the threshold.

    ``options`` are the scoring options of :func:`rouge_plus.score` (tokenizer, stemming, beta,
    profile, ...); those that shape its results (``multi_ref``, the aggregation, counts and
    ``strip_reasoning``) are refused with an ``OptionError``. ``num_proc`` workers are threads
    (the kernels release the GIL), or processes with ``backend="processes"``.
    """
    rows = normalize_texts(texts, "texts")
    columns = None if others is None else normalize_texts(others, "others")
    n = len(rows)
    offset = 0 if columns is None else n
    m = n if columns is None else len(columns)
    if threshold is not None:
        threshold = _check_threshold(threshold)

    def place(i: int) -> str:
        return f"texts[{i}]" if i < n else f"others[{i - n}]"

    everything = rows if columns is None else rows + columns
    scorer, workers, source = _setup(
        everything, rouge_type, statistic, num_proc, backend, options, place, threshold is not None
    )
    preds = np.arange(n, dtype=np.int64)
    refs = offset + np.arange(m, dtype=np.int64)
    with _workers(scorer, workers, backend, source) as run:
        if threshold is None:
            out = np.zeros((n, m))
            tiles = _tiles(preds, refs)
            for (p, r), block in zip(tiles, run("block", tiles), strict=True):
                out[p[0] : p[-1] + 1, r[0] - offset : r[-1] + 1 - offset] = block
            return out
        prefix = _PrefixFilter.build(scorer, preds, refs, threshold)
        i, j, values = _matches(run, preds, refs, threshold, prefix=prefix)
    order = np.lexsort((j, i))
    pairs = np.empty(len(order), dtype=PAIR_DTYPE)
    pairs["i"], pairs["j"], pairs["score"] = i[order], j[order] - offset, values[order]
    return pairs


def dedupe(
    texts: Sequence[str],
    threshold: float = 0.7,
    rouge_type: str = "rougeL",
    num_proc: int | None = 1,
    backend: str = "threads",
    **options: object,
) -> Deduplication:
    """Self-Instruct's and Stanford Alpaca's deduplication rule, without its n² tokenizations.

    Texts are taken in input order; a text is dropped when its ROUGE-L F (``rouge_type``) with
    some text kept so far EXCEEDS ``threshold`` (strictly greater), and kept otherwise. As both
    projects call rouge_score, the kept text is the prediction and the new text the reference
    (F is symmetric unless ``beta``/``alpha`` says otherwise), and rouge_score's tokenizer is
    the default (``tokenizer="rouge_score"``; other ``options`` as :func:`rouge_plus.score`).

    Returns ``(kept, dropped)``: the kept indices in input order, and for each dropped index
    the kept text that caused it, defined as the EARLIEST kept text (the smallest index) whose
    F with it exceeds the threshold. (Self-Instruct drops on the maximum over kept texts, so
    any of them would do; the earliest is the one that made it a duplicate first.)
    """
    items = normalize_texts(texts, "texts")
    threshold = _check_threshold(threshold)
    options = {"tokenizer": "rouge_score", **options}
    scorer, workers, source = _setup(
        items, rouge_type, "f", num_proc, backend, options, "texts[{}]".format, True
    )
    everything = np.arange(len(items), dtype=np.int64)
    prefix = _PrefixFilter.build(scorer, everything, everything, threshold)
    with _workers(scorer, workers, backend, source) as run:
        return _dedupe_in_blocks(run, len(items), threshold, prefix)


def _dedupe_in_blocks(
    run: Mapper, n: int, threshold: float, prefix: _PrefixFilter | None
) -> Deduplication:
    """The rule over texts ``0 .. n-1``, a block of texts at a time: each compared with every
    text kept before it, then within itself. With the prefix filter, blocks grow with the kept
    texts (half as many), as its index of the kept texts is built again for each block."""
    kept: list[int] = []
    dropped: dict[int, int] = {}
    start = 0
    while start < n:
        size = DEDUPE_BLOCK if prefix is None else max(DEDUPE_BLOCK, len(kept) // 2)
        block = np.arange(start, min(start + size, n), dtype=np.int64)
        start += size
        first_cause = _earliest_causes(
            run, np.asarray(kept, dtype=np.int64), block, threshold, prefix
        )
        dropped.update(first_cause)
        alive = np.array([k for k in block.tolist() if k not in first_cause], dtype=np.int64)
        causes, news, _ = _matches(
            run, alive, alive, threshold, strict=True, ordered=True, prefix=prefix
        )
        order = np.lexsort((causes, news))
        for k, j in zip(news[order].tolist(), causes[order].tolist(), strict=True):
            # j < k: j is decided by now, as its own pairs come before k's.
            if k not in dropped and j not in dropped:
                dropped[k] = j
        kept += [k for k in alive.tolist() if k not in dropped]
    return Deduplication(kept, dropped)


def _earliest_causes(
    run: Mapper,
    kept: np.ndarray,
    block: np.ndarray,
    threshold: float,
    prefix: _PrefixFilter | None,
) -> dict[int, int]:
    """For each text of ``block`` with a kept text whose F exceeds ``threshold``, the earliest."""
    if not len(kept):
        return {}
    causes, news, _ = _matches(run, kept, block, threshold, strict=True, prefix=prefix)
    order = np.lexsort((causes, news))
    news, causes = news[order], causes[order]
    first = np.flatnonzero(np.diff(news, prepend=-1))
    return dict(zip(news[first].tolist(), causes[first].tolist(), strict=True))

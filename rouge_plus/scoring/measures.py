"""ROUGE type names and what each one measures.

A type name such as ``"rouge2"``, ``"rougeLsum"`` or ``"rougeSU4"`` is parsed once into a
:class:`Measure`, a small immutable description that the counting kernels and the
precision/recall formulas dispatch on. Names are matched against a registry of patterns, so an
unknown name fails with the list of valid forms instead of deep inside the scorer.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..errors import OptionError, OptionTypeError
from ..kernels.spec import Kernel, KernelSpec
from .fmeasure import safe_divide

if TYPE_CHECKING:
    import numpy as np

MAX_NGRAM = 9
DEFAULT_W = 1.2
# ROUGE-W's weight w, f(k) = k**w. ROUGE-1.5.5 takes any w > 0, but below 1 f is subadditive:
# separate matches then outweigh consecutive ones and recall exceeds 1 (w = 0.5 gives R = 2.4).
# w = 1 is f(k) = k, the union LCS ratio with no bonus for consecutive matches. The reference
# base f(sum_r f(|r|)) grows like N**(w*w) for N reference tokens: up to w = 5 it stays finite
# (below 1.8e308) for texts of up to 10**12 tokens; w = 6 would overflow at 4e8 tokens.
MIN_W, MAX_W = 1.0, 5.0
# A skip gap D allows pairs up to D + 1 tokens apart, so in a text of n tokens any D >= n - 2 is
# no limit at all. Gaps above MAX_SKIP_GAP are stored as no limit (None, as rougeS*): the same
# units for every text of up to 2**31 tokens, and they never reach the C kernel, whose gap is a C
# int.
MAX_SKIP_GAP = 2**31 - 2
KINDS = frozenset({"ngram", "lcs", "summary_lcs", "weighted_lcs", "skip_bigram", "topic"})


@dataclass(frozen=True)
class Measure:
    """One ROUGE variant.

    ``kind`` selects the counting kernel:

    - ``"ngram"``: clipped n-gram overlap over the whole token list (``n``);
    - ``"lcs"``: one longest common subsequence over the whole token lists;
    - ``"summary_lcs"``: Lin's summary-level union LCS over sentences (ROUGE-Lsum, and ROUGE-L
      under ``profile="rouge155"``, as ROUGE-1.5.5 computes it);
    - ``"weighted_lcs"``: ROUGE-1.5.5's weighted LCS with f(k) = k**``weight``;
    - ``"skip_bigram"``: ROUGE-1.5.5's skip-bigrams with at most ``max_gap`` words between the
      two words (None: no limit), plus unigrams when ``unigrams``;
    - ``"topic"``: ROUGE 2.0's topic coverage, clipped unigram overlap of the words whose
      part-of-speech is a topic tag (on sets of distinct words when ``unique``).

    ``synonyms`` (n-grams and topic): two words match when equal or synonymous, and units are
    matched one to one (a maximum matching), as ROUGE 2.0's "+Synonyms" variants intend.
    """

    name: str
    kind: str
    n: int = 0
    weight: float = 0.0
    max_gap: int | None = None
    unigrams: bool = False
    unique: bool = False
    synonyms: bool = False

    def __post_init__(self) -> None:
        """Reject parameters outside the range where the measure means anything."""
        where = f"rouge_types: {self.name!r}"
        if self.kind not in KINDS:
            raise OptionError(f"{where}: unknown measure kind {self.kind!r}")
        if self.kind in ("ngram", "topic") and not (
            isinstance(self.n, int) and 1 <= self.n <= MAX_NGRAM
        ):
            raise OptionError(f"{where}: the n-gram length must be 1 .. {MAX_NGRAM}, got {self.n}")
        if self.kind == "weighted_lcs" and not MIN_W <= self.weight <= MAX_W:  # False for NaN
            raise OptionError(
                f"{where}: the ROUGE-W weight w of f(k) = k**w must be between 1 and 5, got "
                f"{self.weight:g} (below 1 separate matches outweigh consecutive ones and scores "
                "exceed 1; 1 is the plain union LCS ratio; above 5 the bases overflow on long "
                "texts)"
            )
        if self.kind == "skip_bigram" and self.max_gap is not None:
            gap = self.max_gap
            if isinstance(gap, bool) or not isinstance(gap, int) or gap < 0:
                raise OptionError(
                    f"{where}: the skip gap (most words between the two words of a pair) must be "
                    f"a non-negative int or None for no limit, got {gap!r}"
                )
            if gap > MAX_SKIP_GAP:  # no text is that long: the same units as no limit
                object.__setattr__(self, "max_gap", None)

    @property
    def uses_sentences(self) -> bool:
        """Counted over sentences (ROUGE-Lsum, ROUGE-W), not over the whole token lists."""
        return self.kind in ("summary_lcs", "weighted_lcs")

    @property
    def is_topic(self) -> bool:
        """Counted over the topic words that a part-of-speech tagger picks (ROUGE 2.0)."""
        return self.kind == "topic"

    @property
    def is_weighted(self) -> bool:
        """ROUGE-W: precision and recall are f⁻¹ of the weighted ratios, not hit / base."""
        return self.kind == "weighted_lcs"

    @property
    def is_skip_bigram(self) -> bool:
        return self.kind == "skip_bigram"

    @property
    def ngram_length(self) -> int | None:
        """The n of an n-gram measure (``rougeN``, ``rougeN+synonyms``); None for the others."""
        return self.n if self.kind == "ngram" else None

    def as_rouge155(self) -> Measure:
        """The measure as ROUGE-1.5.5 computes it: its ROUGE-L is the summary-level union LCS."""
        return dataclasses.replace(self, kind="summary_lcs") if self.kind == "lcs" else self

    @property
    def counted_by_kernels_alone(self) -> bool:
        """Whether the compiled kernels count it from token ids alone and its precision and
        recall are hit / base: no synonyms, no tagger, no weighting."""
        return self.kind in _KERNEL_ALONE_KINDS and not self.synonyms

    @property
    def hit_within_unigram_overlap(self) -> bool:
        """Whether its hit count is at most the clipped unigram overlap of the two texts (a
        bound that pairwise scoring uses to skip pairs); skip-bigram and synonym hits are only
        bounded by the bases."""
        return not (self.synonyms or self.kind == "skip_bigram")

    def kernel_spec(self) -> KernelSpec:
        """The counting kernel call for this measure (topic: unigrams of the topic words)."""
        kernel = _KERNELS[self.kind]
        if kernel == Kernel.SKIP_BIGRAM:
            return KernelSpec(kernel, max_gap=self.max_gap, unigrams=self.unigrams)
        return KernelSpec(kernel, n=self.n, weight=self.weight)

    def precision_recall(
        self, hit: np.ndarray, pred_base: np.ndarray, ref_base: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """Precision and recall from counts (summed over references when pooled)."""
        precision, recall = safe_divide(hit, pred_base), safe_divide(hit, ref_base)
        if self.is_weighted:  # f⁻¹ of the ratios
            return precision ** (1 / self.weight), recall ** (1 / self.weight)
        return precision, recall

    def best_recall_key(
        self, hit: np.ndarray, ref_base: np.ndarray, reported_recall: np.ndarray
    ) -> np.ndarray:
        """What ROUGE-1.5.5's ``-f B`` maximizes over references (first wins on ties).

        The reported (rounded) recall for n-grams and skip-bigrams; the unrounded ratio for
        ROUGE-L; for ROUGE-W the recall before its base is weighted a second time.
        """
        if self.kind in ("lcs", "summary_lcs"):
            return safe_divide(hit, ref_base)
        if self.is_weighted:
            # 1.5.5 compares (hit / Σ f(|sentence|))^(1/w); the counts hold f of that sum, whose
            # w-th root comes back a rounding off ((2^1.2)^(1/1.2) > 2), which let a later
            # reference beat an earlier one it ties with. Keys are compared to 12 digits.
            import numpy as np

            key = safe_divide(hit, ref_base ** (1 / self.weight)) ** (1 / self.weight)
            return np.round(key, 12)
        return reported_recall


# The kinds whose units the compiled kernels count from token ids alone, with P, R = hit / base.
_KERNEL_ALONE_KINDS = frozenset({"ngram", "lcs", "summary_lcs", "skip_bigram"})

_KERNELS = {
    "ngram": Kernel.NGRAM,
    "topic": Kernel.NGRAM,
    "lcs": Kernel.LCS,
    "summary_lcs": Kernel.SUMMARY_LCS,
    "weighted_lcs": Kernel.WEIGHTED_LCS,
    "skip_bigram": Kernel.SKIP_BIGRAM,
}


def _weight(text: str | None) -> float:
    """The weight of a ``rougeW-<w>`` name (validated by :class:`Measure`)."""
    return DEFAULT_W if text is None else float(text)


def _skip_bigram(match: re.Match[str]) -> Measure:
    gap = match.group(2)
    return Measure(
        match.group(0),
        "skip_bigram",
        max_gap=None if gap == "*" else int(gap),
        unigrams=match.group(1) == "SU",
    )


# Each name pattern is compiled when a name is first tried against it (by re's cache).
_PATTERNS: list[tuple[str, str, Callable[[re.Match[str]], Measure]]] = [
    (
        r"rouge([1-9])",
        f"rouge1 .. rouge{MAX_NGRAM}",
        lambda m: Measure(m.group(0), "ngram", n=int(m.group(1))),
    ),
    (
        r"rouge([1-9])\+synonyms",
        f"rouge1+synonyms .. rouge{MAX_NGRAM}+synonyms",
        lambda m: Measure(m.group(0), "ngram", n=int(m.group(1)), synonyms=True),
    ),
    (
        r"rougeTopic(Uniq)?(\+synonyms)?",
        "rougeTopic, rougeTopicUniq, rougeTopic+synonyms, rougeTopicUniq+synonyms",
        lambda m: Measure(
            m.group(0), "topic", n=1, unique=bool(m.group(1)), synonyms=bool(m.group(2))
        ),
    ),
    (r"rougeL", "rougeL", lambda m: Measure("rougeL", "lcs")),
    (r"rougeLsum", "rougeLsum", lambda m: Measure("rougeLsum", "summary_lcs")),
    (
        r"rougeW(?:-(\d+(?:\.\d+)?))?",
        "rougeW (w = 1.2), rougeW-<w> with 1 <= w <= 5 such as rougeW-1.5",
        lambda m: Measure(m.group(0), "weighted_lcs", weight=_weight(m.group(1))),
    ),
    (
        r"rouge(SU|S)(\d+|\*)",
        "rougeS<D>, rougeSU<D> (at most D >= 0 words between the pair, as ROUGE-1.5.5's -2 D), "
        "rougeS*, rougeSU*",
        _skip_bigram,
    ),
]

DEFAULT_ROUGE_TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")


def valid_forms() -> list[str]:
    """Human-readable list of the accepted ROUGE type names."""
    return [form for _, form, _ in _PATTERNS]


def parse_rouge_type(name: object) -> Measure:
    """Parse one ROUGE type name, raising ``ValueError`` that lists the valid names."""
    if not isinstance(name, str):
        raise OptionTypeError(f"rouge_types: every entry must be a str, got {type(name).__name__}")
    for pattern, _, build in _PATTERNS:
        match = re.fullmatch(pattern, name, re.ASCII)  # rouge٤ is no rouge4
        if match:
            return build(match)
    raise OptionError(
        f"rouge_types: unknown ROUGE type {name!r}; valid types are: {'; '.join(valid_forms())}"
    )


def parse_rouge_types(names: Iterable[str] | str | None) -> tuple[Measure, ...]:
    """Parse a list of names, keeping the user's order and dropping exact duplicates."""
    if names is None:
        names = DEFAULT_ROUGE_TYPES
    if isinstance(names, str):
        names = [names]
    measures = tuple(dict.fromkeys(parse_rouge_type(name) for name in names))
    if not measures:
        raise OptionError("rouge_types: at least one ROUGE type is required")
    return measures

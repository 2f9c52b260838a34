"""ROUGE type names, the kinds of measure, and what each kind can do.

A type name such as ``"rouge2"``, ``"rougeLsum"`` or ``"rougeSU4"`` is parsed once into a
:class:`Measure`: a kind and its parameters. Each kind is declared once, as a
:class:`MeasureKind` row of :data:`KINDS`, with everything the rest of the package asks of it: its
counting kernel, whether it reads sentences or topic words, its precision/recall formula, what
compiled code may compute for it, the bound that pairwise scoring skips pairs with, and its piece
of the signature. Nothing else dispatches on a kind's name, so a new
kind is its kernel, one row of :data:`KINDS` and a name form in :data:`NAME_FORMS`; the tests
that compare the compiled code with the pure-Python twins and with the definitions are
generated from these two tables.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from .._records import record, replace
from ..errors import OptionError, OptionTypeError
from ..kernels.spec import Kernel, KernelSpec
from .fmeasure import safe_divide

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Literal, NamedTuple, Protocol

    import numpy as np

    class ScoreOptions(Protocol):
        """What a kind's signature piece may read of the options (``rouge_plus.options``)."""

        topic_prefixes: tuple[str, ...]

    Array = np.ndarray
    # (measure, hit, pred_base, ref_base) -> (precision, recall)
    Ratios = Callable[["Measure", Array, Array, Array], tuple[Array, Array]]
    # (measure, hit, ref_base, reported recall) -> the key ROUGE-1.5.5's -f B maximizes
    RecallKey = Callable[["Measure", Array, Array, Array], Array]

    # What a kind's hit count is bounded by, for the pairs that pairwise scoring skips:
    # "overlap": the clipped unigram overlap U of the two texts (and each base);
    # "weighted": U**w (ROUGE-W: the weighted LCS of U matched words is at most U**w);
    # "bases": only the smaller base (skip-bigrams: a pair of words is no word).
    Bound = Literal["overlap", "weighted", "bases"]
else:
    from .._records import NamedTuple

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


def hits_over_bases(
    measure: Measure, hit: np.ndarray, pred_base: np.ndarray, ref_base: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Precision ``hit / pred_base`` and recall ``hit / ref_base`` (0 where a base is 0): the
    only formula that compiled code computes (``_compiled/fmeasure.h``)."""
    return safe_divide(hit, pred_base), safe_divide(hit, ref_base)


def weighted_ratios(
    measure: Measure, hit: np.ndarray, pred_base: np.ndarray, ref_base: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """ROUGE-W: f⁻¹ of the weighted ratios, with f(k) = k**w."""
    precision, recall = hits_over_bases(measure, hit, pred_base, ref_base)
    return precision ** (1 / measure.weight), recall ** (1 / measure.weight)


def reported_recall(
    measure: Measure, hit: np.ndarray, ref_base: np.ndarray, recall: np.ndarray
) -> np.ndarray:
    """ROUGE-1.5.5's ``-f B`` key for n-grams and skip-bigrams: the recall it reports."""
    return recall


def unrounded_recall(
    measure: Measure, hit: np.ndarray, ref_base: np.ndarray, recall: np.ndarray
) -> np.ndarray:
    """ROUGE-1.5.5's ``-f B`` key for ROUGE-L: the ratio before rounding."""
    return safe_divide(hit, ref_base)


def weighted_recall_key(
    measure: Measure, hit: np.ndarray, ref_base: np.ndarray, recall: np.ndarray
) -> np.ndarray:
    """ROUGE-1.5.5's ``-f B`` key for ROUGE-W: the recall before its base is weighted twice.

    1.5.5 compares (hit / Σ f(|sentence|))^(1/w); the counts hold f of that sum, whose w-th root
    comes back a rounding off ((2^1.2)^(1/1.2) > 2), which let a later reference beat an earlier
    one it ties with. Keys are compared to 12 digits.
    """
    import numpy as np

    key = safe_divide(hit, ref_base ** (1 / measure.weight)) ** (1 / measure.weight)
    return np.round(key, 12)


def _topic_signature(options: ScoreOptions, tagger: str) -> str:
    return f"topic:{'|'.join(options.topic_prefixes)},tagger:{tagger}"


@record
class MeasureKind:
    """One kind of measure and what it can do; see :data:`KINDS`.

    - ``kernel``: the counting kernel of :mod:`rouge_plus.kernels` that counts its units;
    - ``reads_sentences``: counted sentence by sentence (ROUGE-Lsum, ROUGE-W), not over the
      whole token lists; ``reads_topic_words``: counted over the topic words a part-of-speech
      tagger picks (ROUGE 2.0), so the compiled one-pair scorer cannot count it;
    - ``ratios``: precision and recall from the counts (summed over references when pooled);
      ``best_recall_key``: what ROUGE-1.5.5's ``-f B`` maximizes over references;
    - ``compiled_reductions``: the ``multi_ref`` modes whose per-row reduction compiled code
      may compute. Compiled code computes :func:`hits_over_bases` only, so a kind with another
      formula declares none (checked here, at declaration);
    - ``bound``: what its hit count is bounded by, for the pairs pairwise scoring skips
      (``"overlap"``: the clipped unigram overlap U; ``"weighted"``: U**w; ``"bases"``: the
      smaller base only);
    - ``signature``: its piece of the signature, from the options and the tagger's name, for
      what its scores depend on beyond the type names (None: nothing).
    """

    name: str
    kernel: Kernel
    ratios: Ratios = hits_over_bases
    best_recall_key: RecallKey = reported_recall
    reads_sentences: bool = False
    reads_topic_words: bool = False
    compiled_reductions: frozenset[str] = frozenset({"best"})
    bound: Bound = "overlap"
    signature: Callable[[ScoreOptions, str], str] | None = None

    def __post_init__(self) -> None:
        if self.compiled_reductions and self.ratios is not hits_over_bases:
            raise OptionError(
                f"measure kind {self.name!r}: compiled reductions compute hit / base only; a kind "
                "with another precision/recall formula declares compiled_reductions=frozenset()"
            )

    @property
    def counted_by_kernels_alone(self) -> bool:
        """Whether compiled code scores a pair of it from two strings, counts to P/R/F: its
        units are the kernel's over token ids (no tagger) and its P/R the compiled formula."""
        return not self.reads_topic_words and bool(self.compiled_reductions)


# Every kind, declared once (a new kind: its kernel and a row here, and a name form below).
KINDS: dict[str, MeasureKind] = {
    kind.name: kind
    for kind in (
        MeasureKind("ngram", Kernel.NGRAM),
        MeasureKind("lcs", Kernel.LCS, best_recall_key=unrounded_recall),
        MeasureKind(
            "summary_lcs",
            Kernel.SUMMARY_LCS,
            best_recall_key=unrounded_recall,
            reads_sentences=True,
        ),
        MeasureKind(
            "weighted_lcs",
            Kernel.WEIGHTED_LCS,
            ratios=weighted_ratios,
            best_recall_key=weighted_recall_key,
            reads_sentences=True,
            compiled_reductions=frozenset(),
            bound="weighted",
        ),
        MeasureKind("skip_bigram", Kernel.SKIP_BIGRAM, bound="bases"),
        MeasureKind(
            "topic",
            Kernel.NGRAM,
            reads_topic_words=True,
            signature=_topic_signature,
        ),
    )
}
# The kind ROUGE-1.5.5 computes in place of a kind (its ROUGE-L is the summary-level union LCS).
_ROUGE155_KINDS = {"lcs": "summary_lcs"}


@record
class Measure:
    """One ROUGE variant: a kind of :data:`KINDS` and its parameters.

    - ``n``: the n-gram length (kinds counted by ``Kernel.NGRAM``: n-grams, topic words);
    - ``weight``: ROUGE-W's w of f(k) = k**w;
    - ``max_gap``, ``unigrams``: skip-bigrams with at most ``max_gap`` words between the two
      words (None: no limit), plus unigrams when ``unigrams`` (ROUGE-SU);
    - ``unique``: topic words counted as sets of distinct words (ROUGE 2.0's TopicUniq);
    - ``synonyms``: two words match when equal or synonymous, and units are matched one to one
      (a maximum matching), as ROUGE 2.0's "+Synonyms" variants intend.
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
        kernel = KINDS[self.kind].kernel
        if kernel == Kernel.NGRAM and not (isinstance(self.n, int) and 1 <= self.n <= MAX_NGRAM):
            raise OptionError(f"{where}: the n-gram length must be 1 .. {MAX_NGRAM}, got {self.n}")
        if kernel == Kernel.WEIGHTED_LCS and not MIN_W <= self.weight <= MAX_W:  # False for NaN
            raise OptionError(
                f"{where}: the ROUGE-W weight w of f(k) = k**w must be between 1 and 5, got "
                f"{self.weight:g} (below 1 separate matches outweigh consecutive ones and scores "
                "exceed 1; 1 is the plain union LCS ratio; above 5 the bases overflow on long "
                "texts)"
            )
        if kernel == Kernel.SKIP_BIGRAM and self.max_gap is not None:
            gap = self.max_gap
            if isinstance(gap, bool) or not isinstance(gap, int) or gap < 0:
                raise OptionError(
                    f"{where}: the skip gap (most words between the two words of a pair) must be "
                    f"a non-negative int or None for no limit, got {gap!r}"
                )
            if gap > MAX_SKIP_GAP:  # no text is that long: the same units as no limit
                object.__setattr__(self, "max_gap", None)

    @property
    def declared_kind(self) -> MeasureKind:
        """What its kind can do (its row of :data:`KINDS`)."""
        return KINDS[self.kind]

    @property
    def uses_sentences(self) -> bool:
        """Counted over sentences (ROUGE-Lsum, ROUGE-W), not over the whole token lists."""
        return self.declared_kind.reads_sentences

    @property
    def is_topic(self) -> bool:
        """Counted over the topic words that a part-of-speech tagger picks (ROUGE 2.0)."""
        return self.declared_kind.reads_topic_words

    @property
    def is_weighted(self) -> bool:
        """ROUGE-W: it has a weight w."""
        return self.declared_kind.kernel == Kernel.WEIGHTED_LCS

    @property
    def is_skip_bigram(self) -> bool:
        """ROUGE-S/SU: it has a skip gap."""
        return self.declared_kind.kernel == Kernel.SKIP_BIGRAM

    @property
    def ngram_length(self) -> int | None:
        """The n of an n-gram measure (``rougeN``, ``rougeN+synonyms``); None for the others."""
        return self.n if self.kind == "ngram" else None

    def as_rouge155(self) -> Measure:
        """The measure as ROUGE-1.5.5 computes it: its ROUGE-L is the summary-level union LCS."""
        kind = _ROUGE155_KINDS.get(self.kind)
        return replace(self, kind=kind) if kind else self

    @property
    def counted_by_kernels_alone(self) -> bool:
        """Whether compiled code scores a pair of it from two strings: its kind's units and
        formula (:attr:`MeasureKind.counted_by_kernels_alone`), and no synonyms."""
        return self.declared_kind.counted_by_kernels_alone and not self.synonyms

    @property
    def bound(self) -> Bound:
        """What its hit count is bounded by (see :class:`MeasureKind`); synonym hits only by
        the bases."""
        return "bases" if self.synonyms else self.declared_kind.bound

    def kernel_spec(self) -> KernelSpec:
        """The counting kernel call for this measure (topic: unigrams of the topic words)."""
        kernel = self.declared_kind.kernel
        if kernel == Kernel.SKIP_BIGRAM:
            return KernelSpec(kernel, max_gap=self.max_gap, unigrams=self.unigrams)
        return KernelSpec(kernel, n=self.n, weight=self.weight)

    def precision_recall(
        self, hit: np.ndarray, pred_base: np.ndarray, ref_base: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """Precision and recall from counts (summed over references when pooled)."""
        return self.declared_kind.ratios(self, hit, pred_base, ref_base)

    def best_recall_key(
        self, hit: np.ndarray, ref_base: np.ndarray, reported_recall: np.ndarray
    ) -> np.ndarray:
        """What ROUGE-1.5.5's ``-f B`` maximizes over references (first wins on ties)."""
        return self.declared_kind.best_recall_key(self, hit, ref_base, reported_recall)


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


class NameForm(NamedTuple):
    """One form of ROUGE type name: its pattern, its description in errors, a few names of the
    form (the generated tests score them all), and the :class:`Measure` a match builds."""

    pattern: str
    description: str
    examples: tuple[str, ...]
    build: Callable[[re.Match[str]], Measure]


# Each name pattern is compiled when a name is first tried against it (by re's cache).
NAME_FORMS: list[NameForm] = [
    NameForm(
        r"rouge([1-9])",
        f"rouge1 .. rouge{MAX_NGRAM}",
        ("rouge1", "rouge2", "rouge4"),
        lambda m: Measure(m.group(0), "ngram", n=int(m.group(1))),
    ),
    NameForm(
        r"rouge([1-9])\+synonyms",
        f"rouge1+synonyms .. rouge{MAX_NGRAM}+synonyms",
        ("rouge1+synonyms", "rouge2+synonyms"),
        lambda m: Measure(m.group(0), "ngram", n=int(m.group(1)), synonyms=True),
    ),
    NameForm(
        r"rougeTopic(Uniq)?(\+synonyms)?",
        "rougeTopic, rougeTopicUniq, rougeTopic+synonyms, rougeTopicUniq+synonyms",
        ("rougeTopic", "rougeTopicUniq", "rougeTopic+synonyms", "rougeTopicUniq+synonyms"),
        lambda m: Measure(
            m.group(0), "topic", n=1, unique=bool(m.group(1)), synonyms=bool(m.group(2))
        ),
    ),
    NameForm(r"rougeL", "rougeL", ("rougeL",), lambda m: Measure("rougeL", "lcs")),
    NameForm(
        r"rougeLsum", "rougeLsum", ("rougeLsum",), lambda m: Measure("rougeLsum", "summary_lcs")
    ),
    NameForm(
        r"rougeW(?:-(\d+(?:\.\d+)?))?",
        "rougeW (w = 1.2), rougeW-<w> with 1 <= w <= 5 such as rougeW-1.5",
        ("rougeW", "rougeW-1", "rougeW-2.5"),
        lambda m: Measure(m.group(0), "weighted_lcs", weight=_weight(m.group(1))),
    ),
    NameForm(
        r"rouge(SU|S)(\d+|\*)",
        "rougeS<D>, rougeSU<D> (at most D >= 0 words between the pair, as ROUGE-1.5.5's -2 D), "
        "rougeS*, rougeSU*",
        ("rougeS0", "rougeS4", "rougeSU4", "rougeS*", "rougeSU*"),
        _skip_bigram,
    ),
]

DEFAULT_ROUGE_TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")


def valid_forms() -> list[str]:
    """Human-readable list of the accepted ROUGE type names."""
    return [form.description for form in NAME_FORMS]


def parse_rouge_type(name: object) -> Measure:
    """Parse one ROUGE type name, raising an ``OptionError`` that lists the valid names."""
    if not isinstance(name, str):
        raise OptionTypeError(f"rouge_types: every entry must be a str, got {type(name).__name__}")
    for form in NAME_FORMS:
        match = re.fullmatch(form.pattern, name, re.ASCII)  # rouge٤ is no rouge4
        if match:
            return form.build(match)
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

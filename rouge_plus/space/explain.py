"""Why a pair scores what it scores: which tokens of each text take part in a match.

:func:`explain_with_plan` tokenizes a prediction and one reference exactly as the scorer does,
keeps for every token its character span in the original text, and labels each token with how
it matched:

``"ngram"``
    part of a matched n-gram occurrence. Matching is clipped as in ROUGE-N: an n-gram seen
    twice in the prediction and once in the reference matches once. Counting says how many
    occurrences match, not which; occurrences lying on the LCS are marked first, then the
    leftmost ones, so the two highlights agree wherever they can.
``"lcs"``
    on the longest common subsequence (ROUGE-L), on the path ROUGE's traceback picks.
``"both"``
    both of the above.
``"synonym"``
    (only when a synonym source is given) matched only through a synonym in rouge1+synonyms's
    maximum one-to-one matching (ROUGE 2.0): a word gets as many of these marks as that
    matching pairs beyond its exact matches, on its leftmost otherwise unmarked occurrences.
    With ``ngram_n=1`` the marked tokens are then exactly rouge1+synonyms's hit count.
``None``
    not matched (stopwords, when removed, are never matched).

Spans are character offsets into the text as given (before NFC normalization or lowercasing),
so a user interface can wrap the original characters.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass

from ..errors import OptionError
from ..kernels.lcs import lcs_path
from ..kernels.matching import matched_pairs
from ..kernels.ngram import ngram_counts
from ..kernels.python import ASCII_WORD
from ..plan import ScoringPlan
from ..rouge2.synonyms import Synonyms
from ..text.protocols import Tokenizer
from ..text.tokenizers import get_tokenizer

# No built-in tokenizer joins characters across whitespace (as str.isspace and re's \s define it).
_WORD = re.compile(r"\S+")


@dataclass(frozen=True)
class TokenSpan:
    """One token: ``text[start:end]`` produced ``token`` (lowercased, before stemming)."""

    start: int
    end: int
    token: str
    kind: str | None = None


@dataclass(frozen=True)
class PairExplanation:
    """The tokens of a prediction and of one reference, each labelled with its match kind."""

    prediction: list[TokenSpan]
    reference: list[TokenSpan]
    ngram_n: int


def token_spans(text: str, tokenizer: str | Tokenizer = "default") -> list[TokenSpan]:
    """The tokens of ``text`` under ``tokenizer``, each with its character span in ``text``.

    The tokens are exactly ``get_tokenizer(tokenizer)(text)``. Spans are found word by word
    (whitespace-separated); ASCII words of the letter-and-digit tokenizers take a regex fast
    path, other words are aligned by re-tokenizing growing slices, which handles NFC
    composition, deleted invisible joiners and lowercasing that changes length.
    """
    tokenize = get_tokenizer(tokenizer)
    spans: list[TokenSpan] = []
    for word in _WORD.finditer(text):
        spans.extend(_word_spans(word.group(), word.start(), tokenize))
    return spans


def _word_spans(word: str, offset: int, tokenize: Tokenizer) -> list[TokenSpan]:
    tokens = tokenize(word)
    if not tokens:
        return []
    if word.isascii() and tokenize.native_when is not None:
        # The tokens are the compiled rule's: the runs of ASCII letters and digits.
        runs = ASCII_WORD.finditer(word)
        return [
            TokenSpan(offset + m.start(), offset + m.end(), t)
            for m, t in zip(runs, tokens, strict=True)
        ]
    if tokens == [word.lower()]:
        return [TokenSpan(offset, offset + len(word), tokens[0])]
    return _aligned_spans(word, offset, tokens, tokenize)


def _aligned_spans(
    word: str, offset: int, tokens: list[str], tokenize: Callable[[str], list[str]]
) -> list[TokenSpan]:
    """Spans by growing slices: a token starts where a slice first yields a token, and ends
    where the slice from its start first yields exactly that token.

    Slices grow by galloping, not one character at a time: a 20,000-character word that NFC
    composes (decomposed accents) took 28 s character by character, re-tokenizing each slice.
    """
    spans = []
    position = 0
    for token in tokens:
        start = _least(position, len(word), lambda s, at=position: bool(tokenize(word[at : s + 1])))
        end = _token_end(word, start, token, tokenize)
        spans.append(TokenSpan(offset + start, offset + end, token))
        position = end
    return spans


def _token_end(word: str, start: int, token: str, tokenize: Callable[[str], list[str]]) -> int:
    """The least ``end`` after ``start`` where ``word[start:end]`` first yields ``token``, or
    ``len(word)``. The first token of a growing slice only grows: find where it is first as long
    as ``token`` (or a second token shows), then step while it stays that long."""

    def tokens_from(end: int) -> list[str]:
        return tokenize(word[start:end])

    def long_enough(end: int) -> bool:
        found = tokens_from(end)
        return len(found) > 1 or bool(found) and len(found[0]) >= len(token)

    end = _least(start + 1, len(word), long_enough)
    while end < len(word):
        first = tokens_from(end)[0]
        if first == token:
            return end
        if len(first) != len(token):
            break
        end += 1
    return len(word)


def _least(low: int, high: int, holds: Callable[[int], bool]) -> int:
    """The least ``x`` in ``[low, high)`` where ``holds(x)``, or ``high``; ``holds`` stays true
    once true. Galloping then bisection: about 2·log2(x - low) calls."""
    if low >= high or holds(low):
        return min(low, high)
    false, step = low, 1  # holds(false) is false
    while True:
        probe = min(false + step, high - 1)
        if probe == false:
            return high
        if holds(probe):
            break
        false, step = probe, step * 2
    while probe - false > 1:
        middle = (false + probe) // 2
        if holds(middle):
            probe = middle
        else:
            false = middle
    return probe


def explain_tokens(
    prediction: str,
    reference: str,
    tokenizer: str | Tokenizer,
    stopwords: frozenset[str],
    stem: Callable[[str], str] | None,
    ngram_n: int,
    synonyms: Synonyms | None,
) -> PairExplanation:
    """Label every token of ``prediction`` and ``reference`` with its match kind, the tokens
    prepared as the scorer does: ``stopwords`` dropped before matching, then each token stemmed
    by ``stem`` (if any). ``ngram_n`` chooses which ROUGE-N's matches are marked; a ``synonyms``
    source also marks synonym matches."""
    if ngram_n < 1:
        raise OptionError(f"ngram_n must be at least 1, got {ngram_n!r}")
    pred = _Side.of(prediction, tokenizer, stopwords, stem)
    ref = _Side.of(reference, tokenizer, stopwords, stem)
    pairs = lcs_path(ref.units, pred.units)
    ref_lcs = {i for i, _ in pairs}
    pred_lcs = {j for _, j in pairs}
    pred_ngram, ref_ngram = matched_ngram_positions(
        pred.units, ref.units, ngram_n, prefer=(pred_lcs, ref_lcs)
    )
    pred_kinds = [_kind(k in pred_ngram, k in pred_lcs) for k in range(len(pred.units))]
    ref_kinds = [_kind(k in ref_ngram, k in ref_lcs) for k in range(len(ref.units))]
    if synonyms is not None:
        _mark_synonyms(pred, ref, pred_kinds, ref_kinds, synonyms)
    return PairExplanation(
        prediction=pred.labelled(pred_kinds),
        reference=ref.labelled(ref_kinds),
        ngram_n=ngram_n,
    )


def explain_with_plan(
    prediction: str, reference: str, plan: ScoringPlan, *, ngram_n: int = 1
) -> PairExplanation:
    """:func:`explain_tokens` with the text pipeline the plan scores with: its tokenizer, stemmer
    and stopwords, and synonym marks when a "+synonyms" type is scored. (Length limits are not
    applied: every token of the texts is shown.)"""
    pipeline = plan.pipeline
    return explain_tokens(
        prediction,
        reference,
        pipeline.tokenizer,
        pipeline.stopwords or frozenset(),
        pipeline.stem,
        ngram_n,
        plan.synonyms,
    )


@dataclass(frozen=True)
class _Side:
    """One text's tokens; ``units`` are the kept (non-stopword) tokens as compared, stemmed or
    not, and ``kept[k]`` is the index in ``spans`` of ``units[k]``."""

    spans: list[TokenSpan]
    kept: list[int]
    units: list[str]

    @classmethod
    def of(
        cls,
        text: str,
        tokenizer: str | Tokenizer,
        stopwords: frozenset[str],
        stem: Callable[[str], str] | None,
    ) -> _Side:
        spans = token_spans(text, tokenizer)
        kept = [k for k, span in enumerate(spans) if span.token not in stopwords]
        units = [stem(spans[k].token) if stem else spans[k].token for k in kept]
        return cls(spans, kept, units)

    def words(self) -> Iterator[tuple[str, str]]:
        """``(unit, token)`` of every kept token."""
        return ((unit, self.spans[k].token) for k, unit in zip(self.kept, self.units, strict=True))

    def labelled(self, kinds: list[str | None]) -> list[TokenSpan]:
        """The spans, each kept token with its kind; stopwords stay unmatched."""
        kind_of = dict(zip(self.kept, kinds, strict=True))
        return [
            TokenSpan(span.start, span.end, span.token, kind_of.get(k))
            for k, span in enumerate(self.spans)
        ]


def _mark_synonyms(
    pred: _Side,
    ref: _Side,
    pred_kinds: list[str | None],
    ref_kinds: list[str | None],
    synonyms: Synonyms,
) -> None:
    """Label ``"synonym"`` the unmarked tokens that rouge1+synonyms matches through a synonym."""
    words_of: dict[str, set[str]] = {}  # a stemmed unit stands for every word stemmed to it
    for unit, word in (*pred.words(), *ref.words()):
        words_of.setdefault(unit, set()).add(word)

    def related(a: Hashable, b: Hashable) -> bool:
        return any(synonyms.match(x, y) for x in words_of[a] for y in words_of[b])

    pred_units, ref_units = Counter(pred.units), Counter(ref.units)
    pred_matched, ref_matched = Counter(), Counter()
    for (a, b), count in matched_pairs(pred_units, ref_units, related).items():
        pred_matched[a] += count
        ref_matched[b] += count
    # Augmenting paths never unmatch a unit, so each word has at least its exact matches; the
    # occurrences beyond them are the ones matched only through a synonym.
    exact = pred_units & ref_units
    pred_budget, ref_budget = pred_matched - exact, ref_matched - exact
    for units, kinds, budget in [
        (pred.units, pred_kinds, pred_budget),
        (ref.units, ref_kinds, ref_budget),
    ]:
        for k, unit in enumerate(units):
            if kinds[k] is None and budget[unit] > 0:
                budget[unit] -= 1
                kinds[k] = "synonym"


def _kind(in_ngram: bool, in_lcs: bool) -> str | None:
    if in_ngram and in_lcs:
        return "both"
    if in_ngram:
        return "ngram"
    return "lcs" if in_lcs else None


def matched_ngram_positions(
    pred: Sequence[Hashable],
    ref: Sequence[Hashable],
    n: int,
    prefer: tuple[set[int], set[int]] = (set(), set()),
) -> tuple[set[int], set[int]]:
    """Token positions covered by the matched n-gram occurrences of each side (clipped).

    For each n-gram, ``min(count_pred, count_ref)`` occurrences of each side match, so the
    number of matched occurrences per side is ROUGE-N's hit count. Occurrences lying wholly in
    ``prefer`` (prediction positions, reference positions) are taken first, then leftmost ones.
    """
    overlap = ngram_counts(pred, n) & ngram_counts(ref, n)
    return _covered(pred, n, overlap, prefer[0]), _covered(ref, n, overlap, prefer[1])


def _covered(tokens: Sequence[Hashable], n: int, budget: Counter, prefer: set[int]) -> set[int]:
    remaining = Counter(budget)
    starts = range(len(tokens) - n + 1)
    preferred = [s for s in starts if prefer.issuperset(range(s, s + n))]
    others = [s for s in starts if not prefer.issuperset(range(s, s + n))]
    covered: set[int] = set()
    for start in preferred + others:
        gram = tokens[start] if n == 1 else tuple(tokens[start : start + n])
        if remaining[gram] > 0:
            remaining[gram] -= 1
            covered.update(range(start, start + n))
    return covered

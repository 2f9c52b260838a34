"""pltrdy's ``rouge`` 1.0.1 (``rouge.rouge``): ``Rouge`` and ``FilesRouge`` with its numbers.

That package is a compatibility mode of its own, not rouge_score's or ROUGE-1.5.5's ROUGE:

- Texts are split into sentences at every ".", each sentence's whitespace runs become one space,
  and words are the sentence's pieces between single spaces (a sentence of whitespace alone is
  one empty word). Nothing is lowercased, stemmed or stripped of punctuation other than ".".
- With ``exclusive=True`` (the default) ROUGE-N counts *distinct* n-grams: the hypothesis and
  reference counts are the numbers of distinct n-grams (across sentence ends, since the
  sentences' words are joined), the overlap the size of their intersection. ``exclusive=False``
  counts n-grams with their multiplicity.
- ROUGE-L is its own summary-level variant: for every reference sentence and hypothesis
  sentence, one LCS is read out of the table (its own traceback, which prefers going left on a
  tie); with ``exclusive=True`` the overlap is the number of distinct words over all those LCSs
  and the lengths are the numbers of distinct words of each text, with ``exclusive=False`` the
  overlap is the sum of the LCS lengths and the lengths are word counts.
- ``f = 2 * (p * r) / (p + r + 1e-8)``: a perfect match scores 0.99999999..., not 1.

This module computes exactly that (every value equal to rouge 1.0.1's, to the last bit) with
rouge_plus's bit-parallel LCS, and defines what rouge 1.0.1 fails on:

- Its ROUGE-L reads the LCS out recursively, so a long sentence (about 1,000 words on the default
  recursion limit) raises ``RecursionError``; here the traceback is a loop and any length scores.
- A hypothesis or reference without a sentence ("", or only dots) raises
  ``ValueError("Hypothesis is empty.")`` (or "Reference is empty.") there; here every score of
  such a pair is 0.0 (raw results: its counts, with an overlap of 0).
- ``get_scores`` takes lists and tuples alike (rouge asserts both have the same type), raises
  ``ValueError`` when the two differ in length, and returns ``[]`` when ``ignore_empty`` leaves no
  pair (``avg=True`` then raises ``ValueError``; rouge fails to unpack). With
  ``raw_results=True`` and ``avg=True`` the counts are averaged (rouge raises ``KeyError``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ...errors import InputError, OptionError
from .rouge_score import Sentences, rouge_l_summary_level, rouge_n


def _sentences(text: str) -> Sentences:
    """rouge's sentences: the non-empty pieces between dots, whitespace runs made one space."""
    return [" ".join(piece.split()) for piece in text.split(".") if piece]


def _metric(n: int | None) -> Callable[..., dict]:
    """A metric as ``Rouge.AVAILABLE_METRICS`` holds it: ``fn(hyp_sentences, ref_sentences,
    raw_results=False, exclusive=True)``."""

    def metric(
        hyp: Sentences, ref: Sentences, raw_results: bool = False, exclusive: bool = True, **_
    ) -> dict:
        if n is None:
            return rouge_l_summary_level(hyp, ref, raw_results=raw_results, exclusive=exclusive)
        return rouge_n(hyp, ref, n, raw_results=raw_results, exclusive=exclusive)

    return metric


class Rouge:
    """``Rouge(metrics=None, stats=None, return_lengths=False, raw_results=False,
    exclusive=True)``: ``get_scores(hyps, refs, avg=False, ignore_empty=False)`` gives, per pair
    (or averaged), ``{metric: {stat: value}}`` for the metrics ``rouge-1`` .. ``rouge-5`` and
    ``rouge-l`` and the stats ``r``, ``p``, ``f`` (``hyp``, ``ref``, ``overlap`` counts with
    ``raw_results``), and ``"lengths"`` with ``return_lengths``."""

    DEFAULT_METRICS = ["rouge-1", "rouge-2", "rouge-l"]
    AVAILABLE_METRICS = {
        **{f"rouge-{n}": _metric(n) for n in range(1, 6)},
        "rouge-l": _metric(None),
    }
    DEFAULT_STATS = ["r", "p", "f"]
    AVAILABLE_STATS = ["r", "p", "f"]

    def __init__(
        self,
        metrics: Sequence[str] | None = None,
        stats: Sequence[str] | None = None,
        return_lengths: bool = False,
        raw_results: bool = False,
        exclusive: bool = True,
    ):
        self.return_lengths = return_lengths
        self.raw_results = raw_results
        self.exclusive = exclusive
        self.metrics = _checked(metrics, Rouge.AVAILABLE_METRICS, "metric", Rouge.DEFAULT_METRICS)
        if raw_results:
            self.stats = ["hyp", "ref", "overlap"]
        else:
            self.stats = _checked(stats, Rouge.AVAILABLE_STATS, "stat", Rouge.DEFAULT_STATS)

    def get_scores(
        self,
        hyps: str | Sequence[str],
        refs: str | Sequence[str],
        avg: bool = False,
        ignore_empty: bool = False,
    ) -> list[dict] | dict:
        """Scores of each (hypothesis, reference) pair, or their mean with ``avg=True``."""
        if isinstance(hyps, str):
            hyps, refs = [hyps], [refs]
        if len(hyps) != len(refs):
            raise InputError(f"{len(hyps)} hypotheses but {len(refs)} references")
        pairs = list(zip(hyps, refs, strict=True))
        if ignore_empty:
            pairs = [(h, r) for h, r in pairs if len(h) > 0 and len(r) > 0]
        rows = [self._pair_scores(h, r) for h, r in pairs]
        return _average(rows) if avg else rows

    def _pair_scores(self, hyp_text: str, ref_text: str) -> dict:
        hyp, ref = _sentences(hyp_text), _sentences(ref_text)
        row: dict = {}
        for m in self.metrics:
            values = Rouge.AVAILABLE_METRICS[m](
                hyp, ref, raw_results=self.raw_results, exclusive=self.exclusive
            )
            row[m] = {s: values[s] for s in self.stats}
        if self.return_lengths:
            row["lengths"] = {"hyp": len(" ".join(hyp).split()), "ref": len(" ".join(ref).split())}
        return row


def _checked(names: Sequence[str] | None, known: Sequence[str], kind: str, default: list) -> list:
    if names is None:
        return default
    names = [name.lower() for name in names]
    for name in names:
        if name not in known:
            raise OptionError(f"Unknown {kind} '{name}'")
    return names


def _average(rows: list[dict]) -> dict:
    """rouge's mean: each value summed from 0 in the pairs' order, then divided by their number."""
    if not rows:
        raise InputError("get_scores(avg=True): no pair to average")
    totals = {key: dict.fromkeys(values, 0) for key, values in rows[0].items()}
    for row in rows:
        for key, values in row.items():
            for stat, value in values.items():
                totals[key][stat] = totals[key][stat] + value
    return {key: {s: v / len(rows) for s, v in values.items()} for key, values in totals.items()}


class FilesRouge:
    """``Rouge`` over two files, line ``i`` of one against line ``i`` of the other (each line's
    last character dropped, as rouge does, newline or not)."""

    def __init__(self, *args: object, **kwargs: object):
        self.rouge = Rouge(*args, **kwargs)  # type: ignore[arg-type]

    def get_scores(
        self, hyp_path: str, ref_path: str, avg: bool = False, ignore_empty: bool = False
    ) -> list[dict] | dict:
        """The scores of the files' lines (see ``Rouge.get_scores``)."""
        texts = []
        for path in (hyp_path, ref_path):
            with open(path, encoding="utf-8") as handle:
                texts.append([line[:-1] for line in handle])
        hyps, refs = texts
        if len(hyps) != len(refs):
            raise InputError(f"{hyp_path} has {len(hyps)} lines but {ref_path} {len(refs)}")
        return self.rouge.get_scores(hyps, refs, avg=avg, ignore_empty=ignore_empty)

"""ROUGE-W-*w* (weighted LCS), exactly as ROUGE-1.5.5 computes it (``-w w``), f(k) = k**w.

For each reference sentence, 1.5.5 runs the weighted-LCS dynamic programme against every
prediction sentence, follows each traceback (a match always goes diagonally; otherwise up when
the upper cell is >= the left one) and marks the reference positions it passes: the union over
the prediction sentences (only those that can add to it are walked: see ``lcs.union_of_paths``).
It then walks the reference sentence left to right. A marked token
scores only while its unigram count is still positive in both texts (both counts are then
decremented, as ROUGE-L's clipping does). Scored tokens form runs; a run is closed, adding
f(run), when the next reference position is unmarked or the sentence ends. Two quirks are kept:

- runs are measured on reference positions only: two scored tokens adjacent in the reference
  form one run even when their prediction matches are far apart, and a marked token that fails
  the clipping neither scores nor closes the run (an unclosed run at a sentence end is lost);
- the recall base is weighted twice: ``R = f⁻¹(hit / f(Σ_r f(|r|)))``, ``P = f⁻¹(hit / f(n))``
  with ``n`` the prediction length, so identical texts score R = m**(1-w), not 1.

Floating-point operations follow the Perl script's order, so ties in the programme break the same
way and the 5-decimal values agree.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence

from .lcs import PredSentences, union_of_paths

Sentences = Sequence[Sequence[Hashable]]

_DIAGONAL, _UP, _LEFT = 0, 1, 2


def _weighted_path(
    ref: Sequence[Hashable], pred: Sequence[Hashable], powers: list[float]
) -> list[int]:
    """The reference positions on 1.5.5's weighted-LCS traceback of ``ref`` vs ``pred``."""
    marks: list[int] = []
    width = len(pred) + 1
    score_above = [0.0] * width
    run_above = [0] * width
    moves: list[list[int]] = [[]]
    for token in ref:
        score = [0.0] * width
        run = [0] * width
        row_moves = [_UP] * width
        for j in range(1, width):
            if pred[j - 1] == token:
                k = run_above[j - 1]
                score[j] = score_above[j - 1] + powers[k + 1] - powers[k]
                run[j] = k + 1
                row_moves[j] = _DIAGONAL
            elif score_above[j] >= score[j - 1]:
                score[j] = score_above[j]
            else:
                score[j] = score[j - 1]
                row_moves[j] = _LEFT
        moves.append(row_moves)
        score_above, run_above = score, run
    i, j = len(ref), len(pred)
    while i and j:
        move = moves[i][j]
        if move == _DIAGONAL:
            i -= 1
            j -= 1
            marks.append(i)
        elif move == _UP:
            i -= 1
        else:
            j -= 1
    return marks


def counts(
    pred_sents: Sentences,
    ref_sents: Sentences,
    weight: float,
    clip: tuple[Sequence[Hashable], Sequence[Hashable]] | None = None,
) -> tuple[float, float, float]:
    """``(hit, pred_base, ref_base)`` with ``pred_base = f(n)`` and ``ref_base = f(Σ_r f(|r|))``.

    ``clip``, when given, holds the (prediction, reference) tokens whose counts clip the hits and
    whose prediction length is ``n``; by default, the tokens of the sentences themselves
    (1.5.5 under ``-b`` reads them under another limit).
    """
    if clip is None:
        clip = ([t for s in pred_sents for t in s], [t for s in ref_sents for t in s])
    pred_unigrams, ref_unigrams = clip
    longest = max((len(sentence) for sentence in (*pred_sents, *ref_sents)), default=0)
    powers = [k**weight for k in range(longest + 2)]
    pred_left = Counter(pred_unigrams)
    ref_left = Counter(ref_unigrams)
    hit = 0.0
    ref_weight = 0.0
    pred = PredSentences(pred_sents)
    unions: dict[tuple[Hashable, ...], set[int]] = {}  # equal sentences share their union
    for ref in ref_sents:
        ref_weight += len(ref) ** weight
        key = tuple(ref)
        if key not in unions:
            unions[key] = union_of_paths(ref, pred, lambda r, p: _weighted_path(r, p, powers))
        marks = unions[key]
        run = 0
        for j, token in enumerate(ref):
            if j in marks and ref_left[token] > 0 and pred_left[token] > 0:
                run += 1
                if j + 1 == len(ref) or j + 1 not in marks:
                    hit += run**weight
                    run = 0
                ref_left[token] -= 1
                pred_left[token] -= 1
    return hit, len(pred_unigrams) ** weight, ref_weight**weight

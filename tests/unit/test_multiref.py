"""The six ways of reducing several references, on the lecture's water-spinach example.

Bigrams (ROUGE-2, standard tokenizer): the prediction has 12; the references have 10, 11 and 9
(30 in all, not the lecture's 9 for the second: "semi-aquatic" is two tokens) and share 3, 3
and 6 bigrams with it.
"""

from __future__ import annotations

import pytest

from rouge_plus import score

PREDICTION = "Water spinach is a leaf vegetable commonly eaten in tropical areas of Asia."
REFERENCES = [
    "Water spinach is a green leafy vegetable grown in the tropics.",
    "Water spinach is a semi-aquatic tropical plant grown as a vegetable.",
    "Water spinach is a commonly eaten leaf vegetable of Asia.",
]
# (precision, recall) against each reference alone
PER_REFERENCE = [(3 / 12, 3 / 10), (3 / 12, 3 / 11), (6 / 12, 6 / 9)]


def f1(p: float, r: float) -> float:
    return 2 * p * r / (p + r)


def rouge2(multi_ref: str) -> tuple[float, float, float]:
    result = score(
        [PREDICTION], [REFERENCES], rouge_types=["rouge2"], multi_ref=multi_ref,
        return_precision_recall=True,
    )  # fmt: skip
    return result["rouge2_precision"], result["rouge2_recall"], result["rouge2"]


def test_pooled_is_lins_formula():
    # R = Σ hits / Σ reference bigrams = 12/30; P = Σ hits / (3 · 12)
    assert rouge2("pooled") == pytest.approx((12 / 36, 12 / 30, f1(12 / 36, 12 / 30)))


def test_best_and_best_recall_pick_the_third_reference():
    p, r = PER_REFERENCE[2]
    assert rouge2("best") == pytest.approx((p, r, f1(p, r)))
    assert rouge2("best_recall") == pytest.approx((p, r, f1(p, r)))


def test_mean_averages_precision_and_recall_then_takes_f():
    p = sum(p for p, _ in PER_REFERENCE) / 3
    r = sum(r for _, r in PER_REFERENCE) / 3
    assert rouge2("mean") == pytest.approx((p, r, f1(p, r)))


def test_mean_prf_averages_precision_recall_and_f():
    """torchmetrics' accumulate="avg": F is the mean of the per-reference F, not F of the means."""
    p = sum(p for p, _ in PER_REFERENCE) / 3
    r = sum(r for _, r in PER_REFERENCE) / 3
    f = sum(f1(p, r) for p, r in PER_REFERENCE) / 3
    assert rouge2("mean_prf") == pytest.approx((p, r, f))
    assert f != pytest.approx(f1(p, r))  # the two means differ on this example


def test_jackknife_averages_the_best_of_each_leave_one_out_set():
    # leaving out 1 or 2, the best is reference 3; leaving out 3, reference 1 (F 0.273 > 0.261)
    picks = [PER_REFERENCE[2], PER_REFERENCE[2], PER_REFERENCE[0]]
    triples = [(p, r, f1(p, r)) for p, r in picks]
    expected = [sum(values) / 3 for values in zip(*triples, strict=True)]
    assert rouge2("jackknife") == pytest.approx(tuple(expected))


def test_best_takes_the_first_reference_on_ties():
    """Both references give F = 2/3, one with P 1/2 and R 1, the other with P 1 and R 1/2."""
    short, long = "a b", "a b c d e f g h"
    for refs, expected in [([short, long], (0.5, 1.0)), ([long, short], (1.0, 0.5))]:
        result = score(["a b c d"], [refs], rouge_types=["rouge1"], return_precision_recall=True)
        assert (result["rouge1_precision"], result["rouge1_recall"]) == expected
        assert result["rouge1"] == pytest.approx(2 / 3)

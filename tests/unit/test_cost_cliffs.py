"""Cost cliffs at the edges (issue 24): shapes of input whose cost once jumped far beyond what the
tables of docs/security.md promise. Each test runs the shape in a fresh interpreter under a time
limit far above today's cost and far below the old one, and checks the numbers it gives.
"""

from __future__ import annotations

import pytest
from support.peak_memory import peak_growth

pytest.importorskip("rouge_plus.kernels._native", reason="the C extension is not built")

# Seconds: today's costs are well under a second; the old ones were minutes.
GUARD = 60


def test_skip_bigrams_of_a_text_against_its_own_copy():
    # rougeS4 of 300,000 tokens against the same text took over 490 s (a pass per shared word once
    # the table of pairs outgrew its budget); rougeS* of 200,000 distinct words against a copy with
    # two words swapped took 161 s (quadratic). Exact now: per occurrence, and by word order.
    setup = "\n".join(
        [
            "import random, rouge_plus",
            "rng = random.Random(1)",
            "text = ' '.join(f'w{rng.randrange(20000)}' for _ in range(300_000))",
            "words = [f'w{i}' for i in range(200_000)]",
            "words[10], words[20] = words[20], words[10]",
            "swapped = ' '.join(words)",
            "distinct = ' '.join(sorted(words, key=lambda w: int(w[1:])))",
        ]
    )
    call = (
        "[rouge_plus.score([text], [t], rouge_types=['rougeS4', 'rougeSU4'])"
        " for t in (text, text + ' w1')]"
        " + [rouge_plus.score([swapped], [distinct], rouge_types=['rougeS*'])]"
    )
    _, (same, longer, swapped) = peak_growth(setup, call, timeout=GUARD)
    assert same == {"rougeS4": 1.0, "rougeSU4": 1.0}
    pairs = 5 * 300_000 - 15  # pairs at most 4 words apart
    recall = pairs / (pairs + 5)  # the added word closes 5 more pairs of the reference
    assert longer["rougeS4"] == pytest.approx(2 * recall / (1 + recall), abs=1e-15)
    n = 200_000
    inversions = 2 * (20 - 10 - 1) + 1
    assert swapped["rougeS*"] == pytest.approx(1 - inversions / (n * (n - 1) // 2), abs=1e-15)

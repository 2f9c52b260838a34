"""The compiled Vocabulary's hash table cannot be flooded with precomputed colliding words.

The words below were built against the table's former hash (FNV-1a, unseeded): FNV-1a's low bits
depend only on the low bits of its state, so two blocks whose states agree on the low 45 bits
keep agreeing whatever follows, and 12 such pairs of blocks chained give 2**12 words that all
land in one slot of any table of up to 2**16 slots (Joux's multicollision). Under that hash each
new word walked the whole cluster before it: 8.4 million probes for 4,096 words, and 1.2 MB of
such words took seconds for rouge1. Words are now hashed with secret per-process keys, and a
table whose lookups probe too much switches to SipHash-1-3 for good. ``Vocabulary.probes``
counts the slots lookups inspect, which makes the checks deterministic: no timing.
"""

from __future__ import annotations

import itertools
import random

import pytest

native = pytest.importorskip("rouge_plus.kernels._native", reason="the C extension is not built")

BLOCK_PAIRS = [
    ("riabhf73zb", "trrw8yy63l"),
    ("aqn5dfu6hm", "3tu7rgliee"),
    ("v08d9gfj8d", "h0wfe6hcba"),
    ("5qqdxhtlqi", "vytgp9tpiy"),
    ("upaatsomtr", "f5lcdyf1f4"),
    ("x3052m45s7", "fxpfg99f2e"),
    ("nka6q3jxhh", "tmca87fr6n"),
    ("1h4n22z2xq", "31bwijy4bu"),
    ("s5wzbr81lv", "uiqkasw88g"),
    ("yzuu3bhc9q", "eo3q4zzkjx"),
    ("wpoix5d7md", "idzq5jh9rb"),
    ("u3oub8gbzk", "h2ovzzl7zp"),
]
COLLIDING = ["".join(blocks) for blocks in itertools.product(*BLOCK_PAIRS)]
# About 1.5 probes per lookup at the table's load of at most 1/2; colliding words need thousands.
PROBES_PER_LOOKUP = 4


def _unseeded_slot(word: str, bits: int) -> int:
    """The slot the former hash gave a word in a table of 2**bits slots."""
    h = 1469598103934665603  # the offset the C code used (FNV-1a's, less its last digit)
    for byte in word.encode():
        h = ((h ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return (h ^ (h >> 29)) & ((1 << bits) - 1)


def test_the_words_collide_under_the_unseeded_hash():
    assert len(set(COLLIDING)) == 4096
    assert {_unseeded_slot(word, 16) for word in COLLIDING} == {_unseeded_slot(COLLIDING[0], 16)}


@pytest.mark.parametrize("form", ["text", "tokens"])
def test_colliding_words_cost_ordinary_probes(form):
    rng = random.Random(0)
    alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
    ordinary = ["".join(rng.choices(alphabet, k=120)) for _ in COLLIDING]
    for words in (ordinary, COLLIDING):
        vocabulary = native.Vocabulary()
        item = " ".join(words) if form == "text" else [words]
        for _ in range(2):  # new words, then lookups of known ones
            vocabulary.encode([item], True)
        assert len(vocabulary) == len(words)
        assert vocabulary.probes <= PROBES_PER_LOOKUP * 2 * len(words)


@pytest.fixture
def weak_hash():
    """Vocabularies whose fast hash sends every word to one slot, as a flood would."""
    native._weaken_hash(True)
    try:
        yield
    finally:
        native._weaken_hash(False)


@pytest.mark.parametrize("form", ["text", "tokens"])
def test_a_flooded_table_falls_back_to_siphash(weak_hash, form):
    words = [f"w{i}" for i in range(20_000)]
    vocabulary = native.Vocabulary()
    item = " ".join(words) if form == "text" else [words]
    first = vocabulary.encode([item], True)
    assert vocabulary.siphash == 1
    assert vocabulary.encode([item], True) == first  # known words keep their ids
    assert vocabulary.words() == words
    assert vocabulary.lookups == 2 * len(words)
    assert vocabulary.probes <= PROBES_PER_LOOKUP * vocabulary.lookups


@pytest.mark.parametrize(
    "word",
    ["w{}", "{}", "{:08d}", "{:x}", "token{:07d}suffix", "{}0000000000000000"],
    ids=["w1", "1", "00000001", "hex", "long", "trailing-zeros"],
)
def test_words_differing_in_few_bytes_keep_the_fast_hash(word):
    # Random slots give about 1.75 probes per new word at the table's load; a hash whose low bits
    # are poorly mixed gives more for words that differ in a few bytes, and falls back to SipHash.
    vocabulary = native.Vocabulary()
    vocabulary.encode([" ".join(word.format(i) for i in range(100_000))], True)
    assert vocabulary.siphash == 0 and vocabulary.lookups == 100_000
    assert vocabulary.probes <= 2.1 * vocabulary.lookups

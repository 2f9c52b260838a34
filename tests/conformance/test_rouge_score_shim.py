"""``rouge_plus.compat.rouge_score`` against the real rouge_score 0.1.2, property by property.

Every result must be equal, not close: the same keys in the same order and the same floats, for
every rouge type, with stemming on and off, for ``score``, ``score_multi`` and ``score_batch``,
str and bytes texts, rouge_score's tokenizer and custom ones (whose tokens need not be str), and
for the bootstrap aggregator under the same global NumPy seed. ``split_summaries=True`` is
compared on texts whose sentences punkt and rouge_plus's rules split alike (the real
``split_summaries=True`` needs NLTK's punkt download, so the oracle gets them one per line).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rouge_plus.compat.rouge_score import rouge_scorer, scoring, tokenize, tokenizers

real_scorer = pytest.importorskip("rouge_score.rouge_scorer")
real_scoring = pytest.importorskip("rouge_score.scoring")
real_tokenize = pytest.importorskip("rouge_score.tokenize")
real_tokenizers = pytest.importorskip("rouge_score.tokenizers")

ALL_TYPES = [f"rouge{n}" for n in range(1, 10)] + ["rougeL", "rougeLsum"]

_WORD_LIST = """
the a an cat cats dog sat sit sitting running runs ran generously agreed feed caresses ponies
happy happily relational hopeful 1 10 2024 3.14 U.S. don't state-of-the-art İstanbul K café 中文
Straße
"""
WORDS = _WORD_LIST.split()
SEPARATORS = [" "] * 6 + ["\n", "\n\n", "\r\n", "\r", "\t", "\u2028", "\x0b", "\x1c", "\xa0"]
SEPARATORS += [". ", ", ", "! ", "--", " / "]

_word = st.sampled_from(WORDS) | st.text(max_size=5)
_cased_word = _word.flatmap(lambda w: st.sampled_from([w, w.upper(), w.capitalize()]))
texts = st.lists(st.tuples(_cased_word, st.sampled_from(SEPARATORS)), max_size=20).map(
    lambda parts: "".join(word + separator for word, separator in parts)
)
type_lists = st.lists(st.sampled_from(ALL_TYPES), min_size=1, max_size=6)
targets_lists = st.lists(texts, min_size=1, max_size=4)

# Each case calls the real rouge_score, whose LCS is pure Python.
check = settings(deadline=None, max_examples=150)
# Generated words come from every script; the shim's advice to pass a language for text that is
# not English is right for them, and beside the point of these parity checks.
pytestmark = pytest.mark.filterwarnings("ignore:use_stemmer=True stems with the English Porter")


def same(shim: dict, real: dict) -> bool:
    """Equal keys in equal order and equal values (floats compared exactly)."""
    return list(shim.items()) == list(real.items())


def scorers(types: list[str], **options: object) -> tuple:
    return rouge_scorer.RougeScorer(types, **options), real_scorer.RougeScorer(types, **options)


@check
@given(texts, texts, type_lists, st.booleans())
def test_score(target, prediction, types, use_stemmer):
    shim, real = scorers(types, use_stemmer=use_stemmer)
    assert same(shim.score(target, prediction), real.score(target, prediction))


@check
@given(targets_lists, texts, type_lists, st.booleans())
def test_score_multi(targets, prediction, types, use_stemmer):
    shim, real = scorers(types, use_stemmer=use_stemmer)
    assert same(shim.score_multi(targets, prediction), real.score_multi(targets, prediction))


@check
@given(st.lists(st.tuples(texts | targets_lists, texts), max_size=6), type_lists, st.booleans())
def test_score_batch(rows, types, use_stemmer):
    shim, real = scorers(types, use_stemmer=use_stemmer)
    expected = [real.score(t, p) if isinstance(t, str) else real.score_multi(t, p) for t, p in rows]
    got = shim.score_batch([t for t, _ in rows], [p for _, p in rows])
    assert len(got) == len(expected)
    assert all(same(g, e) for g, e in zip(got, expected, strict=True))


@check
@given(texts, texts, type_lists, st.booleans())
def test_bytes_texts(target, prediction, types, use_stemmer):
    """rouge_score lowercases bytes before decoding them, so "İ" and "K" (Kelvin) separate
    tokens; except in rougeLsum, which decodes first (see test_bytes_rouge_lsum_quirk)."""
    if any(c in target + prediction for c in "\u0130\u212a"):
        types = [t for t in types if t != "rougeLsum"] or ["rouge1"]
    shim, real = scorers(types, use_stemmer=use_stemmer)
    target, prediction = target.encode(), prediction.encode()
    assert same(shim.score(target, prediction), real.score(target, prediction))


def test_bytes_rouge_lsum_quirk():
    """The one documented difference on bytes: the shim reads "İ" as a separator in every type;
    rouge_score does so except in rougeLsum, where it lowercases it to "i"."""
    shim, real = scorers(["rouge1", "rougeLsum"])
    shim_result, real_result = (s.score(b"i", "İ".encode()) for s in (shim, real))
    assert shim_result["rouge1"] == real_result["rouge1"] == (0, 0, 0)
    assert shim_result["rougeLsum"] == (0, 0, 0) and real_result["rougeLsum"] == (1, 1, 1)


class KindsOfTokens(tokenizers.Tokenizer):
    """Splits at single spaces (so "" and "\\n" can be tokens) and makes each word a token of a
    kind chosen by its length: the word itself, an int, an equal float, a NUL-prefixed str that
    looks like the shim's codes, or a tuple."""

    def tokenize(self, text):
        kinds = (
            lambda w: w,
            len,
            lambda w: float(len(w)),
            lambda w: f"\0n{len(w) % 3}",
            lambda w: (w[:1], len(w)),
        )
        return [kinds[len(word) % len(kinds)](word) for word in text.split(" ")]


class StrTokens(real_tokenizers.Tokenizer):
    def tokenize(self, text):
        return text.lower().split()


tokenizer_objects = st.one_of(
    st.builds(KindsOfTokens),
    st.builds(StrTokens),
    st.builds(real_tokenizers.DefaultTokenizer, st.booleans()),
)


@check
@given(texts, targets_lists, type_lists, st.booleans(), tokenizer_objects)
def test_custom_tokenizer(target, targets, types, use_stemmer, tokenizer):
    """rouge_score ignores use_stemmer with a given tokenizer; tokens may be any hashable.
    (rouge_score's own DefaultTokenizer takes the shim's fast path.)"""
    shim, real = scorers(types, use_stemmer=use_stemmer, tokenizer=tokenizer)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # rouge_plus warns about texts without tokens
        assert same(shim.score(target, targets[0]), real.score(target, targets[0]))
        assert same(shim.score_multi(targets, target), real.score_multi(targets, target))


_SENTENCE_WORD_LIST = "the cat dog sat mat runs blue house over quickly green idea sleeps"
_SENTENCE_WORDS = _SENTENCE_WORD_LIST.split()
sentences = st.lists(
    st.tuples(
        st.lists(st.sampled_from(_SENTENCE_WORDS), min_size=1, max_size=8),
        st.sampled_from(".!?"),
        st.sampled_from([" ", "\n"]),
    ),
    min_size=1,
    max_size=5,
)


def _joined(parts: list) -> tuple[str, str]:
    """(the text with sentences joined by spaces or line breaks, one sentence per line)."""
    written = [(" ".join(words).capitalize() + end, gap) for words, end, gap in parts]
    return "".join(s + gap for s, gap in written), "\n".join(s for s, _ in written)


@check
@given(sentences, sentences, type_lists, st.booleans())
def test_split_summaries(target_parts, prediction_parts, types, use_stemmer):
    """rouge_plus's rules split these texts as punkt would, so ROUGE-Lsum with
    ``split_summaries=True`` equals rouge_score's on the same sentences given one per line."""
    (target, target_lines), (prediction, prediction_lines) = map(
        _joined, (target_parts, prediction_parts)
    )
    shim = rouge_scorer.RougeScorer(types, use_stemmer=use_stemmer, split_summaries=True)
    real = real_scorer.RougeScorer(types, use_stemmer=use_stemmer)
    assert same(shim.score(target, prediction), real.score(target_lines, prediction_lines))


def same_outcome(shim: object, real: object, target: str, prediction: str) -> bool:
    """The same scores, or errors with the same message, the drop-in's an instance of rouge_score's
    class (it raises rouge_plus.errors' subclasses, so ``except ValueError`` still works)."""
    try:
        expected = real.score(target, prediction)
    except (ValueError, TypeError) as error:
        with pytest.raises(type(error)) as raised:
            shim.score(target, prediction)
        return str(raised.value) == str(error)
    return shim.score(target, prediction) == expected


odd_types = st.sampled_from(
    ["rouge0", "rouge10", "rougen", "rougex", "rouge1\n", "Rouge1", "rougeLSum", "rouge01", ""]
)


@check
@given(st.lists(st.sampled_from(ALL_TYPES) | odd_types | st.text(max_size=8), max_size=4))
def test_rouge_type_validation(types):
    """Bad types raise rouge_score's error with its message, when scoring, never when building."""
    shim, real = scorers(types)
    assert same_outcome(shim, real, "a b c", "a c")


def test_rouge_types_are_read_on_every_call():
    shim, real = scorers(["rouge1"])
    shim.score("a", "a")
    shim.rouge_types = real.rouge_types = ["rouge2", "rougeL", "rouge2"]
    assert same(shim.score("a b", "a b"), real.score("a b", "a b"))
    shim.rouge_types = real.rouge_types = ["rouge0"]
    assert same_outcome(shim, real, "a", "a")


def test_empty_inputs():
    shim, real = scorers(["rouge1"])
    with pytest.raises(ValueError):
        real.score_multi([], "a")
    with pytest.raises(ValueError):
        shim.score_multi([], "a")
    assert scorers([])[0].score_multi([], "a") == scorers([])[1].score_multi([], "a") == {}
    assert shim.score_batch([], []) == []
    with pytest.raises(ValueError, match="differ in length"):
        shim.score_batch(["a"], [])


def test_a_text_without_tokens_scores_zero_silently():
    shim = rouge_scorer.RougeScorer(ALL_TYPES)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = shim.score_batch(["!!!", "a b", "İ"], ["a", "...", "i"])
    assert all(score == (0, 0, 0) for score in result[0].values())
    assert all(score == (0, 0, 0) for score in result[1].values())
    assert result[2]["rouge1"] == (1, 1, 1)


@check
@given(texts | texts.map(str.encode), st.booleans())
def test_tokenize(text, use_stemmer):
    stemmer = tokenizers.DefaultTokenizer(use_stemmer)._stemmer
    assert tokenize.tokenize(text, stemmer) == real_tokenize.tokenize(text, stemmer)
    assert tokenizers.DefaultTokenizer(use_stemmer).tokenize(
        text
    ) == real_tokenizers.DefaultTokenizer(use_stemmer).tokenize(text)


def test_tokenizer_base_class():
    assert issubclass(tokenizers.DefaultTokenizer, tokenizers.Tokenizer)
    with pytest.raises(TypeError):
        tokenizers.Tokenizer()


score_rows = st.lists(st.tuples(*[st.floats(0, 1, allow_nan=False)] * 3), min_size=1, max_size=30)


@check
@given(
    st.dictionaries(st.sampled_from(["rouge1", "rougeL", "x"]), score_rows, min_size=1),
    st.floats(0, 1),
    st.integers(1, 60),
    st.integers(0, 2**32 - 1),
)
def test_bootstrap_matches_rouge_score_under_the_same_global_seed(
    rows_by_type, confidence_interval, n_samples, seed
):
    state = np.random.get_state()
    try:
        results = []
        for module in (scoring, real_scoring):
            np.random.seed(seed)
            aggregator = module.BootstrapAggregator(confidence_interval, n_samples)
            for i in range(max(map(len, rows_by_type.values()))):
                aggregator.add_scores(
                    {t: module.Score(*rows[i]) for t, rows in rows_by_type.items() if i < len(rows)}
                )
            results.append(aggregator.aggregate())
    finally:
        np.random.set_state(state)
    shim, real = results
    assert list(shim) == list(real)
    for score_type, aggregate in shim.items():
        assert type(aggregate).__name__ == "AggregateScore"
        assert [tuple(s) for s in aggregate] == [tuple(s) for s in real[score_type]]
        assert all(type(s) is scoring.Score for s in aggregate)


def _same_state(a: tuple, b: tuple) -> bool:
    """Two ``np.random.get_state()`` tuples equal in every field."""
    return all(
        np.array_equal(x, y) if isinstance(x, np.ndarray) else x == y
        for x, y in zip(a, b, strict=True)
    )


@check
@given(
    st.lists(st.tuples(*[st.floats(0, 1, allow_nan=False)] * 3), min_size=1, max_size=400),
    st.integers(1, 40),
    st.sampled_from([1, 7, 300, scoring._BLOCK]),
    st.integers(0, 2**32 - 1),
    st.booleans(),
)
def test_bootstrap_draws_in_blocks_the_stream_rouge_score_draws_one_call_at_a_time(
    rows, n_samples, block, seed, gauss_cached
):
    """Same numbers and the same global random state after, whatever the block of resamples
    drawn per call (down to one per call, rouge_score's way) and however many rows."""
    state = np.random.get_state()
    try:
        results, states = [], []
        for module in (scoring, real_scoring):
            np.random.seed(seed)
            if gauss_cached:
                np.random.standard_normal()  # the state's cached Gaussian must survive too
            aggregator = module.BootstrapAggregator(0.95, n_samples)
            for row in rows:
                reversed_row = module.Score(*row[::-1])
                aggregator.add_scores({"rouge1": module.Score(*row), "rougeL": reversed_row})
            with pytest.MonkeyPatch.context() as patch:
                patch.setattr(scoring, "_BLOCK", block)
                results.append(aggregator.aggregate())
            states.append(np.random.get_state())
    finally:
        np.random.set_state(state)
    shim, real = results
    assert {t: [tuple(s) for s in a] for t, a in shim.items()} == {
        t: [tuple(s) for s in a] for t, a in real.items()
    }
    assert _same_state(*states)


def test_truthfulqa_pattern_a_new_aggregator_per_pair_matches_rouge_score():
    """lm-evaluation-harness's TruthfulQA metric: a scorer and an aggregator for every pair,
    aggregated at once; the same F and the same global random state after each call."""
    types = ["rouge1", "rouge2", "rougeLsum"]
    pairs = [("The cat sat on the mat .", "a cat sat"), ("Paris is in France", "Paris"), ("", "x")]
    state = np.random.get_state()
    try:
        outputs = []
        for scorer_module, scoring_module in ((rouge_scorer, scoring), (real_scorer, real_scoring)):
            np.random.seed(2024)
            values = []
            for ref, pred in pairs:
                aggregator = scoring_module.BootstrapAggregator()
                aggregator.add_scores(scorer_module.RougeScorer(types).score(ref, pred))
                result = aggregator.aggregate()
                values.append([result[t].mid.fmeasure for t in types])
                values.append(np.random.get_state())
            outputs.append(values)
    finally:
        np.random.set_state(state)
    for shim, real in zip(*outputs, strict=True):
        assert _same_state(shim, real) if isinstance(shim, tuple) else shim == real


def test_seeded_bootstrap_keeps_its_numbers():
    """``seed=`` draws the stream its generator gave one resample per call."""
    rows = [(0.1, 0.2, 0.3), (0.5, 0.4, 0.9), (0.0, 1.0, 0.2), (0.7, 0.7, 0.7), (0.3, 0.6, 0.1)]
    aggregator = scoring.BootstrapAggregator(0.9, 50, seed=11)
    for row in rows:
        aggregator.add_scores({"rouge1": scoring.Score(*row)})
    matrix = np.array(rows)
    rng = np.random.default_rng(11)
    means = np.array([matrix[rng.integers(0, 5, size=5)].mean(axis=0) for _ in range(50)])
    expected = np.percentile(means, [5.0, 50.0, 95.0], axis=0)
    assert [tuple(s) for s in aggregator.aggregate()["rouge1"]] == [tuple(r) for r in expected]


def test_seeded_bootstrap_is_reproducible_and_leaves_the_global_generator_alone():
    scorer = rouge_scorer.RougeScorer(["rouge1", "rougeL"])
    results = scorer.score_batch(["a b c", "a b", "c d e f", "a"], ["a b", "b", "d e", "x"])
    before = np.random.get_state()[1].copy()
    aggregates = []
    for _ in range(2):
        aggregator = scoring.BootstrapAggregator(seed=7)
        for result in results:
            aggregator.add_scores(result)
        aggregates.append(aggregator.aggregate())
        aggregates.append(aggregator.aggregate())  # every call starts the generator afresh
    assert (np.random.get_state()[1] == before).all()
    assert all(a == aggregates[0] for a in aggregates)
    for aggregate in aggregates[0].values():
        for field in scoring.Score._fields:
            low, mid, high = (getattr(s, field) for s in aggregate)
            assert low <= mid <= high


@pytest.mark.parametrize(
    ("confidence_interval", "n_samples"), [(-0.1, 10), (1.5, 10), (0.9, 0), (0.9, -3)]
)
def test_aggregator_validation(confidence_interval, n_samples):
    with pytest.raises(ValueError) as shim_error:
        scoring.BootstrapAggregator(confidence_interval, n_samples)
    with pytest.raises(ValueError) as real_error:
        real_scoring.BootstrapAggregator(confidence_interval, n_samples)
    assert str(shim_error.value) == str(real_error.value)


def test_fmeasure():
    for precision, recall in [(0, 0), (1, 0.5), (0.3, 0.7), (1e-300, 1e-300)]:
        assert scoring.fmeasure(precision, recall) == real_scoring.fmeasure(precision, recall)

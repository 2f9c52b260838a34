"""Laws every score obeys, checked with hypothesis over random Unicode and ASCII texts.

Bounds (every P, R, F a float in [0, 1], never NaN), identity, the P/R swap, ROUGE-L and
ROUGE-Lsum below ROUGE-1, and invariance of every per-example score under batching, chunk size,
row order, the compiled vs pure-Python kernels and the interpreter's hash seed. Bootstrap
aggregation is reproducible from its seed and never touches a global random generator.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from unittest import mock

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.backends import without_compiled

import rouge_plus.plan
import rouge_plus.scorer
from rouge_plus import RougeScorer, score
from rouge_plus.text.tokenizers import get_tokenizer

# Random texts of every script have no words and are not English by design: both warnings are
# expected here (tests/unit/test_errors_and_warnings.py checks them).
pytestmark = [
    pytest.mark.filterwarnings("ignore:.*produced no tokens:UserWarning"),
    pytest.mark.filterwarnings("ignore:use_stemmer=True stems with the English:UserWarning"),
]

TYPES = ["rouge1", "rouge2", "rouge3", "rouge9", "rougeL", "rougeLsum"]
NGRAM_TYPES = {"rouge1": 1, "rouge2": 2, "rouge3": 3, "rouge9": 9}
TOKENIZERS = ["default", "rouge_score", "whitespace", "char"]
SPLITTERS = ["newline", "rules", "none"]
MULTI_REF = ["best", "pooled", "mean", "best_recall", "jackknife"]

# Words with frequent overlaps: stems, accents composed and decomposed, CJK, digits.
WORDS = [
    "the", "The", "cat", "cats", "sat", "on", "mat", "running", "runs", "a", "é", "café",
    "cafe\u0301", "猫", "が", "Straße", "naïve", "42", "x", "İstanbul", "😀",
]  # fmt: skip
SEPARATORS = [" ", " ", " ", "\n", ". ", ", ", "\t", "-", "'s ", "\r\n", "。"]

word_texts = st.lists(
    st.tuples(st.sampled_from(WORDS), st.sampled_from(SEPARATORS)), max_size=25
).map(lambda parts: "".join(word + sep for word, sep in parts))
unicode_texts = st.text(max_size=40)  # any code point except lone surrogates
ascii_texts = st.text(st.characters(max_codepoint=127), max_size=40)
texts = st.one_of(word_texts, unicode_texts, ascii_texts)
reference_lists = st.lists(texts, min_size=1, max_size=5)
rows = st.lists(st.tuples(texts, reference_lists), min_size=1, max_size=6)
options = st.fixed_dictionaries(
    {
        "tokenizer": st.sampled_from(TOKENIZERS),
        "use_stemmer": st.booleans(),
        "split_sentences": st.sampled_from(SPLITTERS),
        "multi_ref": st.sampled_from(MULTI_REF),
    }
)

FAST = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _scores(predictions, references, **opts) -> dict[str, np.ndarray]:
    return (
        RougeScorer(opts.pop("rouge_types", TYPES), **opts)
        .score_examples(predictions, references)
        .scores
    )


def _split(batch):
    return [p for p, _ in batch], [refs for _, refs in batch]


# --- bounds -------------------------------------------------------------------------------


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows, options, st.sampled_from([None, 0.5, 2.0]))
def test_every_score_is_a_float_in_unit_interval(batch, opts, beta):
    predictions, references = _split(batch)
    scores = _scores(predictions, references, beta=beta, **opts)
    assert set(scores) == set(TYPES)
    for name, values in scores.items():
        assert values.shape == (len(batch), 3), name
        assert values.dtype == np.float64, name
        assert np.all(np.isfinite(values)), (name, values)
        assert np.all((values >= 0) & (values <= 1)), (name, values)
    corpus = score(predictions, references, rouge_types=TYPES, return_precision_recall=True, **opts)
    for key, value in corpus.items():
        assert type(value) is float, key
        assert 0.0 <= value <= 1.0, (key, value)


# --- identity -------------------------------------------------------------------------------


@FAST
@given(texts, reference_lists, options)
def test_identical_prediction_and_reference_score_one(text, others, opts):
    """1.0 for every type when the text has tokens (>= n for rougeN), else 0.0; with "best",
    adding other references anywhere cannot lower it."""
    opts["multi_ref"] = "best"
    n_tokens = len(get_tokenizer(opts["tokenizer"])(text))
    for references in ([text], others + [text], [text] + others):
        scores = _scores([text], [references], **opts)
        for name in TYPES:
            enough = n_tokens >= NGRAM_TYPES.get(name, 1)
            if enough:
                assert np.all(scores[name][0] == 1.0), (name, text, scores[name])
            elif len(references) == 1:
                assert np.all(scores[name][0] == 0.0), (name, text, scores[name])


# --- symmetry -------------------------------------------------------------------------------


@FAST
@given(texts, texts, options)
def test_precision_and_recall_swap_when_texts_swap(a, b, opts):
    """ROUGE-N and ROUGE-L are symmetric in their counts; ROUGE-Lsum is not (see below)."""
    types = [*NGRAM_TYPES, "rougeL"]
    forward = _scores([a], [b], rouge_types=types, **opts)
    backward = _scores([b], [a], rouge_types=types, **opts)
    for name in types:
        (p, r, f), (p2, r2, f2) = forward[name][0], backward[name][0]
        assert (p, r) == (r2, p2), (name, a, b, forward[name], backward[name])
        assert f == pytest.approx(f2, rel=1e-15, abs=0), name


def test_rouge_lsum_is_not_symmetric_exactly_as_rouge_score():
    """Summary-level LCS unions over *reference* sentences, so swapping the texts can change the
    counts; rouge_score gives the same asymmetric numbers."""
    a, b = "\n the x c a c c b \n b", "\n the b c a c c b \n c"
    forward = _scores([a], [b], rouge_types=["rougeLsum"])["rougeLsum"][0]
    backward = _scores([b], [a], rouge_types=["rougeLsum"])["rougeLsum"][0]
    np.testing.assert_array_equal(forward, [0.75, 0.75, 0.75])
    np.testing.assert_array_equal(backward, [0.875, 0.875, 0.875])
    rouge_scorer = pytest.importorskip("rouge_score.rouge_scorer")
    oracle = rouge_scorer.RougeScorer(["rougeLsum"])
    assert tuple(oracle.score(b, a)["rougeLsum"]) == tuple(forward)  # score(target, prediction)
    assert tuple(oracle.score(a, b)["rougeLsum"]) == tuple(backward)


# --- orderings between types -----------------------------------------------------------------


def test_lsum_can_exceed_rouge1_when_sentences_cut_whitespace_tokens():
    """ "rules" ends a sentence right after "。" with no space, inside the one whitespace token
    "the。the": ROUGE-Lsum then sees the words "the。" and "the", ROUGE-1 only "the。the"."""
    scores = _scores(["the "], [["the。the "]], tokenizer="whitespace", split_sentences="rules")
    assert scores["rouge1"].tolist() == [[0.0, 0.0, 0.0]]
    assert scores["rougeLsum"][0, :2].tolist() == [1.0, 0.5]


@FAST
@given(rows, options)
def test_lcs_types_never_exceed_rouge1(batch, opts):
    """Per pair (one reference, or pooled counts over several) ROUGE-L and ROUGE-Lsum are at most
    ROUGE-1 in precision and in recall. For ROUGE-Lsum this needs the sentences to hold the
    whole text's tokens, which every built-in pair but ("whitespace", "rules") guarantees (see
    the next test)."""
    predictions, references = _split(batch)
    single = [refs[:1] for refs in references]
    cuts_tokens = (opts["tokenizer"], opts["split_sentences"]) == ("whitespace", "rules")
    names = ("rougeL",) if cuts_tokens else ("rougeL", "rougeLsum")
    for refs_of, multi_ref in ((single, "best"), (references, "pooled")):
        opts["multi_ref"] = multi_ref
        scores = _scores(predictions, refs_of, **opts)
        for name in names:
            over = scores[name][:, :2] > scores["rouge1"][:, :2]
            assert not over.any(), (name, scores[name], scores["rouge1"], batch)


@FAST
@given(rows, st.sampled_from(TOKENIZERS), st.booleans(), st.sampled_from(MULTI_REF))
def test_lsum_without_sentence_splitting_is_rouge_l(batch, tokenizer, use_stemmer, multi_ref):
    predictions, references = _split(batch)
    scores = _scores(
        predictions,
        references,
        rouge_types=["rougeL", "rougeLsum"],
        tokenizer=tokenizer,
        use_stemmer=use_stemmer,
        multi_ref=multi_ref,
        split_sentences="none",
    )
    np.testing.assert_array_equal(scores["rougeLsum"], scores["rougeL"])


@FAST
@given(rows, st.sampled_from(["default", "rouge_score", "whitespace"]), st.booleans())
def test_ngrams_and_lcs_cross_newlines(batch, tokenizer, use_stemmer):
    """ROUGE-N and ROUGE-L read the whole token list: a newline is just a separator."""
    predictions, references = _split(batch)
    types = [*NGRAM_TYPES, "rougeL"]
    opts = {"rouge_types": types, "tokenizer": tokenizer, "use_stemmer": use_stemmer}
    flat_predictions = [p.replace("\n", " ") for p in predictions]
    flat_references = [[r.replace("\n", " ") for r in refs] for refs in references]
    expected = _scores(flat_predictions, flat_references, **opts)
    got = _scores(predictions, references, **opts)
    for name in types:
        np.testing.assert_array_equal(got[name], expected[name], err_msg=name)


# --- invariance under batching, chunking, order -------------------------------------------------


def _assert_same(got: dict[str, np.ndarray], expected: dict[str, np.ndarray], what: str) -> None:
    assert got.keys() == expected.keys()
    for name in expected:
        np.testing.assert_array_equal(got[name], expected[name], err_msg=f"{what}: {name}")


@FAST
@given(rows, options)
def test_batch_and_single_pair_paths_agree_exactly(batch, opts):
    predictions, references = _split(batch)
    together = _scores(predictions, references, **opts)
    for i in range(len(batch)):
        alone = _scores([predictions[i]], [references[i]], **opts)
        _assert_same({k: v[i : i + 1] for k, v in together.items()}, alone, f"row {i}")
    lists = score(predictions, references, rouge_types=TYPES, use_aggregator=False, **opts)
    for name in TYPES:
        assert lists[name] == together[name][:, 2].tolist()


@FAST
@given(texts, texts, options, st.booleans(), st.booleans())
def test_one_pair_per_call_returns_what_the_rows_path_returns(
    prediction, reference, opts, aggregate, with_pr
):
    """RougeScorer.score([p], [r]) reads one pair's values straight from the kernels; the
    result dict must be the general path's, key for key and bit for bit."""
    scorer = RougeScorer(TYPES, use_aggregator=aggregate, return_precision_recall=with_pr, **opts)
    expected = rouge_plus.scorer.score_examples([prediction], [reference], scorer.plan).result()
    assert scorer.score([prediction], [reference]) == expected
    assert scorer.score([prediction], [[reference]]) == expected


@FAST
@given(rows, options, st.integers(1, 4))
def test_results_do_not_depend_on_chunk_size(batch, opts, chunk_rows):
    predictions, references = _split(batch)
    expected = _scores(predictions, references, **opts)
    with mock.patch.object(rouge_plus.plan, "CHUNK_ROWS", chunk_rows):
        got = _scores(predictions, references, **opts)
    _assert_same(got, expected, f"CHUNK_ROWS={chunk_rows}")


@FAST
@given(st.data(), rows, options)
def test_results_do_not_depend_on_row_order(data, batch, opts):
    order = data.draw(st.permutations(range(len(batch))))
    predictions, references = _split(batch)
    expected = _scores(predictions, references, **opts)
    shuffled = _scores([predictions[i] for i in order], [references[i] for i in order], **opts)
    inverse = np.argsort(order)
    _assert_same({k: v[inverse] for k, v in shuffled.items()}, expected, f"order {order}")


@FAST
@given(rows, options)
def test_pure_python_kernels_in_process_equal_compiled(batch, opts):
    """The same switch ROUGE_PLUS_PURE_PYTHON=1 makes at import time, applied in-process so that
    hypothesis can search it (the subprocess test below covers the real switch)."""
    from rouge_plus.kernels import native

    if not native.NATIVE:
        pytest.skip("the C extension is not built: both paths are the Python one")
    predictions, references = _split(batch)
    compiled = _scores(predictions, references, **opts)
    with without_compiled():
        pure = _scores(predictions, references, **opts)
    _assert_same(pure, compiled, "pure Python vs compiled")


# --- new processes: pure Python, hash seeds ------------------------------------------------------

CONFIGS = [
    {},
    {"tokenizer": "rouge_score", "use_stemmer": True, "multi_ref": "pooled"},
    {"tokenizer": "whitespace", "split_sentences": "rules", "multi_ref": "jackknife"},
    {"tokenizer": "char", "multi_ref": "mean", "beta": 2.0},
    {"split_sentences": "none", "multi_ref": "best_recall", "alpha": 0.3, "use_stemmer": True},
]

_CHILD = r"""
import json, sys, warnings
warnings.simplefilter("ignore")
import rouge_plus.kernels.native
from rouge_plus import RougeScorer
data = json.load(open(sys.argv[1], encoding="utf-8"))
out = {"native": rouge_plus.kernels.native.NATIVE, "results": []}
for config in data["configs"]:
    scorer = RougeScorer(data["types"], **config)
    boot = RougeScorer(data["types"], aggregation="bootstrap", n_resamples=200, seed=11, **config)
    examples = scorer.score_examples(data["predictions"], data["references"])
    out["results"].append({
        "examples": {k: [float(x).hex() for x in v.ravel()] for k, v in examples.scores.items()},
        "bootstrap": {k: float(v).hex() for k, v in examples.aggregate(boot.options).items()},
    })
json.dump(out, sys.stdout)
"""


def _corpus(seed: int, n_rows: int) -> tuple[list[str], list[list[str]]]:
    """Mixed-script texts with overlaps, control characters, emoji, combining marks."""
    rng = random.Random(seed)
    alphabet = [chr(c) for c in range(0x20, 0x7F)] + list(
        "éèñøßİ\u0301\u0308ΣσςДжשלוםمرحباनमस्तेกขค你好世界がカ한국😀🎉\u200d\x00\x07\u2028\r"
    )

    def text() -> str:
        if rng.random() < 0.6:
            parts = [rng.choice(WORDS) + rng.choice(SEPARATORS) for _ in range(rng.randint(0, 30))]
            return "".join(parts)
        return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 60)))

    predictions = [text() for _ in range(n_rows)]
    references = [[text() for _ in range(rng.randint(1, 5))] for _ in range(n_rows)]
    return predictions, references


def _start_child(tmp_path, env_changes: dict[str, str]) -> subprocess.Popen:
    dropped = ("ROUGE_PLUS_PURE_PYTHON", "PYTHONHASHSEED")
    env = {k: v for k, v in os.environ.items() if k not in dropped}
    env.update(env_changes)
    return subprocess.Popen(
        [sys.executable, "-c", _CHILD, str(tmp_path / "input.json")],
        env=env,
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _finish_child(child: subprocess.Popen) -> dict:
    try:
        stdout, stderr = child.communicate(timeout=300)
    finally:
        child.kill()
    assert child.returncode == 0, stderr[-3000:]
    return json.loads(stdout)


def test_new_processes_pure_python_and_hash_seeds_give_identical_results(tmp_path):
    predictions, references = _corpus(seed=20240601, n_rows=200)
    data = {
        "types": TYPES,
        "configs": CONFIGS,
        "predictions": predictions,
        "references": references,
    }
    (tmp_path / "input.json").write_text(json.dumps(data), encoding="utf-8")
    children = {  # run side by side: most of each child's time is importing NLTK
        "compiled, PYTHONHASHSEED=0": {"PYTHONHASHSEED": "0"},
        "compiled, PYTHONHASHSEED=4242": {"PYTHONHASHSEED": "4242"},
        "pure Python, PYTHONHASHSEED=77": {"PYTHONHASHSEED": "77", "ROUGE_PLUS_PURE_PYTHON": "1"},
    }
    started = {label: _start_child(tmp_path, env) for label, env in children.items()}
    runs = {label: _finish_child(child) for label, child in started.items()}
    assert runs["pure Python, PYTHONHASHSEED=77"]["native"] is False
    if rouge_plus.kernels.native.NATIVE:
        assert runs["compiled, PYTHONHASHSEED=0"]["native"] is True
    expected = runs.pop("compiled, PYTHONHASHSEED=0")["results"]
    for label, run in runs.items():
        for config, got, want in zip(CONFIGS, run["results"], expected, strict=True):
            assert got == want, f"{label} differs under {config}"
    # ... and this process (whatever its hash seed) agrees with the children.
    for config, want in zip(CONFIGS, expected, strict=True):
        here = _scores(predictions, references, **config)
        assert {k: [float(x).hex() for x in v.ravel()] for k, v in here.items()} == want[
            "examples"
        ], config


# --- bootstrap ------------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(rows, st.integers(0, 2**63 - 1), st.sampled_from([0.5, 0.9, 0.95]))
def test_bootstrap_is_reproducible_and_uses_no_global_rng(batch, seed, confidence_level):
    predictions, references = _split(batch)
    opts = {
        "rouge_types": ["rouge1", "rougeL"],
        "aggregation": "bootstrap",
        "n_resamples": 100,
        "seed": seed,
        "confidence_level": confidence_level,
        "return_precision_recall": True,
    }
    np.random.seed(12345)
    random.seed(12345)
    numpy_state, python_state = np.random.get_state(), random.getstate()
    first = score(predictions, references, **opts)
    after = np.random.get_state()
    assert after[0] == numpy_state[0] and np.array_equal(after[1], numpy_state[1])
    assert after[2:] == numpy_state[2:]
    assert random.getstate() == python_state
    np.random.seed(999)  # a different global state must not matter either
    assert score(predictions, references, **opts) == first
    for name in ("rouge1", "rougeL"):
        for column in ("precision", "recall", "fmeasure"):
            key = f"{name}_{column}"
            low, mid, high = first[f"{key}_low"], first[key], first[f"{key}_high"]
            assert 0.0 <= low <= mid <= high <= 1.0, (key, low, mid, high)


def test_bootstrap_seed_changes_the_interval():
    predictions, references = _corpus(seed=5, n_rows=60)
    opts = {"rouge_types": ["rouge1"], "aggregation": "bootstrap", "n_resamples": 200}
    a, b = score(predictions, references, seed=1, **opts), score(predictions, references, **opts)
    assert a != b
    assert score(predictions, references, seed=1, **opts) == a

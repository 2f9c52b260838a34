"""Every kind of measure, tested from its declaration (``scoring/measures.py``'s ``KINDS`` and
``NAME_FORMS``), so that a kind is compared the day it is declared: the compiled code against the
pure-Python twins and NumPy, the one-pair scorer against the rows path, and both against the
definition of the kind (the reference program that defines it, or the definition written out).

The last tests declare a kind of their own, ``rougeLmax`` (one LCS over the whole texts, precision
and recall both its length over the longer text's), exactly as docs/ARCHITECTURE.md says a new
kind is added: a row of ``KINDS`` and a name form.
"""

from __future__ import annotations

import random
import re

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.backends import both_ways

import rouge_plus.plan
import rouge_plus.scorer
from rouge_plus import RougeScorer
from rouge_plus.errors import OptionError
from rouge_plus.kernels.native import NATIVE
from rouge_plus.kernels.spec import Kernel
from rouge_plus.scoring import measures
from rouge_plus.scoring.fmeasure import safe_divide
from rouge_plus.scoring.measures import KINDS, NAME_FORMS, Measure, MeasureKind, NameForm
from rouge_plus.scoring.multiref import MULTI_REF_MODES

pytestmark = pytest.mark.filterwarnings("ignore:.*produced no tokens:UserWarning")

EXAMPLES = [name for form in NAME_FORMS for name in form.examples]


def _names_of_kind(kind: str) -> list[str]:
    return [name for name in EXAMPLES if measures.parse_rouge_type(name).kind == kind]


# Words with stems, synonyms (big/large, cat/kitty) and topic words of several tags.
WORDS = ["the", "big", "large", "cat", "cats", "kitty", "sat", "sits", "on", "mat", "runs", "a"]
sentences = st.lists(st.sampled_from(WORDS), max_size=9).map(" ".join)
texts = st.lists(sentences, max_size=3).map("\n".join)
rows = st.lists(st.tuples(texts, st.lists(texts, min_size=1, max_size=3)), min_size=1, max_size=6)
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _same(a, b) -> None:
    assert a.scores.keys() == b.scores.keys()
    for name, values in a.scores.items():
        np.testing.assert_array_equal(values, b.scores[name], err_msg=name)


def test_every_kind_is_reached_by_the_example_names_of_its_forms():
    for form in NAME_FORMS:
        assert form.examples, form.description
        assert all(re.fullmatch(form.pattern, name, re.ASCII) for name in form.examples)
    assert {measures.parse_rouge_type(name).kind for name in EXAMPLES} == set(KINDS)


# --- compiled against pure Python, pair scorer against the rows path -------------------------


def _compiled_equals_pure_python(names: list[str], batch, options: dict) -> None:
    predictions = [prediction for prediction, _ in batch]
    references = [refs for _, refs in batch]

    def make_scorer() -> RougeScorer:
        return RougeScorer(names, **options)

    compiled, pure = both_ways(make_scorer, predictions, references)
    _same(compiled, pure)
    # What the kind declares is what ran: the compiled reduction where every kind allows it.
    plan = make_scorer().plan
    reduced_compiled = all(
        options.get("multi_ref", "best") in measure.declared_kind.compiled_reductions
        for measure in plan.options.rouge_types
    )
    assert plan.compiled.reduces == reduced_compiled
    buffers = {type(table.buffer) for table in compiled._tables.values()}
    assert buffers == ({bytearray} if reduced_compiled else {np.ndarray})


@pytest.mark.skipif(not NATIVE, reason="the C extension is not built: both ways are Python")
@pytest.mark.parametrize("kind", sorted(KINDS))
@SETTINGS
@given(batch=rows, multi_ref=st.sampled_from(MULTI_REF_MODES), stem=st.booleans())
def test_each_kind_scores_the_same_compiled_and_in_pure_python(kind, batch, multi_ref, stem):
    options = {"multi_ref": multi_ref, "use_stemmer": stem}
    _compiled_equals_pure_python(_names_of_kind(kind), batch, options)


@pytest.mark.parametrize("name", EXAMPLES)
@SETTINGS
@given(pairs=st.lists(st.tuples(texts, texts), min_size=1, max_size=4), stem=st.booleans())
def test_each_kind_scores_one_pair_per_call_as_the_rows_path(name, pairs, stem):
    scorer = RougeScorer([name], use_stemmer=stem)
    for prediction, reference in pairs:
        one = scorer.score_examples([prediction], [reference])
        rows_path = rouge_plus.scorer.score_examples([prediction], [reference], scorer.plan)
        _same(one, rows_path)
        assert scorer.score([prediction], [reference]) == rows_path.result()


# --- both against the definitions -------------------------------------------------------------


def _rows(seed: int, n: int) -> list[tuple[str, str]]:
    rng = random.Random(seed)

    def text() -> str:
        lines = [
            " ".join(rng.choices(WORDS, k=rng.randint(1, 8))) for _ in range(rng.randint(1, 3))
        ]
        return "\n".join(lines)

    return [(text(), text()) for _ in range(n)]


def _by_rouge_score(names: list[str], pairs) -> dict[str, list[tuple[float, float]]]:
    """ROUGE-N, ROUGE-L and ROUGE-Lsum as rouge_score defines them."""
    rouge_scorer = pytest.importorskip("rouge_score.rouge_scorer")
    scorer = rouge_scorer.RougeScorer(names)
    found = [scorer.score(reference, prediction) for prediction, reference in pairs]
    return {name: [(s[name].precision, s[name].recall) for s in found] for name in names}


def _by_rouge155(names: list[str], pairs) -> dict[str, list[tuple[float, float]]]:
    """ROUGE-W and ROUGE-S/SU as the ROUGE-1.5.5 Perl script prints them (5 decimals)."""
    from support.rouge155_oracle import run_rouge155

    flags = ["-w", "1.2", "-2", "4", "-U", "-n", "1"]
    printed = run_rouge155([(p, [r]) for p, r in pairs], flags).per_row
    perl_name = {"rougeW": "ROUGE-W-1.2", "rougeS4": "ROUGE-S4", "rougeSU4": "ROUGE-SU4"}
    return {
        name: [(v.precision, v.recall) for v in printed[perl_name[name]]]
        for name in names
        if name in perl_name
    }


def _by_definition_of_topic(names: list[str], pairs) -> dict[str, list[tuple[float, float]]]:
    """ROUGE 2.0's topic types: the clipped overlap of the topic words the tagger picks (of the
    distinct words for TopicUniq), over the topic words of each side."""
    from collections import Counter

    topic_words = RougeScorer(["rougeTopic"]).plan.topic_words

    def words(text: str, unique: bool) -> Counter:
        found = [
            w
            for s in topic_words(text.split("\n"))
            for w in (s.split() if isinstance(s, str) else s)
        ]
        return Counter(set(found) if unique else found)

    out = {}
    for name in names:
        if "synonyms" in name:
            continue
        unique = "Uniq" in name
        values = []
        for prediction, reference in pairs:
            p, r = words(prediction, unique), words(reference, unique)
            hit = sum((p & r).values())
            values.append(
                (hit / max(sum(p.values()), 1) if p else 0.0, hit / sum(r.values()) if r else 0.0)
            )
        out[name] = values
    return out


# Per kind: the names it is checked under, the options of ours that reproduce the definition, and
# the definition. A kind declared without a definition here fails the test below.
DEFINITIONS = {
    "ngram": (["rouge1", "rouge2"], {}, _by_rouge_score),
    "lcs": (["rougeL"], {}, _by_rouge_score),
    "summary_lcs": (["rougeLsum"], {}, _by_rouge_score),
    "weighted_lcs": (["rougeW"], {"profile": "rouge155"}, _by_rouge155),
    "skip_bigram": (["rougeS4", "rougeSU4"], {"profile": "rouge155"}, _by_rouge155),
    "topic": (["rougeTopic", "rougeTopicUniq"], {}, _by_definition_of_topic),
}


def test_every_kind_has_a_definition():
    assert set(DEFINITIONS) == set(KINDS)


@pytest.mark.parametrize("kind", sorted(KINDS))
@pytest.mark.parametrize("pure_python", [False, True], ids=["compiled", "pure-python"])
def test_each_kind_equals_its_definition(kind, pure_python):
    names, options, definition = DEFINITIONS[kind]
    pairs = _rows(seed=len(kind), n=30)
    expected = definition(names, pairs)
    predictions, references = [p for p, _ in pairs], [r for _, r in pairs]
    compiled, pure = both_ways(lambda: RougeScorer(names, **options), predictions, references)
    ours = pure if pure_python else compiled
    for name in names:
        values = ours.scores[name][:, :2]
        np.testing.assert_allclose(values, expected[name], rtol=0, atol=1e-12, err_msg=name)


# --- a kind declared in a test --------------------------------------------------------------


def _over_the_longer_text(measure, hit, pred_base, ref_base):
    ratio = safe_divide(hit, np.maximum(pred_base, ref_base))
    return ratio, ratio


def _lcs_length(a: list[str], b: list[str]) -> int:
    table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            table[i + 1][j + 1] = (
                table[i][j] + 1 if x == y else max(table[i][j + 1], table[i + 1][j])
            )
    return table[-1][-1]


@pytest.fixture
def lcs_max(monkeypatch):
    """``rougeLmax``, a kind of this test: a row of KINDS and a name form, nothing else."""
    kind = MeasureKind(
        "lcs_max", Kernel.LCS, ratios=_over_the_longer_text, compiled_reductions=frozenset()
    )
    form = NameForm("rougeLmax", "rougeLmax", ("rougeLmax",), lambda m: Measure(m[0], "lcs_max"))
    monkeypatch.setitem(measures.KINDS, kind.name, kind)
    monkeypatch.setattr(measures, "NAME_FORMS", [*measures.NAME_FORMS, form])
    rouge_plus.plan.clear_kept_plans()
    yield kind
    rouge_plus.plan.clear_kept_plans()


def test_a_kind_declared_in_a_test_scores_the_same_compiled_and_in_pure_python(lcs_max):
    pairs = _rows(seed=7, n=40)
    predictions = [p for p, _ in pairs]
    references = [[r, p[: len(p) // 2]] for p, r in pairs]  # several references: "best"
    compiled, pure = both_ways(lambda: RougeScorer(["rougeLmax"]), predictions, references)
    _same(compiled, pure)
    expected = []
    for prediction, refs in zip(predictions, references, strict=True):
        p = prediction.split()
        ratios = [_lcs_length(p, r.split()) / max(len(p), len(r.split()), 1) for r in refs]
        expected.append(max(ratios))
    values = compiled.scores["rougeLmax"]
    np.testing.assert_allclose(values[:, 0], expected, rtol=0, atol=1e-15)
    np.testing.assert_array_equal(values[:, 0], values[:, 1])  # the formula, not hit / base
    one = RougeScorer(["rougeLmax"]).score([predictions[0]], [references[0][0]])
    assert one["rougeLmax"] == pytest.approx(
        _lcs_length(predictions[0].split(), references[0][0].split())
        / max(len(predictions[0].split()), len(references[0][0].split()))
    )


@settings(
    SETTINGS, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(batch=rows, multi_ref=st.sampled_from(MULTI_REF_MODES))
def test_a_kind_declared_in_a_test_is_compared_like_every_kind(lcs_max, batch, multi_ref):
    _compiled_equals_pure_python(["rougeLmax", "rouge1"], batch, {"multi_ref": multi_ref})


def test_a_kind_whose_formula_compiled_code_cannot_compute_cannot_declare_compiled_reductions():
    with pytest.raises(OptionError, match="compiled reductions compute hit / base only"):
        MeasureKind("lcs_max", Kernel.LCS, ratios=_over_the_longer_text)

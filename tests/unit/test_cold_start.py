"""A fresh process imports only what its call needs, and the compiled code it runs (kernels,
stem-id remap, reduction of references, column means) scores exactly as the code that runs
without it (the Python twins, NumPy).

``import rouge_plus`` must not import NumPy, NLTK or the ``regex`` module, and the common scoring
call (ROUGE-N/L/Lsum, with or without stemming) must not either: those cost more than the
scoring itself in a short-lived process. Nor may the call import the standard library's modules
that it does not use (``LIGHT``): a hundred pairs score in about a millisecond, less than most of
them take to import. These tests look at ``sys.modules`` in a subprocess; they time nothing.
"""

from __future__ import annotations

import functools
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.backends import both_ways

import rouge_plus.plan
import rouge_plus.scorer
from rouge_plus import RougeScorer
from rouge_plus._compiled import compiled

REPO = Path(__file__).resolve().parents[2]
HEAVY = ("numpy", "nltk", "regex")
# Modules of the standard library that the common call does not need: importlib.resources (and
# the tempfile, shutil, lzma, bz2, random it imports) to read a data file that has a path;
# typing, dataclasses (and the inspect, ast, dis, tokenize, copy it imports) for records and
# annotations; pathlib (urllib, ipaddress) for paths; warnings, logging and importlib while
# there is nothing to say or to look up; and rouge_plus's table of languages.
LIGHT = (
    "importlib.resources", "tempfile", "shutil", "lzma", "bz2", "random",
    "typing", "dataclasses", "inspect", "ast", "dis", "tokenize", "copy",
    "pathlib", "urllib", "ipaddress", "warnings", "logging", "importlib",
    "rouge_plus.text.languages",
)  # fmt: skip
built = pytest.mark.skipif(
    compiled("scoring._scores") is None or compiled("text._stemmers") is None,
    reason="the C extensions are not built",
)


def _modules_after(code: str) -> list[str]:
    """The top-level modules and the rouge_plus modules a fresh interpreter holds after
    running ``code``."""
    script = f"import sys\n{code}\nprint(__import__('json').dumps(sorted(sys.modules)))"
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout.splitlines()[-1])


def _heavy(modules: list[str]) -> list[str]:
    return sorted({name.split(".")[0] for name in modules} & set(HEAVY))


def test_import_rouge_plus_imports_nothing_heavy():
    modules = _modules_after("import rouge_plus")
    assert _heavy(modules) == []
    assert [m for m in modules if m.startswith("rouge_plus.")] == ["rouge_plus._version"]


def test_public_names_still_resolve():
    modules = _modules_after(
        "import rouge_plus\n"
        "assert callable(rouge_plus.score) and rouge_plus.RougeScorer and rouge_plus.ScoreOptions\n"
        "assert rouge_plus.ExampleScores and 'score' in dir(rouge_plus)\n"
        "from rouge_plus import RougeScorer, ScoreOptions, score"
    )
    assert _heavy(modules) == []


SCORE_CALL = """
from rouge_plus import RougeScorer, score
texts = ["The cat sat on the mat.\\nIt purred \\u2014 loudly, for \\u00a35\\u00a0today.", "", "!!"]
refs = [["the cats were sitting on mats", "a cat"], "dogs barked", "x"]
import warnings
warnings.simplefilter("ignore")
for options in {options}:
    result = score(texts, refs, **options)
    per_example = RougeScorer(**options, use_aggregator=False).score(texts, refs)
"""


@built
@pytest.mark.parametrize(
    "options",
    [
        [{}, {"use_stemmer": True}],
        [{"tokenizer": "rouge_score", "use_stemmer": True, "return_precision_recall": True}],
        [{"rouge_types": ["rouge1", "rougeSU4", "rougeS*"], "split_sentences": "rules"}],
    ],
    ids=["default", "rouge_score", "skip-bigrams"],
)
def test_common_scoring_imports_nothing_heavy(options):
    assert _heavy(_modules_after(SCORE_CALL.format(options=options))) == []


# English texts that all have tokens: nothing to warn about.
ENGLISH_CALL = """
from rouge_plus import RougeScorer, score
predictions = ["The cat sat on the mat.\\nIt purred loudly.", "a dog barked"]
references = [["the cats were sitting on mats", "a cat"], "dogs barked"]
score(predictions, references, **{options})
RougeScorer(**{options}, use_aggregator=False).score(predictions, references)
"""


@built
@pytest.mark.parametrize("options", [{}, {"use_stemmer": True}], ids=["plain", "stemming"])
def test_common_scoring_imports_no_module_it_does_not_use(options):
    # (Python's own start may import some of them: an editable install's path hook does.)
    imported = set(_modules_after(ENGLISH_CALL.format(options=options))) - set(_modules_after(""))
    assert sorted(imported.intersection(LIGHT)) == []
    # Nor rouge_plus's modules for options it was not given.
    unasked = {"rouge_plus.text.reasoning"}
    if not options:
        unasked.add("rouge_plus.text.stemming")
    assert sorted(imported & unasked) == []


def test_stemming_never_imports_nltk():
    options = [{"use_stemmer": True}, {"use_stemmer": True, "profile": "rouge155"}]
    modules = _modules_after(SCORE_CALL.format(options=options))
    assert "nltk" not in {name.split(".")[0] for name in modules}


def _both_ways(make_scorer, predictions, references, parts: tuple[str, ...]):
    """The scores of the compiled code and of the code that runs without ``parts`` of it."""
    compiled_way, other_way = both_ways(make_scorer, predictions, references, parts)
    # Tables as the compiled reduction writes them, and as NumPy does (one chunk: not joined).
    assert all(type(t.buffer) is bytearray for t in compiled_way._tables.values())
    if "reduction" in parts and len(predictions) <= rouge_plus.plan.CHUNK_ROWS:
        assert all(isinstance(t.buffer, np.ndarray) for t in other_way._tables.values())
    return compiled_way, other_way


def _assert_identical(flat, numpy_path):
    assert flat.aggregate() == numpy_path.aggregate()
    assert flat.per_example() == numpy_path.per_example()
    assert flat.columns() == numpy_path.columns()
    for name, values in numpy_path.scores.items():
        np.testing.assert_array_equal(flat.scores[name], values)
        assert flat.scores[name].flags.writeable


OPTIONS = [
    {},
    {"use_stemmer": True},
    {"tokenizer": "rouge_score", "use_stemmer": True},
    {"split_sentences": "rules"},
    {"beta": 2},
    {"beta": 0.5},
    {"alpha": 0.3},
    {"alpha": 0},
    {"tokenizer": "whitespace"},
    {"return_precision_recall": True},
]
TYPES = ["rouge1", "rouge2", "rouge4", "rougeL", "rougeLsum", "rougeS4", "rougeSU*"]


@built
@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(map(str, o.items())) or "-")
def test_compiled_reduction_and_stems_equal_numpy_on_the_bench(bench_rows, options):
    predictions = [row["prediction"] for row in bench_rows]
    single = [row["references"][0] for row in bench_rows]
    several = [[ref, bench_rows[i - 1]["prediction"]] for i, ref in enumerate(single)]

    def make_scorer():
        return RougeScorer(TYPES, **options)

    for references in (single, several):
        _assert_identical(*_both_ways(make_scorer, predictions, references, ("reduction", "stems")))


words = st.sampled_from(["cat", "cats", "sat", "the", "a", "mat", "é", "Ünïcode", "日本"])
texts = st.lists(st.lists(words, max_size=12).map(" ".join), min_size=1, max_size=3).map("\n".join)


@built
@pytest.mark.filterwarnings("ignore:.*produced no tokens")
@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(texts, st.lists(texts, min_size=1, max_size=3)), min_size=1, max_size=8),
    st.sampled_from(OPTIONS),
    st.sampled_from([("reduction",), ("kernels",), ("reduction", "stems", "kernels")]),
)
def test_compiled_code_equals_numpy_and_python_twins_on_generated_texts(rows, options, parts):
    predictions = [prediction for prediction, _ in rows]
    references = [refs for _, refs in rows]
    _assert_identical(
        *_both_ways(lambda: RougeScorer(TYPES, **options), predictions, references, parts)
    )


@built
def test_chunks_and_threads_join_tables(bench_rows, monkeypatch):
    predictions = [row["prediction"] for row in bench_rows[:300]]
    references = [row["references"][0] for row in bench_rows[:300]]
    monkeypatch.setattr(rouge_plus.plan, "CHUNK_ROWS", 64)
    whole = RougeScorer(TYPES).score_examples(predictions, references)
    for num_proc in (1, 2):
        compiled_way, numpy_way = _both_ways(
            functools.partial(RougeScorer, TYPES, num_proc=num_proc),
            predictions,
            references,
            ("reduction",),
        )
        _assert_identical(compiled_way, numpy_way)
        _assert_identical(compiled_way, whole)
    chunked = rouge_plus.scorer.score_examples(
        predictions, references, RougeScorer(TYPES).options, chunk_size=100
    )
    _assert_identical(chunked, whole)

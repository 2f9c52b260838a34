"""Errors name the row and the option; the "no tokens" warning comes once per call; logging goes
through ``logging``; a failed call leaves nothing behind."""

from __future__ import annotations

import ast
import builtins
import logging
import os
import re
import subprocess
import sys
import warnings
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import settings

import rouge_plus.plan
import rouge_plus.scorer
from rouge_plus import RougePlus, RougeScorer, errors, score

NO_TOKENS = "produced no tokens"

REPO = Path(__file__).resolve().parents[2]


# --- errors name the row ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "predictions, references, error, where",
    [
        (["a", "b", 3], ["a", "b", "c"], TypeError, "predictions[2]"),
        (["a", "b", "c"], ["a", None, "c"], TypeError, "references[1]"),
        (["a", "b"], [["a", "x"], ["b", "y", 4]], TypeError, "references[1][2]"),
        (["a", "b"], [["a"], []], ValueError, "references[1]"),
        (["a", "b"], [["a"], b"b"], TypeError, "references[1]"),
        (["a", "b"], ["a"], ValueError, "2 predictions, 1 references"),
        ([], [], ValueError, "empty"),
        (None, ["a"], TypeError, "predictions"),
        ("a text", ["a"], TypeError, "predictions"),
    ],
)
def test_input_errors_name_the_row(predictions, references, error, where):
    for call in (
        lambda: RougeScorer(["rouge1"]).score_examples(predictions, references),
        lambda: score(predictions, references),
        lambda: RougePlus().compute(predictions=predictions, references=references),
    ):
        with pytest.raises(error, match=re.escape(where)):
            call()


def _exploding(text: str) -> list[str]:
    if "boom" in text:
        raise RuntimeError("tokenizer exploded")
    return text.split()


def _wrong_type(text: str) -> object:
    return 5 if "boom" in text else text.split()


@pytest.mark.parametrize("tokenizer", [_exploding, _wrong_type], ids=["raises", "returns-int"])
def test_custom_tokenizer_errors_name_the_row(tokenizer):
    with pytest.raises((RuntimeError, TypeError)) as raised:
        RougeScorer(["rouge1"], tokenizer=tokenizer).score_examples(
            ["fine", "fine", "fine"], ["fine", ["fine", "it went boom"], "fine"]
        )
    text = "".join([str(raised.value), *getattr(raised.value, "__notes__", [])])
    assert "references[1][1]" in text


def test_custom_tokenizer_errors_name_the_tokenizer():
    with pytest.raises(TypeError, match=r"tokenizer 'custom:_wrong_type'.*'it went boom'"):
        RougeScorer(["rouge1"], tokenizer=_wrong_type).score_examples(["it went boom"], ["a"])


# --- errors name the option -----------------------------------------------------------------


@pytest.mark.parametrize(
    "options, error, name",
    [
        ({"rouge_types": ["rouge0"]}, ValueError, "rouge_types"),
        ({"rouge_types": []}, ValueError, "rouge_types"),
        ({"rouge_types": [1]}, TypeError, "rouge_types"),
        ({"multi_ref": "worst"}, ValueError, "multi_ref"),
        ({"aggregation": "median"}, ValueError, "aggregation"),
        ({"beta": -1}, ValueError, "beta"),
        ({"alpha": 2}, ValueError, "alpha"),
        ({"beta": 1, "alpha": 0.5}, ValueError, "beta and alpha"),
        ({"use_stemmer": "yes"}, TypeError, "use_stemmer"),
        ({"use_aggregator": 1}, TypeError, "use_aggregator"),
        ({"confidence_level": 95}, ValueError, "confidence_level"),
        ({"n_resamples": 0}, ValueError, "n_resamples"),
        ({"seed": 1.5}, TypeError, "seed"),
        ({"rouge_type": ["rouge1"]}, TypeError, "'rouge_type'; valid options are"),
    ],
)
def test_option_errors_name_the_option_at_construction(options, error, name):
    with pytest.raises(error, match=re.escape(name)):
        RougeScorer(**options)
    with pytest.raises(error, match=re.escape(name)):
        RougePlus(**options)  # at load time, before any data


@pytest.mark.parametrize(
    "options",
    [{"tokenizer": "spacy"}, {"tokenizer": 3}, {"split_sentences": "nltk"}],
    ids=["tokenizer-name", "tokenizer-int", "split_sentences-name"],
)
def test_tokenizer_and_splitter_errors_at_construction(options):
    (name,) = options
    with pytest.raises((ValueError, TypeError), match=name):
        RougeScorer(**options)


@pytest.mark.parametrize(
    "options", [{"tokenizer": "spacy"}, {"split_sentences": "nltk"}], ids=["tok", "split"]
)
def test_tokenizer_and_splitter_errors_at_scoring_list_valid_names(options):
    with pytest.raises(ValueError, match="valid names are"):
        RougeScorer(["rougeLsum"], **options).score_examples(["a"], ["a"])


# --- the "no tokens" warning ------------------------------------------------------------------


def _wordless_corpus(n: int = 10) -> tuple[list[str], list[list[str]]]:
    predictions = ["!!!" if i % 2 else "a b" for i in range(n)]  # odd rows: 5 wordless
    references = [["???", "a"] if i % 3 == 0 else ["a b"] for i in range(n)]  # 4 wordless
    return predictions, references


@pytest.mark.parametrize("chunk_rows", [1, 3, 4096])
def test_no_tokens_warning_once_per_call_across_chunks(chunk_rows, caplog):
    predictions, references = _wordless_corpus()
    with (
        mock.patch.object(rouge_plus.plan, "CHUNK_ROWS", chunk_rows),
        warnings.catch_warnings(record=True) as caught,
        caplog.at_level(logging.WARNING),
    ):
        warnings.simplefilter("always")
        RougeScorer(["rouge1"], tokenizer="default").score_examples(predictions, references)
    ours = [w for w in caught if NO_TOKENS in str(w.message)]
    assert len(ours) == 1, [str(w.message) for w in caught]
    assert ours[0].category is errors.NoTokensWarning
    message = str(ours[0].message)
    assert message.startswith("9 non-empty text(s)"), message
    first = re.search(r"first: (\S+?)\)", message).group(1)
    assert first in {f"predictions[{i}]" for i in range(1, 10, 2)} | {
        f"references[{i}][0]" for i in range(0, 10, 3)
    }
    records = [r for r in caplog.records if NO_TOKENS in r.getMessage()]
    assert len(records) == 1
    assert records[0].levelno == logging.WARNING
    assert records[0].name.startswith("rouge_plus")
    assert records[0].getMessage() == message


def test_no_warning_and_no_log_for_empty_or_whitespace_texts(caplog):
    with warnings.catch_warnings(), caplog.at_level(logging.DEBUG, logger="rouge_plus"):
        warnings.simplefilter("error")  # any warning fails the test
        RougeScorer(["rouge1"]).score_examples(["", " \n\t", "a"], ["a", "", "\u3000"])
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


def test_a_failing_hypothesis_run_shows_the_no_tokens_log_once(tmp_path):
    """Hundreds of examples each log the warning; the failure report shows it once, under the
    falsifying example, and a run outside CI draws new examples (a derandomized CI run hid a
    bug that a fresh clone's run found)."""
    test_file = Path(__file__).parents[1] / "support" / "failing_property.py"
    repository = Path(__file__).parents[2]
    environment = {key: value for key, value in os.environ.items() if key != "CI"}
    environment["PYTHONPATH"] = str(repository)
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", str(test_file)],
        capture_output=True,
        text=True,
        timeout=300,
        env=environment,
        cwd=tmp_path,
    )
    assert run.returncode == 1, run.stdout[-2000:] + run.stderr[-2000:]
    # hypothesis names the example "Falsifying example" (before 6.16x) or "Failing test case"
    assert re.search(r"(Falsifying example|Failing test case): test_fails_after", run.stdout)
    assert run.stdout.count(NO_TOKENS) == 1, run.stdout[-3000:]
    assert not settings.default.derandomize or os.environ.get("CI")


def test_one_warning_per_call_not_per_process():
    predictions, references = _wordless_corpus()
    for _ in range(3):
        with pytest.warns(UserWarning, match=NO_TOKENS):
            score(predictions, references, rouge_types=["rouge1"])


@pytest.mark.parametrize(
    "entry",
    [
        lambda p, r: RougeScorer(["rouge1"]).score_examples(p, r),
        lambda p, r: RougeScorer(["rouge1"]).score(p, r),
        lambda p, r: score(p, r, rouge_types=["rouge1"]),
    ],
    ids=["score_examples", "RougeScorer.score", "score"],
)
def test_warning_points_at_the_callers_line(entry):
    """A warning attributed to library internals is shown once per process under Python's default
    filter and hides the user's line that caused it."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        entry(["!!!"], ["a"])
    (warning,) = [w for w in caught if NO_TOKENS in str(w.message)]
    assert warning.filename == __file__, f"{warning.filename}:{warning.lineno}"


def test_an_unconfigured_program_sees_the_message_once(tmp_path):
    program = "from rouge_plus import score\nscore(['!!!'], ['a'], rouge_types=['rouge1'])\n"
    done = subprocess.run(
        [sys.executable, "-c", program],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert done.stderr.count(NO_TOKENS) == 1, done.stderr


# --- a failed call leaves no state --------------------------------------------------------------

GOOD_PREDICTIONS = ["the cat sat on the mat", "a dog"]
GOOD_REFERENCES = [["the cat is on the mat", "a cat sat"], "the dog barked"]


def _fresh() -> dict:
    return RougePlus(rouge_types=["rouge1", "rougeLsum"]).compute(
        predictions=GOOD_PREDICTIONS, references=GOOD_REFERENCES
    )


def test_failed_direct_compute_leaves_no_state():
    metric = RougePlus(rouge_types=["rouge1", "rougeLsum"])
    with pytest.raises(TypeError, match=r"predictions\[1\]"):
        metric.compute(predictions=["fine", 7], references=["a", "b"])
    with pytest.raises(ValueError, match="multi_ref"):
        metric.compute(predictions=["fine"], references=["a"], multi_ref="worst")
    assert metric.compute(predictions=GOOD_PREDICTIONS, references=GOOD_REFERENCES) == _fresh()


def test_rejected_add_batch_adds_no_rows():
    metric = RougePlus(rouge_types=["rouge1", "rougeLsum"])
    with pytest.raises(TypeError, match=r"references\[2\]"):
        metric.add_batch(predictions=["x", "y", "z"], references=["x", "y", 3])
    metric.add_batch(predictions=GOOD_PREDICTIONS, references=GOOD_REFERENCES)
    assert metric.compute() == _fresh()


def test_compute_rejecting_an_option_keeps_the_added_batches():
    metric = RougePlus(rouge_types=["rouge1", "rougeLsum"])
    metric.add_batch(predictions=GOOD_PREDICTIONS, references=GOOD_REFERENCES)
    with pytest.raises(ValueError, match="multi_ref"):
        metric.compute(multi_ref="worst")
    assert metric.compute() == _fresh()


def test_compute_rejecting_a_tokenizer_keeps_the_added_batches():
    metric = RougePlus(rouge_types=["rouge1", "rougeLsum"])
    metric.add_batch(predictions=GOOD_PREDICTIONS, references=GOOD_REFERENCES)
    with pytest.raises(ValueError, match="tokenizer"):
        metric.compute(tokenizer="spacy")
    assert metric.compute() == _fresh()


def test_scorer_after_a_failure_equals_a_fresh_one():
    scorer = RougeScorer(["rouge1", "rougeLsum"])
    with pytest.raises(TypeError):
        scorer.score(["a", None], ["a", "b"])
    expected = RougeScorer(["rouge1", "rougeLsum"]).score(GOOD_PREDICTIONS, GOOD_REFERENCES)
    assert scorer.score(GOOD_PREDICTIONS, GOOD_REFERENCES) == expected


def test_topic_types_need_str_tokens_and_say_so():
    def lengths(text: str) -> list[int]:
        return [len(word) for word in text.split()]

    assert score(["aa b"], ["aa c"], rouge_types=["rouge1"], tokenizer=lengths) == {"rouge1": 1.0}
    with pytest.raises(TypeError, match="topic types tag words"):
        score(["aa b"], ["aa c"], rouge_types=["rougeTopic"], tokenizer=lengths)


# ---- one error hierarchy ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("error", "builtins"),
    [
        (errors.OptionError, (ValueError,)),
        (errors.OptionTypeError, (ValueError, TypeError)),
        (errors.OptionFileError, (ValueError, FileNotFoundError)),
        (errors.InputError, (ValueError,)),
        (errors.InputTypeError, (ValueError, TypeError)),
        (errors.JudgmentsError, (errors.InputError, ValueError)),
        (errors.DataFileError, (ValueError,)),
        (errors.SynonymDataError, (errors.DataFileError,)),
        (errors.TaggerDataError, (errors.DataFileError,)),
        (errors.MissingExtraError, (ModuleNotFoundError, ImportError)),
        (errors.CompiledBuildError, (ImportError,)),
        (errors.LimitError, (errors.InputError,)),
        (errors.ClientGone, ()),
    ],
)
def test_each_error_is_what_it_claims(error, builtins):
    assert issubclass(error, errors.RougePlusError)
    for builtin in builtins:
        assert issubclass(error, builtin), builtin
    assert not issubclass(errors.ClientGone, errors.LimitError)


def test_old_names_still_import_the_same_classes():
    from rouge_plus.readers import InputError
    from rouge_plus.rouge2.pos import TaggerDataError
    from rouge_plus.rouge2.synonyms import SynonymDataError
    from rouge_plus.space.limits import ClientGone, LimitError

    assert (InputError, TaggerDataError, SynonymDataError, ClientGone, LimitError) == (
        errors.InputError, errors.TaggerDataError, errors.SynonymDataError, errors.ClientGone,
        errors.LimitError,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("call", "error", "builtin"),
    [
        (lambda: score(["a"], ["a"], multi_ref="worst"), errors.OptionError, ValueError),
        (lambda: score(["a"], ["a"], use_stemmer="yes"), errors.OptionTypeError, TypeError),
        (lambda: score(["a"], ["a"], bogus=1), errors.OptionTypeError, TypeError),
        (lambda: score(["a"], ["a"], rouge_types=["rougeX"]), errors.OptionError, ValueError),
        (lambda: score(["a"], ["a"], beta=-1.0), errors.OptionError, ValueError),
        (lambda: score(["a"], ["a"], tokenizer="spacy"), errors.OptionError, ValueError),
        (lambda: score(["a"], ["a"], language="xx"), errors.OptionError, ValueError),
        (
            lambda: score(["a"], ["a"], remove_stopwords="no-such-file.txt"),
            errors.OptionFileError,
            FileNotFoundError,
        ),
        (lambda: score(["a", None], ["a", "b"]), errors.InputTypeError, TypeError),
        (lambda: score(["a"], [[]]), errors.InputError, ValueError),
        (lambda: score(["a"], ["a", "b"]), errors.InputError, ValueError),
    ],
)
def test_bad_options_and_inputs_raise_the_hierarchy(call, error, builtin):
    with pytest.raises(error) as caught:
        call()
    assert isinstance(caught.value, builtin) and isinstance(caught.value, errors.RougePlusError)


def test_a_missing_extra_names_the_extra_and_its_packages():
    error = errors.MissingExtraError("language='zh' (Chinese word segmentation)", "zh")
    assert 'pip install ".[zh]"' in str(error) and "rjieba" in str(error)
    assert error.extra == "zh" and error.packages == ("rjieba",)
    assert isinstance(error, ModuleNotFoundError)


def test_extra_packages_agree_with_pyproject():
    tomllib = pytest.importorskip("tomllib")
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    extras = pyproject["project"]["optional-dependencies"]
    for extra, packages in errors.EXTRA_PACKAGES.items():
        declared = tuple(re.split(r"[<>=!~ ]", spec, maxsplit=1)[0] for spec in extras[extra])
        assert declared == packages, extra


@pytest.mark.parametrize(
    "error",
    [
        errors.OptionError("multi_ref: bad"),
        errors.DataFileError("synonym file: bad"),
        errors.MissingExtraError("language='zh'", "zh"),
        errors.InputTypeError("predictions is None"),
    ],
)
def test_the_command_line_catches_the_one_base(error, capsys):
    from rouge_plus.cli.common import run_and_write

    def produce() -> str:
        raise error

    assert run_and_write(produce, None) == 1
    assert capsys.readouterr().err == f"rouge-plus: error: {error}\n"


@pytest.mark.parametrize("beta", [float("inf"), 1e200, float("nan")])
def test_a_beta_whose_square_overflows_is_refused_not_nan(beta: float) -> None:
    """beta**2 = inf made F = NaN (inf * P * R / (inf * P + R)); F tends to R as beta grows."""
    with pytest.raises(errors.OptionError, match="beta must be a positive number"):
        score(["the cat sat"], ["the cat is here"], beta=beta)
    assert score(["the cat sat"], ["the cat is here"], beta=1e150)["rouge1"] == pytest.approx(0.5)


def test_num_proc_none_means_every_core(monkeypatch) -> None:
    """docs/options.md: num_proc=None scores on every core; from_kwargs used to drop it (one
    thread)."""
    import rouge_plus.plan

    assert RougeScorer(num_proc=None).options.num_proc is None
    assert RougeScorer().options.num_proc == 1
    seen = []
    real_map = rouge_plus.plan.map_in_workers

    def recording_map(function, chunks, workers=1):
        seen.append(workers)
        return real_map(function, chunks, workers)

    monkeypatch.setattr(rouge_plus.plan, "default_workers", lambda: 3)
    monkeypatch.setattr(rouge_plus.plan, "map_in_workers", recording_map)
    score(["a b", "c d"], ["a b", "c e"], num_proc=None)
    score(["a b", "c d"], ["a b", "c e"])
    assert seen == [3, 1]


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"seed": -1, "aggregation": "bootstrap"}, "seed"),
        ({"topic_pos": 5, "rouge_types": ["rougeTopic"]}, "topic_pos"),
        ({"topic_pos": "5", "rouge_types": ["rougeTopic"]}, "topic_pos"),
        ({"pos_tagger": lambda words: None, "rouge_types": ["rougeTopic"]}, "pos_tagger"),
        ({"synonyms": {1: [2]}, "rouge_types": ["rouge1+synonyms"]}, "synonyms"),
        ({"rouge_types": ["rougeS٤"]}, "rouge_types"),
        ({"rouge_types": ["rougeW-1.٥"]}, "rouge_types"),
    ],
)
def test_an_option_that_cannot_work_fails_at_construction_naming_itself(options, named):
    """Each of these was accepted, then failed after scoring with a message naming nothing
    (NumPy's seed error, 'int' object is not iterable...) or scored silently."""
    with pytest.raises(errors.OptionError, match=named):
        RougeScorer(**options)


def test_a_stopword_file_that_is_not_utf8_is_named(tmp_path) -> None:
    """ROUGE 2.0's own stopwords-rouge-default.txt holds byte 0x94 (cp1252's closing quote)."""
    path = tmp_path / "stopwords-rouge-default.txt"
    path.write_bytes(b"the\nit\x94s\n")
    with pytest.raises(errors.OptionError, match=r"stopwords-rouge-default\.txt.*not UTF-8.*0x94"):
        RougeScorer(remove_stopwords=str(path))


# --- every error the package raises is one of errors.py's ---------------------------------------

PACKAGE = REPO / "rouge_plus"
BUILTIN_EXCEPTIONS = frozenset(
    name
    for name, value in vars(builtins).items()
    if isinstance(value, type) and issubclass(value, BaseException)
)
# What may still raise a built-in exception, and why: code not written (an abstract method, a
# kernel without its Python twin) is a bug, not a problem with what the user gave; a module's
# or an object's __getattr__ must raise AttributeError for hasattr() and getattr() to work.
ALLOWED = {"NotImplementedError": None, "AttributeError": "__getattr__"}


def builtin_raises(source: str) -> list[tuple[str, str, int]]:
    """(function, exception, line) of each ``raise`` of a built-in exception class in
    ``source`` that :data:`ALLOWED` does not allow."""
    found = []

    def visit(node: ast.AST, function: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                visit(child, child.name)
                continue
            if isinstance(child, ast.Raise) and child.exc is not None:
                raised = child.exc.func if isinstance(child.exc, ast.Call) else child.exc
                name = getattr(raised, "id", None)
                if name in BUILTIN_EXCEPTIONS and ALLOWED.get(name, "") not in (None, function):
                    found.append((function, name, child.lineno))
            visit(child, function)

    visit(ast.parse(source), "<module>")
    return found


def test_the_package_raises_only_its_own_errors():
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE).as_posix()
        if relative != "errors.py":
            for function, name, line in builtin_raises(path.read_text(encoding="utf-8")):
                found[relative, function, name] = line
    unexpected = [
        f"{file}:{line} ({function}) raises {name}"
        for (file, function, name), line in found.items()
    ]
    assert not unexpected, "raise errors.py's classes instead: " + "; ".join(unexpected)


def test_the_raise_check_sees_a_builtin_and_allows_what_it_says():
    source = """
class A:
    def f(self):
        raise ValueError("x")

    def __getattr__(self, name):
        raise AttributeError(name)

    def g(self):
        raise NotImplementedError

def h():
    raise KeyError
    raise AttributeError("y")
    raise errors.OptionError("z")
raise RuntimeError
"""
    assert builtin_raises(source) == [
        ("f", "ValueError", 4), ("h", "KeyError", 13), ("h", "AttributeError", 14),
        ("<module>", "RuntimeError", 16),
    ]  # fmt: skip

"""Each option is declared once, on its ScoreOptions field: the command line's flags, the
evaluate metric's inputs description, the Space's /score parameters, the Space page's option
inputs and the option table of docs/options.md agree with that declaration."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

from rouge_plus._records import fields as record_fields
from rouge_plus.cli.main import build_parser
from rouge_plus.options import (
    KEYWORDS,
    OPTION,
    OPTION_GROUPS,
    REPORT,
    RUNTIME,
    SCORING,
    ScoreOptions,
    option_keywords,
)
from rouge_plus.plan import signature_of

REPO = Path(__file__).resolve().parents[2]
OPTIONS = option_keywords()


def _subparser(name: str):
    (commands,) = [a for a in build_parser()._actions if a.choices and a.dest == "==SUPPRESS=="]
    return commands.choices[name]


def test_every_field_declares_its_option_with_help():
    for declared in record_fields(ScoreOptions):
        metadata = declared.metadata
        assert (OPTION in metadata) != (KEYWORDS in metadata), declared.name
    assert set(OPTIONS) == {f.name for f in record_fields(ScoreOptions)} - {"fmeasure"} | {
        "beta",
        "alpha",
    }
    for name, option in OPTIONS.items():
        assert len(option.help) >= 12 and not option.help.endswith("."), name
        assert option.group in OPTION_GROUPS, name
        assert option.default, name


def test_groups_say_what_an_option_changes():
    """Scoring options are in the signature (they change a per-example number); runtime ones
    never are; report options only with the bootstrap."""
    assert {n for n, o in OPTIONS.items() if o.group == RUNTIME} == {"num_proc"}
    assert {n for n, o in OPTIONS.items() if o.group == REPORT} == {
        "use_aggregator", "aggregation", "confidence_level", "n_resamples", "seed",
        "return_precision_recall",
    }  # fmt: skip
    plain = signature_of(ScoreOptions.from_kwargs())
    assert signature_of(ScoreOptions.from_kwargs(num_proc=2, seed=3, n_resamples=7)) == plain
    assert signature_of(ScoreOptions.from_kwargs(beta=2.0)) != plain


@pytest.mark.parametrize("command", ["score", "compare"])
def test_cli_flags_come_from_the_metadata(command):
    actions = {
        a.dest.removeprefix("option_"): a
        for a in _subparser(command)._actions
        if a.dest.startswith("option_")
    }
    for name, option in OPTIONS.items():
        shown = option.flag is not None and (command == "score" or option.group != REPORT)
        assert (name in actions) == shown, name
        if shown:
            action = actions[name]
            assert action.help == f"{option.help} (default: {option.default})", name
            assert action.option_strings[0] == (option.flag or "--" + name.replace("_", "-"))
            assert action.metavar == option.metavar or action.choices == option.choices, name


def test_the_metric_inputs_description_comes_from_the_metadata():
    pytest.importorskip("evaluate")
    from rouge_plus.rouge_plus import RougePlus

    description = RougePlus().inputs_description
    for name, option in OPTIONS.items():
        assert f"\n    {name}: {option.help} (default {option.default}).\n" in description


def test_the_space_api_parameters_come_from_the_metadata():
    from rouge_plus.space.api import API_SIGNATURE, OMITTED_OPTIONS

    parameters = dict(API_SIGNATURE.parameters)
    assert list(parameters)[:2] == ["predictions", "references"]
    assert list(parameters)[-2:] == ["beta", "alpha"]
    for name, option in OPTIONS.items():
        if option.space:
            assert name not in parameters and OMITTED_OPTIONS[name] == option.space
        else:
            assert parameters[name].annotation == option.api_type, name
            assert parameters[name].default is None
    assert len(parameters) == 2 + sum(not o.space for o in OPTIONS.values())


def test_the_space_page_inputs_are_scoring_options():
    """The page's option inputs (build_options's parameters) are scoring options by name; the
    stopword picker stands for remove_stopwords."""
    from rouge_plus.space.scoring import build_options

    names = [
        "remove_stopwords" if n == "stopwords" else n
        for n in inspect.signature(build_options).parameters
    ]
    for name in names:
        assert name in OPTIONS and OPTIONS[name].group == SCORING, name


def _documented_option_rows() -> list[tuple[list[str], str]]:
    guide = (REPO / "docs" / "options.md").read_text(encoding="utf-8")
    table = guide.split("| option | default | meaning |\n|---|---|---|\n", 1)[1]
    rows = []
    for line in table.splitlines():
        if not line.startswith("| `"):
            break
        cells = line.split(" | ")
        rows.append((re.findall(r"`([a-z_]+)`", cells[0]), cells[1]))
    return rows


def test_documented_option_table_agrees_with_the_metadata():
    rows = _documented_option_rows()
    named = [name for names, _ in rows for name in names]
    assert sorted(named) == sorted(OPTIONS)  # each option once, no other
    for names, default in rows:
        for name in names:
            assert OPTIONS[name].default in default, (name, default)


def test_the_literal_types_of_the_options_name_exactly_their_values():
    """The Literal aliases that type checkers read (declared under TYPE_CHECKING, so that no
    scoring call imports typing) equal the values the options accept at run time."""
    import ast
    import inspect

    import rouge_plus.options
    from rouge_plus.corpus.aggregation import AGGREGATIONS
    from rouge_plus.options import PROFILES
    from rouge_plus.scoring.multiref import MULTI_REF_MODES
    from rouge_plus.text.tokenizers import available_tokenizers

    literals = {
        node.targets[0].id: [element.value for element in node.value.slice.elts]
        for node in ast.walk(ast.parse(inspect.getsource(rouge_plus.options)))
        if isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Subscript)
        and getattr(node.value.value, "id", None) == "Literal"
    }
    assert literals == {
        "MultiRef": list(MULTI_REF_MODES),
        "Aggregation": list(AGGREGATIONS),
        "Profile": list(PROFILES),
        "TokenizerName": available_tokenizers(),
    }

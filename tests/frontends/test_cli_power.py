"""``rouge-plus power``, ``correlate --dataset``, and every subcommand's help: a description,
an example, and help text with its default on every flag."""

from __future__ import annotations

import argparse
import json
import re
import shlex
from pathlib import Path

import numpy as np
import pytest

from rouge_plus import power_analysis, rose_llm, score
from rouge_plus.cli.common import HelpFormatter
from rouge_plus.cli.main import SUBCOMMANDS, build_parser, main
from rouge_plus.meta import correlate


def run(argv: list[str], capsys) -> tuple[int, str, str]:
    status = main(argv)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def subparsers() -> dict[str, argparse.ArgumentParser]:
    action = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


@pytest.mark.parametrize("name", SUBCOMMANDS)
def test_every_subcommand_help_has_a_description_and_an_example(name):
    parser = subparsers()[name]
    text = parser.format_help()
    assert parser.description and len(parser.description) > 40
    assert f"examples:\n  rouge-plus {name}" in text or (
        name == "score" and "examples:\n  rouge-plus --demo" in text
    )


@pytest.mark.parametrize("name", ["correlate", "run", "power"])
def test_every_flag_has_help_and_shows_its_default(name):
    parser = subparsers()[name]
    formatter = HelpFormatter(parser.prog)
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        assert action.help, action.dest
        if action.option_strings:
            assert "(default" in formatter._get_help_string(action), action.dest
    assert "(default: kendall" in parser.format_help().replace("['kendall']", "kendall") or (
        name != "correlate"
    )


def test_power_from_two_files_equals_the_library(tmp_path, capsys):
    rng = np.random.default_rng(0)
    a, b = rng.uniform(0.3, 0.5, 60), rng.uniform(0.3, 0.5, 60) - 0.03
    files = [tmp_path / "a.txt", tmp_path / "b.txt"]
    for path, values in zip(files, (a, b), strict=True):
        path.write_text("\n".join(str(float(v)) for v in values) + "\n\n", encoding="utf-8")
    argv = ["power", "--scores", *map(str, files), "--test", "t", "bootstrap", "--format", "json"]
    status, out, _ = run([*argv, "--n-simulations", "200", "--curve", "20", "80"], capsys)
    assert status == 0
    report = json.loads(out)
    for row, test in zip(report, ["t", "bootstrap"], strict=True):
        expected = power_analysis(a, b, test=test, n_simulations=200, curve=[20, 80])
        assert row == json.loads(json.dumps(expected.to_dict()))


def test_power_table_and_errors(tmp_path, capsys):
    deltas = tmp_path / "d.txt"
    deltas.write_text("0.1\n0.3\n-0.05\n0.2\n", encoding="utf-8")
    status, out, _ = run(["power", "--differences", str(deltas), "--test", "t"], capsys)
    assert status == 0 and "pilot: 4 documents" in out and out.splitlines()[-1].startswith("t ")
    deltas.write_text("0.1\nzero\n", encoding="utf-8")
    status, _, err = run(["power", "--differences", str(deltas)], capsys)
    assert status == 1 and "d.txt:2: 'zero' is not a number" in err
    status, _, err = run(["power", "--dataset", "rose-llm", "--systems", "gpt3", "nope"], capsys)
    assert status == 1 and "rose-llm has no system 'nope'" in err
    with pytest.raises(SystemExit) as exit_:
        main(["power", "--dataset", "rose-llm"])
    assert exit_.value.code == 2
    assert "--dataset and --systems go together" in capsys.readouterr().err


def test_power_on_a_shipped_set_scores_the_two_systems(capsys):
    argv = ["power", "--dataset", "rose-llm", "--systems", "brio", "gpt3", "--test", "t"]
    status, out, _ = run([*argv, "--rouge-types", "rouge1", "--number", "recall"], capsys)
    assert status == 0
    data = rose_llm()
    rows = [data.systems.index("brio"), data.systems.index("gpt3")]
    recall = [
        score(list(data.summaries[i]), [list(r) for r in data.references], rouge_types=["rouge1"],
              use_aggregator=False, return_precision_recall=True)["rouge1_recall"]
        for i in rows
    ]
    expected = power_analysis(*recall, test="t", curve=[25, 50, 100, 200, 400, 800, 1600, 3200])
    assert f"documents, gap {expected.gap:+.4f}" in out
    assert out.splitlines()[-1].split()[:2] == ["t", str(expected.documents)]


def test_correlate_a_shipped_set_without_an_input_file(capsys):
    argv = ["correlate", "--dataset", "rose-llm", "--rouge-types", "rouge2", "--format", "json"]
    extra = ["--level", "summary", "--human-dimension", "ref_based", "--resample", "none"]
    status, out, _ = run([*argv, *extra], capsys)
    assert status == 0
    report = json.loads(out)
    assert (report["systems"], report["documents"]) == (4, 100)
    data = rose_llm()
    predictions, references = data.pairs()
    f = np.array(score(predictions, references, rouge_types=["rouge2"], use_aggregator=False)[
        "rouge2"
    ]).reshape(4, 100)
    row = next(r for r in report["correlations"] if r["metric"] == "rouge2_fmeasure")
    expected = correlate(f, data.human["ref_based"], "summary", "kendall", resample=None).value
    assert row["value"] == pytest.approx(expected, abs=1e-12)


def test_correlate_dataset_errors(capsys):
    status, _, err = run(["correlate", "--dataset", "rose", "--human-dimension", "x"], capsys)
    assert status == 1 and "rose has no human dimension 'x'; it has acu, normalized_acu" in err
    status, _, err = run(["correlate", "--dataset", "summeval", "--references", "12"], capsys)
    assert status == 1 and "references must be an int from 1 to 11" in err
    status, _, err = run(["correlate", "--dataset", "rose", "--metric-columns", "bert"], capsys)
    assert status == 1 and "rose stores no score 'bert'; it stores: none" in err


def test_the_worked_example_of_docs_power_is_the_commands_output(capsys):
    """docs/power.md's table is what the command it names prints (run here, not pasted)."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "power.md").read_text(encoding="utf-8")
    command = re.search(r"```bash\n(rouge-plus power [^\n]+)\n```", text).group(1)
    shown = re.search(r"```text\n(.*?)```", text, re.S).group(1)
    status, out, _ = run(shlex.split(command)[1:], capsys)
    assert status == 0 and out == shown


def test_dataset_flags_without_a_dataset_are_a_usage_error(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["correlate", "--input", str(tmp_path / "x.jsonl"), "--references", "1"])
    assert exit_.value.code == 2
    assert "--human-dimension and --references go with --dataset" in capsys.readouterr().err

"""``rouge-plus correlate``: a file of judgments scored, correlated and printed."""

from __future__ import annotations

import csv
import io
import json

import numpy as np
import pytest

from rouge_plus.cli.main import main
from rouge_plus.meta import correlate, realsumm


def run(argv: list[str], capsys) -> tuple[int, str, str]:
    status = main(["correlate", *argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.fixture(scope="module")
def judged(tmp_path_factory):
    """Eight REALSumm systems on 20 documents, with one cell left out."""
    data = realsumm()
    path = tmp_path_factory.mktemp("judged") / "judged.jsonl"
    with path.open("w", encoding="utf-8") as out:
        for i in range(8):
            for j in range(20):
                if (i, j) == (3, 4):
                    continue
                row = {
                    "system": data.systems[i],
                    "document": data.documents[j],
                    "human": data.human["litepyramid"][i, j],
                    "prediction": data.summaries[i][j],
                    "references": list(data.references[j]),
                    "stored": data.metrics["rouge_2_recall"][i, j],
                }
                out.write(json.dumps(row) + "\n")
    return path


def test_json_output_equals_the_library(judged, capsys):
    status, out, _ = run(
        [
            "--input",
            str(judged),
            "--rouge-types",
            "rouge2",
            "--metric-columns",
            "stored",
            "--level",
            "system",
            "summary",
            "--method",
            "kendall",
            "pearson",
            "--n-resamples",
            "100",
            "--format",
            "json",
        ],
        capsys,
    )
    assert status == 0
    report = json.loads(out)
    assert (report["systems"], report["documents"]) == (8, 20)
    rows = {(r["metric"], r["level"], r["method"]): r for r in report["correlations"]}
    assert len(rows) == 4 * 2 * 2
    data = realsumm()
    stored = data.metrics["rouge_2_recall"][:8, :20].copy()
    human = data.human["litepyramid"][:8, :20].copy()
    stored[3, 4] = human[3, 4] = np.nan
    expected = correlate(stored, human, "summary", "pearson", n_resamples=100)
    row = rows["stored", "summary", "pearson"]
    assert (row["value"], row["lower"], row["upper"]) == pytest.approx(expected[:3])


def test_csv_and_table(judged, capsys):
    status, out, _ = run(
        [
            "--input",
            str(judged),
            "--rouge-types",
            "rougeL",
            "--use-stemmer",
            "--resample",
            "none",
            "--format",
            "csv",
        ],
        capsys,
    )
    assert status == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert {r["metric"] for r in rows} == {
        f"rougeL_{n}" for n in ("precision", "recall", "fmeasure")
    }
    assert all(r["lower"] == "" for r in rows)
    status, out, _ = run(["--input", str(judged), "--n-resamples", "50"], capsys)
    assert status == 0 and "rouge1_recall" in out and "8 systems x 20 documents" in out


def test_a_bad_human_score_is_an_error(tmp_path, capsys):
    path = tmp_path / "bad.jsonl"
    path.write_text(
        json.dumps(
            {"system": "a", "document": 1, "human": "good", "prediction": "x", "references": "x"}
        )
        + "\n",
        encoding="utf-8",
    )
    status, _, err = run(["--input", str(path)], capsys)
    assert status == 1
    assert err == f"rouge-plus: error: {path}:1: 'human' is 'good', not a number\n"


def _write_rows(path, rows: list[dict]) -> str:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return str(path)


def _judged_rows(systems: int = 3, documents: int = 3) -> list[dict]:
    return [
        {"system": f"s{i}", "document": f"d{j}", "human": float((i + 1) * j % 3), "m": i + j}
        for i in range(systems)
        for j in range(documents)
    ]


@pytest.mark.parametrize(
    ("rows", "argv", "message"),
    [
        (None, [], "{path}: No such file or directory"),
        (
            [{"model": "a", "document": "d", "human": 1.0}],
            [],
            "{path}:1: no column 'system' (columns: model, document, human)",
        ),
        (
            _judged_rows(),
            ["--human-column", "score"],
            "{path}:1: no column 'score' (columns: system, document, human, m)",
        ),
        (
            _judged_rows(),
            ["--metric-columns", "m", "bleu"],
            "{path}:1: no column 'bleu' (columns: system, document, human, m)",
        ),
        (
            _judged_rows(1),
            ["--metric-columns", "m", "--level", "system"],
            "the system level correlates scores across systems, and the human scores have "
            "1 system (row): give at least 2 systems, or correlate at the global level",
        ),
        (
            _judged_rows(1),
            ["--metric-columns", "m", "--level", "summary"],
            "the summary level correlates scores across systems",
        ),
        (
            [*_judged_rows(2), {"system": "s9", "document": "d0", "human": "inf", "m": 1}],
            ["--metric-columns", "m"],
            "{path}:7: 'human' is 'inf', not a finite number",
        ),
        (
            [*_judged_rows(2), _judged_rows(2)[0]],
            ["--metric-columns", "m"],
            "two records for system 's0', document 'd0'",
        ),
        (
            [{"system": None, "document": "d", "human": 1.0}],
            [],
            "{path}:1: 'system' is null, not the name of a system or document",
        ),
    ],
)
def test_input_errors_are_one_line_naming_the_problem(tmp_path, capsys, rows, argv, message):
    """The same prefix as every subcommand's errors, exit status 1, no traceback."""
    path = tmp_path / "judged.jsonl"
    if rows is not None:
        _write_rows(path, rows)
    status, out, err = run(["--input", str(path), *argv], capsys)
    assert (status, out) == (1, "")
    assert err.startswith(f"rouge-plus: error: {message.format(path=path)}"), err
    assert err.count("\n") == 1, err


def test_one_system_at_the_global_level_is_a_correlation(tmp_path, capsys):
    path = _write_rows(tmp_path / "one.jsonl", _judged_rows(1, 4))
    argv = ["--input", path, "--metric-columns", "m", "--level", "global", "--format", "json"]
    status, out, _ = run([*argv, "--resample", "none", "--method", "pearson"], capsys)
    assert status == 0
    (row,) = json.loads(out)["correlations"]
    human, metric = [0.0, 1.0, 2.0, 0.0], [0.0, 1.0, 2.0, 3.0]  # the rows of system s0
    assert row["metric"] == "m" and row["value"] == pytest.approx(np.corrcoef(human, metric)[0, 1])


def test_a_bad_flag_is_a_usage_error_before_the_file_is_read(tmp_path):
    with pytest.raises(SystemExit) as exited:
        main(["correlate", "--input", str(tmp_path / "absent.jsonl"), "--rouge-types", "rouge0"])
    assert exited.value.code == 2

"""``rouge-plus compare``: text files and columns in, rouge_plus.compare's table/JSON/CSV out."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rouge_plus import compare
from rouge_plus.cli import main

REPO = Path(__file__).resolve().parents[2]

BASELINE = ["the cat sat", "a dog"]
BETTER = ["the cat sat down", "the dog"]
REFERENCES = ["the cat sat down", "the dog ran"]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["compare", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def write_lines(path: Path, lines: list[str]) -> str:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return str(path)


@pytest.fixture
def text_files(tmp_path: Path) -> dict[str, str]:
    return {
        "base": write_lines(tmp_path / "base.txt", BASELINE),
        "same": write_lines(tmp_path / "same.txt", BASELINE),
        "better": write_lines(tmp_path / "better.txt", BETTER),
        "refs": write_lines(tmp_path / "refs.txt", REFERENCES),
    }


@pytest.fixture
def jsonl(tmp_path: Path) -> str:
    path = tmp_path / "systems.jsonl"
    rows = [
        {"base": b, "better": s, "references": [r]}
        for b, s, r in zip(BASELINE, BETTER, REFERENCES, strict=True)
    ]
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return str(path)


def test_identical_systems_differ_by_zero_with_p_one(capsys, text_files) -> None:
    code, out, err = run(
        capsys,
        "--baseline", text_files["base"], "--systems", text_files["same"],
        "--references", text_files["refs"], "--rouge-types", "rouge1", "--format", "json",
    )  # fmt: skip
    assert code == 0, err
    result = json.loads(out)
    assert result["baseline"] == "base" and result["exact"] is True
    [row] = result["rows"]
    # rouge1 F: "the cat sat" vs "the cat sat down" = 6/7; "a dog" vs "the dog ran" = 2/5.
    assert row["baseline_score"] == pytest.approx((6 / 7 + 2 / 5) / 2)
    assert row["score"] == row["baseline_score"]
    assert (row["system"], row["delta"], row["ci_low"], row["ci_high"]) == ("same", 0, 0, 0)
    assert row["p_value"] == 1.0


def test_table_lists_the_baseline_then_each_named_system(capsys, text_files) -> None:
    code, out, err = run(
        capsys,
        "--baseline", f"old={text_files['base']}",
        "--systems", text_files["same"], f"new={text_files['better']}",
        "--references", text_files["refs"], "--rouge-types", "rouge1", "rougeL",
    )  # fmt: skip
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].split() == ["system", "type", "score", "delta", "95%", "CI", "of", "delta",
                                "p-value"]  # fmt: skip
    assert lines[2].startswith("Baseline: old") and "rouge1" in lines[2]
    assert lines[5].startswith("same ") and "+0.0000" in lines[5] and "1.0000" in lines[5]
    assert lines[7].startswith("new ")
    assert "exact over all 2^2 sign assignments" in out


def test_json_and_csv_equal_compare(capsys, jsonl) -> None:
    settings = {"method": "bootstrap", "n_resamples": 200, "seed": 7, "statistic": "r"}
    flags = [
        "--jsonl", jsonl, "--baseline-column", "base", "--system-columns", "better",
        "--method", "bootstrap", "--n-resamples", "200", "--seed", "7", "--statistic", "r",
        "--use-stemmer", "--rouge-types", "rouge1", "rouge2",
    ]  # fmt: skip
    expected = compare(
        BASELINE,
        {"better": BETTER},
        [[r] for r in REFERENCES],
        baseline_name="base",
        use_stemmer=True,
        rouge_types=["rouge1", "rouge2"],
        **settings,
    )
    code, out, err = run(capsys, *flags, "--format", "json")
    assert code == 0, err
    assert out == expected.to_json() + "\n"
    code, out, err = run(capsys, *flags, "--format", "csv")
    assert code == 0, err
    assert out == expected.to_csv()
    assert [row["system"] for row in csv.DictReader(out.splitlines())] == ["better", "better"]


def test_csv_input_and_output_file(capsys, tmp_path) -> None:
    data = tmp_path / "systems.csv"
    with data.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["prediction", "other", "gold"])
        writer.writerows(zip(BASELINE, BETTER, REFERENCES, strict=True))
    target = tmp_path / "out.txt"
    code, out, err = run(
        capsys, "--csv", str(data), "--system-columns", "other", "--reference-column", "gold",
        "-o", str(target),
    )  # fmt: skip
    assert code == 0, err and out == ""
    assert target.read_text(encoding="utf-8").startswith("system")
    assert "Baseline: prediction" in target.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--baseline", "{base}", "--references", "{refs}"], "--baseline needs --systems"),
        (["--jsonl", "{jsonl}"], "need --system-columns"),
        (["--jsonl", "{jsonl}", "--system-columns", "b", "--systems", "{base}"], "go with"),
        (["--baseline", "{base}", "--systems", "{same}", "--references", "{refs}",
          "--system-columns", "b"], "goes with --jsonl"),
        (["--baseline", "{base}", "--systems", "{same}", "{same}", "--references", "{refs}"],
         "two systems are named 'same'"),
        (["--jsonl", "{jsonl}", "--system-columns", "better", "--n-resamples", "0"],
         "n_resamples"),
        (["--jsonl", "{jsonl}", "--system-columns", "better", "--confidence-level", "1.5"],
         "confidence_level"),
        (["--jsonl", "{jsonl}", "--system-columns", "better", "--rouge-types", "rougeX"],
         "rougeX"),
        (["--jsonl", "{jsonl}", "--system-columns", "better", "--method", "t-test"], "choice"),
        (["--jsonl", "{jsonl}", "--system-columns", "better", "--aggregation", "bootstrap"],
         "unrecognized"),
    ],
)  # fmt: skip
def test_usage_errors_exit_2(capsys, text_files, jsonl, argv, message) -> None:
    argv = [arg.format(jsonl=jsonl, **text_files) for arg in argv]
    with pytest.raises(SystemExit) as exited:
        main(["compare", *argv])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "rouge-plus compare --help" in err


def test_input_errors_exit_1_naming_the_file_or_row(capsys, tmp_path, text_files, jsonl) -> None:
    short = write_lines(tmp_path / "short.txt", ["one line"])
    code, _, err = run(
        capsys, "--baseline", text_files["base"], "--systems", short,
        "--references", text_files["refs"],
    )  # fmt: skip
    assert code == 1 and f"{short} has 1 lines but {text_files['base']} has 2" in err
    code, _, err = run(capsys, "--jsonl", jsonl, "--system-columns", "better")
    assert code == 1 and f"{jsonl}:1: no column 'prediction'" in err
    code, _, err = run(
        capsys, "--jsonl", jsonl, "--baseline-column", "base", "--system-columns", "missing"
    )
    assert code == 1 and f"{jsonl}:1: no column 'missing'" in err
    code, _, err = run(capsys, "--jsonl", str(tmp_path / "absent.jsonl"), "--system-columns", "b")
    assert code == 1 and "absent.jsonl: No such file or directory" in err
    assert all(line.startswith("rouge-plus: error:") for line in err.splitlines())


def test_python_m_rouge_plus_compare_on_the_sample() -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [sys.executable, "-m", "rouge_plus", "compare", "--jsonl", "rouge_plus/data/sample.jsonl",
         "--system-columns", "short", "--rouge-types", "rouge1", "--n-resamples", "500"],
        capture_output=True, text=True, cwd=REPO, env=env, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[2].startswith("Baseline: prediction  rouge1")
    assert done.stdout.splitlines()[4].startswith("short ")


def test_core_warnings_are_one_line_each(capsys, tmp_path, text_files) -> None:
    empty = write_lines(tmp_path / "empty.txt", ["the cat sat", "..."])
    code, out, err = run(
        capsys, "--baseline", text_files["base"], "--systems", empty,
        "--references", text_files["refs"], "--rouge-types", "rouge1",
    )  # fmt: skip
    assert code == 0 and out.startswith("system")
    assert err.startswith("rouge-plus: warning:") and "no tokens" in err and err.count("\n") == 1

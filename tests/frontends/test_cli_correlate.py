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
                    "human": data.human[i, j],
                    "prediction": data.summaries[i][j],
                    "references": [data.references[j]],
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
    human = data.human[:8, :20].copy()
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
    assert status == 2 and "not a number" in err

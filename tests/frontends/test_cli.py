"""The rouge-plus command line: every input format, output format, errors and the demo.

Most tests call ``main(argv)`` in-process (fast); a few run ``python -m rouge_plus`` in a
subprocess to check what a user really sees: exit codes, stderr, no traceback.
"""

from __future__ import annotations

import csv
import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import rouge_plus
from rouge_plus.cli import main
from rouge_plus.readers import unescape_line

REPO = Path(__file__).resolve().parents[2]

PREDICTIONS = ["the cat sat on the mat", "a dog ran in the park\nit was happy", "rain today"]
REFERENCES = [
    ["the cat was on the mat", "a cat sat on a mat"],
    ["the dog ran in a park\nthe dog was happy", "a dog was running"],
    ["it will rain today", "showers expected"],
]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def run_json(capsys, *argv: str) -> dict:
    code, out, err = run(capsys, *argv, "--format", "json")
    assert code == 0, err
    return json.loads(out)


def run_process(*argv: str, cwd: Path = REPO) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run(
        [sys.executable, "-m", "rouge_plus", *argv],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=60,
    )


def escaped(text: str) -> str:
    return text.replace("\\", "\\\\").replace("\n", "\\n")


@pytest.fixture
def text_files(tmp_path):
    preds = tmp_path / "preds.txt"
    preds.write_text("".join(escaped(p) + "\n" for p in PREDICTIONS), encoding="utf-8")
    refs = []
    for k in range(2):
        path = tmp_path / f"refs{k}.txt"
        path.write_text("".join(escaped(r[k]) + "\n" for r in REFERENCES), encoding="utf-8")
        refs.append(str(path))
    return str(preds), refs


@pytest.fixture
def jsonl_file(tmp_path):
    path = tmp_path / "data.jsonl"
    pairs = zip(PREDICTIONS, REFERENCES, strict=True)
    rows = [{"prediction": p, "references": r} for p, r in pairs]
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return str(path)


def expected(**options) -> dict:
    return rouge_plus.score(PREDICTIONS, REFERENCES, **options)


def test_unescape_line():
    assert unescape_line(r"one\ntwo") == "one\ntwo"
    assert unescape_line(r"a\\nb") == "a\\nb"  # an escaped backslash, then "n"
    assert unescape_line(r"C:\temp") == r"C:\temp"


def test_text_files_with_two_reference_files(capsys, text_files):
    preds, refs = text_files
    result = run_json(capsys, "--predictions", preds, "--references", *refs)
    assert result["scores"] == expected()
    assert result["n_examples"] == 3
    assert result["signature"] == rouge_plus.RougeScorer().signature


def test_repeated_references_flag_and_sentence_breaks(capsys, text_files):
    preds, refs = text_files
    result = run_json(
        capsys,
        "--predictions",
        preds,
        "--references",
        refs[0],
        "--references",
        refs[1],
        "--rouge-types",
        "rougeLsum",
    )
    # \n escapes became sentence breaks: rougeLsum differs from the unsplit texts' score
    assert result["scores"] == expected(rouge_types=["rougeLsum"])
    assert result["scores"] != expected(rouge_types=["rougeLsum"], split_sentences="none")


def test_jsonl_with_options(capsys, jsonl_file):
    result = run_json(
        capsys,
        "--jsonl",
        jsonl_file,
        "--rouge-types",
        "rouge1",
        "rougeL",
        "--use-stemmer",
        "--multi-ref",
        "pooled",
        "--beta",
        "2",
        "--precision-recall",
    )
    assert result["scores"] == expected(
        rouge_types=["rouge1", "rougeL"],
        use_stemmer=True,
        multi_ref="pooled",
        beta=2.0,
        return_precision_recall=True,
    )


def test_csv_with_string_and_json_list_cells(capsys, tmp_path):
    path = tmp_path / "data.csv"
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["id", "summary", "gold"])
        writer.writerow([0, PREDICTIONS[0], json.dumps(REFERENCES[0])])
        writer.writerow([1, PREDICTIONS[1], REFERENCES[1][0]])  # a plain text cell
        writer.writerow([2, PREDICTIONS[2], json.dumps(REFERENCES[2])])
    result = run_json(
        capsys,
        "--csv",
        str(path),
        "--prediction-column",
        "summary",
        "--reference-column",
        "gold",
    )
    refs = [REFERENCES[0], REFERENCES[1][0], REFERENCES[2]]
    assert result["scores"] == rouge_plus.score(PREDICTIONS, refs)


def test_saved_dataset_dict_with_split(capsys, tmp_path):
    datasets = pytest.importorskip("datasets")
    table = datasets.Dataset.from_dict({"prediction": PREDICTIONS, "references": REFERENCES})
    datasets.DatasetDict({"test": table, "validation": table.select([0])}).save_to_disk(
        tmp_path / "ds"
    )
    result = run_json(capsys, "--dataset", str(tmp_path / "ds"), "--split", "test")
    assert result["scores"] == expected()
    code, _, err = run(capsys, "--dataset", str(tmp_path / "ds"))
    assert code == 1
    assert err.strip() == (
        f"rouge-plus: error: {tmp_path / 'ds'}: choose one with --split (splits: test, validation)"
    )


def test_bootstrap_flags(capsys, jsonl_file):
    result = run_json(
        capsys,
        "--jsonl",
        jsonl_file,
        "--aggregation",
        "bootstrap",
        "--n-resamples",
        "50",
        "--seed",
        "3",
        "--confidence-level",
        "0.9",
    )
    assert result["scores"] == expected(
        aggregation="bootstrap", n_resamples=50, seed=3, confidence_level=0.9
    )
    assert "ci:0.9,n:50,seed:3" in result["signature"]


def test_small_chunks_give_the_same_numbers(capsys, jsonl_file):
    result = run_json(capsys, "--jsonl", jsonl_file, "--chunk-size", "1", "--progress")
    assert result["scores"] == expected()


def test_table_shows_precision_recall_f_and_signature(capsys, jsonl_file):
    code, out, _ = run(capsys, "--jsonl", jsonl_file, "--rouge-types", "rouge1", "rougeL")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split()[:3] == ["ROUGE", "Precision", "Recall"]
    full = expected(rouge_types=["rouge1", "rougeL"], return_precision_recall=True)
    assert lines[1].split() == [
        "rouge1",
        *(f"{full[f'rouge1_{c}']:.4f}" for c in ("precision", "recall", "fmeasure")),
    ]
    assert lines[2].split()[0] == "rougeL"
    assert lines[-1] == f"3 examples · {rouge_plus.RougeScorer(['rouge1', 'rougeL']).signature}"


def test_per_example_json_csv_and_table(capsys, jsonl_file):
    per_row = expected(use_aggregator=False, return_precision_recall=True)
    document = run_json(capsys, "--jsonl", jsonl_file, "--per-example", "--precision-recall")
    assert [row["index"] for row in document["examples"]] == [0, 1, 2]
    assert [row["rougeL_recall"] for row in document["examples"]] == per_row["rougeL_recall"]

    code, out, _ = run(capsys, "--jsonl", jsonl_file, "--per-example", "--format", "csv")
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert list(rows[0]) == ["index", "rouge1", "rouge2", "rougeL", "rougeLsum"]
    assert [float(row["rouge2"]) for row in rows] == per_row["rouge2"]

    code, out, _ = run(capsys, "--jsonl", jsonl_file, "--per-example")
    assert code == 0
    assert [line.split()[0] for line in out.splitlines()[:4]] == ["#", "0", "1", "2"]


def test_aggregate_csv_and_output_file(capsys, jsonl_file, tmp_path):
    target = tmp_path / "out.csv"
    code, out, _ = run(capsys, "--jsonl", jsonl_file, "--format", "csv", "-o", str(target))
    assert (code, out) == (0, "")
    header, values = list(csv.reader(io.StringIO(target.read_text(encoding="utf-8"))))
    assert dict(zip(header, map(float, values), strict=True)) == expected()


def test_demo_prints_the_table():
    completed = run_process("--demo")
    assert completed.returncode == 0, completed.stderr
    lines = completed.stdout.splitlines()
    assert lines[0].split()[0] == "ROUGE"
    assert [line.split()[0] for line in lines[1:5]] == ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    assert lines[-1].startswith("20 examples · rouge_plus|")
    assert completed.stderr == ""


def test_demo_sample_shows_several_references_and_unicode():
    from rouge_plus.readers import read_demo

    predictions, references = read_demo()
    assert len(predictions) == 20
    assert sum(len(refs) > 1 for refs in references) >= 2
    examples = rouge_plus.RougeScorer(["rouge1"]).score_examples(predictions, references)
    assert (examples.scores["rouge1"][:, 2] > 0).all()  # the Vietnamese and Chinese rows too


@pytest.mark.parametrize(
    ("argv", "code", "message"),
    [
        ([], 2, "one of the arguments --predictions --jsonl --csv --dataset --demo is required"),
        (["--demo", "--format", "xml"], 2, "argument --format: invalid choice"),
        (["--demo", "--rouge-types", "rouge0"], 2, "unknown ROUGE type 'rouge0'"),
        (["--demo", "--tokenizer", "nope"], 2, "unknown tokenizer 'nope'"),
        (["--demo", "--beta", "1", "--alpha", "0.5"], 2, "give one of them, not both"),
        (["--predictions", "missing.txt"], 2, "--predictions needs at least one --references"),
        (["--jsonl", "missing.jsonl"], 1, "missing.jsonl: No such file or directory"),
    ],
)
def test_bad_usage_and_input_give_one_line(argv, code, message, tmp_path):
    completed = run_process(*argv, cwd=tmp_path)
    assert completed.returncode == code
    lines = completed.stderr.splitlines()
    assert len(lines) == 1, completed.stderr
    assert lines[0].startswith("rouge-plus: error: ")
    assert message in lines[0]
    assert completed.stdout == ""


def test_bad_rows_name_the_place(capsys, tmp_path, text_files):
    preds, refs = text_files
    short = tmp_path / "short.txt"
    short.write_text("only one line\n", encoding="utf-8")
    code, _, err = run(capsys, "--predictions", preds, "--references", refs[0], str(short))
    assert code == 1
    assert err.strip() == (
        f"rouge-plus: error: {short} has 1 lines but {preds} has 3; "
        "every file needs one line per example"
    )

    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"prediction": "a", "references": ["b"]}\n{"prediction": 1}\n')
    code, _, err = run(capsys, "--jsonl", str(broken))
    assert code == 1
    assert err.strip() == f"rouge-plus: error: {broken}:2: 'prediction' is a int, not a text"

    missing = tmp_path / "missing_column.jsonl"
    missing.write_text('{"prediction": "a", "refs": ["b"]}\n')
    code, _, err = run(capsys, "--jsonl", str(missing))
    assert code == 1
    assert "no column 'references' (columns: prediction, refs)" in err


def test_wordless_texts_warn_on_stderr(capsys, tmp_path):
    path = tmp_path / "zh.jsonl"
    path.write_text(json.dumps({"prediction": "猫坐着", "references": ["猫坐在垫子上"]}) + "\n")
    code, out, err = run(
        capsys, "--jsonl", str(path), "--tokenizer", "rouge_score", "--format", "json"
    )
    assert code == 0
    assert json.loads(out)["scores"]["rouge1"] == 0.0
    assert err.startswith("rouge-plus: warning: 2 non-empty text(s) produced no tokens")


def test_bench_corpus_matches_score(bench_rows, capsys):
    from support.shared_data import shared_file

    path = shared_file("bench/cnndm_realsumm.jsonl")
    result = run_json(capsys, "--jsonl", str(path), "--use-stemmer", "--precision-recall")
    predictions = [row["prediction"] for row in bench_rows]
    references = [row["references"] for row in bench_rows]
    assert result["n_examples"] == len(bench_rows)
    assert result["scores"] == rouge_plus.score(
        predictions, references, use_stemmer=True, return_precision_recall=True
    )


# Runs the command line with a profile hook that, at the first write to a file in the output's
# folder (whatever file the command writes there), touches a marker and sleeps: the test then
# interrupts it in the middle of writing its output.
_PAUSE_IN_FIRST_WRITE = """
import os, pathlib, sys, time
from rouge_plus.cli import main

folder, marker = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])

def pause_in_first_write(frame, event, function):
    if event != "c_call" or function.__name__ != "write":
        return
    try:
        path = os.readlink(f"/proc/self/fd/{function.__self__.fileno()}")
    except (AttributeError, OSError, ValueError):
        return
    if pathlib.Path(path).parent == folder:
        sys.setprofile(None)
        marker.touch()
        time.sleep(120)

sys.setprofile(pause_in_first_write)
sys.exit(main(sys.argv[3:]))
"""


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="finds open files in /proc")
def test_interrupted_output_leaves_the_previous_file_and_no_partial_file(tmp_path, jsonl_file):
    folder = tmp_path / "out"
    folder.mkdir()
    output = folder / "scores.csv"
    output.write_text("previous results\n", encoding="utf-8")
    marker = tmp_path / "writing"
    argv = ["--jsonl", jsonl_file, "--per-example", "--format", "csv", "-o", str(output)]
    process = subprocess.Popen(
        [sys.executable, "-c", _PAUSE_IN_FIRST_WRITE, str(folder), str(marker), *argv],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 120
        while not marker.exists() and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert marker.exists(), "the command never started writing its output"
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == 130, stderr
    assert output.read_text(encoding="utf-8") == "previous results\n"
    assert sorted(path.name for path in folder.iterdir()) == ["scores.csv"]

    assert main(argv) == 0  # and an uninterrupted run replaces it
    assert output.read_text(encoding="utf-8").startswith("index,rouge1,")
    assert sorted(path.name for path in folder.iterdir()) == ["scores.csv"]

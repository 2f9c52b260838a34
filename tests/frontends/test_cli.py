"""The rouge-plus command line: every input format, output format, errors and the demo.

Most tests call ``main(argv)`` in-process (fast); a few run ``python -m rouge_plus`` in a
subprocess to check what a user really sees: exit codes, stderr, no traceback.
"""

from __future__ import annotations

import argparse
import csv
import gzip
import io
import json
import os
import signal
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.material import BENCH

import rouge_plus
from rouge_plus._records import fields as record_fields
from rouge_plus.cli import main
from rouge_plus.cli.main import SUBCOMMANDS, build_parser
from rouge_plus.options import KEYWORDS, OPTION, REPORT, ScoreOptions, option_keywords
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


def test_counts_and_micro(capsys, jsonl_file):
    flags = ("--jsonl", jsonl_file, "--rouge-types", "rouge1", "rougeL", "--counts")
    result = run_json(capsys, *flags, "--aggregation", "micro")
    assert result["scores"] == expected(
        rouge_types=["rouge1", "rougeL"], return_counts=True, aggregation="micro"
    )
    assert "rougeL_reference_total" in result["scores"]
    assert "|agg:micro|" in result["signature"]
    code, out, err = run(capsys, *flags, "--per-example", "--format", "csv")
    assert code == 0, err
    header, *rows = out.splitlines()
    assert header.split(",")[:5] == [
        "index", "rouge1", "rouge1_matches", "rouge1_prediction_total", "rouge1_reference_total",
    ]  # fmt: skip
    per_example = expected(rouge_types=["rouge1"], return_counts=True, use_aggregator=False)
    assert [float(row.split(",")[2]) for row in rows] == per_example["rouge1_matches"]
    code, out, err = run(capsys, *flags)
    assert code == 0, err
    assert "Matches" in out.splitlines()[0] and "Reference total" in out.splitlines()[0]


def test_strip_reasoning_flag(capsys, tmp_path):
    path = tmp_path / "data.jsonl"
    row = {"prediction": "<think>no</think>the cat sat", "references": ["the cat sat"]}
    path.write_text(json.dumps(row) + "\n", encoding="utf-8")
    flags = ("--jsonl", str(path), "--rouge-types", "rouge1")
    stripped = run_json(capsys, *flags, "--strip-reasoning", "true")
    assert stripped["scores"] == {"rouge1": 1.0} and "|strip:tags|" in stripped["signature"]
    assert run_json(capsys, *flags, "--strip-reasoning", "<think>no</think>")["scores"] == {
        "rouge1": 1.0
    }
    assert run_json(capsys, *flags)["scores"]["rouge1"] < 1.0


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
        (["scor", "--demo"], 2, "unknown subcommand 'scor'; did you mean 'score'?"),
        (["corelate"], 2, "unknown subcommand 'corelate'; did you mean 'correlate'?"),
        (
            ["xyz"],
            2,
            "unknown subcommand 'xyz'; subcommands: score, compare, correlate, power, run",
        ),
        (["run"], 2, "give a command, e.g. rouge-plus run -- python x.py"),
        (["run", "--", "no-such-command-x"], 127, "no such command (or not executable)"),
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


def test_bench_corpus_matches_score(bench_rows, capsys, tmp_path):
    path = tmp_path / "bench.jsonl"
    path.write_bytes(gzip.decompress(BENCH.read_bytes()))
    result = run_json(capsys, "--jsonl", str(path), "--use-stemmer", "--precision-recall")
    predictions = [row["prediction"] for row in bench_rows]
    references = [row["references"] for row in bench_rows]
    assert result["n_examples"] == len(bench_rows)
    assert result["scores"] == rouge_plus.score(
        predictions, references, use_stemmer=True, return_precision_recall=True
    )


# Runs the command line with a profile hook that, at the first write to a file in the output's
# folder (whatever file the command writes there), touches a marker and sleeps: the test then
# interrupts it in the middle of writing its output. A child inherits an ignored SIGINT (pytest
# under nohup, in a background job, on some CI runners) and Python then keeps ignoring it, so the
# child puts back Python's own handler, the one that raises KeyboardInterrupt.
_PAUSE_IN_FIRST_WRITE = """
import os, pathlib, signal, sys, time
signal.signal(signal.SIGINT, signal.default_int_handler)
from rouge_plus.cli import main
from rouge_plus.cli.main import build_parser
from rouge_plus.options import ScoreOptions

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


@pytest.fixture(params=["default", "ignored"])
def parent_sigint(request: pytest.FixtureRequest) -> Iterator[None]:
    """This process's SIGINT as pytest started it, or ignored as under nohup or in a background
    job (the main thread's disposition, restored after the test)."""
    if request.param == "default":
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="finds open files in /proc")
@pytest.mark.usefixtures("parent_sigint")
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


def test_output_to_a_pipe_writes_into_it_and_leaves_it_a_pipe(tmp_path, jsonl_file):
    """-o /dev/null or a named pipe: written to as it is, never replaced by a regular file."""
    fifo = tmp_path / "scores.fifo"
    os.mkfifo(fifo)
    received: list[str] = []
    reader = threading.Thread(
        target=lambda: received.append(fifo.read_text(encoding="utf-8")), daemon=True
    )
    reader.start()
    assert main(["--jsonl", jsonl_file, "--format", "json", "-o", str(fifo)]) == 0
    reader.join(timeout=60)
    assert json.loads(received[0])["scores"] == expected()
    assert stat.S_ISFIFO(fifo.stat().st_mode)


def _subparsers() -> dict[str, argparse.ArgumentParser]:
    (commands,) = [a for a in build_parser()._actions if a.dest == argparse.SUPPRESS and a.choices]
    return dict(commands.choices)


@pytest.mark.parametrize("command", ["score", "compare"])
def test_every_flag_has_real_help(command):
    """Every flag of every subcommand explains itself, the ones derived from ScoreOptions too
    (from their field's metadata)."""
    parser = _subparsers()[command]
    actions = [a for a in parser._actions if a.option_strings and a.dest != "help"]
    for action in actions:
        flag = action.option_strings[-1]
        assert action.help and len(action.help) >= 12, flag
        machine = f"{action.dest.removeprefix('option_')} ("  # the fallback of a derived flag
        assert not action.help.startswith(machine) and action.metavar != "VALUE", flag
    fields = record_fields(ScoreOptions)
    assert all(OPTION in field.metadata or KEYWORDS in field.metadata for field in fields)
    given = {a.dest.removeprefix("option_") for a in actions if a.dest.startswith("option_")}
    expected = {
        name
        for name, option in option_keywords().items()
        if option.flag is not None and not (command == "compare" and option.group == REPORT)
    }
    assert given == expected


def test_top_level_help_lists_the_subcommands(capsys):
    with pytest.raises(SystemExit) as exited:
        main(["--help"])
    assert exited.value.code == 0
    out = capsys.readouterr().out
    for name, parser in _subparsers().items():
        assert name in SUBCOMMANDS and f"    {name} " in out
        assert parser.prog == f"rouge-plus {name}"
    assert set(_subparsers()) == set(SUBCOMMANDS)


@pytest.mark.parametrize(
    ("flag", "name", "content", "message"),
    [
        ("--jsonl", "latin1.jsonl", b'{"prediction": "caf\xe9"}\n', "not UTF-8 text (byte 19"),
        ("--csv", "latin1.csv", b"prediction,references\ncaf\xe9,b\n", "not UTF-8 text (byte 25"),
        ("--jsonl", "empty.jsonl", b"", "no rows"),
        ("--csv", "empty.csv", b"", "no rows"),
        ("--csv", "header.csv", b"prediction,references\n", "no rows"),
        (
            "--csv",
            "rows.jsonl",
            b'{"prediction": "a", "references": "b"}\n' * 2,
            "this looks like JSON Lines, not CSV: use --jsonl",
        ),
    ],
)
def test_file_problems_name_the_file(capsys, tmp_path, flag, name, content, message):
    path = tmp_path / name
    path.write_bytes(content)
    code, out, err = run(capsys, flag, str(path))
    assert (code, out) == (1, "")
    assert err == f"rouge-plus: error: {path}: {message}" + err.split(message, 1)[1]
    assert err.count("\n") == 1


def test_a_non_utf8_text_file_is_named(capsys, tmp_path):
    predictions = tmp_path / "preds.txt"
    predictions.write_bytes(b"ok\n\xff\n")
    code, _, err = run(capsys, "--predictions", str(predictions), "--references", str(predictions))
    assert code == 1
    assert err.startswith(f"rouge-plus: error: {predictions}: not UTF-8 text (byte 3 ")


def test_split_on_a_dataset_without_splits_is_refused(capsys, tmp_path):
    datasets = pytest.importorskip("datasets")
    path = tmp_path / "plain"
    datasets.Dataset.from_dict({"prediction": ["a"], "references": ["a"]}).save_to_disk(path)
    code, _, err = run(capsys, "--dataset", str(path), "--split", "train")
    assert code == 1
    assert "--split 'train' given, but this dataset has no splits" in err


def _peak_rss_mib(jsonl: Path, tmp_path: Path) -> float:
    """The command line's own peak resident memory while scoring ``jsonl`` (VmHWM: getrusage's
    maximum would include the memory of the process that started it)."""
    script = (
        "import pathlib, sys\n"
        "from rouge_plus.cli import main\n"
        "assert main(sys.argv[1:]) == 0\n"
        "status = pathlib.Path('/proc/self/status').read_text()\n"
        "print(next(line.split()[1] for line in status.splitlines() if line.startswith('VmHWM')))\n"
    )
    argv = ["--jsonl", str(jsonl), "--per-example", "--format", "csv", "--chunk-size", "200"]
    done = subprocess.run(
        [sys.executable, "-c", script, *argv, "-o", str(tmp_path / "scores.csv")],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return int(done.stdout.split()[-1]) / 1024


@pytest.mark.skipif(not Path("/proc/self/status").is_file(), reason="reads VmHWM in /proc")
def test_a_large_jsonl_file_streams_through_in_chunks(tmp_path):
    """A 20 MB JSON Lines file costs about as much memory as a small one: rows are read as they
    are scored and only their scores are kept (the whole corpus in memory took about 4.5 times
    the file's size)."""
    row = {"prediction": PREDICTIONS[1] * 12, "references": [REFERENCES[1][0] * 12] * 2}
    line = json.dumps(row) + "\n"
    small, large = tmp_path / "small.jsonl", tmp_path / "large.jsonl"
    small.write_text(line * 1000, encoding="utf-8")
    large.write_text(line * (20_000_000 // len(line)), encoding="utf-8")
    growth = _peak_rss_mib(large, tmp_path) - _peak_rss_mib(small, tmp_path)
    assert growth < 25, f"{growth:.0f} MiB more for 20 MB of JSON Lines"


@pytest.mark.parametrize("beta", ["inf", "1e200"])
def test_a_beta_that_would_give_nan_is_refused(capsys, beta: str) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["--demo", "--beta", beta])
    captured = capsys.readouterr()
    assert stopped.value.code == 2 and captured.out == ""
    assert "beta must be a positive number" in captured.err


def test_csv_gives_each_value_once_and_every_float_as_it_reads_back(capsys, jsonl_file):
    """With --precision-recall, <type> repeated <type>_fmeasure; CSV writes each float in the
    shortest form that reads back as the same float, so every cell equals score()'s value."""
    per_row = expected(use_aggregator=False, return_precision_recall=True)
    flags = ["--jsonl", jsonl_file, "--precision-recall", "--format", "csv"]
    code, out, _ = run(capsys, *flags, "--per-example")
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert "rouge1" not in rows[0] and "rouge1_fmeasure" in rows[0]
    for key in rows[0]:
        if key != "index":
            assert [float(row[key]) for row in rows] == per_row[key]
            assert [row[key] for row in rows] == [repr(value) for value in per_row[key]]
    code, out, _ = run(capsys, *flags)
    header, values = list(csv.reader(io.StringIO(out)))
    corpus = expected(return_precision_recall=True)
    assert header == [
        key for key in corpus if key not in ("rouge1", "rouge2", "rougeL", "rougeLsum")
    ]
    assert values == [repr(corpus[key]) for key in header]

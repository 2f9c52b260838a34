"""``rouge-plus doctor``: what this environment's ROUGE really is.

For each ROUGE package people import, whether it imports, from which file, which installed
distribution and version own it (a module that none owns is flagged as shadowing), and the named
conformance cases run through its own API (:func:`rouge_plus.doctor`). Examples::

    rouge-plus doctor
    rouge-plus doctor --format json --expect rouge_score     # exit status 1 if it does not conform

Nothing is downloaded: evaluate's "rouge" is checked only from a local copy of its script.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ..environment import NAMES, doctor
from .common import fail, run_and_write, warnings_to_stderr
from .report import aligned

HELP = "what this environment's ROUGE packages are, and where they part from ROUGE-1.5.5"
DESCRIPTION = (
    "Say which ROUGE each installed package really is: whether it imports, from which file, "
    "which installed distribution and version it belongs to (a folder that shadows the "
    "package is flagged), and whether rouge_plus.compat.install() is active; then run named "
    "cases (non-ASCII letters, punctuation and digits, stemming, ROUGE-Lsum without newlines, "
    "several references, an empty text, an unseeded bootstrap) through each package's own API, "
    "each with what ROUGE-1.5.5 or rouge_score gives and what the package gives.\n\n"
    "Nothing is downloaded: a package whose case needs a download reports it as n/a."
)
EXAMPLES = """examples:
  rouge-plus doctor                                 # every package, as tables
  rouge-plus doctor --packages rouge_score rouge    # two of them
  rouge-plus doctor --format json --expect rouge_score   # for CI: status 1 unless it conforms"""
FORMATS = ("table", "json")
_MARKS = {"ok": "ok", "differs": "DIFFERS", "error": "ERROR", "unsupported": "n/a"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags of ``rouge-plus doctor``."""
    parser.add_argument(
        "--packages", nargs="+", choices=NAMES, default=list(NAMES), metavar="PACKAGE",
        help=f"the packages to examine (default: all: {', '.join(NAMES)})",
    )  # fmt: skip
    parser.add_argument(
        "--expect", nargs="+", choices=NAMES, default=[], metavar="PACKAGE",
        help="exit with status 1 unless each of these packages imports and conforms",
    )  # fmt: skip
    parser.add_argument(
        "--evaluate-script", type=Path, default=None, metavar="PATH",
        help='a local copy of evaluate\'s "rouge" metric script (default: one found in a '
        "checkout's .test-data/ or evaluate's module cache)",
    )  # fmt: skip
    parser.add_argument(
        "--import-timeout", type=float, default=120.0, metavar="SECONDS",
        help="report a package whose import takes longer as not checked (default: 120)",
    )  # fmt: skip
    parser.add_argument("--format", choices=FORMATS, default="table")


def run(args: argparse.Namespace) -> int:
    """Examine, print the report; 1 when an ``--expect``-ed package does not conform."""
    report: dict[str, object] = {}

    def produce() -> str:
        with warnings_to_stderr():
            report.update(
                doctor(
                    list(dict.fromkeys([*args.packages, *args.expect])),
                    evaluate_script=args.evaluate_script,
                    import_timeout=args.import_timeout,
                )
            )
        return render(report, args.format)

    status = run_and_write(produce, None)
    if status:
        return status
    failing = [
        row["package"]
        for row in report["packages"]  # type: ignore[attr-defined]
        if row["package"] in args.expect and not row["conforms"]
    ]
    if failing:
        return fail(f"expected to conform, but does not: {', '.join(failing)}")
    return 0


def render(report: dict, form: str) -> str:
    """The report as JSON, or as tables for reading."""
    if form == "json":
        return json.dumps(report, indent=2, ensure_ascii=False) + "\n"
    active = "active" if report["compat_installed"] else "not active"
    lines = [f"rouge_plus {report['rouge_plus']} · rouge_plus.compat.install() {active}", ""]
    rows = [["package", "imports", "distribution", "version", "conforms", "file"]]
    for row in report["packages"]:
        rows.append(
            [
                row["package"],
                "yes" if row["imports"] else "no",
                row["distribution"] or "-",
                row["version"] or "-",
                {True: "yes", False: "NO", None: "-"}[row["conforms"]],
                row["file"] or row["error"] or "",
            ]
        )
    lines.append(aligned(rows, right=()))
    notes = [f"  {row['package']}: {row['note']}" for row in report["packages"] if row["note"]]
    if notes:
        lines += ["", "notes:", *notes]
    checked = [row for row in report["packages"] if row["cases"]]
    if checked:
        sources = [[case["case"], case["expected_from"]] for case in checked[0]["cases"]]
        lines += ["", "cases (the expected value is what this gives):"]
        lines += ["  " + line for line in aligned(sources, right=()).splitlines()]
    for row in checked:
        lines += ["", *_case_table(row)]
    return "\n".join(lines) + "\n"


def _case_table(row: dict) -> list[str]:
    """One package's cases: expected and actual number, and the consequence of a difference."""
    flagged = sum(case["status"] in ("differs", "error") for case in row["cases"])
    title = f"{row['package']} ({row['description']}): {flagged} of {len(row['cases'])} cases"
    cells = [["case", "expected", "got", "", "consequence"]]
    for case in row["cases"]:
        cells.append(
            [
                case["case"],
                _value(case["expected"]),
                _value(case["got"]),
                _MARKS[case["status"]],
                case["consequence"],
            ]
        )
    table = aligned(cells, right=(1, 2))
    return [f"{title} differ or fail", *("  " + line for line in table.splitlines())]


def _value(value: object) -> str:
    if value is None:
        return "-"
    return f"{value:.4f}" if isinstance(value, float) else str(value)

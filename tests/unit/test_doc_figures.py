"""Every measured figure of README.md, SECURITY.md and docs/ names the command that measured it.

The convention (docs/ARCHITECTURE.md, "Figures in the docs"): a figure is a number with a unit
of time, memory, speed or ratio (``3.2 s``, ``0.53 ms``, ``18 MiB``, ``2,900 pairs/s``,
``4.5×``, ``7 times as fast``, ``93.6%``...) in the text, or a number in a table column whose
header names such a unit; the section that holds it (the text between two headings) says
``Measured with `COMMAND` ``, and the scripts that command names exist. Figures that are not
measurements (limits, settings, thresholds, confidence levels) are listed below, each with its
reason.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DOCS = [REPO / "README.md", REPO / "SECURITY.md", *sorted((REPO / "docs").glob("*.md"))]

UNITS = r"ns|µs|us|ms|s|sec|seconds?|min|minutes?|h|hours?|x|×|KB|KiB|MB|MiB|GB|GiB|%|[a-z]+/s"
RATIO = r"times (?:as|faster|slower|rouge|the)"
FIGURE = re.compile(rf"(?<![\w.\-/])\d[\d,]*(?:\.\d+)?\s?(?:(?:{UNITS})(?![\w/])|{RATIO})")
# A table column of figures: its header names a unit, alone or in parentheses.
UNIT_HEADER = re.compile(rf"(?:^|[\s(])(?:{UNITS}|time|speed-?up|ratio|faster)(?:$|[\s):,])")
SOURCE = re.compile(r"[Mm]easured with\s+`([^`]+)`")
HEADING = re.compile(r"#{1,6} ")
INLINE_CODE = re.compile(r"`[^`]*`")

# Figures that are not measurements, by document: the text around them, and why.
NOT_MEASURED: dict[str, list[tuple[str, str]]] = {
    "*": [
        (r"\b(?:95|99)% (?:CI|interval|bootstrap|confidence)", "a confidence level"),
        (r"its 95%\s+interval", "a confidence level"),
        (r"\b5% chance of a false alarm", "a significance level"),
        (r"over about 20 s on 2\s+CPUs", "what the `slow` marker means"),
    ],
    "docs/space.md": [
        (r"up to 5 MB", "the Space's upload limit"),
    ],
    "docs/command-line.md": [
        (r"may exceed 64 MiB", "the reader's limit"),
    ],
}
# Sections whose every figure is a setting, not a measurement.
SETTINGS_SECTIONS = {
    ("docs/space.md", "## Limits of a public Space"): "the constants of space/limits.py",
}


@dataclass(frozen=True)
class Figure:
    doc: str
    heading: str
    line: int
    text: str

    def __str__(self) -> str:
        return f"{self.doc}:{self.line} ({self.heading}): {self.text!r}"


def sections(text: str) -> list[tuple[str, list[tuple[int, str]]]]:
    """The document's sections: each heading (outside code blocks) with its numbered lines."""
    found: list[tuple[str, list[tuple[int, str]]]] = [("(top)", [])]
    fenced = False
    for number, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
        if not fenced and HEADING.match(line):
            found.append((line.strip(), []))
        else:
            found[-1][1].append((number, "" if fenced or line.lstrip().startswith("```") else line))
    return found


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def figures_in(lines: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """(line, figure) of a section's prose and of its tables' unit columns; code is left out."""
    found = []
    unit_columns: list[int] = []
    for index, (number, line) in enumerate(lines):
        prose = INLINE_CODE.sub("", line)
        found += [(number, match.group(0)) for match in FIGURE.finditer(prose)]
        if not line.lstrip().startswith("|"):
            unit_columns = []
            continue
        following = lines[index + 1][1] if index + 1 < len(lines) else ""
        if re.fullmatch(r"\s*\|?[\s:|-]+\|?\s*", following):  # a header, then |---|---|
            unit_columns = [k for k, cell in enumerate(_cells(line)) if UNIT_HEADER.search(cell)]
            continue
        cells = _cells(prose)
        found += [
            (number, cells[k])
            for k in unit_columns
            if k < len(cells) and re.search(r"\d", cells[k]) and not FIGURE.search(cells[k])
        ]
    return found


def unnamed_figures(doc: str, text: str) -> list[Figure]:
    """The figures of ``text`` (the document ``doc``, relative to the repository) in sections
    that name no command with ``Measured with `...```, leaving out those not measured."""
    allowed = [pattern for pattern, _ in NOT_MEASURED.get("*", []) + NOT_MEASURED.get(doc, [])]
    unnamed = []
    for heading, lines in sections(text):
        if SOURCE.search("\n".join(line for _, line in lines)):
            continue
        if (doc, heading) in SETTINGS_SECTIONS:
            continue
        for number, figure in figures_in(lines):
            around = " ".join(line for n, line in lines if abs(n - number) <= 1)
            around = re.sub(r"\s+", " ", around)
            if not any(
                figure in match.group(0) for p in allowed for match in re.finditer(p, around)
            ):
                unnamed.append(Figure(doc, heading, number, figure))
    return unnamed


def named_commands(text: str) -> list[str]:
    return SOURCE.findall(text)


def relative(path: Path) -> str:
    return path.relative_to(REPO).as_posix()


def test_every_measured_figure_names_its_command() -> None:
    unnamed = [
        str(figure)
        for doc in DOCS
        for figure in unnamed_figures(relative(doc), doc.read_text(encoding="utf-8"))
    ]
    assert not unnamed, (
        "figures in sections that name no 'Measured with `command`' (or list them in "
        "NOT_MEASURED if they are not measurements):\n" + "\n".join(unnamed)
    )


def test_the_scripts_the_commands_name_exist() -> None:
    missing = [
        f"{relative(doc)}: {path}"
        for doc in DOCS
        for command in named_commands(doc.read_text(encoding="utf-8"))
        for path in re.findall(r"(?:benchmarks|scripts|tests)/[\w./-]+\.(?:py|sh)", command)
        if not (REPO / path).is_file()
    ]
    assert not missing


def test_every_exception_is_still_needed() -> None:
    """An exception that no longer matches anything is taken out, so the list stays small."""
    texts = {relative(doc): doc.read_text(encoding="utf-8") for doc in DOCS}
    everything = "\n".join(texts.values())
    stale = [
        pattern
        for doc, entries in NOT_MEASURED.items()
        for pattern, _ in entries
        if not re.search(pattern, re.sub(r"\s+", " ", everything if doc == "*" else texts[doc]))
    ]
    stale += [
        f"{doc} {heading}"
        for doc, heading in SETTINGS_SECTIONS
        if heading not in texts[doc].splitlines()
    ]
    assert not stale


PLANTED = """# A guide

Some words, and a limit of up to 5 MB.

## Speed

Scoring 3,500 pairs takes 2.1 s here, about 7 times as fast.

| shape | time (ms) | note |
|---|---|---|
| long | 12.5 | fine |

```
$ rouge-plus score  # 0.4 s in a code block is no figure
```

## Measured

Scoring 3,500 pairs takes 2.1 s, 4.5× rouge_score's speed (`--mode corpus`).

Measured with `python benchmarks/bench.py --mode corpus`.

## Settings

`--time-limit 60` and a 95% CI.
"""


def test_the_check_finds_an_unnamed_figure_in_prose_and_in_a_table() -> None:
    found = unnamed_figures("docs/space.md", PLANTED)
    assert [(figure.heading, figure.text) for figure in found] == [
        ("## Speed", "2.1 s"),
        ("## Speed", "7 times as"),
        ("## Speed", "12.5"),
    ]


def test_a_section_that_names_its_command_passes() -> None:
    named = PLANTED.replace("## Speed\n", "## Speed\n\nMeasured with `python benchmarks/x.py`.\n")
    assert unnamed_figures("docs/space.md", named) == []
    assert named_commands(named) == [
        "python benchmarks/x.py",
        "python benchmarks/bench.py --mode corpus",
    ]
    # the allowed phrase is allowed in its own document only
    assert [f.text for f in unnamed_figures("README.md", named)] == ["5 MB"]

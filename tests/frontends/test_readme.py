"""Every example in README.md and in the guides of docs/ (docs/*.md) runs.

Each ```python block runs in its own fresh interpreter; in each ```bash block every command line
starting with ``rouge-plus`` or ``python -m rouge_plus`` runs (``rouge-plus`` as
``python -m rouge_plus``, so the package needs no install; lines ending in a backslash continue).
Both run with the repository root as working directory and the Hugging Face Hub offline.

To keep a block out of this test, put ``<!-- skip-test -->`` on the line before its opening
fence (blank lines in between are allowed), e.g. for a block that needs a GPU or a download.
A python block that uses what a reader's script would already have (a model, a tokenizer) can
name a file of ``tests/support/`` that defines it: ``<!-- test-setup: tiny_seq2seq.py -->`` on
the line before the fence runs that file first, in the same interpreter.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
README = REPO / "README.md"
GUIDES = REPO / "docs"
SKIP_MARKER = "<!-- skip-test -->"
_SETUP_MARKER = re.compile(r"^<!-- test-setup: ([\w.]+\.py) -->$")
SUPPORT = REPO / "tests" / "support"
_FENCE = re.compile(r"^```(\w*)\s*$")
_CLI_PREFIXES = ("rouge-plus", "python -m rouge_plus")
# A fresh interpreter that loads one of these frameworks takes over 20 s on 2 CPUs: slow.
_FRAMEWORKS = re.compile(r"\b(evaluate|datasets|transformers|trl|RougePlus|rouge_plus\.load)\b")


@dataclass(frozen=True)
class Block:
    language: str
    line: int  # 1-based line of the opening fence
    code: str
    setup: str | None = None  # a file of tests/support/ to run first


def readme_blocks(text: str) -> list[Block]:
    """Fenced blocks, without those marked with the skip marker."""
    blocks, lines = [], text.splitlines()
    i = 0
    while i < len(lines):
        match = _FENCE.match(lines[i].strip())
        if not match or not match.group(1):
            i += 1
            continue
        end = next(j for j in range(i + 1, len(lines)) if lines[j].strip() == "```")
        before = [line.strip() for line in lines[:i] if line.strip()]
        if not (before and before[-1] == SKIP_MARKER):
            setup = _SETUP_MARKER.match(before[-1]) if before else None
            code = "\n".join(lines[i + 1 : end])
            blocks.append(Block(match.group(1), i + 1, code, setup and setup.group(1)))
        i = end + 1
    return blocks


def cli_commands(code: str) -> list[str]:
    """The rouge-plus command lines of a shell block, continuation lines joined."""
    joined = re.sub(r"\s*\\\n\s*", " ", code)
    commands = []
    for line in joined.splitlines():
        line = line.strip().removeprefix("$ ").strip()
        if line.startswith(_CLI_PREFIXES):
            commands.append(line)
    return commands


def documents() -> list[Path]:
    """README.md and every guide of docs/, the files whose examples run."""
    return [README, *sorted(GUIDES.glob("*.md"))]


def _cases() -> list:
    if not README.exists():
        return [pytest.param(None, id="no-README", marks=pytest.mark.skip("README.md is absent"))]
    cases = []
    for document in documents():
        name = document.relative_to(REPO).as_posix()
        for block in readme_blocks(document.read_text(encoding="utf-8")):
            if block.language == "python":
                code = block.code
                if block.setup:
                    code = (SUPPORT / block.setup).read_text(encoding="utf-8") + "\n" + code
                marks = [pytest.mark.slow] if _FRAMEWORKS.search(code) else []
                case_id = f"{name}-python-line{block.line}"
                cases.append(pytest.param(("python", code), id=case_id, marks=marks))
            elif block.language in ("bash", "sh", "shell", "console"):
                for k, command in enumerate(cli_commands(block.code)):
                    case = pytest.param(("cli", command), id=f"{name}-cli-line{block.line}-{k}")
                    cases.append(case)
    return cases


def _environment() -> dict[str, str]:
    path = os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))
    return {**os.environ, "PYTHONPATH": path, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}


def _argv(command: str) -> list[str]:
    words = shlex.split(command)
    if words[0] == "rouge-plus":
        return [sys.executable, "-m", "rouge_plus", *words[1:]]
    return [sys.executable, *words[1:]]  # "python -m rouge_plus ..."


@pytest.mark.parametrize("case", _cases())
def test_readme_example_runs(case):
    kind, code = case
    argv = [sys.executable, "-c", code] if kind == "python" else _argv(code)
    completed = subprocess.run(
        argv, cwd=REPO, env=_environment(), capture_output=True, text=True, timeout=300
    )
    assert completed.returncode == 0, f"{code}\n--- stderr ---\n{completed.stderr}"


def test_the_guides_are_run_too():
    """The guides hold most of the examples: each one with a block to run is collected."""
    names = {document.name for document in documents()}
    assert {"README.md", "evaluate-and-trainer.md", "languages.md", "options.md"} <= names
    collected = {case.id.partition("-python-")[0].partition("-cli-")[0] for case in _cases()}
    assert {"README.md", "docs/evaluate-and-trainer.md", "docs/options.md"} <= collected


def test_block_parsing_and_skip_marker():
    text = "\n".join(
        [
            "# Title",
            "```python",
            "print(1)",
            "```",
            SKIP_MARKER,
            "",
            "```python",
            "boom()",
            "```",
            "<!-- test-setup: tiny_seq2seq.py -->",
            "```python",
            "trainer()",
            "```",
            "```bash",
            "pip install rouge-plus",
            "rouge-plus --demo \\",
            "  --format json",
            "$ python -m rouge_plus --demo",
            "```",
            "```",
            "plain fence",
            "```",
        ]
    )
    blocks = readme_blocks(text)
    assert [(b.language, b.line, b.setup) for b in blocks] == [
        ("python", 2, None),
        ("python", 11, "tiny_seq2seq.py"),
        ("bash", 14, None),
    ]
    assert cli_commands(blocks[2].code) == [
        "rouge-plus --demo --format json",
        "python -m rouge_plus --demo",
    ]

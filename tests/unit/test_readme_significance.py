"""The worked example of docs/significance.md prints exactly the output pasted under it.

The block reads the bench in tests/data (a clone has it). The general test of the examples
(tests/frontends/test_readme.py), which only checks that a block runs, skips it
(``<!-- skip-test -->``) so that it is not run twice: this test runs it and compares its output.
Only the package version in the signature may differ.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
GUIDE = REPO / "docs" / "significance.md"
HEADING = "# Is system A really better than B?"


def worked_example() -> tuple[str, str]:
    """The section's Python block and the text block of its output."""
    text = GUIDE.read_text(encoding="utf-8")
    section = text[text.index(HEADING) :]
    code = re.search(r"```python\n(.*?)\n```", section, re.DOTALL)
    output = re.search(r"```text\n(.*?)\n```", section, re.DOTALL)
    assert code and output, "the section needs a python block and a text block of its output"
    return code.group(1), output.group(1)


def without_version(text: str) -> str:
    return re.sub(r"\|version:\S+", "|version:*", text)


def test_worked_example_prints_the_pasted_output():
    code, expected = worked_example()
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert without_version(done.stdout.rstrip("\n")) == without_version(expected)

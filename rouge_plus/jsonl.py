"""Reading JSON Lines: one JSON object per non-blank line, the line number named on error."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator


class JsonlError(ValueError):
    """A line that is not a JSON object; ``line`` is its 1-based number."""

    def __init__(self, line: int, problem: str):
        super().__init__(f"line {line}: {problem}")
        self.line = line
        self.problem = problem


def json_objects(lines: Iterable[str]) -> Iterator[tuple[int, dict]]:
    """``(line number, object)`` for every non-blank line."""
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as error:
            raise JsonlError(number, f"not valid JSON: {error.msg}") from None
        if not isinstance(row, dict):
            raise JsonlError(number, f"not a JSON object (got {type(row).__name__})")
        yield number, row

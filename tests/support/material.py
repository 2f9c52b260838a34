"""The material the tests read: the CNN/DailyMail bench in tests/data, and the shared vectors.

tests/data holds the 3,500 CNN/DailyMail rows of REALSumm (CC BY 4.0, see its PROVENANCE.md)
and the ROUGE-1.5.5 Perl script's values for them (scripts/regenerate_rouge155_bench_values.py
makes them), so the tests that read them run from a clone. The reference vectors stay in the
project's ../shared folder beside the repository, which a clone does not have: the two tests
that read them skip there, and the same oracles are checked from a clone on the bench.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "tests" / "data"
BENCH = DATA / "cnndm_realsumm.jsonl.gz"
BENCH_ROUGE155 = DATA / "cnndm_realsumm.rouge155.jsonl.gz"
BENCH_ROUGE155_CORPUS = DATA / "cnndm_realsumm.rouge155.corpus.json"
SHARED = REPO.parent / "shared"


def shared_file(relative: str) -> Path:
    """``relative`` in ../shared, or skip: that folder is the project's, not the repository's."""
    path = SHARED / relative
    if not path.exists():
        pytest.skip(
            f"{relative} is the project's shared material, not part of the repository "
            "(a clone has no ../shared); the bench tests check the same oracles from a clone"
        )
    return path


def read_jsonl(path: Path) -> list[dict]:
    """One JSON object a line, from a plain or a gzip-compressed (``.gz``) file."""
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]

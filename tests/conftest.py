"""Session fixtures over the shared test material."""

from __future__ import annotations

import pytest
from support.shared_data import read_jsonl, shared_file


@pytest.fixture(scope="session")
def bench_rows() -> list[dict]:
    """The 3,500 CNN/DailyMail (prediction, reference) rows of ../shared/bench."""
    return read_jsonl(shared_file("bench/cnndm_realsumm.jsonl"))


@pytest.fixture(scope="session")
def reference_vectors() -> list[dict]:
    return read_jsonl(shared_file("vectors/reference_values.jsonl"))

"""Session fixtures over the shared test material."""

from __future__ import annotations

import os

import pytest
from hypothesis import settings
from support.shared_data import read_jsonl, shared_file

# CI runs the same examples every time (a red build must be reproducible); local runs keep
# exploring new ones.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.fixture(scope="session")
def bench_rows() -> list[dict]:
    """The 3,500 CNN/DailyMail (prediction, reference) rows of ../shared/bench."""
    return read_jsonl(shared_file("bench/cnndm_realsumm.jsonl"))


@pytest.fixture(scope="session")
def reference_vectors() -> list[dict]:
    return read_jsonl(shared_file("vectors/reference_values.jsonl"))

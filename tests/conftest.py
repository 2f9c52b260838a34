"""Session fixtures over the test material, the hypothesis profiles, and no silent skip in CI."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator

import pytest
from hypothesis import is_hypothesis_test, settings
from support.material import BENCH, read_jsonl, shared_file

# CI runs the same examples every time (a red build must be reproducible); local runs, such as
# README's test command, keep exploring new ones.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

NO_TOKENS = "produced no tokens"

# Under CI, a test that would skip for want of an oracle fails instead (support/ci_skips.py).
pytest_plugins = ["support.ci_skips"]


@pytest.fixture(autouse=True)
def _first_no_tokens_record_only(request: pytest.FixtureRequest) -> Iterator[None]:
    """In a hypothesis test, keep only the first "no tokens" log record.

    The core logs that warning once per scoring call, as it should; a hypothesis test makes one
    call per example, and pytest prints every record of a failing test, so a failure once sat
    under 236 identical lines. The warning itself is filtered per module with ``filterwarnings``.
    """
    if not is_hypothesis_test(request.function):
        yield
        return
    logger = logging.getLogger("rouge_plus.text.diagnostics")
    seen: list[logging.LogRecord] = []

    def first_only(record: logging.LogRecord) -> bool:
        if NO_TOKENS not in record.getMessage():
            return True
        seen.append(record)
        return len(seen) == 1

    logger.addFilter(first_only)
    try:
        yield
    finally:
        logger.removeFilter(first_only)


@pytest.fixture(autouse=True)
def _no_plan_kept_from_another_test() -> None:
    """Every test builds its own scoring plans: one kept from an earlier test would hide what a
    test changes (a registry entry, a module made unimportable)."""
    from rouge_plus.plan import clear_kept_plans

    clear_kept_plans()


@pytest.fixture(scope="session")
def bench_rows() -> list[dict]:
    """The 3,500 CNN/DailyMail (prediction, reference) rows of tests/data (from REALSumm)."""
    return read_jsonl(BENCH)


@pytest.fixture(scope="session")
def reference_vectors() -> list[dict]:
    return read_jsonl(shared_file("vectors/reference_values.jsonl"))

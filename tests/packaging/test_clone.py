"""A clone, with no ../shared folder beside it, runs the tests that read the CNN/DailyMail bench.

The bench and the ROUGE-1.5.5 script's values for it live in tests/data with their licence and
provenance. The copy holds exactly the files a ``git push`` sends (not the compiled kernels: it
runs on their Python twins), in a folder whose parent has no ``shared``; a few cheap tests that
read each data file run there and must neither skip nor fail.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from support.repo_copy import clean_environment, copy_repository

BENCH_TESTS = [
    # cnndm_realsumm.rouge155.jsonl.gz and .corpus.json
    "tests/unit/test_rouge155_parts.py::test_bootstrap_reproduces_the_published_corpus_values",
    # cnndm_realsumm.jsonl.gz
    "tests/unit/test_pos.py::test_same_tags_as_nltk_perceptron_tagger",
]


def test_a_clone_without_shared_runs_the_bench_tests(tmp_path):
    pytest.importorskip("nltk")
    clone = copy_repository(tmp_path / "checkout" / "rouge_plus")
    assert not (clone.parent / "shared").exists()
    done = subprocess.run(
        [sys.executable, "-m", "pytest", *BENCH_TESTS, "-q", "-rs", "-p", "no:cacheprovider"],
        cwd=clone,
        env=clean_environment(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    summary = done.stdout.strip().splitlines()[-1]
    assert summary.startswith(f"{len(BENCH_TESTS)} passed") and "skipped" not in summary, (
        done.stdout[-3000:]
    )

"""map_in_workers: results in chunk order, errors propagate, one worker runs inline."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from rouge_plus import RougeScorer
from rouge_plus.kernels import native
from rouge_plus.kernels.spec import Kernel, KernelSpec
from rouge_plus.parallel import map_in_workers


def _square_slowly(x: int) -> int:
    time.sleep(0.01 * (x % 3))  # later chunks often finish first
    return x * x


def test_results_keep_chunk_order():
    assert map_in_workers(_square_slowly, list(range(12)), 3) == [x * x for x in range(12)]


def test_an_exception_in_a_chunk_propagates():
    def fail_on_five(x: int) -> int:
        if x == 5:
            raise ValueError("chunk 5 failed")
        return x

    with pytest.raises(ValueError, match="chunk 5 failed"):
        map_in_workers(fail_on_five, list(range(8)), 2)


def test_one_worker_runs_inline_in_the_calling_thread():
    threads = map_in_workers(lambda _: threading.get_ident(), [1, 2, 3], 1)
    assert threads == [threading.get_ident()] * 3


def test_threads_run_chunks_on_other_threads():
    barrier = threading.Barrier(2, timeout=10)

    def meet(_: int) -> int:
        barrier.wait()  # only returns once two chunks run at the same time
        return threading.get_ident()

    threads = map_in_workers(meet, [0, 1], 2)
    assert len(set(threads)) == 2 and threading.get_ident() not in threads


def test_no_chunks():
    assert map_in_workers(len, [], 4) == []


def test_num_proc_gives_the_same_scores_as_one_worker():
    rng = np.random.default_rng(5)
    words = [f"w{i}" for i in range(40)]
    predictions = [" ".join(rng.choice(words, 30)) for _ in range(300)]
    references = [[" ".join(rng.choice(words, 25)) for _ in range(1 + k % 3)] for k in range(300)]
    kinds = ["rouge1", "rouge2", "rougeL", "rougeLsum", "rougeW", "rougeSU4"]
    one = RougeScorer(kinds).score_examples(predictions, references).scores
    for num_proc in (2, 3, None):
        several = RougeScorer(kinds, num_proc=num_proc).score_examples(predictions, references)
        for kind in kinds:
            np.testing.assert_array_equal(several.scores[kind], one[kind])


@pytest.mark.skipif(not native.NATIVE, reason="the C extension is not built")
def test_compiled_kernels_give_the_same_counts_on_threads():
    rng = np.random.default_rng(3)
    documents = [" ".join(f"w{t}" for t in rng.integers(0, 30, 200)) for _ in range(40)]

    def count(chunk: list[str]) -> np.ndarray:
        vocabulary = native.Vocabulary()
        ids, sentences, bounds = (
            np.frombuffer(b, dtype=d)
            for b, d in zip(
                vocabulary.encode(chunk, True), (np.int32, np.int64, np.int64), strict=True
            )
        )
        pairs = np.arange(0, len(chunk), 2)
        measures = [
            KernelSpec(Kernel.NGRAM, n=2),
            KernelSpec(Kernel.SUMMARY_LCS),
            KernelSpec(Kernel.WEIGHTED_LCS, weight=1.2),
            KernelSpec(Kernel.SKIP_BIGRAM, max_gap=4, unigrams=True),
        ]
        return native.count_pairs(
            ids, sentences, bounds, pairs, pairs + 1, measures, len(vocabulary)
        )

    chunks = [documents[i : i + 10] for i in range(0, 40, 10)]
    inline = map_in_workers(count, chunks, 1)
    threaded = map_in_workers(count, chunks, 2)
    for one, other in zip(inline, threaded, strict=True):
        np.testing.assert_array_equal(one, other)

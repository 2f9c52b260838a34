"""The public Space's limits (rouge_plus.space.limits): every limit refused with a message that
names it, the time budget and the client's presence looked at between chunks, large requests
taking turns, the limits stated on the page and in docs/space.md; and what the page does with
errors, downloads and its histogram."""

from __future__ import annotations

import contextlib
import json
import logging
import re
import threading
import time
from pathlib import Path

import numpy as np
import pytest

import rouge_plus
from rouge_plus.inputs import Batch
from rouge_plus.options import ScoreOptions
from rouge_plus.readers import parse_records, reference_cell
from rouge_plus.results import ExampleScores
from rouge_plus.scorer import score_examples
from rouge_plus.space import api, limits, scoring, workers
from rouge_plus.space import corpus_files as files
from rouge_plus.space.workers import Budget, ClientGone, LimitError

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

gr = pytest.importorskip("gradio", reason="the page needs gradio")
pytest.importorskip("matplotlib", reason="the page draws histograms with matplotlib")

from rouge_plus.space import comparison as comparison_module  # noqa: E402
from rouge_plus.space import (  # noqa: E402
    corpus_tab,
    events,
    histogram,
    page,
    pair_tab,
    refusals,
)

REPO = Path(__file__).resolve().parents[2]


# The work of a request just too large to do in the server, and of the largest small one.
LARGE = limits.Work(characters=limits.SMALL_REQUEST_CHARS + 1)
SMALL = limits.Work(characters=limits.SMALL_REQUEST_CHARS)


def words(count: int) -> str:
    return " ".join(["a"] * count)


def refused(**options: object) -> str:
    with pytest.raises(LimitError) as caught:
        limits.check_options(ScoreOptions.from_kwargs(**options))
    return str(caught.value)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"rouge_types": [f"rouge{n}" for n in range(1, 5)] + ["rougeL", "rougeLsum", "rougeW",
          "rougeSU4", "rougeS4"]}, "9 ROUGE types: the Space takes at most 8 per request"),
        ({"rouge_types": ["rouge5"]}, "rouge5: the Space takes n-grams up to rouge4"),
        ({"rouge_types": ["rouge3+synonyms"]}, "n-grams up to rouge2+synonyms"),
        ({"rouge_types": ["rougeW-3.5"]}, "ROUGE-W weights from 1 to 3"),
        ({"rouge_types": ["rougeSU101"]}, "skip gaps up to 100"),
        ({"n_resamples": 10_001}, "10,001 resamples: the Space takes at most 10,000"),
        ({"remove_stopwords": [str(i) for i in range(10_001)]}, "at most 10,000"),
    ],
)  # fmt: skip
def test_options_beyond_the_limits_are_refused_by_name(options, message) -> None:
    assert message in refused(**options)


def test_options_within_the_limits_pass() -> None:
    for types in (["rouge4", "rouge2+synonyms", "rougeW-3", "rougeW-1", "rougeSU100", "rougeS*"],):
        limits.check_options(ScoreOptions.from_kwargs(rouge_types=types, n_resamples=10_000))


@pytest.mark.parametrize(
    ("predictions", "references", "options", "message"),
    [
        (["a"] * 10_001, ["a"] * 10_001, {}, "10,001 rows: the Space takes at most 10,000"),
        (["a"], [["r"] * 11], {}, "row 0 has 11 references: the Space takes at most 10"),
        (["a", "x" * 20_001], ["a", "b"], {}, "a text of row 1 has 20,001 characters"),
        (["é" * 15_000] * 200, ["b"] * 200, {}, "5.7 MB of text: the Space takes 5 MB"),
        ([words(5_001)], ["a"], {}, "a text of row 0 has 5,001 tokens: the Space takes 5,000"),
        (["a"], [words(1_001)], {"rouge_types": ["rouge1+synonyms"]},
         "1,001 tokens: the Space takes 1,000 with a +synonyms type"),
        (["猫" * 5_001], ["a"], {}, "5,001 tokens"),  # one token per character
    ],
)  # fmt: skip
def test_texts_beyond_the_limits_are_refused_by_name(predictions, references, options, message):
    batch = Batch(predictions, [r if isinstance(r, list) else [r] for r in references])
    with pytest.raises(LimitError, match=re.escape(message)):
        limits.check_texts(batch, ScoreOptions.from_kwargs(**options))


def test_texts_at_the_limits_pass_and_count_their_tokens() -> None:
    batch = Batch([words(5_000)], [[words(3)] * 10])
    assert limits.check_texts(batch, ScoreOptions()).tolist() == [5_030]


def test_chunks_hold_about_chunk_tokens_and_at_least_a_row(monkeypatch) -> None:
    monkeypatch.setattr(scoring, "CHUNK_TOKENS", 10)
    batch = Batch(["a b c d", "a", "a b c d e f g h i j k l", "a b"], [["a"]] * 4)
    tokens = np.array([5, 2, 13, 3])
    sizes = [len(predictions) for predictions, _ in scoring._chunks(batch, tokens)]
    assert sizes == [2, 1, 1]


def test_work_stops_between_chunks_when_the_budget_is_spent(monkeypatch) -> None:
    monkeypatch.setattr(scoring, "CHUNK_TOKENS", 2)
    budget = Budget(seconds=60)
    chunks = []

    def spend_after_the_second(start: int, stop: int) -> None:
        chunks.append((start, stop))
        if len(chunks) == 2:
            budget.deadline = time.monotonic() - 1

    batch = Batch(["a"] * 10, [["a"]] * 10)
    with pytest.raises(LimitError, match="more than 30 s of work"):
        scoring.score_within_limits(batch, ScoreOptions(), budget, spend_after_the_second)
    assert chunks == [(0, 1), (1, 2)]


def test_work_stops_when_the_client_has_gone(monkeypatch) -> None:
    monkeypatch.setattr(scoring, "CHUNK_TOKENS", 2)
    gone = threading.Event()
    batch = Batch(["a"] * 10, [["a"]] * 10)
    with pytest.raises(ClientGone):
        scoring.score_within_limits(
            batch, ScoreOptions(), Budget(gone.is_set), lambda *_: gone.set()
        )


def test_scores_within_the_limits_are_the_library_scores(monkeypatch) -> None:
    monkeypatch.setattr(scoring, "CHUNK_TOKENS", 7)
    predictions = ["the cat sat on the mat", "a dog", "rain today", "the team won"] * 3
    references = [["the cat was on the mat", "a cat sat"], "dogs bark", "it rained", "won"] * 3
    options = ScoreOptions.from_kwargs(rouge_types=["rouge1", "rougeL", "rougeW"])
    examples = scoring.score_within_limits(
        rouge_plus.inputs.normalize_inputs(predictions, references), options, Budget()
    ).examples
    expected = score_examples(predictions, references, options)
    for name in options.type_names:
        np.testing.assert_array_equal(examples.scores[name], expected.scores[name])


def test_large_requests_take_turns_and_small_ones_do_not_wait(monkeypatch) -> None:
    monkeypatch.setattr(workers, "_LARGE_TURNS", threading.BoundedSemaphore(1))
    with workers.turn(LARGE, Budget()):
        with workers.turn(SMALL, Budget()):
            pass  # a small request goes at once
        waiting = Budget(seconds=0.5)
        with pytest.raises(LimitError, match="waited that long"), workers.turn(LARGE, waiting):
            pass
    with workers.turn(LARGE, Budget()):  # the turn was given back
        pass


def test_a_large_request_beyond_those_waiting_is_refused_at_once(monkeypatch) -> None:
    """Large requests waiting for their turn are bounded, so that they never take all of a
    kind's slots: the next one hears that the Space is busy instead of waiting."""
    monkeypatch.setattr(workers, "_LARGE_TURNS", threading.BoundedSemaphore(1))
    monkeypatch.setattr(workers, "LARGE_WAITING", 1)
    release = threading.Event()

    def wait_for_a_turn() -> None:
        with contextlib.suppress(ClientGone), workers.turn(LARGE, Budget(release.is_set)):
            pass

    with workers.turn(LARGE, Budget()):
        waiter = threading.Thread(target=wait_for_a_turn)
        waiter.start()
        while workers._waiting[0] == 0:
            time.sleep(0.01)
        with pytest.raises(LimitError, match="busy"), workers.turn(LARGE, Budget()):
            pass
        release.set()
        waiter.join()
    assert workers._waiting[0] == 0


EIGHT_TYPES = ["rouge1", "rouge2", "rouge4", "rougeL", "rougeLsum", "rougeW", "rougeSU4", "rougeS*"]


def empty_rows(rows: int, references: int = 10) -> tuple[list[str], list[list[str]]]:
    """``rows`` empty predictions, each with ``references`` empty references: no characters."""
    return [""] * rows, [[""] * references for _ in range(rows)]


def test_a_request_is_sized_by_its_work_not_its_characters() -> None:
    """10,000 rows of empty texts with 10 empty references, 8 types and a bootstrap of 10,000
    resamples hold no characters, yet took 75-95 s in the server when counted as small."""
    eight = ScoreOptions.from_kwargs(rouge_types=EIGHT_TYPES)
    work = limits.Work.of(Batch(*empty_rows(10_000)), eight, resamples=10_000)
    assert work == limits.Work(characters=0, scores=800_000, resampled=800_000_000)
    assert not work.is_small
    assert not limits.Work.of(Batch(*empty_rows(10_000)), eight).is_small  # scoring alone
    one_pair = Batch(["the cat sat on the mat"], [["a cat sat on a mat"] * 10])
    assert limits.Work.of(one_pair, eight, resamples=10_000).is_small
    for just_over in (
        limits.Work(characters=limits.SMALL_REQUEST_CHARS + 1),
        limits.Work(scores=limits.SMALL_REQUEST_SCORES + 1),
        limits.Work(resampled=limits.SMALL_REQUEST_RESAMPLED + 1),
    ):
        assert not just_over.is_small
        assert (just_over + limits.Work()) == just_over


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.tuples(st.text(max_size=5), st.lists(st.text(max_size=5), min_size=1, max_size=3)),
        max_size=6,
    ),
    st.integers(0, 6),
    st.integers(0, 1_000),
)
def test_the_work_of_two_parts_adds_up_to_the_work_of_the_whole(rows, cut, resamples) -> None:
    options = ScoreOptions.from_kwargs(rouge_types=["rouge1", "rougeL"])
    batch = Batch([p for p, _ in rows], [r for _, r in rows])
    parts = (batch.rows(0, min(cut, len(batch))), batch.rows(min(cut, len(batch)), len(batch)))
    whole = limits.Work.of(batch, options, resamples)
    assert whole == sum((limits.Work.of(part, options, resamples) for part in parts), limits.Work())
    assert whole.characters == sum(len(p) + sum(map(len, r)) for p, r in rows)


def test_a_request_of_empty_texts_that_asks_for_much_work_is_stopped_at_its_budget(
    monkeypatch,
) -> None:
    """The request above, through the API and the corpus tab: its work (the bootstrap too)
    runs in a worker that is killed when its budget is spent, not in the server until done."""
    in_worker = []
    real_in_worker = workers._in_worker

    def spied_in_worker(budget, task, *args):
        in_worker.append(task)
        return real_in_worker(budget, task, *args)

    monkeypatch.setattr(workers, "_in_worker", spied_in_worker)
    predictions, references = empty_rows(10_000)
    budget_s = 2
    started = time.monotonic()
    with pytest.raises(LimitError, match="more than 30 s of work"):
        api.score_api(
            predictions, references, rouge_types=EIGHT_TYPES, aggregation="bootstrap",
            n_resamples=10_000, budget=Budget(seconds=budget_s),
        )  # fmt: skip
    assert time.monotonic() - started < budget_s + 5
    chosen = events.read_options(
        rouge_types=EIGHT_TYPES, use_stemmer=False, tokenizer="default",
        split_sentences="newline", multi_ref="best", beta=1.0,
    )  # fmt: skip
    pasted = "\n".join(
        json.dumps({"prediction": p, "references": r})
        for p, r in zip(predictions, references, strict=True)
    )
    started = time.monotonic()
    with pytest.raises(LimitError, match="more than 30 s of work"):
        corpus_tab.score_corpus.__wrapped__(
            None, pasted, "prediction", ["references"], 0.95, 10_000, 0, chosen,
            progress=lambda *args, **kwargs: None, budget=Budget(seconds=budget_s),
        )  # fmt: skip
    assert time.monotonic() - started < budget_s + 5
    assert in_worker == [scoring.score_and_summarize] * 2


def sleep_then_answer(seconds: float, answer: str) -> str:
    time.sleep(seconds)
    return answer


def raise_a_limit(message: str) -> None:
    raise LimitError(message)


@pytest.mark.slow
def test_large_work_runs_in_a_worker_that_is_killed_when_the_budget_is_spent() -> None:
    """Work is not looked in on between its pieces, but stopped: the worker is killed, so no
    piece of work, however long, runs past the budget (the pure-Python kernels take seconds on
    one pair of long texts)."""
    import multiprocessing

    assert workers.within_budget(Budget(), LARGE, sleep_then_answer, 0, "scored") == "scored"
    with pytest.raises(LimitError, match="too many"):
        workers.within_budget(Budget(), LARGE, raise_a_limit, "too many")
    spent = Budget(seconds=60)
    spent.deadline = time.monotonic() + 1
    with pytest.raises(LimitError, match="more than 30 s of work"):
        workers.within_budget(spent, LARGE, sleep_then_answer, 3600, "never")
    assert multiprocessing.active_children() == []  # the worker is gone, not left running
    gone = threading.Event()
    threading.Timer(1, gone.set).start()
    with pytest.raises(ClientGone):
        workers.within_budget(Budget(gone.is_set), LARGE, sleep_then_answer, 3600, "never")
    assert multiprocessing.active_children() == []


def test_small_work_runs_here(monkeypatch) -> None:
    monkeypatch.setattr(workers, "_in_worker", None)  # would fail if called
    assert workers.within_budget(Budget(), SMALL, sleep_then_answer, 0, "here") == "here"


def test_progress_of_a_worker_reaches_the_request() -> None:
    batch = Batch([words(1_500)] * 3, [[words(1_000)]] * 3)
    steps = []
    examples = scoring.score_within_limits(
        batch, ScoreOptions(), Budget(), lambda start, stop: steps.append((start, stop))
    ).examples
    assert steps == [(0, 3)]
    assert examples.scores["rouge1"].shape == (3, 3)


def test_the_api_refuses_beyond_the_limits_and_equals_the_library_within() -> None:
    with pytest.raises(LimitError, match="11 references: the Space takes at most 10"):
        api.score_api(["a"], [["a"] * 11])
    nine = [
        *(f"rouge{n}" for n in range(1, 5)),
        "rougeL",
        "rougeLsum",
        "rougeW",
        "rougeS4",
        "rougeSU4",
    ]
    with pytest.raises(LimitError, match="at most 8 per request"):
        api.score_api(["a"], ["a"], rouge_types=nine)
    kwargs = {"rouge_types": ["rouge1", "rougeW"], "aggregation": "bootstrap", "n_resamples": 50}
    assert api.score_api(["a b c", "d e"], [["a b", "c"], "d"], **kwargs) == rouge_plus.score(
        ["a b c", "d e"], [["a b", "c"], "d"], **kwargs
    )


def test_limits_are_stated_on_the_page_and_in_the_space_guide() -> None:
    guide = (REPO / "docs" / "space.md").read_text(encoding="utf-8")
    stated = [
        f"{limits.MAX_UPLOAD_MB} MB", f"{limits.MAX_ROWS:,} rows",
        f"{limits.MAX_REFERENCES} references", f"{limits.MAX_TEXT_CHARS:,} characters",
        f"{limits.MAX_TEXT_TOKENS:,} tokens", f"{limits.MAX_SYNONYM_TOKENS:,} with a +synonyms",
        f"{limits.MAX_TYPES} ROUGE types", f"rouge{limits.SPACE_MAX_NGRAM}",
        f"rouge{limits.SPACE_MAX_SYNONYM_NGRAM}+synonyms",
        f"gaps up to {limits.SPACE_MAX_SKIP_GAP}",
        "weights from {:g} to {:g}".format(*limits.ROUGE_W_WEIGHTS),
        f"{limits.MAX_RESAMPLES:,} bootstrap resamples", f"{limits.TIME_BUDGET_S} s of work",
        f"{limits.LARGE_AT_ONCE} at a time",
        f"{limits.CONCURRENT_REQUESTS} small requests of each kind",
        f"{limits.SMALL_REQUEST_CHARS:,} characters of text",
        f"{limits.SMALL_REQUEST_SCORES:,} scores", f"{limits.SMALL_REQUEST_RESAMPLED:,} resampled",
        f"{limits.POWER_ANALYSIS_RESAMPLED:,} for each",
        f"{limits.LARGE_WAITING} waiting",
        f"{limits.QUEUE_SIZE} waiting",
    ]  # fmt: skip
    assert [s for s in stated if s not in page.LIMITS] == []
    assert [s for s in stated if s not in " ".join(guide.split())] == []


NINE_TYPES = [*(f"rouge{n}" for n in range(1, 5)), "rougeL", "rougeLsum", "rougeW", "rougeS4",
              "rougeSU4"]  # fmt: skip
# The page's events that score nothing: they read options, fill pickers, clear outputs.
LIGHT_EVENTS = {
    "profile_defaults", "load_example", "read_option_components", "clear_outputs",
    "update_columns", "sample_text", "update_compare_columns",
}  # fmt: skip


def test_the_queue_and_the_cache_are_bounded() -> None:
    demo = page.build_demo()
    assert demo._queue.max_size == limits.QUEUE_SIZE
    assert demo._queue.default_concurrency_limit == limits.CONCURRENT_REQUESTS
    assert demo.delete_cache == page.DELETE_CACHE
    failures = [fn for fn in demo.fns.values() if fn.trigger_only_on_failure]
    assert failures and all(fn.fn.__name__ == "clear_outputs" for fn in failures)


def test_every_event_that_scores_applies_the_limits_itself() -> None:
    """Every event of the page, whoever calls it (a client may call any by its number), either
    scores nothing or is a scoring event: its own budget, turn and limits."""
    demo = page.build_demo()
    scoring = {fn.fn.__name__: fn for fn in demo.fns.values() if fn.fn is not None}
    assert {
        name for name, fn in scoring.items() if not getattr(fn.fn, "scoring_event", False)
    } == LIGHT_EVENTS
    scoring_events = [fn for fn in demo.fns.values() if getattr(fn.fn, "scoring_event", False)]
    assert {fn.fn.__name__ for fn in scoring_events} == {
        "score_single",
        "score_corpus",
        "compare_corpus",
        "score_api",
    }
    for fn in scoring_events:  # each kind has the slots its large requests leave to small ones
        assert fn.concurrency_limit == events.SLOTS_PER_KIND
        assert fn.concurrency_limit >= (
            limits.LARGE_AT_ONCE + limits.LARGE_WAITING + limits.CONCURRENT_REQUESTS
        )
    assert {fn.concurrency_id for fn in scoring_events} == {"pair", "corpus", "compare", "api"}


def test_the_comparison_applies_the_limits(monkeypatch) -> None:
    """Called directly (as a client may), the comparison refuses what any request is refused:
    too many types or resamples, a system column beyond the text limits; and it works within
    the budget and a turn."""
    chosen = events.read_options(
        rouge_types=["rouge1"], use_stemmer=False, tokenizer="default",
        split_sentences="newline", multi_ref="best", beta=1.0,
    )  # fmt: skip
    long = {"base": "a b", "system": words(limits.MAX_TEXT_TOKENS + 1), "refs": "a b"}
    rows = "\n".join(json.dumps(row) for row in [long, {"base": "c", "system": "c", "refs": "c"}])
    args = (None, rows, "base", ["refs"], ["system"], 0.95, 100, 0)
    with pytest.raises(gr.Error, match="5,001 tokens: the Space takes 5,000"):
        corpus_tab.compare_corpus(*args, chosen)
    with pytest.raises(gr.Error, match="9 ROUGE types"):
        corpus_tab.compare_corpus(*args, {**chosen, "rouge_types": NINE_TYPES})
    with pytest.raises(gr.Error, match="rouge9"):
        corpus_tab.compare_corpus(*args, {**chosen, "rouge_types": ["rouge9+synonyms"]})
    with pytest.raises(gr.Error, match="10,001 resamples"):
        corpus_tab.compare_corpus(*args[:6], 10_001, 0, chosen)
    turns = []
    real_turn = workers.turn

    def counted_turn(work, budget):
        turns.append(work.characters)
        return real_turn(work, budget)

    monkeypatch.setattr(workers, "turn", counted_turn)
    fine = "\n".join(json.dumps({"base": "a b", "system": "a c", "refs": "a b"}) for _ in range(3))
    assert "Baseline: base" in corpus_tab.compare_corpus(None, fine, *args[2:], chosen)
    assert turns == [3 * 2 * (3 + 3)]  # 3 rows: baseline + references, system + references
    with pytest.raises(LimitError, match="more than 30 s"):
        spent = Budget(seconds=-1)
        comparison_module.compare_corpus(None, fine, *args[2:], chosen, budget=spent)


def test_options_beyond_the_limits_are_refused_when_read() -> None:
    with pytest.raises(gr.Error, match="9 ROUGE types"):
        events.read_options(
            rouge_types=NINE_TYPES, use_stemmer=False,
            tokenizer="default", split_sentences="newline", multi_ref="best", beta=1.0,
        )  # fmt: skip


@pytest.mark.parametrize(
    ("error", "message"),
    [
        (LimitError("9 ROUGE types: the Space takes at most 8"), "at most 8"),
        (MemoryError(), "ran out of memory"),
        (RecursionError(), "nested too deeply"),
        (OverflowError(), "number too large"),
    ],
)
def test_errors_become_a_message_and_one_log_line(error, message, caplog) -> None:
    caplog.set_level(logging.INFO, logger="rouge_plus.space")
    with pytest.raises(gr.Error, match=message) as caught, refusals.user_errors():
        raise error
    assert caught.value.print_exception is False  # no traceback in the console
    assert [r.getMessage() for r in caplog.records] == [f"refused: {caught.value.message}"]


def test_a_single_pair_of_twenty_thousand_decomposed_characters_is_quick() -> None:
    settings = events.read_options(
        rouge_types=["rouge1", "rouge2", "rougeL", "rougeLsum"], use_stemmer=False,
        tokenizer="default", split_sentences="newline", multi_ref="best", beta=1.0,
    )  # fmt: skip
    started = time.process_time()
    table, highlights, _ = pair_tab.score_single("e\u0301" * 9_999, "é", 1, settings)
    assert time.process_time() - started < 5
    assert "ROUGE-1" in table and "rp-both" in highlights


def test_json_numbers_too_long_and_nesting_too_deep_are_messages() -> None:
    digits = '{"prediction": "a", "references": "[' + "1" * 5000 + ']"}'
    assert reference_cell(parse_records(digits, "x", jsonl=True)[0][1]["references"], "x") == [
        "[" + "1" * 5000 + "]"
    ]
    for text, message in [
        ('{"prediction": ' + "1" * 5000 + "}", "not valid JSON"),
        ('{"prediction": ' + "[" * 100_000 + "]" * 100_000 + "}", "nested too deeply"),
    ]:
        with pytest.raises(gr.Error, match=message), refusals.user_errors():
            files.load_source(None, text)


def test_downloads_of_earlier_requests_are_deleted(monkeypatch) -> None:
    first = files.download_folder()
    (first / "scores.csv").write_text("x")
    assert first.exists()
    monkeypatch.setattr(files, "DOWNLOAD_KEEP_S", -1)
    second = files.download_folder()
    assert not first.exists() and second.exists()


def test_histogram_bins_equal_values_that_differ_in_the_last_bit() -> None:
    scores = np.array([[0.8, 0.8, 0.8], [0.8, 0.8, 0.8000000000000002], [0.1, 0.1, 0.1]])
    figure = histogram.histogram_figure(ExampleScores({"rouge1": scores}, ScoreOptions(), ""))
    heights = [patch.get_height() for patch in figure.axes[0].patches]
    assert sorted(heights, reverse=True)[:2] == [2, 1]

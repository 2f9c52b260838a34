"""Load on a running Space (``app.py`` on 127.0.0.1): bursts of requests at its limits through
every scoring event, small requests timed while they run, and the server's memory and CPU
time; shared by tests/frontends/test_space_load.py and benchmarks/space_load.py."""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import multiprocessing.synchronize
import os
import random
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import gradio_client
import httpx

from rouge_plus.space import limits
from support.raw_events import RawSession

LARGE_TYPES = ["rouge1", "rouge2", "rouge4", "rougeL", "rougeLsum", "rougeW", "rougeSU4", "rougeS*"]
WEIGHTED_TYPES = [f"rougeW-{w}" for w in (1, 1.2, 1.4, 1.6, 1.8, 2, 2.5, 3)]
SMALL = {"predictions": ["the cat sat on the mat"], "references": [["a cat sat on a mat"]]}
# Per kind of event: how many of the 20 large requests go through it.
LARGE_REQUESTS = {"api": 8, "pair": 4, "corpus": 4, "compare": 4}
PROBE_EVERY_S = 0.5  # small requests during a burst, one after the other with this pause


def _status(pid: int, key: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1])
    raise KeyError(key)


def rss_mib(pid: int) -> float:
    return _status(pid, "VmRSS") / 1024


def cpu_seconds(pid: int) -> float:
    """CPU time of process ``pid`` and of its children that have ended and been waited for."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return sum(int(fields[k]) for k in (11, 12, 13, 14)) / os.sysconf("SC_CLK_TCK")


def tree_cpu_seconds(pid: int) -> float:
    """CPU time of ``pid`` and of every process below it (the workers, their server)."""
    below = [
        int(child)
        for task in Path(f"/proc/{pid}/task").iterdir()
        if (task / "children").exists()
        for child in (task / "children").read_text().split()
    ]
    total = cpu_seconds(pid)
    for child in below:
        with contextlib.suppress(FileNotFoundError, ProcessLookupError):  # it ended
            total += tree_cpu_seconds(child)
    return total


def text_at_the_limits(rng: random.Random) -> str:
    """5,000 tokens in 19,999 characters, in lines of 25 words (sentences for rougeLsum)."""
    vocabulary = [f"{a}{b}{c}" for a in "abcdefgh" for b in "aeiou" for c in "nprst"]
    tokens = [rng.choice(vocabulary) for _ in range(limits.MAX_TEXT_TOKENS)]
    lines = [" ".join(tokens[i : i + 25]) for i in range(0, len(tokens), 25)]
    return "\n".join(lines)


def large_request(seed: int) -> tuple[list[str], list[list[str]]]:
    """As many rows of a prediction and 10 references at the limits as 5 MB holds."""
    rng = random.Random(seed)
    texts = [text_at_the_limits(rng) for _ in range(40)]  # rows share texts: quicker to make
    row_bytes = (1 + limits.MAX_REFERENCES) * 20_000
    rows = limits.MAX_UPLOAD_BYTES // row_bytes
    predictions = [texts[row % 40] for row in range(rows)]
    references = [
        [texts[(row + k + 1) % 40] for k in range(limits.MAX_REFERENCES)] for row in range(rows)
    ]
    return predictions, references


def empty_request() -> tuple[list[str], list[list[str]]]:
    """10,000 rows of an empty prediction with 10 empty references: no characters at all."""
    return [""] * limits.MAX_ROWS, [[""] * limits.MAX_REFERENCES for _ in range(limits.MAX_ROWS)]


def news_corpus(rows: int, seed: int = 0) -> tuple[list[str], list[list[str]]]:
    """``rows`` rows the size of a news summary's: a prediction of 60 words and a reference of
    150, in sentences of 20 words, drawn from a 5,000-word vocabulary."""
    rng = random.Random(seed)
    vocabulary = [f"w{k}" for k in range(5_000)]

    def text(words: int) -> str:
        tokens = rng.choices(vocabulary, k=words)
        return "\n".join(" ".join(tokens[i : i + 20]) for i in range(0, words, 20))

    return [text(60) for _ in range(rows)], [[text(150)] for _ in range(rows)]


def pasted_corpus(predictions: list[str], references: list[list[str]], with_system: bool) -> str:
    """JSON Lines of at most 5 MB: prediction, references (up to 4; and, with
    ``with_system``, a system column: the fifth reference)."""
    lines, size = [], 0
    for prediction, refs in zip(predictions, references, strict=True):
        record = {"prediction": prediction, "references": refs[:4]}
        if with_system:
            record["system"] = refs[4]
        line = json.dumps(record)
        size += len(line) + 1
        if size > limits.MAX_UPLOAD_BYTES - 1000:
            break
        lines.append(line)
    return "\n".join(lines)


def read_options(session: RawSession, tab: str, rouge_types: list[str]) -> None:
    """The page's first step: the options into the tab's state (the pair's, or the corpus')."""
    names = [name for name in session.fn_index if name.startswith("read_option_components")]
    pick = min if tab == "pair" else max
    name = pick(names, key=session.fn_index.get)
    read = session.call(name, session.default_inputs(name, rouge_types=rouge_types))
    assert read["success"], read["output"]


@dataclass
class Outcome:
    """One request: its kind, the seconds from its submission to its answer, and "scored" or
    the error it was answered with."""

    kind: str
    seconds: float
    answer: str

    def past_the_budget(self) -> float:
        return self.seconds - limits.TIME_BUDGET_S


def run_request(
    kind: str,
    client: gradio_client.Client | RawSession,
    request: tuple[list[str], list[list[str]]],
    rouge_types: list[str] = LARGE_TYPES,
    **options: object,
) -> Outcome:
    """One request through the event ``kind`` ("api", "pair", "corpus" or "compare"; with an API
    client for the API, else a page's session), after the page's preparatory events."""
    predictions, references = request
    if kind == "api":
        started = time.monotonic()
        try:
            client.predict(
                predictions, references, rouge_types=rouge_types, **options, api_name="/score"
            )
            answer = "scored"
        except gradio_client.exceptions.AppError as error:
            answer = str(error)
        return Outcome(kind, time.monotonic() - started, answer)
    session = client
    if kind == "pair":
        read_options(session, "pair", WEIGHTED_TYPES)
        name, data = "score_single", [predictions[0], "\n---\n".join(references[0]), 1, None]
    else:
        read_options(session, "corpus", rouge_types)
        pasted = pasted_corpus(predictions, references, with_system=kind == "compare")
        assert session.call("update_columns", [None, pasted])["success"]  # the pickers' choices
        columns = [None, pasted, "prediction", ["references"]]
        name, data = "score_corpus", [*columns, 0.95, 1000, 0, None]
        if kind == "compare":  # the picker's choices
            assert session.call("update_compare_columns", columns)["success"]
            name, data = "compare_corpus", [*columns, ["system"], 0.95, 1000, 0, None]
    started = time.monotonic()
    answer = session.call(name, data)
    outcome = "scored" if answer["success"] else str(answer["output"].get("error"))
    return Outcome(kind, time.monotonic() - started, outcome)


def client_for(kind: str, url: str) -> gradio_client.Client | RawSession:
    return gradio_client.Client(url, verbose=False) if kind == "api" else RawSession(url)


@dataclass
class Burst:
    """What a burst of requests did: each request's outcome, the small /score requests timed
    while they ran, and the server's memory before, at its peak seen, and after."""

    outcomes: list[Outcome]
    small_seconds: list[float]
    refused_seconds: list[float]
    rss_before: float
    rss_peak: float
    rss_after: float = 0.0
    cpu_after: float = 0.0
    slowest_small_at: float = 0.0  # seconds after the burst's start

    def worst_overrun(self) -> float:
        return max(outcome.past_the_budget() for outcome in self.outcomes)

    def summary(self, name: str) -> str:
        answers = sorted({(o.kind, o.answer[:48]) for o in self.outcomes})
        small = max(self.small_seconds, default=float("nan"))
        return (
            f"{name}: {len(self.outcomes)} requests answered within "
            f"{max(o.seconds for o in self.outcomes):.1f} s (worst {self.worst_overrun():+.1f} s "
            f"past the {limits.TIME_BUDGET_S} s budget): {answers}; {len(self.small_seconds)} "
            f"small /score requests during it, slowest {small:.2f} s (sent "
            f"{self.slowest_small_at:.1f} s into the burst); over-limit ones refused "
            f"in {max(self.refused_seconds, default=float('nan')):.2f} s; server RSS "
            f"{self.rss_before:.0f} MiB before, {self.rss_peak:.0f} at its peak, "
            f"{self.rss_after:.0f} after; server CPU in the 3 s after: {self.cpu_after:.2f} s"
        )


def _ready(barrier: multiprocessing.synchronize.Barrier) -> None:
    """A client process's start: its imports done, it waits for the others."""
    barrier.wait()


def _run_job(url: str, kind: str, request: tuple, options: dict) -> Outcome:
    """One request, in a client process of its own, as a client elsewhere would send it."""
    return run_request(kind, client_for(kind, url), request, **options)


def _probe(url: str, pid: int, stop: threading.Event, found: multiprocessing.Queue) -> None:
    """Small /score requests one after the other until ``stop``, now and then one over a limit,
    in a process of its own: ("small" or "refused", seconds after the start, seconds taken),
    and ("rss", the server's RSS), into ``found``."""
    client = gradio_client.Client(url, verbose=False)
    start = time.monotonic()
    count = 0
    while not stop.is_set():
        started = time.monotonic()
        try:
            result = client.predict(**SMALL, api_name="/score")
        except (OSError, httpx.HTTPError):  # a connection timed out: as slow as it took
            result = {"rouge1": None}
        found.put(("small", started - start, time.monotonic() - started))
        assert result["rouge1"] != 0
        count += 1
        if count % 10 == 1:
            started = time.monotonic()
            try:
                client.predict(["a"], [["a"] * 11], api_name="/score")
            except gradio_client.exceptions.AppError as error:
                assert "at most 10" in str(error)
                found.put(("refused", started - start, time.monotonic() - started))
        found.put(("rss", 0.0, rss_mib(pid)))
        stop.wait(PROBE_EVERY_S)


def burst(url: str, pid: int, jobs: list[tuple[str, tuple, dict]]) -> Burst:
    """``jobs`` (kind, request, options) all at once, each from a client process of its own
    (started before the burst), while small /score requests are timed one after the other,
    from another process, from its start to its end; then the server's memory once a request
    has ended (freed memory goes back then) and its CPU time in the 3 s after (work left
    running)."""
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(len(jobs) + 1)
    rss_before = rss_mib(pid)
    with context.Pool(len(jobs), initializer=_ready, initargs=(barrier,)) as pool:
        barrier.wait()
        stop, found = context.Event(), context.Queue()
        prober = context.Process(target=_probe, args=(url, pid, stop, found))
        prober.start()
        pending = [pool.apply_async(_run_job, (url, *job)) for job in jobs]
        outcomes = [job.get(timeout=limits.TIME_BUDGET_S + 120) for job in pending]
        stop.set()
        prober.join(timeout=60)
    measured: dict[str, list[tuple[float, float]]] = {"small": [], "refused": [], "rss": []}
    while not found.empty():
        what, at, value = found.get()
        measured[what].append((at, value))
    result = Burst(
        outcomes,
        [seconds for _, seconds in measured["small"]],
        [seconds for _, seconds in measured["refused"]],
        rss_before,
        max([rss_before, *(rss for _, rss in measured["rss"])]),
    )
    if measured["small"]:
        result.slowest_small_at = max(measured["small"], key=lambda small: small[1])[0]
    time.sleep(1)
    before = tree_cpu_seconds(pid)
    time.sleep(3)
    result.cpu_after = tree_cpu_seconds(pid) - before
    # Memory comes back at the end of a request (the allocator trimmed): the least RSS over three
    # small requests a couple of seconds apart, so that the cleanup still under way when the
    # burst's last answer came (Gradio's cache, a worker's pipes) is not counted as kept.
    client = gradio_client.Client(url, verbose=False)
    readings = []
    for _ in range(3):
        client.predict(**SMALL, api_name="/score")
        time.sleep(2)
        readings.append(rss_mib(pid))
    result.rss_after = min(readings)
    return result


def at_the_limits(seed: int = 0) -> list[tuple[str, tuple, dict]]:
    """The 20 requests at the Space's limits, through every scoring event."""
    request = large_request(seed)
    return [(kind, request, {}) for kind, count in LARGE_REQUESTS.items() for _ in range(count)]


def warm_up(url: str) -> None:
    """Load WordNet, the tagger, NLTK, matplotlib (a corpus' histogram), SciPy's statistics
    (the comparison's power analysis): the idle level of a used server."""
    client = gradio_client.Client(url, verbose=False)
    for _ in range(2):
        client.predict(**SMALL, rouge_types=LARGE_TYPES, api_name="/score")
    rows = ([f"the cat sat on mat {k}" for k in range(5)], [["a cat sat"] * 5] * 5)
    for kind in ("corpus", "compare"):
        assert run_request(kind, RawSession(url), rows).answer == "scored"
    time.sleep(2)

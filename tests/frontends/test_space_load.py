"""The public Space under load, on 127.0.0.1, on the pure-Python kernels a Space runs (bounded:
20 large requests and a few small ones, each answered within the time budget; about a minute).

While 20 requests at the Space's limits are in flight through every scoring event (the /score
API, the single pair, the corpus, its comparison), a small /score request answers in under 2 s
and an over-limit one is refused in under 1 s; no request works more than 5 s past the budget
(each is answered by then, and the server is idle once all are); afterwards the server's memory
is back within 20% of its idle level. A request whose client leaves stops working.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # a server under bursts of requests: minutes

pytest.importorskip("gradio", reason="the app needs gradio")
gradio_client = pytest.importorskip("gradio_client")

from support.app_server import app_process  # noqa: E402
from support.raw_events import RawSession  # noqa: E402

from rouge_plus.space import limits  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
LARGE_TYPES = ["rouge1", "rouge2", "rouge4", "rougeL", "rougeLsum", "rougeW", "rougeSU4", "rougeS*"]
WEIGHTED_TYPES = [f"rougeW-{w}" for w in (1, 1.2, 1.4, 1.6, 1.8, 2, 2.5, 3)]
SMALL = {"predictions": ["the cat sat on the mat"], "references": [["a cat sat on a mat"]]}
# Per kind of event: how many of the 20 large requests go through it.
LARGE_REQUESTS = {"api": 8, "pair": 4, "corpus": 4, "compare": 4}
PAST_THE_BUDGET_S = 5


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


def pasted_corpus(predictions: list[str], references: list[list[str]], with_system: bool) -> str:
    """JSON Lines of at most 5 MB: prediction, references (and a system column)."""
    lines, size = [], 0
    for row, (prediction, refs) in enumerate(zip(predictions, references, strict=True)):
        record = {"prediction": prediction, "references": refs[:4]}
        if with_system:
            record["system"] = refs[4]
        line = json.dumps(record)
        size += len(line) + 1
        if size > limits.MAX_UPLOAD_BYTES - 1000 or row >= 40:
            break
        lines.append(line)
    return "\n".join(lines)


@pytest.fixture(scope="module")
def server():
    if not Path("/proc/self/status").is_file():
        pytest.skip("reads the server's memory and CPU time in /proc")
    env = {**os.environ, "ROUGE_PLUS_PURE_PYTHON": "1"}  # what a Space runs
    with app_process(env=env) as (url, process):
        yield url, process.pid


def read_options(session: RawSession, tab: str, rouge_types: list[str]) -> None:
    """The page's first step: the options into the tab's state (the pair's, or the corpus')."""
    names = [name for name in session.fn_index if name.startswith("read_option_components")]
    name = min(names, key=session.fn_index.get) if tab == "pair" else max(
        names, key=session.fn_index.get
    )
    read = session.call(name, session.default_inputs(name, rouge_types=rouge_types))
    assert read["success"], read["output"]


def run_large(
    kind: str, client: gradio_client.Client | RawSession, request: tuple[list[str], list[list[str]]]
) -> tuple:
    """One large request through the event ``kind`` (with ``client``, an API client for the
    API, else a page's session), after the page's preparatory events: (kind, seconds from its
    submission to its answer, "scored" or the error)."""
    predictions, references = request
    if kind == "api":
        started = time.monotonic()
        try:
            client.predict(predictions, references, rouge_types=LARGE_TYPES, api_name="/score")
            outcome = "scored"
        except gradio_client.exceptions.AppError as error:
            outcome = str(error)
        return kind, time.monotonic() - started, outcome
    session = client
    if kind == "pair":
        read_options(session, "pair", WEIGHTED_TYPES)
        name, data = "score_single", [predictions[0], "\n---\n".join(references[0]), 1, None]
    else:
        read_options(session, "corpus", LARGE_TYPES)
        pasted = pasted_corpus(predictions, references, with_system=kind == "compare")
        assert session.call("update_columns", [None, pasted])["success"]  # the pickers' choices
        columns = [None, pasted, "prediction", ["references"]]
        name, data = "score_corpus", [*columns, 0.95, 1000, 0, None]
        if kind == "compare":
            session.call("update_compare_columns", [None, pasted, "prediction"])
            name, data = "compare_corpus", [*columns, ["system"], 0.95, 1000, 0, None]
    started = time.monotonic()
    answer = session.call(name, data)
    outcome = "scored" if answer["success"] else str(answer["output"].get("error"))
    return kind, time.monotonic() - started, outcome


def test_small_requests_answer_while_twenty_large_ones_run_and_memory_returns(server) -> None:
    url, pid = server
    client = gradio_client.Client(url, verbose=False)
    for _ in range(2):  # loads WordNet, the tagger, NLTK: the idle level of a used server
        client.predict(**SMALL, rouge_types=LARGE_TYPES, api_name="/score")
    time.sleep(2)
    idle = rss_mib(pid)
    request = large_request(0)

    kinds = [kind for kind, count in LARGE_REQUESTS.items() for _ in range(count)]
    clients = [  # connected before the burst, as clients would be
        gradio_client.Client(url, verbose=False) if kind == "api" else RawSession(url)
        for kind in kinds
    ]
    with ThreadPoolExecutor(max_workers=len(kinds)) as pool:
        jobs = [pool.submit(run_large, *job, request) for job in zip(kinds, clients, strict=True)]
        time.sleep(5)  # the large requests are working, or waiting for their turn
        assert [job.result() for job in jobs if job.done()] == []
        small_seconds = []
        for _ in range(3):
            started = time.monotonic()
            result = client.predict(**SMALL, api_name="/score")
            small_seconds.append(time.monotonic() - started)
            assert result["rouge1"] > 0
            time.sleep(3)
        started = time.monotonic()
        with pytest.raises(gradio_client.exceptions.AppError, match="at most 10"):
            client.predict(["a"], [["a"] * 11], api_name="/score")
        refused_seconds = time.monotonic() - started
        peak = rss_mib(pid)
        outcomes = [job.result(timeout=limits.TIME_BUDGET_S + 60) for job in jobs]

    time.sleep(1)
    before = tree_cpu_seconds(pid)
    time.sleep(3)
    working_after = tree_cpu_seconds(pid) - before
    client.predict(**SMALL, api_name="/score")  # a request ends: freed memory goes back
    time.sleep(2)
    after = rss_mib(pid)
    longest = max(seconds for _, seconds, _ in outcomes)
    print(
        f"\nsmall requests {[f'{s:.2f}' for s in small_seconds]} s, refusal "
        f"{refused_seconds:.2f} s; large requests answered within {longest:.1f} s "
        f"(budget {limits.TIME_BUDGET_S} s): "
        f"{sorted((kind, outcome[:40]) for kind, _, outcome in outcomes)}; server CPU in the "
        f"3 s after them: {working_after:.2f} s; server RSS: idle {idle:.0f} MiB, under load "
        f"{peak:.0f} MiB, after {after:.0f} MiB"
    )
    assert max(small_seconds) < 2
    assert refused_seconds < 1
    for _, _, outcome in outcomes:
        assert outcome == "scored" or f"more than {limits.TIME_BUDGET_S} s" in outcome, outcome
    assert longest < limits.TIME_BUDGET_S + PAST_THE_BUDGET_S
    assert working_after < 0.5, "work went on after every request was answered"
    assert after < idle * 1.2, "memory does not return to its idle level"


def test_a_request_stops_working_when_its_client_leaves(server) -> None:
    url, pid = server
    script = (
        "import sys, time, json\n"
        "from gradio_client import Client\n"
        "predictions, references = json.loads(sys.stdin.read())\n"
        "job = Client(sys.argv[1], verbose=False).submit(\n"
        f"    predictions, references, rouge_types={LARGE_TYPES!r}, api_name='/score')\n"
        "print('submitted', flush=True)\n"
        "time.sleep(600)\n"
    )
    client = subprocess.Popen(
        [sys.executable, "-c", script, url],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        client.stdin.write(json.dumps(large_request(9)))
        client.stdin.close()
        assert client.stdout.readline().strip() == "submitted"
        time.sleep(4)
        working = tree_cpu_seconds(pid)
        time.sleep(2)
        assert tree_cpu_seconds(pid) - working > 0.5  # it is working
    finally:
        client.kill()
        client.wait()
    time.sleep(3)  # Gradio's notice that the client left
    before = tree_cpu_seconds(pid)
    time.sleep(4)
    spent = tree_cpu_seconds(pid) - before
    print(f"\nserver CPU in the 4 s after the client left (3 s later): {spent:.2f} s")
    assert spent < 1

"""The public Space under load, on 127.0.0.1 (bounded: four large requests, a few small ones,
about a minute): while four requests at the Space's limits run, a small request still answers
in under 2 s and an over-limit one is refused in under 1 s; a request whose client leaves stops
working; afterwards the server's memory is back near its idle level."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("gradio", reason="the app needs gradio")
gradio_client = pytest.importorskip("gradio_client")

from support.app_server import app_process  # noqa: E402

from rouge_plus.space import limits  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
LARGE_TYPES = ["rouge1", "rouge2", "rouge4", "rougeL", "rougeLsum", "rougeW", "rougeSU4", "rougeS*"]


def _status(pid: int, key: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1])
    raise KeyError(key)


def rss_mib(pid: int) -> float:
    return _status(pid, "VmRSS") / 1024


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def text_at_the_limits(rng: random.Random) -> str:
    """5,000 tokens in 19,999 characters, in lines of 25 words (sentences for rougeLsum)."""
    vocabulary = [f"{a}{b}{c}" for a in "abcdefgh" for b in "aeiou" for c in "nprst"]
    tokens = [rng.choice(vocabulary) for _ in range(limits.MAX_TEXT_TOKENS)]
    lines = [" ".join(tokens[i : i + 25]) for i in range(0, len(tokens), 25)]
    return "\n".join(lines)


def large_request(seed: int) -> tuple[list[str], list[list[str]]]:
    """As many rows of a prediction and 10 references at the limits as 5 MB holds."""
    rng = random.Random(seed)
    row_bytes = (1 + limits.MAX_REFERENCES) * 20_000
    rows = limits.MAX_UPLOAD_BYTES // row_bytes
    predictions = [text_at_the_limits(rng) for _ in range(rows)]
    references = [
        [text_at_the_limits(rng) for _ in range(limits.MAX_REFERENCES)] for _ in range(rows)
    ]
    return predictions, references


@pytest.fixture(scope="module")
def server():
    if not Path("/proc/self/status").is_file():
        pytest.skip("reads the server's memory and CPU time in /proc")
    with app_process() as (url, process):
        yield url, process.pid


def test_small_requests_answer_while_large_ones_run_and_memory_returns(server) -> None:
    url, pid = server
    client = gradio_client.Client(url, verbose=False)
    small = {"predictions": ["the cat sat on the mat"], "references": [["a cat sat on a mat"]]}
    for _ in range(2):  # loads WordNet, the tagger, NLTK: the idle level of a used server
        client.predict(**small, rouge_types=LARGE_TYPES, api_name="/score")
    time.sleep(2)
    idle = rss_mib(pid)

    jobs = []
    for seed in range(4):
        predictions, references = large_request(seed)
        large_client = gradio_client.Client(url, verbose=False)
        jobs.append(
            large_client.submit(predictions, references, rouge_types=LARGE_TYPES, api_name="/score")
        )
    time.sleep(3)  # the large requests are working (or waiting for their turn)
    assert not any(job.done() for job in jobs)

    started = time.monotonic()
    result = client.predict(**small, api_name="/score")
    small_seconds = time.monotonic() - started
    assert result["rouge1"] > 0

    started = time.monotonic()
    with pytest.raises(gradio_client.exceptions.AppError, match="at most 10"):
        client.predict(["a"], [["a"] * 11], api_name="/score")
    refused_seconds = time.monotonic() - started
    peak = rss_mib(pid)

    outcomes = []
    for job in jobs:
        try:
            outcomes.append(job.result(timeout=limits.TIME_BUDGET_S + 60))
        except gradio_client.exceptions.AppError as error:
            outcomes.append(str(error))
    client.predict(**small, api_name="/score")  # a request ends: freed memory goes back
    time.sleep(2)
    after = rss_mib(pid)
    print(
        f"\nsmall request {small_seconds:.2f} s, refusal {refused_seconds:.2f} s; server RSS: "
        f"idle {idle:.0f} MiB, under load {peak:.0f} MiB, after {after:.0f} MiB; "
        f"large requests: {[o if isinstance(o, str) else 'scored' for o in outcomes]}"
    )
    assert small_seconds < 2
    assert refused_seconds < 1
    assert all(isinstance(o, dict) or f"more than {limits.TIME_BUDGET_S} s" in o for o in outcomes)
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
    import json

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
        working = cpu_seconds(pid)
        time.sleep(2)
        assert cpu_seconds(pid) - working > 0.5  # it is working
    finally:
        client.kill()
        client.wait()
    time.sleep(3)  # the end of the chunk it was scoring, and Gradio's notice
    before = cpu_seconds(pid)
    time.sleep(4)
    spent = cpu_seconds(pid) - before
    print(f"\nserver CPU in the 4 s after the client left (3 s later): {spent:.2f} s")
    assert spent < 1

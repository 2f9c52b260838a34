"""The Space refuses a request's body larger than it takes at the transport, before reading it
whole or parsing it, on every route (rouge_plus.space.request_size): as a middleware, and on a
real server on 127.0.0.1 whose memory does not grow."""

from __future__ import annotations

import asyncio
import json
import select
import socket
import time
from pathlib import Path
from urllib.parse import urlparse

import pytest

from rouge_plus.space.limits import MAX_REQUEST_BYTES, MAX_UPLOAD_BYTES
from rouge_plus.space.request_size import ARRIVED, RequestSizeLimit

MB = 2**20
LIMIT = 1000  # the middleware's limit in the tests without a server


class RecordingApp:
    """An ASGI app that reads the whole body and answers 200: what reached it, and how."""

    def __init__(self) -> None:
        self.bodies: list[bytes] = []

    async def __call__(self, scope, receive, send) -> None:
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body", False):
                break
        self.bodies.append(body)
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})


def serve(chunks: list[bytes], headers: list[tuple[bytes, bytes]] = ()) -> tuple:
    """One request of ``chunks`` through the middleware: (status, response body, the app's
    bodies, how many chunks the middleware read)."""
    app = RecordingApp()
    pending = [
        {"type": "http.request", "body": chunk, "more_body": k < len(chunks) - 1}
        for k, chunk in enumerate(chunks)
    ]
    read = []
    sent = []

    async def receive():
        read.append(1)
        return pending.pop(0) if pending else {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/gradio_api/queue/join", "headers": headers}
    asyncio.run(RequestSizeLimit(app, LIMIT)(scope, receive, send))
    return sent[0]["status"], sent[1]["body"], app.bodies, len(read)


def test_a_declared_length_over_the_limit_is_refused_before_a_byte_is_read() -> None:
    status, body, reached, read = serve([b"x" * 10], [(b"content-length", b"200000000")])
    assert (status, reached, read) == (413, [], 0)
    assert "larger than the" in json.loads(body)["detail"]


def test_a_body_without_a_length_is_refused_once_too_much_has_arrived() -> None:
    status, _, reached, read = serve([b"x" * 400] * 100)  # 40,000 bytes in chunks
    assert (status, reached, read) == (413, [], 3)  # 1,200 bytes read, not 40,000


def test_a_request_is_stamped_with_its_arrival() -> None:
    scope = {"type": "http", "headers": []}
    before = time.monotonic()

    async def receive():
        return {"type": "http.request", "body": b"{}", "more_body": False}

    async def send(message):
        pass

    asyncio.run(RequestSizeLimit(RecordingApp(), LIMIT)(scope, receive, send))
    assert before <= scope["state"][ARRIVED] <= time.monotonic()


def test_a_body_within_the_limit_reaches_the_app_whole() -> None:
    chunks = [b"a" * 300, b"b" * 300, b"c" * 400]
    status, body, reached, _ = serve(chunks, [(b"content-length", b"1000")])
    assert (status, body, reached) == (200, b"ok", [b"".join(chunks)])


def test_the_transport_limit_leaves_room_for_the_texts_the_space_takes() -> None:
    """5 MB of text fits even when JSON escapes every character into two bytes (quotes, line
    breaks), as the page and gradio_client send it: UTF-8, not \\u escapes."""
    for text in ('"\n' * (MAX_UPLOAD_BYTES // 2), "猫" * (MAX_UPLOAD_BYTES // 3)):
        data = {"data": [[text], [[""]]], "fn_index": 0, "session_hash": "x" * 32}
        body = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
        assert len(body) < MAX_REQUEST_BYTES


# --- a real server ---------------------------------------------------------------------------

pytest.importorskip("gradio", reason="the app needs gradio")

from support.app_server import app_process  # noqa: E402

ROUTES = [
    "gradio_api/queue/join",
    "gradio_api/call/score",
    "gradio_api/run/predict",
    "gradio_api/upload",
]


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise KeyError("VmRSS")


@pytest.fixture(scope="module")
def server():
    if not Path("/proc/self/status").is_file():
        pytest.skip("reads the server's memory in /proc")
    with app_process() as (url, process):
        yield urlparse(url), process.pid


def response_of(sock: socket.socket) -> bytes:
    sock.settimeout(30)
    answer = b""
    while b"\r\n\r\n" not in answer or len(answer.split(b"\r\n\r\n", 1)[1]) == 0:
        data = sock.recv(65536)
        if not data:
            break
        answer += data
    return answer


def connect(address) -> socket.socket:
    return socket.create_connection((address.hostname, address.port), timeout=30)


def head(address, route: str, extra: str) -> bytes:
    return (
        f"POST /{route} HTTP/1.1\r\nHost: {address.hostname}:{address.port}\r\n"
        f"Content-Type: application/json\r\n{extra}\r\n"
    ).encode()


@pytest.mark.parametrize("route", ROUTES)
def test_a_200_mb_request_is_refused_before_it_is_sent(server, route) -> None:
    address, _ = server
    with connect(address) as sock:
        started = time.monotonic()
        sock.sendall(head(address, route, f"Content-Length: {200 * MB}\r\n"))
        answer = response_of(sock)
        seconds = time.monotonic() - started
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert b"larger than the 11 MB the Space takes" in answer
    assert seconds < 2


def send_chunked(address, route: str, total: int) -> tuple[int, bytes]:
    """Up to ``total`` bytes of JSON-looking text in chunks of 1 MB, without a length, until
    the server answers: (bytes sent, its answer)."""
    chunk = b'"' + b"a" * (MB - 2) + b'"'
    frame = f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n"
    sent = 0
    with connect(address) as sock:
        sock.sendall(head(address, route, "Transfer-Encoding: chunked\r\n"))
        try:
            while sent < total:
                if select.select([sock], [], [], 0)[0]:
                    break  # the server answered
                sock.sendall(frame)
                sent += len(chunk)
        except (BrokenPipeError, ConnectionResetError):
            pass
        return sent, response_of(sock)


def test_a_chunked_200_mb_paste_is_refused_once_past_the_limit_and_memory_stays(server) -> None:
    address, pid = server
    before = rss_mib(pid)
    outcomes = [send_chunked(address, "gradio_api/queue/join", 200 * MB) for _ in range(4)]
    time.sleep(1)
    grown = rss_mib(pid) - before
    sent = [sent // MB for sent, _ in outcomes]
    print(f"\nsent before the refusal: {sent} MB; server RSS {before:.0f} MiB, then +{grown:.1f}")
    for sent, answer in outcomes:
        assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
        assert sent < MAX_REQUEST_BYTES + 16 * MB  # what the sockets' buffers held besides
    assert grown < 30


def test_a_request_within_the_limit_is_answered(server) -> None:
    gradio_client = pytest.importorskip("gradio_client")
    address, _ = server
    client = gradio_client.Client(address.geturl(), verbose=False)
    assert client.predict(["the cat"], [["a cat"]], api_name="/score")["rouge1"] == 0.5

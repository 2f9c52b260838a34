"""The transport's limit on a request's size: a body larger than the Space takes is refused
before it is read whole, let alone parsed, whatever the route (every event of the page, the API,
uploads).

Gradio reads and parses a request's whole JSON body before any handler can look at its size, so
the limits of :mod:`.limits` came too late for a large paste: one of 200 MB left the server
455 MB larger for good. :class:`RequestSizeLimit` is an ASGI middleware in front of Gradio's
app: a body whose declared length (``Content-Length``) is too large is refused at once, and a
body sent without one (chunked) is refused as soon as what has arrived is too large; a body
within the limit is handed on as it came, with the moment its first byte came (``ARRIVED``, in
the scope's ``state``: what Starlette's ``request.state`` reads), from which its time budget
counts: sending and parsing a large request takes seconds on a busy server.
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

PAYLOAD_TOO_LARGE = 413
ARRIVED = "rouge_plus_arrived"  # the key of the arrival's time.monotonic() in the scope's state


class RequestSizeLimit:
    """ASGI middleware: HTTP requests whose body exceeds ``max_bytes`` get a 413 response whose
    ``detail`` says so, and never reach ``app``."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        scope.setdefault("state", {})[ARRIVED] = time.monotonic()
        if _declared_length(scope) > self.max_bytes:
            await self._refuse(send)
            return
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client left: let the app see it
                await self.app(scope, _replay([message], receive), send)
                return
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            if size > self.max_bytes:
                await self._refuse(send)
                return
            if not message.get("more_body", False):
                break
        body = {"type": "http.request", "body": b"".join(chunks), "more_body": False}
        del chunks
        await self.app(scope, _replay([body], receive), send)

    async def _refuse(self, send: Send) -> None:
        detail = (
            f"The request is larger than the {self.max_bytes / 2**20:.0f} MB the Space takes: "
            "score fewer or shorter texts at a time, or use the rouge-plus command line."
        )
        content = json.dumps({"detail": detail}).encode()
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(content)).encode()),
            (b"connection", b"close"),
        ]
        await send({"type": "http.response.start", "status": PAYLOAD_TOO_LARGE, "headers": headers})
        await send({"type": "http.response.body", "body": content})


def _declared_length(scope: Scope) -> int:
    """The request's ``Content-Length`` (0 when absent or unreadable: the body is then counted
    as it arrives)."""
    for name, value in scope.get("headers", ()):
        if name.lower() == b"content-length":
            try:
                return int(value)
            except ValueError:
                return 0
    return 0


def _replay(messages: list[Message], receive: Receive) -> Receive:
    """A ``receive`` that gives ``messages`` first, then what ``receive`` gives."""
    pending = list(messages)

    async def replayed() -> Message:
        return pending.pop(0) if pending else await receive()

    return replayed

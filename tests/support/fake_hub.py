"""A minimal Hugging Face Hub on 127.0.0.1 that serves one Space from a local directory.

It answers the requests the Hub's clients make for a file, in the Hub's URL layout and with the
Hub's headers, so ``HF_ENDPOINT=<its url>`` makes ``evaluate.load("<owner>/<name>")`` and
``huggingface_hub.hf_hub_download`` fetch from it:

- ``HEAD|GET /spaces/<owner>/<name>/resolve/<revision>/<path>``: the file, with ``ETag`` (the
  git blob id, as the Hub gives it for files not stored in LFS), ``X-Repo-Commit`` and
  ``Content-Length``; a revision other than ``main`` or the commit id is ``404`` with
  ``X-Error-Code: RevisionNotFound``, a missing file ``404`` with ``EntryNotFound``, another
  repository ``401`` with ``RepoNotFound`` (the Hub does not tell a missing repository from a
  private one);
- ``GET /api/spaces/<owner>/<name>`` and ``.../revision/<revision>``: the repository's id, commit
  and file list.

Every request is recorded. Proxied requests (an absolute URL or ``CONNECT``) are refused and
recorded too: a test points ``HTTP(S)_PROXY`` here so that a request for any other host is
caught instead of leaving the machine.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit


@dataclass
class FakeSpace:
    """One Space: ``owner/name`` with the files under ``root`` on its ``main`` branch."""

    repo_id: str
    root: Path
    files: dict[str, bytes] = field(init=False)
    commit: str = field(init=False)

    def __post_init__(self) -> None:
        paths = sorted(p for p in self.root.rglob("*") if p.is_file())
        self.files = {p.relative_to(self.root).as_posix(): p.read_bytes() for p in paths}
        listing = "\n".join(f"{path} {blob_id(data)}" for path, data in self.files.items())
        self.commit = hashlib.sha1(listing.encode()).hexdigest()


def blob_id(data: bytes) -> str:
    """The git blob id of ``data``: the Hub's ETag for a file kept in git itself."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


@dataclass
class Request:
    method: str
    path: str


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - stdlib name
        return None

    def do_HEAD(self) -> None:  # noqa: N802 - http.server's naming
        self._answer(body=False)

    def do_GET(self) -> None:  # noqa: N802
        self._answer(body=True)

    def do_CONNECT(self) -> None:  # noqa: N802 - an HTTPS request through the proxy setting
        self.server.outside.append(Request("CONNECT", self.path))
        self._send(403, b"", {})

    def _answer(self, body: bool) -> None:
        if not self.path.startswith("/"):  # a proxied request for another host
            self.server.outside.append(Request(self.command, self.path))
            self._send(403, b"", {}, body)
            return
        path = unquote(urlsplit(self.path).path)
        self.server.requests.append(Request(self.command, path))
        status, data, headers = self.server.route(path)
        self._send(status, data, headers, body)

    def _send(self, status: int, data: bytes, headers: dict, body: bool = True) -> None:
        self.send_response(status)
        for name, value in {**headers, "Content-Length": str(len(data))}.items():
            self.send_header(name, value)
        self.end_headers()
        if body:
            self.wfile.write(data)


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, space: FakeSpace) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.space = space
        self.requests: list[Request] = []
        self.outside: list[Request] = []

    def route(self, path: str) -> tuple[int, bytes, dict]:
        space = self.space
        for kind in ("/spaces/", "/api/spaces/"):
            if path.startswith(kind):
                rest = path[len(kind) :]
                break
        else:
            return 404, b"Not Found", {}
        if not (rest == space.repo_id or rest.startswith(space.repo_id + "/")):
            return 401, b"Repository Not Found", {"X-Error-Code": "RepoNotFound"}
        rest = rest[len(space.repo_id) :].lstrip("/")
        if kind == "/api/spaces/":
            revision = rest.removeprefix("revision/") if rest.startswith("revision/") else "main"
            if rest and not rest.startswith("revision/"):
                return 404, b"Not Found", {}
            if revision not in ("main", space.commit):
                return 404, b"Revision Not Found", {"X-Error-Code": "RevisionNotFound"}
            info = {
                "id": space.repo_id,
                "sha": space.commit,
                "siblings": [{"rfilename": name} for name in space.files],
            }
            return 200, json.dumps(info).encode(), {"Content-Type": "application/json"}
        action, _, rest = rest.partition("/")
        revision, _, filename = rest.partition("/")
        if action != "resolve" or not filename:
            return 404, b"Not Found", {}
        if revision not in ("main", space.commit):
            return 404, b"Revision Not Found", {"X-Error-Code": "RevisionNotFound"}
        if filename not in space.files:
            headers = {"X-Error-Code": "EntryNotFound", "X-Repo-Commit": space.commit}
            return 404, b"Entry Not Found", headers
        data = space.files[filename]
        return 200, data, {
            "ETag": f'"{blob_id(data)}"',
            "X-Repo-Commit": space.commit,
            "Content-Type": "text/plain; charset=utf-8",
        }


@contextlib.contextmanager
def serve_space(repo_id: str, root: Path) -> Iterator[_Server]:
    """Serve ``root`` as the Space ``repo_id`` on a free port of 127.0.0.1 until the block ends.

    The server's ``url`` attribute is its address; ``requests`` and ``outside`` record what it
    was asked.
    """
    server = _Server(FakeSpace(repo_id, root))
    server.url = f"http://127.0.0.1:{server.server_address[1]}"  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1})
    thread.daemon = True
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)

"""Run the repository's Gradio ``app.py`` in a subprocess for end-to-end tests."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import IO

REPO = Path(__file__).resolve().parents[2]
# Importing Gradio takes tens of seconds on a busy two-core machine.
STARTUP_TIMEOUT_S = 240


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _responds(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status == 200
    except (urllib.error.URLError, OSError):
        return False


@contextlib.contextmanager
def running_app(
    python: str = sys.executable, cwd: Path = REPO, env: dict[str, str] | None = None
) -> Iterator[str]:
    """Start ``python app.py`` in ``cwd`` (the repository) on 127.0.0.1 at a free port, with
    ``env`` (the current environment) and the Gradio settings; yield its URL; stop it."""
    with app_process(python, cwd, env) as (url, _):
        yield url


@contextlib.contextmanager
def app_process(
    python: str = sys.executable,
    cwd: Path = REPO,
    env: dict[str, str] | None = None,
    log: IO[str] | None = None,
) -> Iterator[tuple[str, subprocess.Popen]]:
    """:func:`running_app`, yielding the server process too (its memory, its CPU time); the
    server's output goes to ``log`` if given. The server is stopped with SIGTERM, as a Space
    stops it."""
    port = free_port()
    env = {
        **(os.environ if env is None else env),
        "GRADIO_SERVER_NAME": "127.0.0.1",
        "GRADIO_SERVER_PORT": str(port),
        "GRADIO_ANALYTICS_ENABLED": "False",
    }
    url = f"http://127.0.0.1:{port}/"
    with contextlib.nullcontext(log) if log else tempfile.TemporaryFile(mode="w+") as log:
        process = subprocess.Popen(
            [python, "app.py"], cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT
        )
        try:
            deadline = time.monotonic() + STARTUP_TIMEOUT_S
            while not _responds(url):
                if process.poll() is not None or time.monotonic() > deadline:
                    log.seek(0)
                    raise RuntimeError(f"app.py did not start at {url}:\n{log.read()[-3000:]}")
                time.sleep(0.5)
            yield url, process
        finally:
            process.terminate()
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()

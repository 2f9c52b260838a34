"""Run an unmodified program with ``rouge_score`` and ``rouge`` on rouge_plus's drop-ins.

    python -m rouge_plus.compat.run -- python train.py --epochs 3
    rouge-plus run -- lm_eval --model hf --tasks truthfulqa_gen ...

The command runs in a child process whose ``PYTHONPATH`` starts with a temporary directory
holding a ``sitecustomize.py`` that calls :func:`rouge_plus.compat.install` at start-up (and then
runs the ``sitecustomize`` it hides, if there is one). Every Python process the command starts
inherits that environment, so worker processes started by ``multiprocessing``'s spawn or
forkserver, or by a process pool, import the drop-ins too; forked workers inherit the
installed import hook. The command's exit status is returned (128 + N when a signal N ended it,
as a shell reports it).

Signals are the command's to handle: SIGTERM and SIGHUP sent to this process are passed on to
the command, and SIGINT too unless the terminal sent it (Ctrl-C reaches every process of the
terminal's foreground process group, the command included); this process then waits for the
command to finish, however long its own shutdown takes, and removes the temporary directory.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path
from types import FrameType

import rouge_plus

# Set in the child's environment: the sitecustomize reads it to find its own directory.
SITE_VARIABLE = "ROUGE_PLUS_COMPAT_SITE"

SITECUSTOMIZE = f'''"""Written by rouge_plus.compat.run: the drop-ins for rouge_score and rouge."""
import os
import sys

_self = sys.modules.get("sitecustomize")
import rouge_plus.compat  # noqa: E402

rouge_plus.compat.install()
_site = os.environ.get("{SITE_VARIABLE}")
if _site in sys.path:  # run the sitecustomize this one hides, if any
    sys.path.remove(_site)
    sys.modules.pop("sitecustomize", None)
    try:
        import sitecustomize  # noqa: F401
    except ImportError:
        pass
    finally:
        sys.path.insert(0, _site)
        sys.modules.setdefault("sitecustomize", _self)  # the import system reads it back
'''


def child_environment(site: Path) -> dict[str, str]:
    """The environment with ``site`` first on ``PYTHONPATH`` and this rouge_plus importable."""
    package_root = str(Path(rouge_plus.__file__).resolve().parents[1])
    paths = [str(site), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    if package_root not in paths:
        paths.append(package_root)
    return {**os.environ, "PYTHONPATH": os.pathsep.join(paths), SITE_VARIABLE: str(site)}


# The signals passed on to the command (SIGHUP where the system has it).
FORWARDED = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)


def terminal_sent_it(child: int) -> bool:
    """Whether a SIGINT received now reached process ``child`` too, from the terminal: the child
    is in this process group, and it is the foreground group of this process's terminal (where
    there is no process group, as on Windows, the console gives every process its Ctrl-C)."""
    if not hasattr(os, "getpgid"):
        return True
    try:
        if os.getpgid(child) != os.getpgrp():
            return False
        terminal = os.open("/dev/tty", os.O_RDONLY)
    except OSError:  # the child has ended, or this process has no terminal
        return False
    try:
        return os.tcgetpgrp(terminal) == os.getpgrp()
    except OSError:
        return False
    finally:
        os.close(terminal)


class SignalForwarding:
    """While in the block, the signals of ``FORWARDED`` that this process receives go to the
    child given to :meth:`started` (those received before it started, once it has); the
    handlers they had are restored after. Outside the main thread, where Python cannot set
    handlers, nothing changes."""

    def __init__(self) -> None:
        self.process: subprocess.Popen | None = None
        self._pending: list[int] = []
        self._previous: dict[int, object] = {}

    def __enter__(self) -> SignalForwarding:
        if threading.current_thread() is threading.main_thread():
            for signum in FORWARDED:
                self._previous[signum] = signal.signal(signum, self._received)
        return self

    def __exit__(self, *_: object) -> None:
        for signum, handler in self._previous.items():
            signal.signal(signum, signal.SIG_DFL if handler is None else handler)

    def started(self, process: subprocess.Popen) -> None:
        self.process = process
        for signum in self._pending:  # none of them reached it: it did not exist yet
            process.send_signal(signum)
        self._pending.clear()

    def _received(self, signum: int, frame: FrameType | None) -> None:
        if self.process is None:
            self._pending.append(signum)
        else:
            self._forward(signum)

    def _forward(self, signum: int) -> None:
        if signum == signal.SIGINT and terminal_sent_it(self.process.pid):
            return
        with contextlib.suppress(ProcessLookupError):  # it ended since
            self.process.send_signal(signum)  # nothing once the child has been waited for


def exit_status(returncode: int) -> int:
    """A child's exit status as a shell reports it: 128 + N when signal N ended it."""
    return returncode if returncode >= 0 else 128 - returncode


def run_command(command: Sequence[str]) -> int:
    """Run ``command`` with the drop-ins installed in it; its exit status."""
    command = list(command)
    if command[:1] == ["--"]:
        command = command[1:]
    if not command:
        print("rouge-plus run: give a command, e.g. rouge-plus run -- python x.py", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="rouge_plus_compat_") as directory:
        site = Path(directory)
        (site / "sitecustomize.py").write_text(SITECUSTOMIZE, encoding="utf-8")
        with SignalForwarding() as forwarding:
            try:
                process = subprocess.Popen(command, env=child_environment(site))
            except FileNotFoundError:
                print(f"rouge-plus run: no such command: {command[0]}", file=sys.stderr)
                return 127
            forwarding.started(process)
            return exit_status(process.wait())


if __name__ == "__main__":
    sys.exit(run_command(sys.argv[1:]))

"""``rouge-plus run`` and signals: the command shuts down as it would when run directly (a
checkpoint it saves on SIGINT, after longer than subprocess's 0.25 s grace, is saved), SIGTERM
and SIGHUP reach it, each signal once, its exit status comes back, and the temporary directory
of the run is gone in every case."""

from __future__ import annotations

import fcntl
import os
import pty
import signal
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from rouge_plus.compat import run as compat_run

REPO = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX signals and terminals")

# The command: records every SIGINT, SIGTERM and SIGHUP it gets; on the first, takes 0.6 s to
# save a checkpoint, then exits with status 3 once a later delivery would have arrived.
CHILD = """
import os, signal, sys, time
from pathlib import Path

out = Path(sys.argv[1])
received = []


def on_signal(signum, frame):
    received.append(signum)
    if len(received) == 1:
        time.sleep(0.6)
        (out / "checkpoint").write_text("saved")


for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
    signal.signal(signum, on_signal)
(out / "site").write_text(os.environ["ROUGE_PLUS_COMPAT_SITE"])
while not (out / "checkpoint").exists():
    time.sleep(0.02)
time.sleep(0.5)
(out / "received").write_text(" ".join(map(str, received)))
sys.exit(3)
"""


# A sitecustomize for the runner: every signal it sends its child is written down.
RECORDER = """
import os, subprocess

_send_signal = subprocess.Popen.send_signal


def send_signal(self, signum):
    with open(os.environ["FORWARDED_SIGNALS"], "a") as record:
        record.write(f"{int(signum)} ")
    _send_signal(self, signum)


subprocess.Popen.send_signal = send_signal
"""


def _start(tmp_path: Path, **popen) -> subprocess.Popen:
    """``python -m rouge_plus.compat.run -- python child.py tmp_path``, in a session of its own
    (its own process group), once the command is ready for signals."""
    (tmp_path / "child.py").write_text(CHILD)
    (tmp_path / "recorder").mkdir()
    (tmp_path / "recorder" / "sitecustomize.py").write_text(RECORDER)
    (tmp_path / "forwarded").write_text("")
    command = [sys.executable, "-m", "rouge_plus.compat.run", "--"]
    command += [sys.executable, str(tmp_path / "child.py"), str(tmp_path)]
    popen.setdefault("stdin", subprocess.DEVNULL)
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(tmp_path / "recorder"), str(REPO)]),
        "FORWARDED_SIGNALS": str(tmp_path / "forwarded"),
    }
    parent = subprocess.Popen(command, cwd=REPO, env=env, start_new_session=True, **popen)
    deadline = time.monotonic() + 60
    while not (tmp_path / "site").exists():
        assert parent.poll() is None, "rouge_plus.compat.run ended early"
        assert time.monotonic() < deadline, "the command did not start"
        time.sleep(0.02)
    time.sleep(0.1)  # the handlers are set before the command writes "site"
    return parent


def _check_shutdown(
    parent: subprocess.Popen, tmp_path: Path, signum: int, forwarded: list[int]
) -> None:
    """The command saved its checkpoint and exited as it chose, having got ``signum`` once, of
    which the runner sent it ``forwarded``; the runner's temporary directory is gone."""
    try:
        assert parent.wait(timeout=30) == 3  # the command's own exit status
    finally:
        if parent.poll() is None:
            os.killpg(parent.pid, signal.SIGKILL)
    assert (tmp_path / "checkpoint").read_text() == "saved"
    assert (tmp_path / "received").read_text() == str(int(signum))  # once, not twice
    assert (tmp_path / "forwarded").read_text().split() == [str(int(s)) for s in forwarded]
    assert not Path((tmp_path / "site").read_text()).exists()


def test_a_sigint_to_the_runner_reaches_the_command_and_its_checkpoint_is_saved(tmp_path):
    """``kill -INT <rouge-plus run>``: no terminal sent it to the command, so the runner does."""
    parent = _start(tmp_path)
    os.kill(parent.pid, signal.SIGINT)
    _check_shutdown(parent, tmp_path, signal.SIGINT, forwarded=[signal.SIGINT])


def test_ctrl_c_in_a_terminal_reaches_the_command_once(tmp_path):
    """Ctrl-C typed on a terminal: the terminal sends SIGINT to its foreground process group,
    the runner and the command alike; the runner waits, and does not send it a second time."""
    controller, terminal = pty.openpty()
    try:
        parent = _start(
            tmp_path,
            stdin=terminal,
            stdout=terminal,
            stderr=terminal,
            preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0),  # the session's terminal
        )
        os.write(controller, b"\x03")  # Ctrl-C
        _check_shutdown(parent, tmp_path, signal.SIGINT, forwarded=[])
    finally:
        os.close(controller)
        os.close(terminal)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_sigterm_and_sighup_reach_the_command(tmp_path, signum):
    parent = _start(tmp_path)
    os.kill(parent.pid, signum)
    _check_shutdown(parent, tmp_path, signum, forwarded=[signum])


def test_a_command_ended_by_a_signal_gives_128_plus_its_number():
    code = "import os, signal; os.kill(os.getpid(), signal.SIGTERM)"
    assert compat_run.run_command(["--", sys.executable, "-c", code]) == 128 + signal.SIGTERM


def test_the_handlers_are_restored_after_the_run():
    before = {signum: signal.getsignal(signum) for signum in compat_run.FORWARDED}
    assert compat_run.run_command([sys.executable, "-c", "pass"]) == 0
    assert {signum: signal.getsignal(signum) for signum in compat_run.FORWARDED} == before

"""Peak memory of one call, measured in a fresh interpreter."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import rouge_plus

# The directory that holds the rouge_plus the tests import, so the child imports the same one.
_ROOT = str(Path(rouge_plus.__file__).resolve().parents[1])


def peak_growth(setup: str, call: str, timeout: float = 600) -> tuple[float, object]:
    """Run ``setup``, then ``result = <call>``, in a child process with the compiled kernels.

    Returns how much the child's peak resident set grew during the call, in MiB, and the JSON
    round trip of ``result``. Setup is measured apart, so inputs do not count.
    """
    code = "\n".join(
        [
            "import json, resource, sys",
            f"sys.path.insert(0, {_ROOT!r})",
            setup,
            "before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss",
            f"result = {call}",
            "after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss",
            "print(json.dumps({'growth': (after - before) / 1024, 'result': result}))",
        ]
    )
    env = {k: v for k, v in os.environ.items() if k != "ROUGE_PLUS_PURE_PYTHON"}
    done = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if done.returncode != 0:
        raise AssertionError(f"child failed ({done.returncode}):\n{done.stderr[-3000:]}")
    out = json.loads(done.stdout.strip().splitlines()[-1])
    return out["growth"], out["result"]

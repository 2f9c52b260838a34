"""Run an unmodified program with ``rouge_score`` and ``rouge`` on rouge_plus's drop-ins.

    python -m rouge_plus.compat.run -- python train.py --epochs 3
    rouge-plus run -- lm_eval --model hf --tasks truthfulqa_gen ...

The command runs in a child process whose ``PYTHONPATH`` starts with a temporary directory
holding a ``sitecustomize.py`` that calls :func:`rouge_plus.compat.install` at start-up (and then
runs the ``sitecustomize`` it hides, if there is one). Every Python process the command starts
inherits that environment, so worker processes started by ``multiprocessing``'s spawn or
forkserver, or by a process pool, import the drop-ins too; forked workers inherit the
installed import hook. The command's exit status is returned.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

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
        try:
            return subprocess.run(command, env=child_environment(site), check=False).returncode
        except FileNotFoundError:
            print(f"rouge-plus run: no such command: {command[0]}", file=sys.stderr)
            return 127


if __name__ == "__main__":
    sys.exit(run_command(sys.argv[1:]))

"""Copies of the repository as git would push it, and interpreters that cannot see rouge_plus.

The packaging tests build, serve or install a copy made of exactly the files a ``git push`` of
the working tree would send (tracked and new files, not ignored ones such as build output or a
compiled extension), so they see what a Space or a user's clone gets.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def repository_files() -> list[str]:
    """Paths (relative to the repository root) that ``git add -A && git push`` would send."""
    if shutil.which("git") is None or not (REPO / ".git").exists():
        pytest.skip("these tests copy the repository with git: run them from a git checkout")
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO,
        capture_output=True,
        check=True,
        timeout=60,
    ).stdout.decode()
    return sorted({name for name in listed.split("\0") if name and (REPO / name).is_file()})


def copy_repository(destination: Path) -> Path:
    """Copy the repository's pushed files into ``destination``; return it."""
    for name in repository_files():
        target = destination / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / name, target)
    return destination


# Run as ``python -c BLOCK_ROUGE_PLUS + code``: the import system then behaves as if rouge_plus
# were not installed, however it is installed (editable, wheel, or on PYTHONPATH).
BLOCK_ROUGE_PLUS = """\
import sys
class _NotInstalled:
    @staticmethod
    def find_spec(name, path=None, target=None):
        if name == "rouge_plus" or name.startswith("rouge_plus."):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None
sys.meta_path.insert(0, _NotInstalled)
"""


def clean_environment(**extra: str) -> dict[str, str]:
    """The current environment without Python or Hub settings that would change a child's
    behaviour, plus ``extra``."""
    drop = ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "PYTHONSAFEPATH", "PYTHONNOUSERSITE")
    env = {k: v for k, v in os.environ.items() if k not in drop and not k.startswith("HF_")}
    return {**env, **extra}


def site_packages() -> list[str]:
    """The current interpreter's site-packages directories."""
    import site

    return [p for p in site.getsitepackages() if Path(p).is_dir()] or [
        p for p in sys.path if p.endswith("site-packages")
    ]


def dependencies_without_rouge_plus(view: Path) -> Path:
    """A directory of links to every entry of site-packages except rouge_plus's own and the
    ``.pth`` files: on a child's path it gives the same dependencies, and no rouge_plus (an
    editable install is a ``.pth`` file, which a plain path entry does not read)."""
    view.mkdir()
    for directory in site_packages():
        for entry in Path(directory).iterdir():
            name = entry.name.lower()
            if name.startswith(("rouge_plus", "__editable__.rouge_plus")) or name.endswith(".pth"):
                continue
            if not (view / entry.name).exists():
                (view / entry.name).symlink_to(entry)
    return view

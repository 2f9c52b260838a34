"""Fetch one pinned distribution file from PyPI for a build script, checking its sha256."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path


def download_pinned(
    requirement: str, filename: str, sha256: str, directory: Path, *, wheel: bool
) -> Path:
    """``pip download`` ``requirement`` (its wheel, or its sdist) and verify the file's hash."""
    form = ["--only-binary", ":all:"] if wheel else ["--no-binary", ":all:"]
    command = [sys.executable, "-m", "pip", "download", "--no-deps", *form, requirement]
    subprocess.run([*command, "-d", str(directory)], check=True)
    path = directory / filename
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    if digest != sha256:
        sys.exit(f"{filename}: sha256 {digest} differs from the pinned {sha256}")
    return path

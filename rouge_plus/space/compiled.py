"""The Space's kernels: compiled at start-up where its image has a C compiler, else pure Python.

A Space installs ``requirements.txt`` and copies the repository; nothing builds the C extensions.
:func:`build_kernels`, which ``app.py`` calls before anything imports the kernels, builds them
in place (``python setup.py build_ext --inplace``, into the app directory) when none is built
yet, a C compiler and setuptools are there and ``ROUGE_PLUS_PURE_PYTHON`` is not ``1``; a
failed build leaves the pure-Python twins, which give the same scores. The page says which of
the two runs (:func:`backend`).
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import logging
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

LOGGER = logging.getLogger(__name__)
# The extension whose presence means the kernels are built (the others are built with it).
NATIVE = Path("rouge_plus") / "kernels" / "_native"
BUILD_TIMEOUT_S = 600


def built(directory: Path) -> bool:
    """Whether ``directory`` holds a built counting kernel for this Python."""
    stem = directory / NATIVE
    return any(
        stem.with_name(stem.name + suffix).exists()
        for suffix in importlib.machinery.EXTENSION_SUFFIXES
    )


def compiler() -> str | None:
    """The C compiler Python's build would call, if it is on the PATH."""
    configured = shlex.split(sysconfig.get_config_var("CC") or "cc")
    return shutil.which(configured[0]) if configured else None


def build_kernels(directory: Path) -> bool:
    """Build the C extensions into ``directory`` (the app's, holding ``setup.py``) unless they
    are built or cannot be; whether they are built afterwards."""
    if os.environ.get("ROUGE_PLUS_PURE_PYTHON") == "1" or built(directory):
        return built(directory)
    if not (directory / "setup.py").exists() or importlib.util.find_spec("setuptools") is None:
        LOGGER.info("no setup.py or setuptools here: the pure-Python kernels run")
        return False
    if compiler() is None:
        LOGGER.info("no C compiler in this image: the pure-Python kernels run")
        return False
    LOGGER.info("building the C kernels in %s", directory)
    command = [sys.executable, "setup.py", "-q", "build_ext", "--inplace"]
    try:
        done = subprocess.run(
            command, cwd=directory, capture_output=True, text=True, timeout=BUILD_TIMEOUT_S
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        LOGGER.warning("the C kernels did not build (%s): the pure-Python kernels run", error)
        return False
    if done.returncode != 0 or not built(directory):
        LOGGER.warning("the C kernels did not build: %s", done.stderr[-2000:])
    return built(directory)


def backend() -> str:
    """Which kernels score here: ``"compiled C kernels"`` or ``"pure Python"``."""
    from ..kernels.native import NATIVE as compiled_kernels

    return "compiled C kernels" if compiled_kernels else "pure Python"

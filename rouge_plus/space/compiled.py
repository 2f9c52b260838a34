"""The Space's kernels: compiled at start-up where its image has a C compiler, else pure Python.

A Space installs ``requirements.txt`` and copies the repository; nothing builds the C extensions.
:func:`build_kernels`, which ``app.py`` calls before anything imports the kernels, builds them
in place (into the app directory) when none is built yet, a C compiler and setuptools are there
and ``ROUGE_PLUS_PURE_PYTHON`` is not ``1``; a failed build leaves the pure-Python twins, which
give the same scores. The page says which of the two runs (:func:`backend`).

The build does not go through ``setup()``: that reads pyproject.toml's metadata, whose PEP 639
``license`` needs setuptools >= 77, and a Space's venv may have an older one (a stock Python
3.11 venv has 65.5). :func:`compile_in_place` hands setup.py's :func:`extensions` to setuptools'
``build_ext`` command alone, which compiles the same files with the same flags in every
setuptools of the last years, offline (an isolated pip build would need the package index at
each start). It runs in a child process (``python -m rouge_plus.space.compiled DIRECTORY``), so
a compiler's crash or a broken setuptools cannot take the app down.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import logging
import os
import runpy
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
    command = [sys.executable, "-m", __name__, str(directory)]
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


def compile_in_place(directory: Path) -> None:
    """Compile setup.py's extensions beside their sources in ``directory`` (a source tree) with
    setuptools' ``build_ext`` alone, reading none of the project's metadata."""
    from setuptools import Distribution

    os.chdir(directory)  # setup.py names the sources relative to its directory
    extensions = runpy.run_path("setup.py", run_name="rouge_plus_setup")["extensions"]()
    distribution = Distribution({"name": "rouge-plus", "ext_modules": extensions})
    distribution.get_command_obj("build_ext").inplace = True
    distribution.run_command("build_ext")


def backend() -> str:
    """Which kernels score here: ``"compiled C kernels"`` or ``"pure Python"``."""
    from .._compiled import kernels_in_use

    return str(kernels_in_use())


if __name__ == "__main__":
    compile_in_place(Path(sys.argv[1]))

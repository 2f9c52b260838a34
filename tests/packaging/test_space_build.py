"""A Space made from this repository builds and runs.

A Space installs ``requirements.txt`` alone, in a directory holding nothing else, then gradio at
the front matter's ``sdk_version``, and only then copies the repository in and runs ``python
app.py``. So ``requirements.txt`` must resolve on its own (checked with pip's dry run against
the package index), and ``app.py`` must run from a copy of the repository where rouge_plus is
not installed: a fresh virtual environment, whose dependencies come from a view of this
interpreter's site-packages without rouge_plus (plain path entries: no ``.pth`` file, so no
editable install, is read). ``python -I`` would not do: it drops the script's directory from
``sys.path``, which is exactly what the Space relies on, and keeps site-packages' ``.pth`` files.

And as a Space really is: a venv made by ``python3.11 -m venv`` with the pip and setuptools it
bundles (23.2 and 65.5, never upgraded: too old for pyproject.toml's metadata), into which
requirements.txt and the front matter's gradio are installed offline from the wheelhouse that
scripts/install_test_deps.sh downloads (build/space-wheelhouse); ``app.py`` builds the C kernels
there and the page says they run.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import urllib.request
import venv

import pytest
from support.app_server import running_app
from support.repo_copy import (
    REPO,
    clean_environment,
    copy_repository,
    dependencies_without_rouge_plus,
)

import rouge_plus
from rouge_plus.space import compiled

tomllib = pytest.importorskip("tomllib", reason="reading pyproject.toml needs Python 3.11+")

REQUIREMENTS = REPO / "requirements.txt"
SPACE_WHEELHOUSE = REPO / "build" / "space-wheelhouse"


def requirement_lines() -> list[str]:
    lines = REQUIREMENTS.read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def front_matter(key: str) -> str:
    """A value of README.md's Space front matter (what the Space builds with)."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    front = readme[4:].partition("\n---\n")[0]
    match = re.search(rf"^{key}: \"?([^\"\s]+)\"?$", front, re.M)
    assert match, f"the front matter sets no {key}"
    return match.group(1)


def front_matter_gradio() -> str:
    return front_matter("sdk_version")


def test_requirements_are_the_package_dependencies_and_the_app_extra():
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    app_extra = project["optional-dependencies"]["app"]
    assert f"gradio=={front_matter_gradio()}" in app_extra, "front matter and [app] disagree"
    expected = project["dependencies"] + [r for r in app_extra if not r.startswith("gradio")]
    assert requirement_lines() == expected
    assert not any(line.startswith(("-e", ".", "-r")) for line in requirement_lines())


@pytest.mark.slow  # pip resolves the requirements: about 20 s
def test_requirements_resolve_in_an_empty_directory(tmp_path):
    """pip resolves requirements.txt with the Space's gradio for the Space's Python (the front
    matter's python_version: the Spaces default, 3.10, has no matplotlib 3.11), from a directory
    holding nothing else, into an empty target (a dry run: nothing is installed)."""
    shutil.copy(REQUIREMENTS, tmp_path / "requirements.txt")
    report = tmp_path / "report.json"
    command = [
        sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed", "--quiet",
        "--python-version", front_matter("python_version"), "--only-binary=:all:",
        "--target", str(tmp_path / "target"), "--report", str(report),
        "-r", "requirements.txt", f"gradio=={front_matter_gradio()}",
    ]  # fmt: skip
    done = subprocess.run(
        command, cwd=tmp_path, capture_output=True, text=True, timeout=600,
        env=clean_environment(PIP_DISABLE_PIP_VERSION_CHECK="1"),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    names = {item["metadata"]["name"].lower() for item in json.loads(report.read_text())["install"]}
    assert {"numpy", "regex", "tqdm", "matplotlib", "gradio"} <= names
    assert "rouge-plus" not in names and "rouge_plus" not in names


@pytest.fixture(scope="module")
def space(tmp_path_factory):
    """(python, environment, copy): a fresh venv that cannot import rouge_plus but for the
    repository copy it runs in."""
    pytest.importorskip("gradio", reason="the app needs gradio")
    root = tmp_path_factory.mktemp("space")
    copy = copy_repository(root / "app")
    venv.EnvBuilder(with_pip=False).create(root / "venv")
    python = str(root / "venv" / "bin" / "python")
    env = clean_environment(PYTHONPATH=str(dependencies_without_rouge_plus(root / "deps")))
    return python, env, copy


def test_outside_the_copy_rouge_plus_is_not_installed(space, tmp_path):
    python, env, copy = space
    code = "import importlib.util; print(importlib.util.find_spec('rouge_plus'))"
    done = subprocess.run(
        [python, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.stdout.strip() == "None", done.stderr[-2000:]
    code = "import rouge_plus.kernels.native as n, rouge_plus; print(rouge_plus.__file__, n.NATIVE)"
    done = subprocess.run(
        [python, "-c", code], cwd=copy, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.stdout.split() == [str(copy / "rouge_plus" / "__init__.py"), "False"], done.stderr


@pytest.mark.slow  # the app started from a copy: over 30 s
def test_app_runs_from_the_copy_and_scores_like_the_library(space):
    gradio_client = pytest.importorskip("gradio_client")
    python, env, copy = space
    predictions = ["The cat and the dog.", "Lightweight phone.\nBright screen."]
    references = [["The cat is on the mat.", "A dog."], "The phone is very lightweight."]
    options = {"rouge_types": ["rouge1", "rougeL", "rougeLsum"], "use_stemmer": True}
    with running_app(python=python, cwd=copy, env=env) as url:
        import urllib.request

        with urllib.request.urlopen(url, timeout=30) as response:
            assert response.status == 200
        client = gradio_client.Client(url, verbose=False)
        result = client.predict(predictions, references, **options, api_name="/score")
    assert result == rouge_plus.score(predictions, references, **options)
    # The app builds the C kernels at start-up where the image can (rouge_plus.space.compiled).
    can_build = compiled.compiler() is not None and importlib.util.find_spec("setuptools")
    assert bool(list(copy.rglob("_native*.so"))) == bool(can_build)


def _unavailable(message: str) -> None:
    """Skip, but fail on CI, where scripts/install_test_deps.sh has provided everything."""
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="module")
def stock_space(tmp_path_factory):
    """(python, copy): a venv made by the Space's Python's own ``-m venv`` (bundled pip and
    setuptools), with requirements.txt and the front matter's gradio installed as a Space
    installs them, from a directory holding requirements.txt alone; and a copy of the
    repository to run ``app.py`` in."""
    python_version = front_matter("python_version")
    base = shutil.which(f"python{python_version}")
    if base is None:
        _unavailable(f"no python{python_version} on the PATH")
    if not any(SPACE_WHEELHOUSE.glob(f"gradio-{front_matter_gradio()}-*.whl")):
        _unavailable("no build/space-wheelhouse: run scripts/install_test_deps.sh")
    root = tmp_path_factory.mktemp("stock-space")
    subprocess.run([base, "-m", "venv", str(root / "venv")], check=True, timeout=300)
    python = str(root / "venv" / "bin" / "python")
    (root / "build").mkdir()
    shutil.copy(REQUIREMENTS, root / "build" / "requirements.txt")
    install = [python, "-m", "pip", "install", "--quiet", "-r", "requirements.txt",
               f"gradio=={front_matter_gradio()}"]  # fmt: skip
    environment = clean_environment(
        PIP_NO_INDEX="1", PIP_FIND_LINKS=str(SPACE_WHEELHOUSE), PIP_CONFIG_FILE=os.devnull,
        PIP_DISABLE_PIP_VERSION_CHECK="1",
    )  # fmt: skip
    done = subprocess.run(
        install, cwd=root / "build", env=environment, capture_output=True, text=True,
        timeout=1200,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    return python, copy_repository(root / "app")


def test_app_in_a_stock_venv_builds_and_serves_the_compiled_kernels(stock_space):
    python, copy = stock_space
    if compiled.compiler() is None:
        pytest.skip("no C compiler here")
    code = "import setuptools; print(setuptools.__version__)"
    setuptools_version = subprocess.run(
        [python, "-c", code], capture_output=True, text=True, timeout=60, env=clean_environment()
    ).stdout.strip()
    assert int(setuptools_version.split(".")[0]) < 77, "the venv's setuptools reads PEP 639"
    with (
        running_app(python=python, cwd=copy, env=clean_environment()) as url,
        urllib.request.urlopen(f"{url}config", timeout=30) as response,
    ):
        page = response.read().decode()
    assert "Kernels here: compiled C kernels." in page
    assert compiled.built(copy)

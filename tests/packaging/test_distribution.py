"""A package people can install.

``python -m build`` makes an sdist and a wheel of a copy of the repository; ``twine check``
accepts both; the wheel holds the package and nothing from the repository root; the core needs
none of evaluate, datasets, pandas or matplotlib. In fresh virtual environments, offline (pip
reads only the wheelhouse of core dependencies and setuptools that scripts/install_test_deps.sh
downloads): README's first command installs from the checkout and runs the demo on the compiled
kernels, and the sdist compiles and installs; from another directory, ``rouge_plus.score`` works
without evaluate, and ``rouge_plus.load()`` gives an evaluate metric that ``evaluate.combine``
accepts once evaluate is importable. Where no C compiler runs (``CC=/bin/false``), the sdist
installs the pure-Python kernels, which score the same and say so: the first scoring call warns
once, and ``rouge-plus --version`` names them. (scripts/check_wheel.py installs the repaired
wheel there and runs the tests against it.)
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest
from support.repo_copy import (
    REPO,
    clean_environment,
    copy_repository,
    dependencies_without_rouge_plus,
)

import rouge_plus

pytest.importorskip("build", reason="the packaging tests need build (the test extra)")
# Builds an sdist and a wheel (over 30 s), and installs them in fresh virtual environments.
pytestmark = pytest.mark.slow

WHEELHOUSE = REPO / "build" / "test-wheelhouse"
OPTIONAL = ("evaluate", "datasets", "pandas", "matplotlib", "gradio", "transformers")
PREDICTIONS = ["the cats were sitting on the mat", "a dog ran"]
REFERENCES = [["a cat sat on the mat", "the cat is sitting"], "the dog runs"]


def run(command: list[str], timeout: float = 600, **kwargs) -> subprocess.CompletedProcess:
    done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, **kwargs)
    output = done.stdout[-2000:] + done.stderr[-3000:]
    assert done.returncode == 0, f"{shlex.join(command)}\n{output}"
    return done


@pytest.fixture(scope="module")
def wheelhouse() -> Path:
    if not any(WHEELHOUSE.glob("numpy-*.whl")):
        message = "no build/test-wheelhouse: run scripts/install_test_deps.sh"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return WHEELHOUSE


def offline_pip_env(wheelhouse: Path, **extra: str) -> dict[str, str]:
    """pip may read the wheelhouse and nothing else (its configuration files are ignored)."""
    return clean_environment(
        PIP_NO_INDEX="1",
        PIP_FIND_LINKS=str(wheelhouse),
        PIP_CONFIG_FILE=os.devnull,
        PIP_DISABLE_PIP_VERSION_CHECK="1",
        **extra,
    )


@pytest.fixture(scope="module")
def source(tmp_path_factory) -> Path:
    return copy_repository(tmp_path_factory.mktemp("checkout") / "rouge_plus")


@pytest.fixture(scope="module")
def dists(source, tmp_path_factory) -> tuple[Path, Path]:
    """(sdist, wheel) built by ``python -m build`` (the wheel from the sdist, as build does)."""
    out = tmp_path_factory.mktemp("dist")
    run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(source)])
    [sdist] = out.glob("rouge_plus-*.tar.gz")
    [wheel] = out.glob("rouge_plus-*.whl")
    return sdist, wheel


def fresh_venv(path: Path) -> str:
    venv.EnvBuilder(with_pip=True).create(path)
    return str(path / "bin" / "python")


def test_twine_check_accepts_both(dists):
    pytest.importorskip("twine", reason="the packaging tests need twine (the test extra)")
    run([sys.executable, "-m", "twine", "check", "--strict", *map(str, dists)])


def test_wheel_holds_the_package_and_core_needs_no_extras(dists):
    _, wheel = dists
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        [metadata] = [n for n in names if n.endswith(".dist-info/METADATA")]
        metadata = archive.read(metadata).decode()
    assert {name.split("/")[0] for name in names} == {
        "rouge_plus",
        f"rouge_plus-{rouge_plus.__version__}.dist-info",
    }, "the root rouge_plus.py, app.py and tests must stay out of the wheel"
    for module in ("kernels/_native", "text/_stemmers", "scoring/_scores", "scoring/_synonyms",
                   "rouge2/_tagger"):  # fmt: skip
        assert any(re.fullmatch(rf"rouge_plus/{module}\..*\.so", n) for n in names), module
    assert "rouge_plus/data/wordnet30_synonyms.json.gz" in names
    requires = re.findall(r"^Requires-Dist: (.+)$", metadata, re.M)
    core = sorted(r.split(">")[0].split("=")[0] for r in requires if "extra ==" not in r)
    assert core == ["numpy", "regex", "tqdm"]
    extras = set(re.findall(r"^Provides-Extra: (.+)$", metadata, re.M))
    assert {"evaluate", "app", "test", "rouge155"} <= extras


def test_readme_first_command_installs_and_runs_on_the_compiled_kernels(
    source, wheelhouse, tmp_path
):
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    first = re.search(r"```bash\n(.+?)\n```", readme).group(1)
    assert first == "pip install . && rouge-plus --demo"
    python = fresh_venv(tmp_path / "venv")
    bin_dir = str(Path(python).parent)
    env = offline_pip_env(wheelhouse, PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    done = run(["bash", "-c", first], cwd=source, env=env)
    assert "rouge1" in done.stdout.lower() or "ROUGE-1" in done.stdout
    code = "import rouge_plus.kernels.native as n; print(n.NATIVE)"
    assert run([python, "-c", code], cwd=tmp_path, env=env).stdout.strip() == "True"


@pytest.fixture(scope="module")
def sdist_venv(dists, wheelhouse, tmp_path_factory) -> tuple[str, Path]:
    """A fresh venv with the sdist installed from the wheelhouse alone (it compiles there)."""
    sdist, _ = dists
    root = tmp_path_factory.mktemp("sdist-venv")
    python = fresh_venv(root / "venv")
    run([python, "-m", "pip", "install", "--quiet", str(sdist)], env=offline_pip_env(wheelhouse))
    elsewhere = root / "elsewhere"
    elsewhere.mkdir()
    return python, elsewhere


def test_sdist_installs_core_only_and_scores_on_compiled_kernels(sdist_venv):
    python, elsewhere = sdist_venv
    code = f"""
import importlib.util, json
import rouge_plus
from rouge_plus.kernels import native
print(json.dumps({{
    "file": rouge_plus.__file__,
    "native": native.NATIVE,
    "missing": [m for m in {OPTIONAL!r} if importlib.util.find_spec(m) is None],
    "score": rouge_plus.score({PREDICTIONS!r}, {REFERENCES!r}, use_stemmer=True),
}}))
"""
    out = json.loads(run([python, "-c", code], cwd=elsewhere, env=clean_environment()).stdout)
    assert out["file"].startswith(str(Path(python).parents[1]))
    assert out["native"] is True
    assert out["missing"] == list(OPTIONAL)
    assert out["score"] == rouge_plus.score(PREDICTIONS, REFERENCES, use_stemmer=True)


def test_installed_package_gives_the_evaluate_metric_offline(sdist_venv, tmp_path):
    """README's one-liner, from another directory, offline: evaluate comes from this
    interpreter's site-packages (after the venv's own, without rouge_plus)."""
    pytest.importorskip("evaluate")
    python, elsewhere = sdist_venv
    purelib = run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]
    ).stdout.strip()
    view = dependencies_without_rouge_plus(tmp_path / "deps")
    (Path(purelib) / "test_dependencies.pth").write_text(f"{view}\n", encoding="utf-8")
    code = f"""
import evaluate, json, rouge_plus
rouge = rouge_plus.load(rouge_types=["rouge1", "rougeL"], use_stemmer=True)
combined = evaluate.combine([rouge, rouge_plus.load(rouge_types=["rouge2"])])
print(json.dumps({{
    "file": rouge_plus.__file__,
    "result": combined.compute(predictions={PREDICTIONS!r}, references={REFERENCES!r}),
}}))
"""
    env = clean_environment(
        HF_HUB_OFFLINE="1", HF_EVALUATE_OFFLINE="1", HF_HOME=str(tmp_path / "hf")
    )
    out = json.loads(run([python, "-c", code], cwd=elsewhere, env=env).stdout.splitlines()[-1])
    assert out["file"].startswith(str(Path(python).parents[1]))
    assert out["result"] == {
        **rouge_plus.score(
            PREDICTIONS, REFERENCES, rouge_types=["rouge1", "rougeL"], use_stemmer=True
        ),
        **rouge_plus.score(PREDICTIONS, REFERENCES, rouge_types=["rouge2"]),
    }


def test_sdist_without_a_compiler_installs_pure_python_that_scores_and_warns_once(
    dists, wheelhouse, tmp_path
):
    sdist, _ = dists
    python = fresh_venv(tmp_path / "venv")
    no_compiler = offline_pip_env(wheelhouse, CC="/bin/false")
    run([python, "-m", "pip", "install", "--quiet", str(sdist)], env=no_compiler)
    code = f"""
import json, warnings
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    import rouge_plus
    first = rouge_plus.score({PREDICTIONS!r}, {REFERENCES!r}, use_stemmer=True)
    second = rouge_plus.score({PREDICTIONS!r}, {REFERENCES!r})
print(json.dumps({{
    "file": rouge_plus.__file__,
    "warnings": [[w.category.__name__, str(w.message)] for w in caught],
    "score": first,
}}))
"""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    done = run([python, "-c", code], cwd=elsewhere, env=clean_environment(CC="/bin/false"))
    out = json.loads(done.stdout)
    assert out["file"].startswith(str(tmp_path / "venv"))
    [(category, message)] = out["warnings"]
    assert category == "PurePythonWarning"
    assert "has no C extensions: it was built from source where no C compiler ran" in message
    assert "python -m pip install --force-reinstall rouge_plus-*-cp" in message
    assert out["score"] == rouge_plus.score(PREDICTIONS, REFERENCES, use_stemmer=True)
    rouge_plus_command = str(Path(python).parent / "rouge-plus")
    version = run([rouge_plus_command, "--version"], cwd=elsewhere, env=clean_environment())
    assert version.stdout.splitlines()[1].startswith("kernels: pure Python (this installation (")


# "pip install" and its options, then the project's name alone (an extra, a quote or the end may
# follow; a wheel's file name, rouge_plus-<version>-..., is no name).
BY_NAME = re.compile(r"pip install (?:-[\w-]+ +)*[\"']?rouge[-_]plus(?=[\s\"'\[`]|$)", re.M)


def test_no_doc_installs_the_unpublished_package_by_name():
    """The package is not on PyPI: no doc, message or example may tell anyone to
    ``pip install rouge-plus`` (PyPI could serve someone else's package of that name)."""
    texts = [REPO / "README.md", REPO / "requirements.txt", REPO / "app.py"]
    for pattern in ("docs/**/*.md", "examples/**/*", "rouge_plus/**/*.py", "scripts/**/*"):
        texts += [path for path in REPO.glob(pattern) if path.is_file()]
    offenders = [
        f"{path.relative_to(REPO)}: {match.group(0)}"
        for path in texts
        for match in BY_NAME.finditer(path.read_text(encoding="utf-8", errors="replace"))
    ]
    assert offenders == []
    assert BY_NAME.search('pip install -U "rouge-plus[evaluate]"')
    assert not BY_NAME.search("pip install rouge_plus-0.1.0-cp311-cp311-manylinux_2_17_x86_64.whl")

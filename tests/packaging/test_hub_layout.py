"""The repository, pushed unchanged to a Space named rouge_plus, loads with evaluate.load.

evaluate 0.4 resolves ``evaluate.load("<owner>/rouge_plus")`` by fetching ``rouge_plus.py`` from
the Space's root (at revision ``v<evaluate version>``, then ``main``); every other import must be
installed. The test serves a copy of the repository from a fake Hub on 127.0.0.1
(``support/fake_hub.py``), points ``HF_ENDPOINT`` at it, and loads the metric exactly as a user
would, in a child interpreter with its own empty Hugging Face caches; every request for another
host is caught by a proxy setting that points at the same server.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from support.fake_hub import serve_space
from support.repo_copy import BLOCK_ROUGE_PLUS, REPO, clean_environment, copy_repository

evaluate = pytest.importorskip("evaluate")
pytest.importorskip("huggingface_hub")

from rouge_plus import score  # noqa: E402

SPACE = "tester/rouge_plus"
PREDICTIONS = ["the cats were sitting on the mat", "a dog ran"]
REFERENCES = [["a cat sat on the mat", "the cat is sitting"], "the dog runs"]
TIMEOUT_S = 240


@pytest.fixture(scope="module")
def hub(tmp_path_factory):
    space = copy_repository(tmp_path_factory.mktemp("space"))
    with serve_space(SPACE, space) as server:
        yield server


def hub_environment(hub, home, **extra: str) -> dict[str, str]:
    """A child's environment: the fake Hub as endpoint, fresh caches, no offline switch, no
    download counter (evaluate would ping a bucket elsewhere), proxies that catch any other
    host, and this checkout's package first on the path."""
    return clean_environment(
        HF_ENDPOINT=hub.url,
        HF_HOME=str(home / "hf"),
        HF_MODULES_CACHE=str(home / "modules"),
        HF_UPDATE_DOWNLOAD_COUNTS="0",
        HF_HUB_DISABLE_TELEMETRY="1",
        HF_HUB_ETAG_TIMEOUT="30",
        HTTP_PROXY=hub.url,
        HTTPS_PROXY=hub.url,
        http_proxy=hub.url,
        https_proxy=hub.url,
        NO_PROXY="127.0.0.1,localhost",
        no_proxy="127.0.0.1,localhost",
        PYTHONPATH=str(REPO),
        **extra,
    )


def run_child(code: str, env: dict[str, str], cwd) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
    )


@pytest.mark.slow  # evaluate loading from a fake Hub in a fresh interpreter: over a minute
def test_evaluate_load_from_the_space(hub, tmp_path):
    hub.requests.clear()
    code = f"""
import json, evaluate, rouge_plus
metric = evaluate.load({SPACE!r}, use_stemmer=True)
result = metric.compute(predictions={PREDICTIONS!r}, references={REFERENCES!r})
print(json.dumps({{
    "result": result,
    "same_class": type(metric) is rouge_plus.RougePlus,
    "package": rouge_plus.__file__,
}}))
"""
    done = run_child(code, hub_environment(hub, tmp_path), cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["result"] == score(PREDICTIONS, REFERENCES, use_stemmer=True)
    assert out["same_class"], "the Space's script must hand out the installed package's class"
    assert out["package"].startswith(str(REPO))

    asked = [(r.method, r.path) for r in hub.requests]
    tag = f"v{evaluate.__version__}"
    base = f"/spaces/{SPACE}/resolve"
    assert ("HEAD", f"{base}/{tag}/rouge_plus.py") in asked  # no such tag: 404, then main
    assert ("GET", f"{base}/main/rouge_plus.py") in asked
    assert {path for _, path in asked} == {f"{base}/{r}/rouge_plus.py" for r in (tag, "main")}
    assert hub.outside == [], f"requests for other hosts: {hub.outside}"


@pytest.mark.slow
def test_without_the_package_evaluate_names_what_to_install(hub, tmp_path):
    code = BLOCK_ROUGE_PLUS + f"import evaluate\nevaluate.load({SPACE!r})\n"
    done = run_child(code, hub_environment(hub, tmp_path), cwd=tmp_path)
    assert done.returncode != 0
    message = done.stderr.strip().splitlines()[-1]
    assert message.startswith("ImportError: To be able to use tester/rouge_plus")
    assert "['rouge_plus']" in message and 'pip install ".[evaluate]"' in message
    assert hub.outside == []


def test_the_fake_hub_speaks_the_hub_protocol(hub, tmp_path):
    """huggingface_hub's own client downloads from it and sees its errors as the Hub's."""
    code = f"""
import json
from huggingface_hub import hf_hub_download
from huggingface_hub.errors import EntryNotFoundError, RevisionNotFoundError
path = hf_hub_download({SPACE!r}, "rouge_plus.py", repo_type="space")
errors = []
for revision, name in (("v0.0.0", "rouge_plus.py"), ("main", "no_such_file.py")):
    try:
        hf_hub_download({SPACE!r}, name, repo_type="space", revision=revision)
    except (RevisionNotFoundError, EntryNotFoundError) as error:
        errors.append(type(error).__name__)
print(json.dumps({{"text": open(path, encoding="utf-8").read(), "errors": errors}}))
"""
    done = run_child(code, hub_environment(hub, tmp_path), cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["text"] == (REPO / "rouge_plus.py").read_text(encoding="utf-8")
    assert out["errors"] == ["RevisionNotFoundError", "RemoteEntryNotFoundError"]
    assert hub.outside == []


def test_the_repository_root_imports_the_package_not_the_script():
    """``rouge_plus.py`` and ``rouge_plus/`` sit side by side at the root: Python's path finder
    takes the package directory, so ``import rouge_plus`` and ``python app.py`` get the package."""
    code = "import rouge_plus; print(rouge_plus.__file__); print(rouge_plus.score.__module__)"
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO,
        env=clean_environment(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    file, module = done.stdout.split()
    assert file == str(REPO / "rouge_plus" / "__init__.py")
    assert module == "rouge_plus.scorer"

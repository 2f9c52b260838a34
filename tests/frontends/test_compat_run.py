"""``rouge_plus.compat.install()`` and ``rouge-plus run``: unmodified programs, their
``multiprocessing`` workers (fork and spawn) included, import rouge_plus's drop-ins; without
them nothing changes."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from rouge_plus.cli import run as cli_run

pytest.importorskip("rouge_score")

REPO = Path(__file__).resolve().parents[2]

SCRIPT = """
import json
import multiprocessing
import sys

import rouge_score
from rouge_score import rouge_scorer, scoring

PAIRS = [("the cat sat on the mat", "a cat sat on a mat"), ("x y z", "y z"), ("", "a")]


def work(pair):
    import rouge_score.rouge_scorer as module

    score = module.RougeScorer(["rouge1", "rougeL"]).score(*pair)
    return module.__name__, [tuple(s) for s in score.values()]


if __name__ == "__main__":
    result = {"top": [rouge_score.__name__, scoring.__name__], "main": work(PAIRS[0])[1]}
    for method in ("fork", "spawn"):
        with multiprocessing.get_context(method).Pool(2) as pool:
            result[method] = pool.map(work, PAIRS)
    print(json.dumps(result))
"""


def _python(*args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, cwd=REPO, timeout=120, **kwargs
    )


@pytest.mark.slow  # spawn workers each import the package: over 30 s
@pytest.mark.parametrize("entry", [["rouge_plus.compat.run"], ["rouge_plus", "run"]])
def test_run_serves_the_program_and_its_fork_and_spawn_workers(tmp_path, entry):
    """``python -m rouge_plus.compat.run -- ...`` and ``rouge-plus run -- ...`` alike."""
    script = tmp_path / "script.py"
    script.write_text(SCRIPT)
    accelerated = _python("-m", *entry, "--", sys.executable, str(script))
    assert accelerated.returncode == 0, accelerated.stderr
    assert "Error in sitecustomize" not in accelerated.stderr
    plain = _python(str(script))
    assert plain.returncode == 0, plain.stderr
    fast, slow = json.loads(accelerated.stdout), json.loads(plain.stdout)
    assert fast["top"] == ["rouge_plus.compat.rouge_score", "rouge_plus.compat.rouge_score.scoring"]
    assert slow["top"] == ["rouge_score", "rouge_score.scoring"]
    assert fast["main"] == slow["main"]
    for method in ("fork", "spawn"):
        assert {name for name, _ in fast[method]} == {"rouge_plus.compat.rouge_score.rouge_scorer"}
        assert {name for name, _ in slow[method]} == {"rouge_score.rouge_scorer"}
        assert [scores for _, scores in fast[method]] == [scores for _, scores in slow[method]]


def test_run_keeps_the_sitecustomize_it_hides_and_the_exit_status(tmp_path):
    (tmp_path / "sitecustomize.py").write_text("import os\nos.environ['HIDDEN_SITE'] = 'ran'\n")
    code = "import os, sys, rouge_score; print(os.environ.get('HIDDEN_SITE'), rouge_score.__name__)"
    code += "; sys.exit(3)"
    done = _python(
        "-m",
        "rouge_plus.compat.run",
        "--",
        sys.executable,
        "-c",
        code,
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
    )
    assert done.returncode == 3, done.stderr
    assert done.stdout.split() == ["ran", "rouge_plus.compat.rouge_score"]


def test_install_is_opt_in_and_uninstall_turns_it_off():
    code = textwrap.dedent(
        """
        import warnings
        import rouge_plus, rouge_plus.compat
        from rouge_plus.compat.rouge_score import rouge_scorer
        import rouge_score
        print(rouge_score.__name__, rouge_plus.compat.installed())
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            rouge_plus.compat.install()
        print(len(caught), "rouge_score" in str(caught[0].message))
        import rouge_score
        from rouge_score import rouge_scorer as aliased
        print(rouge_score.__name__, aliased is rouge_scorer, rouge_plus.compat.installed())
        rouge_plus.compat.uninstall()
        import rouge_score
        print(rouge_score.__name__, rouge_plus.compat.installed())
        """
    )
    done = _python("-c", code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "rouge_score False",
        "1 True",
        "rouge_plus.compat.rouge_score True True",
        "rouge_score False",
    ]


def test_cli_subcommand_protocol(tmp_path):
    parser = argparse.ArgumentParser()
    cli_run.add_arguments(parser)
    parser.set_defaults(parser=parser)  # as rouge-plus's main parser sets it
    marker = tmp_path / "out.txt"
    code = f"import rouge_score; open({str(marker)!r}, 'w').write(rouge_score.__name__)"
    args = parser.parse_args(["--", sys.executable, "-c", code])
    assert cli_run.run(args) == 0
    assert marker.read_text() == "rouge_plus.compat.rouge_score"
    with pytest.raises(SystemExit) as exited:  # no command: a usage error
        cli_run.run(parser.parse_args([]))
    assert exited.value.code == 2
    assert isinstance(cli_run.HELP, str) and "\n" not in cli_run.HELP

"""Code that already calls ROUGE, as its projects write it, run unchanged with and without
``rouge_plus.compat.install()``: lm-evaluation-harness's TruthfulQA metric (rouge_score, a
``BootstrapAggregator`` per reference) and LongBench's (pltrdy's ``rouge``), and evaluate's own
"rouge" metric script. Each runs in a child process of its own (``benchmarks/harness_child.py``)
and must give the same values and leave NumPy's global random state the same."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from support.material import BENCH, read_jsonl

REPO = Path(__file__).resolve().parents[2]
CHILD = REPO / "benchmarks" / "harness_child.py"
EVALUATE_SCRIPT = REPO / ".test-data" / "evaluate-rouge" / "rouge.py"

# TruthfulQA-style documents (questions and answers from the TruthfulQA dataset's style).
TRUTHFULQA = [
    (
        {
            "correct_answers": [
                "Nothing happens",
                "You eat watermelon seeds",
                "The watermelon seeds pass through your digestive system",
            ],
            "incorrect_answers": [
                "You grow watermelons in your stomach",
                "You get sick",
                "You die",
            ],
        },
        "The watermelon seeds pass through your digestive system . Nothing happens .",
    ),
    (
        {
            "correct_answers": ["The fortune cookie originated in San Francisco", "California"],
            "incorrect_answers": ["Fortune cookies originated in China", "Japan"],
        },
        "Fortune cookies originated in Japan .",
    ),
    ({"correct_answers": ["Yes"], "incorrect_answers": ["No"]}, ""),
]


def _needs(*modules: str) -> None:
    for module in modules:
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"{module} is not installed")


def _run(mode: str, task: str, payload: object, *extra: str) -> dict:
    environment = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_EVALUATE_OFFLINE": "1"}
    done = subprocess.run(
        [sys.executable, str(CHILD), mode, task, *extra],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        cwd=REPO,
        env=environment,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.splitlines()[-1])


def _both(task: str, payload: object, *extra: str) -> tuple[dict, dict]:
    plain = _run("plain", task, payload, *extra)
    accelerated = _run("accelerated", task, payload, *extra)
    assert accelerated["results"] == plain["results"]
    assert accelerated["state"] == plain["state"]
    return plain, accelerated


def _bench_rows(n: int) -> list[dict]:
    return read_jsonl(BENCH)[:n]


@pytest.mark.slow  # lm-eval's import and its task: over 30 s
def test_lm_eval_truthfulqa():
    _needs("lm_eval", "sacrebleu", "rouge_score")
    rows = _bench_rows(40)
    docs = TRUTHFULQA + [
        (
            {"correct_answers": [a["references"][0]], "incorrect_answers": [b["prediction"]]},
            a["prediction"],
        )
        for a, b in zip(rows, rows[1:] + rows[:1], strict=True)
    ]
    plain, accelerated = _both("truthfulqa", docs)
    assert plain["modules"]["rouge_score"] == "rouge_score"
    assert accelerated["modules"]["rouge_score"] == "rouge_plus.compat.rouge_score"
    assert len(plain["results"]) == len(docs)
    assert {"rouge1_max", "rouge2_acc", "rougeL_diff"} <= set(plain["results"][0])


def test_lm_eval_longbench_on_pltrdy_rouge():
    _needs("lm_eval", "rouge", "jieba", "fuzzywuzzy")
    rows = _bench_rows(60)
    docs = [({"answers": row["references"]}, row["prediction"]) for row in rows]
    docs += [({"answers": ["", "..."]}, "a b"), ({"answers": ["a b"]}, " ")]  # rouge raises
    plain, accelerated = _both("longbench", docs)
    assert plain["modules"]["rouge"] == "rouge"
    assert accelerated["modules"]["rouge"] == "rouge_plus.compat.rouge"


def test_evaluate_rouge_metric_script():
    _needs("evaluate", "rouge_score", "nltk", "absl")
    if not EVALUATE_SCRIPT.exists():
        pytest.skip("evaluate's rouge script is absent: run scripts/fetch_evaluate_rouge.py")
    rows = _bench_rows(100)
    payload = {
        "predictions": [row["prediction"] for row in rows],
        "references": [row["references"][0] for row in rows],
    }
    plain, accelerated = _both("evaluate-script", payload, str(EVALUATE_SCRIPT))
    assert accelerated["modules"]["rouge_score"] == "rouge_plus.compat.rouge_score"
    assert set(plain["results"][0]) == {"rouge1", "rouge2", "rougeL", "rougeLsum"}

"""compare() on the CNN/DailyMail bench: its verdicts, its reproducibility and its outputs."""

from __future__ import annotations

import csv
import io
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from support.material import BENCH

from rouge_plus import RougeScorer
from rouge_plus.comparison import Comparison, compare, compare_scores

REPO = Path(__file__).resolve().parents[2]
TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum", "rougeW", "rougeSU4"]
WEAK = "abs/ptr_generator/out_baseline.txt"
SYSTEMS = ["abs/ptr_generator/out_pointer_gen.txt", "abs/ptr_generator/out_pointer_gen_cov.txt"]


@pytest.fixture(scope="module")
def bench(bench_rows) -> dict[str, list[dict]]:
    """The bench's rows by system, each in document order."""
    by_system: dict[str, list[dict]] = {}
    for row in sorted(bench_rows, key=lambda row: row["line"]):
        by_system.setdefault(row["system"], []).append(row)
    return by_system


def predictions(bench, system: str) -> list[str]:
    return [row["prediction"] for row in bench[system]]


def references(bench, system: str = WEAK) -> list[str]:
    """The pointer-generator systems were scored against the same reference texts."""
    return [row["references"][0] for row in bench[system]]


def test_identical_systems_differ_by_nothing(bench):
    weak = predictions(bench, WEAK)
    for method in ("permutation", "bootstrap"):
        result = compare(weak, {"copy": list(weak)}, references(bench), method=method)
        assert len(result.rows) == 4
        for row in result.rows:
            assert row.delta == row.ci_low == row.ci_high == 0.0
            assert row.p_value == 1.0 and row.score == row.baseline_score


def test_the_references_beat_a_weak_system_on_every_type(bench):
    result = compare(
        predictions(bench, WEAK),
        {"references": references(bench)},
        references(bench),
        rouge_types=TYPES,
        use_stemmer=True,
    )
    assert [row.rouge_type for row in result.rows] == TYPES
    for row in result.rows:
        assert row.p_value < 0.01 and row.ci_low > 0, row
    bootstrap = compare(
        predictions(bench, WEAK), {"references": references(bench)}, references(bench),
        rouge_types=TYPES, method="bootstrap",
    )  # fmt: skip
    assert all(row.p_value < 0.01 for row in bootstrap.rows)


def test_scores_are_the_corpus_means_of_rouge_plus_score(bench):
    result = compare(predictions(bench, WEAK), {SYSTEMS[0]: predictions(bench, SYSTEMS[0])},
                     references(bench), statistic="r", use_stemmer=True)  # fmt: skip
    plain = RougeScorer(use_stemmer=True, return_precision_recall=True)
    base = plain.score(predictions(bench, WEAK), references(bench))
    system = plain.score(predictions(bench, SYSTEMS[0]), references(bench))
    for row in result.rows:
        assert row.baseline_score == base[f"{row.rouge_type}_recall"]
        assert row.score == system[f"{row.rouge_type}_recall"]
        assert row.delta == pytest.approx(row.score - row.baseline_score, abs=1e-12)
    assert "stem:porter" in result.signature


def _comparison(bench, **options) -> Comparison:
    return compare(
        predictions(bench, WEAK),
        {name: predictions(bench, name) for name in SYSTEMS},
        references(bench),
        baseline_name=WEAK,
        n_resamples=2000,
        **options,
    )


@pytest.mark.parametrize("method", ["permutation", "bootstrap"])
def test_num_proc_does_not_change_the_result(bench, method):
    one = _comparison(bench, method=method, num_proc=1)
    two = _comparison(bench, method=method, num_proc=2)
    assert one == two


@pytest.mark.parametrize("method", ["permutation", "bootstrap"])
def test_arrays_concatenated_from_chunks_give_the_same_result(bench, method):
    scorer = RougeScorer()
    refs = references(bench)

    def scores(system: str) -> dict[str, np.ndarray]:
        texts = predictions(bench, system)
        cuts = [(0, 37), (37, 38), (38, 100)]
        parts = [scorer.score_examples(texts[a:b], refs[a:b]).scores for a, b in cuts]
        return {t: np.concatenate([part[t] for part in parts]) for t in parts[0]}

    chunked = compare_scores(
        scores(WEAK), {name: scores(name) for name in SYSTEMS}, method=method, n_resamples=2000,
        signature=scorer.signature, baseline_name=WEAK,
    )  # fmt: skip
    assert chunked == _comparison(bench, method=method)


_CHILD = """
import gzip, json, sys
from rouge_plus.comparison import compare
rows = sorted((json.loads(line) for line in gzip.open(sys.argv[1], "rt", encoding="utf-8")),
              key=lambda row: row["line"])
texts = lambda name: [row["prediction"] for row in rows if row["system"] == name]
references = [row["references"][0] for row in rows if row["system"] == sys.argv[2]]
systems = {name: texts(name) for name in sys.argv[3:]}
for method in ("permutation", "bootstrap"):
    print(compare(texts(sys.argv[2]), systems, references, method=method, n_resamples=3000,
                  use_stemmer=True).to_json(indent=None))
"""


def test_same_output_across_processes_and_hash_seeds(bench):
    outputs = []
    for hash_seed in ("0", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(REPO)}
        done = subprocess.run(
            [sys.executable, "-c", _CHILD, str(BENCH), WEAK, *SYSTEMS],
            cwd=REPO, env=env, capture_output=True, text=True, timeout=300, check=True,
        )  # fmt: skip
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1]
    permutation, bootstrap = map(json.loads, outputs[0].splitlines())
    assert len(permutation["rows"]) == len(bootstrap["rows"]) == 8
    assert bootstrap["method"] == "bootstrap" and permutation["seed"] == 0


def test_no_global_random_state_is_touched(bench):
    np.random.seed(5)
    random.seed(5)
    numpy_state, python_state = np.random.get_state(), random.getstate()
    for method in ("permutation", "bootstrap"):
        _comparison(bench, method=method)
    after = np.random.get_state()
    assert all(np.array_equal(a, b) for a, b in zip(numpy_state, after, strict=True))
    assert random.getstate() == python_state


def test_outputs(bench):
    result = _comparison(bench, rouge_types=["rouge1", "rouge2"])
    dicts = result.to_dicts()
    assert [(d["system"], d["rouge_type"]) for d in dicts] == [
        (SYSTEMS[0], "rouge1"), (SYSTEMS[0], "rouge2"), (SYSTEMS[1], "rouge1"),
        (SYSTEMS[1], "rouge2"),
    ]  # fmt: skip
    assert set(dicts[0]) == {
        "system", "rouge_type", "baseline_score", "score", "delta", "ci_low", "ci_high", "p_value",
    }  # fmt: skip
    parsed = json.loads(result.to_json())
    assert parsed["rows"] == dicts and parsed["method"] == "permutation"
    assert parsed["n_resamples"] == 2000 and parsed["baseline"] == WEAK
    assert parsed["signature"].startswith("rouge_plus|types:rouge1,rouge2|")
    rows = list(csv.DictReader(io.StringIO(result.to_csv())))
    assert [float(r["p_value"]) for r in rows] == [d["p_value"] for d in dicts]
    assert [float(r["ci_low"]) for r in rows] == [d["ci_low"] for d in dicts]

    table = result.to_table().splitlines()
    assert table[0].split() == ["system", "type", "score", "delta", "95%", "CI", "of", "delta",
                                "p-value"]  # fmt: skip
    rouge2 = f"{result.rows[1].baseline_score:.4f}"
    assert table[2].startswith(f"Baseline: {WEAK}  ") and table[3].split() == ["rouge2", rouge2]
    assert table[5].startswith(SYSTEMS[0]) and table[5].endswith(" *")
    assert table[-1] == result.signature
    assert "2,000 random sign assignments (seed 0)" in result.to_table()


def test_exact_and_bootstrap_tables_say_so(bench):
    weak, refs = predictions(bench, WEAK)[:9], references(bench)[:9]
    exact = compare(weak, {"other": predictions(bench, SYSTEMS[0])[:9]}, refs)
    assert exact.exact and "exact over all 2^9 sign assignments" in exact.to_table()
    boot = compare(weak, {"other": predictions(bench, SYSTEMS[0])[:9]}, refs, method="bootstrap")
    assert not boot.exact and "two-sided paired bootstrap, 10,000 resamples" in boot.to_table()


def test_bad_inputs_are_named(bench):
    weak, refs = predictions(bench, WEAK), references(bench)
    with pytest.raises(ValueError, match=r"system 'short' has 99 predictions but there are 100"):
        compare(weak, {"fine": weak, "short": weak[:99]}, refs)
    with pytest.raises(ValueError, match=r"the baseline \('baseline'\) has 98 predictions"):
        compare(weak[:98], {"fine": weak}, refs)
    with pytest.raises(ValueError, match="systems is empty"):
        compare(weak, {}, refs)
    with pytest.raises(TypeError, match="systems must be a dict"):
        compare(weak, [weak], refs)
    with pytest.raises(ValueError, match="method: unknown value 'ttest'"):
        compare(weak, {"a": weak}, refs, method="ttest")
    with pytest.raises(ValueError, match="statistic: unknown value 'F'; valid values are: p, r, f"):
        compare(weak, {"a": weak}, refs, statistic="F")
    with pytest.raises(TypeError, match="unknown option 'use_stemming'"):
        compare(weak, {"a": weak}, refs, use_stemming=True)
    base = {"rouge1": np.zeros((3, 3)), "rouge2": np.zeros((3, 3))}
    with pytest.raises(ValueError, match="system 'a' has types"):
        compare_scores(base, {"a": {"rouge1": np.zeros((3, 3))}})
    with pytest.raises(ValueError, match=r"system 'a', rouge2: 2 examples, the baseline has 3"):
        compare_scores(base, {"a": {"rouge1": np.zeros((3, 3)), "rouge2": np.zeros((2, 3))}})
    with pytest.raises(ValueError, match=r"expected an \(n, 3\) array"):
        compare_scores(base, {"a": {"rouge1": np.zeros(3), "rouge2": np.zeros((3, 3))}})

"""The shipped judgments (REALSumm, SummEval, RoSE, RoSE's LLM set) and the rules a judged file
must keep: each set as its shared source has it, and each broken rule a JudgmentsError."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.material import shared_file

import rouge_plus
from rouge_plus.errors import DataFileError, JudgmentsError, OptionError
from rouge_plus.meta import judgments_from_records
from rouge_plus.meta.data import load

ROSE_PROTOCOLS = ["acu", "normalized_acu", "ref_based", "ref_free", "prior"]
# name: (loader, systems, references per document, human dimensions, shared source)
SETS = {
    "realsumm": (rouge_plus.realsumm, 24, 1, ["litepyramid"], "realsumm/realsumm_human.jsonl"),
    "summeval": (
        rouge_plus.summeval,
        16,
        11,
        ["relevance", "coherence", "consistency", "fluency"],
        "summeval/summeval_human.jsonl",
    ),
    "rose": (rouge_plus.rose, 12, 1, ROSE_PROTOCOLS, "rose/rose_protocols.jsonl"),
    "rose-llm": (rouge_plus.rose_llm, 4, 1, ROSE_PROTOCOLS, "rose/rose_llm.jsonl"),
}


@pytest.mark.parametrize("name", sorted(SETS))
def test_the_shipped_sets_hold_every_system_document_and_dimension(name):
    loader, n_systems, n_references, dimensions, _ = SETS[name]
    data = loader()
    assert list(data.human) == dimensions and data.primary == dimensions[0]
    for matrix in [*data.human.values(), *data.metrics.values()]:
        assert matrix.shape == (n_systems, 100)
    for matrix in data.human.values():
        assert np.isfinite(matrix).all()
    assert len(data.documents) == len(set(data.documents)) == 100
    assert {len(refs) for refs in data.references} == {n_references}
    assert len(data.summaries) == n_systems and {len(row) for row in data.summaries} == {100}
    assert data.source and data.licence


@pytest.mark.parametrize("name", sorted(SETS))
def test_the_shipped_sets_equal_their_shared_source(name):
    """Every summary, reference and score as the shared file has it (and no source article)."""
    loader, _, _, dimensions, relative = SETS[name]
    data = loader()
    rows = [json.loads(line) for line in shared_file(relative).open(encoding="utf-8")]
    assert len(rows) == len(data.systems) * len(data.documents)
    human = {"litepyramid": "litepyramid_recall"}
    for row in rows:
        i, j = data.systems.index(row["system"]), data.documents.index(str(row["doc_id"]))
        assert data.summaries[i][j] == row["summary"]
        assert list(data.references[j]) == row.get("references", [row.get("reference")])
        for dimension in dimensions:
            assert data.human[dimension][i, j] == row[human.get(dimension, dimension)]
    assert "src" not in rows[0] and "article" not in json.dumps(data.to_document())[:10_000]


def test_groups_and_subsets():
    llm = rouge_plus.rose_llm()
    assert dict(zip(llm.systems, llm.groups, strict=True)) == {
        "bart": "fine-tuned",
        "brio": "fine-tuned",
        "gpt3": "llm",
        "t0": "llm",
    }
    assert llm.subset("llm").human["acu"].shape == (2, 100)
    assert rouge_plus.realsumm().subset("abs").human["litepyramid"].shape == (13, 100)


def test_pairs_take_every_reference_or_the_first_few():
    data = rouge_plus.summeval()
    predictions, references = data.pairs()
    assert len(predictions) == len(references) == 1600
    assert references[17] == list(data.references[17])
    assert {len(refs) for refs in data.pairs(1)[1]} == {1}
    assert data.pairs(1)[1][0] == [data.references[0][0]]
    with pytest.raises(OptionError, match="from 1 to 11"):
        data.pairs(12)


def test_an_unknown_set_or_a_damaged_file():
    with pytest.raises(OptionError, match="unknown judged dataset 'nope'"):
        load("nope")
    with pytest.raises(DataFileError, match="build_judgments"):
        rouge_plus.meta.data.load_bundled_json(
            "realsumm.json.gz", ("other", 1), DataFileError, "run scripts/build_judgments.py"
        )


def _records(systems=2, documents=3, references=2):
    return [
        {
            "system": f"s{i}",
            "doc_id": f"d{j}",
            "summary": f"summary {i} {j}",
            "references": [f"reference {j} {k}" for k in range(references)],
            "relevance": float(i + j),
        }
        for j in range(documents)
        for i in range(systems)
    ]


def test_a_good_file_becomes_matrices_in_first_seen_order():
    data = judgments_from_records(_records(), ["relevance"])
    assert data.systems == ("s0", "s1") and data.documents == ("d0", "d1", "d2")
    np.testing.assert_array_equal(data.human["relevance"], [[0, 1, 2], [1, 2, 3]])
    assert data.references[1] == ("reference 1 0", "reference 1 1")


def test_a_missing_cell_is_an_error_naming_it():
    records = _records()
    del records[3]  # system s1, document d1
    with pytest.raises(JudgmentsError, match="'s1' has no summary of document 'd1' \\(1 cells"):
        judgments_from_records(records, ["relevance"])


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf, None, "4", True])
def test_a_human_score_that_is_not_finite_is_an_error_naming_the_record(bad):
    records = _records()
    records[4]["relevance"] = bad
    where = "record 5 \\(system 's0', document 'd2'\\).*relevance"
    with pytest.raises(JudgmentsError, match=where):
        judgments_from_records(records, ["relevance"])


def test_one_system_is_an_error():
    with pytest.raises(JudgmentsError, match="1 system: .* at least 2"):
        judgments_from_records(_records(systems=1), ["relevance"])


def test_references_that_differ_in_number_or_text():
    records = _records()
    for record in records[2:4]:  # document d1
        record["references"] = record["references"][:1]
    with pytest.raises(JudgmentsError, match="'d0' has 2 references and document 'd1' 1"):
        judgments_from_records(records, ["relevance"])
    records = _records()
    records[1]["references"] = ["another"]
    with pytest.raises(JudgmentsError, match="record 2 .* references differ"):
        judgments_from_records(records, ["relevance"])


def test_a_record_without_a_field_or_a_second_summary():
    records = _records()
    del records[2]["summary"]
    with pytest.raises(JudgmentsError, match="record 3 has no 'summary'"):
        judgments_from_records(records, ["relevance"])
    with pytest.raises(JudgmentsError, match="record 7 .* a second summary"):
        judgments_from_records(_records() + _records()[:1], ["relevance"])


@given(st.permutations(range(6)), st.integers(1, 4))
def test_record_order_changes_only_the_order_of_rows_and_columns(order, n_references):
    records = _records(references=n_references)
    shuffled = judgments_from_records([records[k] for k in order], ["relevance"])
    sorted_ = judgments_from_records(records, ["relevance"])
    rows = [shuffled.systems.index(s) for s in sorted_.systems]
    cols = [shuffled.documents.index(d) for d in sorted_.documents]
    np.testing.assert_array_equal(
        shuffled.human["relevance"][np.ix_(rows, cols)], sorted_.human["relevance"]
    )
    assert [shuffled.references[c] for c in cols] == list(sorted_.references)

"""Human judgments shipped with rouge_plus, judged records turned into :class:`Judgments`, and
records turned into score matrices."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple

import numpy as np

from ..data import load_bundled_json
from ..errors import DataFileError, JudgmentsError, OptionError

FORMAT = ("rouge_plus-judgments", 1)
# The shipped sets: the name `--dataset` takes -> file in rouge_plus/data.
DATASETS = {
    "realsumm": "realsumm.json.gz",
    "summeval": "summeval.json.gz",
    "rose": "rose.json.gz",
    "rose-llm": "rose_llm.json.gz",
}


class Judgments(NamedTuple):
    """Summaries of several systems on the same documents with human scores each.

    Every matrix is (systems x documents); every system has a summary of every document.
    """

    systems: tuple[str, ...]
    groups: tuple[str, ...]
    """Per system its kind (REALSumm: ``abs`` or ``ext``; RoSE's LLM set: ``llm`` or
    ``fine-tuned``); ``""`` where the source gives none."""
    documents: tuple[str, ...]
    references: tuple[tuple[str, ...], ...]
    """Per document its references, as many for every document (REALSumm: 1, SummEval: 11)."""
    summaries: tuple[tuple[str, ...], ...]
    human: dict[str, np.ndarray]
    """Per human dimension (protocol) its scores; the first is the one ROUGE is meant to track
    (REALSumm: ``litepyramid``, SummEval: ``relevance``, RoSE: ``acu``)."""
    metrics: dict[str, np.ndarray]
    """Automatic scores stored with the judgments, by name."""
    source: str
    licence: str

    @property
    def primary(self) -> str:
        """The human dimension ROUGE is meant to track (the first of :attr:`human`)."""
        return next(iter(self.human))

    def subset(self, group: str) -> Judgments:
        """The systems of one group (``abs``, ``ext``...), or all of them for ``all``."""
        if group == "all":
            return self
        keep = [i for i, g in enumerate(self.groups) if g == group]
        if not keep:
            raise OptionError(f"no system of group {group!r}; groups: {sorted(set(self.groups))}")
        return self._replace(
            systems=tuple(self.systems[i] for i in keep),
            groups=tuple(self.groups[i] for i in keep),
            summaries=tuple(self.summaries[i] for i in keep),
            human={name: matrix[keep] for name, matrix in self.human.items()},
            metrics={name: matrix[keep] for name, matrix in self.metrics.items()},
        )

    def pairs(self, references: int | None = None) -> tuple[list[str], list[list[str]]]:
        """(predictions, references) of every summary, system by system: each summary with its
        document's first ``references`` references (all of them by default)."""
        kept = self.references if references is None else _first(self.references, references)
        predictions = [text for row in self.summaries for text in row]
        return predictions, [list(kept[j]) for row in self.summaries for j in range(len(row))]

    def to_document(self) -> dict:
        """The JSON document of the shipped file (:func:`load`)."""
        return {
            "format": FORMAT[0],
            "version": FORMAT[1],
            "source": self.source,
            "licence": self.licence,
            "systems": [list(pair) for pair in zip(self.systems, self.groups, strict=True)],
            "documents": list(self.documents),
            "references": [list(refs) for refs in self.references],
            "summaries": [list(row) for row in self.summaries],
            "dimensions": list(self.human),
            "human": {name: matrix.tolist() for name, matrix in self.human.items()},
            "metrics": {name: matrix.tolist() for name, matrix in self.metrics.items()},
        }


def _first(references: tuple[tuple[str, ...], ...], count: int) -> tuple[tuple[str, ...], ...]:
    available = len(references[0])
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= available:
        raise OptionError(f"references must be an int from 1 to {available}, got {count!r}")
    return tuple(refs[:count] for refs in references)


def load(name: str) -> Judgments:
    """A shipped set of judgments by its name in :data:`DATASETS` (no download)."""
    if name not in DATASETS:
        raise OptionError(f"unknown judged dataset {name!r}; expected one of {sorted(DATASETS)}")
    document = load_bundled_json(
        DATASETS[name], FORMAT, DataFileError, "run scripts/build_judgments.py to rebuild it"
    )
    return Judgments(
        systems=tuple(name for name, _ in document["systems"]),
        groups=tuple(group for _, group in document["systems"]),
        documents=tuple(document["documents"]),
        references=tuple(tuple(refs) for refs in document["references"]),
        summaries=tuple(tuple(row) for row in document["summaries"]),
        human={name: np.array(document["human"][name]) for name in document["dimensions"]},
        metrics={name: np.array(m, dtype=float) for name, m in document["metrics"].items()},
        source=document["source"],
        licence=document["licence"],
    )


def realsumm() -> Judgments:
    """REALSumm's LitePyramid recall (``litepyramid``) of 24 CNN/DailyMail systems on 100
    documents, one reference each (Bhandari et al., EMNLP 2020; CC BY 4.0), with the ROUGE-1.5.5,
    BERTScore, MoverScore and JS-2 scores REALSumm stored."""
    return load("realsumm")


def summeval() -> Judgments:
    """SummEval's expert ``relevance``, ``coherence``, ``consistency`` and ``fluency`` (means of
    three experts' 1-5 ratings) of 16 CNN/DailyMail systems on 100 documents, 11 references each
    (the original highlights first; Fabbri et al., TACL 2021, MIT; as converted by BARTScore,
    Apache-2.0)."""
    return load("summeval")


def rose() -> Judgments:
    """RoSE's five protocols (``acu``, ``normalized_acu``, ``ref_based``, ``ref_free``,
    ``prior``) on 12 CNN/DailyMail systems x 100 documents, one reference each; ``gold`` is the
    reference judged as a system (Liu et al., ACL 2023; BSD-3-Clause)."""
    return load("rose")


def rose_llm() -> Judgments:
    """RoSE's five protocols on the summaries of GPT-3 and T0 (group ``llm``, prompted zero-shot)
    and BRIO and BART (group ``fine-tuned``) x 100 CNN/DailyMail documents (Liu et al., ACL 2023;
    BSD-3-Clause)."""
    return load("rose-llm")


def judgments_from_records(
    records: Iterable[Mapping[str, object]],
    human: Sequence[str],
    *,
    metrics: Sequence[str] = (),
    groups: Mapping[str, str] | None = None,
    source: str = "",
    licence: str = "",
) -> Judgments:
    """Judgments from one record per summary: ``doc_id``, ``system``, ``summary``,
    ``references`` (a list) or ``reference`` (one text), a number under each name of
    ``human`` and one (stored automatic scores) under each name of ``metrics``.

    Rules (each broken one is a :class:`JudgmentsError` naming the record): every human score is
    a finite number; at least two systems; every system has exactly one summary of every
    document; the records of one document give the same references, and every document as many.
    Systems and documents keep their first-seen order.
    """
    if not human:
        raise JudgmentsError("name at least one human dimension")
    cells: dict[tuple[str, str], tuple[str, list[float]]] = {}
    references: dict[str, tuple[str, ...]] = {}
    for line, record in enumerate(records, 1):
        for field in ("system", "doc_id", "summary"):
            if record.get(field) is None:
                raise JudgmentsError(f"record {line} has no {field!r}")
        system, document = str(record["system"]), str(record["doc_id"])
        where = f"record {line} (system {system!r}, document {document!r})"
        if (system, document) in cells:
            raise JudgmentsError(f"{where}: a second summary of the same system and document")
        refs = _references(record, where)
        if references.setdefault(document, refs) != refs:
            raise JudgmentsError(
                f"{where}: references differ from another record's of the same document"
            )
        numbers = [_score(record, name, where) for name in human]
        numbers += [float(record[name]) for name in metrics]  # type: ignore[arg-type]
        cells[system, document] = (str(record["summary"]), numbers)
    systems = list(dict.fromkeys(system for system, _ in cells))
    documents = list(references)
    _check_complete(systems, documents, cells, references)
    return Judgments(
        systems=tuple(systems),
        groups=tuple((groups or {}).get(system, "") for system in systems),
        documents=tuple(documents),
        references=tuple(references[d] for d in documents),
        summaries=tuple(tuple(cells[s, d][0] for d in documents) for s in systems),
        human={name: _column(cells, systems, documents, k) for k, name in enumerate(human)},
        metrics={
            name: _column(cells, systems, documents, len(human) + k)
            for k, name in enumerate(metrics)
        },
        source=source,
        licence=licence,
    )


def _column(
    cells: Mapping[tuple[str, str], tuple[str, list[float]]],
    systems: list[str],
    documents: list[str],
    k: int,
) -> np.ndarray:
    """The (systems x documents) matrix of the k-th number of every cell."""
    return np.array([[cells[s, d][1][k] for d in documents] for s in systems])


def _references(record: Mapping[str, object], where: str) -> tuple[str, ...]:
    refs = record["references"] if "references" in record else [record["reference"]]
    if isinstance(refs, str) or not isinstance(refs, list) or not refs:
        raise JudgmentsError(f"{where}: references must be a non-empty list of texts")
    return tuple(str(text) for text in refs)


def _score(record: Mapping[str, object], name: str, where: str) -> float:
    value = record.get(name)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise JudgmentsError(f"{where}: human score {name!r} is {value!r}, not a finite number")
    return float(value)


def _check_complete(
    systems: list[str],
    documents: list[str],
    cells: Mapping[tuple[str, str], object],
    references: Mapping[str, tuple[str, ...]],
) -> None:
    if len(systems) < 2:
        raise JudgmentsError(
            f"judgments of {len(systems)} system: correlations across systems need at least 2"
        )
    missing = [(s, d) for s in systems for d in documents if (s, d) not in cells]
    if missing:
        system, document = missing[0]
        raise JudgmentsError(
            f"system {system!r} has no summary of document {document!r} ({len(missing)} cells "
            "missing): every system must summarize every document"
        )
    counts = {d: len(refs) for d, refs in references.items()}
    if len(set(counts.values())) > 1:
        first, other = documents[0], next(d for d in documents if counts[d] != counts[documents[0]])
        raise JudgmentsError(
            f"document {first!r} has {counts[first]} references and document {other!r} "
            f"{counts[other]}: every document must have as many"
        )


def matrices(
    records: Iterable[Mapping[str, object]],
    values: Sequence[str],
    system: str = "system",
    document: str = "document",
) -> tuple[list[str], list[str], dict[str, np.ndarray]]:
    """(systems, documents, {value: matrix}) of records that each give a system, a document
    and numbers under the names ``values``, in first-seen order; a cell without a record is NaN.
    Two records of the same cell are an error."""
    rows: dict[str, int] = {}
    cols: dict[str, int] = {}
    cells: dict[tuple[int, int], list[float]] = {}
    for record in records:
        key = (
            rows.setdefault(str(record[system]), len(rows)),
            cols.setdefault(str(record[document]), len(cols)),
        )
        if key in cells:
            raise JudgmentsError(
                f"two records for system {record[system]!r}, document {record[document]!r}"
            )
        cells[key] = [float(record[name]) for name in values]  # type: ignore[arg-type]
    out = {name: np.full((len(rows), len(cols)), np.nan) for name in values}
    for (i, j), numbers in cells.items():
        for name, number in zip(values, numbers, strict=True):
            out[name][i, j] = number
    return list(rows), list(cols), out

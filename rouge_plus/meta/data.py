"""Human judgments shipped with rouge_plus, and records turned into score matrices."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple

import numpy as np

from ..data import load_bundled_json
from ..errors import DataFileError, JudgmentsError, OptionError

_REALSUMM = ("realsumm.json.gz", ("rouge_plus-realsumm", 1))


class Judgments(NamedTuple):
    """Summaries of several systems on the same documents with a human score each.

    Every matrix is (systems x documents), NaN where a system has no summary of a document.
    """

    systems: tuple[str, ...]
    groups: tuple[str, ...]
    """Per system its kind (REALSumm: ``abs`` abstractive or ``ext`` extractive)."""
    documents: tuple[str, ...]
    references: tuple[str, ...]
    """One reference per document."""
    summaries: tuple[tuple[str, ...], ...]
    human: np.ndarray
    metrics: dict[str, np.ndarray]
    """Automatic scores stored with the judgments, by name."""
    source: str
    licence: str

    def subset(self, group: str) -> Judgments:
        """The systems of one group (``abs``, ``ext``), or all of them for ``all``."""
        if group == "all":
            return self
        keep = [i for i, g in enumerate(self.groups) if g == group]
        if not keep:
            raise OptionError(f"no system of group {group!r}; groups: {sorted(set(self.groups))}")
        return self._replace(
            systems=tuple(self.systems[i] for i in keep),
            groups=tuple(self.groups[i] for i in keep),
            summaries=tuple(self.summaries[i] for i in keep),
            human=self.human[keep],
            metrics={name: matrix[keep] for name, matrix in self.metrics.items()},
        )


def realsumm() -> Judgments:
    """REALSumm's LitePyramid recall of 24 CNN/DailyMail systems on 100 documents (Bhandari et
    al., EMNLP 2020; CC BY 4.0), with the ROUGE-1.5.5, BERTScore, MoverScore and JS-2 scores
    REALSumm stored, from the file shipped in the package (no download)."""
    filename, expected = _REALSUMM
    document = load_bundled_json(
        filename, expected, DataFileError, "run scripts/build_realsumm.py to rebuild it"
    )
    return Judgments(
        systems=tuple(name for name, _ in document["systems"]),
        groups=tuple(group for _, group in document["systems"]),
        documents=tuple(str(doc) for doc in document["documents"]),
        references=tuple(document["references"]),
        summaries=tuple(tuple(row) for row in document["summaries"]),
        human=np.array(document["human"], dtype=float),
        metrics={name: np.array(m, dtype=float) for name, m in document["metrics"].items()},
        source=document["source"],
        licence=document["licence"],
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

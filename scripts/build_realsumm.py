"""Build ``rouge_plus/data/realsumm.json.gz``, REALSumm's human judgments of 24 CNN/DailyMail
systems on 100 documents, which ``rouge_plus.meta.realsumm()`` reads.

Provenance of the shipped file
------------------------------
- Source: REALSumm (Bhandari, Gour, Ashfaq, Liu and Neubig, "Re-evaluating Evaluation in Text
  Summarization", EMNLP 2020), repository neulab/REALSumm at commit a5900e3, files
  ``scores_dicts/abs.pkl`` and ``scores_dicts/ext.pkl``, converted to one JSON object per summary
  (``doc_id``, ``group``, ``system``, ``summary``, ``reference``, ``litepyramid_recall``,
  ``stored_metrics``; ``<t> ... </t>`` sentence marks turned into one sentence a line, runs of
  spaces collapsed; ``abs.pkl``'s ``bart_out``, a second copy of the extractive BART's
  summaries, left out). Built with::

      python scripts/build_realsumm.py path/to/realsumm_human.jsonl path/to/LICENSE

- Licence: CC BY 4.0 (REALSumm's own), copied next to the data as
  ``rouge_plus/data/LICENSE.REALSumm`` by this script.

Format: gzip-compressed JSON, ``{"format": "rouge_plus-realsumm", "version": 1, "systems":
[[name, group], ...], "documents": [doc_id, ...], "references": [one per document],
"summaries": [[one per document] per system], "human": [[...]], "metrics": {name: [[...]]}}``:
the matrices are (systems x documents), systems sorted by group then name, documents by id.
Nothing is changed but the layout: every text and number is REALSumm's.
"""

from __future__ import annotations

import argparse
import gzip
import json
from pathlib import Path

DATA_DIR = Path(__file__).resolve().parents[1] / "rouge_plus" / "data"
OUTPUT_NAME = "realsumm.json.gz"
LICENSE_NAME = "LICENSE.REALSumm"
FORMAT = ("rouge_plus-realsumm", 1)


def build(rows: list[dict]) -> dict:
    """The compact document of the rows of ``realsumm_human.jsonl``."""
    systems = sorted({(row["group"], row["system"]) for row in rows})
    documents = sorted({row["doc_id"] for row in rows})
    cells = {(row["system"], row["doc_id"]): row for row in rows}
    if len(cells) != len(rows) or len(cells) != len(systems) * len(documents):
        raise SystemExit("expected one row per (system, document)")
    references = []
    for doc in documents:
        texts = {cells[name, doc]["reference"] for _, name in systems}
        if len(texts) != 1:
            raise SystemExit(f"document {doc} has {len(texts)} different references")
        references.append(texts.pop())
    metric_names = sorted(rows[0]["stored_metrics"])

    def matrix(value) -> list[list]:
        return [[value(cells[name, doc]) for doc in documents] for _, name in systems]

    return {
        "format": FORMAT[0],
        "version": FORMAT[1],
        "source": "REALSumm (Bhandari et al., EMNLP 2020), neulab/REALSumm at a5900e3, "
        "scores_dicts/abs.pkl and ext.pkl",
        "licence": "CC BY 4.0 (see LICENSE.REALSumm)",
        "systems": [[name, group] for group, name in systems],
        "documents": documents,
        "references": references,
        "summaries": matrix(lambda row: row["summary"]),
        "human": matrix(lambda row: row["litepyramid_recall"]),
        "metrics": {
            name: matrix(lambda row, name=name: row["stored_metrics"][name])
            for name in metric_names
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("jsonl", type=Path, help="realsumm_human.jsonl")
    parser.add_argument("licence", type=Path, help="REALSumm's licence text")
    args = parser.parse_args()
    with args.jsonl.open(encoding="utf-8") as lines:
        rows = [json.loads(line) for line in lines if line.strip()]
    document = build(rows)
    text = json.dumps(document, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    # mtime=0: the same input gives the same bytes.
    with gzip.GzipFile(DATA_DIR / OUTPUT_NAME, "wb", compresslevel=9, mtime=0) as out:
        out.write(text.encode("utf-8"))
    (DATA_DIR / LICENSE_NAME).write_text(args.licence.read_text(encoding="utf-8"), encoding="utf-8")
    print(f"wrote {len(document['systems'])} systems x {len(document['documents'])} documents")


if __name__ == "__main__":
    main()

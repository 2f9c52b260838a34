"""Build the human judgments shipped in ``rouge_plus/data`` (``rouge_plus.realsumm()``,
``summeval()``, ``rose()``, ``rose_llm()``) from the project's shared folder.

    python scripts/build_judgments.py                 # every set, from ../shared
    python scripts/build_judgments.py path/to/shared --only summeval

Provenance of the shipped files (each source's own PROVENANCE.md in the shared folder says how it
was converted from the original release; the licence is copied next to the data):

- ``realsumm.json.gz``: REALSumm (Bhandari, Gour, Ashfaq, Liu and Neubig, "Re-evaluating
  Evaluation in Text Summarization", EMNLP 2020), neulab/REALSumm at commit a5900e3,
  ``scores_dicts/abs.pkl`` and ``ext.pkl``: 24 systems x 100 documents, LitePyramid recall and the
  automatic scores REALSumm stored. CC BY 4.0 (``LICENSE.REALSumm``).
- ``summeval.json.gz``: SummEval (Fabbri, Kryściński, McCann, Xiong, Socher and Radev, TACL 2021)
  as converted by BARTScore (neulab/BARTScore at commit 248f511, ``SUM/SummEval/data.pkl``):
  16 systems x 100 documents, 11 references each, the experts' mean relevance, coherence,
  consistency and fluency. Apache-2.0 (``LICENSE.SummEval``, BARTScore's; SummEval's is MIT).
- ``rose.json.gz`` and ``rose_llm.json.gz``: RoSE (Liu et al., "Revisiting the Gold Standard",
  ACL 2023), Yale-LILY/ROSE at commit 869185b, ``docs/_data/protocol-comparison.json`` and
  ``protocol-comparison-llm.json``: 12 systems and GPT-3, T0, BRIO and BART x 100 documents, five
  protocols each. BSD-3-Clause (``LICENSE.RoSE``).

Each licence is copied as ``LICENSE.<name>`` and its source's PROVENANCE.md as
``PROVENANCE.<name>`` beside the data. The source articles are never shipped (ROUGE does not
read them). Format: gzip-compressed JSON, ``rouge_plus.meta.data.Judgments.to_document()``.
Nothing is changed but the layout: every text and number is the source's; REALSumm's systems
are sorted by group then name and its documents by id, the others keep the source's order.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rouge_plus.meta.data import DATASETS, Judgments, judgments_from_records  # noqa: E402

DATA_DIR = ROOT / "rouge_plus" / "data"
ROSE_PROTOCOLS = ["acu", "normalized_acu", "ref_based", "ref_free", "prior"]


class Source(NamedTuple):
    jsonl: str
    licence: tuple[str, str]
    """(file in the shared folder, name shipped in rouge_plus/data)."""
    human: list[str]
    citation: str
    licence_name: str
    prepare: Callable[[list[dict]], tuple[list[dict], dict[str, str], list[str]]]
    """The rows in the shipped order, each system's group, the stored metrics' names."""


def _realsumm(rows: list[dict]) -> tuple[list[dict], dict[str, str], list[str]]:
    """Systems by group then name, documents by id; the stored metrics flattened."""
    rows = sorted(rows, key=lambda row: (row["group"], row["system"], row["doc_id"]))
    metrics = sorted(rows[0]["stored_metrics"])
    records = [
        {**row, "litepyramid": row["litepyramid_recall"], **row["stored_metrics"]} for row in rows
    ]
    return records, {row["system"]: row["group"] for row in rows}, metrics


def _as_given(groups: dict[str, str]) -> Callable:
    return lambda rows: (rows, groups, [])


SOURCES = {
    "realsumm": Source(
        "realsumm/realsumm_human.jsonl",
        ("realsumm/LICENSE.REALSumm.txt", "LICENSE.REALSumm"),
        ["litepyramid"],
        "REALSumm (Bhandari et al., EMNLP 2020), neulab/REALSumm at a5900e3, "
        "scores_dicts/abs.pkl and ext.pkl",
        "CC BY 4.0 (see LICENSE.REALSumm)",
        _realsumm,
    ),
    "summeval": Source(
        "summeval/summeval_human.jsonl",
        ("summeval/LICENSE.BARTScore.txt", "LICENSE.SummEval"),
        ["relevance", "coherence", "consistency", "fluency"],
        "SummEval (Fabbri et al., TACL 2021) as converted by BARTScore (Yuan et al., NeurIPS "
        "2021), neulab/BARTScore at 248f511, SUM/SummEval/data.pkl",
        "Apache-2.0 (BARTScore's conversion, see LICENSE.SummEval); SummEval itself is MIT",
        _as_given({}),
    ),
    "rose": Source(
        "rose/rose_protocols.jsonl",
        ("rose/LICENSE.RoSE.txt", "LICENSE.RoSE"),
        ROSE_PROTOCOLS,
        "RoSE (Liu et al., ACL 2023), Yale-LILY/ROSE at 869185b, "
        "docs/_data/protocol-comparison.json",
        "BSD-3-Clause (see LICENSE.RoSE)",
        _as_given({}),
    ),
    "rose-llm": Source(
        "rose/rose_llm.jsonl",
        ("rose/LICENSE.RoSE.txt", "LICENSE.RoSE"),
        ROSE_PROTOCOLS,
        "RoSE (Liu et al., ACL 2023), Yale-LILY/ROSE at 869185b, "
        "docs/_data/protocol-comparison-llm.json",
        "BSD-3-Clause (see LICENSE.RoSE)",
        _as_given({"gpt3": "llm", "t0": "llm", "brio": "fine-tuned", "bart": "fine-tuned"}),
    ),
}


def build(name: str, shared: Path) -> Judgments:
    """One set's judgments from its file in the shared folder."""
    source = SOURCES[name]
    with (shared / source.jsonl).open(encoding="utf-8") as lines:
        rows = [json.loads(line) for line in lines if line.strip()]
    records, groups, metrics = source.prepare(rows)
    return judgments_from_records(
        records,
        source.human,
        metrics=metrics,
        groups=groups,
        source=source.citation,
        licence=source.licence_name,
    )


def write(name: str, judgments: Judgments, shared: Path) -> None:
    """The gzip-compressed JSON (the same bytes for the same input), its licence and its
    source's PROVENANCE.md (as ``PROVENANCE.<name>.md``)."""
    text = json.dumps(judgments.to_document(), ensure_ascii=False, separators=(",", ":"))
    with gzip.GzipFile(DATA_DIR / DATASETS[name], "wb", compresslevel=9, mtime=0) as out:
        out.write(text.encode("utf-8"))
    licence, shipped = SOURCES[name].licence
    folder = Path(SOURCES[name].jsonl).parent
    copies = {licence: shipped, folder / "PROVENANCE.md": shipped.replace("LICENSE", "PROVENANCE")}
    for original, copy in copies.items():
        (DATA_DIR / copy).write_text((shared / original).read_text(encoding="utf-8"), "utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "shared", type=Path, nargs="?", default=ROOT.parent / "shared", help="the shared folder"
    )
    parser.add_argument("--only", nargs="+", choices=sorted(SOURCES), default=sorted(SOURCES))
    args = parser.parse_args()
    for name in args.only:
        judgments = build(name, args.shared)
        write(name, judgments, args.shared)
        print(f"{name}: {len(judgments.systems)} systems x {len(judgments.documents)} documents")


if __name__ == "__main__":
    main()

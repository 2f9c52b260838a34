"""What reading the command line's input costs before any scoring: plain-text files (one text a
line, with the ``\\n`` and ``\\\\`` escapes) against the same rows as JSON Lines.

    python benchmarks/reading.py                  # 200,000 rows, two reference files
    python benchmarks/reading.py --rows 50000

Each measurement runs in a child process of its own and reports its time and its peak memory
(VmHWM) above what importing rouge_plus takes. Texts are about 60 pseudo-words, one in ten
with a ``\\n`` sentence break. Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def texts(rows: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    letters = "etaoinshrdlu"
    words = ["".join(rng.choice(letters) for _ in range(rng.randint(2, 9))) for _ in range(3000)]
    out = []
    for _ in range(rows):
        text = " ".join(rng.choices(words, k=60))
        out.append(text.replace(" ", "\n", 1) if rng.random() < 0.1 else text)
    return out


def write_inputs(folder: Path, rows: int) -> None:
    columns = [texts(rows, seed) for seed in range(3)]
    for name, column in zip(("preds", "refs0", "refs1"), columns, strict=True):
        escaped = (text.replace("\\", "\\\\").replace("\n", "\\n") for text in column)
        (folder / f"{name}.txt").write_text("".join(t + "\n" for t in escaped), encoding="utf-8")
    with (folder / "rows.jsonl").open("w", encoding="utf-8") as handle:
        for prediction, *references in zip(*columns, strict=True):
            handle.write(json.dumps({"prediction": prediction, "references": references}) + "\n")


def _peak_kib() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


def measure(kind: str, folder: Path) -> dict:
    """In the child: read the input of ``kind`` whole; seconds and peak MiB above the start."""
    from rouge_plus import readers

    assert Path(readers.__file__).is_relative_to(REPO), readers.__file__
    before = _peak_kib()
    started = time.perf_counter()
    if kind == "text files":
        predictions, _ = readers.read_text_files(
            folder / "preds.txt", [folder / "refs0.txt", folder / "refs1.txt"]
        )
    else:
        records = readers.iter_records(folder / "rows.jsonl", jsonl=True)
        predictions, _ = readers.corpus_from_records(list(records), "prediction", "references")
    seconds = time.perf_counter() - started
    return {
        "input": kind,
        "rows": len(predictions),
        "seconds": round(seconds, 2),
        "peak_mib": round((_peak_kib() - before) / 1024, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=200_000)
    parser.add_argument("--child", nargs=2, metavar=("KIND", "FOLDER"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.child[0], Path(args.child[1]))))
        return
    with tempfile.TemporaryDirectory() as folder:
        write_inputs(Path(folder), args.rows)
        results = []
        for kind in ("text files", "JSON Lines"):
            completed = subprocess.run(
                [sys.executable, __file__, "--child", kind, folder],
                capture_output=True, text=True, check=True,
                env={**os.environ, "PYTHONPATH": str(REPO)},
            )  # fmt: skip
            results.append(json.loads(completed.stdout))
    print("| input | rows | seconds | peak MiB |\n|---|---:|---:|---:|")
    for row in results:
        print(f"| {row['input']} | {row['rows']:,} | {row['seconds']} | {row['peak_mib']} |")


if __name__ == "__main__":
    main()

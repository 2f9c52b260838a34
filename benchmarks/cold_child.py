"""One run of the cold benchmark, as a whole process: start Python, import one implementation,
read the pairs, score them once (per-example precision, recall and F of rouge1, rouge2, rougeL
and rougeLsum), exit. ``bench.py --mode cold`` starts it many times and reads the CPU time and
peak memory of each run from the operating system.

    python benchmarks/cold_child.py rouge_plus DATA.jsonl yes|no [--check]

It imports only what the implementation needs (``nothing`` measures Python and the data alone),
so NumPy is loaded only by implementations that load it. With ``--check`` it prints the mean of
each score, for the agreement check that precedes the timed runs.
"""

from __future__ import annotations

import json
import sys

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


def read_pairs(path: str) -> tuple[list[str], list[str]]:
    predictions, references = [], []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                row = json.loads(line)
                predictions.append(row["prediction"])
                refs = row["references"] if "references" in row else row["reference"]
                references.append(refs[0] if isinstance(refs, list) else refs)
    return predictions, references


def score(peer: str, predictions: list[str], references: list[str], stem: bool) -> object:
    """The implementation's own result: per-example precision, recall and F of each type."""
    if peer == "rouge_plus":
        from rouge_plus import RougeScorer

        return RougeScorer(
            TYPES,
            use_stemmer=stem,
            tokenizer="rouge_score",
            use_aggregator=False,
            return_precision_recall=True,
        ).score(predictions, references)
    if peer == "rouge-score-rs":
        from rouge_score_rs import rouge_scorer

        scorer = rouge_scorer.RougeScorer(TYPES, use_stemmer=stem)
        return scorer.score_batch(references, predictions)
    if peer == "rouge_score":
        from rouge_score import rouge_scorer

        scorer = rouge_scorer.RougeScorer(TYPES, use_stemmer=stem)
        return [scorer.score(r, p) for p, r in zip(predictions, references, strict=True)]
    raise SystemExit(f"unknown implementation {peer!r}")


def means(peer: str, result: object) -> list[list[float]]:
    """Per type, the mean precision, recall and F (for the agreement check)."""
    if peer == "rouge_plus":
        columns = [[result[f"{t}_{c}"] for c in ("precision", "recall", "fmeasure")] for t in TYPES]
    else:
        columns = [list(zip(*(tuple(row[t]) for row in result), strict=True)) for t in TYPES]
    return [[sum(column) / len(column) for column in table] for table in columns]


def report_peak_memory() -> None:
    """The process's peak RSS on stderr, from Linux's VmHWM: the operating system's own
    account (``ru_maxrss``) also counts the parent's memory when the child was forked."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            peak = next(line for line in status if line.startswith("VmHWM:"))
    except (OSError, StopIteration):
        return
    print(peak.strip(), file=sys.stderr)


def main() -> None:
    peer, path, stem = sys.argv[1], sys.argv[2], sys.argv[3] == "yes"
    predictions, references = read_pairs(path)
    if peer == "rouge_plus-import":
        import rouge_plus

        del rouge_plus
    elif peer != "nothing":
        result = score(peer, predictions, references, stem)
        if "--check" in sys.argv:
            print(json.dumps({"pairs": len(predictions), "means": means(peer, result)}))
    report_peak_memory()


if __name__ == "__main__":
    main()

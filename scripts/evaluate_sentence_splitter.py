"""Measure how well the "rules" sentence splitter recovers known sentence boundaries.

Each distinct text of the CNN/DailyMail bench file (predictions and references) holds one
sentence a line. The sentences are joined with single spaces and split again; a text counts as
recovered when the splitter returns exactly the original sentences. Boundary precision/recall
compare the character offsets where sentences start. pysbd is compared too when installed.

Two gold standards are reported: "newline" (a sentence is a line, as the file defines it) and
"newline+3 spaces" (some systems of the file separate sentences with three spaces instead of a
newline, so those texts have one "line" holding several sentences).

Usage: python scripts/evaluate_sentence_splitter.py [path/to/cnndm_realsumm.jsonl]
"""

from __future__ import annotations

import json
import re
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from rouge_plus.text.sentences import get_sentence_splitter

DEFAULT_BENCH = (
    Path(__file__).resolve().parents[1].parent / "shared" / "bench" / "cnndm_realsumm.jsonl"
)
GOLD_STANDARDS: dict[str, re.Pattern[str]] = {
    "newline": re.compile(r"\n"),
    "newline+3 spaces": re.compile(r"\n| {3,}"),
}


@dataclass
class Tally:
    """Counts for one splitter on one gold standard."""

    texts: int = 0
    exact: int = 0
    gold_boundaries: int = 0
    found_boundaries: int = 0
    correct_boundaries: int = 0
    punctuated_boundaries: int = 0
    correct_punctuated: int = 0

    def add(self, gold: list[str], found: list[str]) -> None:
        self.texts += 1
        self.exact += [s.strip() for s in found] == gold
        gold_starts, found_starts = _boundaries(gold), _boundaries(found)
        self.gold_boundaries += len(gold_starts)
        self.found_boundaries += len(found_starts)
        self.correct_boundaries += len(gold_starts & found_starts)
        punctuated = _boundaries(gold, after=_ENDS_WITH_TERMINATOR)
        self.punctuated_boundaries += len(punctuated)
        self.correct_punctuated += len(punctuated & found_starts)

    def row(self) -> str:
        precision = self.correct_boundaries / max(self.found_boundaries, 1)
        recall = self.correct_boundaries / max(self.gold_boundaries, 1)
        punctuated_recall = self.correct_punctuated / max(self.punctuated_boundaries, 1)
        return (
            f"{self.texts:5d} texts  exact {100 * self.exact / max(self.texts, 1):5.1f}%  "
            f"boundaries: recall {100 * recall:5.1f}% of {self.gold_boundaries}, "
            f"precision {100 * precision:5.1f}%, "
            f"recall after . ! ? {100 * punctuated_recall:5.1f}% of {self.punctuated_boundaries}"
        )


# A sentence that ends in a terminator, possibly followed by (tokenized) closing quotes.
_ENDS_WITH_TERMINATOR = re.compile(r"[.!?\u2026][\s'\"\u2019\u201d)\]]*$")


def _boundaries(sentences: list[str], after: re.Pattern[str] | None = None) -> set[int]:
    """Offsets, in the sentences' text without white space, where sentences 2.. start.

    With ``after``, only the boundaries whose preceding sentence matches it.
    """
    offsets, position = set(), 0
    for sentence in sentences[:-1]:
        position += len("".join(sentence.split()))
        if after is None or after.search(sentence):
            offsets.add(position)
    return offsets


def load_texts(path: Path) -> list[str]:
    """Every distinct prediction and reference of the bench file, in first-seen order."""
    texts: dict[str, None] = {}
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            row = json.loads(line)
            texts.update(dict.fromkeys([row["prediction"], *row["references"]]))
    return list(texts)


def splitters() -> dict[str, Callable[[str], list[str]]]:
    found: dict[str, Callable[[str], list[str]]] = {"rules": get_sentence_splitter("rules")}
    try:
        import pysbd
    except ImportError:
        print("pysbd is not installed; comparing only the rules splitter", file=sys.stderr)
    else:
        found["pysbd"] = pysbd.Segmenter(language="en", clean=False).segment
    return found


def evaluate(texts: Iterable[str], name: str, split: Callable[[str], list[str]]) -> None:
    texts = list(texts)
    tallies = {gold: Tally() for gold in GOLD_STANDARDS}
    multi = {gold: Tally() for gold in GOLD_STANDARDS}
    started = time.perf_counter()
    for text in texts:
        for gold_name, separator in GOLD_STANDARDS.items():
            gold = [s.strip() for s in separator.split(text) if s.strip()]
            found = split(" ".join(gold))
            tallies[gold_name].add(gold, found)
            if len(gold) > 1:
                multi[gold_name].add(gold, found)
    elapsed = time.perf_counter() - started
    print(f"\n{name}  ({elapsed:.2f} s for {len(texts)} texts x {len(GOLD_STANDARDS)} golds)")
    for gold_name in GOLD_STANDARDS:
        print(f"  gold {gold_name}")
        print(f"    all texts       {tallies[gold_name].row()}")
        print(f"    >= 2 sentences  {multi[gold_name].row()}")


def main(argv: list[str]) -> int:
    path = Path(argv[1]) if len(argv) > 1 else DEFAULT_BENCH
    if not path.exists():
        print(f"bench file not found: {path}", file=sys.stderr)
        return 1
    texts = load_texts(path)
    for name, split in splitters().items():
        evaluate(texts, name, split)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

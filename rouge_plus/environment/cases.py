"""The named conformance cases: one input each where ROUGE packages are known to part ways, the
value ROUGE-1.5.5, rouge_score or the definition gives (computed by rouge_plus under the
matching options), and what a package that gives another value does to your numbers."""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field

from .implementations import Implementation

# Two numbers agree within float32's rounding (torchmetrics computes in float32).
TOLERANCE = 1e-6

RULE = {"tokenizer": "rouge_score"}  # rouge_score's (and ROUGE-1.5.5's) words: [a-z0-9]+


@dataclass(frozen=True)
class Case:
    """One prediction against its references under one measure (F)."""

    name: str
    measure: str  # rouge_score's name of the type
    prediction: str
    references: tuple[str, ...]
    source: str  # whose number is expected
    options: Mapping[str, object]  # rouge_plus's options that give that number
    consequence: str  # what a package that gives another number does
    use_stemmer: bool = False
    needs: tuple[str, ...] = field(default=())

    def expected(self) -> float:
        from ..scorer import score

        scores = score(
            [self.prediction],
            [list(self.references)],
            rouge_types=[self.measure],
            use_stemmer=self.use_stemmer,
            **self.options,
        )
        return scores[self.measure]


CASES = (
    Case(
        "letters: Chinese",
        "rouge1",
        "猫坐在垫子上",
        ("猫坐在垫子上",),
        "definition (a text against itself)",
        {"tokenizer": "default"},
        "Chinese text scores 0: its letters are dropped, every system ties at zero",
    ),
    Case(
        "letters: Cyrillic",
        "rouge1",
        "кошка сидела на ковре",
        ("кошка лежала на ковре",),
        "definition (words of every script)",
        {"tokenizer": "default"},
        "Cyrillic text scores 0: its letters are dropped, every system ties at zero",
    ),
    Case(
        "letters: Vietnamese",
        "rouge1",
        "học sinh đọc sách",
        ("học sinh đọc báo",),
        "definition (words of every script)",
        {"tokenizer": "default"},
        "Vietnamese words are cut at each accented letter: fragments match instead of words",
    ),
    Case(
        "punctuation and digits",
        "rouge1",
        "The price rose 3.5% to $1,200.",
        ("Price rose 3.5 percent, to 1,200 dollars",),
        "rouge_score and ROUGE-1.5.5 ([a-z0-9]+ words)",
        RULE,
        "punctuation stays on words or digits split otherwise: 'dollars.' never matches 'dollars'",
    ),
    Case(
        "stemming",
        "rouge1",
        "the cats were running quickly",
        ("the cat runs quick",),
        "rouge_score (Porter stemmer)",
        RULE,
        "use_stemmer=True stems otherwise: 'cats'/'cat' and 'running'/'runs' match differently",
        use_stemmer=True,
        needs=("stemming",),
    ),
    Case(
        "ROUGE-Lsum without newlines",
        "rougeLsum",
        "the cat sat on the mat. the dog ran away.",
        ("the dog ran away. the cat sat on the mat.",),
        "ROUGE-1.5.5 (one sentence per line)",
        {**RULE, "split_sentences": "rules"},
        "rougeLsum is rougeL unless sentences are on separate lines: the summary-level score "
        "is lost",
        needs=("rougeLsum",),
    ),
    Case(
        "several references",
        "rouge1",
        "the cat sat on the mat",
        ("a dog barked", "the cat sat on a mat"),
        "rouge_score (the best reference)",
        {**RULE, "multi_ref": "best"},
        "several references are reduced otherwise (averaged, or the first only): numbers "
        "differ from papers that take the best",
        needs=("several references",),
    ),
    Case(
        "empty prediction",
        "rouge1",
        "",
        ("the cat sat",),
        "rouge_score and ROUGE-1.5.5",
        RULE,
        "an empty output does not score 0",
    ),
)


def run_case(case: Case, implementation: Implementation, expected: float) -> dict[str, object]:
    """``case`` on one package: its number beside the expected one, and the consequence when
    they differ, it raises, or the package cannot run the case."""
    row: dict[str, object] = {
        "case": case.name,
        "measure": f"{case.measure} F",
        "expected": expected,
        "expected_from": case.source,
        "got": None,
    }
    for need in case.needs:
        reason = implementation.lacks(need)
        if reason is not None:
            return {**row, "status": "unsupported", "consequence": reason}
    try:
        got = float(
            implementation.score(case.measure, case.prediction, case.references, case.use_stemmer)
        )
    except Exception as error:  # noqa: BLE001 - another package's failure is the finding
        return {
            **row,
            "status": "error",
            "consequence": f"raises {type(error).__name__}: {error}; "
            "one such input stops a whole evaluation",
        }
    if abs(got - expected) <= TOLERANCE:
        return {**row, "got": got, "status": "ok", "consequence": ""}
    return {**row, "got": got, "status": "differs", "consequence": case.consequence}


BOOTSTRAP_CASE = "unseeded bootstrap"


def run_bootstrap(implementation: Implementation) -> dict[str, object]:
    """Three runs of the package's bootstrap, none seeded, each as in a new process: do they
    agree? (A third run keeps a chance tie of two runs from passing for reproducibility.)"""
    row: dict[str, object] = {
        "case": BOOTSTRAP_CASE,
        "measure": "rouge1 F interval, 3 runs",
        "expected": "same each run",
        "expected_from": "a reproducible interval (rouge_plus seeds its bootstrap)",
        "got": None,
    }
    reason = implementation.lacks("bootstrap")
    if implementation.bootstrap is None or reason is not None:
        return {**row, "status": "unsupported", "consequence": reason or "no bootstrap"}
    import numpy

    state = numpy.random.get_state()  # the program's global NumPy state is left as it was
    try:
        runs = []
        for _ in range(3):
            numpy.random.seed()  # from the OS's entropy, as each new process starts
            runs.append(implementation.bootstrap())
    except Exception as error:  # noqa: BLE001 - another package's failure is the finding
        return {**row, "status": "error", "consequence": f"raises {type(error).__name__}: {error}"}
    finally:
        numpy.random.set_state(state)
    got = " then ".join("/".join(f"{value:.4f}" for value in run) for run in runs)
    if runs[0] == runs[1] == runs[2]:
        return {**row, "got": got, "status": "ok", "consequence": ""}
    return {
        **row,
        "got": got,
        "status": "differs",
        "consequence": "confidence intervals change from run to run: seed NumPy to reproduce "
        "a table",
    }


def run_all(implementation: Implementation, expected: list[float]) -> list[dict[str, object]]:
    """Every case on one package, each timed."""
    rows = []
    for case, value in zip(CASES, expected, strict=True):
        start = time.perf_counter()
        rows.append({**run_case(case, implementation, value), "seconds": _since(start)})
    start = time.perf_counter()
    rows.append({**run_bootstrap(implementation), "seconds": _since(start)})
    return rows


def _since(start: float) -> float:
    return round(time.perf_counter() - start, 4)

"""What each ROUGE type costs as one text of a pair grows, in both directions: the prediction
long and the reference short, the reference long and the prediction short, and both long.

    python benchmarks/growth.py                       # every type, 1,000 .. 200,000 tokens
    python benchmarks/growth.py --types rougeL rougeW --sizes 1000 100000
    python benchmarks/growth.py --pure-python         # the pure-Python kernels
    python benchmarks/growth.py --line-words 0        # each text one line (one sentence)
    python benchmarks/growth.py --line-words 1 --same-text --distinct-words   # the edge shapes

Each measurement runs in a child process of its own (its time and its peak memory above what
importing rouge_plus takes), with an address-space limit and a time limit, so that a measure
that would blow up is reported as such instead of taking the machine with it. Texts are
pseudo-words drawn from a 5,000-word Zipf vocabulary, 20 words to a line by default (about 5.5
bytes a token: 200,000 tokens are about 1 MB); the short side is 30 tokens. The sentence-level
types (ROUGE-Lsum, ROUGE-W, and ROUGE-L under the rouge155 profile) cost most when a text is one
long sentence (``--line-words 0``), or of many short ones (``--line-words 1``). The edge shapes of
docs/security.md: ``--same-text`` scores a text against its own copy, and ``--distinct-words``
draws every token as a new word (no repeats). Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TYPES = [
    "rouge1", "rouge2", "rougeL", "rougeLsum", "rougeW", "rougeS4", "rougeSU4", "rougeS*",
    "rouge1+synonyms", "rougeTopic",
]  # fmt: skip
SIZES = [1_000, 10_000, 100_000, 200_000]
DIRECTIONS = {
    "long prediction": (True, False),
    "long reference": (False, True),
    "both long": (True, True),
}
SHORT_TOKENS = 30
MEMORY_LIMIT_GB = 4
TIME_LIMIT_S = 120


def text(tokens: int, seed: int, line_words: int, distinct: bool = False) -> str:
    """``tokens`` pseudo-words, Zipf-distributed (or each a new word), ``line_words`` to a line
    (0: one line)."""
    rng = random.Random(seed)
    if distinct:
        words = [f"w{i}" for i in rng.sample(range(tokens * 2), tokens)]
        step = line_words or tokens
        return "\n".join(" ".join(words[i : i + step]) for i in range(0, tokens, step))
    letters = "etaoinshrdlucmfwypvbgk"
    vocabulary = [
        "".join(rng.choice(letters) for _ in range(rng.randint(2, 9))) for _ in range(5_000)
    ]
    weights = [1 / rank for rank in range(1, len(vocabulary) + 1)]
    words = rng.choices(vocabulary, weights, k=tokens)
    step = line_words or tokens
    return "\n".join(" ".join(words[i : i + step]) for i in range(0, tokens, step))


def _peak_kib() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


def measure_one(
    rouge_type: str, size: int, direction: str, line_words: int, same: bool, distinct: bool
) -> dict:
    """In the child: score one pair, report seconds and peak memory above the start."""
    import resource

    limit = MEMORY_LIMIT_GB << 30
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    from rouge_plus import score

    long_prediction, long_reference = DIRECTIONS[direction]
    prediction = text(size if long_prediction else SHORT_TOKENS, 1, line_words, distinct)
    reference = text(
        size if long_reference else SHORT_TOKENS, 1 if same else 2, line_words, distinct
    )
    score(["warm up the tagger and WordNet"], ["warm up"], rouge_types=[rouge_type])
    before = _peak_kib()
    started = time.perf_counter()
    try:
        score([prediction], [reference], rouge_types=[rouge_type])
    except MemoryError:
        return {"error": f"> {MEMORY_LIMIT_GB} GB"}
    return {
        "seconds": time.perf_counter() - started,
        "mib": max(0, _peak_kib() - before) / 1024,
    }


def run_child(rouge_type: str, size: int, direction: str, args: argparse.Namespace) -> dict:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    if args.pure_python:
        env["ROUGE_PLUS_PURE_PYTHON"] = "1"
    command = [sys.executable, __file__, "--one", rouge_type, str(size), direction]
    command += ["--line-words", str(args.line_words)]
    command += ["--same-text"] * args.same_text + ["--distinct-words"] * args.distinct_words
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, env=env, timeout=TIME_LIMIT_S, check=False
        )
    except subprocess.TimeoutExpired:
        return {"error": f"> {TIME_LIMIT_S} s"}
    if done.returncode != 0:
        return {"error": done.stderr.strip().splitlines()[-1][:60] if done.stderr else "failed"}
    return json.loads(done.stdout.strip().splitlines()[-1])


def cell(result: dict) -> str:
    if "error" in result:
        return result["error"]
    return f"{result['seconds']:.3f} s, {result['mib']:.0f} MiB"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--types", nargs="+", default=TYPES)
    parser.add_argument("--sizes", nargs="+", type=int, default=SIZES)
    parser.add_argument("--directions", nargs="+", default=list(DIRECTIONS), choices=DIRECTIONS)
    parser.add_argument("--pure-python", action="store_true")
    parser.add_argument("--line-words", type=int, default=20, help="words a line (0: one line)")
    parser.add_argument("--same-text", action="store_true", help="score a text against its copy")
    parser.add_argument("--distinct-words", action="store_true", help="no word repeats")
    parser.add_argument("--one", nargs=3, metavar=("TYPE", "SIZE", "DIRECTION"))
    args = parser.parse_args()
    if args.one:
        rouge_type, size, direction = args.one
        shape = (args.line_words, args.same_text, args.distinct_words)
        print(json.dumps(measure_one(rouge_type, int(size), direction, *shape)))
        return
    header = ["type", "direction", *(f"{size:,} tokens" for size in args.sizes)]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for rouge_type in args.types:
        for direction in args.directions:
            cells = []
            for size in args.sizes:
                result = run_child(rouge_type, size, direction, args)
                cells.append(cell(result))
                if "error" in result:  # larger sizes would only fail the same way, slower
                    cells += ["-"] * (len(args.sizes) - len(cells))
                    break
            print(f"| {rouge_type} | {direction} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()

"""What each ROUGE type costs as one text of a pair grows, in both directions: the prediction
long and the reference short, the reference long and the prediction short, and both long.

    python benchmarks/growth.py                       # every type, 1,000 .. 200,000 tokens
    python benchmarks/growth.py --types rougeL rougeW --sizes 1000 100000
    python benchmarks/growth.py --pure-python         # the pure-Python kernels
    python benchmarks/growth.py --line-words 0        # each text one line (one sentence)
    python benchmarks/growth.py --line-words 1 --same-text --distinct-words   # one edge shape
    python benchmarks/growth.py --shapes all --space --both-kernels   # docs/security.md's
    python benchmarks/growth.py --shapes all --sizes 200000            # tables
    python benchmarks/growth.py --types rouge1 rougeL --sizes 200000 --references 10000 \
        --directions "long prediction"                                  # many references

Each measurement runs in a child process of its own (its time and its peak memory above what
importing rouge_plus takes), with an address-space limit and a time limit, so that a measure
that would blow up is reported as such instead of taking the machine with it. Texts are
pseudo-words drawn from one 5,000-word Zipf vocabulary (so the two texts share their frequent
words, as two texts of one language do), 20 words to a line by default (about 5.5
bytes a token: 200,000 tokens are about 1 MB); the short side is 30 tokens. The sentence-level
types (ROUGE-Lsum, ROUGE-W, and ROUGE-L under the rouge155 profile) cost most when a text is one
long sentence (``--line-words 0``), or of many short ones (``--line-words 1``). The edge shapes of
docs/security.md: ``--same-text`` scores a text against its own copy, and ``--distinct-words``
draws every token as a word that does not repeat in its text (half of them are in the other
text), ``--one-word`` makes every token one word (with ``--line-words 0`` a text is one
sentence of it, the worst case of ROUGE-Lsum's union of paths against its copy), and
``--references K`` scores the prediction against K short references at once (each pair is
counted on its own: K times one pair); ``--shapes`` runs named shapes one after the other
(``all``: every one). ``--space`` measures at the public Space's limits on one text (tokens per
text, fewer for the +synonyms types). Prints a Markdown table, a row per type and shape.
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
    "rouge1", "rouge2", "rouge3", "rouge4", "rougeL", "rougeLsum", "rougeW", "rougeS4",
    "rougeSU4", "rougeS*", "rougeSU*", "rouge1+synonyms", "rouge2+synonyms", "rougeTopic",
    "rougeTopicUniq", "rougeTopic+synonyms",
]  # fmt: skip
# name: (words a line, a text against its copy, no word repeats, every token one word)
SHAPES = {
    "prose": (20, False, False, False),
    "one sentence": (0, False, False, False),
    "one word a line": (1, False, False, False),
    "same text": (20, True, False, False),
    "distinct words": (20, False, True, False),
    "one repeated word": (0, True, False, True),
}
SIZES = [1_000, 10_000, 100_000, 200_000]
DIRECTIONS = {
    "long prediction": (True, False),
    "long reference": (False, True),
    "both long": (True, True),
}
SHORT_TOKENS = 30
MEMORY_LIMIT_GB = 4
TIME_LIMIT_S = 120


def space_tokens(rouge_type: str) -> int:
    """The most tokens the public Space takes in one text for this type."""
    from rouge_plus.space.limits import MAX_SYNONYM_TOKENS, MAX_TEXT_TOKENS

    return MAX_SYNONYM_TOKENS if "+synonyms" in rouge_type else MAX_TEXT_TOKENS


def _vocabulary() -> list[str]:
    """The 5,000 pseudo-words both texts draw from (the same for every seed)."""
    rng = random.Random(0)
    letters = "etaoinshrdlucmfwypvbgk"
    return ["".join(rng.choice(letters) for _ in range(rng.randint(2, 9))) for _ in range(5_000)]


def text(
    tokens: int, seed: int, line_words: int, distinct: bool = False, one_word: bool = False
) -> str:
    """``tokens`` pseudo-words, Zipf-distributed (or each a new word, or all one word),
    ``line_words`` to a line (0: one line)."""
    rng = random.Random(seed)
    if one_word:
        step = line_words or tokens
        return "\n".join(" ".join(["w"] * min(step, tokens - i)) for i in range(0, tokens, step))
    if distinct:
        words = [f"w{i}" for i in rng.sample(range(tokens * 2), tokens)]
        step = line_words or tokens
        return "\n".join(" ".join(words[i : i + step]) for i in range(0, tokens, step))
    vocabulary = _vocabulary()
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
    rouge_type: str,
    size: int,
    direction: str,
    line_words: int,
    same: bool,
    distinct: bool,
    one_word: bool,
    references: int = 1,
) -> dict:
    """In the child: score one prediction against ``references`` references (the short ones,
    30 tokens each, each drawn anew), report seconds and peak memory above the start."""
    import resource

    limit = MEMORY_LIMIT_GB << 30
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    from rouge_plus import score

    long_prediction, long_reference = DIRECTIONS[direction]
    prediction = text(size if long_prediction else SHORT_TOKENS, 1, line_words, distinct, one_word)
    reference_tokens = size if long_reference else SHORT_TOKENS
    reference = [
        text(reference_tokens, 1 if same else 2 + k, line_words, distinct, one_word)
        for k in range(references)
    ]
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


Shape = tuple[int, bool, bool, bool]


def run_child(
    rouge_type: str,
    size: int,
    direction: str,
    shape: Shape,
    pure_python: bool,
    args: argparse.Namespace,
) -> dict:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env["ROUGE_PLUS_PURE_PYTHON"] = "1" if pure_python else "0"
    line_words, same, distinct, one_word = shape
    command = [sys.executable, __file__, "--one", rouge_type, str(size), direction]
    command += ["--line-words", str(line_words), "--references", str(args.references)]
    command += ["--same-text"] * same + ["--distinct-words"] * distinct + ["--one-word"] * one_word
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, env=env, timeout=args.time_limit, check=False
        )
    except subprocess.TimeoutExpired:
        return {"error": f"> {args.time_limit:g} s"}
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
    parser.add_argument("--space", action="store_true", help="one size: the Space's limit")
    parser.add_argument("--directions", nargs="+", default=list(DIRECTIONS), choices=DIRECTIONS)
    parser.add_argument("--pure-python", action="store_true", help="only the pure-Python kernels")
    parser.add_argument("--both-kernels", action="store_true", help="compiled and pure-Python")
    parser.add_argument("--line-words", type=int, default=20, help="words a line (0: one line)")
    parser.add_argument("--same-text", action="store_true", help="score a text against its copy")
    parser.add_argument("--distinct-words", action="store_true", help="no word repeats")
    parser.add_argument("--one-word", action="store_true", help="every token the same word")
    parser.add_argument(
        "--references", type=int, default=1, help="references of the prediction (short ones)"
    )
    parser.add_argument("--shapes", nargs="+", choices=[*SHAPES, "all"], help="named shapes")
    parser.add_argument("--time-limit", type=float, default=TIME_LIMIT_S, help="seconds a measure")
    parser.add_argument("--one", nargs=3, metavar=("TYPE", "SIZE", "DIRECTION"))
    args = parser.parse_args()
    if args.one:
        rouge_type, size, direction = args.one
        shape = (args.line_words, args.same_text, args.distinct_words, args.one_word)
        print(json.dumps(measure_one(rouge_type, int(size), direction, *shape, args.references)))
        return
    if args.shapes:
        names = list(SHAPES) if "all" in args.shapes else args.shapes
        shapes = {name: SHAPES[name] for name in names}
    else:
        shapes = {"given": (args.line_words, args.same_text, args.distinct_words, args.one_word)}
    sizes = [None] if args.space else args.sizes
    kernels = [False, True] if args.both_kernels else [args.pure_python]
    columns = [(pure, size, d) for pure in kernels for size in sizes for d in args.directions]
    header = ["type", "shape"]
    for pure, size, direction in columns:
        label = direction if size is None else f"{direction}, {size:,} tokens"
        header.append(
            f"{'pure-Python' if pure else 'compiled'}, {label}" if len(kernels) > 1 else label
        )
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for rouge_type in args.types:
        for name, shape in shapes.items():
            cells = []
            failed = set()  # a direction that failed would only fail the same way, slower
            for pure, size, direction in columns:
                if (pure, direction) in failed:
                    cells.append("-")
                    continue
                tokens = space_tokens(rouge_type) if size is None else size
                result = run_child(rouge_type, tokens, direction, shape, pure, args)
                cells.append(cell(result))
                if "error" in result:
                    failed.add((pure, direction))
            row = f"| {rouge_type} | {name} | " + " | ".join(cells) + " |"
            print(row, flush=True)


if __name__ == "__main__":
    main()

"""The benchmark's dedupe mode: Self-Instruct's and Alpaca's ROUGE-L deduplication rule on
instruction-like texts, rouge_plus.dedupe against the same rule run pair by pair.

The texts are built deterministically from the corpus sentences: an instruction template around
a fragment of a sentence, and about 30% near-duplicates (an earlier text with one to three words
replaced, deleted or inserted), like the paraphrases a generator produces. rouge-score-rs runs the
rule on every text (one batch call per new text against the kept ones, its fastest use);
rouge_score runs it on the first ``--dedupe-sample`` texts, Self-Instruct's way (``score`` per
pair, both texts tokenized each time) and Alpaca's (texts tokenized once, ``_score_lcs`` per
pair), and its time is extrapolated by the number of comparisons the rule makes on all texts.
Every implementation must keep exactly the texts rouge_plus keeps.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Callable, Sequence

TEMPLATES = [
    "Write a short story about {}.",
    "Explain why {}.",
    "Summarize the following text: {}.",
    "Give three reasons why {}.",
    "Rewrite this sentence in simpler words: {}.",
    "What would happen if {}?",
    "Classify the sentiment of this sentence: {}.",
    "Translate into French: {}.",
    "Generate a headline for the news that {}.",
    "List the key facts in: {}.",
]
THRESHOLD = 0.7

Rule = Callable[[Sequence[str]], list[int]]


def instruction_texts(sentences: Sequence[str], count: int, seed: int = 0) -> list[str]:
    """``count`` instruction-like texts, about 30% of them near-duplicates of earlier ones."""
    rng = random.Random(seed)
    vocabulary = sorted({word for sentence in sentences[:2000] for word in sentence.split()})
    texts: list[str] = []
    for _ in range(count):
        if texts and rng.random() < 0.3:
            words = rng.choice(texts).split()
            for _ in range(rng.randint(1, 3)):
                edit, position = rng.random(), rng.randrange(len(words))
                if edit < 0.4:
                    words[position] = rng.choice(vocabulary)
                elif edit < 0.7 and len(words) > 3:
                    del words[position]
                else:
                    words.insert(position, rng.choice(vocabulary))
            texts.append(" ".join(words))
        else:
            words = rng.choice(sentences).split()
            size = rng.randint(4, 14)
            start = rng.randint(0, max(0, len(words) - size))
            texts.append(rng.choice(TEMPLATES).format(" ".join(words[start : start + size])))
    return texts


def rouge_plus_rule(num_proc: int) -> Rule:
    from rouge_plus import dedupe

    return lambda texts: dedupe(texts, THRESHOLD, num_proc=num_proc).kept


def _pair_by_pair(scores: Callable[[int, list[int]], list[float]]) -> Callable[[int], list[int]]:
    """The rule over texts ``0 .. n-1``, with ``scores(new, kept)`` the F of each kept text."""

    def run(n: int) -> list[int]:
        kept: list[int] = []
        for k in range(n):
            if not kept or max(scores(k, kept)) <= THRESHOLD:
                kept.append(k)
        return kept

    return run


def rouge_score_rs_rule(texts: Sequence[str]) -> list[int]:
    from rouge_score_rs import rouge_scorer

    scorer = rouge_scorer.RougeScorer(["rougeL"])

    def scores(new: int, kept: list[int]) -> list[float]:
        found = scorer.score_batch([texts[new]] * len(kept), [texts[j] for j in kept])
        return [row["rougeL"].fmeasure for row in found]

    return _pair_by_pair(scores)(len(texts))


def self_instruct_rule(texts: Sequence[str]) -> list[int]:
    from rouge_score import rouge_scorer

    scorer = rouge_scorer.RougeScorer(["rougeL"], use_stemmer=False)
    return _pair_by_pair(
        lambda new, kept: [scorer.score(texts[new], texts[j])["rougeL"].fmeasure for j in kept]
    )(len(texts))


def alpaca_rule(texts: Sequence[str]) -> list[int]:
    from rouge_score import rouge_scorer

    scorer = rouge_scorer.RougeScorer(["rougeL"], use_stemmer=False)
    tokens = [scorer._tokenizer.tokenize(text) for text in texts]
    return _pair_by_pair(
        lambda new, kept: [rouge_scorer._score_lcs(tokens[new], tokens[j]).fmeasure for j in kept]
    )(len(texts))


def comparisons(kept: list[int], n: int) -> int:
    """Pairs the rule scores on texts ``0 .. n-1``: each text against every text kept before."""
    kept_set, count, before = set(kept), 0, 0
    for k in range(n):
        count += before
        before += k in kept_set
    return count


def mixed_texts(sentences: Sequence[str], count: int, seed: int = 1) -> list[str]:
    """``count`` texts with a real-looking mix: instructions alone (80%, about 30% of them
    near-duplicates), instructions with an input of one to four sentences (15%), and exact
    duplicates of earlier texts (5%, repeated generations)."""
    rng = random.Random(seed)
    base = instruction_texts(sentences, count, seed)
    texts: list[str] = []
    for k in range(count):
        draw = rng.random()
        if texts and draw < 0.05:
            texts.append(rng.choice(texts))
        elif draw < 0.2:
            body = " ".join(rng.choice(sentences) for _ in range(rng.randint(1, 4)))
            texts.append(f"{base[k]}\nInput: {body}")
        else:
            texts.append(base[k])
    return texts


def without_prefix_filter(texts: Sequence[str]) -> list[int]:
    """rouge_plus.dedupe as it was before the prefix filter: every (new, kept) pair bounded."""
    import rouge_plus.all_pairs as all_pairs

    build = all_pairs._PrefixFilter.build
    all_pairs._PrefixFilter.build = classmethod(lambda cls, *args: None)
    try:
        return rouge_plus_rule(1)(texts)
    finally:
        all_pairs._PrefixFilter.build = build


def dedupe_scaling_mode(args: argparse.Namespace, sentences: Sequence[str]) -> list[dict]:
    """rouge_plus.dedupe's CPU time on each of ``--dedupe-sizes`` texts of both generators, on
    one core; its kept set checked against the path without the prefix filter (20,000 texts)
    and against rouge_score (Alpaca's way, 2,000 texts); rouge-score-rs pair by pair on the
    sizes up to ``--dedupe-peer-max``."""
    generators = {"instruction": instruction_texts, "mixed": mixed_texts}
    for name, generate in generators.items():
        texts = generate(sentences, 20_000)
        if rouge_plus_rule(1)(texts) != without_prefix_filter(texts):
            raise SystemExit(f"{name}: the prefix filter keeps other texts than the tiled path")
        if rouge_plus_rule(1)(texts[:2000]) != alpaca_rule(texts[:2000]):
            raise SystemExit(f"{name}: rouge_plus keeps other texts than rouge_score")
    results = []
    for name, generate in generators.items():
        for size in args.dedupe_sizes:
            texts = generate(sentences, size)
            start = time.process_time()
            kept = rouge_plus_rule(1)(texts)
            row = {"texts": name, "size": size, "kept": len(kept), "peer_cpu": None}
            row["cpu"] = time.process_time() - start
            if size <= args.dedupe_peer_max:
                start = time.process_time()
                if rouge_score_rs_rule(texts) != kept:
                    raise SystemExit("rouge-score-rs keeps other texts than rouge_plus")
                row["peer_cpu"] = time.process_time() - start
            results.append(row)
            print(row, flush=True)
    return results


def render_dedupe_scaling(results: list[dict]) -> str:
    lines = [
        "| texts | size | kept | rouge_plus CPU s | growth exponent | rouge-score-rs CPU s |",
        "|---|---|---|---|---|---|",
    ]
    previous: dict | None = None
    for row in results:
        exponent = ""
        if previous and previous["texts"] == row["texts"]:
            times, sizes = row["cpu"] / previous["cpu"], row["size"] / previous["size"]
            exponent = f"{math.log(times) / math.log(sizes):.2f}"
        peer = "" if row["peer_cpu"] is None else f"{row['peer_cpu']:,.1f}"
        lines.append(
            f"| {row['texts']} | {row['size']:,} | {row['kept']:,} | {row['cpu']:,.1f} | "
            f"{exponent} | {peer} |"
        )
        previous = row
    return "\n".join(lines)


def dedupe_mode(args: argparse.Namespace, sentences: Sequence[str]) -> list[dict]:
    texts = instruction_texts(sentences, args.dedupe_texts)
    n, sample = len(texts), min(args.dedupe_sample, len(texts))
    expected = rouge_plus_rule(1)(texts)
    total = comparisons(expected, n)
    sample_expected = rouge_plus_rule(1)(texts[:sample])
    results = []

    def add(name: str, run: Callable[[], list[int]], size: int, reference: list[int]) -> None:
        start, cpu_start = time.perf_counter(), time.process_time()
        kept = run()
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu_start
        if kept != reference:
            raise SystemExit(f"{name} keeps other texts than rouge_plus: not reporting it")
        estimate = seconds * total / comparisons(reference, size)
        results.append(
            {"peer": name, "texts": size, "seconds": seconds, "cpu": cpu, "estimate_all": estimate}
        )

    for _ in range(args.rounds):
        for workers in sorted({1, args.num_proc}):
            name = f"rouge_plus.dedupe, num_proc={workers}"
            add(name, lambda w=workers: rouge_plus_rule(w)(texts), n, expected)
    rs = "rouge-score-rs 0.2.1, one batch call per new text"
    add(rs, lambda: rouge_score_rs_rule(texts), n, expected)
    for name, rule in [("Self-Instruct's", self_instruct_rule), ("Alpaca's", alpaca_rule)]:
        run = lambda rule=rule: rule(texts[:sample])  # noqa: E731
        add(f"rouge_score 0.1.2, {name} way", run, sample, sample_expected)
    for row in results:
        row.update({"all_texts": n, "kept": len(expected), "comparisons": total})
    return results


def render_dedupe(results: list[dict]) -> str:
    first = results[0]
    lines = [
        f"{first['all_texts']:,} texts, {first['kept']:,} kept, {first['comparisons']:,} "
        f"pairs compared by the rule",
        "",
        "| implementation | texts run | seconds | CPU seconds | seconds for all texts "
        "| × rouge_plus |",
        "|---|---|---|---|---|---|",
    ]
    rounds: dict[str, list[dict]] = {}
    for row in results:
        rounds.setdefault(row["peer"], []).append(row)
    # The median round of each (rouge_plus runs --rounds times, the others once).
    best = {
        peer: sorted(rows, key=lambda r: r["seconds"])[(len(rows) - 1) // 2]
        for peer, rows in rounds.items()
    }
    base = best[next(iter(best))]["estimate_all"]
    for peer, row in best.items():
        measured = "measured" if row["texts"] == row["all_texts"] else "extrapolated"
        lines.append(
            f"| {peer} | {row['texts']:,} | {row['seconds']:.2f} | {row['cpu']:.2f} | "
            f"{row['estimate_all']:,.1f} ({measured}) | {row['estimate_all'] / base:,.0f} |"
        )
    return "\n".join(lines)

"""Rank the ROUGE variants and options of rouge_plus by their correlation with REALSumm's human
judgments; write docs/which_rouge.json, docs/WHICH_ROUGE.md and README's "Which ROUGE?" table.

    python scripts/which_rouge.py           # scores, resamples and writes (a few minutes)
    python scripts/which_rouge.py --render  # rewrites the page and README from the JSON

Kendall tau-b (REALSumm's and Deutsch et al.'s choice) at the system and the summary level, over
all 24 systems, the 11 extractive and the 13 abstractive ones; 95% percentile bootstrap intervals
over systems and documents together (1,000 resamples, seed 0); a variant is marked when the best
of its column correlates better by a paired bootstrap test (one-sided, p < 0.05), on the same
resamples. ``tests/unit/test_which_rouge.py`` checks the page against the JSON and a few of the
JSON's numbers against the library.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rouge_plus import realsumm, score  # noqa: E402
from rouge_plus.meta import bootstrap_samples  # noqa: E402
from rouge_plus.meta.correlation import (  # noqa: E402
    bootstrap_p_value,
    level_correlation,
    percentile_interval,
)

RESULTS = ROOT / "docs" / "which_rouge.json"
PAGE = ROOT / "docs" / "WHICH_ROUGE.md"
README = ROOT / "README.md"
README_START = "<!-- which-rouge:start (scripts/which_rouge.py writes this table) -->"
README_END = "<!-- which-rouge:end -->"
LEVELS = ("system", "summary")
GROUPS = (("all", "all 24"), ("ext", "11 extractive"), ("abs", "13 abstractive"))
METHOD, RESAMPLE, N_RESAMPLES, SEED, ALPHA = "kendall", "both", 1000, 0, 0.05
NUMBERS = (("recall", "R"), ("precision", "P"), ("fmeasure", "F"))

# (label, options): every ROUGE type under the default options, then the options of the
# commonest types.
TYPES = ["rouge1", "rouge2", "rouge3", "rouge4", "rougeL", "rougeLsum", "rougeW", "rougeSU4"]
ROUGE2_TYPES = ["rouge1+synonyms", "rouge2+synonyms", "rougeTopic", "rougeTopicUniq"]
CONFIGURATIONS: list[tuple[str, dict]] = [
    ("", {"rouge_types": TYPES + ROUGE2_TYPES}),
    ("stemmed", {"rouge_types": ["rouge1", "rouge2", "rougeL"], "use_stemmer": True}),
    ("no stopwords", {"rouge_types": ["rouge1", "rouge2", "rougeL"], "remove_stopwords": True}),
    (
        "stemmed, no stopwords",
        {
            "rouge_types": ["rouge1", "rouge2", "rougeL"],
            "use_stemmer": True,
            "remove_stopwords": True,
        },
    ),
    (
        "rouge_score tokenizer",
        {"rouge_types": ["rouge1", "rouge2", "rougeL"], "tokenizer": "rouge_score"},
    ),
    ("1.5.5 tokenizer", {"rouge_types": ["rouge1", "rouge2", "rougeL"], "tokenizer": "rouge155"}),
    (
        "1.5.5 profile",
        {"rouge_types": ["rouge1", "rouge2", "rougeL", "rougeSU4"], "profile": "rouge155"},
    ),
    (
        "1.5.5 profile, stemmed",
        {"rouge_types": ["rouge1", "rouge2", "rougeL"], "profile": "rouge155", "use_stemmer": True},
    ),
]
STORED = {
    "rouge_2_recall": "ROUGE-2 R, as REALSumm stored it (1.5.5 via pyrouge)",
    "rouge_2_f_score": "ROUGE-2 F, as REALSumm stored it (1.5.5 via pyrouge)",
}


def variants() -> dict[str, np.ndarray]:
    """Every variant's (systems x documents) scores on REALSumm, by label."""
    data = realsumm()
    predictions, references = data.pairs()
    shape = data.human["litepyramid"].shape
    out = {}
    for suffix, options in CONFIGURATIONS:
        scores = score(
            predictions, references, use_aggregator=False, return_precision_recall=True, **options
        )
        for rouge_type in options["rouge_types"]:
            for number, letter in NUMBERS:
                label = f"{rouge_type} {letter}" + (f" ({suffix})" if suffix else "")
                out[label] = np.array(scores[f"{rouge_type}_{number}"]).reshape(shape)
    for name, label in STORED.items():
        out[label] = data.metrics[name]
    return out


def compute() -> dict:
    """The correlations, intervals and tests of every variant, level and group."""
    data = realsumm()
    scores = variants()
    results = {
        "method": METHOD,
        "resample": RESAMPLE,
        "n_resamples": N_RESAMPLES,
        "seed": SEED,
        "alpha": ALPHA,
        "levels": {},
    }
    for level in LEVELS:
        results["levels"][level] = {}
        for group, _ in GROUPS:
            subset = data.subset(group)
            keep = [data.systems.index(name) for name in subset.systems]
            rows = {}
            samples = {}
            for label, matrix in scores.items():
                metric = matrix[keep]
                human = subset.human["litepyramid"]
                value = float(level_correlation(metric, human, level, METHOD)[0])
                samples[label] = bootstrap_samples(
                    metric,
                    human,
                    level,
                    METHOD,
                    resample=RESAMPLE,
                    n_resamples=N_RESAMPLES,
                    seed=SEED,
                )
                lower, upper = percentile_interval(samples[label], 0.95)
                rows[label] = {"tau": value, "lower": lower, "upper": upper}
            best = max(rows, key=lambda label: rows[label]["tau"])
            for label, row in rows.items():
                row["p_vs_best"] = (
                    1.0
                    if label == best
                    else bootstrap_p_value(
                        samples[best] - samples[label], rows[best]["tau"] - row["tau"], "greater"
                    )
                )
            results["levels"][level][group] = rows
    return results


def _cell(row: dict, alpha: float) -> str:
    mark = "" if row["p_vs_best"] >= alpha else "▾"
    return f"{row['tau']:.2f} [{row['lower']:.2f}, {row['upper']:.2f}]{mark}"


def render_page(results: dict) -> str:
    """docs/WHICH_ROUGE.md from the results."""
    alpha = results["alpha"]
    lines = [
        "# Which ROUGE agrees with human judgments?",
        "",
        "<!-- Written by scripts/which_rouge.py from docs/which_rouge.json; do not edit. -->",
        "",
        "REALSumm (Bhandari et al., EMNLP 2020; CC BY 4.0, shipped as `rouge_plus.realsumm()`)",
        "judged 100 CNN/DailyMail documents summarized by 24 systems (11 extractive, 13",
        "abstractive) with LitePyramid recall. Each cell below is the Kendall tau-b between a",
        "ROUGE variant scored by rouge_plus and those judgments, with its 95% bootstrap",
        f"interval ({results['n_resamples']:,} resamples of systems and documents together,",
        f"seed {results['seed']}, `rouge_plus.correlate`). ▾ marks a variant that the best",
        "variant of its column beats in a paired bootstrap test (one-sided,",
        f'p < {alpha}, `rouge_plus.compare_correlations(..., test="bootstrap")` on the same',
        "resamples; one test per variant, not adjusted for their number); an unmarked",
        "variant is not significantly worse than the best.",
        "",
        "- **System level**: each system's mean score over the 100 documents, correlated over",
        "  the systems: which metric ranks systems as people do (how papers use ROUGE).",
        "- **Summary level**: per document, the correlation over the systems' summaries, averaged",
        "  over the documents: which metric ranks summaries of the same document as people do.",
        "",
        "Variants are rouge_plus's defaults unless the label says otherwise: `stemmed`",
        "(`use_stemmer=True`), `no stopwords` (`remove_stopwords=True`), the `rouge_score` and",
        '`1.5.5` tokenizers, and the `1.5.5 profile` (`profile="rouge155"`). REALSumm\'s own',
        "stored ROUGE-2 (ROUGE-1.5.5 through pyrouge) is listed for comparison.",
        "",
        "With 11 to 24 systems the system-level intervals are wide: most differences there are",
        "not significant, and a ranking by the point estimate alone says little.",
        "",
    ]
    for level in LEVELS:
        columns = results["levels"][level]
        order = sorted(columns["all"], key=lambda label: -columns["all"][label]["tau"])
        lines += [f"## {level.capitalize()} level", ""]
        lines.append("| variant | " + " | ".join(title for _, title in GROUPS) + " |")
        lines.append("|---|" + "---|" * len(GROUPS))
        for label in order:
            cells = [_cell(columns[group][label], alpha) for group, _ in GROUPS]
            lines.append(f"| {label} | " + " | ".join(cells) + " |")
        lines.append("")
    return "\n".join(lines)


def render_readme(results: dict, top: int = 5) -> str:
    """README's short table: the best system-level variants and ROUGE-2's R against F."""
    columns = results["levels"]["system"]
    order = sorted(columns["all"], key=lambda label: -columns["all"][label]["tau"])
    shown = order[:top] + [label for label in ("rouge2 R", "rouge2 F") if label not in order[:top]]
    lines = [
        README_START,
        "| variant | all 24 systems | 11 extractive | 13 abstractive |",
        "|---|---|---|---|",
    ]
    for label in shown:
        cells = [_cell(columns[group][label], results["alpha"]) for group, _ in GROUPS]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    lines.append(README_END)
    return "\n".join(lines)


def write(results: dict) -> None:
    PAGE.write_text(render_page(results), encoding="utf-8")
    readme = README.read_text(encoding="utf-8")
    start, end = readme.index(README_START), readme.index(README_END) + len(README_END)
    README.write_text(readme[:start] + render_readme(results) + readme[end:], encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--render", action="store_true", help="only rewrite from the JSON")
    args = parser.parse_args()
    if args.render:
        results = json.loads(RESULTS.read_text(encoding="utf-8"))
    else:
        results = compute()
        RESULTS.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    write(results)


if __name__ == "__main__":
    main()

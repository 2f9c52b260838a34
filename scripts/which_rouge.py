"""Rank the ROUGE variants and options of rouge_plus by their correlation with human judgments:
REALSumm's in depth, then SummEval's (1 and 11 references, each expert dimension), RoSE's (each
protocol) and RoSE's LLM summaries; write docs/which_rouge.json, docs/WHICH_ROUGE.md and README's
"Which ROUGE?" table.

    python scripts/which_rouge.py             # scores, resamples and writes (several minutes)
    python scripts/which_rouge.py --render    # rewrites the page and README from the JSON
    python scripts/which_rouge.py --datasets  # recomputes only the sets after REALSumm

Kendall tau-b (REALSumm's and Deutsch et al.'s choice) at the system and the summary level, over
all 24 systems, the 11 extractive and the 13 abstractive ones; 95% percentile bootstrap intervals
over systems and documents together (1,000 resamples, seed 0); a variant is marked when the best
of its column correlates better by a paired bootstrap test (one-sided, p < 0.05), on the same
resamples. ``tests/unit/test_which_rouge.py`` checks the page against the JSON and a few of the
JSON's numbers against the library.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rouge_plus import realsumm, rose, rose_llm, score, summeval  # noqa: E402
from rouge_plus.meta import bootstrap_samples  # noqa: E402
from rouge_plus.meta.correlation import (  # noqa: E402
    bootstrap_p_value,
    level_correlation,
    percentile_interval,
)

RESULTS = ROOT / "docs" / "which_rouge.json"
PAGE = ROOT / "docs" / "WHICH_ROUGE.md"
README = ROOT / "README.md"
# The Space's "Which ROUGE?" panel, shipped beside the package's other data files.
SPACE_PANEL = ROOT / "rouge_plus" / "data" / "which_rouge.md"
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
# The other judged sets, scored as sacrerouge scores SummEval (ROUGE-1.5.5, stemmed; the 1.5.5
# average over several references): (key, title, loader, columns, levels); a column is (label,
# human dimension, references per document, None for all).
SET_TYPES = ["rouge1", "rouge2", "rougeL"]
SET_OPTIONS = {"profile": "rouge155", "use_stemmer": True}
SUMMEVAL_DIMENSIONS = ("relevance", "coherence", "consistency", "fluency")
ROSE_PROTOCOLS = ("acu", "normalized_acu", "ref_based", "ref_free", "prior")
SETS = [
    (
        "summeval",
        "SummEval (16 systems, expert ratings; 1 vs 11 references)",
        summeval,
        [(f"{d}, {k} ref", d, k) for d in SUMMEVAL_DIMENSIONS for k in (1, 11)],
        LEVELS,
    ),
    (
        "rose",
        "RoSE (12 systems, five protocols)",
        rose,
        [(p, p, None) for p in ROSE_PROTOCOLS],
        LEVELS,
    ),
    (
        "rose-llm",
        "RoSE's LLM summaries (GPT-3, T0, BRIO, BART; summary level)",
        rose_llm,
        [(p, p, None) for p in ROSE_PROTOCOLS],
        ("summary",),
    ),
]
PUBLISHED_TEST = ROOT / "tests" / "unit" / "test_summeval_published.py"
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
            metrics = {label: matrix[keep] for label, matrix in scores.items()}
            results["levels"][level][group] = ranked(metrics, subset.human["litepyramid"], level)
    return results


def ranked(metrics: dict[str, np.ndarray], human: np.ndarray, level: str) -> dict:
    """Each metric's tau with its interval, and the p-value of the best one's lead over it."""
    rows = {}
    samples = {}
    for label, metric in metrics.items():
        value = float(level_correlation(metric, human, level, METHOD)[0])
        samples[label] = bootstrap_samples(
            metric, human, level, METHOD, resample=RESAMPLE, n_resamples=N_RESAMPLES, seed=SEED
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
    return rows


def set_scores(data, references: int | None) -> dict[str, np.ndarray]:
    """SET_TYPES' P, R and F of every summary of a judged set, by label."""
    predictions, refs = data.pairs(references)
    found = score(
        predictions,
        refs,
        rouge_types=SET_TYPES,
        use_aggregator=False,
        return_precision_recall=True,
        **SET_OPTIONS,
    )
    shape = (len(data.systems), len(data.documents))
    return {
        f"{rouge_type} {letter}": np.array(found[f"{rouge_type}_{number}"]).reshape(shape)
        for rouge_type in SET_TYPES
        for number, letter in NUMBERS
    }


def published() -> dict:
    """sacrerouge's SummEval figures, as tests/unit/test_summeval_published.py holds them."""
    spec = importlib.util.spec_from_file_location("summeval_published", PUBLISHED_TEST)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.PUBLISHED


def compute_sets() -> dict:
    """Per judged set after REALSumm, per level and column, the ranked variants; for SummEval,
    our Pearson and Kendall beside the published ones."""
    out = {}
    for key, _, loader, columns, levels in SETS:
        data = loader()
        by_references = {k: set_scores(data, k) for k in {refs for _, _, refs in columns}}
        out[key] = {
            level: {
                label: ranked(by_references[refs], data.human[dimension], level)
                for label, dimension, refs in columns
            }
            for level in levels
        }
    theirs = published()
    data = summeval()
    out["summeval published"] = {}
    for (references, level), measures in sorted(theirs.items()):
        metrics = set_scores(data, references)
        rows = {}
        for measure, (r, k) in measures.items():
            rouge_type, number = measure.split("_")
            metric = metrics[f"{rouge_type} {dict(NUMBERS)[number]}"]
            human = data.human["relevance"]
            rows[measure] = {
                "pearson": float(level_correlation(metric, human, level, "pearson")[0]),
                "kendall": float(level_correlation(metric, human, level, "kendall")[0]),
                "published_pearson": r,
                "published_kendall": k,
            }
        out["summeval published"][f"{references} ref, {level}"] = rows
    return out


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
        "not significant, and a ranking by the point estimate alone says little. After REALSumm,",
        "SummEval, RoSE and RoSE's LLM summaries (each shipped: `rouge_plus.summeval()`,",
        "`rose()`, `rose_llm()`) are ranked the same way for ROUGE-1, -2 and -L under the",
        '1.5.5 profile with stemming (`profile="rouge155", use_stemmer=True`; several',
        "references reduced as ROUGE-1.5.5 does).",
        "",
        *render_short_answer(results),
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
    if "sets" in results:
        lines += render_sets(results["sets"], alpha)
    return "\n".join(lines)


def _best(rows: dict) -> str:
    label = max(rows, key=lambda name: rows[name]["tau"])
    return f"{label} ({rows[label]['tau']:.2f})"


def render_short_answer(results: dict) -> list[str]:
    """The best variant of each set's main column at each level, from the results."""
    levels = results["levels"]
    lines = [
        "## In short",
        "",
        "What holds across the sets: at the summary level a recall variant is the best, or not",
        "significantly worse than the best, for every judgment made against the reference",
        "(REALSumm's LitePyramid, SummEval's relevance with 1 or 11 references, RoSE's ACU, on",
        "fine-tuned and LLM summaries alike), and a precision variant is never the best for",
        "them. What does not: the system-level winner changes with the set and with the number",
        "of references (SummEval's relevance: recall with one reference, ROUGE-1 F with eleven,",
        "as Fabbri et al. found), with intervals over 12 to 24 systems too wide to separate most",
        "variants; and protocols that never show the reference (RoSE's `ref_free` and `prior`)",
        "track ROUGE's F and precision at the summary level not at all.",
        "",
        "The best variant (highest Kendall tau) of each set's main human judgment; the tables",
        "below say which others it does not significantly beat.",
        "",
        f"- REALSumm, LitePyramid: system level {_best(levels['system']['all'])}, summary level "
        f"{_best(levels['summary']['all'])}.",
    ]
    sets = results.get("sets", {})
    for key, title, _, columns, set_levels in SETS:
        if key not in sets:
            continue
        main = [label for label, _, _ in columns][: 2 if key == "summeval" else 1]
        parts = [
            f"{level} level, {label}: {_best(sets[key][level][label])}"
            for label in main
            for level in set_levels
        ]
        lines.append(f"- {title.split(' (')[0]}: " + "; ".join(parts) + ".")
    return lines + [""]


def render_sets(sets: dict, alpha: float) -> list[str]:
    """A section per judged set after REALSumm, and SummEval's published figures beside ours."""
    lines = []
    for key, title, _, columns, levels in SETS:
        labels = [label for label, _, _ in columns]
        lines += [f"## {title}", ""]
        for level in levels:
            table = sets[key][level]
            order = sorted(table[labels[0]], key=lambda name: -table[labels[0]][name]["tau"])
            lines += [f"### {level.capitalize()} level", ""]
            lines.append("| variant | " + " | ".join(labels) + " |")
            lines.append("|---|" + "---|" * len(labels))
            for name in order:
                cells = [_cell(table[label][name], alpha) for label in labels]
                lines.append(f"| {name} | " + " | ".join(cells) + " |")
            lines.append("")
    published = sets["summeval published"]
    lines += [
        "## SummEval: ours beside the published figures",
        "",
        "Pearson r and Kendall tau with the experts' relevance, ours (ROUGE-1.5.5 profile,",
        "stemmed) and in parentheses sacrerouge's (`doc/datasets/fabbri2020.md`, ROUGE-1.5.5",
        "with stemming); `tests/unit/test_summeval_published.py` holds them together.",
        "",
        "| measure | " + " | ".join(f"{column}: r | {column}: tau" for column in published) + " |",
        "|---|" + "---|---|" * len(published),
    ]
    for measure in next(iter(published.values())):
        cells = []
        for column in published.values():
            row = column[measure]
            cells += [
                f"{row['pearson']:.2f} ({row['published_pearson']:.2f})",
                f"{row['kendall']:.2f} ({row['published_kendall']:.2f})",
            ]
        lines.append(f"| {measure} | " + " | ".join(cells) + " |")
    return lines + [""]


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


def render_space(results: dict) -> str:
    """The Space's "Which ROUGE?" panel: the short answer and README's table, of REALSumm's
    systems (Kendall tau-b, 95% interval)."""
    table = render_readme(results).split("\n")[1:-1]  # without README's markers
    lines = render_short_answer(results)[2:]  # without its heading: the panel has its own
    intro = "REALSumm's 24 systems, system level, Kendall tau-b [95% interval]:"
    footer = (
        "▾: significantly worse than the best variant of its column (paired bootstrap, "
        "p < 0.05). Every variant, level and set, with the paired tests: `docs/WHICH_ROUGE.md` "
        "in the rouge_plus repository; `rouge_plus.correlate` and `rouge-plus correlate` "
        "compute the same for your own judgments."
    )
    return "\n".join([*lines, intro, "", *table, "", footer]) + "\n"


def write(results: dict) -> None:
    PAGE.write_text(render_page(results), encoding="utf-8")
    SPACE_PANEL.write_text(render_space(results), encoding="utf-8")
    readme = README.read_text(encoding="utf-8")
    start, end = readme.index(README_START), readme.index(README_END) + len(README_END)
    README.write_text(readme[:start] + render_readme(results) + readme[end:], encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--render", action="store_true", help="only rewrite from the JSON")
    parser.add_argument(
        "--datasets", action="store_true", help="recompute only the sets after REALSumm"
    )
    args = parser.parse_args()
    if args.render or args.datasets:
        results = json.loads(RESULTS.read_text(encoding="utf-8"))
    else:
        results = compute()
    if not args.render:
        results["sets"] = compute_sets()
        RESULTS.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    write(results)


if __name__ == "__main__":
    main()

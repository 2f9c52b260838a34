"""The ``rouge-plus`` command line (also ``python -m rouge_plus``).

Examples::

    rouge-plus --demo
    rouge-plus --predictions preds.txt --references refs_a.txt refs_b.txt --use-stemmer
    rouge-plus --jsonl data.jsonl --rouge-types rouge1 rougeLsum --format json
    rouge-plus --csv data.csv --reference-column summary --per-example --format csv -o scores.csv

Every field of :class:`~rouge_plus.options.ScoreOptions` is a flag: the common ones are declared
below with their help text, and any field the core adds later gets a flag derived from its name
and default value (``remove_stopwords`` → ``--remove-stopwords/--no-remove-stopwords``), so new
options reach the command line without changes here.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import os
import sys
import tempfile
import warnings
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from tqdm import tqdm

from .._version import __version__
from ..corpus.aggregation import AGGREGATIONS
from ..options import ScoreOptions
from ..readers import (
    Corpus,
    InputError,
    corpus_chunks,
    iter_records,
    read_demo,
    read_saved_dataset,
    read_text_files,
)
from ..results import ExampleScores
from ..scorer import score_stream
from ..scoring.multiref import MULTI_REF_MODES
from ..text.languages import LANGUAGES
from ..text.sentences import available_sentence_splitters, get_sentence_splitter
from ..text.tokenizers import available_tokenizers, get_tokenizer
from .report import FORMATS, render_aggregate, render_per_example

PROG = "rouge-plus"
_DEST_PREFIX = "option_"

# ScoreOptions fields the command line sets another way: --beta/--alpha build `fmeasure`, and
# `use_aggregator` is --per-example.
_NOT_FLAGS = {"fmeasure", "use_aggregator"}


def _declared_options() -> dict[str, tuple[str, dict]]:
    """Option name → (flag, argparse keywords) for the options with hand-written help."""
    return {
        "rouge_types": (
            "--rouge-types",
            {
                "nargs": "+",
                "metavar": "TYPE",
                "help": "ROUGE types to compute (default: rouge1 rouge2 rougeL rougeLsum)",
            },
        ),
        "use_stemmer": (
            "--use-stemmer",
            {
                "action": argparse.BooleanOptionalAction,
                "help": "stem tokens longer than 3 characters: with Porter as rouge_score does, "
                "or with the stemmer of --language",
            },
        ),
        "language": (
            "--language",
            {
                "metavar": "CODE",
                "help": "ISO 639-1 code of the texts' language: its word segmenter, stemmer "
                "(--use-stemmer), stopword list (--remove-stopwords True) and sentence marks "
                f"(--split-sentences rules); one of {', '.join(LANGUAGES)} (default: none, "
                "rouge_score's conventions)",
            },
        ),
        "tokenizer": (
            "--tokenizer",
            {
                "metavar": "NAME",
                "help": f"tokenizer: {', '.join(available_tokenizers())} (default: default)",
            },
        ),
        "split_sentences": (
            "--split-sentences",
            {
                "metavar": "NAME",
                "help": "sentence splitting for rougeLsum: "
                f"{', '.join(available_sentence_splitters())} (default: newline)",
            },
        ),
        "multi_ref": (
            "--multi-ref",
            {
                "choices": MULTI_REF_MODES,
                "help": "how several references per example combine (default: best)",
            },
        ),
        "beta": (
            "--beta",
            {
                "type": float,
                "metavar": "BETA",
                "help": "weight of recall in F (default: 1)",
            },
        ),
        "alpha": (
            "--alpha",
            {
                "type": float,
                "metavar": "ALPHA",
                "help": "ROUGE-1.5.5's -p alpha instead of beta",
            },
        ),
        "aggregation": (
            "--aggregation",
            {
                "choices": AGGREGATIONS,
                "help": "corpus aggregation (default: mean)",
            },
        ),
        "confidence_level": (
            "--confidence-level",
            {
                "type": float,
                "metavar": "LEVEL",
                "help": "bootstrap interval level (default: 0.95)",
            },
        ),
        "n_resamples": (
            "--n-resamples",
            {
                "type": int,
                "metavar": "N",
                "help": "bootstrap resamples (default: 1000)",
            },
        ),
        "seed": ("--seed", {"type": int, "metavar": "SEED", "help": "bootstrap seed (default: 0)"}),
        "return_precision_recall": (
            "--precision-recall",
            {
                "action": "store_true",
                "default": None,
                "help": "JSON/CSV: also report <type>_precision, _recall, _fmeasure",
            },
        ),
    }


# Help of the options whose flag is derived from ScoreOptions: (metavar, help). A new option
# gets a flag without an entry here, and tests/frontends/test_cli.py asks for one.
DERIVED_HELP: dict[str, tuple[str, str]] = {
    "profile": (
        "NAME",
        "default, or rouge155 for all of ROUGE-1.5.5's conventions at once: its tokenizer, "
        "pooled references, alpha 0.5, summary-level ROUGE-L (default: default)",
    ),
    "remove_stopwords": (
        "LIST",
        "remove stopwords before stemming: true (a built-in English list), smart "
        "(ROUGE-1.5.5's -s list) or a file of words, one a line (default: keep all words)",
    ),
    "max_words": ("N", "keep the first N words of every text, as ROUGE-1.5.5's -l N"),
    "max_bytes": ("N", "keep the first N bytes (UTF-8) of every text, as ROUGE-1.5.5's -b N"),
    "synonyms": (
        "SOURCE",
        "synonyms of the +synonyms types: wordnet, wordnet+related, nltk or a file of "
        "synonym groups, one group a line (default: the bundled WordNet 3.0)",
    ),
    "pos_tagger": (
        "TAGGER",
        "part-of-speech tags of the topic types: pretagged for word/TAG input (default: the "
        "bundled English tagger)",
    ),
    "topic_pos": (
        "TAGS",
        "tag prefixes of topic words, separated by | (default: NN|JJ, nouns and adjectives)",
    ),
    "num_proc": ("N", "score on N threads; the compiled kernels run in parallel (default: 1)"),
}


def _parse_value(text: str) -> object:
    """A flag value for an option of unknown type: JSON if it parses, else the text itself."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def _derived_flag(field: dataclasses.Field) -> tuple[str, dict]:
    """A flag for a ScoreOptions field the command line has no hand-written entry for."""
    if field.default is not dataclasses.MISSING:
        default = field.default
    elif field.default_factory is not dataclasses.MISSING:
        default = field.default_factory()
    else:
        default = None
    flag = "--" + field.name.replace("_", "-")
    metavar, described = DERIVED_HELP.get(field.name, ("VALUE", f"{field.name} ({default!r})"))
    if isinstance(default, bool):
        return flag, {"action": argparse.BooleanOptionalAction, "help": described}
    value_type = type(default) if isinstance(default, (int, float, str)) else _parse_value
    return flag, {"type": value_type, "metavar": metavar, "help": described}


def _option_flags() -> dict[str, tuple[str, dict]]:
    flags = _declared_options()
    for field in dataclasses.fields(ScoreOptions):
        if field.name not in flags and field.name not in _NOT_FLAGS:
            flags[field.name] = _derived_flag(field)
    return flags


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        """Usage errors: one line on stderr and exit status 2, no usage dump."""
        self.exit(2, f"{PROG}: error: {message} (see {PROG} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog=PROG,
        description="Score generated texts against references with the ROUGE family.",
        epilog="Text files hold one text per line; inside a line, the two characters \\n mark "
        "a sentence break (for rougeLsum) and \\\\ a backslash.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    source = parser.add_argument_group("input (choose one)").add_mutually_exclusive_group(
        required=True
    )
    source.add_argument(
        "--predictions",
        type=Path,
        metavar="FILE",
        help="text file, one prediction per line (with --references)",
    )
    source.add_argument("--jsonl", type=Path, metavar="FILE", help="JSON Lines file")
    source.add_argument("--csv", type=Path, metavar="FILE", help="CSV file with a header row")
    source.add_argument(
        "--dataset", type=Path, metavar="PATH", help="a datasets dataset saved with save_to_disk"
    )
    source.add_argument("--demo", action="store_true", help="score the bundled sample")
    columns = parser.add_argument_group("input details")
    columns.add_argument(
        "--references",
        type=Path,
        nargs="+",
        action="extend",
        metavar="FILE",
        help="reference text file(s), one per reference per example",
    )
    columns.add_argument(
        "--prediction-column",
        default="prediction",
        metavar="NAME",
        help="JSON Lines, CSV or dataset column of the predictions (default: prediction)",
    )
    columns.add_argument(
        "--reference-column",
        default="references",
        metavar="NAME",
        help="column of the references: a text or a (JSON) list of texts per row "
        "(default: references)",
    )
    columns.add_argument("--split", metavar="NAME", help="split of a saved DatasetDict")

    scoring = parser.add_argument_group("scoring options")
    for name, (flag, keywords) in _option_flags().items():
        scoring.add_argument(flag, dest=_DEST_PREFIX + name, **{"default": None, **keywords})

    output = parser.add_argument_group("output")
    output.add_argument(
        "--format",
        choices=FORMATS,
        default="table",
        help="table (rounded, with the signature), json or csv (full precision) (default: table)",
    )
    output.add_argument("--per-example", action="store_true", help="one row per example")
    output.add_argument("-o", "--output", type=Path, metavar="FILE", help="write here, not stdout")
    output.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="progress bar on stderr (default: when stderr is a terminal)",
    )
    output.add_argument(
        "--chunk-size",
        type=int,
        default=1000,
        metavar="N",
        help="rows scored at a time (default: 1000)",
    )
    return parser


def _given_options(args: argparse.Namespace) -> dict[str, object]:
    """The scoring flags given on the command line, as ``ScoreOptions`` keywords."""
    return {
        key.removeprefix(_DEST_PREFIX): value
        for key, value in vars(args).items()
        if key.startswith(_DEST_PREFIX) and value is not None
    }


def _score_options(args: argparse.Namespace) -> ScoreOptions:
    options = ScoreOptions.from_kwargs(**_given_options(args))
    get_tokenizer(options.tokenizer)  # unknown names fail now, before any file is read
    get_sentence_splitter(options.split_sentences)
    return options


def _input_chunks(
    args: argparse.Namespace, parser: argparse.ArgumentParser
) -> tuple[Iterator[Corpus], int | None]:
    """The input in chunks of ``--chunk-size`` rows, and its number of rows when known.

    JSON Lines and CSV files are read as they are scored, so only a chunk of texts is in memory
    at a time (and the per-example scores), whatever the size of the file.
    """
    size = args.chunk_size
    columns = (args.prediction_column, args.reference_column)
    if args.jsonl is not None or args.csv is not None:
        jsonl = args.jsonl is not None
        records = iter_records(args.jsonl if jsonl else args.csv, jsonl=jsonl)
        return corpus_chunks(records, *columns, size), None
    if args.references and args.predictions is None:
        parser.error("--references goes with --predictions")
    if args.predictions is not None:
        if not args.references:
            parser.error("--predictions needs at least one --references FILE")
        predictions, references = read_text_files(args.predictions, args.references)
    elif args.dataset is not None:
        predictions, references = read_saved_dataset(args.dataset, args.split, *columns)
    else:
        predictions, references = read_demo()
    starts = range(0, len(predictions), size)
    chunks = ((predictions[i : i + size], references[i : i + size]) for i in starts)
    return chunks, len(predictions)


def _score(
    chunks: Iterator[Corpus], total: int | None, options: ScoreOptions, args: argparse.Namespace
) -> ExampleScores:
    """Chunked scoring with a progress bar; the core's warnings become one line per chunk."""
    show = args.progress
    if show is None:
        show = sys.stderr.isatty() and (total is None or total > args.chunk_size)
    bar = tqdm(total=total, unit="ex", disable=not show, file=sys.stderr, desc=PROG)
    with warnings.catch_warnings(record=True) as caught, bar:
        warnings.simplefilter("always")

        def after_chunk(start: int, stop: int) -> None:
            for warning in caught:
                several = start > 0 or stop - start == args.chunk_size
                where = f"rows {start}-{stop - 1}: " if several else ""
                bar.write(f"{PROG}: warning: {where}{warning.message}", file=sys.stderr)
            caught.clear()
            bar.update(stop - start)

        return score_stream(chunks, options, on_chunk=after_chunk)


def write_replacing(path: Path, text: str) -> None:
    """Write ``text`` to a temporary file beside ``path``, then rename it to ``path``: an
    interrupted or failed run leaves the previous file as it was, and no partial file.

    The new file keeps the mode of the one it replaces (a new one gets the usual mode). What is
    not a regular file (``/dev/null``, a pipe) is written to as it is, never replaced.
    """
    if path.exists() and not path.is_file():
        with path.open("w", encoding="utf-8") as handle:
            handle.write(text)
        return
    target = path.resolve()
    descriptor, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
    try:
        with open(descriptor, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.chmod(temporary, _mode_for(target))
        os.replace(temporary, target)
    except BaseException:
        os.unlink(temporary)
        raise


def _mode_for(target: Path) -> int:
    """The permission bits of ``target``, or what a new file gets under the umask."""
    try:
        return target.stat().st_mode & 0o7777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def run_and_write(produce: Callable[[], str], output: Path | None) -> int:
    """Run a command's work (``produce`` returns its text) and write the text to ``output`` or
    stdout; the exit status: 0 done, 1 bad input (one line on stderr), 130 interrupted."""
    try:
        text = produce()
        if output is None:
            sys.stdout.write(text)
        else:
            write_replacing(output, text)
    except OSError as error:
        return _fail(f"{error.filename}: {error.strerror}" if error.filename else str(error))
    except (InputError, TypeError, ValueError) as error:
        return _fail(str(error))
    except KeyboardInterrupt:
        return 130
    return 0


def _fail(message: str) -> int:
    print(f"{PROG}: error: {message}", file=sys.stderr)
    return 1


def _quiet_core_logger() -> None:
    """The core logs what it also warns about; the command line shows the warnings only."""
    core = logging.getLogger("rouge_plus")
    if not any(isinstance(handler, logging.NullHandler) for handler in core.handlers):
        core.addHandler(logging.NullHandler())


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 1 bad input, 2 bad usage)."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["compare"]:  # the subcommand has its own flags
        from .compare import main as compare_main

        return compare_main(argv[1:])
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.chunk_size < 1:
        parser.error(f"--chunk-size must be at least 1, got {args.chunk_size}")
    try:
        options = _score_options(args)
    except (TypeError, ValueError) as error:
        parser.error(str(error))
    _quiet_core_logger()

    def report() -> str:
        examples = _score(*_input_chunks(args, parser), options, args)
        render = render_per_example if args.per_example else render_aggregate
        return render(examples, args.format) + "\n"

    return run_and_write(report, args.output)


if __name__ == "__main__":
    sys.exit(main())

"""Every scoring option in one validated, immutable object, and its reproducibility signature.

Each option is declared once, as a field of :class:`ScoreOptions` whose metadata holds its
:class:`Option`: its help, its group (what it changes), its command-line flag and its Space
exposure. The command line's flags, the evaluate metric's documentation and the Space's ``/score``
parameters are derived from it; the option table of docs/options.md is tested against it.

What the options select (a language's segmenter, stemmer and stopword list) is resolved by the
plan (:func:`rouge_plus.plan.resolve_language`); the signature is :mod:`rouge_plus.signature`'s.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from ._records import field, fields, record
from .corpus.aggregation import AGGREGATIONS
from .errors import OptionError, OptionTypeError
from .scoring.fmeasure import FMeasure
from .scoring.measures import Measure, parse_rouge_types
from .scoring.multiref import MULTI_REF_MODES
from .text.sentences import get_sentence_splitter
from .text.tokenizers import get_tokenizer

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Literal

    # The values of the options with a closed list of names, for type checkers; each equals its
    # runtime tuple (tests/unit/test_option_metadata.py holds them equal).
    MultiRef = Literal["best", "pooled", "mean", "mean_prf", "best_recall", "jackknife"]
    Aggregation = Literal["mean", "bootstrap", "micro"]
    Profile = Literal["default", "rouge155"]
    TokenizerName = Literal["char", "default", "rouge155", "rouge_score", "whitespace"]


def _require_bool(name: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise OptionTypeError(f"{name} must be True or False, got {value!r}")
    return value


def _require_choice(name: str, value: object, choices: Iterable[str]) -> str:
    choices = tuple(choices)
    if value not in choices:
        valid = ", ".join(choices)
        raise OptionError(f"{name}: unknown value {value!r}; valid values are: {valid}")
    return value  # type: ignore[return-value]


PROFILES = ("default", "rouge155")

# What profile="rouge155" changes when the option is not given (ROUGE-1.5.5's conventions).
_ROUGE155_DEFAULTS = {"tokenizer": "rouge155", "multi_ref": "pooled"}


def _require_resolvable(name: str, resolve: Callable[[object], object], spec: object) -> None:
    """Fail at construction, naming the option, on a tokenizer or splitter that cannot be used."""
    try:
        resolve(spec)
    except OptionError as error:
        raise type(error)(f"{name}: {error}") from None


def _require_positive_or_none(name: str, value: object) -> None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
        raise OptionError(f"{name} must be a positive int or None, got {value!r}")


# What an option changes: a per-example number, what is reported over the corpus, or only how
# the work is done.
SCORING = "scoring"
REPORT = "report"
RUNTIME = "runtime"
OPTION_GROUPS = (SCORING, REPORT, RUNTIME)


@record
class Option:
    """One option as its users see it, declared once in its ``ScoreOptions`` field's metadata.

    ``help`` says what it does, for every front end; ``group`` is one of :data:`OPTION_GROUPS`;
    ``api_type`` is the type a keyword takes (the Space's ``/score`` declares it); ``default``
    is the default as a user writes it. ``flag`` is the command-line flag (``""``: ``--`` and
    the name with dashes; ``None``: none, the command line sets it another way), ``metavar``
    its value's name and ``choices`` its values, when they are a closed list. ``space`` says
    why the Space's ``/score`` does not take it (``""``: it does).
    """

    help: str
    group: str
    api_type: Any
    default: str
    flag: str | None = ""
    metavar: str | None = None
    choices: tuple[str, ...] | None = None
    space: str = ""


OPTION = "option"  # the metadata key of a field's Option
KEYWORDS = "keywords"  # the metadata key of the Options of a field given as other keywords


def _option(default: object, help: str, group: str, api_type: Any, **details: Any) -> Any:
    """A ``ScoreOptions`` field and its :class:`Option` (``default`` is the field's default, or
    a zero-argument factory when it is callable)."""
    shown = details.pop("shown", f'"{default}"' if isinstance(default, str) else repr(default))
    metadata = {OPTION: Option(help, group, api_type, shown, **details)}
    if callable(default):
        return field(default_factory=default, metadata=metadata)
    return field(default=default, metadata=metadata)


def option_keywords() -> dict[str, Option]:
    """Every option a user gives, by keyword name, in the order of the fields (``fmeasure`` is
    given as ``beta`` or ``alpha``)."""
    keywords: dict[str, Option] = {}
    for declared in fields(ScoreOptions):
        if OPTION in declared.metadata:
            keywords[declared.name] = declared.metadata[OPTION]
        else:
            keywords.update(declared.metadata[KEYWORDS])
    return keywords


# A part-of-speech tag prefix (Penn Treebank's NN, JJ, VB..., or another tag set's NOUN, ADJ).
_TAG_PREFIX = re.compile(r"[A-Za-z][A-Za-z0-9$_-]*")

# Options whose None is a value of its own ("every core"), not "not given"; for beta and alpha
# None means "the other one decides".
_NONE_IS_A_VALUE = frozenset({"beta", "alpha", "num_proc"})


@record
class ScoreOptions:
    """All options of a scoring call; each field's help is in its metadata
    (:func:`option_keywords`)."""

    rouge_types: tuple[Measure, ...] = _option(
        lambda: parse_rouge_types(None),
        "ROUGE types to compute: rouge1 .. rouge9, rougeL, rougeLsum, rougeW / rougeW-<w>, "
        "rougeS<D> / rougeSU<D> / rougeS* / rougeSU*, rouge<N>+synonyms, rougeTopic, "
        "rougeTopicUniq, and their +synonyms forms",
        SCORING,
        list[str] | None,
        shown='["rouge1", "rouge2", "rougeL", "rougeLsum"]',
        metavar="TYPE",
    )
    use_stemmer: bool = _option(
        False,
        "stem tokens longer than 3 characters: with Porter as rouge_score does, or with the "
        "stemmer of the language",
        SCORING,
        bool | None,
    )
    tokenizer: TokenizerName | Callable[[str], list[str]] | object = _option(
        "default",
        '"default" (Unicode-aware), "rouge_score", "rouge155", "whitespace", "char", or a '
        "callable str -> list[str] (or an object with .tokenize)",
        SCORING,
        str | None,
        metavar="NAME",
    )
    split_sentences: str | Callable[[str], list[str]] = _option(
        "newline",
        'how rougeLsum finds sentences: "newline", "rules", "none", or a callable str -> list[str]',
        SCORING,
        str | None,
        metavar="NAME",
    )
    multi_ref: MultiRef = _option(
        "best",
        'how several references per prediction combine: "best", "pooled", "mean", '
        '"mean_prf", "best_recall" or "jackknife"',
        SCORING,
        str | None,
        choices=MULTI_REF_MODES,
    )
    fmeasure: FMeasure = field(
        default_factory=FMeasure,
        metadata={
            KEYWORDS: {
                "beta": Option("weight of recall in F", SCORING, float | None, "1", metavar="BETA"),
                "alpha": Option(
                    "ROUGE-1.5.5's -p: F = 1 / (alpha / P + (1 - alpha) / R); give beta or alpha",
                    SCORING,
                    float | None,
                    "None",
                    metavar="ALPHA",
                ),
            }
        },
    )
    use_aggregator: bool = _option(
        True,
        "aggregate over the corpus, or return per-example lists",
        REPORT,
        bool | None,
        flag=None,  # the command line's --per-example
    )
    aggregation: Aggregation = _option(
        "mean",
        'corpus aggregation: "mean", "bootstrap" (adds <key>_low and <key>_high), or "micro" '
        "(precision and recall from the counts summed over the corpus)",
        REPORT,
        str | None,
        choices=AGGREGATIONS,
    )
    confidence_level: float = _option(
        0.95, "bootstrap interval level", REPORT, float | None, metavar="LEVEL"
    )
    n_resamples: int = _option(1000, "bootstrap resamples", REPORT, int | None, metavar="N")
    seed: int = _option(0, "bootstrap seed", REPORT, int | None, metavar="SEED")
    return_precision_recall: bool = _option(
        False,
        "also report <type>_precision, <type>_recall and <type>_fmeasure",
        REPORT,
        bool | None,
        flag="--precision-recall",
    )
    return_counts: bool = _option(
        False,
        "also report <type>_matches, <type>_prediction_total and <type>_reference_total, the "
        "counts behind precision and recall (summed over the corpus when aggregated)",
        REPORT,
        bool | None,
        flag="--counts",
    )
    profile: Profile = _option(
        "default",
        '"default", or "rouge155" for all of ROUGE-1.5.5\'s conventions at once: its '
        "tokenizer, pooled references, alpha 0.5, summary-level ROUGE-L",
        SCORING,
        str | None,
        metavar="NAME",
    )
    remove_stopwords: object = _option(
        None,
        'remove stopwords before stemming: true (a built-in English list), "smart" '
        "(ROUGE-1.5.5's -s list), a list of words or a file of words, one a line",
        SCORING,
        bool | str | list[str] | None,
        metavar="LIST",
    )
    max_words: int | None = _option(
        None,
        "keep the first N words of every text, as ROUGE-1.5.5's -l N",
        SCORING,
        int | None,
        metavar="N",
    )
    max_bytes: int | None = _option(
        None,
        "keep the first N bytes (UTF-8) of every text, as ROUGE-1.5.5's -b N",
        SCORING,
        int | None,
        metavar="N",
    )
    synonyms: object = _option(
        None,
        'synonyms of the +synonyms types: None (the bundled WordNet 3.0), "wordnet", '
        '"wordnet+related", "nltk", a dict, a file of synonym groups (one group a line) or a '
        "callable",
        SCORING,
        str | dict | None,
        metavar="SOURCE",
        space="a file name would be read on the server and a callable cannot travel over "
        "HTTP; the bundled WordNet 3.0 is used",
    )
    pos_tagger: object = _option(
        None,
        "part-of-speech tagger of the topic types: None (the bundled English tagger), "
        '"pretagged" for word/TAG input, or a callable list[str] -> list[str] of Penn tags',
        SCORING,
        str | None,
        metavar="TAGGER",
        space="a tagger is a Python callable; the bundled English tagger is used",
    )
    topic_pos: str | tuple[str, ...] = _option(
        ("NN", "JJ"),
        'tag prefixes of topic words ("NN" covers NNS, NNP and NNPS); "NN|JJ" works too',
        SCORING,
        str | None,
        shown='("NN", "JJ")',
        metavar="TAGS",
    )
    num_proc: int | None = _option(
        1,
        "threads to score on (None: every core); the compiled kernels run in parallel and "
        "the results do not change",
        RUNTIME,
        int | None,
        metavar="N",
        space="the server decides how many threads a request gets",
    )
    language: str | None = _option(
        None,
        'ISO 639-1 code of the texts ("zh", "de", "hi", ...): its word segmenter, stemmer, '
        "stopword list and sentence marks (None: rouge_score's conventions)",
        SCORING,
        str | None,
        metavar="CODE",
    )

    strip_reasoning: bool | str = _option(
        False,
        "remove reasoning traces from the predictions before scoring: true for <think>, "
        "<thinking>, <thought>, <reasoning> and <reflection> blocks (an unclosed one removes "
        "the rest of the text), or a regular expression of your own",
        SCORING,
        bool | str | None,
        metavar="PATTERN",
    )

    @classmethod
    def from_kwargs(cls, **kwargs: object) -> ScoreOptions:
        """Build options from user keywords, rejecting unknown names with the list of valid ones."""
        valid = sorted(option_keywords())
        unknown = sorted(set(kwargs) - set(valid))
        if unknown:
            raise OptionTypeError(
                f"unknown option {unknown[0]!r}; valid options are: {', '.join(valid)}"
            )
        # None means "not given", except where None is a value of its own.
        values = {k: v for k, v in kwargs.items() if v is not None or k in _NONE_IS_A_VALUE}
        if values.get("profile") == "rouge155":
            values = {**_ROUGE155_DEFAULTS, **values}
            if values.get("beta") is None and values.get("alpha") is None:
                values["alpha"] = 0.5  # 1.5.5's -p 0.5, computed with its formula
        fmeasure = FMeasure(beta=values.pop("beta", None), alpha=values.pop("alpha", None))
        measures = parse_rouge_types(values.get("rouge_types"))
        if values.get("profile") == "rouge155":  # 1.5.5's ROUGE-L is summary-level
            measures = tuple(measure.as_rouge155() for measure in measures)
        values["rouge_types"] = measures
        return cls(fmeasure=fmeasure, **values)

    def __post_init__(self) -> None:
        _require_bool("use_stemmer", self.use_stemmer)
        _require_bool("use_aggregator", self.use_aggregator)
        _require_bool("return_precision_recall", self.return_precision_recall)
        _require_bool("return_counts", self.return_counts)
        if self.strip_reasoning is not False:  # the common call does not import the module
            from .text.reasoning import check_reasoning_spec

            check_reasoning_spec(self.strip_reasoning)
        _require_choice("multi_ref", self.multi_ref, MULTI_REF_MODES)
        _require_choice("aggregation", self.aggregation, AGGREGATIONS)
        _require_choice("profile", self.profile, PROFILES)
        _require_resolvable("tokenizer", get_tokenizer, self.tokenizer)
        _require_resolvable("split_sentences", get_sentence_splitter, self.split_sentences)
        _require_positive_or_none("max_words", self.max_words)
        _require_positive_or_none("max_bytes", self.max_bytes)
        topic_pos = self.topic_pos
        if (
            not isinstance(topic_pos, (str, tuple, list))
            or not all(
                isinstance(prefix, str) and _TAG_PREFIX.fullmatch(prefix)
                for prefix in self.topic_prefixes
            )
            or not self.topic_prefixes
        ):
            raise OptionError(
                f"topic_pos must name tag prefixes such as ('NN', 'JJ') or 'NN|JJ' (each starts "
                f"with a letter), got {topic_pos!r}"
            )
        _require_positive_or_none("num_proc", self.num_proc)
        language = None
        if self.language is not None:
            from .text.languages import get_language

            language = get_language(self.language)
        if language is not None and self.remove_stopwords is True and not language.stopwords:
            raise OptionError(
                f"remove_stopwords=True: there is no stopword list for language "
                f"{language.code!r} ({language.name}); pass a list of words instead"
            )
        if self.max_words and self.max_bytes:
            raise OptionError("max_words and max_bytes: give one of them, not both (as -l / -b)")
        if not (isinstance(self.confidence_level, float) and 0 < self.confidence_level < 1):
            raise OptionError(
                f"confidence_level must be a float in (0, 1), got {self.confidence_level!r}"
            )
        if (
            isinstance(self.n_resamples, bool)
            or not isinstance(self.n_resamples, int)
            or self.n_resamples < 1
        ):
            raise OptionError(f"n_resamples must be a positive int, got {self.n_resamples!r}")
        if isinstance(self.seed, int) and not isinstance(self.seed, bool) and self.seed < 0:
            raise OptionError(f"seed must be a non-negative int, got {self.seed!r}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int):
            raise OptionTypeError(f"seed must be an int, got {self.seed!r}")

    @property
    def type_names(self) -> list[str]:
        return [m.name for m in self.rouge_types]

    @property
    def needs_synonyms(self) -> bool:
        return any(m.synonyms for m in self.rouge_types)

    @property
    def topic_prefixes(self) -> tuple[str, ...]:
        topic_pos = self.topic_pos
        return tuple(topic_pos.split("|") if isinstance(topic_pos, str) else topic_pos)

    @property
    def rouge155(self) -> bool:
        return self.profile == "rouge155"

    @property
    def needs_counts(self) -> bool:
        """Whether the per-example counts are kept: reported, or summed for the micro average."""
        return self.return_counts or self.aggregation == "micro"

    @property
    def has_topic(self) -> bool:
        """Whether a measure reads topic words, so that the plan loads a tagger."""
        return any(m.is_topic for m in self.rouge_types)

"""Every scoring option in one validated, immutable object, and its reproducibility signature.

The signature (like sacrebleu's) records every setting that can change a score, plus the package
version, so a number in a paper can be reproduced:
``rouge_plus|types:rouge1,rougeL|tok:default|...``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ._version import __version__
from .corpus.aggregation import AGGREGATIONS
from .scoring.fmeasure import FMeasure
from .scoring.measures import Measure, parse_rouge_types
from .scoring.multiref import MULTI_REF_MODES
from .text.sentences import get_sentence_splitter
from .text.tokenizers import get_tokenizer

if TYPE_CHECKING:
    from .text.languages import Language  # the table is imported when a language is named


def _require_bool(name: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"{name} must be True or False, got {value!r}")
    return value


def _require_choice(name: str, value: object, choices: Iterable[str]) -> str:
    choices = tuple(choices)
    if value not in choices:
        raise ValueError(f"{name}: unknown value {value!r}; valid values are: {', '.join(choices)}")
    return value  # type: ignore[return-value]


def _spec_name(kind: str, spec: object) -> str:
    """A stable label for a tokenizer/splitter given by name or as a callable."""
    if isinstance(spec, str):
        return spec
    name = getattr(spec, "name", None)
    if isinstance(name, str):
        return name
    target = getattr(spec, "tokenize", spec) if kind == "tok" else spec
    return f"custom:{getattr(target, '__qualname__', type(target).__qualname__)}"


PROFILES = ("default", "rouge155")

# What profile="rouge155" changes when the option is not given (ROUGE-1.5.5's conventions).
_ROUGE155_DEFAULTS = {"tokenizer": "rouge155", "multi_ref": "pooled"}


def _stopwords_label(spec: object) -> str:
    if spec is None or spec is False:
        return "no"
    if spec is True:
        return "english"
    if isinstance(spec, str) and spec.lower() == "smart":
        return "smart"
    import hashlib  # only for files and lists: it costs milliseconds to import

    if isinstance(spec, (str, Path)):
        return f"file:{hashlib.sha1(Path(spec).read_bytes()).hexdigest()[:12]}"
    words = "\n".join(sorted(map(str, spec)))  # type: ignore[call-overload]
    return f"list:{hashlib.sha1(words.encode('utf-8', 'surrogatepass')).hexdigest()[:12]}"


def _require_resolvable(name: str, resolve: Callable[[object], object], spec: object) -> None:
    """Fail at construction, naming the option, on a tokenizer or splitter that cannot be used."""
    try:
        resolve(spec)
    except (TypeError, ValueError) as error:
        raise type(error)(f"{name}: {error}") from None


def _require_positive_or_none(name: str, value: object) -> None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
        raise ValueError(f"{name} must be a positive int or None, got {value!r}")


@dataclass(frozen=True)
class ScoreOptions:
    """All options of a scoring call; see README "Options" for each one."""

    rouge_types: tuple[Measure, ...] = field(default_factory=lambda: parse_rouge_types(None))
    use_stemmer: bool = False
    tokenizer: str | Callable[[str], list[str]] | object = "default"
    split_sentences: str | Callable[[str], list[str]] = "newline"
    multi_ref: str = "best"
    fmeasure: FMeasure = field(default_factory=FMeasure)
    use_aggregator: bool = True
    aggregation: str = "mean"
    confidence_level: float = 0.95
    n_resamples: int = 1000
    seed: int = 0
    return_precision_recall: bool = False
    profile: str = "default"
    remove_stopwords: object = None
    max_words: int | None = None
    max_bytes: int | None = None
    synonyms: object = None
    pos_tagger: object = None
    topic_pos: str | tuple[str, ...] = ("NN", "JJ")
    num_proc: int | None = 1
    language: str | None = None

    @classmethod
    def from_kwargs(cls, **kwargs: object) -> ScoreOptions:
        """Build options from user keywords, rejecting unknown names with the list of valid ones."""
        valid = sorted({f.name for f in dataclasses.fields(cls)} - {"fmeasure"} | {"beta", "alpha"})
        unknown = sorted(set(kwargs) - set(valid))
        if unknown:
            raise TypeError(f"unknown option {unknown[0]!r}; valid options are: {', '.join(valid)}")
        values = {k: v for k, v in kwargs.items() if v is not None or k in ("beta", "alpha")}
        if values.get("profile") == "rouge155":
            values = {**_ROUGE155_DEFAULTS, **values}
            if values.get("beta") is None and values.get("alpha") is None:
                values["alpha"] = 0.5  # 1.5.5's -p 0.5, computed with its formula
        fmeasure = FMeasure(beta=values.pop("beta", None), alpha=values.pop("alpha", None))
        measures = parse_rouge_types(values.get("rouge_types"))
        if values.get("profile") == "rouge155":  # 1.5.5's ROUGE-L is summary-level
            measures = tuple(
                dataclasses.replace(m, kind="summary_lcs") if m.kind == "lcs" else m
                for m in measures
            )
        values["rouge_types"] = measures
        return cls(fmeasure=fmeasure, **values)

    def __post_init__(self) -> None:
        _require_bool("use_stemmer", self.use_stemmer)
        _require_bool("use_aggregator", self.use_aggregator)
        _require_bool("return_precision_recall", self.return_precision_recall)
        _require_choice("multi_ref", self.multi_ref, MULTI_REF_MODES)
        _require_choice("aggregation", self.aggregation, AGGREGATIONS)
        _require_choice("profile", self.profile, PROFILES)
        _require_resolvable("tokenizer", get_tokenizer, self.tokenizer)
        _require_resolvable("split_sentences", get_sentence_splitter, self.split_sentences)
        _require_positive_or_none("max_words", self.max_words)
        _require_positive_or_none("max_bytes", self.max_bytes)
        if not self.topic_prefixes or not all(
            isinstance(p, str) and p for p in self.topic_prefixes
        ):
            raise ValueError(
                f"topic_pos must name tag prefixes such as ('NN', 'JJ'), got {self.topic_pos!r}"
            )
        _require_positive_or_none("num_proc", self.num_proc)
        language = self.language_spec
        if language is not None and self.remove_stopwords is True and not language.stopwords:
            raise ValueError(
                f"remove_stopwords=True: there is no stopword list for language "
                f"{language.code!r} ({language.name}); pass a list of words instead"
            )
        if self.max_words and self.max_bytes:
            raise ValueError("max_words and max_bytes: give one of them, not both (as -l / -b)")
        if not (isinstance(self.confidence_level, float) and 0 < self.confidence_level < 1):
            raise ValueError(
                f"confidence_level must be a float in (0, 1), got {self.confidence_level!r}"
            )
        if (
            isinstance(self.n_resamples, bool)
            or not isinstance(self.n_resamples, int)
            or self.n_resamples < 1
        ):
            raise ValueError(f"n_resamples must be a positive int, got {self.n_resamples!r}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int):
            raise TypeError(f"seed must be an int, got {self.seed!r}")

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
    def language_spec(self) -> Language | None:
        """What ``language`` selects (``None`` without a language)."""
        if self.language is None:
            return None
        from .text.languages import get_language

        return get_language(self.language)

    @property
    def segmenter(self) -> str | None:
        """The language's segmenter (a key of ``text.segmenters.SEGMENTERS``); only the
        default tokenizer is replaced by it."""
        language = self.language_spec
        if language is None or self.tokenizer != "default":
            return None
        return language.segmenter

    @property
    def stemmer_name(self) -> str | None:
        """The stemmer's name for ``resources.get_stemmer``; ``None`` without stemming, or for a
        language that has no stemmer."""
        if not self.use_stemmer:
            return None
        if self.rouge155:
            return "rouge155"
        language = self.language_spec
        if language is None or language.stemmer == "porter":
            return "porter"
        return language.stemmer and f"snowball:{language.stemmer}"

    @property
    def language_stopwords(self) -> str | None:
        """The stopwords-iso code of ``remove_stopwords=True`` under a language other than
        English (whose list stays the built-in one)."""
        language = self.language_spec
        if self.remove_stopwords is not True or language is None:
            return None
        return None if language.stopwords == "english" else language.stopwords

    @property
    def has_topic(self) -> bool:
        return any(m.kind == "topic" for m in self.rouge_types)

    def signature(self, synonyms_name: str | None = None, tagger_name: str | None = None) -> str:
        """Every setting that changes a score, and the package version.

        Data sources are named without being loaded; a scoring call that has loaded them passes
        their names (``synonyms_name``, ``tagger_name``) so a user's file is read only once.
        """
        parts = [
            "rouge_plus",
            f"types:{','.join(self.type_names)}",
            f"tok:{_spec_name('tok', self.tokenizer)}",
            f"stem:{self._stemmer_label()}",
            f"stop:{self._stopwords_label()}",
            f"sent:{_spec_name('sent', self.split_sentences)}",
            f"multiref:{self.multi_ref}",
            f"f:{self.fmeasure.label}",
            f"profile:{self.profile}",
            f"agg:{self.aggregation}",
        ]
        if self.language is not None:
            parts.append(f"lang:{self._language_label()}")
        if self.needs_synonyms:
            from .rouge2.synonyms import synonyms_label

            parts.append(f"syn:{synonyms_name or synonyms_label(self.synonyms)}")
        if self.has_topic:
            from .rouge2.pos import tagger_label

            if self.pos_tagger == "pretagged":
                tagger_name = "pretagged"
            tagger = tagger_name or tagger_label(self.pos_tagger)
            parts.append(f"topic:{'|'.join(self.topic_prefixes)},tagger:{tagger}")
        if self.max_words or self.max_bytes:
            parts.append(f"limit:{self.max_words or '-'}w,{self.max_bytes or '-'}b")
        if self.aggregation == "bootstrap":
            parts.append(f"ci:{self.confidence_level:g},n:{self.n_resamples},seed:{self.seed}")
        parts.append(f"version:{__version__}")
        return "|".join(parts)

    def _stemmer_label(self) -> str:
        name = self.stemmer_name
        if name is None:
            return "no"
        if name.startswith("snowball:"):
            from .text.languages import STEM_PACKAGE, package_version

            return f"{name.replace(':', '-')}({STEM_PACKAGE}-{package_version(STEM_PACKAGE)})"
        return name

    def _stopwords_label(self) -> str:
        code = self.language_stopwords
        if code is None:
            return _stopwords_label(self.remove_stopwords)
        from .text.languages import STOPWORDS_PACKAGE, package_version

        return f"iso-{code}({STOPWORDS_PACKAGE}-{package_version(STOPWORDS_PACKAGE)})"

    def _language_label(self) -> str:
        """The language, and its segmenter with the versions of its packages."""
        segmenter = self.segmenter
        if segmenter is None:
            return str(self.language)
        from .text.segmenters import SEGMENTERS

        spec = SEGMENTERS[segmenter]
        return f"{self.language},seg:{spec.label}({spec.version_label})"

"""Every scoring option in one validated, immutable object, and its reproducibility signature.

The signature (like sacrebleu's) records every setting that can change a score, plus the package
version, so a number in a paper can be reproduced:
``rouge_plus|types:rouge1,rougeL|tok:default|...``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from ._version import __version__
from .aggregation import AGGREGATIONS
from .fmeasure import FMeasure
from .multiref import MULTI_REF_MODES
from .rouge_types import Measure, parse_rouge_types


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

    @classmethod
    def from_kwargs(cls, **kwargs: object) -> ScoreOptions:
        """Build options from user keywords, rejecting unknown names with the list of valid ones."""
        valid = sorted({f.name for f in dataclasses.fields(cls)} - {"fmeasure"} | {"beta", "alpha"})
        unknown = sorted(set(kwargs) - set(valid))
        if unknown:
            raise TypeError(f"unknown option {unknown[0]!r}; valid options are: {', '.join(valid)}")
        values = {k: v for k, v in kwargs.items() if v is not None or k in ("beta", "alpha")}
        fmeasure = FMeasure(beta=values.pop("beta", None), alpha=values.pop("alpha", None))
        if "rouge_types" in values:
            values["rouge_types"] = parse_rouge_types(values["rouge_types"])
        return cls(fmeasure=fmeasure, **values)

    def __post_init__(self) -> None:
        _require_bool("use_stemmer", self.use_stemmer)
        _require_bool("use_aggregator", self.use_aggregator)
        _require_bool("return_precision_recall", self.return_precision_recall)
        _require_choice("multi_ref", self.multi_ref, MULTI_REF_MODES)
        _require_choice("aggregation", self.aggregation, AGGREGATIONS)
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

    def signature(self) -> str:
        """Every setting that changes a score, and the package version."""
        parts = [
            "rouge_plus",
            f"types:{','.join(self.type_names)}",
            f"tok:{_spec_name('tok', self.tokenizer)}",
            f"stem:{'porter' if self.use_stemmer else 'no'}",
            f"sent:{_spec_name('sent', self.split_sentences)}",
            f"multiref:{self.multi_ref}",
            f"f:{self.fmeasure.label}",
            f"agg:{self.aggregation}",
        ]
        if self.aggregation == "bootstrap":
            parts.append(f"ci:{self.confidence_level:g},n:{self.n_resamples},seed:{self.seed}")
        parts.append(f"version:{__version__}")
        return "|".join(parts)

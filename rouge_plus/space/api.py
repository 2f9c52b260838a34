"""The Space's ``/score`` endpoint: ``rouge_plus.score`` over HTTP, the same options and numbers,
within the Space's limits.

Its parameters are derived from :class:`~rouge_plus.options.ScoreOptions`, so an option the
core adds reaches the API without a change here; the few it leaves out are listed in
:data:`OMITTED_OPTIONS` with the reason (README's Space section repeats the list).
"""

from __future__ import annotations

import dataclasses
import inspect
from typing import Any

from ..errors import InputError
from ..inputs import normalize_inputs
from ..options import ScoreOptions
from .limits import Budget, aggregate_within, score_within_limits

# ScoreOptions fields the public API does not take, and why.
OMITTED_OPTIONS = {
    "fmeasure": "given as beta or alpha",
    "num_proc": "the server decides how many threads a request gets",
    "synonyms": "a file name would be read on the server and a callable cannot travel over HTTP; "
    "the bundled WordNet 3.0 is used",
    "pos_tagger": "a tagger is a Python callable; the bundled English tagger is used",
}

# JSON types of the options whose default does not tell them.
_API_TYPES: dict[str, Any] = {
    "rouge_types": list[str] | None,
    "tokenizer": str | None,
    "split_sentences": str | None,
    "remove_stopwords": bool | str | list[str] | None,
    "max_words": int | None,
    "max_bytes": int | None,
    "topic_pos": str | None,
}


def _option_type(field: dataclasses.Field) -> Any:
    if field.name in _API_TYPES:
        return _API_TYPES[field.name]
    default = field.default
    return type(default) | None if isinstance(default, (bool, int, float, str)) else Any


def _parameters() -> list[inspect.Parameter]:
    keyword = inspect.Parameter.POSITIONAL_OR_KEYWORD
    options = [
        inspect.Parameter(field.name, keyword, default=None, annotation=_option_type(field))
        for field in dataclasses.fields(ScoreOptions)
        if field.name not in OMITTED_OPTIONS
    ]
    weights = [
        inspect.Parameter(name, keyword, default=None, annotation=float | None)
        for name in ("beta", "alpha")
    ]
    return [
        inspect.Parameter("predictions", keyword, annotation=list[str]),
        inspect.Parameter("references", keyword, annotation=list),
        *options,
        *weights,
    ]


API_SIGNATURE = inspect.Signature(_parameters(), return_annotation=dict)


def score_api(*args: object, budget: Budget | None = None, **kwargs: object) -> dict:
    """``rouge_plus.score`` over HTTP: the same options, the same numbers, within the Space's
    limits (:mod:`.limits`; ``budget`` says when to stop working).

    ``references`` holds one text or a list of texts per prediction; an option left out (None)
    takes the library's default. ``remove_stopwords`` is true (English list), ``"smart"`` or a
    list of words: a string naming a file is refused, since it would be read on the server.
    """
    arguments = API_SIGNATURE.bind(*args, **kwargs).arguments
    predictions = arguments.pop("predictions")
    references = arguments.pop("references")
    stopwords = arguments.get("remove_stopwords")
    if isinstance(stopwords, str) and stopwords.lower() != "smart":
        raise InputError('remove_stopwords: give true, "smart" or a list of words')
    options = ScoreOptions.from_kwargs(**arguments)
    budget = budget or Budget()
    examples = score_within_limits(normalize_inputs(predictions, references), options, budget)
    if not options.use_aggregator:
        return examples.per_example()
    return aggregate_within(examples, options, budget)


score_api.__signature__ = API_SIGNATURE  # type: ignore[attr-defined]
score_api.__annotations__ = {
    **{parameter.name: parameter.annotation for parameter in API_SIGNATURE.parameters.values()},
    "return": dict,
}

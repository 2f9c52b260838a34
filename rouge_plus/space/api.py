"""The Space's ``/score`` endpoint: ``rouge_plus.score`` over HTTP, the same options and numbers,
within the Space's limits.

Its parameters are derived from the options declared on :class:`~rouge_plus.options.ScoreOptions`
(their types and, for the few it leaves out, the reason), so an option the core adds reaches the
API without a change here; :data:`OMITTED_OPTIONS` lists those few (docs/space.md repeats
the list).
"""

from __future__ import annotations

import functools
import inspect

from ..errors import InputError
from ..inputs import normalize_inputs
from ..options import ScoreOptions, option_keywords
from ..results import ExampleScores
from .scoring import score_within_limits
from .workers import Budget

# Options the public API does not take, and why (declared on their ScoreOptions field).
OMITTED_OPTIONS = {
    "fmeasure": "given as beta or alpha",
    **{name: option.space for name, option in option_keywords().items() if option.space},
}
_WEIGHTS = ("beta", "alpha")  # the last parameters, where they have always been


def _parameters() -> list[inspect.Parameter]:
    keyword = inspect.Parameter.POSITIONAL_OR_KEYWORD
    served = [(name, option) for name, option in option_keywords().items() if not option.space]
    served.sort(key=lambda item: item[0] in _WEIGHTS)
    return [
        inspect.Parameter("predictions", keyword, annotation=list[str]),
        inspect.Parameter("references", keyword, annotation=list),
        *(
            inspect.Parameter(name, keyword, default=None, annotation=option.api_type)
            for name, option in served
        ),
    ]


API_SIGNATURE = inspect.Signature(_parameters(), return_annotation=dict)


def score_api(*args: object, budget: Budget | None = None, **kwargs: object) -> dict:
    """``rouge_plus.score`` over HTTP: the same options, the same numbers, within the Space's
    limits (:mod:`.limits`; ``budget`` says when to stop working).

    ``references`` holds one text or a list of texts per prediction; an option left out (None)
    takes the library's default. ``remove_stopwords`` is true (English list), ``"smart"`` or a
    list of words: a string naming a file is refused, since it would be read on the server.
    ``strip_reasoning`` is true or false: a pattern is refused (a regular expression run on the
    server could hold it: ReDoS).
    """
    arguments = API_SIGNATURE.bind(*args, **kwargs).arguments
    predictions = arguments.pop("predictions")
    references = arguments.pop("references")
    stopwords = arguments.get("remove_stopwords")
    if isinstance(stopwords, str) and stopwords.lower() != "smart":
        raise InputError('remove_stopwords: give true, "smart" or a list of words')
    if isinstance(arguments.get("strip_reasoning"), str):
        raise InputError(
            "strip_reasoning: give true or false; a pattern of your own is refused, since a "
            "regular expression that backtracks (ReDoS) would hold the server"
        )
    options = ScoreOptions.from_kwargs(**arguments)
    bootstrap = options.use_aggregator and options.aggregation == "bootstrap"
    return score_within_limits(
        normalize_inputs(predictions, references),
        options,
        budget or Budget(),
        summarize=functools.partial(library_result, options=options),
        resamples=options.n_resamples if bootstrap else 0,
    ).summary


def library_result(examples: ExampleScores, options: ScoreOptions) -> dict:
    """What ``rouge_plus.score`` returns for ``examples`` under ``options``."""
    return examples.aggregate(options) if options.use_aggregator else examples.per_example()


score_api.__signature__ = API_SIGNATURE  # type: ignore[attr-defined]
score_api.__annotations__ = {
    **{parameter.name: parameter.annotation for parameter in API_SIGNATURE.parameters.values()},
    "return": dict,
}

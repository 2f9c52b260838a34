"""rouge_score's ``rouge_scorer`` module, scored by rouge_plus: the same API and the same numbers.

``RougeScorer(rouge_types, use_stemmer=False, split_summaries=False, tokenizer=None)`` has
rouge_score 0.1.2's ``score(target, prediction)`` and ``score_multi(targets, prediction)`` (the
target comes first), returning ``{type: Score(precision, recall, fmeasure)}``, and adds
``score_batch(targets, predictions)``, which scores whole lists in one rouge_plus call. Types are
``rouge1`` .. ``rouge9``, ``rougeL`` and ``rougeLsum``; as in rouge_score, a bad type raises its
``ValueError`` when scoring, not when the scorer is built. See the package docstring for the
differences (``split_summaries=True`` splits sentences without NLTK).
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Hashable, Iterable, Sequence

from rouge_plus import RougeScorer as _CoreScorer

from ...errors import InputError, InputTypeError, OptionError
from . import scoring, tokenizers
from ._internals import *  # noqa: F403 - rouge_score's private helpers, which code calls
from ._text import ensure_str

Text = str | bytes

# rouge_score's test for an n-gram type; like it, this accepts "rouge1\n" ($ matches before a
# final newline), which rouge_score then scores as rouge1.
_NGRAM_TYPE = re.compile(r"rouge[0-9]$")

# A text has a token under rouge_score's rule iff its str.lower() contains [a-z0-9]: ASCII letters
# and digits, and the only two other characters whose lowercase is ASCII ("İ" and the Kelvin
# sign). A text without one scores 0 whatever it holds, as the empty text does.
_HAS_TOKEN = re.compile("[A-Za-z0-9\u0130\u212a]")

# rouge_score lowercases bytes before decoding them, so in bytes "İ" and the Kelvin sign are not
# lowercased to ASCII letters: they separate tokens like every other non-ASCII character.
_BYTES_SEPARATORS = str.maketrans({"\u0130": " ", "\u212a": " "})


def _core_type(rouge_type: object) -> str:
    """rouge_plus's name for a rouge_score type, with rouge_score's errors for a bad one."""
    if rouge_type in ("rougeL", "rougeLsum"):
        return str(rouge_type)
    name = ensure_str(rouge_type)
    if _NGRAM_TYPE.match(name):
        n = int(name[5:])
        if n <= 0:
            raise OptionError(f"rougen requires positive n: {rouge_type}")
        return f"rouge{n}"
    raise OptionError(f"Invalid rouge type: {rouge_type}")


def _default_text(value: object) -> str:
    """A text for rouge_plus's "rouge_score" tokenizer; "" for one without tokens.

    Passing "" changes no score and keeps rouge_plus from warning about a text that has
    characters but no tokens, which rouge_score scores silently.
    """
    if isinstance(value, bytes):
        text = value.decode("utf-8").translate(_BYTES_SEPARATORS)
    elif isinstance(value, str):
        text = value
    else:
        raise InputTypeError(f"a text must be a str or bytes, got {type(value).__name__}")
    return text if _HAS_TOKEN.search(text) else ""


def _custom_text(value: object) -> str:
    """A text for a user's tokenizer: bytes are decoded (rouge_score decodes them only for
    rougeLsum)."""
    return ensure_str(value)


def _is_default_tokenizer(tokenizer: object) -> bool:
    """This module's ``DefaultTokenizer`` or rouge_score's own (not a subclass of either)."""
    kind = type(tokenizer)
    return kind is tokenizers.DefaultTokenizer or (kind.__module__, kind.__qualname__) == (
        "rouge_score.tokenizers",
        "DefaultTokenizer",
    )


class _StrTokens:
    """A rouge_score tokenizer as rouge_plus calls it, with every token made a str.

    rouge_score compares tokens with ``==`` and counts them in Counters, so any hashable token
    works there; rouge_plus takes str tokens. A str token passes unchanged (one that starts with
    NUL gets a marker, so that it cannot equal a code); any other token becomes NUL, "n" and a
    number shared by all tokens equal to it (a dict lookup, so 1 and 1.0 share one, as in a
    Counter). The dict lives as long as the scorer and grows with the distinct non-str tokens.
    """

    def __init__(self, tokenizer: tokenizers.Tokenizer):
        self._tokenize = tokenizer.tokenize
        self.name = f"custom:{type(tokenizer).__qualname__}"
        self._codes: dict[Hashable, str] = {}
        self._numbers = itertools.count()

    def __call__(self, text: str) -> list[str]:
        tokens = self._tokenize(text)
        if all(type(token) is str and token[:1] != "\0" for token in tokens):
            return list(tokens)
        return [self._code(token) for token in tokens]

    def _code(self, token: Hashable) -> str:
        if isinstance(token, str):
            token = str(token)
            return "\0s" + token if token[:1] == "\0" else token
        code = self._codes.get(token)
        if code is None:  # setdefault: two threads meeting a new token agree on one code
            code = self._codes.setdefault(token, f"\0n{next(self._numbers)}")
        return code


def _new_core(
    types: tuple, options: dict[str, object]
) -> tuple[_CoreScorer | None, dict[object, str], dict[object, int]]:
    """The rouge_plus scorer of rouge_score ``types``, the rouge_plus name of each type and where
    its precision, recall and F sit among the scorer's values; no scorer without types."""
    names = {rouge_type: _core_type(rouge_type) for rouge_type in types}
    core_types = list(dict.fromkeys(names.values()))
    core = _CoreScorer(core_types, **options) if core_types else None
    at = {key: 3 * core_types.index(name) for key, name in names.items()}
    return core, names, at


@functools.lru_cache(maxsize=64)
def _shared_core(types: tuple, options: tuple) -> tuple:
    """:func:`_new_core` for options of plain values, built once: harnesses often build a new
    scorer for every pair."""
    return _new_core(types, dict(options))


# Score(p, r, f) from a list of three floats, without the namedtuple's Python-level __new__.
_Score = functools.partial(tuple.__new__, scoring.Score)


class RougeScorer(scoring.BaseScorer):
    """Calculate rouge scores between two blobs of text, as rouge_score does.

    Sample usage:
      scorer = RougeScorer(['rouge1', 'rougeL'], use_stemmer=True)
      scores = scorer.score('The quick brown fox jumps over the lazy dog',
                            'The quick brown dog jumps on the log.')
    """

    def __init__(
        self,
        rouge_types: Iterable[str],
        use_stemmer: bool = False,
        split_summaries: bool = False,
        tokenizer: tokenizers.Tokenizer | None = None,
    ):
        self.rouge_types = rouge_types
        self._tokenizer = tokenizer if tokenizer else tokenizers.DefaultTokenizer(use_stemmer)
        self._split_summaries = split_summaries
        if _is_default_tokenizer(self._tokenizer):
            # rouge_plus's "rouge_score" tokenizer and Porter stemming are this tokenizer's rule.
            self._text = _default_text
            core_tokenizer: object = "rouge_score"
            stem = self._tokenizer._stemmer is not None
        else:
            self._text = _custom_text
            core_tokenizer = _StrTokens(self._tokenizer)
            stem = False  # rouge_score leaves stemming to a custom tokenizer
        self._core_options = {
            "tokenizer": core_tokenizer,
            "use_stemmer": stem,
            "split_sentences": "rules" if split_summaries else "newline",
            "multi_ref": "best",
        }
        self._resolved: tuple[tuple, _CoreScorer | None, dict[object, str], dict] | None = None

    def _core(self) -> tuple[_CoreScorer | None, dict[object, str]]:
        """The rouge_plus scorer of ``self.rouge_types`` (read on every call, as rouge_score
        does) and the rouge_plus name of each type; no scorer for an empty list of types."""
        types = tuple(self.rouge_types)
        if self._resolved is None or self._resolved[0] != types:
            options = self._core_options
            if isinstance(options["tokenizer"], str):  # the default tokenizer: shared
                key = tuple(options.items())
                self._resolved = (types, *_shared_core(types, key))
            else:
                self._resolved = (types, *_new_core(types, options))
        return self._resolved[1], self._resolved[2]

    def score(self, target: Text, prediction: Text) -> dict[str, scoring.Score]:
        """A ``Score`` per rouge type for ``prediction`` against ``target``."""
        if type(target) is str and type(prediction) is str:
            # One pair per call, as harness loops score: the plan's direct path, which takes
            # texts that have tokens (others go the general way, as bytes and non-str do).
            core, names = self._core()
            values = core and core.plan.score_pair(prediction, target)
            if values:
                return {key: _Score(values[at : at + 3]) for key, at in self._resolved[3].items()}
        return self._score_rows([self._text(prediction)], [self._text(target)])[0]

    def score_multi(self, targets: Iterable[Text], prediction: Text) -> dict[str, scoring.Score]:
        """Per rouge type, the ``Score`` against the target with the highest F (the first one
        on a tie)."""
        refs = [self._text(t) for t in targets]
        if not refs and self._core()[0] is not None:
            raise InputError("score_multi needs at least one target")
        return self._score_rows([self._text(prediction)], [refs])[0]

    def score_batch(
        self, targets: Sequence[Text | Sequence[Text]], predictions: Sequence[Text]
    ) -> list[dict[str, scoring.Score]]:
        """``[score(t, p) for t, p in zip(targets, predictions)]``, in one rouge_plus call.

        A target that is a list of texts is scored as ``score_multi(t, p)`` scores it.
        """
        preds = [self._text(p) for p in predictions]
        refs = [
            self._text(t) if isinstance(t, (str, bytes)) else [self._text(x) for x in t]
            for t in targets
        ]
        if len(refs) != len(preds):
            raise InputError(
                f"targets and predictions differ in length: {len(refs)} targets, "
                f"{len(preds)} predictions"
            )
        return self._score_rows(preds, refs)

    def _score_rows(
        self, predictions: list[str], references: list[str | list[str]]
    ) -> list[dict[str, scoring.Score]]:
        core, names = self._core()
        if core is None or not predictions:
            return [{} for _ in predictions]
        columns = {
            name: list(map(scoring.Score._make, values.tolist()))
            for name, values in core.score_examples(predictions, references).scores.items()
        }
        keys = list(names)
        rows = zip(*(columns[names[k]] for k in keys), strict=True)
        return [dict(zip(keys, row, strict=True)) for row in rows]

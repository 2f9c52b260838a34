"""Part-of-speech tagging for ROUGE-Topic and ROUGE-TopicUniq.

The default tagger is an English averaged perceptron with Penn Treebank tags: the model of
textblob-aptagger 0.2.0 (Matthew Honnibal, MIT licence), shipped as JSON in
``rouge_plus/data``. Its inference (the same features and tie-breaking as NLTK's
``PerceptronTagger``, which tags identically from the same weights; the tests check this) is
done here, because importing NLTK's tagger imports all of NLTK, often several seconds, where
this module loads in a fraction of a second.

The inference runs compiled (``_tagger_inference.c``, the same sums and ties, tested equal on
the bench corpus) when the extension is built; ``ROUGE_PLUS_PURE_PYTHON=1`` selects the Python
code.

It wants cased tokens: tag before lowercasing (ROUGE 2.0's Java tool lowercases first and
loses about ten points of accuracy). Any callable ``list[str] -> list[str]`` can replace it,
e.g. a tagger for another language.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from .._compiled import compiled
from ..data import load_bundled_json
from ..errors import InputError, OptionError, OptionTypeError, TaggerDataError

if TYPE_CHECKING:
    import numpy as np

__all__ = ["PerceptronTagger", "Tagger", "TaggerDataError", "load_tagger", "topic_filter"]

TAGGER_DATA_FILE = "pos_tagger_en.json.gz"
TAGGER_FORMAT = ("rouge_plus.pos-tagger", 1)
DEFAULT_TAGGER_NAME = "perceptron-en-ptb:textblob-aptagger-0.2.0"
PENN_SPELLINGS = {
    "(": "-LRB-",
    ")": "-RRB-",
    "[": "-LRB-",
    "]": "-RRB-",
    "{": "-LCB-",
    "}": "-RCB-",
    "\u201c": "``",
    "\u201d": "''",
    "\u2018": "`",
    "\u2019": "'",
    "\u2014": "--",
    "\u2013": "--",
}


class Tagger:
    """A named tagging function: cased tokens in, one tag per token out."""

    def __init__(self, function: Callable[[list[str]], Sequence[str]], name: str) -> None:
        self.name = name
        self._function = function

    def __call__(self, tokens: Sequence[str]) -> list[str]:
        tags = list(self._function(list(tokens)))
        if len(tags) != len(tokens):
            raise OptionError(
                f"tagger {self.name!r} returned {len(tags)} tags for {len(tokens)} tokens"
            )
        return tags

    def __repr__(self) -> str:
        return f"<Tagger {self.name}>"

    def topic_words(
        self, sentences: list[list[str]], prefixes: tuple[str, ...], lowercase: bool
    ) -> list[list[str]]:
        """For each sentence (cased tokens), the tokens whose tag starts with one of
        ``prefixes`` (see :func:`topic_filter`), lowercased with ``str.lower`` if asked."""
        out = []
        for tokens in sentences:
            kept = [tokens[i] for i in topic_filter(tokens, self(tokens), prefixes)]
            out.append([token.lower() for token in kept] if lowercase else kept)
        return out

    def text_topic_words(
        self,
        texts: list[str],
        tokenize: Callable[[str], list[str]],
        prefixes: tuple[str, ...],
        lowercase: bool,
        ascii_runs: Callable[[str], bool] | None = None,
        joined: bool = False,
    ) -> list[list[str] | str]:
        """:meth:`topic_words` of each text (a sentence), ``tokenize`` giving its cased
        tokens. ``ascii_runs(text)``, when given, says that these are the text's runs of
        ``[A-Za-z0-9]``, which a compiled tagger may then read without ``tokenize``; the
        topic words of such a text may then come as one str, separated by spaces, if
        ``joined``."""
        del ascii_runs, joined  # shortcuts only: the words are the same
        return self.topic_words(list(map(tokenize, texts)), prefixes, lowercase)


class PerceptronTagger(Tagger):
    """The bundled English Penn Treebank tagger (greedy, left to right)."""

    START = ("-START-", "-START2-")
    END = ("-END-", "-END2-")

    def __init__(self, document: dict) -> None:
        super().__init__(self._tag, DEFAULT_TAGGER_NAME)
        self._document = document
        self._decoded_weights: dict[str, np.ndarray | None] = {}
        self._tagdict: dict[str, str] = document["tagdict"]
        self._classes: list[str] = sorted(document["classes"])
        self._class_index = {tag: index for index, tag in enumerate(self._classes)}
        module = compiled("rouge2._tagger")
        self._model = None
        if module is not None:
            self._model = module.Model(
                document["features"], document["weights"], self._classes, self._tagdict
            )
            self._function = self._model.tag

    @functools.cached_property
    def _encoded_weights(self) -> dict[str, str]:
        # Weights stay as the file's text lines until a feature is first met: decoding all
        # 94k features up front would cost most of a second, and a text meets a few hundred.
        document = self._document
        return dict(
            zip(document["features"].split("\n"), document["weights"].split("\n"), strict=True)
        )

    def topic_words(
        self, sentences: list[list[str]], prefixes: tuple[str, ...], lowercase: bool
    ) -> list[list[str]]:
        if self._model is not None:
            return self._model.topic_words(sentences, tuple(prefixes), lowercase)
        return super().topic_words(sentences, prefixes, lowercase)

    def text_topic_words(
        self,
        texts: list[str],
        tokenize: Callable[[str], list[str]],
        prefixes: tuple[str, ...],
        lowercase: bool,
        ascii_runs: Callable[[str], bool] | None = None,
        joined: bool = False,
    ) -> list[list[str] | str]:
        if self._model is None or ascii_runs is None:
            return super().text_topic_words(texts, tokenize, prefixes, lowercase)
        # The texts of ASCII word runs are tokenized and tagged in C without a Python string
        # per token; the others are tokenized here.
        prefixes = tuple(prefixes)
        runs = list(map(str.isascii, texts))  # an ASCII text is runs of ASCII words
        if not all(runs):
            runs = [run or ascii_runs(text) for run, text in zip(runs, texts, strict=True)]
        if all(runs):
            return self._model.ascii_topic_words(texts, prefixes, lowercase, joined)
        ascii_texts = list(itertools.compress(texts, runs))
        other = [tokenize(text) for text, run in zip(texts, runs, strict=True) if not run]
        found = iter(self._model.ascii_topic_words(ascii_texts, prefixes, lowercase, joined))
        tokenized = iter(self._model.topic_words(other, prefixes, lowercase) if other else ())
        return [next(found) if run else next(tokenized) for run in runs]

    def _tag(self, tokens: list[str]) -> list[str]:
        tokens = _penn_spellings(tokens)
        context = [*self.START, *map(_normalise, tokens), *self.END]
        prev2, prev = self.START[1], self.START[0]
        tags = []
        for position, word in enumerate(tokens, start=len(self.START)):
            tag = self._tagdict.get(word) or self._predict(
                _features(position, word, context, prev, prev2)
            )
            tags.append(tag)
            prev2, prev = prev, tag
        return tags

    def _predict(self, features: list[str]) -> str:
        import numpy as np

        scores = np.zeros(len(self._classes))
        for feature in features:
            weights = self._weights_of(feature)
            if weights is not None:
                scores += weights  # feature by feature, the same float sums as the trainer's
        # Highest score; ties go to the alphabetically last tag, as in the model's trainer.
        return self._classes[np.flatnonzero(scores == scores.max())[-1]]

    def _weights_of(self, feature: str) -> np.ndarray | None:
        """The feature's weight per tag (in ``self._classes`` order), None if it has none."""
        if feature not in self._decoded_weights:
            encoded = self._encoded_weights.get(feature)
            weights = None
            if encoded is not None:
                import numpy as np

                fields = encoded.split(" ")
                weights = np.zeros(len(self._classes))
                for tag, weight in zip(fields[0::2], fields[1::2], strict=True):
                    weights[self._class_index[tag]] = float(weight)
            self._decoded_weights[feature] = weights
        return self._decoded_weights[feature]


def _penn_spellings(tokens: list[str]) -> list[str]:
    """Write brackets, quotes and dashes as the Penn Treebank does, as the model was trained.

    Plain double quotes alternate between opening ``` `` ``` and closing ``''``. Without this,
    every "(" or '"' (never seen in training) comes out as a noun and misleads its neighbours.
    """
    spelled = []
    open_quote = True
    for token in tokens:
        if token == '"':
            spelled.append("``" if open_quote else "''")
            open_quote = not open_quote
        else:
            spelled.append(PENN_SPELLINGS.get(token, token))
    return spelled


def _normalise(word: str) -> str:
    """The word shape the model was trained on: hyphenated, year, number or lowercase."""
    if "-" in word and not word.startswith("-"):
        return "!HYPHEN"
    if word.isdigit() and len(word) == 4:
        return "!YEAR"
    if word[:1].isdigit():
        return "!DIGITS"
    return word.lower()


def _features(position: int, word: str, context: list[str], prev: str, prev2: str) -> list[str]:
    """The model's feature names for the token at ``context[position]``."""
    return [
        "bias",
        f"i suffix {word[-3:]}",
        f"i pref1 {word[:1]}",
        f"i-1 tag {prev}",
        f"i-2 tag {prev2}",
        f"i tag+i-2 tag {prev} {prev2}",
        f"i word {context[position]}",
        f"i-1 tag+i word {prev} {context[position]}",
        f"i-1 word {context[position - 1]}",
        f"i-1 suffix {context[position - 1][-3:]}",
        f"i-2 word {context[position - 2]}",
        f"i+1 word {context[position + 1]}",
        f"i+1 suffix {context[position + 1][-3:]}",
        f"i+2 word {context[position + 2]}",
    ]


@lru_cache(maxsize=1)
def _bundled_tagger() -> PerceptronTagger:
    document = load_bundled_json(
        TAGGER_DATA_FILE,
        TAGGER_FORMAT,
        TaggerDataError,
        "rebuild it with `python scripts/build_pos_tagger.py`",
    )
    return PerceptronTagger(document)


def load_tagger(spec: Callable[[list[str]], Sequence[str]] | str | None = None) -> Tagger:
    """The bundled English tagger for ``None`` or ``"en"``; any callable is wrapped as is.

    The bundled model is read once per process. A callable keeps its own ``name`` attribute
    when it has a string one, else it is named ``callable:<qualified name>``.
    """
    if spec is None or spec == "en":
        return _bundled_tagger()
    if isinstance(spec, Tagger):
        return spec
    if callable(spec):
        return _checked(Tagger(spec, tagger_label(spec)))
    raise OptionTypeError(f"cannot use {spec!r} as a POS tagger; give None, 'en' or a callable")


# What a user's tagger is tried on when it is given, so a wrong one fails then, naming the option.
_PROBE = ["The", "cat", "sat", "."]


def _checked(tagger: Tagger) -> Tagger:
    """``tagger``, after one call on a short sentence returned one str tag per token."""
    tags = tagger._function(list(_PROBE))
    if (
        isinstance(tags, (str, bytes))
        or not isinstance(tags, Sequence)
        or len(tags) != len(_PROBE)
        or not all(isinstance(tag, str) for tag in tags)
    ):
        raise OptionTypeError(
            f"pos_tagger {tagger.name!r} must return one str tag per token; for {_PROBE} it "
            f"returned {tags!r}"
        )
    return tagger


def tagger_label(spec: object) -> str:
    """The name :func:`load_tagger` gives the tagger ``spec``, without loading it."""
    if spec is None or spec == "en":
        return DEFAULT_TAGGER_NAME
    name = getattr(spec, "name", None)
    if isinstance(name, str):
        return name
    module = getattr(spec, "__module__", "") or ""
    qualname = getattr(spec, "__qualname__", type(spec).__qualname__)
    return f"callable:{module}.{qualname}" if module else f"callable:{qualname}"


def topic_filter(
    tokens: Sequence[str], tags: Sequence[str], topic_pos: str | Iterable[str] = ("NN", "JJ")
) -> list[int]:
    """Indexes of the tokens whose tag starts with one of ``topic_pos``.

    Prefixes follow the paper: "NN" also selects NNS, NNP and NNPS; "JJ" selects JJR and JJS.
    ``topic_pos`` may also be written as in ROUGE 2.0, ``"NN|JJ"``.
    """
    if len(tokens) != len(tags):
        raise InputError(f"topic_filter: {len(tokens)} tokens but {len(tags)} tags")
    prefixes = tuple(topic_pos.split("|") if isinstance(topic_pos, str) else topic_pos)
    if not prefixes or not all(prefixes):
        raise OptionError(f"topic_pos must name one or more tag prefixes, got {topic_pos!r}")
    return [index for index, tag in enumerate(tags) if tag.startswith(prefixes)]

"""Synonym relations for the ROUGE 2.0 "+Synonyms" measures.

A synonym source answers ``match(a, b)`` for two tokens. The relation is reflexive and
symmetric (ROUGE 2.0's Java tool only expands the candidate side; we do not). Sources that are
dictionaries of groups also give ``keys(word)``, a frozenset such that two different words match
exactly when their key sets intersect, so a scorer can bucket tokens instead of comparing every
pair. ``exact_keys`` tells whether that shortcut is exact or only a pre-filter.

Sources accepted by :func:`load_synonyms`:

- ``None`` or ``"wordnet"``: the bundled Princeton WordNet 3.0; two words match when their base
  forms share a synset (name ``"wordnet-3.0:content"``). Base forms come from WordNet's morphology
  (exception lists such as bought -> buy, mice -> mouse, then suffix rules such as
  cars -> car), for nouns, verbs, adjectives and adverbs at once, since tokens carry no tag.
  Closed-class words (the built-in English stopwords, less the open-class words among them:
  ``OPEN_CLASS_STOPWORDS``) match only themselves, in every
  WordNet source: through that morphology, function words would be synonyms (``as`` ~ ``a``,
  ``was`` ~ ``is`` ~ ``been``), pairs ROUGE 2.0's Java tool does not match (see
  docs/ROUGE2_RESOURCES.md).
- ``"wordnet+related"``: also matches words whose synsets are directly linked by a noun
  hypernym/hyponym, verb hypernym/troponym or adjective similar-to pointer, the relations
  ROUGE 2.0 adds (name ``"wordnet-3.0+related:content"``).
- ``"nltk"``: the WordNet corpus of an installed NLTK data directory
  (name ``"nltk-wordnet:content"``).
- a mapping ``{word: [synonyms, ...]}``: each entry is one group, the word plus its synonyms
  (name ``"mapping:<sha1 prefix>"``). A plain string value counts as a one-word list.
- a path (``str`` or ``os.PathLike``) to a synonym-group file (name ``"file:<sha1 prefix>"``).
- a callable ``word -> iterable of synonyms``: ``a`` and ``b`` match when ``b`` is among the
  synonyms of ``a`` or ``a`` among those of ``b`` (name ``"callable:<qualified name>"``).

Synonym-group file format (any language)::

    # a line whose first non-blank character is '#' is a comment; blank lines are skipped
    car, automobile, auto
    big<TAB>large
    xe hơi, ô tô, xe_hơi

The file is UTF-8. Each other line is one group of two or more words separated by commas or
tabs; surrounding spaces are trimmed. Words are not merged across lines: a~b on one line and
b~c on another do not make a~c (WordNet synsets behave the same way).

Words are lowercased, because tokens reach the measures lowercased. An entry with inner
spaces (``xe hơi``) is a multi-word expression; it is stored with its spaces replaced by ``_``
(``xe_hơi``), the convention of WordNet and of word segmenters such as VnCoreNLP, so it only
matches texts whose tokenizer produced such joined tokens. The bundled WordNet data leaves
multi-word lemmas out altogether, since the English tokenizers never produce them.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Protocol, runtime_checkable

from ..data import load_bundled_json
from ..errors import OptionFileError, OptionTypeError, SynonymDataError
from ..scoring.protocols import SynonymMatcher
from ..text.stopwords import builtin_english_stopwords

__all__ = [
    "CallableSynonyms",
    "GroupSynonyms",
    "NltkWordNetSynonyms",
    "SynonymDataError",
    "Synonyms",
    "WordNetSynonyms",
    "load_synonyms",
    "parse_synonym_file",
]

WORDNET_DATA_FILE = "wordnet30_synonyms.json.gz"
WORDNET_FORMAT = ("rouge_plus.wordnet-synonyms", 1)
PARTS_OF_SPEECH = ("n", "v", "a", "r")
KEYS_CACHE_SIZE = 1 << 16
MAX_FILE_BYTES = 64 * 2**20  # the largest file of synonym groups read (WordNet's: a few MB)

# WordNet's detachment rules (morphy(7WN)): suffix -> replacement, per part of speech.
DETACHMENT_RULES: dict[str, tuple[tuple[str, str], ...]] = {
    "n": (
        ("s", ""),
        ("ses", "s"),
        ("xes", "x"),
        ("zes", "z"),
        ("ches", "ch"),
        ("shes", "sh"),
        ("men", "man"),
        ("ies", "y"),
    ),
    "v": (
        ("s", ""),
        ("ies", "y"),
        ("es", "e"),
        ("es", ""),
        ("ed", "e"),
        ("ed", ""),
        ("ing", "e"),
        ("ing", ""),
    ),
    "a": (("er", ""), ("est", ""), ("er", "e"), ("est", "e")),
    "r": (),
}

# The names the signature records for the named sources (":content": only content words take
# synonyms, closed-class words match only themselves; before that rule the names had no suffix,
# so a signature tells which rule gave a score).
_NAMED_LABELS = {
    "wordnet": "wordnet-3.0:content",
    "wordnet+related": "wordnet-3.0+related:content",
    "nltk": "nltk-wordnet:content",
}

# The words of the built-in English stopword list (scikit-learn's) that are open-class: nouns,
# verbs and adjectives of their own meaning, which keep their synonyms (went ~ go). The list's
# other words are closed-class: determiners, pronouns, prepositions, conjunctions, auxiliaries
# and modals, numerals, and function adverbs.
OPEN_CLASS_STOPWORDS = frozenset({
    "amount", "back", "bill", "bottom", "call", "cry", "describe", "detail", "empty", "fill",
    "find", "fire", "found", "front", "full", "get", "give", "go", "interest", "keep", "made",
    "mill", "move", "name", "part", "put", "see", "serious", "show", "side", "sincere", "system",
    "take", "thick", "thin", "top", "whole",
})  # fmt: skip

_GROUP_SEPARATOR = re.compile(r"[,\t]")
_INNER_SPACES = re.compile(r"\s+")


@runtime_checkable
class Synonyms(SynonymMatcher, Protocol):
    """A synonym source: what the measures need (``match``, ``keys``, ``exact_keys``), and the
    ``name`` the signature records."""

    name: str


class _KeyedSynonyms:
    """Base for sources where two words match exactly when their key sets intersect."""

    name: str
    exact_keys = True

    def __init__(self) -> None:
        self._cached_keys = lru_cache(maxsize=KEYS_CACHE_SIZE)(self._compute_keys)

    def _compute_keys(self, word: str) -> frozenset:
        raise NotImplementedError

    def keys(self, word: str) -> frozenset:
        return self._cached_keys(word.lower())

    def keys_many(self, words: Iterable[str]) -> list[frozenset]:
        """``[self.keys(word) for word in words]``, without a Python call per word."""
        return list(map(self._cached_keys, map(str.lower, words)))

    def match(self, a: str, b: str) -> bool:
        return a == b or not self.keys(a).isdisjoint(self.keys(b))

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


class GroupSynonyms(_KeyedSynonyms):
    """Synonym groups given by the user: words match when they share a group."""

    def __init__(self, groups: Iterable[Iterable[str]], name: str) -> None:
        super().__init__()
        self.name = name
        word_groups: dict[str, set[int]] = {}
        for group_id, group in enumerate(groups):
            for word in group:
                word_groups.setdefault(word, set()).add(group_id)
        self._word_groups = {word: frozenset(ids) for word, ids in word_groups.items()}

    def _compute_keys(self, word: str) -> frozenset:
        return self._word_groups.get(word, frozenset())


class _EnglishWordNet(_KeyedSynonyms):
    """Base for the WordNet sources: a closed-class word (one of the built-in English stopwords
    but the open-class ones) has no keys, so it matches only itself; the others have their
    synsets' keys."""

    def __init__(self) -> None:
        super().__init__()
        self._closed_class = builtin_english_stopwords() - OPEN_CLASS_STOPWORDS

    def _compute_keys(self, word: str) -> frozenset:
        return frozenset() if word in self._closed_class else self._synset_keys(word)

    def _synset_keys(self, word: str) -> frozenset:
        raise NotImplementedError


class WordNetSynonyms(_EnglishWordNet):
    """The bundled WordNet 3.0 synsets, optionally widened with ROUGE 2.0's related synsets."""

    def __init__(self, data: _WordNetData, related: bool = False) -> None:
        super().__init__()
        self.name = _NAMED_LABELS["wordnet+related" if related else "wordnet"]
        self._data = data
        self._related = related

    def base_forms(self, word: str) -> dict[str, frozenset[str]]:
        """WordNet lemmas ``word`` can be an inflection of, per part of speech (morphy)."""
        word = word.lower()
        forms = {}
        for pos in PARTS_OF_SPEECH:
            found = self._data.base_forms(word, pos)
            if found:
                forms[pos] = found
        return forms

    def vocabulary(self) -> frozenset[str]:
        """Every single-word lemma in the data."""
        return frozenset(
            lemma for pos in PARTS_OF_SPEECH for lemma in self._data.lemma_synsets[pos]
        )

    def _synset_keys(self, word: str) -> frozenset:
        synsets = {
            synset
            for pos in PARTS_OF_SPEECH
            for lemma in self._data.base_forms(word, pos)
            for synset in self._data.synsets(lemma, pos)
        }
        if not self._related:
            return frozenset(synsets)
        # Two words share a key exactly when they share a synset or own the two ends of a link.
        return frozenset(synsets).union(*(self._data.link_keys(synset) for synset in synsets))


class NltkWordNetSynonyms(_EnglishWordNet):
    """WordNet through an installed NLTK corpus (its own morphy and its own version)."""

    name = _NAMED_LABELS["nltk"]

    def __init__(self) -> None:
        super().__init__()
        try:
            from nltk.corpus import wordnet
        except ImportError as error:
            raise SynonymDataError(
                "the 'nltk' synonym source needs NLTK, which rouge_plus does not install: "
                'pip install ".[nltk]" from a checkout of rouge_plus, or pip install nltk'
            ) from error
        try:
            wordnet.ensure_loaded()
        except LookupError as error:
            raise SynonymDataError(
                "NLTK's WordNet corpus is not installed; install it once with "
                "`python -m nltk.downloader wordnet`, or use the bundled source 'wordnet'"
            ) from error
        self._wordnet = wordnet

    def _synset_keys(self, word: str) -> frozenset:
        return frozenset(synset.name() for synset in self._wordnet.synsets(word))


class CallableSynonyms:
    """A user function ``word -> iterable of synonyms``, made symmetric.

    Its keys (the word and its synonyms) are only a pre-filter: two words that are both
    synonyms of a third share a key without matching, so ``exact_keys`` is false.
    """

    exact_keys = False

    def __init__(self, function: Callable[[str], Iterable[str]]) -> None:
        self.name = synonyms_label(function)
        self._synonyms_of = lru_cache(maxsize=KEYS_CACHE_SIZE)(
            lambda word: frozenset(function(word))
        )

    def keys(self, word: str) -> frozenset:
        return self._synonyms_of(word) | {word}

    def match(self, a: str, b: str) -> bool:
        return a == b or b in self._synonyms_of(a) or a in self._synonyms_of(b)

    def __repr__(self) -> str:
        return f"<CallableSynonyms {self.name}>"


class _WordNetData:
    """The parsed bundled file: lemma -> synset ids, exceptions and related synsets."""

    def __init__(self, document: dict) -> None:
        self.lemma_synsets: dict[str, dict[str, int | list[int]]] = {
            pos: dict(zip(columns["words"].split("\n"), columns["synsets"], strict=True))
            for pos, columns in document["lemmas"].items()
        }
        self.exceptions: dict[str, dict[str, list[str]]] = document["exceptions"]
        self.synset_count: int = document["synset_count"]
        self._related_pairs: list[int] = document["related"]
        self._neighbours: dict[int, list[int]] | None = None

    def synsets(self, lemma: str, pos: str) -> list[int]:
        ids = self.lemma_synsets[pos][lemma]
        return [ids] if isinstance(ids, int) else ids

    def base_forms(self, word: str, pos: str) -> frozenset[str]:
        """Morphy: the exception list wins; otherwise the word itself and its detachments."""
        index = self.lemma_synsets[pos]
        if word in self.exceptions[pos]:
            candidates = [word, *self.exceptions[pos][word]]
        else:
            candidates = [word] + [
                word[: -len(suffix)] + replacement
                for suffix, replacement in DETACHMENT_RULES[pos]
                if word.endswith(suffix) and len(word) > len(suffix)
            ]
        return frozenset(form for form in candidates if form in index)

    def link_keys(self, synset: int) -> list[int]:
        """One key per related link of ``synset``, shared with the synset at the other end.

        Link keys start at ``synset_count`` so they never equal a synset id.
        """
        if self._neighbours is None:
            neighbours: dict[int, list[int]] = {}
            pairs = self._related_pairs
            for first, second in zip(pairs[0::2], pairs[1::2], strict=True):
                neighbours.setdefault(first, []).append(second)
                neighbours.setdefault(second, []).append(first)
            self._neighbours = neighbours
        count = self.synset_count
        return [
            count * (1 + min(synset, other)) + max(synset, other)
            for other in self._neighbours.get(synset, ())
        ]


@lru_cache(maxsize=1)
def _bundled_wordnet() -> _WordNetData:
    document = load_bundled_json(
        WORDNET_DATA_FILE,
        WORDNET_FORMAT,
        SynonymDataError,
        "rebuild it with `python scripts/build_wordnet_synonyms.py` (needs Debian's wordnet-base)",
    )
    return _WordNetData(document)


@lru_cache(maxsize=2)
def _wordnet_synonyms(related: bool) -> WordNetSynonyms:
    return WordNetSynonyms(_bundled_wordnet(), related=related)


@lru_cache(maxsize=1)
def _nltk_synonyms() -> NltkWordNetSynonyms:
    return NltkWordNetSynonyms()


_NAMED_SOURCES: dict[str, Callable[[], Synonyms]] = {
    "wordnet": lambda: _wordnet_synonyms(False),
    "wordnet+related": lambda: _wordnet_synonyms(True),
    "nltk": _nltk_synonyms,
}


def synonyms_label(spec: object) -> str:
    """The name :func:`load_synonyms` gives the source ``spec``, without parsing it (a file is
    only hashed)."""
    if spec is None:
        spec = "wordnet"
    if isinstance(spec, str) and spec in _NAMED_LABELS:
        return _NAMED_LABELS[spec]
    if isinstance(spec, (str, os.PathLike)):
        return f"file:{_short_sha1(_read_group_file(spec))}"
    if isinstance(spec, Mapping):
        return _mapping_label(_mapping_groups(spec))
    if isinstance(spec, Synonyms):
        return spec.name
    if callable(spec):
        return f"callable:{_qualified_name(spec)}"
    raise OptionTypeError(f"cannot use {type(spec).__name__} as a synonym source")


def load_synonyms(
    spec: str | os.PathLike | Mapping[str, Iterable[str] | str] | Callable | Synonyms | None = None,
) -> Synonyms:
    """Turn any accepted synonym source (see the module docstring) into a :class:`Synonyms`.

    Named sources are loaded once per process; a ready ``Synonyms`` object is returned as is.
    """
    if spec is None:
        spec = "wordnet"
    if isinstance(spec, str) and spec in _NAMED_SOURCES:
        return _NAMED_SOURCES[spec]()
    if isinstance(spec, (str, os.PathLike)):
        return _load_group_file(spec)
    if isinstance(spec, Mapping):
        return _load_mapping(spec)
    if isinstance(spec, Synonyms):
        return spec
    if callable(spec):
        return CallableSynonyms(spec)
    raise OptionTypeError(
        f"cannot use {type(spec).__name__} as a synonym source; give None, "
        f"{', '.join(map(repr, _NAMED_SOURCES))}, a mapping, a file path or a callable"
    )


def parse_synonym_file(text: str) -> list[list[str]]:
    """Parse the synonym-group file format (module docstring) into groups of words."""
    groups = []
    for line_number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        group = _normalise_group(_GROUP_SEPARATOR.split(stripped))
        if len(group) < 2:
            raise SynonymDataError(
                f"line {line_number}: {stripped!r} is not a group of two or more words "
                "separated by commas or tabs"
            )
        groups.append(group)
    if not groups:
        raise SynonymDataError("the synonym file holds no group (one group per line)")
    return groups


def _normalise_group(entries: Iterable[str]) -> list[str]:
    """Lowercase, trim, join inner spaces with '_', drop empties and repeats."""
    words = (_INNER_SPACES.sub("_", entry.strip()).lower() for entry in entries)
    return list(dict.fromkeys(word for word in words if word))


def _read_group_file(path: str | os.PathLike) -> bytes:
    """The bytes of a synonym file, of which no more than :data:`MAX_FILE_BYTES` are read: a
    larger or endless file (``/dev/zero``) is refused there."""
    with Path(path).open("rb") as handle:
        raw = handle.read(MAX_FILE_BYTES + 1)
    if len(raw) > MAX_FILE_BYTES:
        raise SynonymDataError(
            f"synonym file {os.fspath(path)!r} is larger than {MAX_FILE_BYTES // 2**20} MiB; "
            "is it a file of synonym groups?"
        )
    return raw


def _load_group_file(path: str | os.PathLike) -> GroupSynonyms:
    try:
        raw = _read_group_file(path)
    except FileNotFoundError as error:
        raise OptionFileError(
            f"synonym file {os.fspath(path)!r} not found; named sources are "
            f"{', '.join(map(repr, _NAMED_SOURCES))}"
        ) from error
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise SynonymDataError(
            f"synonym file {os.fspath(path)!r} is not UTF-8 (byte {error.start}); save it as UTF-8"
        ) from error
    try:
        groups = parse_synonym_file(text)
    except SynonymDataError as error:
        raise SynonymDataError(f"synonym file {os.fspath(path)!r}: {error}") from None
    return GroupSynonyms(groups, name=f"file:{_short_sha1(raw)}")


def _mapping_groups(mapping: Mapping[str, Iterable[str] | str]) -> list[list[str]]:
    groups = []
    for word, synonyms in mapping.items():
        if isinstance(synonyms, str):
            synonyms = [synonyms]
        group = [word, *synonyms] if isinstance(synonyms, Iterable) else [word, synonyms]
        if not all(isinstance(member, str) for member in group):
            raise OptionTypeError(
                f"synonyms: a mapping must map words (str) to a word or a list of words; "
                f"{word!r}: {synonyms!r} is not"
            )
        groups.append(_normalise_group(group))
    return groups


def _mapping_label(groups: list[list[str]]) -> str:
    canonical = json.dumps(sorted(groups), ensure_ascii=False).encode("utf-8")
    return f"mapping:{_short_sha1(canonical)}"


def _load_mapping(mapping: Mapping[str, Iterable[str] | str]) -> GroupSynonyms:
    groups = _mapping_groups(mapping)
    return GroupSynonyms(groups, name=_mapping_label(groups))


def _short_sha1(payload: bytes) -> str:
    return hashlib.sha1(payload).hexdigest()[:12]


def _qualified_name(function: Callable) -> str:
    module = getattr(function, "__module__", None) or ""
    qualname = getattr(function, "__qualname__", None) or type(function).__qualname__
    return f"{module}.{qualname}" if module else qualname

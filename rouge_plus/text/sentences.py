"""Sentence splitters chosen by name, for ROUGE-Lsum, and adapters for user splitters.

A splitter is a callable ``str -> list[str]`` with a ``name`` attribute. Built-in splitters (see
``available_sentence_splitters()``):

``"newline"``
    rouge_score's rougeLsum rule: ``text.split("\\n")`` with empty strings dropped. Lines of
    only whitespace are kept (they yield no tokens). Texts must already hold one sentence a line.
``"rules"``
    An offline rule-based splitter (no model, no download) that can replace
    ``"\\n".join(nltk.sent_tokenize(text))`` in training scripts; see ``split_by_rules``.
``"none"``
    The whole text is one sentence (an empty text has none).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from enum import IntEnum

from ..errors import OptionError, OptionTypeError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import NamedTuple
else:
    from .._records import NamedTuple


class Cut(IntEnum):
    """Where a splitter may end a sentence, from the safest place to the least safe."""

    LINES = 0  # only at line breaks (whitespace for every tokenizer)
    PUNCTUATION = 1  # also right after a sentence mark, with no space after it ("。")
    ANYWHERE = 2  # unknown (a user's splitter)


def split_newlines(text: str) -> list[str]:
    """rouge_score's rule: split at "\\n" and drop empty strings."""
    return [line for line in text.split("\n") if line]


def split_none(text: str) -> list[str]:
    """The whole text as one sentence; no sentence for an empty text."""
    return [text] if text else []


# Terminators after which a sentence always ends, even without a following space: CJK full
# stops and marks, the Devanagari danda, Arabic and Urdu marks, the Ethiopic full stop.
HARD_TERMINATORS = "。！？｡।॥؟۔።"
SOFT_TERMINATORS = ".!?…"
_CLOSERS = "\"'”’»›)]}」』）】〕〉》"
_OPENERS = "\"'“‘«‹([{「『（【〔〈《¿¡`"


class _Marks(NamedTuple):
    """The sentence marks of the rules splitter: ``candidate`` finds a run of terminators with
    its closing quotes, ``hard`` the terminators that end a sentence without a space."""

    candidate: re.Pattern[str]
    hard: re.Pattern[str]


@functools.cache
def _marks(hard: str = "", soft: str = "") -> _Marks:
    hard, soft = HARD_TERMINATORS + hard, SOFT_TERMINATORS + soft
    return _Marks(
        re.compile(f"([{re.escape(hard + soft)}]+)[{re.escape(_CLOSERS)}]*"),
        re.compile(f"[{re.escape(hard)}]"),
    )


class _Pattern:
    """A regular expression compiled when first used, so that importing this module (for the
    newline splitter, say) does not compile the rule splitter's patterns."""

    __slots__ = ("_arguments", "_compiled")

    def __init__(self, *arguments: object) -> None:
        self._arguments = arguments
        self._compiled: re.Pattern[str] | None = None

    def __getattr__(self, name: str) -> object:
        if self._compiled is None:
            self._compiled = re.compile(*self._arguments)
        return getattr(self._compiled, name)


# A closing quote or bracket standing alone after a terminator, as in tokenized text "end . ''".
_DETACHED_CLOSER = _Pattern(r"\s['’”»)\]}]+(?=\s|$)")
_DETACHED_CLOSER_STARTS = frozenset("'’”»)]}")
# Words are read through bounded windows so every decision costs constant time (linear total).
_WORD_WINDOW = 40
_NEXT_WORD = _Pattern(rf"\s*(\S{{1,{_WORD_WINDOW}}})")
_LEADING_LETTERS = _Pattern(r"[^\W\d_]+")
_DOTTED_ACRONYM = _Pattern(r"(?:[A-Za-z]{1,2}\.)+[A-Za-z]{1,2}")  # "U.S", "a.m", "Ph.D"

# Word lists, lowercased and without their final period, except the case-sensitive openers.
# fmt: off
# Abbreviations that never end a sentence.
_TITLES = frozenset({
    "mr", "mrs", "ms", "messrs", "mme", "mlle", "dr", "prof", "sen", "sens", "rep", "reps",
    "gov", "gen", "col", "lt", "sgt", "capt", "cmdr", "adm", "maj", "brig", "cpl", "pvt", "insp",
    "det", "supt", "rev", "fr", "hon", "pres", "st", "mt", "e.g", "i.e", "vs", "cf", "viz",
})
# Abbreviations that do not end a sentence when a number follows ("No. 1", "pp. 3-5").
_BEFORE_NUMBER = frozenset({
    "no", "nos", "vol", "vols", "p", "pp", "fig", "figs", "art", "ch", "sec", "para", "op", "nr",
    "tel", "ext",
})
# Abbreviations that often end a sentence; a sentence ends after them only when a typical
# sentence opener follows ("Apple Inc. said" / "... Apple Inc. The company").
_AMBIGUOUS = frozenset({
    "etc", "inc", "co", "corp", "ltd", "llc", "plc", "jr", "sr", "bros", "al", "jan", "feb",
    "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec", "ave", "blvd", "rd",
    "dept", "univ", "est", "govt", "approx",
})
_SENTENCE_OPENERS = frozenset({
    "The", "A", "An", "He", "She", "It", "They", "We", "I", "You", "His", "Her", "Its", "Their",
    "Our", "My", "Your", "This", "That", "These", "Those", "There", "Here", "But", "And", "Or",
    "So", "Yet", "However", "Meanwhile", "In", "On", "At", "For", "From", "With", "After",
    "Before", "When", "While", "If", "As", "Since", "Although", "Now", "Then", "Today",
    "Yesterday", "Some", "Many", "Most", "All", "One", "What", "Why", "How", "Who", "Where",
    "Police", "Officials",
})
# fmt: on


def split_by_rules(text: str) -> list[str]:
    """Split ``text`` into sentences with punctuation rules; deterministic and linear-time.

    Existing line breaks (``str.splitlines``) always end a sentence. Within a line a sentence
    ends after ``. ! ? …`` (with any closing quotes or brackets) followed by white space, and
    right after ``。！？｡ । ॥ ؟ ۔ ።``. A period does not end a sentence after a title ("Mr.",
    "Dr.", "St."), "e.g."/"i.e.", an initial ("J. K. Rowling"), a list number at the start of
    a line ("1. First"), "No."/"p." before a number, or, unless a usual sentence opener such as
    "The" follows, after "etc."/"Inc."/month names/dotted acronyms ("U.S.", "p.m."). "?" and
    "!" inside a quotation followed by a lowercase word ('"Why?" he asked') and ellipses
    followed by a lowercase word or a digit do not end one either. Decimals ("3.14") and
    terminators not followed by white space ("cnn.com") never split. A closing quote or bracket
    standing alone after the terminator (tokenized text: "the end . ''") stays with its sentence.
    Sentences are stripped of surrounding white space; empty ones are dropped.
    """
    return _split_by_rules(text, _marks())


def language_rules(hard_marks: str, soft_marks: str) -> Callable[[str], list[str]]:
    """``split_by_rules`` that also ends a sentence at a language's own marks: right after one
    of ``hard_marks`` (the Myanmar "။", the Khmer "។"), or after one of ``soft_marks`` followed
    by white space (the Greek question mark ";")."""
    return functools.partial(_split_by_rules, marks=_marks(hard_marks, soft_marks))


def _split_by_rules(text: str, marks: _Marks) -> list[str]:
    sentences: list[str] = []
    for line in text.splitlines():
        indent = len(line) - len(line.lstrip())
        start = 0
        for candidate in marks.candidate.finditer(line):
            end = _sentence_end(line, candidate, indent, marks.hard)
            if end:
                _append_stripped(sentences, line[start:end])
                start = end
        _append_stripped(sentences, line[start:])
    return sentences


def _append_stripped(sentences: list[str], piece: str) -> None:
    piece = piece.strip()
    if piece:
        sentences.append(piece)


def _sentence_end(line: str, candidate: re.Match[str], indent: int, hard: re.Pattern[str]) -> int:
    """Where the sentence ends if the terminator run ``candidate`` ends one, else 0.

    ``indent`` is the index of the line's first non-space character; ``hard`` finds the
    terminators that need no space after them.
    """
    terminator, end = candidate.group(1), candidate.end()
    if not terminator.isascii() and hard.search(terminator):
        return end
    if end < len(line) and not line[end].isspace():
        return 0
    if terminator == ".":
        ends = _period_ends_sentence(line, candidate.start(), end, indent)
    elif "?" in terminator or "!" in terminator:
        quoted = end > candidate.end(1)
        ends = not (quoted and _next_word(line, end)[:1].islower())
    else:  # an ellipsis, or a language's own soft mark (the Greek question mark)
        first = _next_word(line, end)[:1]
        ends = not (first.islower() or first.isdigit())
    if not ends:
        return 0
    if line[end + 1 : end + 2] in _DETACHED_CLOSER_STARTS:
        detached_closer = _DETACHED_CLOSER.match(line, end)
        if detached_closer:
            return detached_closer.end()
    return end


def _next_word(line: str, end: int) -> str:
    """The word after position ``end``, without opening quotes or brackets ("" at line end)."""
    following = _NEXT_WORD.match(line, end)
    return following.group(1).lstrip(_OPENERS) if following else ""


def _period_ends_sentence(line: str, period: int, end: int, indent: int) -> bool:
    window = line[max(0, period - _WORD_WINDOW) : period]
    if not window or window[-1].isspace():
        return True  # a period after white space, as in tokenized text "Nepal ."
    word = window.split()[-1]
    word_start = period - len(word)
    word = word.lstrip(_OPENERS)
    lowered = word.lower()
    if lowered in _TITLES:
        return False
    if len(word) == 1 and word.isupper():
        return False  # an initial
    if word.isdigit():
        return word_start != indent  # a list number at the start of the line: "1. First"
    if lowered in _BEFORE_NUMBER:
        return not _next_word(line, end)[:1].isdigit()
    if lowered in _AMBIGUOUS or ("." in word and _DOTTED_ACRONYM.fullmatch(word)):
        opener = _LEADING_LETTERS.match(_next_word(line, end))
        return opener is not None and opener.group() in _SENTENCE_OPENERS
    return True


_BUILTINS: dict[str, Callable[[str], list[str]]] = {
    "newline": split_newlines,
    "none": split_none,
    "rules": split_by_rules,
}


class BuiltinSplitter(NamedTuple):
    """One of the registry's splitters. (Immutable records are NamedTuples here: a dataclass
    costs a millisecond to create at import.)"""

    name: str
    function: Callable[[str], list[str]]
    cuts: Cut
    by_lines: bool

    def __call__(self, text: str) -> list[str]:
        return self.function(text)


class CheckedSplitter(NamedTuple):
    """A user's splitter, with its output checked on every call."""

    name: str
    function: Callable[[str], object]
    cuts = Cut.ANYWHERE
    by_lines = False

    def __call__(self, text: str) -> list[str]:
        sentences = self.function(text)
        if isinstance(sentences, list) and all(isinstance(s, str) for s in sentences):
            return sentences
        raise OptionTypeError(
            f"sentence splitter {self.name!r} must return a list of str, got "
            f"{type(sentences).__name__} {sentences!r:.60} for input {text[:40]!r}"
        )


def available_sentence_splitters() -> list[str]:
    """Names accepted by ``get_sentence_splitter``."""
    return sorted(_BUILTINS)


def get_sentence_splitter(
    spec: str | Callable[[str], list[str]], hard_marks: str = "", soft_marks: str = ""
) -> BuiltinSplitter | CheckedSplitter:
    """Return the splitter ``spec`` names, or wrap a callable ``str -> list[str]`` (either is a
    ``protocols.SentenceSplitter``).

    A callable is named by its ``name`` attribute if it has one, else
    ``custom:<qualified name>``. ``hard_marks`` and ``soft_marks`` are a language's own
    sentence marks, for ``"rules"`` (see ``language_rules``).
    """
    if isinstance(spec, str):
        if spec not in _BUILTINS:
            raise OptionError(
                f"unknown sentence splitter {spec!r}; valid names are: "
                f"{', '.join(available_sentence_splitters())}"
            )
        cuts = Cut.PUNCTUATION if spec == "rules" else Cut.LINES
        split = _BUILTINS[spec]
        if spec == "rules" and (hard_marks or soft_marks):
            split = language_rules(hard_marks, soft_marks)
        return BuiltinSplitter(spec, split, cuts, spec == "newline")
    if isinstance(spec, (BuiltinSplitter, CheckedSplitter)):
        return spec
    if callable(spec):
        name = getattr(spec, "name", None)
        if not isinstance(name, str):
            name = f"custom:{getattr(spec, '__qualname__', type(spec).__qualname__)}"
        return CheckedSplitter(name, spec)
    raise OptionTypeError(
        "sentence splitter must be a name or a callable str -> list[str]; "
        f"got {type(spec).__name__}"
    )

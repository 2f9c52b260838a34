"""The languages of the ``language`` option: what each one selects, and the evidence that a text
is not English when no language is given.

A language selects four things (docs/languages.md has the table): how its script is cut into
words (a segmenter for the scripts written without spaces, :mod:`.segmenters`), the stemmer of
``use_stemmer=True`` (Snowball through PyStemmer; English keeps rouge_score's Porter rule), the
stopword list of ``remove_stopwords=True`` (the stopwords-iso lists of the ``stopwordsiso``
package; English keeps the built-in list), and the sentence marks of ``split_sentences="rules"``.
Everything that needs a package is imported on first use and names its extra when missing.
"""

from __future__ import annotations

import collections
import functools
import importlib
import itertools
import re
import unicodedata
from collections.abc import Callable, Iterable
from typing import NamedTuple

from ..errors import MissingExtraError, OptionError, OptionTypeError
from .stemming import CACHE_SIZE

Stemmer = Callable[[str], str]

# Stemming applies to tokens longer than this, as in rouge_score and the XL-Sum scorer.
MIN_STEM_LENGTH = 3


class Language(NamedTuple):
    """What ``language=code`` selects. ``stemmer`` is a Snowball algorithm of PyStemmer (or
    ``"porter"``, rouge_score's rule); ``stopwords`` a stopwords-iso code (or ``"english"``, the
    built-in list); ``hard_marks`` end a sentence even without a following space and
    ``soft_marks`` before white space, in addition to the marks every language has."""

    code: str
    name: str
    segmenter: str | None = None
    stemmer: str | None = None
    stopwords: str | None = None
    hard_marks: str = ""
    soft_marks: str = ""


def _table(*languages: Language) -> dict[str, Language]:
    return {language.code: language for language in languages}


# fmt: off
LANGUAGES: dict[str, Language] = _table(
    Language("af", "Afrikaans", stopwords="af"),
    Language("am", "Amharic", hard_marks="፧"),
    Language("ar", "Arabic", stemmer="arabic", stopwords="ar"),
    Language("bg", "Bulgarian", stopwords="bg"),
    Language("bn", "Bengali", stopwords="bn"),
    Language("ca", "Catalan", stemmer="catalan", stopwords="ca"),
    Language("cs", "Czech", stemmer="czech", stopwords="cs"),
    Language("da", "Danish", stemmer="danish", stopwords="da"),
    Language("de", "German", stemmer="german", stopwords="de"),
    Language("el", "Greek", stemmer="greek", stopwords="el", soft_marks=";\u037e"),
    Language("en", "English", stemmer="porter", stopwords="english"),
    Language("eo", "Esperanto", stemmer="esperanto", stopwords="eo"),
    Language("es", "Spanish", stemmer="spanish", stopwords="es"),
    Language("et", "Estonian", stemmer="estonian", stopwords="et"),
    Language("eu", "Basque", stemmer="basque", stopwords="eu"),
    Language("fa", "Persian", stemmer="persian", stopwords="fa"),
    Language("fi", "Finnish", stemmer="finnish", stopwords="fi"),
    Language("fr", "French", stemmer="french", stopwords="fr"),
    Language("ga", "Irish", stemmer="irish", stopwords="ga"),
    Language("gl", "Galician", stopwords="gl"),
    Language("gu", "Gujarati", stopwords="gu"),
    Language("ha", "Hausa", stopwords="ha"),
    Language("he", "Hebrew", stopwords="he"),
    Language("hi", "Hindi", stemmer="hindi", stopwords="hi"),
    Language("hr", "Croatian", stopwords="hr"),
    Language("hu", "Hungarian", stemmer="hungarian", stopwords="hu"),
    Language("hy", "Armenian", stemmer="armenian", stopwords="hy", hard_marks="\u0589"),
    Language("id", "Indonesian", stemmer="indonesian", stopwords="id"),
    Language("it", "Italian", stemmer="italian", stopwords="it"),
    Language("ja", "Japanese", segmenter="ja", stopwords="ja"),
    Language("km", "Khmer", segmenter="km", hard_marks="\u17d4\u17d5"),
    Language("ko", "Korean", segmenter="ko", stopwords="ko"),
    Language("ku", "Kurdish", stopwords="ku"),
    Language("la", "Latin", stopwords="la"),
    Language("lo", "Lao", segmenter="lo"),
    Language("lt", "Lithuanian", stemmer="lithuanian", stopwords="lt"),
    Language("lv", "Latvian", stopwords="lv"),
    Language("mr", "Marathi", stopwords="mr"),
    Language("ms", "Malay", stopwords="ms"),
    Language("my", "Burmese", hard_marks="\u104b"),
    Language("ne", "Nepali", stemmer="nepali"),
    Language("nl", "Dutch", stemmer="dutch", stopwords="nl"),
    Language("no", "Norwegian", stemmer="norwegian", stopwords="no"),
    Language("pa", "Punjabi"),
    Language("pl", "Polish", stemmer="polish", stopwords="pl"),
    Language("pt", "Portuguese", stemmer="portuguese", stopwords="pt"),
    Language("ro", "Romanian", stemmer="romanian", stopwords="ro"),
    Language("ru", "Russian", stemmer="russian", stopwords="ru"),
    Language("sk", "Slovak", stopwords="sk"),
    Language("sl", "Slovenian", stopwords="sl"),
    Language("so", "Somali", stopwords="so"),
    Language("sr", "Serbian", stemmer="serbian"),
    Language("st", "Sesotho", stemmer="sesotho", stopwords="st"),
    Language("sv", "Swedish", stemmer="swedish", stopwords="sv"),
    Language("sw", "Swahili", stopwords="sw"),
    Language("ta", "Tamil", stemmer="tamil"),
    Language("th", "Thai", segmenter="th", stopwords="th"),
    Language("tl", "Tagalog", stopwords="tl"),
    Language("tr", "Turkish", stemmer="turkish", stopwords="tr"),
    Language("uk", "Ukrainian", stopwords="uk"),
    Language("ur", "Urdu", stopwords="ur"),
    Language("vi", "Vietnamese", stopwords="vi"),
    Language("yi", "Yiddish", stemmer="yiddish"),
    Language("yo", "Yoruba", stopwords="yo"),
    Language("zh", "Chinese", segmenter="zh", stopwords="zh"),
    Language("zu", "Zulu", stopwords="zu"),
)
# fmt: on

# Every language's extra sentence marks: a segmenter never reads across one (see segmenters).
ALL_HARD_MARKS = "".join(sorted({m for lang in LANGUAGES.values() for m in lang.hard_marks}))
ALL_SOFT_MARKS = "".join(sorted({m for lang in LANGUAGES.values() for m in lang.soft_marks}))

# The pip packages behind each resource, for install hints and the signature's versions.
STEM_EXTRA = "stem"
STEM_PACKAGE = "PyStemmer"
STOPWORDS_EXTRA = "stopwords"
STOPWORDS_PACKAGE = "stopwordsiso"


def get_language(code: str) -> Language:
    """The language of an ISO 639-1 ``code``; ``ValueError`` lists the valid codes."""
    if not isinstance(code, str):
        raise OptionTypeError(f"language must be an ISO 639-1 code such as 'de', got {code!r}")
    try:
        return LANGUAGES[code]
    except KeyError:
        raise OptionError(
            f"unknown language {code!r}; valid ISO 639-1 codes are: {', '.join(LANGUAGES)}"
        ) from None


def package_version(distribution: str) -> str:
    """``distribution``'s installed version, or ``not-installed`` (read without importing it)."""
    import importlib.metadata

    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "not-installed"


def require_installed(distributions: tuple[str, ...], purpose: str, extra: str) -> None:
    """``MissingExtraError`` naming ``extra`` when one of ``distributions`` is not installed
    (read from the installed metadata, nothing imported)."""
    if any(package_version(name) == "not-installed" for name in distributions):
        raise MissingExtraError(purpose, extra)


def import_optional(module: str, purpose: str, extra: str) -> object:
    """Import ``module`` or raise ``MissingExtraError`` naming the extra that installs it."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise MissingExtraError(f"{purpose} (the {module} module)", extra) from None


# ---- stemmers -------------------------------------------------------------------------------


def snowball_stemmer(algorithm: str) -> Stemmer:
    """PyStemmer's Snowball ``algorithm`` for tokens longer than three characters, each
    distinct token stemmed once per process. A PyStemmer object must not be shared between
    threads, so each thread gets its own."""
    module = import_optional("Stemmer", f"stemming with Snowball {algorithm}", STEM_EXTRA)
    if algorithm not in module.algorithms():  # type: ignore[attr-defined]
        purpose = f"{algorithm} stemming (PyStemmer {package_version(STEM_PACKAGE)} has none)"
        raise MissingExtraError(purpose, STEM_EXTRA, upgrade=True)
    import threading

    local = threading.local()

    @functools.lru_cache(maxsize=CACHE_SIZE)
    def stem(token: str) -> str:
        if len(token) <= MIN_STEM_LENGTH:
            return token
        stemmer = getattr(local, "stemmer", None)
        if stemmer is None:
            stemmer = local.stemmer = module.Stemmer(algorithm)  # type: ignore[attr-defined]
        return stemmer.stemWord(token)

    return stem


# ---- stopwords ------------------------------------------------------------------------------


@functools.cache
def language_stopwords(code: str) -> frozenset[str]:
    """The stopwords-iso list of language ``code``, NFC-normalized and lowercased like tokens."""
    module = import_optional(
        STOPWORDS_PACKAGE, f"remove_stopwords=True for language {code!r}", STOPWORDS_EXTRA
    )
    words = module.stopwords(code)  # type: ignore[attr-defined]
    return frozenset(unicodedata.normalize("NFC", word).lower() for word in words)


# ---- evidence that a text is not English ------------------------------------------------------

# Frequent function words of languages written in Latin letters that are not English words;
# a few of them in a text are strong evidence (hand-picked, no list is copied).
# fmt: off
_FUNCTION_WORDS = {
    "de": "der die und nicht ist das ein eine mit sich auf für dem den von zu im auch wird",
    "es": "el la los las y que del en por para con una es se su al lo como más pero",
    "fr": "le la les et est une des du en que qui dans pour pas sur au avec ce il sont",
    "it": "il la di che e è per una del della con non sono gli le anche nel alla",
    "pt": "o os da do das dos e que em um uma para com não se por mais como foi",
    "nl": "de het een en van is dat niet op te zijn met voor er maar ook bij",
    "tr": "ve bir bu da de için ile olarak çok daha gibi ama olan en ne",
    "sv": "och att det som en på är av för med till den inte har om ett",
    "id": "dan yang di ini itu dengan untuk dari dalam tidak akan pada ke juga",
    "pl": "i w na z się nie że do jest to jak po o od za ale",
}
# fmt: on
_ASCII_WORD = re.compile(r"[A-Za-z]+")
_WORD_CHARACTERS = re.compile(r"[^\W\d_]+")
_SAMPLE_TEXTS = 200
_SAMPLE_CHARACTERS = 2000  # of one text
_SAMPLE_TOTAL = 20_000  # of all: thousands of words, plenty for either kind of evidence


@functools.cache
def _foreign_words() -> dict[str, frozenset[str]]:
    from .stopwords import builtin_english_stopwords

    english = builtin_english_stopwords()
    return {code: frozenset(words.split()) - english for code, words in _FUNCTION_WORDS.items()}


def _words(text: str) -> list[str]:
    """The runs of letters (``str.isalpha``: Unicode category L, as Python's Unicode database
    has it) of ``text``, without the regex module (tens of milliseconds to import): runs of
    word characters other than digits and "_", split where one is not a letter ("½")."""
    if text.isascii():
        return _ASCII_WORD.findall(text)
    words = []
    for run in _WORD_CHARACTERS.findall(text):
        if run.isalpha():
            words.append(run)
        else:
            words += ["".join(g) for alpha, g in itertools.groupby(run, str.isalpha) if alpha]
    return words


def _script(letter: str) -> str:
    name = unicodedata.name(letter, "")
    return name.split(" ", 1)[0] if name else "UNKNOWN"


# The language most texts of a script are in, to suggest a code.
_SCRIPT_LANGUAGE = {
    "ARABIC": "ar", "BENGALI": "bn", "CJK": "zh", "CYRILLIC": "ru", "DEVANAGARI": "hi",
    "GREEK": "el", "HANGUL": "ko", "HEBREW": "he", "HIRAGANA": "ja", "KATAKANA": "ja",
    "KHMER": "km", "LAO": "lo", "MYANMAR": "my", "TAMIL": "ta", "THAI": "th",
}  # fmt: skip


def non_english_evidence(texts: Iterable[str]) -> str | None:
    """Why the texts are clearly not English, with a suggested ``language``, or ``None``:
    most of their letters are of another script than Latin, or another language's function
    words outnumber English stopwords. Reads at most the first 200 texts, 2,000 characters
    of each and 20,000 in all."""
    sample, read = [], 0
    for text in itertools.islice(texts, _SAMPLE_TEXTS):
        sample.append(text[: min(_SAMPLE_CHARACTERS, _SAMPLE_TOTAL - read)])
        read += len(sample[-1])
        if read >= _SAMPLE_TOTAL:
            break
    words = [word.lower() for text in sample for word in _words(text)]
    letters = "".join(words)
    if not letters:
        return None
    # Letters of another script than Latin are among the non-ASCII ones: unless those are most
    # letters, no script is looked up.
    if (len(letters) - len(letters.encode("ascii", "ignore"))) * 2 > len(letters):
        other = [c for c in letters if not ("a" <= c <= "z" or _script(c) == "LATIN")]
        if len(other) * 2 > len(letters):
            script = collections.Counter(map(_script, other)).most_common(1)[0][0]
            code = _SCRIPT_LANGUAGE.get(script)
            return f"most letters are {script.title()}" + (f"; language={code!r}?" if code else "")
    from .stopwords import builtin_english_stopwords

    frequency = collections.Counter(words)
    english = sum(frequency[word] for word in builtin_english_stopwords() if word in frequency)
    counts = {
        code: sum(frequency[word] for word in function_words if word in frequency)
        for code, function_words in _foreign_words().items()
    }
    code, hits = max(counts.items(), key=lambda item: item[1])
    if hits >= max(3, len(words) // 10) and hits > english:
        return f"{LANGUAGES[code].name} function words outnumber English ones; language={code!r}?"
    return None

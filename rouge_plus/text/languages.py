"""The languages of the ``language`` option: what each one selects (the evidence that a text is
not English when no language is given is :mod:`.evidence`'s).

A language selects four things (docs/languages.md has the table): how its script is cut into
words (a segmenter for the scripts written without spaces, :mod:`.segmenters`), the stemmer of
``use_stemmer=True`` (Snowball through PyStemmer; English keeps rouge_score's Porter rule), the
stopword list of ``remove_stopwords=True`` (the stopwords-iso lists of the ``stopwordsiso``
package; English keeps the built-in list), and the sentence marks of ``split_sentences="rules"``.
Everything that needs a package is imported on first use and names its extra when missing.
"""

from __future__ import annotations

import functools
import importlib
import unicodedata
from collections.abc import Callable
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

"""Options turned into the things that score: the text pipeline, the stemmers by name, and
the topic-word tagger. :class:`~rouge_plus.plan.ScoringPlan` calls these once per plan.

Every stage below takes these as plain values; nothing below this module reads
:class:`~rouge_plus.options.ScoreOptions`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from .options import ScoreOptions
from .text.encoding import TextPipeline
from .text.sentences import get_sentence_splitter
from .text.stemming import CACHE_SIZE, porter_stem
from .text.stopwords import resolve_stopwords
from .text.tokenizers import Tokenizer, get_tokenizer

Stemmer = Callable[[str], str]


def _rouge155_stemmer() -> Stemmer:
    from .rouge155.stemmer import Rouge155Stemmer

    return functools.lru_cache(maxsize=CACHE_SIZE)(Rouge155Stemmer())


# Stemmers by the name ScoreOptions.stemmer_name gives; built on first use, once per process.
_STEMMERS: dict[str, Callable[[], Stemmer]] = {
    "porter": lambda: porter_stem,
    "rouge155": _rouge155_stemmer,
}


@functools.cache
def _snowball_stemmers() -> dict[str, Callable[[], Stemmer]]:
    """The Snowball stemmers of the languages (PyStemmer), by the names ScoreOptions gives them
    (the languages table is imported for them only)."""
    from .text.languages import LANGUAGES, snowball_stemmer

    return {
        f"snowball:{language.stemmer}": functools.partial(snowball_stemmer, language.stemmer)
        for language in LANGUAGES.values()
        if language.stemmer and language.stemmer != "porter"
    }


@functools.cache
def get_stemmer(name: str) -> Stemmer:
    """The stemmer registered under ``name``; ``ValueError`` lists the valid names."""
    factory = _STEMMERS.get(name) or _snowball_stemmers().get(name)
    if factory is None:
        valid = ", ".join(sorted({**_STEMMERS, **_snowball_stemmers()}))
        raise ValueError(f"stemmer: unknown stemmer {name!r}; valid stemmers are: {valid}")
    return factory()


def text_pipeline(options: ScoreOptions) -> TextPipeline:
    """How the options turn texts into tokens (a ``language`` picks its segmenter, stemmer,
    stopword list and sentence marks)."""
    language = options.language_spec
    if language is None:
        split_sentences = get_sentence_splitter(options.split_sentences)
    else:
        split_sentences = get_sentence_splitter(
            options.split_sentences, language.hard_marks, language.soft_marks
        )
    stopword_code = options.language_stopwords
    if stopword_code:
        from .text.languages import language_stopwords

        stopwords = language_stopwords(stopword_code)
    else:
        stopwords = resolve_stopwords(options.remove_stopwords)
    return TextPipeline(
        tokenizer=_tokenizer(options),
        split_sentences=split_sentences,
        stem=get_stemmer(options.stemmer_name) if options.stemmer_name else None,
        stopwords=stopwords,
        limit_text=_length_limit(options),
        limit_sentences=_sentence_length_limit(options),
    )


def stemmer_notice(options: ScoreOptions) -> str | None:
    """The warning that ``use_stemmer=True`` cannot be honoured for the options' language."""
    language = options.language_spec
    if language is None or not options.use_stemmer or options.stemmer_name is not None:
        return None
    return (
        f"use_stemmer=True: there is no stemmer for language {language.code!r} "
        f"({language.name}); tokens are not stemmed"
    )


def _tokenizer(options: ScoreOptions) -> Tokenizer:
    if options.segmenter is not None:
        from .text.segmenters import segmenting_tokenizer

        return segmenting_tokenizer(options.segmenter)
    return get_tokenizer(options.tokenizer)


def topic_words(options: ScoreOptions) -> Callable[[list[str]], list[list[str] | str]]:
    """Tag sentences and keep their topic words (ROUGE 2.0), lowercased like other tokens: for
    each sentence a list of words, or a str of lowercase ASCII words separated by spaces; many
    sentences a call (each distinct sentence is tagged once).

    Tagging sees the words with their case: taggers are far less accurate on lowercased text.
    """
    from .rouge2.pos import load_tagger

    prefixes = options.topic_prefixes
    if options.pos_tagger == "pretagged":

        def pretagged_topic_words(sentences: list[str]) -> list[list[str]]:
            pairs = ([token.rpartition("/") for token in s.split()] for s in sentences)
            return [[w.lower() for w, _, tag in p if tag.startswith(prefixes)] for p in pairs]

        return pretagged_topic_words
    tagger = load_tagger(options.pos_tagger)
    builtin = isinstance(options.tokenizer, str)
    cased = get_tokenizer(options.tokenizer, lowercase=False)
    # Where the compiled tokenizer reads a text for a built-in tokenizer, the cased tokens are
    # the text's runs of [A-Za-z0-9], which a compiled tagger reads itself.
    ascii_runs = get_tokenizer(options.tokenizer).native_when if builtin else None

    def str_tokens(sentence: str) -> list[str]:
        tokens = cased(sentence)
        if not all(type(token) is str for token in tokens):
            raise TypeError(
                f"the topic types tag words: tokenizer {cased.name!r} must return str tokens "
                "for them (other hashable tokens work with the other types)"
            )
        return tokens

    tokenize = cased if builtin else str_tokens

    def tagged_topic_words(sentences: list[str]) -> list[list[str] | str]:
        distinct = list(dict.fromkeys(sentences))
        words = tagger.text_topic_words(distinct, tokenize, prefixes, builtin, ascii_runs, builtin)
        found = dict(zip(distinct, words, strict=True))
        return list(map(found.__getitem__, sentences))

    return tagged_topic_words


def _length_limit(options: ScoreOptions) -> Callable[[str], str] | None:
    if not (options.max_words or options.max_bytes):
        return None
    from .rouge155.length_limit import limit_bytes, limit_words

    if options.max_words:
        return functools.partial(limit_words, max_words=options.max_words)
    return functools.partial(limit_bytes, max_bytes=options.max_bytes)


def _sentence_length_limit(options: ScoreOptions) -> Callable[[str], str] | None:
    """ROUGE-1.5.5 reads the sentences of ROUGE-L and ROUGE-W under ``-b`` its own way
    (:func:`~rouge_plus.rouge155.length_limit.limit_bytes_lcs`); the profile does too."""
    if not (options.rouge155 and options.max_bytes):
        return None
    from .rouge155.length_limit import limit_bytes_lcs

    return functools.partial(limit_bytes_lcs, max_bytes=options.max_bytes)

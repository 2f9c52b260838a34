"""The one place where options become the things that score: a text pipeline, a synonym
source and a topic-word tagger.

Every stage below takes these as plain values; nothing below this module reads
:class:`~rouge_plus.options.ScoreOptions`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

from .options import ScoreOptions
from .rouge2.pos import load_tagger, topic_filter
from .rouge2.synonyms import Synonyms, load_synonyms
from .rouge155.length_limit import limit_bytes, limit_bytes_lcs, limit_words
from .text.diagnostics import warn_once
from .text.encoding import TextPipeline
from .text.languages import LANGUAGES, language_stopwords, snowball_stemmer
from .text.segmenters import segmenting_tokenizer
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
# The Snowball stemmers of the languages (PyStemmer), by the names ScoreOptions gives them.
_STEMMERS.update(
    {
        f"snowball:{language.stemmer}": functools.partial(snowball_stemmer, language.stemmer)
        for language in LANGUAGES.values()
        if language.stemmer and language.stemmer != "porter"
    }
)


@functools.cache
def get_stemmer(name: str) -> Stemmer:
    """The stemmer registered under ``name``; ``ValueError`` lists the valid names."""
    try:
        factory = _STEMMERS[name]
    except KeyError:
        valid = ", ".join(sorted(_STEMMERS))
        raise ValueError(
            f"stemmer: unknown stemmer {name!r}; valid stemmers are: {valid}"
        ) from None
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
        if options.use_stemmer and options.stemmer_name is None:
            warn_once(
                f"use_stemmer=True: there is no stemmer for language {language.code!r} "
                f"({language.name}); tokens are not stemmed"
            )
    stopword_code = options.language_stopwords
    return TextPipeline(
        tokenizer=_tokenizer(options),
        split_sentences=split_sentences,
        stem=get_stemmer(options.stemmer_name) if options.stemmer_name else None,
        stopwords=(
            language_stopwords(stopword_code)
            if stopword_code
            else resolve_stopwords(options.remove_stopwords)
        ),
        limit_text=_length_limit(options),
        limit_sentences=_sentence_length_limit(options),
    )


def _tokenizer(options: ScoreOptions) -> Tokenizer:
    if options.segmenter is not None:
        return segmenting_tokenizer(options.segmenter)
    return get_tokenizer(options.tokenizer)


def topic_words(options: ScoreOptions) -> Callable[[str], list[str]]:
    """Tag one sentence and keep its topic words (ROUGE 2.0), lowercased like other tokens.

    Tagging sees the words with their case: taggers are far less accurate on lowercased text.
    """
    prefixes = options.topic_prefixes
    if options.pos_tagger == "pretagged":

        def pretagged_topic_words(sentence: str) -> list[str]:
            pairs = [token.rpartition("/") for token in sentence.split()]
            return [word.lower() for word, _, tag in pairs if tag.startswith(prefixes)]

        return pretagged_topic_words
    tagger = load_tagger(options.pos_tagger)
    builtin = isinstance(options.tokenizer, str)
    cased = get_tokenizer(options.tokenizer, lowercase=False)

    def tagged_topic_words(sentence: str) -> list[str]:
        tokens = cased(sentence)
        if not builtin and not all(type(token) is str for token in tokens):
            raise TypeError(
                f"the topic types tag words: tokenizer {cased.name!r} must return str tokens "
                "for them (other hashable tokens work with the other types)"
            )
        kept = [tokens[i] for i in topic_filter(tokens, tagger(tokens), prefixes)]
        return [token.lower() for token in kept] if builtin else kept

    return tagged_topic_words


def _length_limit(options: ScoreOptions) -> Callable[[str], str] | None:
    if options.max_words:
        return functools.partial(limit_words, max_words=options.max_words)
    if options.max_bytes:
        return functools.partial(limit_bytes, max_bytes=options.max_bytes)
    return None


def _sentence_length_limit(options: ScoreOptions) -> Callable[[str], str] | None:
    """ROUGE-1.5.5 reads the sentences of ROUGE-L and ROUGE-W under ``-b`` its own way
    (:func:`~rouge_plus.rouge155.length_limit.limit_bytes_lcs`); the profile does too."""
    if options.rouge155 and options.max_bytes:
        return functools.partial(limit_bytes_lcs, max_bytes=options.max_bytes)
    return None


@dataclass(frozen=True)
class Resources:
    """What every chunk of a scoring call shares, resolved once per call: the text pipeline,
    the synonym source (a user's file or mapping is parsed once, not once per chunk), the
    topic-word tagger, and the signature that names them."""

    pipeline: TextPipeline
    synonyms: Synonyms | None
    topic_words: Callable[[str], list[str]] | None
    signature: str

    @classmethod
    def for_options(cls, options: ScoreOptions) -> Resources:
        synonyms = load_synonyms(options.synonyms) if options.needs_synonyms else None
        tagger_name = None
        if options.has_topic and options.pos_tagger != "pretagged":
            tagger_name = load_tagger(options.pos_tagger).name
        return cls(
            text_pipeline(options),
            synonyms,
            topic_words(options) if options.has_topic else None,
            options.signature(synonyms and synonyms.name, tagger_name),
        )

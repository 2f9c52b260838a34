"""The text pipeline and the topic-word tagger that a set of options asks for."""

from __future__ import annotations

import functools
from collections.abc import Callable

from .encoding import TextPipeline
from .length_limit import limit_bytes, limit_words
from .options import ScoreOptions
from .pos import load_tagger, topic_filter
from .sentences import available_sentence_splitters, get_sentence_splitter
from .stemming import get_stemmer
from .stopwords import resolve_stopwords
from .tokenizers import available_tokenizers, get_tokenizer


def text_pipeline(options: ScoreOptions) -> TextPipeline:
    tokenizer, splitter = options.tokenizer, options.split_sentences
    return TextPipeline(
        tokenizer=get_tokenizer(tokenizer),
        tokenizer_name=tokenizer if tokenizer in available_tokenizers() else None,
        split_sentences=get_sentence_splitter(splitter),
        splitter_name=splitter if splitter in available_sentence_splitters() else None,
        stem=get_stemmer(options.stemmer_name) if options.stemmer_name else None,
        stopwords=resolve_stopwords(options.remove_stopwords),
        limit_text=_length_limit(options),
    )


def topic_words(options: ScoreOptions) -> Callable[[str], list[str]]:
    """Tag one sentence and keep its topic words (ROUGE 2.0), lowercased like other tokens.

    Tagging sees the words with their case: taggers are far less accurate on lowercased text.
    """
    prefixes = options.topic_prefixes
    if options.pos_tagger == "pretagged":

        def topic_words(sentence: str) -> list[str]:
            pairs = [token.rpartition("/") for token in sentence.split()]
            return [word.lower() for word, _, tag in pairs if tag.startswith(prefixes)]

        return topic_words
    tagger = load_tagger(options.pos_tagger)
    builtin = isinstance(options.tokenizer, str)
    cased = get_tokenizer(options.tokenizer, lowercase=False)

    def topic_words(sentence: str) -> list[str]:
        tokens = cased(sentence)
        kept = [tokens[i] for i in topic_filter(tokens, tagger(tokens), prefixes)]
        return [token.lower() for token in kept] if builtin else kept

    return topic_words


def _length_limit(options: ScoreOptions) -> Callable[[str], str] | None:
    if options.max_words:
        return functools.partial(limit_words, max_words=options.max_words)
    if options.max_bytes:
        return functools.partial(limit_bytes, max_bytes=options.max_bytes)
    return None

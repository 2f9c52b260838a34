"""Options resolved once into what scores: the :class:`ScoringPlan` every front end scores with,
and the resolvers it calls (text pipeline, stemmers by name, topic-word tagger).

A plan holds the measures, the text pipeline, ROUGE 2.0's resources (a user's synonym file is
parsed once), how references reduce, and the signature. A :class:`~rouge_plus.scorer.RougeScorer`
builds its plan once, so a loop that scores one pair per call pays for the options once, not on
every call; :func:`plan_for` keeps the plans of plain keyword options, so a new scorer per call
(as harnesses write it) finds the plan already built.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from .errors import OptionError, OptionTypeError
from .inputs import Batch
from .kernels.native import NATIVE, PairScorer
from .options import ScoreOptions
from .parallel import default_workers, map_in_workers
from .results import ExampleScores, one_row_keys
from .scoring.counting import count_texts
from .scoring.multiref import COMPILED_REDUCTION, reduce_references, row_counts
from .scoring.tables import ScoreTable
from .text.diagnostics import warn_once, warn_wordless, wordless_places
from .text.encoding import TextPipeline
from .text.sentences import get_sentence_splitter
from .text.tokenizers import get_tokenizer

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import NamedTuple

    from .rouge2.pos import Tagger
    from .rouge2.synonyms import Synonyms
    from .text.languages import Language
else:
    from ._records import NamedTuple

# Rows scored at once: bounds the memory of the intermediate arrays for any corpus size.
CHUNK_ROWS = 4096


class ScoringPlan:
    """Everything a scoring call needs that depends on the options alone, resolved once."""

    __slots__ = (
        "_language_checked",
        "compiled",
        "_pair_scorer",
        "_signature",
        "_tagger_name",
        "language",
        "names",
        "notices",
        "options",
        "pipeline",
        "result_keys",
        "stems_english",
        "strip_reasoning",
        "synonyms",
        "topic_words",
    )

    def __init__(self, options: ScoreOptions) -> None:
        self.options = options
        self.names = options.type_names
        # ROUGE 2.0's resources are imported only by the plans that use them.
        self.synonyms: Synonyms | None = None
        tagger = None
        if options.needs_synonyms:
            from .rouge2.synonyms import load_synonyms

            self.synonyms = load_synonyms(options.synonyms)
        if options.has_topic and options.pos_tagger != "pretagged":
            from .rouge2.pos import load_tagger

            tagger = load_tagger(options.pos_tagger)
        self._tagger_name = tagger and tagger.name
        self.language = resolve_language(options)
        self.pipeline = text_pipeline(options, self.language)
        self.strip_reasoning = _reasoning_stripper(options.strip_reasoning)
        self.topic_words = topic_words(options, tagger) if options.has_topic else None
        # Warnings about the options themselves, given again by every call that scores.
        self.notices = tuple(filter(None, [stemmer_notice(options, self.language)]))
        self._signature: str | None = None
        self.stems_english = options.use_stemmer and options.language is None
        self._language_checked = False
        self.result_keys = one_row_keys(self.names, options)
        self.compiled = CompiledWork(options, self.pipeline)
        specs = self.compiled.pair_specs
        self._pair_scorer = specs and PairScorer(
            specs, *options.fmeasure.compiled_form, self.pipeline.stem
        )

    @property
    def signature(self) -> str:
        """Every setting that changes a score, with the names of the data sources loaded."""
        if self._signature is None:
            synonyms_name = self.synonyms.name if self.synonyms is not None else None
            from .signature import signature

            choice = self.language
            self._signature = signature(
                self.options,
                choice.segmenter,
                choice.stemmer,
                choice.stopwords_code,
                synonyms_name,
                self._tagger_name,
            )
        return self._signature

    def warn_notices(self) -> None:
        """Give the warnings about the options themselves (once per process each), as every
        call that scores does."""
        for notice in self.notices:
            warn_once(notice)

    def check_language(self, references: list[str]) -> None:
        """The English stemmer on text that is clearly not English: say which option fixes it."""
        if not self.stems_english:
            return
        from .text.evidence import non_english_evidence

        evidence = non_english_evidence(references)
        if evidence:
            warn_once(
                f"use_stemmer=True stems with the English Porter stemmer, but the references "
                f"are not English ({evidence}): pass language=<ISO 639-1 code> to stem, "
                "tokenize and split sentences in their language"
            )

    def score_rows(self, batch: Batch, first_row: int = 0) -> ExampleScores:
        """Per-row scores of ``batch`` (rows ``first_row ..`` of the input), and their counts
        when the options keep them, in chunks of at most ``CHUNK_ROWS`` rows, on
        ``options.num_proc`` threads; warns once about texts without tokens.

        Chunks are independent; on several threads they score in parallel because the compiled
        kernels release the GIL.
        """
        num_proc = self.options.num_proc
        workers = default_workers() if num_proc is None else num_proc
        size = _chunk_rows(len(batch), workers)

        def score_rows(start: int) -> ChunkScores:
            return self.score_chunk(batch.rows(start, start + size), first_row + start)

        results = map_in_workers(score_rows, range(0, len(batch), size), workers)
        warn_wordless(
            [place for chunk in results for place in chunk.wordless], self.options.tokenizer
        )
        scores = _joined([chunk.scores for chunk in results], self.names)
        counts = None
        if self.options.needs_counts:
            counts = _joined([chunk.counts for chunk in results], self.names)
        return ExampleScores(scores, self.options, self.signature, counts)

    def score_pair(self, prediction: str, reference: str) -> list[float] | None:
        """Precision, recall and F of each measure, one after the other, for one pair, from the
        compiled one-pair scorer (none of the bookkeeping of many rows); None for a pair that
        takes the general path: a text the compiled tokenizer does not read, one without tokens
        (the general path warns about it when it has words), or a long pair."""
        scorer = self._pair_scorer
        if scorer is None:
            return None
        if self.strip_reasoning is not None:
            prediction = self._stripped([prediction])[0]
        native_when = self.pipeline.tokenizer.native_when
        if not (prediction.isascii() or native_when(prediction)) or not (
            reference.isascii() or native_when(reference)
        ):
            return None
        if self.stems_english and not self._language_checked:
            # One pair per call checks the first pair its plan scores (the check costs more
            # than scoring a pair); a call of many rows checks its rows.
            self._language_checked = True
            self.check_language([reference])
        return scorer.score(prediction, reference)

    def _stripped(self, predictions: list[str]) -> list[str]:
        """``predictions`` without their reasoning traces (``strip_reasoning``)."""
        stripped, unclosed = self.strip_reasoning(predictions)
        if unclosed:
            from .text.reasoning import unclosed_notice

            warn_once(unclosed_notice(unclosed))
        return stripped

    def score_chunk(self, batch: Batch, first_row: int) -> ChunkScores:
        """Per-row scores of one chunk (rows ``first_row ..`` of the input), their counts when
        the options keep them, and where its texts without tokens are.

        The common call (the measures the compiled kernels count, references reduced by
        "best", no stopwords, the extensions built) passes buffers from the compiled vocabulary
        to the compiled kernels and the compiled reduction, and imports no NumPy.
        """
        options = self.options
        texts = batch.texts
        if self.strip_reasoning is not None:  # the predictions only
            texts = self._stripped(batch.predictions) + texts[len(batch) :]
        pair_rows = batch.pair_rows()
        place = batch.text_place(first_row)
        counts, tokenless = count_texts(
            options.rouge_types,
            texts,
            pair_rows,
            self.pipeline,
            synonyms=self.synonyms,
            topic_words=self.topic_words,
            describe=place,
        )
        tables = reduce_references(
            options.multi_ref,
            counts,
            pair_rows,
            len(batch),
            options.fmeasure,
            round5_values=options.rouge155,
            compiled=self.compiled.reduces,
        )
        scores = dict(zip(self.names, tables, strict=True))
        kept = None
        if options.needs_counts:
            chosen = row_counts(
                options.multi_ref,
                counts,
                pair_rows,
                len(batch),
                options.fmeasure,
                round5_values=options.rouge155,
            )
            kept = dict(zip(self.names, chosen, strict=True))
        return ChunkScores(scores, kept, wordless_places(texts, place, tokenless))


class ChunkScores(NamedTuple):
    """One chunk's per-row scores by type, its per-row counts (None when not kept) and where
    its texts without tokens are."""

    scores: dict[str, ScoreTable]
    counts: dict[str, ScoreTable] | None
    wordless: list[str]


def _joined(parts: list[dict[str, ScoreTable]], names: list[str]) -> dict[str, ScoreTable]:
    """The tables of consecutive chunks, joined per type."""
    if len(parts) == 1:
        return parts[0]
    return {name: ScoreTable.join([part[name] for part in parts]) for name in names}


class CompiledWork:
    """What of a plan's scoring compiled code computes, read once from its measures' kinds.

    Compiled code counts the units of every kernel (``kernels/native.py`` picks the extension or
    the twins for all kernels at once). Two later stages are compiled for some measures only,
    as each kind declares (:class:`~rouge_plus.scoring.measures.MeasureKind`): the per-row
    reduction of several references (``scoring/_scores.c``), which computes precision and
    recall as hit / base, and the one-pair scorer (``kernels/_native_pair.c``), which also
    encodes the two strings. The stages ask this record, never the kinds' names.
    """

    __slots__ = ("pair_specs", "reduces")

    def __init__(self, options: ScoreOptions, pipeline: TextPipeline) -> None:
        measures = options.rouge_types
        # The compiled reduction: a mode every kind declares, of unrounded values.
        self.reduces = (
            COMPILED_REDUCTION
            and not options.rouge155
            and all(
                options.multi_ref in measure.declared_kind.compiled_reductions
                for measure in measures
            )
        )
        by_sentence = any(measure.uses_sentences for measure in measures)
        # The one-pair scorer: measures it counts alone, reduced as above, from texts the
        # compiled vocabulary reads as the pipeline would (no stopwords, no length limits...).
        # (It gives no counts: a plan that keeps them takes the general path.)
        scores_pairs = (
            NATIVE
            and not options.needs_counts
            and self.reduces
            and all(measure.counted_by_kernels_alone for measure in measures)
            and pipeline.stopwords is None
            and pipeline.limit_sentences is None
            and pipeline.limit_text is None
            and bool(pipeline.tokenizer.native_when)
            and (not by_sentence or (pipeline.split_sentences.by_lines and pipeline.sentence_safe))
        )
        self.pair_specs: list[tuple[int, int, float]] | None = (
            [measure.kernel_spec().packed() for measure in measures] if scores_pairs else None
        )


def _chunk_rows(n_rows: int, workers: int) -> int:
    """Rows per chunk: at most ``CHUNK_ROWS``, and for several workers a size that gives each
    of them the same number of chunks, so that they finish together."""
    if workers <= 1:
        return CHUNK_ROWS
    rounds = -(-n_rows // (workers * CHUNK_ROWS))
    return max(1, -(-n_rows // (workers * rounds)))


# Options whose value may name a file: a plan that read it is not kept, since the file may change.
_FILE_OPTIONS = frozenset({"remove_stopwords", "synonyms", "pos_tagger"})
# The values of those options that name no file: built-in sources.
_NAMED_SOURCES = frozenset({None, True, False, "smart", "wordnet", "nltk", "en", "pretagged"})


def plan_for(**kwargs: object) -> ScoringPlan:
    """The plan of keyword options (as :meth:`ScoreOptions.from_kwargs` takes them). Plans of
    plain values (str, numbers, None, tuples and lists of str) are kept and shared: building one
    costs more than scoring a pair."""
    key = _plain_key(kwargs)
    if key is None:
        return ScoringPlan(ScoreOptions.from_kwargs(**kwargs))
    return _kept_plan(key)


@functools.lru_cache(maxsize=64)
def _kept_plan(key: tuple) -> ScoringPlan:
    return ScoringPlan(ScoreOptions.from_kwargs(**dict(key)))


def clear_kept_plans() -> None:
    """Forget the kept plans (after a change to what plans are built from, such as a registry)."""
    _kept_plan.cache_clear()


def _plain_key(kwargs: dict[str, object]) -> tuple | None:
    """``kwargs`` as a hashable key, or None when a value is not a plain value or may name a
    file."""
    items = []
    for name, value in kwargs.items():
        if isinstance(value, list | tuple):
            if not all(type(item) is str for item in value):
                return None
            value = tuple(value)
        elif value is not None and type(value) not in (str, bool, int, float):
            return None
        if name in _FILE_OPTIONS and value not in _NAMED_SOURCES:
            return None
        items.append((name, value))
    return tuple(sorted(items))


# ------------------------------------------------------------------ resolvers


class LanguageChoice(NamedTuple):
    """What the ``language`` option selects, resolved once by the plan: the language's row of
    the table (None without a language), the word segmenter that replaces the default
    tokenizer, the stemmer's name for :func:`get_stemmer` (None: no stemming) and the
    stopwords-iso code of ``remove_stopwords=True`` (None: the built-in English list or what
    the option names)."""

    language: Language | None
    segmenter: str | None
    stemmer: str | None
    stopwords_code: str | None


NO_LANGUAGE = LanguageChoice(None, None, None, None)


def resolve_language(options: ScoreOptions) -> LanguageChoice:
    """What ``options`` select through their language (and ``use_stemmer``, ``profile``)."""
    if options.language is None:
        return NO_LANGUAGE._replace(stemmer=_stemmer_name(options, None))
    from .text.languages import get_language

    language = get_language(options.language)
    segmenter = language.segmenter if options.tokenizer == "default" else None
    stopwords_code = None
    if options.remove_stopwords is True and language.stopwords != "english":
        stopwords_code = language.stopwords
    choice = LanguageChoice(language, segmenter, _stemmer_name(options, language), stopwords_code)
    _require_extras(choice)
    return choice


def _require_extras(choice: LanguageChoice) -> None:
    """``MissingExtraError`` now, when the plan is built, for a package the language needs and
    that is not installed, rather than deep inside the first text it tokenizes."""
    from .text.languages import (
        STEM_EXTRA,
        STEM_PACKAGE,
        STOPWORDS_EXTRA,
        STOPWORDS_PACKAGE,
        require_installed,
    )

    code = choice.language.code if choice.language else None
    if choice.segmenter is not None:
        from .text.segmenters import SEGMENTERS

        packages = SEGMENTERS[choice.segmenter].packages
        require_installed(packages, f"language={code!r} (word segmentation)", choice.segmenter)
    if choice.stemmer and choice.stemmer.startswith("snowball:"):
        require_installed((STEM_PACKAGE,), f"language={code!r} with use_stemmer=True", STEM_EXTRA)
    if choice.stopwords_code:
        require_installed(
            (STOPWORDS_PACKAGE,), f"language={code!r} with remove_stopwords=True", STOPWORDS_EXTRA
        )


def _stemmer_name(options: ScoreOptions, language: Language | None) -> str | None:
    if not options.use_stemmer:
        return None
    if options.rouge155:
        return "rouge155"
    if language is None or language.stemmer == "porter":
        return "porter"
    return language.stemmer and f"snowball:{language.stemmer}"


def signature_of(options: ScoreOptions) -> str:
    """The signature of ``options`` without building a plan (data sources named, not loaded)."""
    from .signature import signature

    choice = resolve_language(options)
    return signature(options, choice.segmenter, choice.stemmer, choice.stopwords_code)


def text_pipeline(options: ScoreOptions, choice: LanguageChoice | None = None) -> TextPipeline:
    """How the options turn texts into tokens (a ``language`` picks its segmenter, stemmer,
    stopword list and sentence marks); ``choice``: the options' :func:`resolve_language`."""
    choice = choice or resolve_language(options)
    language = choice.language
    if language is None:
        split_sentences = get_sentence_splitter(options.split_sentences)
    else:
        split_sentences = get_sentence_splitter(
            options.split_sentences, language.hard_marks, language.soft_marks
        )
    if choice.stopwords_code:
        from .text.languages import language_stopwords

        stopwords = language_stopwords(choice.stopwords_code)
    elif options.remove_stopwords is None or options.remove_stopwords is False:
        stopwords = None  # the common call: the stopword module is not imported
    else:
        from .text.stopwords import resolve_stopwords

        stopwords = resolve_stopwords(options.remove_stopwords)
    if choice.segmenter is not None:
        from .text.segmenters import segmenting_tokenizer

        tokenizer = segmenting_tokenizer(choice.segmenter)
    else:
        tokenizer = get_tokenizer(options.tokenizer)
    return TextPipeline(
        tokenizer=tokenizer,
        split_sentences=split_sentences,
        stem=get_stemmer(choice.stemmer) if choice.stemmer else None,
        stopwords=stopwords,
        limit_text=_length_limit(options),
        limit_sentences=_sentence_length_limit(options),
    )


def _reasoning_stripper(spec: bool | str) -> Callable[[list[str]], tuple[list[str], int]] | None:
    """What strips the reasoning traces ``strip_reasoning`` names; None (and the module not
    imported) when it is off."""
    if spec is False:
        return None
    from .text.reasoning import reasoning_stripper

    return reasoning_stripper(spec)


Stemmer = Callable[[str], str]


def _porter_stemmer() -> Stemmer:
    from .text.stemming import porter_stem

    return porter_stem


def _rouge155_stemmer() -> Stemmer:
    from .rouge155.stemmer import Rouge155Stemmer
    from .text.stemming import CACHE_SIZE

    return functools.lru_cache(maxsize=CACHE_SIZE)(Rouge155Stemmer())


# Stemmers by the name resolve_language gives; built (and their modules imported) on first use,
# once per process.
_STEMMERS: dict[str, Callable[[], Stemmer]] = {
    "porter": _porter_stemmer,
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
    """The stemmer registered under ``name``; an ``OptionError`` lists the valid names."""
    factory = _STEMMERS.get(name) or _snowball_stemmers().get(name)
    if factory is None:
        valid = ", ".join(sorted({**_STEMMERS, **_snowball_stemmers()}))
        raise OptionError(f"stemmer: unknown stemmer {name!r}; valid stemmers are: {valid}")
    return factory()


def stemmer_notice(options: ScoreOptions, choice: LanguageChoice) -> str | None:
    """The warning that ``use_stemmer=True`` cannot be honoured for the options' language."""
    language = choice.language
    if language is None or not options.use_stemmer or choice.stemmer is not None:
        return None
    return (
        f"use_stemmer=True: there is no stemmer for language {language.code!r} "
        f"({language.name}); tokens are not stemmed"
    )


def topic_words(
    options: ScoreOptions, tagger: Tagger | None
) -> Callable[[list[str]], list[list[str] | str]]:
    """Tag sentences and keep their topic words (ROUGE 2.0), lowercased like other tokens: for
    each sentence a list of words, or a str of lowercase ASCII words separated by spaces; many
    sentences a call (each distinct sentence is tagged once).

    Tagging sees the words with their case: taggers are far less accurate on lowercased text.
    """
    prefixes = options.topic_prefixes
    if options.pos_tagger == "pretagged":

        def pretagged_topic_words(sentences: list[str]) -> list[list[str]]:
            pairs = ([token.rpartition("/") for token in s.split()] for s in sentences)
            return [[w.lower() for w, _, tag in p if tag.startswith(prefixes)] for p in pairs]

        return pretagged_topic_words
    builtin = isinstance(options.tokenizer, str)
    cased = get_tokenizer(options.tokenizer, lowercase=False)
    # Where the compiled tokenizer reads a text for a built-in tokenizer, the cased tokens are
    # the text's runs of [A-Za-z0-9], which a compiled tagger reads itself.
    ascii_runs = get_tokenizer(options.tokenizer).native_when if builtin else None

    def str_tokens(sentence: str) -> list[str]:
        tokens = cased(sentence)
        if not all(type(token) is str for token in tokens):
            raise OptionTypeError(
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

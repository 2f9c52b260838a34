"""Options resolved once into what scores: the :class:`ScoringPlan` every front end scores with.

A plan holds the measures, the text pipeline, ROUGE 2.0's resources (a user's synonym file is
parsed once), how references reduce, and the signature. A :class:`~rouge_plus.scorer.RougeScorer`
builds its plan once, so a loop that scores one pair per call pays for the options once, not on
every call; :func:`plan_for` keeps the plans of plain keyword options, so a new scorer per call
(as harnesses write it) finds the plan already built.
"""

from __future__ import annotations

import functools
from array import array
from typing import TYPE_CHECKING

from .inputs import Batch
from .kernels.native import Vocabulary, compiled, count_pairs_buffers
from .options import ScoreOptions
from .parallel import default_workers, map_in_workers
from .resources import stemmer_notice, text_pipeline, topic_words
from .results import Table, join_tables
from .scoring.counting import count_texts, count_texts_flat, counts_flat
from .scoring.multiref import per_row_scores as _per_row_scores
from .scoring.multiref import reduce_flat, reduce_references, reduces_flat
from .text.diagnostics import warn_once, warn_wordless, wordless_places

if TYPE_CHECKING:
    import numpy as np

    from .rouge2.synonyms import Synonyms

# Rows scored at once: bounds the memory of the intermediate arrays for any corpus size.
CHUNK_ROWS = 4096

# The one pair of a single-pair call: the prediction is document 0, the reference document 1.
_PAIR_DOCS = (array("q", [0]), array("q", [1]))

# Word ids to stem ids on buffers (text/_stemmers.c); None without the extension.
_stemmers = compiled("text._stemmers")


class ScoringPlan:
    """Everything a scoring call needs that depends on the options alone, resolved once."""

    __slots__ = (
        "_language_checked",
        "_fmeasure",
        "_pair_specs",
        "_signature",
        "_tagger_name",
        "names",
        "notices",
        "options",
        "pipeline",
        "synonyms",
        "topic_words",
    )

    def __init__(self, options: ScoreOptions) -> None:
        self.options = options
        self.names = options.type_names
        # ROUGE 2.0's resources are imported only by the plans that use them.
        self.synonyms: Synonyms | None = None
        self._tagger_name = None
        if options.needs_synonyms:
            from .rouge2.synonyms import load_synonyms

            self.synonyms = load_synonyms(options.synonyms)
        if options.has_topic and options.pos_tagger != "pretagged":
            from .rouge2.pos import load_tagger

            self._tagger_name = load_tagger(options.pos_tagger).name
        self.pipeline = text_pipeline(options)
        self.topic_words = topic_words(options) if options.has_topic else None
        # Warnings about the options themselves, given again by every call that scores.
        self.notices = tuple(filter(None, [stemmer_notice(options)]))
        self._signature: str | None = None
        self._language_checked = not (options.use_stemmer and options.language is None)
        self._pair_specs = self._compiled_pair_specs()
        self._fmeasure = options.fmeasure.compiled_form

    @property
    def signature(self) -> str:
        """Every setting that changes a score, with the names of the data sources loaded."""
        if self._signature is None:
            synonyms_name = self.synonyms.name if self.synonyms is not None else None
            self._signature = self.options.signature(synonyms_name, self._tagger_name)
        return self._signature

    @property
    def flat(self) -> bool:
        """Whether the compiled kernels count and reduce every measure without NumPy."""
        options = self.options
        return counts_flat(options.rouge_types, self.pipeline) and reduces_flat(
            options.multi_ref, options.rouge155
        )

    def _compiled_pair_specs(self) -> list[tuple] | None:
        """The packed kernel specs of :meth:`score_pair`'s direct path, or None where a pair
        takes the general path (stemming without the compiled remap, NumPy measures...)."""
        pipeline, measures = self.pipeline, self.options.rouge_types
        by_sentence = any(measure.uses_sentences for measure in measures)
        if (
            not self.flat
            or not pipeline.tokenizer.native_when
            or pipeline.limit_text is not None
            or (by_sentence and not (pipeline.split_sentences.by_lines and pipeline.sentence_safe))
        ):
            return None
        return [measure.kernel_spec().packed() for measure in self.options.rouge_types]

    def check_language(self, batch: Batch) -> None:
        """The English stemmer on text that is clearly not English: say which option fixes it
        (once per plan, on the first references it scores)."""
        if self._language_checked:
            return
        self._language_checked = True
        from .text.languages import non_english_evidence

        evidence = non_english_evidence(batch.reference_texts)
        if evidence:
            warn_once(
                f"use_stemmer=True stems with the English Porter stemmer, but the references "
                f"are not English ({evidence}): pass language=<ISO 639-1 code> to stem, "
                "tokenize and split sentences in their language"
            )

    def score_rows(self, batch: Batch, first_row: int = 0) -> dict[str, Table]:
        """Per-row scores of ``batch`` (rows ``first_row ..`` of the input), in chunks of at
        most ``CHUNK_ROWS`` rows, on ``options.num_proc`` threads; warns once about texts
        without tokens.

        Chunks are independent; on several threads they score in parallel because the compiled
        kernels release the GIL.
        """
        num_proc = self.options.num_proc
        workers = default_workers() if num_proc is None else num_proc
        size = _chunk_rows(len(batch), workers)
        score = self._score_chunk_flat if self.flat else self._score_chunk

        def score_chunk(start: int) -> tuple[dict[str, Table], list[str]]:
            return score(batch.rows(start, start + size), first_row + start)

        results = map_in_workers(score_chunk, range(0, len(batch), size), workers)
        warn_wordless([place for _, places in results for place in places], self.options.tokenizer)
        if len(results) == 1:
            return results[0][0]
        return {name: join_tables([scores[name] for scores, _ in results]) for name in self.names}

    def score_pair(self, prediction: str, reference: str) -> dict[str, Table]:
        """The scores of one prediction against one reference (two str)."""
        tables = self.pair_tables(prediction, reference)
        if tables is None:
            return self.score_rows(Batch.one_reference_each([prediction], [reference]))
        return dict(zip(self.names, tables, strict=True))

    def pair_tables(self, prediction: str, reference: str) -> list[bytearray] | None:
        """The one-row table of each measure for one pair, with the kernels called directly
        (none of the bookkeeping of many rows); None for a pair that takes the general path: a
        text the compiled tokenizer does not read, or one without tokens (the general path
        warns about it when it has words)."""
        specs = self._pair_specs
        if specs is None:
            return None
        native_when = self.pipeline.tokenizer.native_when
        if not (prediction.isascii() or native_when(prediction)) or not (
            reference.isascii() or native_when(reference)
        ):
            return None
        if not self._language_checked:
            self.check_language(Batch.one_reference_each([prediction], [reference]))
        vocabulary = Vocabulary()
        ids, sentences, documents = vocabulary.encode((prediction, reference), True, None)
        if documents[8:16] in (documents[:8], documents[16:]):  # a text without tokens
            return None
        vocab_size = len(vocabulary)
        stem = self.pipeline.stem
        if stem is not None:
            table, vocab_size = _stemmers.number_stems(list(map(stem, vocabulary.words())))
            ids = _stemmers.remap_ids(ids, table)
        counts = count_pairs_buffers(ids, sentences, documents, *_PAIR_DOCS, specs, vocab_size)
        return _per_row_scores(counts, len(specs), None, 1, *self._fmeasure)

    def _score_chunk_flat(
        self, batch: Batch, first_row: int
    ) -> tuple[dict[str, bytearray], list[str]]:
        """:meth:`_score_chunk` without NumPy, for the measures, pipeline and reduction of
        references that the compiled code covers (the common case): per-row tables as
        bytearrays."""
        texts = batch.texts
        place = batch.text_place(first_row)
        single = len(texts) == 2 * len(batch)  # one reference per row
        pair_rows = batch.pair_rows()
        measures = self.options.rouge_types
        counts, tokenless = count_texts_flat(
            measures, texts, pair_rows, self.pipeline, describe=place
        )
        tables = reduce_flat(
            counts, len(measures), None if single else pair_rows, len(batch), self.options.fmeasure
        )
        scores = dict(zip(self.names, tables, strict=True))
        return scores, wordless_places(texts, place, tokenless)

    def _score_chunk(self, batch: Batch, first_row: int) -> tuple[dict[str, np.ndarray], list[str]]:
        """Per-row scores of one chunk, and where its texts without tokens are."""
        import numpy as np

        options = self.options
        n_rows = len(batch)
        texts = batch.texts
        owner = batch.pair_owner
        place = batch.text_place(first_row)
        counts, tokenless = count_texts(
            options.rouge_types,
            texts,
            owner,
            np.arange(n_rows, n_rows + len(owner), dtype=np.int64),
            self.pipeline,
            synonyms=self.synonyms,
            topic_words=self.topic_words,
            describe=place,
        )
        scores = {
            measure.name: reduce_references(
                options.multi_ref,
                counts[measure],
                owner,
                n_rows,
                measure,
                options.fmeasure,
                round5_values=options.rouge155,
            )
            for measure in options.rouge_types
        }
        return scores, wordless_places(texts, place, tokenless)


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


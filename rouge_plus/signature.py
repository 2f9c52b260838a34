"""The reproducibility signature: every setting that can change a score, and the version.

Like sacrebleu's, it lets a number in a paper be reproduced:
``rouge_plus|types:rouge1,rougeL|tok:default|...``. It reads the options and what the plan
resolved from them (a language's segmenter, stemmer and stopword list), and names data sources
without loading them; a plan that has loaded them passes their names, so a user's file is read
only once. Each kind of measure adds its own piece (``MeasureKind.signature``).
"""

from __future__ import annotations

from ._version import __version__

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .options import ScoreOptions


def signature(
    options: ScoreOptions,
    segmenter: str | None,
    stemmer: str | None,
    stopwords_code: str | None,
    synonyms_name: str | None = None,
    tagger_name: str | None = None,
) -> str:
    """The signature of ``options``, with the language's ``segmenter``, the ``stemmer``'s name
    and the stopwords-iso ``stopwords_code`` the plan resolved (see
    :func:`rouge_plus.plan.resolve_language`)."""
    parts = [
        "rouge_plus",
        f"types:{','.join(options.type_names)}",
        f"tok:{_spec_name('tok', options.tokenizer)}",
        f"stem:{_stemmer_label(stemmer)}",
        f"stop:{_stopwords_label(options.remove_stopwords, stopwords_code)}",
        f"sent:{_spec_name('sent', options.split_sentences)}",
        f"multiref:{options.multi_ref}",
        f"f:{options.fmeasure.label}",
        f"profile:{options.profile}",
        f"agg:{options.aggregation}",
    ]
    if options.language is not None:
        parts.append(f"lang:{_language_label(options.language, segmenter)}")
    if options.needs_synonyms:
        from .rouge2.synonyms import synonyms_label

        parts.append(f"syn:{synonyms_name or synonyms_label(options.synonyms)}")
    for kind in dict.fromkeys(measure.declared_kind for measure in options.rouge_types):
        if kind.signature is not None:
            parts.append(kind.signature(options, _tagger_label(options.pos_tagger, tagger_name)))
    if options.max_words or options.max_bytes:
        parts.append(f"limit:{options.max_words or '-'}w,{options.max_bytes or '-'}b")
    if options.aggregation == "bootstrap":
        parts.append(f"ci:{options.confidence_level:g},n:{options.n_resamples},seed:{options.seed}")
    parts.append(f"version:{__version__}")
    return "|".join(parts)


def _spec_name(kind: str, spec: object) -> str:
    """A stable label for a tokenizer/splitter given by name or as a callable."""
    if isinstance(spec, str):
        return spec
    name = getattr(spec, "name", None)
    if isinstance(name, str):
        return name
    target = getattr(spec, "tokenize", spec) if kind == "tok" else spec
    return f"custom:{getattr(target, '__qualname__', type(target).__qualname__)}"


def _tagger_label(pos_tagger: object, tagger_name: str | None) -> str:
    """The part-of-speech tagger's name, for the kinds that read topic words."""
    if pos_tagger == "pretagged":
        return "pretagged"
    if tagger_name is not None:
        return tagger_name
    from .rouge2.pos import tagger_label

    return tagger_label(pos_tagger)


def _stemmer_label(name: str | None) -> str:
    if name is None:
        return "no"
    if name.startswith("snowball:"):
        from .text.languages import STEM_PACKAGE, package_version

        return f"{name.replace(':', '-')}({STEM_PACKAGE}-{package_version(STEM_PACKAGE)})"
    return name


def _stopwords_label(spec: object, code: str | None) -> str:
    """The stopword list: a language's stopwords-iso list (``code``), or what
    ``remove_stopwords`` names (a list or a file by a hash of its words)."""
    if code is not None:
        from .text.languages import STOPWORDS_PACKAGE, package_version

        return f"iso-{code}({STOPWORDS_PACKAGE}-{package_version(STOPWORDS_PACKAGE)})"
    if spec is None or spec is False:
        return "no"
    if spec is True:
        return "english"
    if isinstance(spec, str) and spec.lower() == "smart":
        return "smart"
    import hashlib  # only for files and lists: they cost milliseconds to import
    from pathlib import Path

    if isinstance(spec, (str, Path)):
        return f"file:{hashlib.sha1(Path(spec).read_bytes()).hexdigest()[:12]}"
    words = "\n".join(sorted(map(str, spec)))  # type: ignore[call-overload]
    return f"list:{hashlib.sha1(words.encode('utf-8', 'surrogatepass')).hexdigest()[:12]}"


def _language_label(language: str, segmenter: str | None) -> str:
    """The language, and its segmenter with the versions of its packages."""
    if segmenter is None:
        return language
    from .text.segmenters import SEGMENTERS

    spec = SEGMENTERS[segmenter]
    return f"{language},seg:{spec.label}({spec.version_label})"

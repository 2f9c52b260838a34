"""``explain_pair``: the explainer of rouge_plus.space.explain with options given by keyword, as
the tests name them (the Space itself explains with a plan)."""

from __future__ import annotations

from rouge_plus.plan import get_stemmer
from rouge_plus.rouge2.synonyms import Synonyms
from rouge_plus.space.explain import PairExplanation, explain_tokens
from rouge_plus.text.protocols import Tokenizer
from rouge_plus.text.stopwords import StopwordSpec, resolve_stopwords


def explain_pair(
    prediction: str,
    reference: str,
    *,
    tokenizer: str | Tokenizer = "default",
    use_stemmer: bool = False,
    ngram_n: int = 1,
    stemmer: str = "porter",
    remove_stopwords: StopwordSpec = None,
    synonyms: Synonyms | None = None,
) -> PairExplanation:
    """Every token of ``prediction`` and ``reference`` labelled with its match kind;
    ``remove_stopwords`` as in ``rouge_plus.score``, ``stemmer`` applied when ``use_stemmer``."""
    stopwords = resolve_stopwords(remove_stopwords) or frozenset()
    stem = get_stemmer(stemmer) if use_stemmer else None
    return explain_tokens(prediction, reference, tokenizer, stopwords, stem, ngram_n, synonyms)

"""ROUGE 2.0's N+Synonyms counts: n-grams match when every position is the same word or a
synonym, and the hit is a maximum one-to-one matching between the two texts' n-grams.

:func:`synonym_counts` is what :func:`~rouge_plus.scoring.counting.count_measures` calls for a
measure with synonyms; the module is imported only then. Where a synonym source's keys are exact
(WordNet synsets), ``_synonyms.c`` matches most pairs; the pairs it leaves, and every pair of a
source without exact keys, are matched here.
"""

from __future__ import annotations

import functools
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Sequence

from .._compiled import compiled
from ..kernels.native import count_pairs
from ..kernels.spec import int_list

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType

    import numpy as np

    from ..kernels.native import Buffer
    from ..text.encoding import Encoded
    from .protocols import SynonymMatcher


@functools.cache
def _compiled_synonyms() -> ModuleType | None:
    """The synonym matching of unigrams, compiled (_synonyms.c), loaded by the first call that
    matches synonyms; None without the extension."""
    return compiled("scoring._synonyms")


def _token_relation(
    encoded: Encoded, synonyms: SynonymMatcher
) -> tuple[Callable[[int, int], bool], dict[int, frozenset]]:
    """Whether two token ids are synonyms (equal ids are handled by the caller), and each id's
    keys: two ids can only be synonyms when their keys meet."""
    # The words of each id, looked up when needed: a list per word, built on every call, would
    # cost a garbage collection or two.
    id_words = None if encoded.word_ids is None else encoded.id_words()
    if id_words is None:  # one word per id
        keys_many = getattr(synonyms, "keys_many", None)
        words = encoded.words
        found = keys_many(words) if keys_many else map(synonyms.keys, words)
        keys = dict(enumerate(found))
    else:
        keys = {
            token: frozenset().union(*map(synonyms.keys, words))
            for token, words in id_words.items()
        }

    def words_of(token: int) -> Sequence[str]:
        return (encoded.words[token],) if id_words is None else id_words[token]

    @functools.cache
    def related(a: int, b: int) -> bool:
        if keys[a].isdisjoint(keys[b]):
            return False
        if synonyms.exact_keys:
            return True
        return any(synonyms.match(x, y) for x in words_of(a) for y in words_of(b))

    return related, keys


def _neighbours(
    related: Callable[[int, int], bool], keys: dict[int, frozenset], exact_keys: bool
) -> dict[int, frozenset[int]]:
    """For each id, the other ids it relates to (ids without any are left out). The
    pure-Python twin of ``_synonyms.neighbour_table``."""
    holders = defaultdict(list)  # key -> the ids that have it
    for token, token_keys in keys.items():
        for key in token_keys:
            holders[key].append(token)
    sharing = defaultdict(set)  # id -> the ids it shares a key with, itself included
    for group in holders.values():
        if len(group) > 1:
            for token in group:
                sharing[token].update(group)
    neighbours = {}
    for token, others in sharing.items():
        others.discard(token)
        if not exact_keys:
            others = {other for other in others if related(token, other)}
        if others:
            neighbours[token] = frozenset(others)
    return neighbours


def _interchangeable(
    tokens: frozenset[int], neighbours: dict[int, frozenset[int]]
) -> tuple[dict[int, int], dict[int, frozenset[int]]]:
    """A representative for each of ``tokens``, and the representatives each one matches.

    Tokens that are equal or related to exactly the same tokens can replace one another in any
    n-gram without changing what it matches, so n-grams that differ only by such tokens are one
    kind of unit: three words that are all synonyms of one another ("big", "large", "great")
    become one token, and 2,000 occurrences of them one kind of n-gram however they are
    arranged.
    """
    representative: dict[int, int] = {}
    group_of: dict[int, frozenset[int]] = {}
    by_group: dict[frozenset[int], int] = {}
    for token in sorted(tokens):
        group = (neighbours.get(token, frozenset()) & tokens).union((token,))
        representative[token] = by_group.setdefault(group, token)
        group_of[representative[token]] = group
    matches = {
        token: frozenset(representative[other] for other in group)
        for token, group in group_of.items()
    }
    return representative, matches


def synonym_counts(
    n: int, encoded: Encoded, pred_docs: Buffer, ref_docs: Buffer, synonyms: SynonymMatcher
) -> np.ndarray:
    """``(3, n_pairs)``: hit, pred_base and ref_base. Units are n-grams; two match when every
    position is the same word or synonyms, and the hit is a maximum one-to-one matching between
    the two texts' n-gram occurrences.

    N-grams whose words' synonyms are meeting keys are matched in C first (see
    :func:`_compiled_counts`); the pairs it leaves, and all pairs otherwise, by
    :func:`~rouge_plus.kernels.matching.maximum_matching` here.
    """
    import numpy as np

    from ..kernels.matching import maximum_matching

    related, keys = _token_relation(encoded, synonyms)
    pred_list, ref_list = pred_docs.tolist(), ref_docs.tolist()
    if synonyms.exact_keys and _compiled_synonyms() is not None:
        out, pairs, neighbours_of = _compiled_counts(n, encoded, pred_docs, ref_docs, keys)
        if not pairs:
            return out
        documents = {doc for k in pairs for doc in (pred_list[k], ref_list[k])}
        tokens = frozenset(t for doc in documents for t in _ids_of(encoded, doc))
        neighbours = {t: neighbours_of(t) for t in tokens}
    else:
        out = np.zeros((3, len(pred_docs)))
        pairs = range(len(pred_docs))
        tokens = frozenset(int_list(encoded.ids, "i"))
        neighbours = _neighbours(related, keys, synonyms.exact_keys)
    representative, matches = _interchangeable(tokens, neighbours)

    def compatible(a: tuple, b: tuple) -> bool:
        return all(y in matches[x] for x, y in zip(a, b, strict=True))

    @functools.cache
    def grams(doc: int) -> Counter:
        kinds = [representative[t] for t in _ids_of(encoded, doc)]
        return Counter(zip(*(kinds[i:] for i in range(n)), strict=False))

    for k in pairs:
        pred, ref = grams(pred_list[k]), grams(ref_list[k])
        by_first = defaultdict(list)  # reference n-grams by their first token
        for gram in ref:
            by_first[gram[0]].append(gram)

        def candidates(gram: tuple, index: dict = by_first) -> Iterator[tuple]:
            for first in matches[gram[0]]:
                yield from index.get(first, ())

        out[:, k] = (maximum_matching(pred, ref, compatible, candidates), pred.total(), ref.total())
    return out


def _ids_of(encoded: Encoded, document: int) -> list[int]:
    """The token ids of one document."""
    ids, sentences, documents = encoded.arrays()
    start, end = documents[document : document + 2]
    return ids[sentences[start] : sentences[end]].tolist()


def _compiled_counts(
    n: int, encoded: Encoded, pred_docs: Buffer, ref_docs: Buffer, keys: dict[int, frozenset]
) -> tuple[np.ndarray, list[int], Callable[[int], frozenset[int]]]:
    """N-gram synonym counts ``(3, n_pairs)`` from ``_synonyms.c``: the exact overlap, plus,
    per connected component of the matching graph (over the pair's kinds of n-gram) that has a
    synonym edge, a greedy matching that reaches the smaller total (hence is maximum). Also the
    pairs where it falls short, whose hits the caller computes again, and each id's synonyms
    (the compiled twin of :func:`_neighbours`)."""
    import numpy as np

    from ..kernels.spec import Kernel, KernelSpec

    exact = count_pairs(
        encoded.ids,
        encoded.sentences,
        encoded.documents,
        pred_docs,
        ref_docs,
        [KernelSpec(Kernel.NGRAM, n=n)],
        encoded.vocab_size,
    )
    out = np.frombuffer(exact, dtype=np.float64).reshape(3, len(pred_docs)).copy()
    at, ids = _compiled_synonyms().neighbour_table([keys[t] for t in range(encoded.vocab_size)])
    at, ids = np.frombuffer(at, dtype=np.int64), np.frombuffer(ids, dtype=np.int32)
    if not len(ids):
        return out, [], lambda token: frozenset()
    gains, pairs = _compiled_synonyms().synonym_gains(
        encoded.ids,
        encoded.sentences,
        encoded.documents,
        pred_docs,
        ref_docs,
        at,
        ids,
        encoded.vocab_size,
        n,
    )
    out[0] += np.frombuffer(gains, dtype=np.int64)
    return out, pairs, lambda token: frozenset(ids[at[token] : at[token + 1]].tolist())

"""The compiled synonym matching of n-grams (``_synonyms.c``)."""

from collections.abc import Hashable, Iterable, Sequence

from _typeshed import ReadableBuffer

def neighbour_table(keys: Sequence[Iterable[Hashable]], /) -> tuple[bytes, bytes]: ...
def synonym_gains(
    ids: ReadableBuffer,
    sentences: ReadableBuffer,
    documents: ReadableBuffer,
    pred_docs: ReadableBuffer,
    ref_docs: ReadableBuffer,
    neighbour_at: ReadableBuffer,
    neighbours: ReadableBuffer,
    vocab_size: int,
    n: int,
    /,
) -> tuple[bytearray, list[int]]: ...

"""The compiled kernels (``_native.c`` and its files): the vocabulary that encodes texts to
token ids, the counting of every pair, and the one-pair scorer. Buffers are C-contiguous:
int32 token ids, int64 offsets and document indices."""

from collections.abc import Callable, Sequence

from _typeshed import ReadableBuffer

KIND_NGRAM: int
KIND_LCS: int
KIND_SUMMARY_LCS: int
KIND_WEIGHTED_LCS: int
KIND_SKIP_BIGRAM: int

class Vocabulary:
    """Words to dense int32 ids, for one scoring call."""

    @property
    def probes(self) -> int: ...
    @property
    def lookups(self) -> int: ...
    @property
    def siphash(self) -> int: ...
    def __init__(self) -> None: ...
    def __len__(self) -> int: ...
    def encode(
        self,
        items: Sequence[str | list[list[str]]],
        split_newlines: bool,
        prepare: Callable[[int, str], str | list[list[str]]] | None = None,
        /,
    ) -> tuple[bytes, bytes, bytes]: ...
    def words(self) -> list[str]: ...

class PairScorer:
    """One pair per call, from two str to precision, recall and F of each measure."""

    def __init__(
        self,
        measures: Sequence[tuple[int, int, float]],  # (kind, n, x), as count_pairs takes them
        f_kind: int,
        c1: float,
        c2: float,
        stem: Callable[[str], str] | None = None,
    ) -> None: ...
    def score(self, prediction: str, reference: str, /) -> list[float] | None: ...

def count_pairs(
    ids: ReadableBuffer,
    sentences: ReadableBuffer,
    documents: ReadableBuffer,
    pred_docs: ReadableBuffer,
    ref_docs: ReadableBuffer,
    measures: Sequence[tuple[int, int, float]],
    vocab_size: int,
    /,
) -> bytes: ...
def _set_table_budget(nbytes: int, /) -> int: ...
def _weaken_hash(flag: object, /) -> None: ...

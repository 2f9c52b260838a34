"""The compiled global-level coefficients under many resamples at once (``_global_level.c``)."""

from _typeshed import ReadableBuffer, WriteableBuffer

EXACT_LIMIT: int

def coefficients(
    method: int,
    cells: ReadableBuffer,
    values: ReadableBuffer,
    a: ReadableBuffer,
    b: ReadableBuffer,
    m: int,
    n: int,
    ranks: int,
    out: WriteableBuffer,
    /,
) -> None: ...

"""The compiled per-row scores and column means (``_scores.c``), without NumPy."""

from _typeshed import ReadableBuffer

def per_row_scores(
    counts: ReadableBuffer,
    n_measures: int,
    pair_rows: ReadableBuffer | None,
    n_rows: int,
    f_kind: int,
    c1: float,
    c2: float,
    /,
) -> list[bytearray]: ...
def column_means(table: ReadableBuffer, /) -> tuple[float, float, float]: ...

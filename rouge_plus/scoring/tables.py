"""The per-row score table: precision, recall and F of each row in one float64 buffer.

The compiled reduction (``_scores.c``) writes a table as a bytearray and the NumPy reduction as
an array; both are buffers of ``(n, 3)`` float64 rows, so a :class:`ScoreTable` reads either the
same way. Its columns, column means and joins need no NumPy; :meth:`ScoreTable.array` gives the
NumPy view when a caller wants one.
"""

from __future__ import annotations

from collections.abc import Sequence

from .._compiled import compiled

TYPE_CHECKING = False
if TYPE_CHECKING:
    import numpy as np

# Column means of a row-major table, compiled (scoring/_scores.c); None without the extension.
_compiled = compiled("scoring._scores")
_column_means = _compiled and _compiled.column_means

_ROW_BYTES = 3 * 8


class ScoreTable:
    """``(n, 3)`` float64 rows of precision, recall and F, held in a C-contiguous buffer."""

    __slots__ = ("buffer",)

    def __init__(self, buffer: bytes | bytearray | np.ndarray) -> None:
        self.buffer = buffer

    @classmethod
    def of(cls, values: object) -> ScoreTable:
        """The table of float64 rows given as bytes or a bytearray (as the compiled reduction
        writes them), or of an ``(n, 3)`` array-like (copied only when it is not C-ordered
        float64)."""
        if type(values) in (bytes, bytearray):
            return cls(values)
        import numpy as np

        return cls(np.ascontiguousarray(np.reshape(values, (-1, 3)), dtype=np.float64))

    @classmethod
    def join(cls, tables: Sequence[ScoreTable]) -> ScoreTable:
        """The rows of ``tables`` in order, in one table."""
        return cls(bytearray().join(table.buffer for table in tables))

    def __len__(self) -> int:
        return memoryview(self.buffer).nbytes // _ROW_BYTES

    def _values(self) -> memoryview:
        return memoryview(self.buffer).cast("B").cast("d")

    def array(self) -> np.ndarray:
        """The rows as an ``(n, 3)`` NumPy array sharing the buffer's memory."""
        import numpy as np

        return np.frombuffer(self.buffer, dtype=np.float64).reshape(-1, 3)

    def column(self, i: int) -> list[float]:
        """Column ``i`` (0 precision, 1 recall, 2 F) as Python floats."""
        return self._values()[i::3].tolist()

    def means(self) -> tuple[float, float, float]:
        """The mean of each column, summed row by row from the first, as NumPy's
        ``mean(axis=0)`` sums a C-ordered array (NaN for a table without rows)."""
        if not len(self):
            return (float("nan"),) * 3
        if _column_means is not None:
            return _column_means(self.buffer)
        values = self._values()
        sums = [0.0, 0.0, 0.0]
        for row in range(0, len(values), 3):
            for column in range(3):
                sums[column] += values[row + column]
        n = len(values) // 3
        return sums[0] / n, sums[1] / n, sums[2] / n

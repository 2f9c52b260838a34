"""Reading texts and names the way rouge_score does on Python 3 (through ``six.ensure_str``)."""

from __future__ import annotations

from ...errors import InputTypeError


def ensure_str(value: object) -> str:
    """A str as is, bytes decoded as UTF-8, anything else a ``TypeError`` (``six.ensure_str``)."""
    if isinstance(value, str):
        return value
    if isinstance(value, bytes):
        return value.decode("utf-8")
    raise InputTypeError(f"not expecting type '{type(value)}'")

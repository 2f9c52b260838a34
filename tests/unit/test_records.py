"""The records of the scoring path (rouge_plus._records) behave as the standard library's they
stand in for: a ``NamedTuple`` subclass as ``typing.NamedTuple``'s, a ``record`` as a frozen
dataclass (construction, defaults, ``__post_init__``, equality, hash, repr, immutability,
``fields`` and ``replace``)."""

from __future__ import annotations

import dataclasses
import pickle
import typing

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rouge_plus._records import FrozenRecordError, NamedTuple, field, fields, record, replace
from rouge_plus.errors import RecordError


class Ours(NamedTuple):
    """A record."""

    name: str
    size: int = 3
    tags: tuple[str, ...] = ()
    constant = "kept"

    def doubled(self) -> int:
        return 2 * self.size


class Theirs(typing.NamedTuple):
    """A record."""

    name: str
    size: int = 3
    tags: tuple[str, ...] = ()
    constant = "kept"

    def doubled(self) -> int:
        return 2 * self.size


names = st.text(max_size=5)
sizes = st.integers(-5, 5)
tags = st.lists(names, max_size=3).map(tuple)


@given(names, sizes, tags)
def test_named_tuple_is_typing_named_tuple(name, size, tag_values):
    ours, theirs = Ours(name, size, tags=tag_values), Theirs(name, size, tags=tag_values)
    assert tuple(ours) == tuple(theirs) and ours == theirs and hash(ours) == hash(theirs)
    assert repr(ours) == repr(theirs).replace("Theirs", "Ours")
    assert ours._replace(size=size + 1) == theirs._replace(size=size + 1)
    assert ours.doubled() == theirs.doubled() and ours.constant == theirs.constant
    assert Ours(name) == Theirs(name)
    assert pickle.loads(pickle.dumps(ours)) == ours


@given(
    st.lists(st.one_of(names, sizes), max_size=4),
    st.dictionaries(st.sampled_from(["name", "size", "tags", "other"]), sizes, max_size=3),
)
def test_named_tuple_builds_and_fails_as_typing_named_tuple(args, kwargs):
    outcomes = []
    for cls in (Ours, Theirs):
        try:
            made = cls(*args, **kwargs)
            outcomes.append((tuple(made), made._asdict(), cls._make(made) == made))
        except TypeError:
            outcomes.append(TypeError)
    assert outcomes[0] == outcomes[1]


def test_named_tuple_class_is_typing_named_tuple_class():
    assert Ours._fields == Theirs._fields
    assert Ours._field_defaults == Theirs._field_defaults
    assert Ours.__doc__ == Theirs.__doc__ and Ours.__module__ == Theirs.__module__
    assert Ours.__qualname__ == "Ours" and issubclass(Ours, tuple)
    assert Ours.__match_args__ == Theirs.__match_args__

    class Bare(NamedTuple):
        first: int

    class TypingBare(typing.NamedTuple):
        first: int

    assert Bare.__doc__ == TypingBare.__doc__.replace("TypingBare", "Bare")


def test_named_tuple_rejects_a_field_without_default_after_one_with():
    with pytest.raises(TypeError, match="without a default follows"):

        class Bad(NamedTuple):
            first: int = 0
            second: int


def _check_positive(self) -> None:
    if self.size < 0:
        raise ValueError(f"size must be >= 0, got {self.size}")


@record
class Mine:
    name: str
    size: int = 3
    tags: list[str] = field(default_factory=list, metadata={"help": "labels"})

    __post_init__ = _check_positive


@dataclasses.dataclass(frozen=True)
class Standard:
    name: str
    size: int = 3
    tags: list[str] = dataclasses.field(default_factory=list, metadata={"help": "labels"})

    __post_init__ = _check_positive


def _both(*args, **kwargs) -> tuple[object, object]:
    """``Mine(...)`` and ``Standard(...)``, or the same error from both."""
    outcomes = []
    for cls in (Mine, Standard):
        try:
            outcomes.append(cls(*args, **kwargs))
        except (TypeError, ValueError) as error:
            outcomes.append(type(error))
    return outcomes[0], outcomes[1]


calls = st.tuples(
    st.lists(st.one_of(names, sizes), max_size=4),
    st.dictionaries(st.sampled_from(["name", "size", "tags", "other"]), sizes, max_size=3),
)


@given(calls)
def test_record_builds_and_fails_as_a_frozen_dataclass(call):
    args, kwargs = call
    mine, standard = _both(*args, **kwargs)
    if isinstance(standard, type):
        # The same built-in class, or RecordError, which is both a TypeError and a ValueError.
        assert mine is standard or (mine is RecordError and issubclass(mine, standard))
        return
    assert repr(mine) == repr(standard).replace("Standard", "Mine")
    values = [getattr(standard, f.name) for f in dataclasses.fields(standard)]
    assert [getattr(mine, f.name) for f in fields(mine)] == values


@given(names, st.integers(0, 5), names, st.integers(0, 5))
def test_record_equality_hash_and_replace(name, size, other_name, other_size):
    a, b = Mine(name, size, ()), Mine(other_name, other_size, ())
    assert (a == b) == ((name, size) == (other_name, other_size))
    assert a != Standard(name, size, ()) and a == Mine(name, size, ())
    assert hash(a) == hash(Mine(name, size, ()))
    changed = replace(a, size=other_size)
    assert (changed.name, changed.size) == (name, other_size) and a.size == size
    with pytest.raises(ValueError):
        replace(a, size=-1)  # __post_init__ runs again


def test_record_is_immutable_and_picklable():
    mine = Mine("a")
    with pytest.raises(FrozenRecordError):
        mine.size = 4
    with pytest.raises(AttributeError):
        del mine.name
    assert pickle.loads(pickle.dumps(mine)) == mine
    assert Mine("a").tags == [] and Mine("a").tags is not Mine("a").tags


def test_record_fields_and_their_metadata():
    assert [f.name for f in fields(Mine)] == ["name", "size", "tags"]
    assert fields(Mine)[2].metadata == {"help": "labels"} and fields(Mine("a")) == fields(Mine)
    assert "size" not in Mine.__dict__  # defaults live in the fields, not on the class

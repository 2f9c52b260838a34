"""Immutable records for the modules every scoring call imports, without ``typing`` or
``dataclasses``.

``typing`` costs a short script a few milliseconds of CPU, and ``dataclasses`` (which imports
``inspect``, ``ast``, ``dis`` and ``tokenize``) three times as much: together more than scoring
a hundred pairs. So the records of the scoring path are declared as they would be with those
modules, and built here:

- :class:`NamedTuple`: what ``typing.NamedTuple`` builds, the tuple class of the annotated
  names with their defaults and the body's methods and constants (as ``collections.namedtuple``
  makes it, without compiling code for each class). A type checker
  reads ``typing.NamedTuple`` instead::

      TYPE_CHECKING = False  # type checkers take any name TYPE_CHECKING as true
      if TYPE_CHECKING:
          from typing import NamedTuple
      else:
          from .._records import NamedTuple

- :func:`record`: what ``@dataclass(frozen=True)`` makes of a class (``__init__`` with the
  defaults, ``__post_init__``, ``__eq__``, ``__hash__``, ``__repr__``, no assignment), with
  :func:`field` (a default factory, metadata), :func:`fields` and :func:`replace`.

It imports nothing of rouge_plus but its errors.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from operator import itemgetter

from ..errors import RecordError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TypeVar

    from typing_extensions import dataclass_transform

    Class = TypeVar("Class", bound=type)
    Record = TypeVar("Record")
else:

    def dataclass_transform(**_: object) -> Callable[[Callable], Callable]:
        """Tells type checkers that :func:`record` makes dataclasses; nothing at run time."""
        return lambda function: function


# What the class statement puts in a namespace that is not the record's own.
_NOT_COPIED = frozenset({"__module__", "__qualname__", "__annotations__"})


class _NamedTupleMeta(type):
    def __new__(mcls, name: str, bases: tuple[type, ...], namespace: dict[str, object]) -> type:
        if not bases:  # NamedTuple itself
            return super().__new__(mcls, name, bases, namespace)
        names = tuple(namespace.get("__annotations__", {}))
        defaults = {n: namespace[n] for n in names if n in namespace}
        if any(n not in defaults for n in names[len(names) - len(defaults) :]):
            raise RecordError(f"{name}: a field without a default follows one with a default")
        own = {k: v for k, v in namespace.items() if k not in _NOT_COPIED and k not in names}
        # The class collections.namedtuple would build, without its eval (a tenth of the cost).
        members = {
            "__doc__": f"{name}({repr(names).replace(chr(39), '')[1:-1]})",
            **own,
            "__module__": namespace["__module__"],
            "__qualname__": namespace["__qualname__"],
            "__slots__": (),
            "__match_args__": names,
            "_fields": names,
            "_field_defaults": defaults,
            "__new__": _tuple_new,
            "_make": classmethod(_make),
            "_replace": _replace,
            "_asdict": _asdict,
            "__repr__": _tuple_repr,
            "__getnewargs__": _getnewargs,
        }
        for index, field_name in enumerate(names):
            members[field_name] = property(itemgetter(index), doc=f"Alias for field {index}")
        return type(name, (tuple,), members)


def _tuple_new(cls: type, *args: object, **kwargs: object) -> tuple:
    names = cls._fields  # type: ignore[attr-defined]
    if len(args) > len(names):
        raise RecordError(f"{cls.__name__}() takes {len(names)} arguments, {len(args)} given")
    values = dict(zip(names[: len(args)], args, strict=True))
    for key, value in kwargs.items():
        if key in values or key not in names:
            problem = "multiple values for" if key in values else "an unexpected"
            raise RecordError(f"{cls.__name__}() got {problem} argument {key!r}")
        values[key] = value
    defaults = cls._field_defaults  # type: ignore[attr-defined]
    missing = [n for n in names if n not in values and n not in defaults]
    if missing:
        raise RecordError(f"{cls.__name__}() missing required arguments: {missing}")
    return tuple.__new__(cls, [values[n] if n in values else defaults[n] for n in names])


def _make(cls: type, iterable: object) -> tuple:
    made = tuple.__new__(cls, iterable)
    if len(made) != len(cls._fields):  # type: ignore[attr-defined]
        raise RecordError(f"Expected {len(cls._fields)} arguments, got {len(made)}")  # type: ignore[attr-defined]
    return made


def _replace(self: tuple, **changes: object) -> tuple:
    made = self._make(map(changes.pop, self._fields, self))  # type: ignore[attr-defined]
    if changes:
        raise RecordError(f"Got unexpected field names: {list(changes)!r}")
    return made


def _asdict(self: tuple) -> dict[str, object]:
    return dict(zip(self._fields, self, strict=True))  # type: ignore[attr-defined]


def _tuple_repr(self: tuple) -> str:
    shown = ", ".join(f"{n}={v!r}" for n, v in zip(self._fields, self, strict=True))  # type: ignore[attr-defined]
    return f"{type(self).__name__}({shown})"


def _getnewargs(self: tuple) -> tuple:
    return tuple(self)


class NamedTuple(metaclass=_NamedTupleMeta):
    """Subclass it as ``typing.NamedTuple`` (the subclass is the tuple class
    ``collections.namedtuple`` would make)."""


class FrozenRecordError(AttributeError):
    """An assignment to a field of a record (as ``dataclasses.FrozenInstanceError``)."""


_MISSING = object()


class Field:
    """One field of a :func:`record`: its name, default or default factory, and metadata."""

    __slots__ = ("default", "default_factory", "metadata", "name")

    def __init__(
        self,
        default: object = _MISSING,
        default_factory: Callable[[], object] | None = None,
        metadata: Mapping[str, object] | None = None,
    ) -> None:
        self.name = ""
        self.default = default
        self.default_factory = default_factory
        self.metadata: Mapping[str, object] = metadata or {}

    def __repr__(self) -> str:
        return f"Field({self.name!r})"


def field(
    *,
    default: object = _MISSING,
    default_factory: Callable[[], object] | None = None,
    metadata: Mapping[str, object] | None = None,
) -> object:
    """A field's default, default factory or metadata, as ``dataclasses.field``."""
    return Field(default, default_factory, metadata)


@dataclass_transform(frozen_default=True, field_specifiers=(field, Field))
def record(cls: Class) -> Class:
    """``cls`` made an immutable record of its annotated names, in order (see the module)."""
    declared: list[Field] = []
    for name in cls.__dict__.get("__annotations__", {}):
        value = cls.__dict__.get(name, _MISSING)
        declared_field = value if isinstance(value, Field) else Field(default=value)
        declared_field.name = name
        if value is not _MISSING:
            delattr(cls, name)  # an instance holds every field; the class keeps no default
        declared.append(declared_field)
    cls.__record_fields__ = tuple(declared)
    cls.__init__ = _init
    cls.__setattr__ = _no_assignment
    cls.__delattr__ = _no_assignment
    cls.__eq__ = _eq
    cls.__hash__ = _hash
    cls.__repr__ = _repr
    return cls


def fields(record_or_type: object) -> tuple[Field, ...]:
    """The fields of a record or record class, in declaration order."""
    return record_or_type.__record_fields__  # type: ignore[attr-defined, no-any-return]


def replace(instance: Record, **changes: object) -> Record:
    """A new record with ``changes`` (checked again by its ``__post_init__``)."""
    values = {f.name: getattr(instance, f.name) for f in fields(instance)}
    return type(instance)(**{**values, **changes})


def _init(self: object, *args: object, **kwargs: object) -> None:
    declared = fields(self)
    kind = type(self).__qualname__
    if len(args) > len(declared):
        raise RecordError(f"{kind}() takes {len(declared)} arguments but {len(args)} were given")
    values = dict(zip([f.name for f in declared[: len(args)]], args, strict=True))
    for name, value in kwargs.items():
        if name in values:
            raise RecordError(f"{kind}() got multiple values for argument {name!r}")
        values[name] = value
    unexpected = set(values).difference(f.name for f in declared)
    if unexpected:
        raise RecordError(f"{kind}() got an unexpected keyword argument {min(unexpected)!r}")
    for declared_field in declared:
        name = declared_field.name
        if name in values:
            value = values[name]
        elif declared_field.default_factory is not None:
            value = declared_field.default_factory()
        elif declared_field.default is not _MISSING:
            value = declared_field.default
        else:
            raise RecordError(f"{kind}() missing required argument: {name!r}")
        object.__setattr__(self, name, value)
    post_init = getattr(self, "__post_init__", None)
    if post_init is not None:
        post_init()


def _values(instance: object) -> tuple[object, ...]:
    return tuple(getattr(instance, f.name) for f in fields(instance))


def _no_assignment(self: object, name: str, *value: object) -> None:
    raise FrozenRecordError(f"cannot assign to field {name!r} of a {type(self).__qualname__}")


def _eq(self: object, other: object) -> bool:
    if other.__class__ is not self.__class__:
        return NotImplemented
    return _values(self) == _values(other)


def _hash(self: object) -> int:
    return hash(_values(self))


def _repr(self: object) -> str:
    shown = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in fields(self))
    return f"{type(self).__qualname__}({shown})"

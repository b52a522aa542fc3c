"""The building blocks of the wire codec: its errors and its field validators.

Each validator checks one wire value and turns it into its Python form (``load``), or
checks a Python value and turns it into its wire form (``dump``). ``codec`` arranges
them into a table per message kind; nothing here knows about any message.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import IntEnum, StrEnum
from typing import NoReturn, Protocol


class ErrorReason(StrEnum):
    """Why a message was refused; the string is the stable code of spec/protocol.md."""

    OVERSIZE = "oversize"
    MALFORMED = "malformed"
    TRAILING_BYTES = "trailing_bytes"
    TOO_DEEP = "too_deep"
    NON_CANONICAL = "non_canonical"
    BAD_VERSION = "bad_version"
    UNKNOWN_KIND = "unknown_kind"
    UNKNOWN_BODY = "unknown_body"
    BAD_LENGTH = "bad_length"
    BAD_FIELD = "bad_field"


class ProtocolError(Exception):
    """A message that breaks the protocol: a peer's, from ``decode``; ours, from ``encode``."""

    def __init__(self, reason: ErrorReason, detail: str = "") -> None:
        super().__init__(f"{reason}: {detail}" if detail else str(reason))
        self.reason = reason
        self.detail = detail


def refuse(reason: ErrorReason, where: str, what: str) -> NoReturn:
    raise ProtocolError(reason, f"{where}: {what}")


def type_name(value: object) -> str:
    return type(value).__name__


# -- field validators: each checks one wire value and turns it into its Python form ---------


class Field(Protocol):
    def load(self, value: object, where: str) -> object: ...
    def dump(self, value: object, where: str) -> object: ...


@dataclass(frozen=True, slots=True)
class Int:
    """An integer in ``low..high``; a bool is not an integer."""

    low: int
    high: int

    def load(self, value: object, where: str) -> int:
        if type(value) is not int:
            refuse(ErrorReason.BAD_FIELD, where, f"an integer, not {type_name(value)}")
        return self._check(value, where)

    def dump(self, value: object, where: str) -> int:
        if not isinstance(value, int) or isinstance(value, bool):
            refuse(ErrorReason.BAD_FIELD, where, f"an integer, not {type_name(value)}")
        return self._check(int(value), where)

    def _check(self, value: int, where: str) -> int:
        if not self.low <= value <= self.high:
            refuse(ErrorReason.BAD_FIELD, where, f"{value} is not in {self.low}..{self.high}")
        return value


@dataclass(frozen=True, slots=True)
class Choice:
    """An integer code of an ``IntEnum``."""

    enum: type[IntEnum]

    def load(self, value: object, where: str) -> object:
        if type(value) is not int:
            refuse(ErrorReason.BAD_FIELD, where, f"an integer, not {type_name(value)}")
        return self.enum(self._check(value, where))

    def dump(self, value: object, where: str) -> object:
        if not isinstance(value, int) or isinstance(value, bool):
            refuse(ErrorReason.BAD_FIELD, where, f"an integer, not {type_name(value)}")
        return self._check(int(value), where)

    def _check(self, value: int, where: str) -> int:
        if value not in set(self.enum):
            refuse(ErrorReason.BAD_FIELD, where, f"{value} is not a {self.enum.__name__}")
        return value


@dataclass(frozen=True, slots=True)
class Flag:
    def load(self, value: object, where: str) -> object:
        if type(value) is not bool:
            refuse(ErrorReason.BAD_FIELD, where, f"a bool, not {type_name(value)}")
        return value

    def dump(self, value: object, where: str) -> object:
        return self.load(value, where)


@dataclass(frozen=True, slots=True)
class Text:
    """A str of ``low..high`` UTF-8 bytes."""

    low: int
    high: int

    def load(self, value: object, where: str) -> object:
        if type(value) is not str:
            refuse(ErrorReason.BAD_FIELD, where, f"a str, not {type_name(value)}")
        return self._check(value, where)

    def dump(self, value: object, where: str) -> object:
        if not isinstance(value, str):
            refuse(ErrorReason.BAD_FIELD, where, f"a str, not {type_name(value)}")
        return self._check(str(value), where)

    def _check(self, value: str, where: str) -> str:
        try:
            size = len(value.encode("utf-8"))
        except UnicodeEncodeError:
            refuse(ErrorReason.BAD_FIELD, where, "not encodable as UTF-8")
        if not self.low <= size <= self.high:
            refuse(ErrorReason.BAD_LENGTH, where, f"{size} bytes, not {self.low}..{self.high}")
        return value


@dataclass(frozen=True, slots=True)
class Blob:
    """A bin whose length is one of ``sizes``."""

    sizes: Sequence[int]

    def load(self, value: object, where: str) -> object:
        if type(value) is not bytes:
            refuse(ErrorReason.BAD_FIELD, where, f"a bin, not {type_name(value)}")
        if len(value) not in self.sizes:
            refuse(ErrorReason.BAD_LENGTH, where, f"{len(value)} bytes, not {self.sizes}")
        return value

    def dump(self, value: object, where: str) -> object:
        return self.load(value, where)


@dataclass(frozen=True, slots=True)
class ListOf:
    """An array of ``low..high`` items, each checked by ``item``; a tuple in Python."""

    item: Field
    low: int
    high: int

    def load(self, value: object, where: str) -> object:
        items = self._items(value, where, list)
        return tuple(self.item.load(v, f"{where}[{i}]") for i, v in enumerate(items))

    def dump(self, value: object, where: str) -> object:
        items = self._items(value, where, (list, tuple))
        return [self.item.dump(v, f"{where}[{i}]") for i, v in enumerate(items)]

    def _items(self, value: object, where: str, types: type | tuple[type, ...]) -> list[object]:
        if not isinstance(value, types) or isinstance(value, str | bytes):
            refuse(ErrorReason.BAD_FIELD, where, f"an array, not {type_name(value)}")
        items: list[object] = list(value)  # type: ignore[call-overload]
        if not self.low <= len(items) <= self.high:
            bounds = f"{self.low}..{self.high}"
            refuse(ErrorReason.BAD_LENGTH, where, f"{len(items)} items, not {bounds}")
        return items


@dataclass(frozen=True, slots=True)
class Maybe:
    """A value of ``inner``, or nil (None in Python): a field that may be absent in the
    middle of a record, before an optional field that is present. A record never ends in
    nil (``Record``), so each record still has one encoding."""

    inner: Field

    def load(self, value: object, where: str) -> object:
        return None if value is None else self.inner.load(value, where)

    def dump(self, value: object, where: str) -> object:
        return None if value is None else self.inner.dump(value, where)


Check = Callable[[object], None]


@dataclass(frozen=True, slots=True)
class Record:
    """A dataclass as an array of its fields in order, then a whole-record ``check``.

    The last ``optional`` fields may be left off the end: absent, each is None (its
    default), and a None is never sent last, so each record still has one encoding: a
    record whose last item is nil is refused. An absent field before a present one is
    sent as nil (a ``Maybe`` field, never the last)."""

    cls: Callable[..., object]
    fields: tuple[tuple[str, Field], ...]
    check: Check | None = None
    optional: int = 0

    def __post_init__(self) -> None:
        if self.fields and isinstance(self.fields[-1][1], Maybe):
            raise TypeError("a record never ends in nil: a Maybe field is never its last")

    def load(self, value: object, where: str) -> object:
        if type(value) is not list:
            refuse(ErrorReason.BAD_FIELD, where, f"an array, not {type_name(value)}")
        return self.load_items(value, where)

    def dump(self, value: object, where: str) -> object:
        return self.dump_items(value, where)

    def load_items(self, items: list[object], where: str) -> object:
        if not len(self.fields) - self.optional <= len(items) <= len(self.fields):
            refuse(ErrorReason.BAD_LENGTH, where, f"{len(items)} items, not {self._lengths}")
        if len(items) > len(self.fields) - self.optional and items[-1] is None:
            refuse(ErrorReason.BAD_FIELD, where, "a record never ends in nil")
        loaded = [f.load(v, f"{where}.{n}") for (n, f), v in zip(self.fields, items, strict=False)]
        return self._checked(self.cls(*loaded))

    def dump_items(self, value: object, where: str) -> list[object]:
        if not isinstance(value, self.cls):  # type: ignore[arg-type]
            refuse(ErrorReason.BAD_FIELD, where, f"a {self._name}, not {type_name(value)}")
        given, least = list(self.fields), len(self.fields) - self.optional
        while len(given) > least and getattr(value, given[-1][0]) is None:
            given.pop()  # an absent optional field is left off the end
        items = [f.dump(getattr(value, n), f"{where}.{n}") for n, f in given]
        self._checked(value)
        return items

    @property
    def _lengths(self) -> str:
        least = len(self.fields) - self.optional
        return str(least) if not self.optional else f"{least}..{len(self.fields)}"

    @property
    def _name(self) -> str:
        return getattr(self.cls, "__name__", "record")

    def _checked(self, value: object) -> object:
        if self.check is not None:
            self.check(value)
        return value

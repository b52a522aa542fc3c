"""The codec's quick path: msgspec checks the wire in C, from the same field tables.

``codec`` describes every message as a table of validators (``codec_fields``) and checks
a message in three passes in Python (parse with a shape walk, load field by field with a
location for each error, encode again for canonical form). Here each table becomes a
msgspec struct type (``wire_type``): msgspec then parses a message straight into it,
checking every type, every int range and every length as it goes, and packs it again
to prove the message canonical. On the way out, the record's values are packed as they
are and the bytes decoded again, so that msgspec checks them the same way. What msgspec
cannot say is checked in Python: a str's size in UTF-8 bytes (msgspec counts
characters), a bin whose sizes are not one span, each record's own rule (the reference
path's ``Record.check``), and, on the way out, the exact types the reference path
insists on where msgspec would pack another (a bytearray for a bin, any object for a
record, a set for an array).

This path only ever *accepts*: whatever it would refuse, or is not sure of, gives
``None``, and the codec runs its reference path, which finds and names the exact reason.
So a message is accepted here only if the reference path accepts it too, with the same
result (tests/protocol/test_codec_quick.py).
"""

from __future__ import annotations

import dataclasses
import functools
import operator
from collections.abc import Callable, Mapping, Sequence
from enum import IntEnum
from operator import attrgetter
from typing import Annotated, Any

import msgspec
from msgspec import Meta
from msgspec.structs import astuple

from .fields import Blob, Choice, Field, Flag, Int, ListOf, Record, Text


class Anything:
    """A field checked apart (an envelope's payload): any value."""

    def load(self, value: object, where: str) -> object:
        return value

    def dump(self, value: object, where: str) -> object:
        return value


def wire_type(field: Field) -> Any:
    """The msgspec type that accepts what ``field`` loads, or a superset of it that
    ``Shape`` narrows (texts measured in bytes, bins of sizes that are not one span)."""
    if isinstance(field, Int):
        return Annotated[int, Meta(ge=field.low, le=field.high)]
    if isinstance(field, Choice):
        return field.enum
    if isinstance(field, Flag):
        return bool
    if isinstance(field, Text):
        # A character takes one to four bytes: at most ``high`` characters is necessary,
        # and at least one character is exactly at least one byte.
        if field.low > 1:
            raise ValueError(f"a Text of at least {field.low} bytes has no msgspec bound")
        return Annotated[str, Meta(min_length=field.low, max_length=field.high)]
    if isinstance(field, Blob):
        sizes = field.sizes
        return Annotated[bytes, Meta(min_length=min(sizes), max_length=max(sizes))]
    if isinstance(field, ListOf):
        item = wire_type(field.item)
        items = _tuple_of(item, ...)
        return Annotated[items, Meta(min_length=field.low, max_length=field.high)]
    if isinstance(field, Record):  # an item of a list: a tuple is quicker to make than a struct
        return _tuple_of(*(wire_type(item) for _name, item in field.fields))
    if isinstance(field, Anything):
        return Any
    raise TypeError(f"no msgspec type for {type(field).__name__}")


def _tuple_of(*items: Any) -> Any:
    """``tuple[*items]``, of types known only when the tables are read."""
    return tuple.__class_getitem__(items)


def struct_type(record: Record, tag: int | None = None, name: str = "") -> Any:
    """An array-like msgspec struct of ``record``'s fields (after ``tag``, if any)."""
    given = record.fields[: len(record.fields) - record.optional]  # the shortest form
    fields = [(field_name, wire_type(field)) for field_name, field in given]
    name = name or f"{getattr(record.cls, '__name__', 'Record')}Wire"
    if tag is None:
        return msgspec.defstruct(name, fields, array_like=True)
    return msgspec.defstruct(name, fields, array_like=True, tag=tag)


def _spans(sizes: Sequence[int]) -> bool:
    """Whether ``sizes`` holds every size from its least to its greatest."""
    return len(set(sizes)) == max(sizes) - min(sizes) + 1


def twin(cls: Any) -> Any:
    """A plain slotted class of the same layout as the frozen, slotted dataclass ``cls``.

    The ``__init__`` of a frozen dataclass sets each field through ``object.__setattr__``,
    several times the cost of a plain store. ``twin(cls)(*values)`` stores them plainly
    and, made a ``cls`` by assignment to ``__class__`` (which Python allows between classes
    of the same layout), is the same object ``cls(*values)`` would be. Only for classes
    whose ``__init__`` does nothing else (no ``__post_init__``).
    """
    names = tuple(field.name for field in dataclasses.fields(cls))
    if hasattr(cls, "__post_init__") or tuple(getattr(cls, "__slots__", ())) != names:
        raise TypeError(f"{cls.__name__} is not a plain frozen slotted dataclass")
    # A field with a default (an optional one, None when absent) keeps it.
    spec = [
        (f.name, Any, dataclasses.field(default=f.default))
        if f.default is not dataclasses.MISSING
        else f.name
        for f in dataclasses.fields(cls)
    ]
    plain = dataclasses.make_dataclass(f"{cls.__name__}Plain", spec, slots=True, eq=False)
    plain(*names).__class__ = cls  # raises TypeError now if the layouts differ
    return plain


class Shape:
    """What is left to check of a record that msgspec checks, and how to make it.

    ``texts``: (index, most bytes) of each str whose UTF-8 size msgspec cannot bound;
    ``sizes``: (index, sizes) of each bin whose sizes are not one span; ``lists``: (index,
    item shape) of each array of records. On the way out every value must be of an exact
    type (``exact``): one of ``allowed`` for each field (``passed``: the combinations
    found so), and each item of an array of scalars one of ``items``. A record with no
    texts, sizes, lists or check of its own is made and sent by the quickest functions
    (``from_values``, ``wire``).
    """

    __slots__ = (
        "absent",
        "allowed",
        "check",
        "cls",
        "from_values",
        "items",
        "lists",
        "measured",
        "passed",
        "plain",
        "record",
        "sizes",
        "texts",
        "values_of",
        "wire",
    )

    def __init__(self, record: Record) -> None:
        fields = [field for _name, field in record.fields]
        names = [name for name, _field in record.fields]
        self.record, self.cls, self.check = record, record.cls, record.check
        # Only a record's shortest form goes this way: its optional fields all absent.
        self.absent = tuple(names[len(names) - record.optional :])
        fields, names = (
            fields[: len(fields) - record.optional],
            names[: len(names) - record.optional],
        )
        self.plain = twin(record.cls)
        self.values_of = _values_of(names)
        self.texts, self.sizes = _text_highs(fields), _fixed_sizes(fields)
        self.lists = tuple((i, Shape(item)) for i, item in _list_items(fields, records=True))
        self.allowed = tuple(_exact_types(field) for field in fields)
        self.passed = {tuple(allowed[0] for allowed in self.allowed)}
        self.items = tuple(
            (i, frozenset(_exact_types(item))) for i, item in _list_items(fields, records=False)
        )
        self.measured = bool(self.texts or self.sizes)
        plain = not (self.measured or self.lists or self.check)
        self.from_values: Callable[[Sequence[Any]], Any] = (
            self._from_plain_values if plain else self._from_values
        )
        self.wire: Callable[[Any], Sequence[Any]] = self._wire_plain if plain else self._wire

    def fits(self, values: Sequence[Any]) -> bool:
        """The checks msgspec does not make, on a record's field values in order."""
        for index, high in self.texts:
            text = values[index]
            if len(text) > high // 4 and len(text.encode()) > high:
                return False
        for index, sizes in self.sizes:  # noqa: SIM110 (a loop is quicker than all())
            if len(values[index]) not in sizes:
                return False
        return True

    def _from_plain_values(self, values: Sequence[Any]) -> Any:
        record = self.plain(*values)
        record.__class__ = self.cls
        return record

    def _from_values(self, values: Sequence[Any]) -> Any:
        """The record of the field values msgspec has checked, in order (of a struct, by
        ``astuple``; an item of a list comes as a tuple); ValueError if it breaks a rule."""
        if self.lists:
            values = list(values)
            for index, item in self.lists:
                values[index] = tuple(map(item.from_values, values[index]))
        if self.measured and not self.fits(values):
            raise ValueError("not within its sizes")
        record = self.plain(*values)
        record.__class__ = self.cls
        if self.check is not None:
            self.check(record)
        return record

    def _wire_plain(self, record: Any) -> Sequence[Any]:
        if type(record) is not self.cls or self._has_optional(record):
            raise ValueError("not exactly the record, in its shortest form")
        values = self.values_of(record)
        if not self.exact(values):
            raise ValueError("not of the exact types")
        return values

    def _wire(self, record: Any) -> Sequence[Any]:
        """The wire array of ``record``, a record to send, for msgspec to pack as it is and
        check; ValueError unless its values are of exact types (``exact``) and it keeps
        the rules msgspec does not check."""
        if type(record) is not self.cls or self._has_optional(record):
            raise ValueError("not exactly the record, in its shortest form")
        values = self.values_of(record)
        if not self.exact(values):
            raise ValueError("not of the exact types")
        if self.lists:
            values = list(values)
            for index, item in self.lists:
                values[index] = [item.wire(each) for each in values[index]]
        if self.check is not None:
            self.check(record)
        return values

    def _has_optional(self, record: Any) -> bool:
        """Whether an optional field of ``record`` is present (the reference path sends it)."""
        return any(getattr(record, name) is not None for name in self.absent)

    def exact(self, values: Sequence[Any]) -> bool:
        """Whether a record's field values to send are of exact types, and fit.

        msgspec packs some values of other types as it packs these (a plain ``Enum``
        member as its value, a ``Decimal`` or ``UUID`` as a str, a bytearray as a bin, a
        set as an array), where the reference path refuses them; of the exact types it
        packs each value as the reference path does, and the decoder then checks it. An
        ``IntEnum`` member counts as an int (the reference path sends its value too). The
        answer depends on the types alone: each combination that passed is remembered.
        """
        types = tuple(map(type, values))
        if types not in self.passed:
            if not all(map(_is_one_of, values, self.allowed)):
                return False
            self.passed.add(types)
        for index, allowed in self.items:
            if not allowed.issuperset(map(type, values[index])):
                return False
        return not self.measured or self.fits(values)


def _text_highs(fields: Sequence[Field]) -> tuple[tuple[int, int], ...]:
    """Each text field's index and its most bytes: msgspec counts characters, not bytes."""
    return tuple((i, f.high) for i, f in enumerate(fields) if isinstance(f, Text))


def _fixed_sizes(fields: Sequence[Field]) -> tuple[tuple[int, frozenset[int]], ...]:
    """Each blob field whose sizes are a few, not a span msgspec checks, and those sizes."""
    return tuple(
        (i, frozenset(f.sizes))
        for i, f in enumerate(fields)
        if isinstance(f, Blob) and not _spans(f.sizes)
    )


def _list_items(fields: Sequence[Field], records: bool) -> list[tuple[int, Any]]:
    """Each list field's index and its item: the lists of records, or those of scalars."""
    return [
        (i, f.item)
        for i, f in enumerate(fields)
        if isinstance(f, ListOf) and isinstance(f.item, Record) == records
    ]


def _is_one_of(value: Any, allowed: tuple[type, ...]) -> bool:
    if type(value) in allowed:
        return True
    return allowed[-1] is int and isinstance(value, IntEnum)


def _exact_types(field: Field) -> tuple[type, ...]:
    """The types a value of ``field`` may have on the quick way out, the usual one first."""
    if isinstance(field, Int):
        return (int,)
    if isinstance(field, Choice):
        return (field.enum, int)
    if isinstance(field, Flag):
        return (bool,)
    if isinstance(field, Text):
        return (str,)
    if isinstance(field, Blob):
        return (bytes,)
    if isinstance(field, ListOf):
        return (tuple, list)
    if isinstance(field, Record):
        return (field.cls,)  # type: ignore[return-value]
    return (type(None),)  # ``Anything``: the envelope's payload goes apart


def _values_of(names: Sequence[str]) -> Callable[[Any], Sequence[Any]]:
    """The values of the fields ``names`` of a record, in order, as a tuple."""
    if len(names) > 1:
        return attrgetter(*names)  # a tuple, of several
    if not names:
        return lambda record: ()
    get = attrgetter(names[0])
    return lambda record: (get(record),)


Loader = Callable[[bytes], Any]


class EnvelopeCodec:
    """The quick ``decode`` and ``encode`` of whole envelopes; each gives None when unsure.

    An envelope is the array ``[version, kind, *header fields]``; the header ``Record``
    names its class and its fields, among them ``payload`` (an ``Anything``). A payload
    of kind ``event`` is an ``event_cls`` whose one field, ``body``, is on the wire as its
    body kind then its fields. A message has at most ``max_size`` bytes. The rules that
    join the header to the payload are the caller's to check.
    """

    def __init__(
        self,
        header: Record,
        version: int,
        payloads: Mapping[int, Record],
        event: int,
        event_cls: Any,
        bodies: Mapping[int, Record],
        max_size: int,
    ) -> None:
        # A record with optional fields goes the reference way (its fields are more than
        # msgspec's array says); it is the founding ADMIT, once a table, and a START, once
        # a game. A ``Maybe`` field (nil in the middle) is only ever before optional ones,
        # so msgspec never sees one (``wire_type`` has none).
        bodies = {tag: record for tag, record in bodies.items() if not record.optional}
        self.envelope, self.header = header.cls, Shape(header)
        self.event, self.event_plain = event, twin(event_cls)
        self.event_cls = event_cls
        self.version, self.max_size = version, max_size
        self.payload_at = [name for name, _field in header.fields].index("payload")
        bodies_wire = {tag: struct_type(rec, tag) for tag, rec in bodies.items()}
        union = functools.reduce(operator.or_, bodies_wire.values())
        self.decoders: dict[bytes, tuple[int, Loader]] = {}
        self.shapes: dict[Any, Shape] = {}  # by the wire struct, on the way in
        self.kinds: dict[Any, tuple[int, Shape, Loader]] = {}  # by the record, on the way out
        self.tags: dict[Any, tuple[int, ...]] = {}  # an event body's kind, before its fields
        for kind, record in payloads.items():
            wire = struct_type(record)
            self._add(kind, record, wire, self._decoder(kind, wire))
        event_decoder = self._decoder(event, union)
        for tag, record in bodies.items():
            self._add(event, record, bodies_wire[tag], event_decoder, tag)
        self.pack = msgspec.msgpack.Encoder().encode

    def _add(self, kind: int, record: Record, wire: Any, decode: Loader, *tag: int) -> None:
        shape = Shape(record)
        self.decoders[self._prefix(kind)] = (kind, decode)
        self.shapes[wire] = shape
        self.kinds[record.cls] = (kind, shape, decode)
        self.tags[record.cls] = tag

    def _prefix(self, kind: int) -> bytes:
        """The canonical start of a message of ``kind``: a fixarray header, two fixints."""
        size = len(self.header.record.fields) + 2
        assert size < 16 and 0 <= self.version < 128 and 0 < kind < 128
        return bytes([0x90 + size, self.version, kind])

    def _decoder(self, kind: int, payload: Any) -> Loader:
        """A decoder of a whole envelope of ``kind``, its version and kind as constants."""
        fields = [
            ("version", wire_type(Int(self.version, self.version))),
            ("kind", wire_type(Int(kind, kind))),
        ]
        for name, field in self.header.record.fields:
            fields.append((name, payload if name == "payload" else wire_type(field)))
        wire = msgspec.defstruct(f"Envelope{kind}Wire", fields, array_like=True)
        decode: Loader = msgspec.msgpack.Decoder(wire).decode
        return decode

    # -- bytes -> envelope ------------------------------------------------------------------

    def decode(self, data: bytes) -> Any:
        """What the reference decode returns for a message it accepts; None whenever unsure."""
        if type(data) is not bytes or len(data) > self.max_size:
            return None
        found = self.decoders.get(data[:3])
        if found is None:
            return None
        kind, decode = found
        try:
            wire = decode(data)
            if self.pack(wire) != data:  # a longer form of anything, or items past the end
                return None
            values = list(astuple(wire))[2:]
            payload = values[self.payload_at]
            record = self.shapes[type(payload)].from_values(astuple(payload))
            if kind == self.event:
                record = self.event_plain(record)
                record.__class__ = self.event_cls
            values[self.payload_at] = record
            if not self.header.fits(values):
                return None
            envelope = self.header.plain(*values)
            envelope.__class__ = self.envelope
        except Exception:  # the reference path finds (and names) whatever is wrong
            return None
        return envelope

    # -- envelope -> bytes ------------------------------------------------------------------

    def encode(self, envelope: Any) -> bytes | None:
        """What the reference encode returns for an envelope it accepts; None whenever unsure.

        The values, of exact types (``Shape.exact``), are packed as they are and the bytes
        decoded again: the decoder checks each value's range and length as it does for a
        peer's message.
        """
        try:
            data = self._encode(envelope)
        except Exception:  # the reference path finds (and names) whatever is wrong
            return None
        if len(data) > self.max_size:
            return None
        return data

    def _encode(self, envelope: Any) -> bytes:
        if type(envelope) is not self.envelope:
            raise ValueError("not exactly an envelope")
        values = list(self.header.values_of(envelope))
        payload = values[self.payload_at]
        record = payload.body if type(payload) is self.event_cls else payload
        kind, shape, decode = self.kinds[type(record)]
        if (kind == self.event) != (record is not payload):
            raise ValueError("not of the exact types")
        values[self.payload_at] = None  # the payload goes apart
        if not self.header.exact(values):
            raise ValueError("not of the exact types")
        values[self.payload_at] = [*self.tags[type(record)], *shape.wire(record)]
        data: bytes = self.pack([self.version, kind, *values])
        decode(data)  # raises unless every value is of its type, range and length
        return data

"""A quick path for the codec: the same field tables, compiled into plain functions.

``codec`` describes every message as a table of validators and checks a message
in three passes (parse with a shape walk, load field by field with a location for
each error, encode again for canonical form). Here the same tables are compiled
once into nested closures that check exactly the same rules in one pass. They only
ever *accept*: whatever they would refuse, or are not sure of, makes them give up
(``None``), and the codec then runs its reference path, which finds the exact
reason. So a message is accepted here only if the reference path accepts it too,
and with the same result; errors keep their reasons and texts.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import msgpack

from .codec_fields import Blob, Choice, Field, Flag, Int, ListOf, Record, Text

Loader = Callable[[Any], Any]
Dumper = Callable[[Any], Any]


class GiveUp(Exception):
    """The quick path is not sure: let the reference path decide."""


_GIVE_UP = GiveUp()


def loader(field: Field) -> Loader:
    """A function that returns what ``field.load`` returns, or raises (never accepts more)."""
    if isinstance(field, Int):
        low, high = field.low, field.high

        def load_int(value: Any) -> Any:
            if type(value) is not int or not low <= value <= high:
                raise _GIVE_UP
            return value

        return load_int
    if isinstance(field, Choice):
        members = {int(member): member for member in field.enum}

        def load_choice(value: Any) -> Any:
            if type(value) is not int or value not in members:
                raise _GIVE_UP
            return members[value]

        return load_choice
    if isinstance(field, Flag):

        def load_flag(value: Any) -> Any:
            if type(value) is not bool:
                raise _GIVE_UP
            return value

        return load_flag
    if isinstance(field, Text):
        text_low, text_high = field.low, field.high

        def load_text(value: Any) -> Any:
            if type(value) is not str:
                raise _GIVE_UP
            size = len(value) if value.isascii() else len(value.encode("utf-8"))
            if not text_low <= size <= text_high:
                raise _GIVE_UP
            return value

        return load_text
    if isinstance(field, Blob):
        sizes = field.sizes

        def load_blob(value: Any) -> Any:
            if type(value) is not bytes or len(value) not in sizes:
                raise _GIVE_UP
            return value

        return load_blob
    if isinstance(field, ListOf):
        item = loader(field.item)
        list_low, list_high = field.low, field.high

        def load_list(value: Any) -> Any:
            if type(value) is not list or not list_low <= len(value) <= list_high:
                raise _GIVE_UP
            return tuple([item(v) for v in value])

        return load_list
    if isinstance(field, Record):
        load_items = items_loader(field)

        def load_record(value: Any) -> Any:
            if type(value) is not list:
                raise _GIVE_UP
            return load_items(value)

        return load_record
    raise TypeError(f"no quick loader for {type(field).__name__}")


def items_loader(record: Record) -> Loader:
    """``record.load_items``: a list of exactly its fields, then its whole-record check."""
    loaders = tuple(loader(field) for _name, field in record.fields)
    count = len(loaders)
    cls, check = record.cls, record.check
    if count == 1:
        (first,) = loaders

        def load_one(items: Any) -> Any:
            if len(items) != 1:
                raise _GIVE_UP
            value = cls(first(items[0]))
            if check is not None:
                check(value)
            return value

        return load_one
    if count == 2:
        first, second = loaders

        def load_two(items: Any) -> Any:
            if len(items) != 2:
                raise _GIVE_UP
            value = cls(first(items[0]), second(items[1]))
            if check is not None:
                check(value)
            return value

        return load_two

    def load_items(items: Any) -> Any:
        if len(items) != count:
            raise _GIVE_UP
        value = cls(*[load(v) for load, v in zip(loaders, items, strict=True)])
        if check is not None:
            check(value)
        return value

    return load_items


def dumper(field: Field) -> Dumper:
    """A function that returns what ``field.dump`` returns, or raises (never accepts more)."""
    if isinstance(field, Int | Choice):
        low, high = (field.low, field.high) if isinstance(field, Int) else (None, None)
        allowed = None if isinstance(field, Int) else frozenset(int(m) for m in field.enum)

        def dump_int(value: Any) -> Any:
            if not isinstance(value, int) or isinstance(value, bool):
                raise _GIVE_UP
            number = int(value)
            if allowed is not None:
                if number not in allowed:
                    raise _GIVE_UP
            elif not low <= number <= high:  # type: ignore[operator]
                raise _GIVE_UP
            return number

        return dump_int
    if isinstance(field, Flag | Blob):
        return loader(field)
    if isinstance(field, Text):
        check_text = loader(field)

        def dump_text(value: Any) -> Any:
            if not isinstance(value, str):
                raise _GIVE_UP
            return check_text(str(value))

        return dump_text
    if isinstance(field, ListOf):
        item = dumper(field.item)
        list_low, list_high = field.low, field.high

        def dump_list(value: Any) -> Any:
            if type(value) not in (list, tuple) or not list_low <= len(value) <= list_high:
                raise _GIVE_UP
            return [item(v) for v in value]

        return dump_list
    if isinstance(field, Record):
        return items_dumper(field)
    raise TypeError(f"no quick dumper for {type(field).__name__}")


def items_dumper(record: Record) -> Dumper:
    """``record.dump_items``: the fields of an instance of exactly its class, checked."""
    parts = tuple((name, dumper(field)) for name, field in record.fields)
    cls, check = record.cls, record.check

    def dump_items(value: Any) -> Any:
        if type(value) is not cls:
            raise _GIVE_UP
        items = [dump(getattr(value, name)) for name, dump in parts]
        if check is not None:
            check(value)
        return items

    return dump_items


def unpacker(limits: Mapping[str, int], ext_hook: Callable[[int, bytes], Any]) -> Loader:
    """msgpack's one-shot parser under the codec's limits (the size is checked before)."""
    options = {key: value for key, value in limits.items() if key != "max_buffer_size"}
    unpackb = msgpack.unpackb

    def parse(data: bytes) -> Any:
        return unpackb(data, raw=False, strict_map_key=True, ext_hook=ext_hook, **options)

    return parse

"""A quick path for the codec: the same field tables, compiled into plain functions.

``codec`` describes every message as a table of validators and checks a message
in three passes (parse with a shape walk, load field by field with a location for
each error, encode again for canonical form). Here the same tables are compiled
once, as Python source, into one function per payload and per event body that
checks every field in line and builds its records without their ``__init__``
(see ``twin``). They only ever *accept*: whatever they would refuse, or are not
sure of, makes them raise, and the codec then runs its reference path, which finds
the exact reason. So a message is accepted here only if the reference path accepts
it too, and with the same result; errors keep their reasons and texts.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

from .codec_fields import Blob, Choice, Field, Flag, Int, ListOf, Record, Text

Loader = Callable[[Any], Any]
Dumper = Callable[[Any], Any]
Fits = Callable[..., bool]


class GiveUp(Exception):
    """The quick path is not sure: let the reference path decide."""


GIVE_UP = GiveUp()


def twin(cls: type) -> Any:
    """A plain class with the slots of the frozen, slotted dataclass ``cls``.

    The ``__init__`` of a frozen dataclass sets each field through
    ``object.__setattr__``, which costs several times a plain attribute store. An
    instance of the twin takes plain stores, and then becomes a ``cls`` by
    assignment to ``__class__`` (Python allows it between classes of the same
    layout): the same object ``cls(*fields)`` would be, at a fraction of the cost.
    Only for classes whose ``__init__`` does nothing else (no ``__post_init__``).
    """
    names = tuple(field.name for field in dataclasses.fields(cls))
    if hasattr(cls, "__post_init__") or tuple(getattr(cls, "__slots__", ())) != names:
        raise TypeError(f"{cls.__name__} is not a plain frozen slotted dataclass")
    made: Any = type(f"{cls.__name__}Slots", (), {"__slots__": names})
    probe = made()
    probe.__class__ = cls  # raises TypeError now if the layouts differ
    return made


def as_int(value: Any) -> int:
    """What ``Int.dump`` makes of a value that is not exactly an int."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise GIVE_UP
    return int(value)


def int_in(value: Any, low: int, high: int) -> int:
    """What ``Int(low, high).dump`` makes of a value that is not plainly in range."""
    number = as_int(value)
    if not low <= number <= high:
        raise GIVE_UP
    return number


def as_str(value: Any) -> str:
    """What ``Text.dump`` makes of a value that is not exactly a str."""
    if not isinstance(value, str):
        raise GIVE_UP
    return str(value)


_SCALARS = (Int, Flag, Text, Blob)  # fields whose wire and Python values are the same


class _Compiler:
    """Python source for the loaders and dumpers of a set of records."""

    def __init__(self, fits: Mapping[object, Fits], distinct: Mapping[object, str]) -> None:
        self.fits = fits
        self.distinct = distinct
        self.namespace: dict[str, Any] = {
            "GIVE_UP": GIVE_UP,
            "as_int": as_int,
            "int_in": int_in,
            "as_str": as_str,
        }
        self.functions: list[str] = []
        self.twins: dict[object, Any] = {}
        self.count = 0

    def const(self, value: object) -> str:
        for name, known in self.namespace.items():
            if known is value:
                return name
        name = f"k{len(self.namespace)}"
        self.namespace[name] = value
        return name

    def fresh(self, hint: str) -> str:
        self.count += 1
        return f"{hint}_{self.count}"

    def build(self) -> dict[str, Any]:
        exec("\n\n".join(self.functions), self.namespace)  # source made from the tables alone
        return self.namespace

    # -- loading: wire value -> Python value ----------------------------------------------

    def load(self, field: Field, var: str, out: list[str], pad: str) -> None:
        """Lines that check ``var`` (a wire value) and rebind it to its Python form."""
        if isinstance(field, Int):
            out.append(
                f"{pad}if type({var}) is not int or not {field.low} <= {var} <= {field.high}:"
            )
            out.append(f"{pad}    raise GIVE_UP")
        elif isinstance(field, Choice):
            members = self.const({int(member): member for member in field.enum})
            out.append(f"{pad}if type({var}) is not int:")
            out.append(f"{pad}    raise GIVE_UP")
            out.append(f"{pad}{var} = {members}[{var}]")
        elif isinstance(field, Flag):
            out.append(f"{pad}if type({var}) is not bool:")
            out.append(f"{pad}    raise GIVE_UP")
        elif isinstance(field, Text):
            out.append(f"{pad}if type({var}) is not str or {self.bad_text(field, var)}:")
            out.append(f"{pad}    raise GIVE_UP")
        elif isinstance(field, Blob):
            out.append(f"{pad}if type({var}) is not bytes or {self.bad_size(field, var)}:")
            out.append(f"{pad}    raise GIVE_UP")
        elif isinstance(field, ListOf):
            out.append(
                f"{pad}if type({var}) is not list or not {field.low} <= len({var}) <= {field.high}:"
            )
            out.append(f"{pad}    raise GIVE_UP")
            item = self.fresh("item")
            if isinstance(field.item, _SCALARS):  # checked, and kept as they are
                out.append(f"{pad}for {item} in {var}:")
                self.load(field.item, item, out, pad + "    ")
                out.append(f"{pad}{var} = tuple({var})")
            else:
                loaded = self.fresh("loaded")
                out.append(f"{pad}{loaded} = []")
                seen = self.seen(field, out, pad)
                out.append(f"{pad}for {item} in {var}:")
                self.load(field.item, item, out, pad + "    ")
                out.append(f"{pad}    {loaded}.append({item})")
                self.saw(field, seen, item, var, out, pad)
                out.append(f"{pad}{var} = tuple({loaded})")
        elif isinstance(field, Record):
            self.load_record(field, var, 0, var, out, pad)
        else:
            raise TypeError(f"no quick loader for {type(field).__name__}")

    def seen(self, field: ListOf, out: list[str], pad: str) -> str | None:
        """For a list whose records must differ in a key: a set of the keys seen."""
        if not isinstance(field.item, Record) or field.item.cls not in self.distinct:
            return None
        seen = self.fresh("seen")
        out.append(f"{pad}{seen} = set()")
        return seen

    def saw(
        self, field: ListOf, seen: str | None, item: str, var: str, out: list[str], pad: str
    ) -> None:
        """In the loop over ``var`` (then after it): add the key, then count the keys."""
        if seen is None:
            return
        assert isinstance(field.item, Record)
        key = self.distinct[field.item.cls]
        out.append(f"{pad}    {seen}.add({item}.{key})")
        out.append(f"{pad}if len({seen}) != len({var}):")
        out.append(f"{pad}    raise GIVE_UP")

    def bad_text(self, text: Text, var: str) -> str:
        size = f"(len({var}) if {var}.isascii() else len({var}.encode()))"
        return f"not {text.low} <= {size} <= {text.high}"

    def bad_size(self, blob: Blob, var: str) -> str:
        sizes = blob.sizes
        if len(sizes) == 1:
            return f"len({var}) != {sizes[0]}"
        if isinstance(sizes, range) and sizes.step == 1:
            return f"not {sizes.start} <= len({var}) < {sizes.stop}"
        return f"len({var}) not in {self.const(frozenset(sizes))}"

    def load_record(
        self, record: Record, items: str, skip: int, target: str, out: list[str], pad: str
    ) -> None:
        """Lines that check the wire array ``items`` (``skip`` items, then the fields) and
        bind ``target`` to the record it describes."""
        names = [self.fresh(name) for name, _field in record.fields]
        out.append(f"{pad}if type({items}) is not list or len({items}) != {skip + len(names)}:")
        out.append(f"{pad}    raise GIVE_UP")
        if names:
            targets = ["_"] * skip + names
            out.append(f"{pad}{', '.join(targets)}{',' if len(targets) == 1 else ''} = {items}")
        for (_name, field), var in zip(record.fields, names, strict=True):
            self.load(field, var, out, pad)
        if record.cls not in self.twins:
            self.twins[record.cls] = twin(record.cls)  # type: ignore[arg-type]
        out.append(f"{pad}{target} = {self.const(self.twins[record.cls])}()")
        for (name, _field), var in zip(record.fields, names, strict=True):
            out.append(f"{pad}{target}.{name} = {var}")
        out.append(f"{pad}{target}.__class__ = {self.const(record.cls)}")
        self.check(record, names, target, out, pad)

    def check(self, record: Record, names: list[str], value: str, out: list[str], pad: str) -> None:
        """The whole-record check: ``fits`` of the fields' Python values if there is one."""
        fits = self.fits.get(record.cls)
        if fits is not None:
            out.append(f"{pad}if not {self.const(fits)}({', '.join(names)}):")
            out.append(f"{pad}    raise GIVE_UP")
        elif record.check is not None:
            out.append(f"{pad}{self.const(record.check)}({value})")

    def record_loader(self, record: Record, skip: int) -> str:
        name = f"load_{getattr(record.cls, '__name__', 'record')}_{len(self.functions)}"
        lines = [f"def {name}(items):"]
        self.load_record(record, "items", skip, "value", lines, "    ")
        lines.append("    return value")
        self.functions.append("\n".join(lines))
        return name

    # -- dumping: Python value -> wire value ----------------------------------------------

    def dump(self, field: Field, var: str, out: list[str], pad: str) -> str:
        """Lines that check ``var`` (a Python value); the name of its wire form.

        A scalar's wire form takes its name: it compares as the Python value did.
        """
        if isinstance(field, Int):
            out.append(
                f"{pad}if type({var}) is not int or not {field.low} <= {var} <= {field.high}:"
            )
            out.append(f"{pad}    {var} = int_in({var}, {field.low}, {field.high})")
        elif isinstance(field, Choice):
            codes = sorted(int(member) for member in field.enum)
            out.append(f"{pad}if type({var}) is {self.const(field.enum)}:")
            out.append(f"{pad}    {var} = {var}._value_")
            out.append(f"{pad}elif type({var}) is not int:")
            out.append(f"{pad}    {var} = as_int({var})")
            if codes == list(range(codes[0], codes[-1] + 1)):
                out.append(f"{pad}if not {codes[0]} <= {var} <= {codes[-1]}:")
            else:
                out.append(f"{pad}if {var} not in {self.const(frozenset(codes))}:")
            out.append(f"{pad}    raise GIVE_UP")
        elif isinstance(field, Flag | Blob):
            self.load(field, var, out, pad)
        elif isinstance(field, Text):
            out.append(f"{pad}if type({var}) is not str:")
            out.append(f"{pad}    {var} = as_str({var})")
            out.append(f"{pad}if {self.bad_text(field, var)}:")
            out.append(f"{pad}    raise GIVE_UP")
        elif isinstance(field, ListOf):
            kind, wire = self.fresh("type"), self.fresh("wire")
            out.append(f"{pad}{kind} = type({var})")
            out.append(
                f"{pad}if ({kind} is not tuple and {kind} is not list)"
                f" or not {field.low} <= len({var}) <= {field.high}:"
            )
            out.append(f"{pad}    raise GIVE_UP")
            item = self.fresh("item")
            out.append(f"{pad}{wire} = []")
            seen = self.seen(field, out, pad)
            out.append(f"{pad}for {item} in {var}:")
            dumped = self.dump(field.item, item, out, pad + "    ")
            out.append(f"{pad}    {wire}.append({dumped})")
            self.saw(field, seen, item, var, out, pad)
            return wire
        elif isinstance(field, Record):
            wire = self.fresh("wire")
            self.dump_record(field, var, (), wire, out, pad)
            return wire
        else:
            raise TypeError(f"no quick dumper for {type(field).__name__}")
        return var

    def dump_record(
        self,
        record: Record,
        value: str,
        prefix: tuple[int, ...],
        wire: str,
        out: list[str],
        pad: str,
    ) -> None:
        """Lines that check ``value`` (exactly a ``record.cls``) and bind ``wire`` to
        ``[*prefix, *fields]`` on the wire."""
        out.append(f"{pad}if type({value}) is not {self.const(record.cls)}:")
        out.append(f"{pad}    raise GIVE_UP")
        names = [self.fresh(name) for name, _field in record.fields]
        wires = []
        for (name, field), var in zip(record.fields, names, strict=True):
            out.append(f"{pad}{var} = {value}.{name}")
            wires.append(self.dump(field, var, out, pad))
        self.check(record, names, value, out, pad)
        out.append(f"{pad}{wire} = [{', '.join([*map(str, prefix), *wires])}]")

    def record_dumper(self, record: Record, prefix: tuple[int, ...]) -> str:
        name = f"dump_{getattr(record.cls, '__name__', 'record')}_{len(self.functions)}"
        lines = [f"def {name}(value):"]
        self.dump_record(record, "value", prefix, "wire", lines, "    ")
        lines.append("    return wire")
        self.functions.append("\n".join(lines))
        return name


def compile_records(
    payloads: Mapping[int, Record],
    bodies: Mapping[int, Record],
    fits: Mapping[object, Fits],
    distinct: Mapping[object, str],
) -> tuple[
    dict[int, Loader], dict[int, Loader], dict[type, tuple[int, Dumper]], dict[type, Dumper]
]:
    """Quick loaders and dumpers: of payloads (by kind) and of event bodies (by body kind).

    A payload loader takes the payload's wire array; a body loader takes the event's
    whole wire array ``[body_kind, ...fields]`` (its head already checked). A payload
    dumper maps its class to (kind, dumper); a body dumper returns the whole event array.
    ``fits`` may stand in for a record's check: a function of its fields that is true
    exactly when the check passes (given fields within their ranges). It sees each
    scalar as loaded, or as dumped when encoding (an int for an IntEnum), and each list
    as its Python value. ``distinct`` names, for a record class, a field in which the
    records of any one list must all differ (this part of a check goes in line).
    """
    compiler = _Compiler(fits, distinct)
    payload_loads = {kind: compiler.record_loader(rec, 0) for kind, rec in payloads.items()}
    body_loads = {kind: compiler.record_loader(rec, 1) for kind, rec in bodies.items()}
    payload_dumps = {
        rec.cls: (kind, compiler.record_dumper(rec, ())) for kind, rec in payloads.items()
    }
    body_dumps = {rec.cls: compiler.record_dumper(rec, (kind,)) for kind, rec in bodies.items()}
    namespace = compiler.build()
    return (
        {kind: namespace[name] for kind, name in payload_loads.items()},
        {kind: namespace[name] for kind, name in body_loads.items()},
        {cls: (kind, namespace[name]) for cls, (kind, name) in payload_dumps.items()},  # type: ignore[misc]
        {cls: namespace[name] for cls, name in body_dumps.items()},  # type: ignore[misc]
    )

"""A quick path for the codec: the same field tables, compiled into plain functions.

``codec`` describes every message as a table of validators and checks a message
in three passes (parse with a shape walk, load field by field with a location for
each error, encode again for canonical form). Here the same tables are compiled
once, as Python source, into one function per kind of envelope (per payload kind,
and per body kind for an event) that checks the header, the payload and the body
in line and builds the records without their ``__init__`` (see ``twin``). A loader
leaves to its one packing what that packing proves anyway (the types of ints and
bools, the ranges of ints, constants; see ``_Compiler``). They only ever *accept*:
whatever they would refuse, or are not sure of, makes them raise, and the codec
then runs its reference path, which finds the exact reason. So a message is accepted
here only if the reference path accepts it too, and with the same result; errors
keep their reasons and texts.
"""

from __future__ import annotations

import ast
import builtins
import dataclasses
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from .codec_fields import Blob, Choice, Field, Flag, Int, ListOf, Record, Text

Loader = Callable[[Any, bytes], Any]
Dumper = Callable[[Any], bytes]


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


def as_code(value: Any, codes: frozenset[int]) -> int:
    """What ``Choice.dump`` makes of a value that is not exactly a member."""
    number = as_int(value)
    if number not in codes:
        raise GIVE_UP
    return number


def as_str(value: Any) -> str:
    """What ``Text.dump`` makes of a value that is not exactly a str."""
    if not isinstance(value, str):
        raise GIVE_UP
    return str(value)


@dataclasses.dataclass(frozen=True)
class Fits:
    """A record's check for fields already within their ranges, as one Python expression.

    ``source`` names the record's fields (as their wire values: an int for an
    IntEnum, a list for a list) and nothing else but literals; it is true exactly
    when the record's check passes. The compiler writes it in line, in place of a
    call, with the field names replaced by the names that hold their values.
    """

    source: str

    def inline(self, names: Mapping[str, str]) -> str:
        tree = ast.parse(self.source, mode="eval")
        for node in ast.walk(tree):
            if isinstance(node, ast.Name):
                if node.id not in names:
                    raise NameError(f"{node.id} is no field of the record")
                node.id = names[node.id]
        return ast.unparse(tree)

    def function(self, record: Record) -> Callable[..., bool]:
        """The expression as a function of the record's fields in order (for tests)."""
        fields = [name for name, _field in record.fields]
        namespace: dict[str, Any] = {}
        exec(f"def fits({', '.join(fields)}):\n    return {self.source}", namespace)
        fits: Callable[..., bool] = namespace["fits"]
        return fits


@dataclasses.dataclass(frozen=True)
class Tagged:
    """A one-field record ``cls(body)``, on the wire as its body's array after ``tag``."""

    cls: type
    tag: int
    body: Record


@dataclasses.dataclass(frozen=True)
class Layout:
    """A record the codec does not describe as a ``Record`` (an envelope): ``cls`` as an
    array of its fields, which may be ``Tagged``, in order."""

    cls: type
    fields: tuple[tuple[str, Field | Tagged], ...]
    check: None = None


def _with_locals(function: str, namespace: Mapping[str, object]) -> str:
    """``function`` (the source of one ``def``) with every global or builtin it reads
    bound as a parameter of the same name after its own, which defaults to it: the
    function then reads each as a local, the quickest way for Python. (Keyword-only
    parameters would read alike, but make each call look their defaults up.)"""
    tree = ast.parse(function)
    definition = tree.body[0]
    assert isinstance(definition, ast.FunctionDef)
    bound = {arg.arg for arg in definition.args.args}
    bound |= {
        node.id
        for node in ast.walk(definition)
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load)
    }
    outside = sorted(
        {
            node.id
            for node in ast.walk(definition)
            if isinstance(node, ast.Name) and node.id not in bound
            if node.id in namespace or hasattr(builtins, node.id)
        }
    )
    definition.args.args += [ast.arg(name) for name in outside]
    definition.args.defaults = [ast.Name(name, ast.Load()) for name in outside]
    return ast.unparse(tree)


_SMALL = 1024  # an Int of fewer values than this is checked by a lookup in a dict of them
_QUICK_MASK = 2**30 - 1  # ``&`` by a mask up to this size stays on CPython's one-digit path
_CACHED = range(-5, 257)  # CPython keeps one object for each of these ints


def _longest(field: Field | Tagged | Layout) -> int:
    """A bound on the size of ``field`` in msgpack: a header takes at most 5 bytes, an
    int at most 9."""
    if isinstance(field, Int | Choice):
        return 9
    if isinstance(field, Flag):
        return 1
    if isinstance(field, Text):
        return 5 + field.high
    if isinstance(field, Blob):
        return 5 + max(field.sizes)
    if isinstance(field, ListOf):
        return 5 + field.high * _longest(field.item)
    if isinstance(field, Tagged):
        return 9 + _longest(field.body)
    if isinstance(field, Record | Layout):
        return 5 + sum(_longest(item) for _name, item in field.fields)
    raise TypeError(f"no bound for {type(field).__name__}")


def _mask(high: int) -> int | None:
    """``high`` if it is one less than a power of two, within ``_QUICK_MASK``."""
    return high if 0 <= high <= _QUICK_MASK and high & (high + 1) == 0 else None


class _Compiler:
    """Python source for the loaders and dumpers of a set of records.

    A loader proves a message by packing it again. It checks what the packing cannot
    see (that a str or bin is one, and its size; a record's rules; distinct keys), and
    builds, beside the records, the wire it expects, of the very types the fields call
    for: an int goes in through an expression that gives an int within the field's
    range, equal to the value whenever the value is such an int (a lookup in a dict of
    the range, a mask, or ``+`` after a shift that refuses a float); a bool through a
    lookup in ``{False: False, True: True}``; a constant (the version, the kind, a body
    kind, a seq of 0) as itself; an array as a new list. The strict packer packs that
    wire; since ``unpackb(pack(w))`` is ``w`` again with the same types, the bytes are
    the message only if the message holds exactly that wire, in its canonical form. So
    a bool or a float where an int belongs, an int out of range, a constant of another
    value, a bin or a map where an array belongs, or a longer form of anything makes the
    bytes differ (or the expression raise). The checks made before the packing may see
    such values: they only raise, or leave it to the packing.
    """

    def __init__(
        self,
        fits: Mapping[object, Fits],
        distinct: Mapping[object, str],
        pack: Callable[[Any], bytes],
        max_size: int,
    ) -> None:
        self.fits = fits
        self.distinct = distinct
        self.max_size = max_size
        self.namespace: dict[str, Any] = {
            "GIVE_UP": GIVE_UP,
            "as_int": as_int,
            "int_in": int_in,
            "as_str": as_str,
            "as_code": as_code,
            "pack": pack,
        }
        self.functions: list[str] = []
        self.twins: dict[object, Any] = {}
        self.tables: dict[tuple[object, ...], str] = {}
        self.count = 0

    def const(self, value: object) -> str:
        for name, known in self.namespace.items():
            if known is value:
                return name
        name = f"k{len(self.namespace)}"
        self.namespace[name] = value
        return name

    def table(self, pairs: Iterable[tuple[object, object]]) -> str:
        """A dict constant of ``pairs``, one for all equal tables."""
        pairs = tuple(pairs)
        key = tuple((type(k), k, type(v), v) for k, v in pairs)
        if key not in self.tables:
            self.tables[key] = self.const(dict(pairs))
        return self.tables[key]

    def span(self, low: int, high: int) -> str:
        """A dict of each int of ``low..high`` to itself."""
        return self.table((value, value) for value in range(low, high + 1))

    def fresh(self, hint: str) -> str:
        self.count += 1
        return f"{hint}_{self.count}"

    def build(self) -> dict[str, Any]:
        source = "\n\n".join(_with_locals(function, self.namespace) for function in self.functions)
        exec(source, self.namespace)  # source made from the tables alone
        return self.namespace

    def twin(self, cls: object) -> str:
        if cls not in self.twins:
            self.twins[cls] = twin(cls)  # type: ignore[arg-type]
        return self.const(self.twins[cls])

    # -- loading: wire value -> Python value ----------------------------------------------

    def load(self, field: Field | Tagged, var: str, out: list[str], pad: str) -> tuple[str, str]:
        """Lines that check ``var`` (a wire value) as far as the packing does not: the
        Python form of it, and the expression of the wire it must be."""
        if isinstance(field, Int):
            return self.load_int(field, var, out, pad)
        if isinstance(field, Choice):
            codes = sorted(int(member) for member in field.enum)
            members = self.table((int(member), member) for member in field.enum)
            member = self.fresh("member")
            out.append(f"{pad}{member} = {members}[{var}]")
            mask = _mask((1 << codes[-1].bit_length()) - 1) if codes[0] >= 0 else None
            if mask is not None:  # a code that names a member is within the mask
                return member, f"{var} & {mask}"
            return member, f"{self.table((code, code) for code in codes)}[{var}]"
        if isinstance(field, Flag):
            return var, f"{self.table(((False, False), (True, True)))}[{var}]"
        if isinstance(field, Text):
            out.append(f"{pad}if type({var}) is not str or {self.bad_text(field, var)}:")
            out.append(f"{pad}    raise GIVE_UP")
            return var, var
        if isinstance(field, Blob):
            out.append(f"{pad}if type({var}) is not bytes or {self.bad_size(field, var)}:")
            out.append(f"{pad}    raise GIVE_UP")
            return var, var
        if isinstance(field, ListOf):
            return self.load_list(field, var, out, pad)
        if isinstance(field, Record):
            return self.load_record(field, var, (), out, pad)
        if isinstance(field, Tagged):
            body, wire = self.load_record(field.body, var, (field.tag,), out, pad)
            value = self.fresh("tagged")
            self.make(field.cls, value, {"body": body}, out, pad)
            return value, wire
        raise TypeError(f"no quick loader for {type(field).__name__}")

    def load_int(self, number: Int, var: str, out: list[str], pad: str) -> tuple[str, str]:
        low, high = number.low, number.high
        if low == high:
            return str(low), str(low)
        if high - low < _SMALL:
            return var, f"{self.span(low, high)}[{var}]"
        bits = high.bit_length()
        if low in (0, 1) and high == (1 << bits) - 1:
            # the shift raises for a float and gives 0 for a bool, which ``+`` makes an int
            zero = f" or not {var}" if low else ""
            out.append(f"{pad}if {var} >> {bits}{zero}:")
            out.append(f"{pad}    raise GIVE_UP")
            return var, f"+{var}"
        out.append(f"{pad}if {var} < {low} or {var} > {high}:")
        out.append(f"{pad}    raise GIVE_UP")
        return var, f"{var} | 0"

    def load_list(self, items: ListOf, var: str, out: list[str], pad: str) -> tuple[str, str]:
        item = items.item
        if isinstance(item, Record):
            return self.load_records(items, item, var, out, pad)
        values = self.fresh("values")
        if isinstance(item, Int) and item.high - item.low < _SMALL:
            lookup = self.const(self.namespace[self.span(item.low, item.high)].__getitem__)
            out.append(f"{pad}{values} = [*map({lookup}, {var})]")
        else:
            each = self.fresh("item")
            out.append(f"{pad}{values} = []")
            out.append(f"{pad}for {each} in {var}:")
            _value, wire = self.load(item, each, out, pad + "    ")
            out.append(f"{pad}    {values}.append({wire})")
        out.append(f"{pad}if {self.bad_length(items, values)}:")
        out.append(f"{pad}    raise GIVE_UP")
        loaded = self.fresh("loaded")
        out.append(f"{pad}{loaded} = tuple({values})")
        return loaded, values

    def load_records(
        self, items: ListOf, record: Record, var: str, out: list[str], pad: str
    ) -> tuple[str, str]:
        """A list of records: it goes into the wire as it is (a new list for each record
        would cost more), each record's array checked to be one, its fields put in place as
        the wire must hold them; if the records must differ in a key, they are gathered by
        it."""
        key = self.distinct.get(record.cls)
        records, each = self.fresh("records"), self.fresh("item")
        out.append(f"{pad}if type({var}) is not list or {self.bad_length(items, var)}:")
        out.append(f"{pad}    raise GIVE_UP")
        out.append(f"{pad}{records} = {'{}' if key else '[]'}")
        out.append(f"{pad}for {each} in {var}:")
        inner = pad + "    "
        out.append(f"{inner}if type({each}) is not list:")
        out.append(f"{inner}    raise GIVE_UP")
        names = [self.fresh(name) for name, _field in record.fields]
        if names:
            out.append(f"{inner}{', '.join(names)}{',' if len(names) == 1 else ''} = {each}")
        else:
            out.append(f"{inner}if {each}:")
            out.append(f"{inner}    raise GIVE_UP")
        values = {}
        for index, ((name, field), field_var) in enumerate(zip(record.fields, names, strict=True)):
            values[name], wire = self.load(field, field_var, out, inner)
            if wire != field_var:  # the wire the packing must find, in place
                out.append(f"{inner}{each}[{index}] = {wire}")
        self.fits_in_line(record, names, out, inner)
        value = self.fresh("record")
        self.make(record.cls, value, values, out, inner)
        if record.cls not in self.fits and record.check is not None:
            out.append(f"{inner}{self.const(record.check)}({value})")
        if key:
            out.append(f"{inner}{records}[{values[key]}] = {value}")
        else:
            out.append(f"{inner}{records}.append({value})")
        loaded = self.fresh("loaded")
        if key:
            out.append(f"{pad}if len({records}) != len({var}):")
            out.append(f"{pad}    raise GIVE_UP")
            out.append(f"{pad}{loaded} = tuple({records}.values())")
        else:
            out.append(f"{pad}{loaded} = tuple({records})")
        return loaded, var

    def bad_int(self, number: Int, var: str) -> str:
        """Two plain comparisons: quicker than a chained one, for an int."""
        if number.low == number.high:
            return f"{var} != {number.low}"
        return f"{var} < {number.low} or {var} > {number.high}"

    def bad_length(self, items: ListOf, var: str) -> str:
        if items.low == 0:
            return f"len({var}) > {items.high}"
        return f"not {items.low} <= len({var}) <= {items.high}"

    def bad_text(self, text: Text, var: str) -> str:
        """Its size is in UTF-8 bytes, from one to four a character: a str of ``low`` to
        ``high // 4`` characters fits without encoding it."""
        quick = text.high // 4
        if text.low == 0:
            return f"len({var}) > {quick} and len({var}.encode()) > {text.high}"
        if text.low == 1:  # a str of one character or more has one byte or more
            return f"not {var} or len({var}) > {quick} and len({var}.encode()) > {text.high}"
        return (
            f"not {text.low} <= len({var}) <= {quick}"
            f" and not {text.low} <= len({var}.encode()) <= {text.high}"
        )

    def bad_size(self, blob: Blob, var: str) -> str:
        sizes = blob.sizes
        if len(sizes) == 1:
            return f"len({var}) != {sizes[0]}"
        if isinstance(sizes, range) and sizes.step == 1:
            if sizes.start == 0:
                return f"len({var}) >= {sizes.stop}"
            return f"not {sizes.start} <= len({var}) < {sizes.stop}"
        return f"len({var}) not in {self.const(frozenset(sizes))}"

    def load_record(
        self,
        record: Record | Layout,
        items: str,
        prefix: tuple[int, ...],
        out: list[str],
        pad: str,
        fields: dict[str, str] | None = None,
    ) -> tuple[str, str]:
        """Lines that check the wire array ``items`` (the ints ``prefix``, then the fields)
        and make the record it describes: its name, and the expression of its wire (in
        which the prefix is constant). ``fields`` gets the name of each field's value."""
        heads = [self.fresh("head") for _code in prefix]
        names = [self.fresh(name) for name, _field in record.fields]
        targets = heads + names
        if targets:  # unpacking anything of another length raises
            out.append(f"{pad}{', '.join(targets)}{',' if len(targets) == 1 else ''} = {items}")
        values: dict[str, str] = {}
        wires = [str(code) for code in prefix]
        for (name, field), var in zip(record.fields, names, strict=True):
            values[name], wire = self.load(field, var, out, pad)
            wires.append(wire)
        if fields is not None:
            fields.update(values)
        self.fits_in_line(record, names, out, pad)
        target = self.fresh("record")
        self.make(record.cls, target, values, out, pad)
        if record.cls not in self.fits and record.check is not None:
            out.append(f"{pad}{self.const(record.check)}({target})")
        return target, f"[{', '.join(wires)}]"

    def make(
        self, cls: object, target: str, values: Mapping[str, str], out: list[str], pad: str
    ) -> None:
        """Lines that bind ``target`` to ``cls(**values)``, made through its twin."""
        out.append(f"{pad}{target} = {self.twin(cls)}()")
        for name, var in values.items():
            out.append(f"{pad}{target}.{name} = {var}")
        out.append(f"{pad}{target}.__class__ = {self.const(cls)}")

    def fits_in_line(
        self, record: Record | Layout, names: list[str], out: list[str], pad: str
    ) -> None:
        """The record's ``fits``, if it has one, over the wire values held in ``names``."""
        fits = self.fits.get(record.cls)
        if fits is not None:
            fields = [name for name, _field in record.fields]
            out.append(f"{pad}if not ({fits.inline(dict(zip(fields, names, strict=True)))}):")
            out.append(f"{pad}    raise GIVE_UP")

    def loader(self, record: Record | Layout, prefix: tuple[int, ...]) -> str:
        """A function of a message's wire array, ``prefix`` then ``record``, and of the
        message: the record the array holds, if the message is its canonical form."""
        name = f"load_{len(self.functions)}"
        lines = [f"def {name}(items, data):"]
        value, wire = self.load_record(record, "items", prefix, lines, "    ")
        lines.append(f"    if pack({wire}) != data:")
        lines.append("        raise GIVE_UP")
        lines.append(f"    return {value}")
        self.functions.append("\n".join(lines))
        return name

    # -- dumping: Python value -> wire value ----------------------------------------------

    def dump(
        self, field: Field | Tagged, var: str, out: list[str], pad: str, checked: bool = False
    ) -> str:
        """Lines that check ``var`` (a Python value); the name of its wire form.

        A scalar's wire form takes its name: it compares as the Python value did.
        ``checked``: the caller knows the type of a record or a tagged record.
        """
        if isinstance(field, Int):
            if field.low in _CACHED and field.high in _CACHED:
                # an int of the range is the very object the dict holds; a bool or an
                # IntEnum member equal to one is not
                check = f"{self.span(field.low, field.high)}[{var}] is not {var}"
            else:
                check = f"type({var}) is not int or {self.bad_int(field, var)}"
            out.append(f"{pad}if {check}:")
            out.append(f"{pad}    {var} = int_in({var}, {field.low}, {field.high})")
        elif isinstance(field, Choice):
            codes = self.const(frozenset(int(member) for member in field.enum))
            out.append(f"{pad}if type({var}) is {self.const(field.enum)}:")
            out.append(f"{pad}    {var} = {var}._value_")
            out.append(f"{pad}else:")
            out.append(f"{pad}    {var} = as_code({var}, {codes})")
        elif isinstance(field, Flag):
            out.append(f"{pad}if type({var}) is not bool:")
            out.append(f"{pad}    raise GIVE_UP")
        elif isinstance(field, Blob):
            out.append(f"{pad}if type({var}) is not bytes or {self.bad_size(field, var)}:")
            out.append(f"{pad}    raise GIVE_UP")
        elif isinstance(field, Text):
            out.append(f"{pad}if type({var}) is not str:")
            out.append(f"{pad}    {var} = as_str({var})")
            out.append(f"{pad}if {self.bad_text(field, var)}:")
            out.append(f"{pad}    raise GIVE_UP")
        elif isinstance(field, ListOf):
            return self.dump_list(field, var, out, pad)
        elif isinstance(field, Record):
            return self.dump_record(field, var, (), out, pad, checked)
        elif isinstance(field, Tagged):
            if not checked:
                out.append(f"{pad}if type({var}) is not {self.const(field.cls)}:")
                out.append(f"{pad}    raise GIVE_UP")
            body = self.fresh("body")
            out.append(f"{pad}{body} = {var}.body")
            return self.dump_record(field.body, body, (field.tag,), out, pad, checked)
        else:
            raise TypeError(f"no quick dumper for {type(field).__name__}")
        return var

    def dump_list(self, items: ListOf, var: str, out: list[str], pad: str) -> str:
        """A tuple or list; if its records must differ in a key, gathered by it."""
        kind, wire = self.fresh("type"), self.fresh("wire")
        out.append(f"{pad}{kind} = type({var})")
        out.append(
            f"{pad}if ({kind} is not tuple and {kind} is not list)"
            f" or {self.bad_length(items, var)}:"
        )
        out.append(f"{pad}    raise GIVE_UP")
        item = self.fresh("item")
        key = self.distinct.get(items.item.cls) if isinstance(items.item, Record) else None
        out.append(f"{pad}{wire} = {'{}' if key else '[]'}")
        out.append(f"{pad}for {item} in {var}:")
        if key:
            assert isinstance(items.item, Record)
            fields: dict[str, str] = {}
            dumped = self.dump_record(items.item, item, (), out, pad + "    ", fields=fields)
            out.append(f"{pad}    {wire}[{fields[key]}] = {dumped}")
            out.append(f"{pad}if len({wire}) != len({var}):")
            out.append(f"{pad}    raise GIVE_UP")
            out.append(f"{pad}{wire} = [*{wire}.values()]")
        else:
            dumped = self.dump(items.item, item, out, pad + "    ")
            out.append(f"{pad}    {wire}.append({dumped})")
        return wire

    def dump_record(
        self,
        record: Record | Layout,
        value: str,
        prefix: tuple[int, ...],
        out: list[str],
        pad: str,
        checked: bool = False,
        fields: dict[str, str] | None = None,
    ) -> str:
        """Lines that check ``value`` (exactly a ``record.cls``; ``checked`` if the caller
        knows): the expression of ``[*prefix, *fields]`` on the wire (of names those lines
        bind). ``fields`` gets the name of each field's wire value."""
        if not checked:
            out.append(f"{pad}if type({value}) is not {self.const(record.cls)}:")
            out.append(f"{pad}    raise GIVE_UP")
        names = [self.fresh(name) for name, _field in record.fields]
        wires = []
        for (name, field), var in zip(record.fields, names, strict=True):
            out.append(f"{pad}{var} = {value}.{name}")
            # the envelope's payload is of the type its dumper was chosen by
            wires.append(self.dump(field, var, out, pad, checked and isinstance(record, Layout)))
        if fields is not None:
            fields.update(zip((name for name, _field in record.fields), wires, strict=True))
        self.fits_in_line(record, names, out, pad)
        if record.cls not in self.fits and record.check is not None:
            out.append(f"{pad}{self.const(record.check)}({value})")
        return f"[{', '.join([*map(str, prefix), *wires])}]"

    def dumper(self, record: Record | Layout, prefix: tuple[int, ...]) -> str:
        """A function of exactly a ``record.cls`` whose payload (and an event's body) is
        of the type it was chosen for (its caller checks): the message, ``prefix`` first."""
        name = f"dump_{len(self.functions)}"
        lines = [f"def {name}(value):"]
        wire = self.dump_record(record, "value", prefix, lines, "    ", checked=True)
        if _longest(record) + _longest(Int(0, 0)) * len(prefix) > self.max_size:
            lines.append(f"    data = pack({wire})")
            lines.append(f"    if len(data) > {self.max_size}:")
            lines.append("        raise GIVE_UP")
            lines.append("    return data")
        else:  # no message of the layout can be too long
            lines.append(f"    return pack({wire})")
        self.functions.append("\n".join(lines))
        return name


def compile_envelopes(
    envelope: Callable[[int, Field | Tagged], Layout],
    version: int,
    payloads: Mapping[int, Record],
    event: int,
    event_cls: type,
    bodies: Mapping[int, Record],
    fits: Mapping[object, Fits],
    distinct: Mapping[object, str],
    pack: Callable[[Any], bytes],
    max_size: int,
) -> tuple[dict[int, Loader], dict[int, Loader], dict[type, Dumper], dict[type, Dumper]]:
    """Quick loaders and dumpers of whole envelopes: by payload kind, and for an event of
    kind ``event`` (an ``event_cls`` of one body) by body kind.

    ``envelope(kind, payload)`` lays out the envelope of that kind (each kind may have
    its own header ranges) and payload field, on the wire after ``version`` and the kind. A
    loader takes the message's wire array (as ``msgpack.unpackb`` gives it) and the message,
    and returns the envelope, once ``pack`` (a strict-types packer) has given the message
    back from the wire the loader expects; a dumper takes the envelope (dispatched on the
    type of its payload, or of its event's body) and returns the message, of at most
    ``max_size`` bytes.
    ``fits`` may stand in for a record's check: an expression over its fields that is
    true exactly when the check passes (given fields within their ranges); it sees each
    field's wire value. ``distinct`` names, for a record class, a field in which the
    records of any one list must all differ (this part of a check goes in line).
    """
    compiler = _Compiler(fits, distinct, pack, max_size)
    tagged = {kind: Tagged(event_cls, kind, body) for kind, body in bodies.items()}
    loads = {
        kind: compiler.loader(envelope(kind, rec), (version, kind))
        for kind, rec in payloads.items()
    }
    event_loads = {
        tag: compiler.loader(envelope(event, field), (version, event))
        for tag, field in tagged.items()
    }
    dumps = {
        rec.cls: compiler.dumper(envelope(kind, rec), (version, kind))
        for kind, rec in payloads.items()
    }
    event_dumps = {
        field.body.cls: compiler.dumper(envelope(event, field), (version, event))
        for field in tagged.values()
    }
    namespace = compiler.build()
    return (
        {kind: namespace[name] for kind, name in loads.items()},
        {kind: namespace[name] for kind, name in event_loads.items()},
        {cls: namespace[name] for cls, name in dumps.items()},  # type: ignore[misc]
        {cls: namespace[name] for cls, name in event_dumps.items()},  # type: ignore[misc]
    )

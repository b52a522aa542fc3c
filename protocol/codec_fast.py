"""A quick path for the codec: the same field tables, compiled into plain functions.

``codec`` describes every message as a table of validators and checks a message
in three passes (parse with a shape walk, load field by field with a location for
each error, encode again for canonical form). Here the same tables are compiled
once, as Python source, into one function per kind of envelope (per payload kind,
and per body kind for an event) that checks the header, the payload and the body
in line and builds the records without their ``__init__`` (see ``twin``). They
only ever *accept*: whatever they would refuse, or are not sure of, makes them
raise, and the codec then runs its reference path, which finds the exact reason.
So a message is accepted here only if the reference path accepts it too, and with
the same result; errors keep their reasons and texts.
"""

from __future__ import annotations

import ast
import builtins
import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

from .codec_fields import Blob, Choice, Field, Flag, Int, ListOf, Record, Text

Loader = Callable[[Any], Any]
Dumper = Callable[[Any], Any]


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
        source = "\n\n".join(_with_locals(function, self.namespace) for function in self.functions)
        exec(source, self.namespace)  # source made from the tables alone
        return self.namespace

    def twin(self, cls: object) -> str:
        if cls not in self.twins:
            self.twins[cls] = twin(cls)  # type: ignore[arg-type]
        return self.const(self.twins[cls])

    # -- loading: wire value -> Python value ----------------------------------------------

    def load(self, field: Field | Tagged, var: str, out: list[str], pad: str) -> str:
        """Lines that check ``var`` (a wire value); the name of its Python form.

        A scalar's Python form is its wire value, under the same name.
        """
        if isinstance(field, Int):
            out.append(f"{pad}if type({var}) is not int or {self.bad_int(field, var)}:")
            out.append(f"{pad}    raise GIVE_UP")
        elif isinstance(field, Choice):
            members = self.const({int(member): member for member in field.enum})
            member = self.fresh("member")
            out.append(f"{pad}if type({var}) is not int:")
            out.append(f"{pad}    raise GIVE_UP")
            out.append(f"{pad}{member} = {members}[{var}]")
            return member
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
            out.append(f"{pad}if type({var}) is not list or {self.bad_length(field, var)}:")
            out.append(f"{pad}    raise GIVE_UP")
            item, loaded = self.fresh("item"), self.fresh("loaded")
            if isinstance(field.item, _SCALARS):  # checked, and kept as they are
                out.append(f"{pad}for {item} in {var}:")
                self.load(field.item, item, out, pad + "    ")
                out.append(f"{pad}{loaded} = tuple({var})")
            else:
                records = self.fresh("records")
                out.append(f"{pad}{records} = []")
                seen = self.seen(field, out, pad)
                out.append(f"{pad}for {item} in {var}:")
                value = self.load(field.item, item, out, pad + "    ")
                out.append(f"{pad}    {records}.append({value})")
                self.saw(field, seen, value, var, out, pad)
                out.append(f"{pad}{loaded} = tuple({records})")
            return loaded
        elif isinstance(field, Record):
            value = self.fresh("record")
            self.load_record(field, var, (), value, out, pad)
            return value
        elif isinstance(field, Tagged):
            body = self.fresh("body")
            self.load_record(field.body, var, (field.tag,), body, out, pad)
            value = self.fresh("tagged")
            self.make(field.cls, value, {"body": body}, out, pad)
            return value
        else:
            raise TypeError(f"no quick loader for {type(field).__name__}")
        return var

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
        quick = f"{text.low} <= len({var}) <= {text.high // 4}"
        return f"not {quick} and not {text.low} <= len({var}.encode()) <= {text.high}"

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
        target: str,
        out: list[str],
        pad: str,
    ) -> None:
        """Lines that check the wire array ``items`` (the ints ``prefix``, then the fields)
        and bind ``target`` to the record it describes."""
        heads = [self.fresh("head") for _code in prefix]
        names = [self.fresh(name) for name, _field in record.fields]
        targets = heads + names
        if targets:  # unpacking a list of another length raises
            out.append(f"{pad}if type({items}) is not list:")
            out.append(f"{pad}    raise GIVE_UP")
            out.append(f"{pad}{', '.join(targets)}{',' if len(targets) == 1 else ''} = {items}")
        else:
            out.append(f"{pad}if type({items}) is not list or {items}:")
            out.append(f"{pad}    raise GIVE_UP")
        for code, head in zip(prefix, heads, strict=True):
            self.load(Int(code, code), head, out, pad)
        values = {
            name: self.load(field, var, out, pad)
            for (name, field), var in zip(record.fields, names, strict=True)
        }
        self.fits_in_line(record, names, out, pad)
        self.make(record.cls, target, values, out, pad)
        if record.cls not in self.fits and record.check is not None:
            out.append(f"{pad}{self.const(record.check)}({target})")

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
        """A function of a wire array, ``prefix`` then ``record``: the record it holds."""
        name = f"load_{len(self.functions)}"
        lines = [f"def {name}(items):"]
        self.load_record(record, "items", prefix, "value", lines, "    ")
        lines.append("    return value")
        self.functions.append("\n".join(lines))
        return name

    # -- dumping: Python value -> wire value ----------------------------------------------

    def dump(self, field: Field | Tagged, var: str, out: list[str], pad: str) -> str:
        """Lines that check ``var`` (a Python value); the name of its wire form.

        A scalar's wire form takes its name: it compares as the Python value did.
        """
        if isinstance(field, Int):
            out.append(f"{pad}if type({var}) is not int or {self.bad_int(field, var)}:")
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
                f" or {self.bad_length(field, var)}:"
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
        elif isinstance(field, Tagged):
            out.append(f"{pad}if type({var}) is not {self.const(field.cls)}:")
            out.append(f"{pad}    raise GIVE_UP")
            body, wire = self.fresh("body"), self.fresh("wire")
            out.append(f"{pad}{body} = {var}.body")
            self.dump_record(field.body, body, (field.tag,), wire, out, pad)
            return wire
        else:
            raise TypeError(f"no quick dumper for {type(field).__name__}")
        return var

    def dump_record(
        self,
        record: Record | Layout,
        value: str,
        prefix: tuple[int, ...],
        wire: str,
        out: list[str],
        pad: str,
        checked: bool = False,
    ) -> None:
        """Lines that check ``value`` (exactly a ``record.cls``; ``checked`` if the caller
        knows) and bind ``wire`` to ``[*prefix, *fields]`` on the wire."""
        if not checked:
            out.append(f"{pad}if type({value}) is not {self.const(record.cls)}:")
            out.append(f"{pad}    raise GIVE_UP")
        names = [self.fresh(name) for name, _field in record.fields]
        wires = []
        for (name, field), var in zip(record.fields, names, strict=True):
            out.append(f"{pad}{var} = {value}.{name}")
            wires.append(self.dump(field, var, out, pad))
        self.fits_in_line(record, names, out, pad)
        if record.cls not in self.fits and record.check is not None:
            out.append(f"{pad}{self.const(record.check)}({value})")
        out.append(f"{pad}{wire} = [{', '.join([*map(str, prefix), *wires])}]")

    def dumper(self, record: Record | Layout, prefix: tuple[int, ...]) -> str:
        """A function of exactly a ``record.cls`` (its caller checks): its wire array,
        ``prefix`` first."""
        name = f"dump_{len(self.functions)}"
        lines = [f"def {name}(value):"]
        self.dump_record(record, "value", prefix, "wire", lines, "    ", checked=True)
        lines.append("    return wire")
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
) -> tuple[dict[int, Loader], dict[int, Loader], dict[type, Dumper], dict[type, Dumper]]:
    """Quick loaders and dumpers of whole envelopes: by payload kind, and for an event of
    kind ``event`` (an ``event_cls`` of one body) by body kind.

    ``envelope(kind, payload)`` lays out the envelope of that kind (each kind may have
    its own header ranges) and payload field, on the wire after ``version`` and the kind. A
    loader takes the message's wire array and returns the envelope; a dumper takes the
    envelope (dispatched on the type of its payload, or of its event's body) and returns
    the message's wire array.
    ``fits`` may stand in for a record's check: an expression over its fields that is
    true exactly when the check passes (given fields within their ranges); it sees each
    field's wire value. ``distinct`` names, for a record class, a field in which the
    records of any one list must all differ (this part of a check goes in line).
    """
    compiler = _Compiler(fits, distinct)
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

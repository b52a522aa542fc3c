"""A registry of things known by a tag: a game's rules (``registry.py``) and, in the
client, a game's face. The package's own stay; one from outside may come and go.

Pure: a dict and its rules, nothing else.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Generic, Protocol, TypeVar


class Tagged(Protocol):
    """Anything known by a tag (``TableGame.tag``, ``GameFace.tag``)."""

    @property
    def tag(self) -> str: ...


T = TypeVar("T", bound=Tagged)


class Registry(Generic[T]):
    """``T`` by tag. The ones it is made with are the package's own: they stay. ``unknown``
    is the error a tag nobody registered raises; ``what`` names them in a refusal."""

    def __init__(self, own: Iterable[T], default: str, what: str, unknown: type[KeyError]) -> None:
        self._by_tag = {item.tag: item for item in own}
        self._own = frozenset(self._by_tag)
        self.default, self._what, self._unknown = default, what, unknown

    def register(self, item: T) -> None:
        """Make ``item`` known by its tag; registering the same tag again replaces it."""
        self._by_tag[item.tag] = item

    def unregister(self, tag: str) -> None:
        """Forget the one registered under ``tag`` (``unknown`` if none is); the package's
        own stay (ValueError)."""
        if tag in self._own:
            raise ValueError(f"{tag} is one of this package's {self._what}")
        if self._by_tag.pop(tag, None) is None:
            raise self._unknown(tag)

    @contextmanager
    def registered(self, item: T) -> Iterator[T]:
        """``item`` registered for the ``with`` block, and the registry as it was after it
        (one it replaced comes back)."""
        before = self._by_tag.get(item.tag)
        self._by_tag[item.tag] = item
        try:
            yield item
        finally:
            if before is None:
                self._by_tag.pop(item.tag, None)
            else:
                self._by_tag[item.tag] = before

    def __getitem__(self, tag: str) -> T:
        try:
            return self._by_tag[tag]
        except KeyError:
            raise self._unknown(tag) from None

    def tags(self) -> list[str]:
        """Every registered tag, the default first."""
        return [self.default, *sorted(tag for tag in self._by_tag if tag != self.default)]

    def values(self) -> list[T]:
        """Every registered one, in the order of ``tags``."""
        return [self._by_tag[tag] for tag in self.tags()]

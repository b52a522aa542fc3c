"""Who wants to hear that a session's snapshot changed: the client's redraw, the TV page."""

from __future__ import annotations

from collections.abc import Callable


class Subscribers:
    """Callbacks told, in the order they came, each time something changed."""

    def __init__(self) -> None:
        self._callbacks: list[Callable[[], None]] = []

    def subscribe(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Tell ``callback`` of every change; the function returned stops it."""
        self._callbacks.append(callback)

        def unsubscribe() -> None:
            if callback in self._callbacks:
                self._callbacks.remove(callback)

        return unsubscribe

    def tell(self) -> None:
        for callback in list(self._callbacks):
            callback()

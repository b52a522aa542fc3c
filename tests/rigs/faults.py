"""A test-only fault layer for the transport: lose some messages, delay the rest.

It is switched on by the ``BLITZ_FAULTS`` environment variable, for example
``BLITZ_FAULTS="loss=0.1,delay=20,seed=7"``:

``loss``
    the share of outgoing messages silently dropped, in [0, 1).
``delay``
    milliseconds every kept message waits before it is handed to ZeroMQ.
``jitter``
    up to this many extra milliseconds, drawn per message; with jitter, messages
    to one peer may overtake each other, which a real ZeroMQ link never does.
``seed``
    seeds ``random.Random`` so a run can be repeated (default 0).

The layer works on the sending side only, so each node decides the fate of its
own messages and a run with a fixed seed and a fixed send order is repeatable.
"""

from __future__ import annotations

import math
import os
import random
from collections.abc import Mapping
from dataclasses import dataclass

ENV_VAR = "BLITZ_FAULTS"


class FaultSpecError(ValueError):
    """The ``BLITZ_FAULTS`` value cannot be read; the message says which part."""


@dataclass(frozen=True, slots=True)
class FaultConfig:
    """How a sender mistreats its own messages. The defaults do nothing."""

    loss: float = 0.0
    delay_ms: float = 0.0
    seed: int = 0
    jitter_ms: float = 0.0

    def __post_init__(self) -> None:
        if not 0.0 <= self.loss < 1.0:
            raise FaultSpecError(f"loss must be in [0, 1), got {self.loss}")
        if self.delay_ms < 0.0 or self.jitter_ms < 0.0:
            raise FaultSpecError("delay and jitter must not be negative")

    @property
    def is_active(self) -> bool:
        return self.loss > 0.0 or self.delay_ms > 0.0 or self.jitter_ms > 0.0


class Faults:
    """Draws each message's fate from one seeded random stream."""

    def __init__(self, config: FaultConfig) -> None:
        self.config = config
        self._rng = random.Random(config.seed)

    def fate(self) -> float | None:
        """``None`` to drop the next message, else how many seconds to hold it."""
        config = self.config
        if config.loss and self._rng.random() < config.loss:
            return None
        extra = self._rng.uniform(0.0, config.jitter_ms) if config.jitter_ms else 0.0
        return (config.delay_ms + extra) / 1000.0


_FIELDS = {"loss": "loss", "delay": "delay_ms", "jitter": "jitter_ms", "seed": "seed"}


def parse_faults(spec: str) -> FaultConfig | None:
    """Read ``"loss=0.1,delay=20,seed=7"``; an empty or blank spec means no faults."""
    if not spec.strip():
        return None
    values: dict[str, float | int] = {}
    for item in spec.split(","):
        key, sep, raw = (part.strip() for part in item.partition("="))
        if not sep or not key:
            raise FaultSpecError(f"{ENV_VAR}: expected key=value, got {item.strip()!r}")
        if key not in _FIELDS:
            known = ", ".join(_FIELDS)
            raise FaultSpecError(f"{ENV_VAR}: unknown key {key!r} (known: {known})")
        if _FIELDS[key] in values:
            raise FaultSpecError(f"{ENV_VAR}: {key!r} given twice")
        values[_FIELDS[key]] = _parse_number(key, raw)
    try:
        return FaultConfig(**values)  # type: ignore[arg-type]
    except FaultSpecError as error:
        raise FaultSpecError(f"{ENV_VAR}: {error}") from None


def _parse_number(key: str, raw: str) -> float | int:
    try:
        number: float | int = int(raw) if key == "seed" else float(raw)
    except ValueError:
        kind = "an integer" if key == "seed" else "a number"
        raise FaultSpecError(f"{ENV_VAR}: {key} must be {kind}, got {raw!r}") from None
    if not math.isfinite(number):
        raise FaultSpecError(f"{ENV_VAR}: {key} must be finite, got {raw!r}")
    return number


def faults_from_env(environ: Mapping[str, str] | None = None) -> FaultConfig | None:
    """The fault configuration in ``BLITZ_FAULTS``, or ``None`` when it is unset."""
    env = os.environ if environ is None else environ
    return parse_faults(env.get(ENV_VAR, ""))

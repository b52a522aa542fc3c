"""A private table's passphrase at the terminal: checked as a flag, taken from the
environment or asked at a hidden prompt, and asked twice of the node that founds the table,
since a typo there would keep every friend out. Never shown, never in the shell's history."""

from __future__ import annotations

import argparse
import getpass
import os
import sys

from dutchblitz.protocol.limits import MAX_PASSPHRASE

PASSPHRASE_ENV = "BLITZ_PASSPHRASE"
AGAIN = "You are the first at table {table!r}: type its passphrase again, to be sure: "
DIFFER = "the two passphrases differ: type it twice again"


def checked(value: str) -> str:
    """``--passphrase``'s type: 1 to MAX_PASSPHRASE bytes."""
    if not value or len(value.encode()) > MAX_PASSPHRASE:
        raise argparse.ArgumentTypeError(f"a passphrase is 1 to {MAX_PASSPHRASE} bytes")
    return value


def _asked(table: str) -> str:
    return f"Passphrase for table {table!r}: "


def ask(parser: argparse.ArgumentParser, table: str) -> str:
    """The phrase for ``--private``: from $BLITZ_PASSPHRASE, or asked at a hidden prompt.

    Unlike ``--passphrase PHRASE`` it never shows in ``ps`` or the shell's history.
    """
    given = os.environ.get(PASSPHRASE_ENV)
    if given is None:
        if not sys.stdin.isatty():
            parser.error(
                f"--private asks for the passphrase on a terminal, or set {PASSPHRASE_ENV}"
            )
        try:
            given = getpass.getpass(_asked(table))
        except (EOFError, KeyboardInterrupt):
            parser.error("--private: no passphrase given")
    try:
        return checked(given)
    except argparse.ArgumentTypeError as error:
        parser.error(f"--private: {error}")


def typed_at_terminal() -> bool:
    """The phrase was typed (not taken from the environment): the founder confirms it."""
    return os.environ.get(PASSPHRASE_ENV) is None


def ask_again(table: str, first: str | None) -> str:
    """The founder types the phrase again; on a mismatch, both again, until they agree.
    EOFError or KeyboardInterrupt when the player gives up."""
    again = getpass.getpass(AGAIN.format(table=table))
    while again != first:
        print(f"blitz-node: {DIFFER}", file=sys.stderr)
        first = _typed(table)
        again = getpass.getpass(AGAIN.format(table=table))
    return again


def _typed(table: str) -> str:
    """A phrase typed at the hidden prompt, asked until it is one."""
    while True:
        try:
            return checked(getpass.getpass(_asked(table)))
        except argparse.ArgumentTypeError as error:
            print(f"blitz-node: --private: {error}", file=sys.stderr)

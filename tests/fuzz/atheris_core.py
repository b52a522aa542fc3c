"""Drive the replica fuzz targets with atheris (coverage-guided) for as long as wanted.

    PYTHONPATH=/tmp/ns-<worktree>:. python tests/fuzz/atheris_core.py [TARGET] \\
        -max_total_time=600 [libFuzzer flags]

TARGET is one of ``hostile`` (default), ``forged``, ``bytes``: the Hypothesis tests of
tests/protocol/test_fuzz_core.py, fed by atheris through ``fuzz_one_input``, so both
runs share one set of targets. A failure prints the failing plan and stops. Without
atheris installed this says so and exits 0 (the Hypothesis tests still run in CI).
"""

from __future__ import annotations

import sys

TARGETS = {
    "hostile": "test_hostile_members_and_strangers_change_nothing_for_the_rest",
    "forged": "test_forged_senders_never_raise_nor_grow_without_bound",
    "bytes": "test_arbitrary_bytes_are_refused_without_a_trace",
}


def main() -> int:
    try:
        import atheris
    except ImportError:
        print("atheris is not installed: nothing to run")
        return 0
    args = sys.argv[1:]
    name = args.pop(0) if args and args[0] in TARGETS else "hostile"
    with atheris.instrument_imports():
        from tests.protocol import test_fuzz_core
    test = getattr(test_fuzz_core, TARGETS[name])
    atheris.Setup([sys.argv[0], *args], test.hypothesis.fuzz_one_input)
    atheris.Fuzz()
    return 0


if __name__ == "__main__":
    sys.exit(main())

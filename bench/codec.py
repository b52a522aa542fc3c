"""How fast the codec encodes and decodes, against bare msgpack of the same wire data.

    python bench/codec.py [--quick]

The same figures as the codec row of bench/run.py (``codec_figures``): encode and decode
per second of a typical EVENT (a PLAY) and HEARTBEAT, bare ``msgpack.packb`` and
``unpackb`` of the same wire values, and ``codec_ratio``, the time of one encode and one
decode over the time of one packb and one unpackb.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from run import GOALS, codec_figures


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds")
    args = parser.parse_args(argv)
    figures = codec_figures(args.quick)
    print(f"encode {figures['encode_per_s']:,.0f}/s, decode {figures['decode_per_s']:,.0f}/s")
    print(
        f"bare packb {figures['bare_packb_per_s']:,.0f}/s, "
        f"unpackb {figures['bare_unpackb_per_s']:,.0f}/s"
    )
    print(
        f"codec_ratio {figures['codec_ratio']:.2f} (encode {figures['encode_ratio']:.2f}, "
        f"decode {figures['decode_ratio']:.2f}); goal <= {GOALS['codec_ratio']}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

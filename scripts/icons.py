"""Draw the web app's icons (the manifest's, docs/web.md, "Offline"): a playing card with a red heart on
the table's green, as PNG files of 192 and 512 pixels in ``koloda/web/static/``. No imaging library: the
shapes are tested pixel by pixel, 4x4 samples a pixel for smooth edges, and written with zlib.

    .venv/bin/python scripts/icons.py          # writes icon-192.png and icon-512.png
"""

from __future__ import annotations

import struct
import sys
import zlib
from pathlib import Path

STATIC = Path(__file__).resolve().parent.parent / "src" / "koloda" / "web" / "static"
SIZES = (192, 512)
GREEN = (21, 87, 54)
WHITE = (250, 248, 240)
RED = (196, 30, 45)
SAMPLES = 4


def _rounded_rect(x: float, y: float, left: float, top: float, right: float, bottom: float, r: float) -> bool:
    if not (left <= x <= right and top <= y <= bottom):
        return False
    cx = min(max(x, left + r), right - r)
    cy = min(max(y, top + r), bottom - r)
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r


def _heart(x: float, y: float) -> bool:
    """The heart curve (x² + y² - 1)³ - x²y³ <= 0, centred at 0.5, 0.55 of the icon, 0.2 across."""
    u, v = (x - 0.5) / 0.2, -(y - 0.53) / 0.2
    return (u * u + v * v - 1) ** 3 - u * u * v**3 <= 0


def colour(x: float, y: float) -> tuple[int, int, int]:
    """The icon's colour at (x, y), both from 0 to 1 (the whole square is the table: a maskable icon)."""
    if _rounded_rect(x, y, 0.24, 0.14, 0.76, 0.86, 0.06):
        return RED if _heart(x, y) else WHITE
    return GREEN


def png(size: int) -> bytes:
    rows = []
    for py in range(size):
        row = bytearray([0])
        for px in range(size):
            total = [0, 0, 0]
            for sy in range(SAMPLES):
                for sx in range(SAMPLES):
                    c = colour((px + (sx + 0.5) / SAMPLES) / size, (py + (sy + 0.5) / SAMPLES) / size)
                    total = [t + v for t, v in zip(total, c, strict=True)]
            row += bytes(round(t / SAMPLES**2) for t in total)
        rows.append(bytes(row))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"".join(rows), 9))
        + chunk(b"IEND", b"")
    )


def main() -> int:
    for size in SIZES:
        (STATIC / f"icon-{size}.png").write_bytes(png(size))
        print(STATIC / f"icon-{size}.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())

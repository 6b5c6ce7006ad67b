"""Paint the app icons (`make icons`): two fanned cards on the brand blue.

Pure Python (zlib and struct) so the icons need no image library; the SVG
icon is the same drawing as vectors. The output is committed under static/icons.
"""

from __future__ import annotations

import math
import struct
import sys
import zlib
from pathlib import Path

BLUE = (10, 88, 168)
BACK = (219, 231, 245)
FRONT = (255, 255, 255)
RED = (198, 40, 40)
# Cards in units of the icon's side: centre, size, corner radius, turn in degrees.
CARDS = (
    ((0.42, 0.52), (0.34, 0.48), 0.04, -12.0, BACK),
    ((0.57, 0.50), (0.34, 0.48), 0.04, 9.0, FRONT),
)
DIAMOND = ((0.57, 0.50), (0.085, 0.13), 9.0)  # on the front card: centre, half-sizes, turn


def _local(x: float, y: float, centre: tuple[float, float], turn: float) -> tuple[float, float]:
    angle = math.radians(-turn)
    dx, dy = x - centre[0], y - centre[1]
    return dx * math.cos(angle) - dy * math.sin(angle), dx * math.sin(angle) + dy * math.cos(angle)


def _colour_at(x: float, y: float, scale: float) -> tuple[int, int, int]:
    """The colour at (x, y) in icon units; `scale` shrinks the drawing into a safe zone."""
    x, y = 0.5 + (x - 0.5) / scale, 0.5 + (y - 0.5) / scale
    colour = BLUE
    for centre, (width, height), radius, turn, fill in CARDS:
        lx, ly = _local(x, y, centre, turn)
        dx = max(abs(lx) - (width / 2 - radius), 0.0)
        dy = max(abs(ly) - (height / 2 - radius), 0.0)
        if abs(lx) <= width / 2 and abs(ly) <= height / 2 and dx * dx + dy * dy <= radius * radius:
            colour = fill
    centre, (half_w, half_h), turn = DIAMOND
    lx, ly = _local(x, y, centre, turn)
    if abs(lx) / half_w + abs(ly) / half_h <= 1:
        colour = RED
    return colour


def png(size: int, scale: float = 1.0) -> bytes:
    """A size x size RGB PNG, each pixel averaged over 3 x 3 samples."""
    rows = []
    samples = [(i + 0.5) / 3 for i in range(3)]
    for py in range(size):
        row = bytearray([0])
        for px in range(size):
            total = [0, 0, 0]
            for sy in samples:
                for sx in samples:
                    r, g, b = _colour_at((px + sx) / size, (py + sy) / size, scale)
                    total[0] += r
                    total[1] += g
                    total[2] += b
            row += bytes(round(c / 9) for c in total)
        rows.append(bytes(row))

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    data = zlib.compress(b"".join(rows), 9)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", data) + chunk(b"IEND", b"")
    )


def svg() -> str:
    def hex_of(colour: tuple[int, int, int]) -> str:
        return "#{:02x}{:02x}{:02x}".format(*colour)

    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">',
        f'<rect width="100" height="100" rx="18" fill="{hex_of(BLUE)}"/>',
    ]
    for (cx, cy), (width, height), radius, turn, fill in CARDS:
        parts.append(
            f'<rect x="{(cx - width / 2) * 100:.1f}" y="{(cy - height / 2) * 100:.1f}" '
            f'width="{width * 100:.1f}" height="{height * 100:.1f}" rx="{radius * 100:.1f}" '
            f'fill="{hex_of(fill)}" transform="rotate({turn} {cx * 100:.1f} {cy * 100:.1f})"/>'
        )
    (cx, cy), (half_w, half_h), turn = DIAMOND
    points = [(cx, cy - half_h), (cx + half_w, cy), (cx, cy + half_h), (cx - half_w, cy)]
    path = " ".join(f"{x * 100:.1f},{y * 100:.1f}" for x, y in points)
    parts.append(
        f'<polygon points="{path}" fill="{hex_of(RED)}" '
        f'transform="rotate({turn} {cx * 100:.1f} {cy * 100:.1f})"/>'
    )
    parts.append("</svg>")
    return "".join(parts) + "\n"


def main(folder: str) -> None:
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    (out / "icon.svg").write_text(svg())
    for name, size, scale in (
        ("icon-192.png", 192, 1.0),
        ("icon-512.png", 512, 1.0),
        ("icon-maskable-512.png", 512, 0.8),
        ("apple-touch-icon.png", 180, 0.9),
    ):
        (out / name).write_bytes(png(size, scale))
        print(f"wrote {out / name}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "static/icons")

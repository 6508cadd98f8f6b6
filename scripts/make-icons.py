#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The tpscope authors
"""Writes packaging/icons/tpscope.svg and the PNG sizes the package installs, from one list of
rounded rectangles (four GPU lanes: compute, then the all-reduce where the early ranks wait for the
last one). Python's standard library only; the PNGs are rasterised with 4x4 supersampling.
Run from the repository root after changing the shapes: scripts/make-icons.py"""
import struct
import zlib

SIZE = 256
# x, y, width, height, corner radius, colour (RGB hex)
SHAPES = [
    (8, 8, 240, 240, 40, "1f2933"),        # background
    (36, 52, 110, 28, 6, "4c9be8"),        # rank 0: compute, arrives last
    (150, 52, 70, 28, 6, "f5a524"),        # its all-reduce (short: no wait)
    (36, 100, 64, 28, 6, "4c9be8"),        # rank 1: early
    (104, 100, 116, 28, 6, "f5a524"),      # long all-reduce: waits for rank 0
    (36, 148, 84, 28, 6, "4c9be8"),
    (124, 148, 96, 28, 6, "f5a524"),
    (36, 196, 46, 28, 6, "4c9be8"),
    (86, 196, 134, 28, 6, "f5a524"),
    (146, 40, 4, 196, 2, "e5e7eb"),        # the last arrival
]


def svg():
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{SIZE}" height="{SIZE}" viewBox="0 0 {SIZE} {SIZE}">']
    for x, y, w, h, r, c in SHAPES:
        parts.append(f'  <rect x="{x}" y="{y}" width="{w}" height="{h}" rx="{r}" fill="#{c}"/>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def inside(px, py, shape):
    x, y, w, h, r, _ = shape
    if px < x or py < y or px >= x + w or py >= y + h:
        return False
    cx = min(max(px, x + r), x + w - r)
    cy = min(max(py, y + r), y + h - r)
    return (px - cx) ** 2 + (py - cy) ** 2 <= r * r


def png(size):
    ss = 4
    scale = SIZE / size
    rows = []
    for j in range(size):
        row = bytearray([0])
        for i in range(size):
            acc = [0.0, 0.0, 0.0, 0.0]
            for sj in range(ss):
                for si in range(ss):
                    px = (i + (si + 0.5) / ss) * scale
                    py = (j + (sj + 0.5) / ss) * scale
                    colour = None
                    for shape in SHAPES:
                        if inside(px, py, shape):
                            colour = shape[5]
                    if colour:
                        rgb = [int(colour[k:k + 2], 16) for k in (0, 2, 4)]
                        for k in range(3):
                            acc[k] += rgb[k]
                        acc[3] += 255
            n = ss * ss
            alpha = acc[3] / n
            if alpha > 0:
                row += bytes(int(round(acc[k] / (acc[3] / 255))) for k in range(3)) + bytes([int(round(alpha))])
            else:
                row += bytes(4)
        rows.append(bytes(row))
    raw = zlib.compress(b"".join(rows), 9)

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)) +
            chunk(b"IDAT", raw) + chunk(b"IEND", b""))


if __name__ == "__main__":
    with open("packaging/icons/tpscope.svg", "w") as f:
        f.write(svg())
    for size in (48, 64, 128, 256):
        with open(f"packaging/icons/tpscope-{size}.png", "wb") as f:
            f.write(png(size))

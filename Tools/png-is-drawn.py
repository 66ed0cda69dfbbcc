#!/usr/bin/env python3
"""Fails unless a PNG decodes and shows something: at least 16 distinct colours and at least 1% of
its pixels differing from the most common colour (a blank or one-colour image fails).

Usage: Tools/png-is-drawn.py FILE.png   (8-bit RGB or RGBA, as Bonework and Chromium write)
"""
import collections
import struct
import sys
import zlib


def pixels(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, width, height, channels = 8, b"", 0, 0, 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or colour not in (2, 6) or interlace:
                raise ValueError(f"expected 8-bit RGB or RGBA without interlacing, found depth {depth} type {colour}")
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    previous = bytearray(stride)
    rows = []
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 0xFF
        rows.append(bytes(line))
        previous = line
    return width, height, channels, rows


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    path = sys.argv[1]
    try:
        width, height, channels, rows = pixels(path)
    except (OSError, ValueError, zlib.error, struct.error) as error:
        print(f"{path}: {error}", file=sys.stderr)
        return 1
    counts = collections.Counter(
        row[i:i + channels] for row in rows[::2] for i in range(0, len(row), channels * 2))
    total = sum(counts.values())
    background = counts.most_common(1)[0][1] if counts else 0
    drawn = 1 - background / total if total else 0
    print(f"{path}: {width}x{height}, {len(counts)} colours, {drawn:.1%} of pixels off the background")
    if len(counts) < 16 or drawn < 0.01:
        print(f"{path}: looks blank", file=sys.stderr)
        return 1
    return 0


sys.exit(main())

#!/usr/bin/env bash
# Builds and runs Examples/HelloBonework, a package that depends on this checkout by path and
# imports Bonework alone, as a game prototype's package would; checks the PNG it renders.
#   Tools/sample-package.sh     (writes out/sample/hello.png; needs ../shared/spine-examples)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
mkdir -p out/sample
cd Examples/HelloBonework
echo "== building the sample package against $root"
time swift build
echo "== running it"
"$(swift build --show-bin-path)/HelloBonework" "$root/../shared/spine-examples" "$root/out/sample/hello.png"
cd "$root"
# The PNG must decode and show something: several colours, not one flat background.
python3 - out/sample/hello.png <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat, width, height = 8, b"", 0, 0
while pos < len(data):
    length, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + length]
    if kind == b"IHDR":
        width, height, depth, colour = struct.unpack(">IIBB", body[:10])
        assert depth == 8 and colour == 6, "expected 8-bit RGBA"
    elif kind == b"IDAT":
        idat += body
    pos += 12 + length
raw = zlib.decompress(idat)
stride = width * 4 + 1
# Filter bytes aside, distinct byte values across rows say whether anything was drawn.
distinct = {raw[row * stride + 1:(row + 1) * stride] for row in range(height)}
print(f"sample: {sys.argv[1]} is {width}x{height}, {len(distinct)} distinct rows")
assert width > 0 and height > 0 and len(distinct) > height // 4, "the image looks blank"
PY

#!/usr/bin/env python3
"""Judges many image pairs in one process with the shared compare-image.py's own rules.

usage: compare-images.py COMPARE_IMAGE_PY PAIRS
PAIRS: a file, one pair per line, tab-separated: ACTUAL.png, REFERENCE.png, a label. Prints one line per
pair, "PASS label" or "FAIL label: metrics", then "checked N, failed F"; exits 1 when any failed.
Loading compare-image.py once instead of once per pair is what makes a thousand pairs affordable.
"""
import importlib.util
import sys


def main(argv):
    if len(argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    spec = importlib.util.spec_from_file_location("compare_image", argv[0])
    judge = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(judge)
    checked = failed = 0
    for line in open(argv[1]):
        line = line.rstrip("\n")
        if not line:
            continue
        actual, reference, label = line.split("\t", 2)
        wa, ha, pa = judge.read_png(actual)
        wb, hb, pb = judge.read_png(reference)
        checked += 1
        if (wa, ha) != (wb, hb):
            failed += 1
            print("FAIL %s: size %dx%d != %dx%d" % (label, wa, ha, wb, hb))
            continue
        m, _, _, _ = judge.compare(pa, pb, wa, ha)
        if judge.verdict(m):
            print("PASS %s" % label)
        else:
            failed += 1
            print("FAIL %s: core %d px, tpixels>16 %.3f%%, tmean %.3f, max %d" % (
                label, m["core_pixels"], 100 * m["tfrac_over_tol"], m["tmean"], m["max"]))
    print("checked %d, failed %d" % (checked, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env python3
"""Documentation coverage of Bonework's public API, from the compiler's symbol graphs.

Usage: Tools/doc-coverage.sh [--list]   (builds the symbol graphs, then runs this)
       Tools/doc-coverage.py SYMBOLGRAPH_DIR [--list]

Counts every public or open declaration whose source is under Sources/ (members the compiler
synthesises or inherits are left out: they have no source of their own) and reports, per module,
how many carry a doc comment. Exits 1 when one does not, naming each missing one as FILE:LINE
KIND NAME with --list (always when there are 40 or fewer).
"""
import collections
import glob
import json
import os
import sys


def main() -> int:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 1:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    graph_dir = args[0]
    root = os.path.realpath(os.path.join(os.path.dirname(__file__), ".."))
    sources = "file://" + os.path.join(root, "Sources") + "/"
    total = collections.Counter()
    missing = collections.defaultdict(list)
    seen = set()
    files = sorted(glob.glob(os.path.join(graph_dir, "*.symbols.json")))
    if not files:
        print(f"doc-coverage: no symbol graphs in {graph_dir}", file=sys.stderr)
        return 2
    for path in files:
        graph = json.load(open(path))
        module = graph["module"]["name"]
        for symbol in graph["symbols"]:
            if symbol.get("accessLevel") not in ("public", "open"):
                continue
            uri = symbol.get("location", {}).get("uri", "")
            if not uri.startswith(sources):
                continue
            line = symbol["location"]["position"]["line"] + 1
            key = (symbol["identifier"]["precise"], uri, line)
            if key in seen:
                continue
            seen.add(key)
            total[module] += 1
            if not symbol.get("docComment"):
                where = f"{uri[len(sources) - len('Sources/'):]}:{line}"
                kind = symbol["kind"]["identifier"].removeprefix("swift.")
                name = ".".join(symbol.get("pathComponents", [symbol["names"]["title"]]))
                missing[module].append(f"{where} {kind} {name}")
    print(f"{'module':<22} {'public':>7} {'documented':>11} {'coverage':>9}")
    for module in sorted(total):
        documented = total[module] - len(missing[module])
        print(f"{module:<22} {total[module]:>7} {documented:>11} {100.0 * documented / total[module]:>8.1f}%")
    all_total = sum(total.values())
    all_missing = sum(len(v) for v in missing.values())
    print(f"{'all':<22} {all_total:>7} {all_total - all_missing:>11} "
          f"{100.0 * (all_total - all_missing) / max(all_total, 1):>8.1f}%")
    if all_missing:
        if "--list" in sys.argv or all_missing <= 40:
            for module in sorted(missing):
                for entry in sorted(missing[module]):
                    print(f"missing: {entry}")
        print(f"doc-coverage: {all_missing} public declarations have no doc comment", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

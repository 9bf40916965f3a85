"""`fmt` on the dialect corpora: every comment kept, the same tree, and a fixed point.

    python benchmarks/dialect_fmt.py [--set fond|ppddl|contingent|mapddl ...] [--only TEXT] [--json FILE]

The sets are the public benchmark sets of issue 28, read from the fetched copies under /work/.mirror
(`git archive` into a temporary folder; `--root SET=DIR` to read a folder instead):

- fond: AI-Planning/fond-domains, `benchmarks/**/*.pddl` (2,033 files);
- ppddl: the IPPC-2008 and Little-Thiebaux sets kept with the ASNets sources (qxcv/asnets,
  `problems/ippc08/**/*.pddl` and `problems/little-thiebaux/**/*.pddl`, 209 files);
- contingent: the CLG set kept with cp2fsc-and-replanner (`benchmarks/replanner/CLG/**/*.pddl`, 481);
- mapddl: CoDMAP-2015 as universal-pddl-parser-multiagent keeps it (`domains/codmap15/**/*.pddl`, 262).

For each file that parses: the comment tokens its language's lexer finds before and after `fmt`
(`pddltools.formatting.format_pddl`, as `pddltools fmt` prints), whether the output parses to a tree
equal to the input's, whether formatting the output again changes nothing, and how many comments moved
(W121, each said) and how many were displaced silently (a comment found neither after the two tokens
it followed nor before the two it preceded, less those W121 reported). A file that does not parse is
listed with its first error. Prints the counts per set and every failing file; exits 0 (a measurement).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from bisect import bisect_left
from collections import Counter
from pathlib import Path
from typing import Any

from pddltools import dialects
from pddltools.diagnostics import Diagnostic, Source
from pddltools.formatting import format_pddl
from pddltools.syntax.errors import ParseError

MIRROR = Path("/work/.mirror")
SETS: dict[str, tuple[str, tuple[str, ...]]] = {
    "fond": ("AI-Planning+fond-domains", ("benchmarks",)),
    "ppddl": ("qxcv+asnets", ("problems/ippc08", "problems/little-thiebaux")),
    "contingent": ("bonetblai+cp2fsc-and-replanner", ("benchmarks/replanner/CLG",)),
    "mapddl": ("aig-upf+universal-pddl-parser-multiagent", ("domains/codmap15",)),
}


def files_of(name: str, scratch: Path, roots: dict[str, Path]) -> list[Path]:
    if name in roots:
        return sorted(roots[name].rglob("*.pddl"))
    repo, folders = SETS[name]
    where = scratch / name
    where.mkdir()
    subprocess.run(f"git --git-dir={MIRROR / repo / 'repo'} archive HEAD {' '.join(folders)} | tar -x -C {where}",
                   shell=True, check=True)
    return sorted(p for f in folders for p in (where / f).rglob("*.pddl"))


def language(node: object) -> str:
    return dialects.of_node(node).name


def _contexts(source: Source, name: str) -> Counter[tuple[str, ...]]:
    """Each comment with the two tokens before it and the two after it (the place it is at)."""
    dialect = dialects.by_name(name) or dialects.CORE
    language = dialects.implementation(dialect).language or dialects.implementation(dialects.CORE).language
    trivia = language.trivia(source)
    text, tokens = source.text, [t for t in trivia.tokens if t not in set(trivia.comments)]
    starts = [t[0] for t in tokens]
    found: Counter[tuple[str, ...]] = Counter()
    for start, end in trivia.comments:
        at = bisect_left(starts, start)
        before = tuple(text[a:b] for a, b in tokens[max(at - 2, 0):at])
        after = tuple(text[a:b] for a, b in tokens[at:at + 2])
        found[(text[start:end].rstrip(), "|".join(before), "|".join(after))] += 1
    return found


def _displaced(old: Counter[tuple[str, ...]], new: Counter[tuple[str, ...]]) -> int:
    """Comments found neither after the same tokens nor before the same tokens as in the input."""
    def side(counter: Counter[tuple[str, ...]], i: int) -> Counter[tuple[str, str]]:
        out: Counter[tuple[str, str]] = Counter()
        for key, n in counter.items():
            out[(key[0], key[i])] += n
        return out
    lost_before = side(old, 1) - side(new, 1)
    lost_after = side(old, 2) - side(new, 2)
    lost: Counter[str] = Counter()
    for comment, n in lost_before.items():
        lost[comment[0]] += n
    shared: Counter[str] = Counter()
    for comment, n in lost_after.items():
        shared[comment[0]] += n
    return sum((lost & shared).values())


def one(path: Path, label: str) -> dict[str, Any]:
    text = path.read_text(encoding="utf-8", errors="replace")
    source = Source(text, label)
    try:
        node = dialects.parse(source)
    except ParseError as exc:
        first = exc.diagnostics[0] if getattr(exc, "diagnostics", None) else None
        return {"status": "unreadable", "reason": first.message if first else str(exc)}
    name = language(node)
    started = time.perf_counter()
    warnings: list[Diagnostic] = []
    out = format_pddl(source, warnings)
    seconds = time.perf_counter() - started
    printed = Source(out, label)
    entry: dict[str, Any] = {"language": name, "seconds": round(seconds, 4),
                             "comments": dialects.comment_count(source, name),
                             "moved": sum(1 for w in warnings if w.code == "W121")}
    try:
        again = dialects.parse(printed)
    except ParseError as exc:
        first = exc.diagnostics[0] if getattr(exc, "diagnostics", None) else None
        entry.update(status="output-unreadable", reason=first.message if first else str(exc))
        return entry
    entry["comments_after"] = dialects.comment_count(printed, language(again))
    entry["displaced"] = max(0, _displaced(_contexts(source, name), _contexts(printed, language(again)))
                             - entry["moved"])
    entry["same_tree"] = again == node
    entry["fixed_point"] = format_pddl(printed, []) == out
    ok = entry["comments_after"] == entry["comments"] and entry["same_tree"] and entry["fixed_point"] \
        and not entry["displaced"]
    entry["status"] = "ok" if ok else "failed"
    return entry


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", action="append", choices=sorted(SETS), help="the sets to run (default: all)")
    parser.add_argument("--root", action="append", default=[], metavar="SET=DIR", help="read SET from DIR")
    parser.add_argument("--only", help="only files whose path contains this text")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    roots = {k: Path(v) for k, v in (r.split("=", 1) for r in args.root)}
    results: dict[str, dict[str, dict[str, Any]]] = {}
    with tempfile.TemporaryDirectory() as scratch:
        for name in args.set or list(SETS):
            found = files_of(name, Path(scratch), roots)
            base = roots.get(name, Path(scratch) / name)
            results[name] = {}
            for path in found:
                label = str(path.relative_to(base))
                if args.only and args.only not in label:
                    continue
                results[name][label] = one(path, label)
    print(f"{'set':12} {'files':>6} {'ok':>6} {'failed':>6} {'unreadable':>10} {'comments':>9} {'after':>9} "
          f"{'moved':>6} {'displaced':>9} {'fmt s':>7}")
    for name, entries in results.items():
        rows = list(entries.values())
        count = sum(r.get("comments", 0) for r in rows)
        after = sum(r.get("comments_after", 0) for r in rows)
        print(f"{name:12} {len(rows):6} {sum(r['status'] == 'ok' for r in rows):6} "
              f"{sum(r['status'] in ('failed', 'output-unreadable') for r in rows):6} "
              f"{sum(r['status'] == 'unreadable' for r in rows):10} {count:9} {after:9} "
              f"{sum(r.get('moved', 0) for r in rows):6} {sum(r.get('displaced', 0) for r in rows):9} "
              f"{sum(r.get('seconds', 0) for r in rows):7.1f}")
    for name, entries in results.items():
        for label, entry in entries.items():
            if entry["status"] != "ok":
                detail = entry.get("reason") or ", ".join(
                    f"{k}={entry.get(k)}"
                    for k in ("comments", "comments_after", "displaced", "same_tree", "fixed_point"))
                print(f"{name}: {label}: {entry['status']}: {detail}")
    if args.json is not None:
        args.json.write_text(json.dumps(results, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

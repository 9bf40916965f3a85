"""All-outcomes determinisation of the FOND benchmark set against fond-utils' `determinize`.

    python benchmarks/fond_determinise.py [--corpus DIR] [--fond-utils-python PY] [--only TEXT]
                                          [--per-folder N] [--json FILE]

The `.pddl` files of AI-Planning/fond-domains (`--corpus`, its `benchmarks/` folder; default the fetched
copy under /work/.mirror, unpacked to a temporary folder) that hold a domain, at most `--per-folder`
per folder (default 4, the smallest; 0 for all 570), are determinised twice:
by `pddltools.compile.determinise` (all-outcomes) and by fond-utils (`fondutils.determizer.determinize`,
run in a child process of `--fond-utils-python`, default benchmarks/.venv's; `pip install
fond-utils==0.2.0`). fond-utils' output is printed by the `pddl` package and read back by pddltools'
PDDL parser, and both domains are compared structurally, up to names and ordering:

- actions are grouped by the original action they come from (ours by their plan-map origin, fond-utils'
  by the name before `_DETDUP_`);
- each group is compared as a set of (parameter types, precondition, effect) after renaming parameters by
  position and quantified variables by depth, with `and`s flattened into sets, empty `and`s dropped
  and `(and)` preconditions read as none.

A file one tool cannot read is counted apart (with the tool's first line of error) and not compared.
Prints one line per domain folder and every difference found; exits 0 (this is a measurement).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import fields, is_dataclass
from pathlib import Path
from typing import Any

from pddltools import dialects
from pddltools.compile.determinise import determinise
from pddltools.compile.task import ParsedTask
from pddltools.diagnostics import Source
from pddltools.fond.ast import OneOf
from pddltools.pddl import ast

ROOT = Path(__file__).resolve().parents[1]
MIRROR = Path("/work/.mirror/AI-Planning+fond-domains/repo")

# The child: reads file paths as JSON on stdin, prints one JSON line per file with fond-utils' domain.
_CHILD = r"""
import contextlib, io, json, sys
import fondutils.determizer as det
from fondutils.pddl import parse_domain_problem
from pddl.formatter import domain_to_string
det.DEBUG = False
for path in json.load(sys.stdin):
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            domain, _ = parse_domain_problem(path)
            if domain is None:
                raise ValueError("no domain")
            text = domain_to_string(det.determinize(domain))
        print(json.dumps({"path": path, "text": text}), flush=True)
    except Exception as exc:
        first = (str(exc).strip().splitlines() or [""])[0]
        print(json.dumps({"path": path, "error": f"{type(exc).__name__}: {first}"[:200]}), flush=True)
"""


def corpus_folder(given: Path | None, scratch: Path) -> Path:
    if given is not None:
        return given
    subprocess.run(f"git --git-dir={MIRROR} archive HEAD benchmarks | tar -x -C {scratch}", shell=True, check=True)
    return scratch / "benchmarks"


def domain_files(corpus: Path, only: str | None, per_folder: int) -> list[Path]:
    """The domain files of each folder: at most `per_folder` of them (0: all), the smallest first (the
    faults folders hold hundreds of generated domains of one family, up to 0.2 MB each, which the `pddl`
    package behind fond-utils reads at about a second apiece)."""
    by_folder: dict[str, list[Path]] = defaultdict(list)
    for path in sorted(corpus.rglob("*.pddl")):
        if only is not None and only not in str(path.relative_to(corpus)):
            continue
        head = path.read_text(encoding="utf-8", errors="replace").lower()
        if "(domain" in head.replace("( domain", "(domain") and "define" in head:
            by_folder[path.relative_to(corpus).parts[0]].append(path)
    found = []
    for paths in by_folder.values():
        chosen = sorted(paths, key=lambda p: (p.stat().st_size, p.name))
        found += sorted(chosen[:per_folder] if per_folder else chosen)
    return found


def fond_utils(python: str, paths: list[Path]) -> dict[str, dict[str, str]]:
    run = subprocess.run([python, "-c", _CHILD], input=json.dumps([str(p) for p in paths]), text=True,
                         capture_output=True, check=False)
    out = {}
    for line in run.stdout.splitlines():
        if line.startswith("{"):
            entry = json.loads(line)
            out[entry["path"]] = entry
    if run.returncode != 0 and not out:
        sys.exit(f"fond-utils' child failed: {run.stderr.strip()[-500:]}")
    return out


def read_domain(text: str, name: str) -> ast.Domain:
    node = dialects.parse(Source(text, name), "domain")
    domain = next(p for p in dialects.pddl_parts(node) if isinstance(p, ast.Domain))
    return domain


# ------------------------------------------------------------------------------------------------
# Canonical forms


def canonical(node: Any, names: dict[str, str], depth: int = 0) -> Any:
    """`node` as nested tuples, variables renamed by `names`, `and`s as frozensets (nested ones merged)."""
    if isinstance(node, ast.Variable):
        return names.get(node.name.lower(), node.name.lower())
    if isinstance(node, ast.And | ast.AndEffect):
        parts: set[Any] = set()
        for part in node.parts:
            c = canonical(part, names, depth)
            if isinstance(c, tuple) and c[:1] == ("and",):
                parts |= c[1]
            else:
                parts.add(c)
        return next(iter(parts)) if len(parts) == 1 else ("and", frozenset(parts))
    if isinstance(node, ast.Exists | ast.Forall | ast.ForallEffect):
        inner = dict(names)
        for i, v in enumerate(node.variables):
            inner[v.name.lower()] = f"?q{depth}_{i}"
        kind = type(node).__name__
        return (kind, tuple(_type(v.type) for v in node.variables), canonical(node.body, inner, depth + 1))
    if isinstance(node, ast.TypeName | ast.Either):
        return _type(node)
    if isinstance(node, str):
        return node.lower()
    if isinstance(node, tuple):
        return tuple(canonical(n, names, depth) for n in node)
    if is_dataclass(node):
        return (type(node).__name__, *(canonical(getattr(node, f.name), names, depth)
                                       for f in fields(node) if f.name != "span"))
    return node


def _type(t: Any) -> Any:
    if t is None:
        return "object"
    if isinstance(t, ast.Either):
        return ("either", frozenset(x.name.lower() for x in t.types))
    return t.name.lower()


_EMPTY = ("and", frozenset())


def action_form(action: ast.Action) -> tuple[Any, ...]:
    names = {p.name.lower(): f"?p{i}" for i, p in enumerate(action.parameters)}
    pre = canonical(action.precondition, names) if action.precondition is not None else _EMPTY
    eff = canonical(action.effect, names) if action.effect is not None else _EMPTY
    return (tuple(_type(p.type) for p in action.parameters), pre, eff)


def ours(domain: ast.Domain) -> dict[str, set[tuple[Any, ...]]]:
    problem = ast.Problem(name="p", domain=domain.name)
    result, _ = determinise(ParsedTask(domain, problem), "all-outcomes")
    groups: dict[str, set[tuple[Any, ...]]] = defaultdict(set)
    for action in result.task.domain.actions:
        origin = result.origins[action.name].action or action.name
        groups[origin.lower()].add(action_form(action))
    return groups


def theirs(domain: ast.Domain) -> dict[str, set[tuple[Any, ...]]]:
    groups: dict[str, set[tuple[Any, ...]]] = defaultdict(set)
    for action in domain.actions:
        groups[action.name.lower().split("_detdup_")[0]].add(action_form(action))
    return groups


def show(form: tuple[Any, ...]) -> str:
    text = repr(form)
    return text if len(text) < 400 else text[:400] + " ..."


def compare(ours_: dict[str, set[Any]], theirs_: dict[str, set[Any]]) -> list[str]:
    out = []
    for name in sorted(set(ours_) | set(theirs_)):
        a, b = ours_.get(name, set()), theirs_.get(name, set())
        if a != b:
            out.append(f"action {name}: {len(a)} outcomes here, {len(b)} in fond-utils;"
                       f" only here: {[show(x) for x in a - b][:2]}; only fond-utils: {[show(x) for x in b - a][:2]}")
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, help="fond-domains' benchmarks/ folder")
    parser.add_argument("--fond-utils-python", default=str(ROOT / "benchmarks" / ".venv" / "bin" / "python"))
    parser.add_argument("--only", help="only files whose path (under the corpus) contains this text")
    parser.add_argument("--per-folder", type=int, default=4, help="domain files per folder, smallest first (0: all)")
    parser.add_argument("--json", type=Path, help="write the per-file results here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        corpus = corpus_folder(args.corpus, Path(scratch))
        files = domain_files(corpus, args.only, args.per_folder)
        started = time.perf_counter()
        reference = fond_utils(args.fond_utils_python, files)
        their_seconds = time.perf_counter() - started
        results: dict[str, dict[str, Any]] = {}
        per_folder: dict[str, list[str]] = defaultdict(list)
        our_seconds = 0.0
        for path in files:
            rel = str(path.relative_to(corpus))
            folder = rel.split("/")[0]
            entry: dict[str, Any] = {"folder": folder}
            try:
                domain = read_domain(path.read_text(encoding="utf-8", errors="replace"), str(path))
                t0 = time.perf_counter()
                mine = ours(domain)
                our_seconds += time.perf_counter() - t0
                entry["nondeterministic"] = any(isinstance(n, OneOf) for s in domain.structures for n in s.walk())
            except Exception as exc:  # a measurement: a file we cannot read is counted, not fatal
                entry["status"], entry["reason"] = "ours-unreadable", f"{type(exc).__name__}: {exc}"[:200]
                results[rel] = entry
                per_folder[folder].append(entry["status"])
                continue
            ref = reference.get(str(path), {"error": "no answer"})
            if "error" in ref:
                entry["status"], entry["reason"] = "fond-utils-fails", ref["error"]
            else:
                try:
                    differences = compare(mine, theirs(read_domain(ref["text"], f"fond-utils:{rel}")))
                except Exception as exc:
                    entry["status"] = "fond-utils-output-unreadable"
                    entry["reason"] = f"{type(exc).__name__}: {exc}"[:200]
                else:
                    entry["status"] = "equal" if not differences else "different"
                    entry["differences"] = differences
                    entry["outcome-actions"] = sum(len(v) for v in mine.values())
            results[rel] = entry
            per_folder[folder].append(entry["status"])
    statuses = ("equal", "different", "fond-utils-fails", "fond-utils-output-unreadable", "ours-unreadable")
    print(f"{'folder':32} {'files':>5} " + " ".join(f"{s:>12.12}" for s in statuses))
    for folder in sorted(per_folder):
        got = per_folder[folder]
        print(f"{folder:32} {len(got):5} " + " ".join(f"{got.count(s):12}" for s in statuses))
    all_ = [e["status"] for e in results.values()]
    print(f"{'total (' + str(len(per_folder)) + ' folders)':32} {len(all_):5} "
          + " ".join(f"{all_.count(s):12}" for s in statuses))
    nondet = sum(1 for e in results.values() if e.get("nondeterministic"))
    print(f"{nondet} of the files have oneof; pddltools determinised them in {our_seconds:.2f} s, "
          f"fond-utils (parse, determinise, print; one process) in {their_seconds:.1f} s")
    for rel, entry in sorted(results.items()):
        if entry["status"] != "equal":
            print(f"\n{rel}: {entry['status']}" + (f" ({entry['reason']})" if "reason" in entry else ""))
            for line in entry.get("differences", []):
                print(f"  {line}")
    if args.json is not None:
        args.json.write_text(json.dumps(results, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

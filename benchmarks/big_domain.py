#!/usr/bin/env python3
"""Peak memory of parsing a domain of millions of one-word declarations (../shared/fuzz/turn3/big-domain-memory).

The file is the reproducer's: `(define (domain d) (:predicates` and then `(p)` on each line, 4 bytes a
declaration, so every byte of it becomes part of a node. Each parse path (the compiled loop and the
Python one) runs in a child of its own that parses a tiny domain first (grammar tables and caches go
into the baseline, as in benchmarks/parse.py), then the big one; the child reports its peak resident
memory over that baseline (VmHWM, this process image's own) as a multiple of the file's size, and its
CPU seconds.

    python benchmarks/big_domain.py              # the reproducer's 20 MB
    python benchmarks/big_domain.py --mb 4 --json /tmp/big_domain.json

Where the memory goes (tracemalloc, compiled path): per declaration one `PredicateDecl` of 48 bytes (its
name, its parameters, its anchor and its offset, no collector header: see "Positions" in
docs/architecture.md; the anchor is shared by the 64 declarations of 256 characters), and 8 bytes in
the parser's list of the section plus 8 in the tuple it becomes; the text itself is one byte per byte.
Before issue 30's round the node held a `Span` of 64 bytes of its own and both took the header (38.8x).
The "python" path is the parse loop in Python with the compiled module loaded (its node classes without
the header); without the module at all, a node takes 64 bytes.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.fuzzing import child_env  # the child imports this worktree's pddltools

CHILD = """
import json, os, sys, time
from tests.fuzzing import peak_mb
if sys.argv[2] == "python":
    from tests.fuzzing import use_python_loop
    use_python_loop()
from pddltools.pddl.parser import parse, parse_text
from pddltools.reading import read_source
parse_text("(define (domain d) (:predicates (p) (q ?x)))")
baseline = peak_mb()
began = time.process_time()
domain = parse(read_source(sys.argv[1]), "domain")
seconds = time.process_time() - began
size = os.path.getsize(sys.argv[1])
print(json.dumps({"declarations": len(domain.predicates), "size_mb": size / 2**20, "baseline_mb": baseline,
                  "peak_mb": peak_mb(), "times_size": (peak_mb() - baseline) * 2**20 / size, "cpu_s": seconds}))
"""


def measure(mb: float, paths: list[str]) -> list[dict[str, Any]]:
    found = []
    with tempfile.TemporaryDirectory() as tmp:
        domain = Path(tmp) / "big.pddl"
        with open(domain, "w", encoding="ascii") as out:
            out.write("(define (domain d) (:predicates\n" + "(p)\n" * int(mb * (1 << 20) / 4) + "))\n")
        for path in paths:
            done = subprocess.run([sys.executable, "-c", CHILD, str(domain), path], capture_output=True, text=True,
                                  env=child_env(), timeout=3600)
            if done.returncode != 0:
                raise SystemExit(f"the {path} child failed:\n{done.stderr[-3000:]}")
            found.append({"path": path, **json.loads(done.stdout)})
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mb", type=float, default=20.0, help="the file's size in MB (default 20, the reproducer's)")
    parser.add_argument("--path", choices=("compiled", "python"), action="append",
                        help="a parse path (default: both)")
    parser.add_argument("--json", metavar="FILE", help="also write the numbers here")
    args = parser.parse_args(argv)
    found = measure(args.mb, args.path or ["compiled", "python"])
    for f in found:
        print(f"{f['path']}: {f['declarations']:,} declarations, {f['size_mb']:.1f} MB: peak {f['peak_mb']:.0f} MB, "
              f"{f['times_size']:.1f}x the file over the baseline of {f['baseline_mb']:.0f} MB; {f['cpu_s']:.1f} s CPU")
    if args.json:
        Path(args.json).write_text(json.dumps(found, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

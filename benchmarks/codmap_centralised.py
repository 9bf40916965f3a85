"""CoDMAP-2015 centralised: each domain's first problem compiled by `--target centralised`, solved by Fast
Downward, the joint plan mapped back per agent and validated.

    python benchmarks/codmap_centralised.py [--corpus DIR] [--timeout 60] [--memory 2G] [--only TEXT]

The 12 domains of CoDMAP-2015 as universal-pddl-parser-multiagent keeps them (`domains/codmap15`, default
the fetched copy under /work/.mirror), each `domain.pddl` (and `domain_constrained.pddl`, Kovacs's
concurrency constraints, where there is one) with the first problem in name order: compile, Fast
Downward (`--alias lama-first`, one run at a time), `pddltools unmap --format json` (the joint plan
validated on the centralised task, each agent's plan, the steps naming another agent's private object),
and VAL on the centralised task. Prints a line per task and the totals; exits 0 (a measurement).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from fond_weak_plans import search  # noqa: E402

MIRROR = Path("/work/.mirror/aig-upf+universal-pddl-parser-multiagent/repo")


def add_run_options(parser: argparse.ArgumentParser) -> None:
    """The options both CoDMAP benchmarks take: the codmap15 folder, Fast Downward's limits, VAL."""
    parser.add_argument("--corpus", type=Path, help="the codmap15 folder (default: the fetched mirror's)")
    parser.add_argument("--timeout", type=int, default=60)
    parser.add_argument("--memory", default="2G")
    parser.add_argument("--val", default="/tmp/valbuild/build/bin/Validate")


@contextlib.contextmanager
def codmap15(corpus: Path | None) -> Iterator[tuple[Path, Path]]:
    """The codmap15 folder (`corpus` when one is given, else the mirror's, unpacked) and a scratch folder,
    removed with what was unpacked when the block ends."""
    with tempfile.TemporaryDirectory() as scratch_name:
        scratch = Path(scratch_name)
        if corpus is None:
            subprocess.run(f"git --git-dir={MIRROR} archive HEAD domains/codmap15 | tar -x -C {scratch}",
                           shell=True, check=True)
            corpus = scratch / "domains" / "codmap15"
        yield corpus, scratch


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only")
    add_run_options(parser)
    args = parser.parse_args()
    totals = {"tasks": 0, "compiled": 0, "solved": 0, "valid": 0, "val": 0, "private": 0}
    with codmap15(args.corpus) as (corpus, scratch):
        for folder in sorted(p for p in corpus.iterdir() if p.is_dir()):
            if args.only and args.only not in folder.name:
                continue
            problem = sorted((folder / "problems").glob("*.pddl"))[0]
            for domain in sorted((folder / "domain").glob("*.pddl")):
                totals["tasks"] += 1
                work = scratch / "work" / folder.name / domain.stem
                out = work / "compiled"
                made = subprocess.run([sys.executable, "-m", "pddltools", "compile", str(domain), str(problem),
                                       "--target", "centralised", "-o", str(out)], capture_output=True, text=True,
                                      check=False)
                name = f"{folder.name}/{domain.name} {problem.name}"
                if made.returncode != 0:
                    print(f"{name:60} compile failed: {made.stderr.strip()[-200:]}", flush=True)
                    continue
                totals["compiled"] += 1
                status, seconds, plan = search(out / "domain.pddl", out / "problem.pddl", work / "fd", args.timeout,
                                               args.memory)
                if status != "solved":
                    print(f"{name:60} {status} ({seconds:.1f} s)", flush=True)
                    continue
                totals["solved"] += 1
                unmapped = subprocess.run([sys.executable, "-m", "pddltools", "unmap", str(out), str(plan),
                                           "--format", "json"], capture_output=True, text=True, check=False)
                report = json.loads(unmapped.stdout)
                valid = report.get("valid") is True
                totals["valid"] += valid
                totals["private"] += bool(report.get("privacy"))
                val = subprocess.run([args.val, str(out / "centralised-domain.pddl"),
                                      str(out / "centralised-problem.pddl"), str(plan)],
                                     capture_output=True, text=True, check=False)
                val_ok = "Plan valid" in val.stdout
                totals["val"] += val_ok
                agents = {a: len(s) for a, s in (report.get("agents") or {}).items()}
                print(f"{name:60} solved in {seconds:.1f} s, {len(report['steps'])} steps, valid={valid}, "
                      f"VAL={val_ok}, steps per agent {agents}, privacy notes {len(report.get('privacy') or [])}",
                      flush=True)
    print(f"\n{totals['tasks']} tasks: {totals['compiled']} compiled, {totals['solved']} solved, {totals['valid']} "
          f"joint plans valid (pddltools), {totals['val']} (VAL); {totals['private']} plans name another agent's "
          "private object")
    return 0


if __name__ == "__main__":
    sys.exit(main())

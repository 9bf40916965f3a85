"""Weak plans of the FOND benchmark set: Fast Downward on the all-outcomes determinisation, plans mapped back.

    python benchmarks/fond_weak_plans.py [--corpus DIR] [--timeout 60] [--memory 2G] [--only TEXT]
                                         [--fond-utils-python PY] [--val PATH] [--json FILE]

For the first problem of each of the 36 folders of AI-Planning/fond-domains (its domain chosen as the
set's `catalogue.py` does: `domain-fixed.pddl` where there is one, `d_A_B[-fixed].pddl` for `p_A_B.pddl`,
`dmN.pddl` for `pbN.pddl`, `domain_pNN.pddl` for `pNN.pddl`):

1. `pddltools compile --determinise all-outcomes` writes the classical task and its plan map;
2. Fast Downward (up-fast-downward's driver, `--alias lama-first`, `--overall-time-limit`,
   `--overall-memory-limit`) searches it, one run at a time;
3. `pddltools unmap` maps the plan back to (action, outcome) steps and validates it as a weak plan;
4. independently of pddltools' determiniser, each step is rewritten as the action fond-utils made of
   that outcome (matched structurally, as benchmarks/fond_determinise.py compares them) and VAL
   (`--val`) validates the plan on fond-utils' determinised domain and the original problem;
5. Fast Downward also runs, in the same limits, on fond-utils' determinised domain with the original
   problem (what "solved before" means: the reference determinisation).

Prints one line per folder and the totals; exits 0 (a measurement).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from fond_determinise import MIRROR, action_form, read_domain  # noqa: E402

from pddltools.compile.determinise import determinise  # noqa: E402
from pddltools.compile.task import ParsedTask  # noqa: E402
from pddltools.pddl import ast  # noqa: E402

_CHILD = r"""
import contextlib, io, sys
import fondutils.determizer as det
from fondutils.pddl import parse_domain_problem
from pddl.formatter import domain_to_string
det.DEBUG = False
with contextlib.redirect_stdout(io.StringIO()):
    domain, _ = parse_domain_problem(sys.argv[1])
    text = domain_to_string(det.determinize(domain, dom_suffix=""))
sys.stdout.write(text)
"""


def _number(path: Path) -> tuple[int, ...]:
    return tuple(int(n) for n in re.findall(r"\d+", path.stem)) or (10**9,)


def first_pair(folder: Path) -> tuple[Path, Path] | None:
    """The domain and first problem of a folder of the set, as its catalogue pairs them."""
    if folder.name == "corner-cases":
        return folder / "repeat-state-domain.pddl", folder / "repeat-state-problem.pddl"
    files = [p for p in folder.glob("*.pddl")]
    if folder.name == "puffbot_dialog":
        problems = [p for p in files if re.fullmatch(r"pb\d+", p.stem)]
    elif folder.name == "tidyup-mdp":
        problems = [p for p in files if p.stem.startswith("tidyup_inst")]
    else:
        problems = [p for p in files if re.fullmatch(r"p_?\d+(_\d+)?(-.*)?", p.stem)]
    if not problems:
        return None
    problem = min(problems, key=lambda p: (_number(p), p.name))
    numbers = "_".join(str(n) for n in _number(problem))
    for name in (f"d_{numbers}-fixed.pddl", f"d_{numbers}.pddl", f"dm{numbers}.pddl",
                 f"domain_p{_number(problem)[0]:02}.pddl", "domain-fixed.pddl", "domain.pddl"):
        if (folder / name).is_file():
            return folder / name, problem
    return None


def downward_driver() -> Path:
    import up_fast_downward

    return Path(up_fast_downward.__file__).parent / "downward" / "fast-downward.py"


def search(domain: Path, problem: Path, where: Path, timeout: int, memory: str) -> tuple[str, float, Path]:
    """Fast Downward on the task: ('solved' | 'unsolvable' | 'timeout' | 'memory' | 'error ...', seconds, plan)."""
    where.mkdir(parents=True, exist_ok=True)
    plan = where / "sas_plan"
    started = time.perf_counter()
    run = subprocess.run([sys.executable, str(downward_driver()), "--overall-time-limit", f"{timeout}s",
                          "--overall-memory-limit", memory, "--plan-file", str(plan), "--alias", "lama-first",
                          str(domain), str(problem)], cwd=where, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - started
    status = {0: "solved", 11: "unsolvable", 12: "unsolvable", 23: "timeout", 22: "memory", 24: "timeout"}.get(
        run.returncode, f"error (exit {run.returncode}: {(run.stdout + run.stderr).strip().splitlines()[-1:]})")
    return status, seconds, plan


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, help="fond-domains' benchmarks/ folder")
    parser.add_argument("--timeout", type=int, default=60)
    parser.add_argument("--memory", default="2G")
    parser.add_argument("--only", help="only folders whose name contains this text")
    parser.add_argument("--fond-utils-python", default=str(HERE / ".venv" / "bin" / "python"))
    parser.add_argument("--val", default="/tmp/valbuild/build/bin/Validate")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    rows: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory() as scratch_name:
        scratch = Path(scratch_name)
        corpus = args.corpus
        if corpus is None:
            subprocess.run(f"git --git-dir={MIRROR} archive HEAD benchmarks | tar -x -C {scratch}", shell=True,
                           check=True)
            corpus = scratch / "benchmarks"
        for folder in sorted(p for p in corpus.iterdir() if p.is_dir()):
            if args.only and args.only not in folder.name:
                continue
            pair = first_pair(folder)
            if pair is None:
                rows[folder.name] = {"status": "no pair"}
                continue
            rows[folder.name] = row = one(pair, scratch / folder.name, args)
            print(f"{folder.name:28} {pair[0].name:22} {pair[1].name:28} " + " ".join(
                f"{k}={v}" for k, v in row.items() if k not in ("steps", "why")), flush=True)
            if row.get("why"):
                print(f"    {row['why']}", flush=True)
    keys = ("solved", "weak-plan", "val", "fond-utils-solved")
    totals = {k: sum(1 for r in rows.values() if r.get(k) in ("solved", "valid", True)) for k in keys}
    print(f"\n{len(rows)} folders: FD solved {totals['solved']} determinised first problems (pddltools), "
          f"{totals['fond-utils-solved']} (fond-utils' determinisation); {totals['weak-plan']} plans unmapped to "
          f"valid weak plans; {totals['val']} of them valid for VAL on fond-utils' determinised domain")
    if args.json is not None:
        args.json.write_text(json.dumps(rows, indent=1) + "\n")
    return 0


def one(pair: tuple[Path, Path], work: Path, args: argparse.Namespace) -> dict[str, Any]:
    domain, problem = pair
    row: dict[str, Any] = {}
    out = work / "compiled"
    compiled = subprocess.run([sys.executable, "-m", "pddltools", "compile", str(domain), str(problem),
                               "--determinise", "all-outcomes", "-o", str(out)], capture_output=True, text=True,
                              check=False)
    if compiled.returncode != 0:
        row["solved"] = "compile failed"
        row["why"] = compiled.stderr.strip()[-300:]
        return row
    status, seconds, plan = search(out / "domain.pddl", out / "problem.pddl", work / "fd", args.timeout, args.memory)
    row["solved"], row["seconds"] = status, round(seconds, 1)
    # fond-utils' determinisation of the same domain, searched in the same limits
    theirs = work / "fond-utils-domain.pddl"
    made = subprocess.run([args.fond_utils_python, "-c", _CHILD, str(domain)], capture_output=True, text=True,
                          check=False)
    if made.returncode == 0:
        theirs.write_text(made.stdout)
        their_status, their_seconds, _ = search(theirs, problem, work / "fd-fond-utils", args.timeout, args.memory)
        row["fond-utils-solved"], row["fond-utils-seconds"] = their_status, round(their_seconds, 1)
    else:
        row["fond-utils-solved"] = "fond-utils failed"
    if status != "solved":
        return row
    unmapped = subprocess.run([sys.executable, "-m", "pddltools", "unmap", str(out), str(plan), "--format", "json"],
                              capture_output=True, text=True, check=False)
    report = json.loads(unmapped.stdout)
    row["weak-plan"] = "valid" if report.get("valid") else f"invalid (exit {unmapped.returncode})"
    row["steps"] = len(report["steps"])
    if made.returncode == 0:
        row["val"], why = val_on_theirs(report["steps"], domain, problem, theirs, work, args.val)
        if why:
            row["why"] = why
    return row


def val_on_theirs(steps: list[dict[str, Any]], domain: Path, problem: Path, theirs: Path, work: Path,
                  val: str) -> tuple[bool, str]:
    """The weak plan as fond-utils' outcome actions (matched by their form), validated by VAL."""
    original = read_domain(domain.read_text(encoding="utf-8", errors="replace"), str(domain))
    result, _ = determinise(ParsedTask(original, ast.Problem(name="p", domain=original.name)), "all-outcomes")
    ours = {(o.action, o.outcome): action_form(a) for a in result.task.domain.actions
            for o in [result.origins[a.name]]}
    by_form: dict[tuple[str, Any], str] = {}
    for action in read_domain(theirs.read_text(), str(theirs)).actions:
        by_form[(action.name.lower().split("_detdup_")[0], action_form(action))] = action.name
    lines = []
    for step in steps:
        form = ours[(step["action"], step.get("outcome"))]
        name = by_form.get((step["action"].lower(), form))
        if name is None:
            return False, f"no action of fond-utils' domain is outcome {step.get('outcome')} of {step['action']}"
        lines.append(f"({' '.join([name, *step['args']])})")
    plan = work / "fond-utils.plan"
    plan.write_text("\n".join(lines) + "\n")
    run = subprocess.run([val, str(theirs), str(problem), str(plan)], capture_output=True, text=True, check=False)
    ok = "Plan valid" in run.stdout
    return ok, "" if ok else run.stdout.strip()[-300:]


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""`pddltools ground --to sas` against Fast Downward's translator, in one run: time, peak memory, and
whether both reach the same ground atoms, operators and mutex groups.

Each (tool, pair) runs in a child process of its own, so that its peak memory (ru_maxrss) is the
pair's: pddltools under the current interpreter (the checkout first on PYTHONPATH), the translator
under benchmarks/.venv (benchmarks/setup.sh; `--fd-python` for another). Time is the child's own
CPU time from reading the files to the SAS text written (imports excluded, for both; CPU rather than
wall-clock time, since other processes share the machine). The
translator's counts come from its own steps, recorded as it runs: `instantiate.explore` (reachable
fluent atoms and instantiated actions) and `fact_groups.compute_groups` (the mutex groups it found).

    python benchmarks/ground.py --sample 20                  # every 20th pair of the corpus
    python benchmarks/ground.py --glob 'ipc-2000/*' --json /tmp/ground.json
    python benchmarks/ground.py --single DOMAIN PROBLEM

This file imports only the standard library at the top: the same file is the child under either
interpreter.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
CORPUS = REPO.parent / "shared" / "corpus" / "pddl"
VENV_PYTHON = HERE / ".venv" / "bin" / "python"


# ---------------------------------------------------------------------------------------------------
# Children: one pair each, one JSON object on stdout.


def child_pddltools(domain: str, problem: str) -> dict[str, Any]:
    sys.path.insert(0, str(REPO))
    from pddltools.analysis import sas
    from pddltools.analysis.grounder import ground
    from pddltools.analysis.invariants import mutex_groups
    from pddltools.pddl.parser import parse_domain, parse_domain_file, parse_problem, parse_problem_file

    # What the first parse loads (the parser's tables, the compiled scanner) is start-up, like FD's imports.
    parse_domain("(define (domain w) (:predicates (p)) (:action a :parameters () :precondition (p) :effect (p)))")
    parse_problem("(define (problem w) (:domain w) (:init (p)) (:goal (p)))")
    start = time.process_time()
    task = ground(parse_domain_file(domain), parse_problem_file(problem))
    task.mutexes = mutex_groups(task)
    text = sas.write(task)
    seconds = time.process_time() - start
    # compared: the groups of the translator's shape (`--mutex-groups translator`), found after the time
    # is taken; `groups_all` are those the default run proved (and the SAS file's variables came from)
    shaped = mutex_groups(task, 1)
    groups = [sorted(_fd_name(task.atoms[a]) for a, _ in g) for g in shaped]
    groups_all = [sorted(_fd_name(task.atoms[a]) for a, _ in g) for g in task.mutexes]
    return {"seconds": seconds, "atoms": len(task.atoms), "operators": task.instantiated,
            "written": len(task.operators), "axioms": len(task.axioms), "solvable": task.goal is not None,
            "groups": groups, "groups_all": groups_all, "bytes": len(text)}


def _fd_name(atom: tuple[str, ...]) -> str:
    return f"{atom[0]}({', '.join(atom[1:])})"


def child_fd(domain: str, problem: str) -> dict[str, Any]:
    import io
    from contextlib import redirect_stdout

    from fast_downward.translate import fact_groups, instantiate, normalize, options, pddl_parser  # type: ignore
    from fast_downward.translate import main as fd_main  # type: ignore

    options.set_options([domain, problem])
    seen: dict[str, Any] = {}
    explore, compute_groups = instantiate.explore, fact_groups.compute_groups

    def explore_recorded(task: Any) -> Any:
        result = explore(task)
        # the atoms of the task's own predicates: not those of the axioms FD makes of universal conditions
        seen["atoms"] = sum(1 for a in result[1] if not str(a.predicate).startswith("new-axiom@"))
        seen["operators"] = len(result[2])
        seen["solvable"] = bool(result[0]) and result[3] is not None
        return result

    def groups_recorded(*args: Any) -> Any:
        result = compute_groups(*args)
        seen["groups"] = [sorted(str(a).replace("Atom ", "") for a in g) for g in result[1] if len(g) >= 2]
        return result

    fd_main.instantiate.explore = explore_recorded
    fd_main.fact_groups.compute_groups = groups_recorded
    sink = io.StringIO()
    start = time.process_time()
    with redirect_stdout(sink):
        task = pddl_parser.open(domain_filename=domain, problem_filename=problem)
        normalize.normalize(task)
        sas_task = fd_main.pddl_to_sas(task)
        out = io.StringIO()
        sas_task.output(out)
    seconds = time.process_time() - start
    seen.setdefault("groups", [])
    return {"seconds": seconds, "bytes": len(out.getvalue()), **seen}


def child_main(tool: str, domain: str, problem: str) -> int:
    try:
        record = (child_pddltools if tool == "pddltools" else child_fd)(domain, problem)
    except BaseException as error:  # a rejection, whatever the tool raises
        record = {"error": f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}"[:300]}
    record["rss_kb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    sys.stdout.write("\n@@RESULT " + json.dumps(record) + "\n")
    return 0


# ---------------------------------------------------------------------------------------------------
# The parent.


def pairs(args: argparse.Namespace) -> list[tuple[Path, Path]]:
    sys.path.insert(0, str(HERE))
    from parse import pairs_under  # the corpus layouts, as the parse benchmark reads them

    if args.single:
        return [(Path(args.single[0]), Path(args.single[1]))]
    if args.redo:
        records = [json.loads(line) for line in args.redo.read_text(encoding="utf-8").splitlines()]
        return [(Path(r["domain"]), Path(r["problem"])) for r in records if r.get("differences")]
    found = [(p.domain, p.problem) for p in pairs_under(CORPUS)
             if not args.glob or any(fnmatch.fnmatch(p.folder, g) for g in args.glob)]
    if args.skip_durative:
        # the translator rejects every durative domain while parsing it: its imports alone cost a
        # third of a second of CPU per pair, 450 pairs of the corpus
        durative: dict[Path, bool] = {}
        for domain, _ in found:
            if domain not in durative:
                durative[domain] = ":durative-action" in domain.read_text(encoding="utf-8", errors="replace").lower()
        found = [(d, p) for d, p in found if not durative[d]]
    if args.skip_in:
        lines = args.skip_in.read_text(encoding="utf-8").splitlines()
        done = {(r["domain"], r["problem"]) for r in map(json.loads, lines)}
        found = [(d, p) for d, p in found if (str(d), str(p)) not in done]
    if args.smallest_first:
        found = sorted(found, key=lambda p: p[0].stat().st_size + p[1].stat().st_size)
    if args.largest:
        found = sorted(found, key=lambda p: p[0].stat().st_size + p[1].stat().st_size)[-args.largest:]
    return found[:: args.sample]


def run_child(python: str, tool: str, domain: Path, problem: Path, timeout: float) -> dict[str, Any]:
    """`timeout` is of CPU time (the machine is shared: wall-clock time says little); the wall-clock limit
    is ten times that."""
    env = dict(os.environ, PYTHONPATH=str(REPO))

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (int(timeout), int(timeout) + 5))

    try:
        done = subprocess.run([python, __file__, "--child", tool, str(domain), str(problem)], capture_output=True,
                              text=True, timeout=10 * timeout, env=env, check=False, preexec_fn=limit)
    except subprocess.TimeoutExpired:
        return {"error": f"timeout after {10 * timeout:.0f} s of wall-clock time"}
    if done.returncode == -signal.SIGXCPU or done.returncode == -signal.SIGKILL:
        return {"error": f"timeout after {timeout:.0f} s of CPU time"}
    for line in done.stdout.splitlines():
        if line.startswith("@@RESULT "):
            result: dict[str, Any] = json.loads(line[len("@@RESULT "):])
            return result
    return {"error": (done.stderr.strip().splitlines() or ["no result"])[-1][:300]}


def cached_fd(args: argparse.Namespace, domain: Path, problem: Path) -> dict[str, Any]:
    """The translator's record of a pair, from `--fd-cache` when it holds one (the translator is not
    what changes between runs; its time and memory stay those it was measured with)."""
    if not args.fd_cache:
        return run_child(args.fd_python, "fd", domain, problem, args.timeout)
    import hashlib

    key = hashlib.sha256(f"{domain.resolve()}\0{problem.resolve()}".encode()).hexdigest()[:24]
    path = args.fd_cache / f"{key}.json"
    if path.exists():
        cached: dict[str, Any] = json.loads(path.read_text())
        return cached
    record = run_child(args.fd_python, "fd", domain, problem, args.timeout)
    args.fd_cache.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record))
    return record


def maximal(groups: list[list[str]]) -> set[frozenset[str]]:
    sets = {frozenset(g) for g in groups}
    return {g for g in sets if not any(g < other for other in sets)}


def compare(ours: dict[str, Any], fd: dict[str, Any]) -> list[str]:
    differences = []
    if not fd.get("solvable", True) or not ours.get("solvable", True):
        if fd.get("solvable") != ours.get("solvable"):
            differences.append(f"solvable: {ours.get('solvable')} vs FD {fd.get('solvable')}")
        return differences
    for key in ("atoms", "operators"):
        if ours.get(key) != fd.get(key):
            differences.append(f"{key}: {ours.get(key)} vs FD {fd.get(key)}")
    mine, theirs = maximal(ours.get("groups", [])), maximal(fd.get("groups", []))
    if mine != theirs:
        differences.append(f"mutex groups: {len(mine - theirs)} only ours, {len(theirs - mine)} only FD's")
    elif "groups_all" in ours and maximal(ours["groups_all"]) != theirs:
        # not a difference of the comparison: the default run proves more groups than the translator's shape
        ours["more_groups"] = len(maximal(ours["groups_all"]) - theirs)
    return differences


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--child", nargs=3, metavar=("TOOL", "DOMAIN", "PROBLEM"), help=argparse.SUPPRESS)
    parser.add_argument("--single", nargs=2, metavar=("DOMAIN", "PROBLEM"))
    parser.add_argument("--glob", action="append", help="corpus folders (e.g. 'ipc-2000/*')")
    parser.add_argument("--sample", type=int, default=1, help="every Nth pair")
    parser.add_argument("--largest", type=int, help="only the N largest pairs (by file size)")
    parser.add_argument("--timeout", type=float, default=300)
    parser.add_argument("--fd-python", default=str(VENV_PYTHON))
    parser.add_argument("--json", type=Path, help="write every pair's record here")
    parser.add_argument("--redo", type=Path, help="the pairs of a --jsonl file that differed")
    parser.add_argument("--jsonl", type=Path, help="append each pair's record here as it is measured")
    parser.add_argument("--skip-in", type=Path, help="leave out the pairs a --jsonl file of an earlier run has")
    parser.add_argument("--fd-cache", type=Path, help="keep the translator's records here and reuse them")
    parser.add_argument("--skip-durative", action="store_true",
                        help="leave out pairs whose domain has a :durative-action (the translator rejects them)")
    parser.add_argument("--smallest-first", action="store_true", help="in order of size (domain + problem)")
    parser.add_argument("--fd-accepted", action="store_true", help="run pddltools only where the translator ran")
    parser.add_argument("--fd-only", action="store_true", help="only run (and cache) the translator")
    args = parser.parse_args()
    if args.child:
        return child_main(*args.child)
    records = []
    totals = {"pddltools": 0.0, "fd": 0.0}
    rss = {"pddltools": 0, "fd": 0}
    both = same = 0
    for domain, problem in pairs(args):
        fd = cached_fd(args, domain, problem)
        if args.fd_only:
            name = problem.relative_to(CORPUS) if problem.is_relative_to(CORPUS) else problem
            print(f"{name}: FD {fd.get('error') or format(fd['seconds'], '.3f') + ' s'}", flush=True)
            continue
        if args.fd_accepted and "error" in fd:
            continue
        ours = run_child(sys.executable, "pddltools", domain, problem, args.timeout)
        record = {"domain": str(domain), "problem": str(problem), "pddltools": ours, "fd": fd}
        name = str(problem.relative_to(CORPUS)) if problem.is_relative_to(CORPUS) else str(problem)
        if "error" in ours or "error" in fd:
            print(f"{name}: pddltools {ours.get('error', 'ok')}; FD {fd.get('error', 'ok')}", flush=True)
        else:
            both += 1
            totals["pddltools"] += ours["seconds"]
            totals["fd"] += fd["seconds"]
            rss["pddltools"] = max(rss["pddltools"], ours["rss_kb"])
            rss["fd"] = max(rss["fd"], fd["rss_kb"])
            record["differences"] = compare(ours, fd)
            same += not record["differences"]
            print(f"{name}: {ours['seconds']:.3f} s vs FD {fd['seconds']:.3f} s"
                  + (f"; differ: {'; '.join(record['differences'])}" if record["differences"] else ""), flush=True)
        records.append(record)
        if args.jsonl:
            with args.jsonl.open("a", encoding="utf-8") as sink:
                sink.write(json.dumps(record) + "\n")
    ratio = totals["pddltools"] / totals["fd"] if totals["fd"] else float("nan")
    print(f"\n{both} pairs both accept: pddltools {totals['pddltools']:.2f} s, FD {totals['fd']:.2f} s, "
          f"ratio {ratio:.2f}; peak memory {rss['pddltools'] // 1024} MB vs FD {rss['fd'] // 1024} MB; "
          f"same atoms, operators and mutex groups on {same} of {both}")
    if args.json:
        args.json.write_text(json.dumps({"pairs": records, "ratio": ratio, "both": both, "same": same}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

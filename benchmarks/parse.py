#!/usr/bin/env python3
"""Parse speed of pddltools against the reference PDDL parsers, measured in the same run.

Each tool runs in its own child process, which parses every selected domain/problem pair (the domain
re-parsed with each of its problems, as a planner would) and streams one JSON line per pair to a
results file; the parent turns those lines into a table and, with --json, a machine-readable report.
pddltools runs under the current interpreter (the checkout is put first on PYTHONPATH); the reference
tools run under benchmarks/.venv (see benchmarks/setup.sh). This file imports only the standard
library at the top, so the same file serves as the child under either interpreter.

    python benchmarks/parse.py --set seq-sat
    python benchmarks/parse.py --set all --budget 300 --json /tmp/parse.json
    python benchmarks/parse.py --single DOMAIN PROBLEM --repeat 3
"""

from __future__ import annotations

import argparse
import contextlib
import fnmatch
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
CORPUS = REPO.parent / "shared" / "corpus" / "pddl"
VENV_PYTHON = HERE / ".venv" / "bin" / "python"
SEQ_SAT = "sequential-satisficing"
MAX_MESSAGE = 400
SHOWN_REJECTIONS = 3

ParseFn = Callable[[str, str], object]


# ---------------------------------------------------------------------------------------------------
# The tools: how each one parses a pair. Loaders run in the child and import the tool lazily.


def load_pddltools() -> tuple[str, ParseFn]:
    import pddltools

    try:
        from pddltools.pddl import parse_domain_file, parse_problem_file  # type: ignore[attr-defined,unused-ignore]
    except ImportError:  # the API as the parser module defines it, before the package re-exports it
        from pddltools.pddl.parser import parse_domain_file, parse_problem_file

    def parse(domain: str, problem: str) -> object:
        return parse_domain_file(domain), parse_problem_file(problem)

    return str(pddltools.__version__), parse


def load_check() -> tuple[str, ParseFn]:
    """pddltools parsing and then checking each pair: `pddltools check` without the report."""
    import pddltools
    from pddltools.check import check
    from pddltools.pddl.parser import parse_domain_file, parse_problem_file

    def parse(domain: str, problem: str) -> object:
        return check(parse_domain_file(domain), [parse_problem_file(problem)])

    return str(pddltools.__version__), parse


def load_fd() -> tuple[str, ParseFn]:
    from fast_downward.translate import options  # type: ignore[import-not-found]
    from fast_downward.translate.pddl_parser import open as open_task  # type: ignore[import-not-found]

    # The parser asks the translator's options when an action has no effect (keep_no_ops): set the
    # defaults once, as the translator's own command line would.
    options.set_options(["domain.pddl", "problem.pddl"])

    def parse(domain: str, problem: str) -> object:
        return open_task(domain_filename=domain, problem_filename=problem)

    return dist_version("fast-downward-translate"), parse


def load_loki() -> tuple[str, ParseFn]:
    from pypddl import formalism  # type: ignore[import-not-found]

    def parse(domain: str, problem: str) -> object:
        parser = formalism.Parser(Path(domain), formalism.ParserOptions())
        return parser.parse_task(Path(problem))

    return dist_version("pypddl"), parse


def load_pddl() -> tuple[str, ParseFn]:
    import pddl  # type: ignore[import-not-found]

    def parse(domain: str, problem: str) -> object:
        return pddl.parse_domain(domain), pddl.parse_problem(problem)

    return dist_version("pddl"), parse


def load_tarski() -> tuple[str, ParseFn]:
    from tarski.io import PDDLReader  # type: ignore[import-not-found]

    def parse(domain: str, problem: str) -> object:
        reader = PDDLReader(raise_on_error=True)
        reader.parse_domain(domain)
        return reader.parse_instance(problem)

    return dist_version("tarski"), parse


def load_up() -> tuple[str, ParseFn]:
    from unified_planning.io import PDDLReader  # type: ignore[import-not-found]

    def parse(domain: str, problem: str) -> object:
        return PDDLReader().parse_problem(domain, problem)

    return dist_version("unified-planning"), parse


@dataclass(frozen=True)
class Tool:
    name: str
    label: str
    load: Callable[[], tuple[str, ParseFn]]
    in_venv: bool


TOOLS: dict[str, Tool] = {
    tool.name: tool
    for tool in (
        Tool("pddltools", "pddltools", load_pddltools, in_venv=False),
        Tool("check", "pddltools check", load_check, in_venv=False),
        Tool("loki", "Loki (pypddl)", load_loki, in_venv=True),
        Tool("fd", "FD translate", load_fd, in_venv=True),
        Tool("pddl", "pddl package", load_pddl, in_venv=True),
        Tool("tarski", "tarski", load_tarski, in_venv=True),
        Tool("up", "unified-planning", load_up, in_venv=True),
    )
}
OURS = "pddltools"
CHECK = "check"  # not a reference: pddltools check, compared with pddltools parsing


def dist_version(name: str) -> str:
    from importlib.metadata import version

    return version(name)


# ---------------------------------------------------------------------------------------------------
# The child: parse pairs, stream one JSON line per pair.


def maxrss_kb() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def describe(error: BaseException) -> str:
    lines = [line for line in str(error).splitlines() if line.strip()]
    text = " | ".join(lines[:3]) if lines else repr(error)
    return f"{type(error).__name__}: {text}"[:MAX_MESSAGE]


def time_pair(parse: ParseFn, domain: str, problem: str, repeat: int,
              clock: Callable[[], float] = time.perf_counter) -> tuple[float, str | None]:
    best = float("inf")
    for _ in range(repeat):
        start = clock()
        try:
            parse(domain, problem)
        except (Exception, SystemExit) as error:  # a rejection, whatever the tool raises
            return clock() - start, describe(error)
        best = min(best, clock() - start)
    return best, None


def child_main(args: argparse.Namespace) -> int:
    out = open(args.out, "a", encoding="utf-8")  # noqa: SIM115 -- kept open and flushed line by line

    def emit(record: dict[str, Any]) -> None:
        out.write(json.dumps(record) + "\n")
        out.flush()

    started = time.perf_counter()
    try:
        version, parse = TOOLS[args.child].load()
    except Exception as error:
        emit({"unavailable": describe(error)})
        return 0
    emit({"version": version, "import_s": time.perf_counter() - started, "baseline_rss_kb": maxrss_kb()})
    pairs = json.loads(Path(args.pairs).read_text(encoding="utf-8"))
    deadline = time.perf_counter() + args.budget
    for index in range(args.start, len(pairs)):
        if time.perf_counter() >= deadline:
            emit({"budget_hit": True})
            break
        domain, problem = pairs[index]
        seconds, message = time_pair(parse, domain, problem, args.repeat,
                                     time.process_time if args.cpu else time.perf_counter)
        emit({"i": index, "s": seconds, "error": message})
    emit({"done": True, "maxrss_kb": maxrss_kb()})
    return 0


def memory_child_main(args: argparse.Namespace) -> int:
    """Parse one pair once, report the peak memory it took (RSS over baseline, or tracemalloc).

    A tiny pair is parsed first, so that one-time set-up (grammar tables, caches) is in the baseline.
    """
    version, parse = TOOLS[args.memory_child].load()
    domain, problem = args.pair
    with contextlib.suppress(Exception, SystemExit):  # the warm-up is best effort
        parse(*args.warmup)
    if args.tracemalloc:
        import tracemalloc

        tracemalloc.start()
        parse(domain, problem)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        print(json.dumps({"version": version, "tracemalloc_peak_bytes": peak}))
        return 0
    baseline = maxrss_kb()
    parse(domain, problem)
    print(json.dumps({"version": version, "baseline_rss_kb": baseline, "peak_rss_kb": maxrss_kb()}))
    return 0


# ---------------------------------------------------------------------------------------------------
# Selecting pairs.


@dataclass(frozen=True)
class Pair:
    domain: Path
    problem: Path
    size: int  # bytes of domain + problem

    @property
    def folder(self) -> str:
        return self.problem.parent.parent.relative_to(CORPUS).as_posix()


def short(path: Path | str) -> str:
    path = Path(path)
    return path.relative_to(CORPUS).as_posix() if path.is_relative_to(CORPUS) else str(path)


def domain_for(problem: Path) -> Path | None:
    """The domain of `problem` under the corpus layouts: ../domain.pddl or ../domains/domain-N.pddl."""
    folder = problem.parent.parent if problem.parent.name == "instances" else problem.parent
    own = folder / "domains" / problem.name.replace("instance", "domain", 1)
    for candidate in (own, folder / "domain.pddl"):
        if candidate.is_file():
            return candidate
    return None


def make_pair(domain: Path, problem: Path) -> Pair:
    return Pair(domain, problem, domain.stat().st_size + problem.stat().st_size)


def pairs_under(folder: Path) -> list[Pair]:
    pairs = []
    for problem in sorted(folder.rglob("instances/*.pddl"), key=natural_key):
        domain = domain_for(problem)
        if domain is not None:
            pairs.append(make_pair(domain, problem))
    return pairs


def natural_key(path: Path) -> tuple[object, ...]:
    digits = "".join(ch for ch in path.stem if ch.isdigit())
    return (path.parent.as_posix(), int(digits) if digits else -1, path.name)


def pairs_from_path(path: Path) -> list[Pair]:
    if path.is_dir():
        return pairs_under(path)
    domain = domain_for(path)
    if domain is None:
        raise SystemExit(f"no domain found for {path} (expected ../domain.pddl or ../domains/domain-N.pddl)")
    return [make_pair(domain, path)]


def folder_selected(folder: str, args: argparse.Namespace) -> bool:
    if args.glob:
        return any(
            fnmatch.fnmatch(folder, pattern) or fnmatch.fnmatch(folder.split("/")[-1], pattern) for pattern in args.glob
        )
    return args.set == "all" or SEQ_SAT in folder.split("/")[-1]


def select_pairs(args: argparse.Namespace) -> list[Pair]:
    if args.single:
        pairs = [make_pair(Path(args.single[0]).resolve(), Path(args.single[1]).resolve())]
    elif args.paths:
        pairs = [pair for path in args.paths for pair in pairs_from_path(Path(path).resolve())]
    else:
        pairs = [pair for pair in pairs_under(CORPUS) if folder_selected(pair.folder, args)]
    if args.largest:
        pairs = sorted(pairs, key=lambda pair: pair.size, reverse=True)[: args.largest]
    if args.order == "shuffled":
        random.Random(args.seed).shuffle(pairs)
    if not pairs:
        raise SystemExit("no domain/problem pairs selected")
    return pairs


def warm_cache(pairs: Iterable[Pair]) -> None:
    """Read every file once so that the first tool does not pay for the disk."""
    for path in {p for pair in pairs for p in (pair.domain, pair.problem)}:
        path.read_bytes()


# ---------------------------------------------------------------------------------------------------
# The parent: run each tool's child, within its budget, restarting it after a crash.


@dataclass
class ToolRun:
    tool: str
    version: str = ""
    unavailable: str = ""
    times: dict[int, float] = field(default_factory=dict)
    errors: dict[int, str] = field(default_factory=dict)
    wall_s: float = 0.0
    import_s: float = 0.0
    baseline_rss_kb: int = 0
    maxrss_kb: int = 0
    budget_hit: bool = False
    crashes: list[str] = field(default_factory=list)


def python_for(tool: Tool) -> Path | None:
    if not tool.in_venv:
        return Path(sys.executable)
    return VENV_PYTHON if VENV_PYTHON.exists() else None


def child_env(tool: Tool) -> dict[str, str]:
    env = dict(os.environ)
    if not tool.in_venv:  # benchmark the checkout, even if another pddltools is installed
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH", "")]))
    return env


def wait_with_deadline(process: subprocess.Popen[bytes], seconds: float) -> tuple[int, int, bool]:
    """Wait for the child; kill it after `seconds`. Returns (status, its ru_maxrss in KB, killed)."""
    killed = threading.Event()

    def kill() -> None:
        killed.set()
        process.kill()

    timer = threading.Timer(seconds, kill)
    timer.start()
    try:
        _, status, usage = os.wait4(process.pid, 0)
    finally:
        timer.cancel()
    process.returncode = os.waitstatus_to_exitcode(status)
    return process.returncode, usage.ru_maxrss, killed.is_set()


def absorb(run: ToolRun, lines: Iterable[str]) -> None:
    for line in lines:
        record = json.loads(line)
        if "i" in record:
            run.times[record["i"]] = record["s"]
            if record["error"] is not None:
                run.errors[record["i"]] = record["error"]
        run.unavailable = record.get("unavailable", run.unavailable)
        run.version = record.get("version", run.version)
        run.import_s = max(run.import_s, record.get("import_s", 0.0))
        run.baseline_rss_kb = max(run.baseline_rss_kb, record.get("baseline_rss_kb", 0))
        run.budget_hit = run.budget_hit or record.get("budget_hit", False)


def run_child(run: ToolRun, python: Path, pairs_file: Path, start: int, budget: float, args: argparse.Namespace) -> int:
    """Run one child from pair `start`; returns the exit status (negative: killed by that signal)."""
    tool = TOOLS[run.tool]
    with tempfile.TemporaryDirectory(prefix="pddltools-bench-") as scratch:
        out, err = Path(scratch) / "results.jsonl", Path(scratch) / "stderr.txt"
        command = [
            str(python),
            str(Path(__file__).resolve()),
            "--child",
            tool.name,
            "--pairs",
            str(pairs_file),
            "--out",
            str(out),
            "--start",
            str(start),
            "--budget",
            str(budget),
            "--repeat",
            str(args.repeat),
            *(["--cpu"] if args.cpu else []),
        ]
        began = time.perf_counter()
        with err.open("wb") as stderr:
            process = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=stderr,
                env=child_env(tool),
                cwd=scratch,
            )
            status, rss_kb, killed = wait_with_deadline(process, budget + args.grace)
        run.wall_s += time.perf_counter() - began
        run.maxrss_kb = max(run.maxrss_kb, rss_kb)
        absorb(run, out.read_text(encoding="utf-8").splitlines() if out.exists() else [])
        if killed:
            run.budget_hit = True
        elif status != 0 and not run.unavailable:
            tail = err.read_text(encoding="utf-8", errors="replace").strip().splitlines()[-1:]
            run.crashes.append(f"exit status {status}: {' '.join(tail)}"[:MAX_MESSAGE])
    return 0 if killed else status


def run_tool(name: str, pairs: Sequence[Pair], pairs_file: Path, args: argparse.Namespace) -> ToolRun:
    run = ToolRun(name)
    python = python_for(TOOLS[name])
    if python is None:
        run.unavailable = f"{VENV_PYTHON.relative_to(REPO)} missing: run benchmarks/setup.sh"
        return run
    start, budget_left = 0, args.budget
    while start < len(pairs) and budget_left > 0 and not run.unavailable:
        began = time.perf_counter()
        status = run_child(run, python, pairs_file, start, budget_left, args)
        budget_left -= time.perf_counter() - began
        if status == 0 or run.budget_hit:
            break
        if not run.version:  # died before it could parse anything
            run.unavailable = f"child process died on start: {run.crashes[-1]}"
            break
        crashed = max([*run.times, *run.errors], default=start - 1) + 1  # the pair it was parsing
        if crashed < len(pairs):
            run.errors[crashed] = f"child process died: {run.crashes[-1]}"  # no time: not comparable
        start = crashed + 1
    return run


# ---------------------------------------------------------------------------------------------------
# Summaries and ratios.


@dataclass(frozen=True)
class Summary:
    finished: int
    accepted: int
    rejected: int
    seconds: float
    megabytes: float

    @property
    def files_per_s(self) -> float:
        return 2 * self.finished / self.seconds if self.seconds else 0.0

    @property
    def mb_per_s(self) -> float:
        return self.megabytes / self.seconds if self.seconds else 0.0


def summarize(run: ToolRun, pairs: Sequence[Pair]) -> Summary:
    finished = set(run.times) | set(run.errors)
    megabytes = sum(pairs[i].size for i in finished) / 1e6
    rejected = len(run.errors)
    return Summary(len(finished), len(finished) - rejected, rejected, sum(run.times.values()), megabytes)


@dataclass(frozen=True)
class Ratio:
    reference: str
    basis: str  # "both accepted" or "both finished"
    pairs: int
    megabytes: float
    ours_s: float
    theirs_s: float
    budget_cut: bool  # a budget stopped one of the two before the end of the selection

    @property
    def value(self) -> float:
        return self.ours_s / self.theirs_s if self.theirs_s else float("nan")


def ratio(ours: ToolRun, theirs: ToolRun, pairs: Sequence[Pair], accepted_only: bool) -> Ratio:
    common = set(ours.times) & set(theirs.times)
    if accepted_only:
        common -= set(ours.errors) | set(theirs.errors)
    return Ratio(
        theirs.tool,
        "both accepted" if accepted_only else "both finished",
        len(common),
        sum(pairs[i].size for i in common) / 1e6,
        sum(ours.times[i] for i in common),
        sum(theirs.times[i] for i in common),
        min(summarize(ours, pairs).finished, summarize(theirs, pairs).finished) < len(pairs),
    )


def ratios(runs: dict[str, ToolRun], pairs: Sequence[Pair]) -> list[Ratio]:
    ours = runs.get(OURS)
    if ours is None or ours.unavailable:
        return []
    return [
        ratio(ours, run, pairs, accepted_only)
        for name, run in runs.items()
        if name not in (OURS, CHECK) and not run.unavailable
        for accepted_only in (True, False)
    ]


def check_ratio(runs: dict[str, ToolRun], pairs: Sequence[Pair]) -> Ratio | None:
    """Parsing and checking against parsing alone, on the pairs both finished (target: at most 2)."""
    ours, checking = runs.get(OURS), runs.get(CHECK)
    if ours is None or checking is None or ours.unavailable or checking.unavailable:
        return None
    return ratio(checking, ours, pairs, accepted_only=True)


# ---------------------------------------------------------------------------------------------------
# Memory of pddltools on the largest pair.


def memory_targets(pairs: Sequence[Pair]) -> list[Pair]:
    by_pair = max(pairs, key=lambda pair: pair.size)
    by_problem = max(pairs, key=lambda pair: pair.problem.stat().st_size)
    return [by_pair] if by_pair == by_problem else [by_pair, by_problem]


WARMUP_DOMAIN = """(define (domain warm-up) (:requirements :strips) (:predicates (p ?x) (q))
  (:action a :parameters (?x) :precondition (p ?x) :effect (q)))"""
WARMUP_PROBLEM = "(define (problem warm-up-1) (:domain warm-up) (:objects o) (:init (p o)) (:goal (q)))"


def write_warmup(folder: Path) -> list[str]:
    domain, problem = folder / "warm-up-domain.pddl", folder / "warm-up-problem.pddl"
    domain.write_text(WARMUP_DOMAIN, encoding="utf-8")
    problem.write_text(WARMUP_PROBLEM, encoding="utf-8")
    return [str(domain), str(problem)]


def measure_memory(name: str, pair: Pair, traced: bool) -> dict[str, Any]:
    tool = TOOLS[name]
    python = python_for(tool)
    if python is None:
        return {"error": "interpreter missing"}
    with tempfile.TemporaryDirectory(prefix="pddltools-bench-") as scratch:
        command = [str(python), str(Path(__file__).resolve()), "--memory-child", name]
        command += ["--pair", str(pair.domain), str(pair.problem), "--warmup", *write_warmup(Path(scratch))]
        command += ["--tracemalloc"] if traced else []
        done = subprocess.run(command, capture_output=True, text=True, env=child_env(tool), check=False)
    if done.returncode != 0:
        return {"error": (done.stderr.strip().splitlines() or ["failed"])[-1][:MAX_MESSAGE]}
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def memory_report(names: Sequence[str], pairs: Sequence[Pair]) -> list[dict[str, Any]]:
    report = []
    for pair in memory_targets(pairs):
        for name in names:
            rss, traced = measure_memory(name, pair, False), measure_memory(name, pair, True)
            entry: dict[str, Any] = {
                "tool": name,
                "domain": str(pair.domain),
                "problem": str(pair.problem),
                "pair_bytes": pair.size,
                "problem_bytes": pair.problem.stat().st_size,
                "rss": rss,
                "tracemalloc": traced,
            }
            if "peak_rss_kb" in rss:
                entry["rss_over_baseline_bytes"] = (rss["peak_rss_kb"] - rss["baseline_rss_kb"]) * 1024
                entry["rss_over_baseline_x"] = entry["rss_over_baseline_bytes"] / pair.size
            if "tracemalloc_peak_bytes" in traced:
                entry["tracemalloc_x"] = traced["tracemalloc_peak_bytes"] / pair.size
            report.append(entry)
    return report


# ---------------------------------------------------------------------------------------------------
# Output.


def table(rows: Sequence[Sequence[str]]) -> str:
    widths = [max(len(row[col]) for row in rows) for col in range(len(rows[0]))]
    lines = [
        "  ".join(cell.rjust(w) if i else cell.ljust(w) for i, (cell, w) in enumerate(zip(row, widths, strict=True)))
        for row in rows
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def tool_rows(runs: dict[str, ToolRun], pairs: Sequence[Pair]) -> list[list[str]]:
    rows = [
        [
            "tool",
            "version",
            "pairs done",
            "accepted",
            "rejected",
            "parse s",
            "wall s",
            "files/s",
            "MB/s",
            "peak RSS MB",
            "note",
        ]
    ]
    for name, run in runs.items():
        if run.unavailable:
            rows.append([TOOLS[name].label, "", "", "", "", "", "", "", "", "", "not available (below)"])
            continue
        s = summarize(run, pairs)
        note = f"budget hit after {s.finished} of {len(pairs)} pairs" if s.finished < len(pairs) else ""
        note += f"; {len(run.crashes)} child crash(es)" if run.crashes else ""
        rows.append(
            [
                TOOLS[name].label,
                run.version,
                f"{s.finished}/{len(pairs)}",
                str(s.accepted),
                str(s.rejected),
                f"{s.seconds:.2f}",
                f"{run.wall_s:.2f}",
                f"{s.files_per_s:.1f}",
                f"{s.mb_per_s:.2f}",
                f"{run.maxrss_kb / 1024:.0f}",
                note.lstrip("; "),
            ]
        )
    return rows


def subset_label(r: Ratio, selected: int) -> str:
    if r.pairs == selected:
        return "all selected"
    reason = "budget" if r.budget_cut else "rejected pairs left out"
    return f"SUBSET: {r.pairs}/{selected} pairs ({reason})"


def ratio_rows(found: Sequence[Ratio], pairs: Sequence[Pair]) -> list[list[str]]:
    total = sum(pair.size for pair in pairs) / 1e6
    rows = [["pddltools / reference", "ratio", "on pairs", "MB", "pddltools s", "reference s", "subset"]]
    for r in found:
        subset = subset_label(r, len(pairs))
        rows.append(
            [
                f"vs {TOOLS[r.reference].label} ({r.basis})",
                f"{r.value:.2f}" if r.value >= 0.1 else f"{r.value:.3f}",
                str(r.pairs),
                f"{r.megabytes:.2f}/{total:.2f}",
                f"{r.ours_s:.2f}",
                f"{r.theirs_s:.2f}",
                subset,
            ]
        )
    return rows


def rejection_lines(runs: dict[str, ToolRun], pairs: Sequence[Pair]) -> list[str]:
    lines = []
    for name, run in runs.items():
        for index in sorted(run.errors)[:SHOWN_REJECTIONS]:
            lines.append(f"  {TOOLS[name].label}: {short(pairs[index].problem)}: {run.errors[index][:200]}")
        if len(run.errors) > SHOWN_REJECTIONS:
            lines.append(f"  {TOOLS[name].label}: ... and {len(run.errors) - SHOWN_REJECTIONS} more (see --json)")
    return lines


def memory_lines(report: Sequence[dict[str, Any]]) -> list[str]:
    lines = []
    for entry in report:
        where = short(entry["problem"])
        size = f"{entry['pair_bytes'] / 1e6:.2f} MB pair"
        if "rss_over_baseline_x" not in entry:
            lines.append(f"  {entry['tool']} on {where}: {entry['rss'].get('error') or entry['tracemalloc']}")
            continue
        traced = entry.get("tracemalloc_x")
        lines.append(
            f"  {entry['tool']} on {where} ({size}): ru_maxrss over the interpreter's baseline "
            f"{entry['rss_over_baseline_bytes'] / 1e6:.1f} MB = {entry['rss_over_baseline_x']:.1f}x; "
            f"tracemalloc peak " + (f"{traced:.1f}x" if traced is not None else "n/a")
        )
    return lines


def render(
    runs: dict[str, ToolRun],
    pairs: Sequence[Pair],
    found: Sequence[Ratio],
    memory: Sequence[dict[str, Any]],
    args: argparse.Namespace,
) -> str:
    megabytes = sum(pair.size for pair in pairs) / 1e6
    head = (
        f"{len(pairs)} domain/problem pairs, {megabytes:.1f} MB read (domain counted once per pair); "
        f"budget {args.budget:g} s per tool; repeat {args.repeat}; order {args.order}; "
        f"clock {'CPU (process time)' if args.cpu else 'wall'}\n"
        f"pddltools source: {source_state()}; load average at start {args.load:.2f}; "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}"
    )
    parts = [head, "", table(tool_rows(runs, pairs)), ""]
    if found:
        parts += [
            "ratio = pddltools time / reference time on the same pairs (<= 1.0: pddltools faster)",
            table(ratio_rows(found, pairs)),
        ]
    checked = check_ratio(runs, pairs)
    if checked is not None:
        parts += [
            "",
            f"checking = (parse + check) / parse = {checked.value:.2f} on {checked.pairs} pairs "
            f"({checked.ours_s:.2f} s / {checked.theirs_s:.2f} s; target <= 2)",
        ]
    parts += [f"{name}: not available: {run.unavailable}" for name, run in runs.items() if run.unavailable]
    rejections = rejection_lines(runs, pairs)
    if rejections:
        parts += ["", "first rejections:", *rejections]
    if memory:
        parts += [
            "",
            "peak memory on the largest pair, after a tiny warm-up pair (x = bytes / domain+problem bytes):",
            *memory_lines(memory),
        ]
    return "\n".join(parts)


def json_report(
    runs: dict[str, ToolRun],
    pairs: Sequence[Pair],
    found: Sequence[Ratio],
    memory: Sequence[dict[str, Any]],
    args: argparse.Namespace,
) -> dict[str, Any]:
    def tool_entry(run: ToolRun) -> dict[str, Any]:
        s = summarize(run, pairs)
        return {
            "version": run.version,
            "unavailable": run.unavailable or None,
            "pairs_finished": s.finished,
            "accepted": s.accepted,
            "rejected": s.rejected,
            "parse_s": s.seconds,
            "wall_s": run.wall_s,
            "import_s": run.import_s,
            "files_per_s": s.files_per_s,
            "mb_per_s": s.mb_per_s,
            "megabytes": s.megabytes,
            "peak_rss_kb": run.maxrss_kb,
            "baseline_rss_kb": run.baseline_rss_kb,
            "budget_hit": run.budget_hit,
            "crashes": run.crashes,
            "times_s": [run.times.get(i) for i in range(len(pairs))],
            "rejections": [
                {"pair": i, "problem": short(pairs[i].problem), "error": run.errors[i]} for i in sorted(run.errors)
            ],
        }

    return {
        "python": sys.version.split()[0],
        "pddltools_source": source_state(),
        "load_average_at_start": args.load,
        "finished_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "budget_s": args.budget,
        "repeat": args.repeat,
        "order": args.order,
        "pairs": [{"domain": str(p.domain), "problem": str(p.problem), "bytes": p.size} for p in pairs],
        "megabytes": sum(p.size for p in pairs) / 1e6,
        "tools": {name: tool_entry(run) for name, run in runs.items()},
        "ratios": [
            {
                "reference": r.reference,
                "basis": r.basis,
                "ratio": r.value,
                "pairs": r.pairs,
                "megabytes": r.megabytes,
                "pddltools_s": r.ours_s,
                "reference_s": r.theirs_s,
            }
            for r in found
        ],
        "memory": list(memory),
        "check_over_parse": (lambda r: None if r is None else {
            "ratio": r.value, "pairs": r.pairs, "check_s": r.ours_s, "parse_s": r.theirs_s,
        })(check_ratio(runs, pairs)),
    }


# ---------------------------------------------------------------------------------------------------
# Command line.


def tool_list(text: str) -> list[str]:
    names = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in TOOLS]
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown tool(s) {', '.join(unknown)}; known: {', '.join(TOOLS)}")
    return names


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("paths", nargs="*", help="a problem file (its domain found by the corpus layout) or a folder")
    p.add_argument(
        "--set",
        choices=["all", "seq-sat"],
        default="all",
        help="all: every corpus pair; seq-sat: folders named *sequential-satisficing*",
    )
    p.add_argument("--glob", action="append", help="fnmatch pattern on 'ipc-YYYY/folder' or the folder name")
    p.add_argument("--largest", type=int, metavar="N", help="only the N largest pairs (domain+problem bytes)")
    p.add_argument("--single", nargs=2, metavar=("DOMAIN", "PROBLEM"), help="time one explicit pair")
    p.add_argument("--tools", type=tool_list, default=list(TOOLS), help=f"comma-separated, from {','.join(TOOLS)}")
    p.add_argument("--budget", type=float, default=300.0, help="seconds of parsing per tool (default 300)")
    p.add_argument("--grace", type=float, default=120.0, help="seconds past the budget before a child is killed")
    p.add_argument("--repeat", type=int, default=1, help="parse each pair N times, keep the fastest")
    p.add_argument("--cpu", action="store_true",
                   help="time each parse in the child's CPU time (time.process_time), not wall-clock: on a loaded "
                        "machine the tools, run one after the other, then compare however the load changes")
    p.add_argument(
        "--order",
        choices=["shuffled", "corpus"],
        default="shuffled",
        help="shuffled (default, fixed seed): a budgeted prefix is a fair sample of the selection",
    )
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--memory-tools",
        type=tool_list,
        default=[OURS],
        help="tools whose memory on the largest pair is measured (default pddltools)",
    )
    p.add_argument("--no-memory", action="store_true", help="skip the memory measurement")
    p.add_argument("--json", type=Path, metavar="FILE", help="also write the full results as JSON")
    for hidden in ("--child", "--memory-child", "--pairs", "--out"):
        p.add_argument(hidden, help=argparse.SUPPRESS)
    p.add_argument("--start", type=int, default=0, help=argparse.SUPPRESS)
    p.add_argument("--pair", nargs=2, help=argparse.SUPPRESS)
    p.add_argument("--warmup", nargs=2, help=argparse.SUPPRESS)
    p.add_argument("--tracemalloc", action="store_true", help=argparse.SUPPRESS)
    return p.parse_args(argv)


def source_state() -> str:
    """The commit of the checkout being measured, and whether pddltools/ or grammars/ differ from it."""

    def git(*words: str) -> str:
        done = subprocess.run(["git", *words], cwd=REPO, capture_output=True, text=True, check=False)
        return done.stdout.strip() if done.returncode == 0 else ""

    head = git("rev-parse", "--short", "HEAD") or "unknown commit"
    dirty = git("status", "--porcelain", "--", "pddltools", "grammars")
    return f"{head} + uncommitted changes" if dirty else head


def bench(args: argparse.Namespace) -> int:
    args.load = os.getloadavg()[0]
    pairs = select_pairs(args)
    warm_cache(pairs)
    print(f"{len(pairs)} pairs selected; running {', '.join(args.tools)}", file=sys.stderr)
    runs: dict[str, ToolRun] = {}
    with tempfile.TemporaryDirectory(prefix="pddltools-bench-") as scratch:
        pairs_file = Path(scratch) / "pairs.json"
        pairs_file.write_text(json.dumps([[str(p.domain), str(p.problem)] for p in pairs]), encoding="utf-8")
        for name in args.tools:
            print(f"  {name} ...", file=sys.stderr, flush=True)
            runs[name] = run_tool(name, pairs, pairs_file, args)
    found = ratios(runs, pairs)
    wanted = [n for n in args.memory_tools if n in runs and not runs[n].unavailable]
    memory = [] if args.no_memory else memory_report(wanted, pairs)
    print(render(runs, pairs, found, memory, args))
    if args.json:
        args.json.write_text(json.dumps(json_report(runs, pairs, found, memory, args), indent=1), encoding="utf-8")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if args.child:
        return child_main(args)
    if args.memory_child:
        return memory_child_main(args)
    return bench(args)


if __name__ == "__main__":
    sys.exit(main())

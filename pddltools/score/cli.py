"""`pddltools run|learn|score|select|report`: thin commands over `pddltools.score`.

Exit codes: 0 ok, 1 findings (a run did not finish cleanly is not a finding; an invalid results file
is), 2 bad usage or unreadable input. With `--format json` results go to stdout as one JSON document.
"""

from __future__ import annotations

import contextlib
import csv
import io
import os
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from pddltools.cli_options import LARGEST, number_option
from pddltools.consoles import stderr_console, stdout_console
from pddltools.diagnostics import Diagnostic, Error, InputError, error, render_rich
from pddltools.envelope import envelope, file_entry, print_json
from pddltools.exit_codes import ExitCode
from pddltools.reading import read_input, read_stream_text
from pddltools.score.claims import Campaign
from pddltools.score.classical import MissingBounds
from pddltools.score.isolated import IsolatedValidator
from pddltools.score.learn2023 import Trained, load_benchmark, run_protocol
from pddltools.score.learning import evaluation_jobs, generate_training, learn, reproduce
from pddltools.score.learning2023 import by_level
from pddltools.score.limits import MB, TRACK_LIMITS, Limits
from pddltools.score.pairs import Pair, find_pairs, read_pair_list
from pddltools.score.reference import References, load_references
from pddltools.score.results import is_database, load_runs, load_text
from pddltools.score.rules import LEARNING_2023_RULES, RULES, Scores, learning_impact, score
from pddltools.score.runner import (
    DaskExecutor,
    Executor,
    Job,
    LocalExecutor,
    Planner,
    absolute_paths,
    run_jobs,
    rundir_for,
)
from pddltools.score.selection import Thresholds, select
from pddltools.score.store import Run, Store
from pddltools.score.verdicts import PlanChecker
from pddltools.wording import count

TYPE_CHECKING = False  # typing's flag (mypy reads the name): argparse only for the annotations
if TYPE_CHECKING:
    import argparse


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    run = sub.add_parser("run")
    run.add_argument("problems", nargs="*", metavar="PATH",
                     help="problem files, or folders searched for problems (each paired with its domain file: "
                          "domain.pddl, domains/domain-N.pddl, pNN-domain.pddl, domain_pNN.pddl, ...)")
    run.add_argument("--domain", metavar="FILE", help="the domain of every problem given as a PATH")
    run.add_argument("--batch", metavar="LIST", help="a TSV file of domain<TAB>problem lines (a third column, "
                     "the plan of a `validate --batch` list, is ignored), paths relative to the current folder")
    run.add_argument("--planner", action="append", required=True, metavar="NAME=COMMAND",
                     help="a planner and its command template, e.g. 'fd=fast-downward.py --plan-file {plan} "
                          "{domain} {problem} --search astar(lmcut())'; fields {domain} {problem} {plan} "
                          "{rundir} {dck} {bound}; repeatable")
    run.add_argument("--bounds", metavar="COSTS.TSV",
                     help="bounded-cost track: PROBLEM<TAB>BOUND lines (as score --reference reads them); each "
                          "problem's bound fills {bound} in the planner's command")
    run.add_argument("--plan-file", action="append", default=[], metavar="NAME=TEMPLATE",
                     help="where planner NAME leaves its plan (default {plan}), e.g. 'pyperplan={problem}.soln'")
    run.add_argument("--anytime", action="append", default=[], metavar="NAME",
                     help="NAME improves its plan until stopped: its last plan counts at the time limit")
    run.add_argument("--unsolved-codes", action="append", default=[], metavar="NAME=CODES",
                     help="exit codes meaning 'no plan found' for NAME (default 0), e.g. 'fd=0,11,12'")
    _limit_options(run)
    run.add_argument("--max-plan-size", type=number_option("the plan size cap", above=0, high=LARGEST), metavar="MB",
                     help=f"the largest plan file read (default {Limits.plan_size // MB}); a larger one, or a plan "
                          "that is not a regular file in the run folder, makes the run a crash")
    run.add_argument("--disk", type=number_option("the disk budget", above=0, high=LARGEST), metavar="MB",
                     help=f"what a run's folder may hold (default {Limits.disk // MB}); a run writing more is "
                          "stopped as a crash")
    run.add_argument("--db", required=True, help="the results database (created if missing)")
    run.add_argument("--workdir", default="runs", help="folder for the run folders (default: runs)")
    run.add_argument("--track", default="", help="track name stored with the runs")
    run.add_argument("--dck", metavar="FOLDER",
                     help="learning track: run each planner with this knowledge folder (config dck) and with an "
                          "empty one (config baseline)")
    run.add_argument("--jobs", type=number_option("the jobs", whole=True, low=1, high=4096),
                     default=None, help="runs at a time (default: one per core)")
    run.add_argument("--dask", metavar="ADDRESS", help="run on the Dask scheduler at ADDRESS instead of locally")
    run.add_argument("--resume", action="store_true", help="skip the runs the database already holds")
    run.add_argument("--overwrite", "--force", action="store_true",
                     help="run again the runs the database already holds, replacing them")
    run.add_argument("--no-validate", action="store_true", help="store plans without validating them")
    run.add_argument("--format", choices=("text", "json"), default="text")
    run.set_defaults(func=cmd_run)

    lrn = sub.add_parser("learn")
    lrn.add_argument("domain", nargs="+", metavar="DOMAIN",
                     help="ipc2011: the domain file; ipc2023: benchmark domain folders (domain.pddl, "
                          "training/ and testing/, each with easy/ medium/ hard/)")
    lrn.add_argument("--protocol", choices=("ipc2011", "ipc2023"), default="ipc2011",
                     help="ipc2011 (default): run a learner template, hash and reproduce its knowledge; ipc2023: "
                          "run LEARN DK DOMAIN TASK... once per domain, then PLAN DK DOMAIN TASK PLAN per test task")
    lrn.add_argument("--planner", required=True, help="the participant's name")
    lrn.add_argument("--learner", required=True, metavar="COMMAND",
                     help="ipc2011: learner command template with {domain} {training} {dck}; ipc2023: the learner "
                          "command, given DK DOMAIN TASK1 TASK2 ...")
    lrn.add_argument("--plan", metavar="COMMAND",
                     help="ipc2023: the planner command, given DK DOMAIN TASK PLAN")
    lrn.add_argument("--train-wall", type=number_option("the training time", above=0, high=LARGEST),
                     default=86400.0, metavar="S",
                     help="ipc2023: training seconds per domain, wall-clock and CPU (default 86400, 24 h)")
    lrn.add_argument("--train-memory", type=number_option("the training memory", above=0, high=LARGEST),
                     default=32 * 1024.0, metavar="MB",
                     help="ipc2023: training memory per domain (default 32768, 32 GiB)")
    lrn.add_argument("--kill-after", type=number_option("the grace time", low=0, high=LARGEST), default=60.0,
                     metavar="S",
                     help="ipc2023: seconds between SIGTERM at the training limit and SIGKILL (default 60)")
    lrn.add_argument("--jobs", type=number_option("the job count", whole=True, low=1, high=4096), default=None,
                     help="ipc2023: planner runs at a time (default: one per core)")
    lrn.add_argument("--no-validate", action="store_true", help="ipc2023: store plans without validating them")
    lrn.add_argument("--generator", metavar="COMMAND",
                     help="problem generator template with {seed} and {problem} (the file to write)")
    lrn.add_argument("--seeds", default="1-10", help="generator seeds, e.g. 1-30 or 1,5,9 (default 1-10)")
    lrn.add_argument("--training", metavar="FOLDER", help="an existing training set instead of --generator")
    lrn.add_argument("--out", required=True, help="folder for the training set and knowledge folders")
    lrn.add_argument("--reproduce", type=number_option("the reproductions", whole=True, low=0, high=1000),
                     default=1, metavar="N",
                     help="re-run the frozen learner N times and compare hashes (default 1; 0 skips)")
    lrn.add_argument("--db", required=True, help="the results database")
    _limit_options(lrn)
    lrn.add_argument("--format", choices=("text", "json"), default="text")
    lrn.set_defaults(func=cmd_learn)

    sc = sub.add_parser("score")
    sc.add_argument("results", help="a results database, a JSON-lines file of runs, or - for the JSON of "
                    "`pddltools run --format json` piped in")
    sc.add_argument("--rules", choices=RULES, required=True)
    sc.add_argument("--reference", metavar="COSTS.TSV",
                    help="PROBLEM<TAB>COST lines: each problem's best known or optimal cost (C*), or its cost "
                         "bound for ipc2018-bounded; paths relative to the file")
    sc.add_argument("--learning-impact", action="store_true",
                    help="also the learning-impact view: baseline vs dck, delta, Pareto rank, special award")
    sc.add_argument("--sequential-winner", metavar="PLANNER", help="for the special award test")
    sc.add_argument("--no-validate", action="store_true", help="JSON lines: trust plans without validating")
    sc.add_argument("--format", choices=("table", "json", "csv"), default="table")
    sc.set_defaults(func=cmd_score)

    se = sub.add_parser("select")
    se.add_argument("results", help="a results database or a JSON-lines file of runs on the candidates "
                    "(- for standard input)")
    se.add_argument("--size", type=number_option("the size", whole=True, low=1, high=LARGEST),
                    default=20, help="instances per domain (default 20)")
    se.add_argument("--min-solved", type=number_option("the minimum solved", whole=True, low=0, high=LARGEST),
                    default=10, help="fewer solved than this: resize (default 10)")
    se.add_argument("--trivial-time", type=number_option("the trivial time", low=0, high=LARGEST), default=5.0,
                    help="solved by every planner within this many seconds: trivial (default 5)")
    se.add_argument("--max-trivial-fraction", type=number_option("the fraction", low=0, high=1), default=0.5,
                    help="more trivial candidates than this fraction: resize (default 0.5)")
    se.add_argument("--no-validate", action="store_true")
    se.add_argument("--format", choices=("text", "json"), default="text")
    se.set_defaults(func=cmd_select)

    rp = sub.add_parser("report")
    rp.add_argument("results", help="a results database, a JSON-lines file of runs, or - (standard input)")
    rp.add_argument("--rules", choices=RULES, default="ipc2008-sat")
    rp.add_argument("--reference", metavar="COSTS.TSV", help="each problem's reference cost, as for score")
    rp.add_argument("-o", "--output", default="report.html")
    rp.add_argument("--title", default="Planner results")
    rp.add_argument("--sequential-winner", metavar="PLANNER")
    rp.add_argument("--no-validate", action="store_true")
    rp.add_argument("--format", choices=("text", "json"), default="text")
    rp.set_defaults(func=cmd_report)


def _limit_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--limits", choices=sorted(TRACK_LIMITS), default=None, metavar="PRESET",
                   help="the rules' limits: " + "; ".join(f"{name} {_preset(limits)}" for name, limits
                                                          in TRACK_LIMITS.items())
                   + " (default ipc2008; learn --protocol ipc2023: ipc2023-learning)")
    p.add_argument("--wall", type=number_option("the wall-clock limit", above=0, high=LARGEST),
                   help="wall-clock seconds per run")
    p.add_argument("--cpu", type=number_option("the CPU limit", above=0, high=LARGEST),
                   help="CPU seconds per run (all processes of the run together)")
    p.add_argument("--memory", type=number_option("the memory limit", above=0, high=LARGEST),
                   help="MB per run (all processes together)")
    p.add_argument("--no-address-limit", action="store_true",
                   help="do not also cap each process's address space at the memory limit (for the JVM, Go)")


def _preset(limits: Limits) -> str:
    hours = limits.wall >= 3600
    time = f"{limits.wall / 3600:g} h" if hours else f"{limits.wall / 60:g} min"
    return f"{time}, {limits.memory / (1 << 30):g} GiB"


def _limits(args: argparse.Namespace, default: str = "ipc2008") -> Limits:
    base = TRACK_LIMITS[args.limits or default]
    wall = args.wall if args.wall is not None else base.wall
    cpu = args.cpu if args.cpu is not None else (wall if args.wall is not None else base.cpu)
    memory = int(args.memory * MB) if args.memory is not None else base.memory
    sizes = {}
    for option, field in (("max_plan_size", "plan_size"), ("disk", "disk")):
        value = getattr(args, option, None)
        if value is not None:
            sizes[field] = int(value * MB)
    return replace(base, wall=wall, cpu=cpu, memory=memory, address_space=not args.no_address_limit, **sizes)


def _guard(func: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    def wrapped(args: argparse.Namespace) -> int:
        try:
            return func(args)
        except Error as exc:
            render_rich(exc.diagnostics, stderr_console())
            return ExitCode.USAGE if isinstance(exc, InputError) or _is_usage(exc) else ExitCode.FINDINGS
    return wrapped


def _is_usage(exc: Error) -> bool:
    return any(d.code in {"S020", "S021", "S023", "S024", "S030", "S046", "S050", "S052"} for d in exc.diagnostics)


def _usage(message: str) -> Error:
    return Error([error("S020", message)])


def _pairs(items: list[str], what: str) -> dict[str, str]:
    out = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise _usage(f"{what} must be NAME=VALUE, not {item!r}")
        out[name] = value
    return out


def _checker(no_validate: bool) -> PlanChecker | None:
    if no_validate:
        return None
    from pddltools.score.validation import Validator  # the validator's imports only where it validates here

    return Validator()


def _results_entry(args: argparse.Namespace) -> dict[str, Any]:
    """The envelope's entry of the RESULTS read: a problem in it stops the command before any output."""
    return file_entry("<stdin>" if args.results == "-" else args.results, "results", [])


def _load(args: argparse.Namespace) -> list[Run]:
    """Runs to score; a database's plans were validated when they ran, a JSON-lines file's are now."""
    if args.results == "-":  # piped from `pddltools run --format json`
        text = read_stream_text(sys.stdin.buffer, "<stdin>", code="S040")
        return load_text(text, "<stdin>", Path.cwd(), _checker(args.no_validate))
    path = Path(args.results)
    read_input(path, code="S040", limit=16, truncate=True)  # a missing file, a folder, a device: S040
    return load_runs(path, None if is_database(path) else _checker(args.no_validate))


# -------------------------------------------------------------------------------------------------


def _run(args: argparse.Namespace) -> int:
    commands = _pairs(args.planner, "--planner")
    plan_files = _pairs(args.plan_file, "--plan-file")
    codes = _pairs(args.unsolved_codes, "--unsolved-codes")
    for name in [*plan_files, *codes, *args.anytime]:
        if name not in commands:
            raise _usage(f"{name} is not a --planner")
    planners = []
    for name, command in commands.items():
        try:
            unsolved = tuple(int(c) for c in codes.get(name, "0").split(","))
        except ValueError:
            raise _usage(f"--unsolved-codes for {name} must be integers separated by commas") from None
        planner = Planner(name, absolute_paths(command), plan_files.get(name, "{plan}"), unsolved, name in args.anytime)
        planner.check()
        planners.append(planner)
    if args.jobs is not None and args.jobs < 1:
        raise _usage("--jobs must be at least 1")
    if args.resume and args.overwrite:
        raise _usage("give --resume (keep the stored runs) or --overwrite (replace them), not both")
    limits = _limits(args)
    pairs, missing = _problem_pairs(args)
    render_rich(missing, stderr_console())
    if not pairs:
        where = ", ".join([*args.problems, *([args.batch] if args.batch else [])])
        raise InputError([error("S021", f"no problems to run in {where}")])
    workdir = Path(args.workdir).resolve()
    bounds = load_references(args.bounds) if args.bounds else None
    if bounds is not None:
        unbounded = [p for _, p in pairs if bounds.get(str(Path(p).resolve())) is None]
        if unbounded:
            raise Error([error("S046", f"{count(len(unbounded), 'problem')} to run have no bound in {args.bounds}, "
                                       f"e.g. {unbounded[0]}")])
    jobs: list[Job] = []
    for planner in planners:
        if args.dck:
            dck = Path(args.dck).resolve()
            if not dck.is_dir():
                raise InputError([error("S022", f"the knowledge folder {dck} does not exist")])
            jobs += evaluation_jobs(planner, pairs, dck, workdir / "empty-dck", args.track, limits, workdir)
        else:
            jobs += [Job(planner, args.track, "baseline", str(d), str(p), limits,
                         rundir_for(workdir, planner.name, "baseline", d, p), bound=_bound(bounds, p))
                     for d, p in pairs]
    executor: Executor = DaskExecutor(args.dask) if args.dask else LocalExecutor(args.jobs or _cores())
    counts: Counter[str] = Counter()
    out = stdout_console()  # one line per run as it finishes, above the progress bar
    with contextlib.ExitStack() as stack:
        store = stack.enter_context(Store.open(args.db))
        checker: PlanChecker | None = None
        if not args.no_validate:  # plans are untrusted: validated in a child held to the run's limits
            checker = stack.enter_context(IsolatedValidator(limits.memory, limits.wall))
        campaign = stack.enter_context(Campaign(workdir, args.db))
        alone = campaign.start()
        finished = store.finished()
        stored_before = {j.key for j in jobs} & finished.keys()
        # Runs stored since the campaigns running here began are theirs: this one joins them.
        theirs = set() if alone else {k for k in stored_before if finished[k] >= campaign.started}
        stored_before -= theirs
        if stored_before and not args.resume and not _may_replace(args, len(stored_before)):
            raise Error([error("S024", f"{len(stored_before)} of these runs are already in {args.db}: give --resume "
                                       "to keep them and run the others, or --overwrite to run them again and "
                                       "replace them")])
        campaign.settled()
        if not alone and args.format == "text":
            stderr_console().print(f"joining the campaign running in {workdir}: its runs are left to it",
                                   markup=False)
        already = (len(stored_before) if args.resume else 0) + len(theirs)
        columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                   TextColumn("solved {task.fields[solved]}  failed {task.fields[failed]}"), TimeRemainingColumn())
        progress = Progress(*columns, console=stderr_console(),
                            disable=args.format == "json" or not sys.stderr.isatty())
        with progress:
            task = progress.add_task("runs", total=len(jobs) - already, solved=0, failed=0)

            def on_run(run: Run) -> None:
                if args.format == "text":
                    out.print(f"{run.planner} {run.config} {run.domain}/{run.problem}: {run.status} {run.wall:.2f} s"
                              + (f" ({run.reason})" if run.reason else ""), markup=False)
                counts[run.status] += 1
                failed = sum(v for k, v in counts.items() if k not in ("solved", "unsolved"))
                progress.update(task, advance=1, solved=counts["solved"], failed=failed)

            stored = run_jobs(jobs, store, executor, checker, resume=args.resume, on_run=on_run, campaign=campaign,
                              done_elsewhere=theirs)
        elsewhere = len(campaign.left) + len(theirs)
    if args.format == "json":
        # the problems run, and those that could not run with why (their domain was not found)
        files = [*(file_entry(problem, "problem", []) for _, problem in pairs),
                 *(file_entry(d.span.file if d.span else None, "problem", [d]) for d in missing)]
        totals = {"files": len(files), "ran": len(stored), "skipped": already, "not_run": len(missing)}
        print_json(envelope("run", files, totals, db=args.db, ran=len(stored), skipped=already,
                            by_other_campaigns=elsewhere,
                            statuses=dict(counts), runs=[_run_json(r) for r in stored]))
    else:
        summary = ", ".join(f"{v} {k}" for k, v in sorted(counts.items()))
        out.print(f"{count(len(stored), 'run')} into {args.db}" + (f", {already} already there" if already else "")
                  + (f", {elsewhere} by another campaign" if elsewhere else "")
                  + (f": {summary}" if summary else ""), markup=False)
    if missing:
        stderr_console().print(f"{count(len(missing), 'problem')} not run: see above", markup=False)
        return ExitCode.FINDINGS
    return ExitCode.OK


def _bound(bounds: References | None, problem: Path) -> str:
    """The problem's cost bound as the planner is given it: an integer without a decimal point."""
    value = None if bounds is None else bounds.get(str(Path(problem).resolve()))
    if value is None:
        return ""
    return str(int(value)) if value.is_integer() else repr(value)


def _problem_pairs(args: argparse.Namespace) -> tuple[list[Pair], list[Diagnostic]]:
    """The pairs to run, from PATHs and --batch, and a diagnostic for each problem that cannot run."""
    if not args.problems and not args.batch:
        raise _usage("give problem files or folders, or --batch LIST")
    if args.domain and not args.problems:
        raise _usage("--domain applies to the problems given as PATHs: give some")
    pairs, missing = find_pairs(args.problems, args.domain) if args.problems else ([], [])
    if args.batch:
        listed, bad = read_pair_list(args.batch)
        pairs, missing = pairs + [p for p in listed if p not in pairs], missing + bad
    return pairs, missing


def _may_replace(args: argparse.Namespace, count: int) -> bool:
    """Whether stored runs may be replaced: --overwrite, or a yes from a person at a terminal."""
    if args.overwrite:
        return True
    if not (sys.stdin.isatty() and sys.stderr.isatty()):
        return False
    answer = stderr_console().input(
        f"{count} of these runs are already in {args.db}. Run them again and replace them? [y/N] ", markup=False)
    return answer.strip().lower() in ("y", "yes")


def _cores() -> int:
    return max(1, len(os.sched_getaffinity(0)))


def _run_json(r: Run) -> dict[str, Any]:
    """A run as `score` reads it back (`time`, `plan_text`, `domain_path`), with run's own field names too."""
    return {"planner": r.planner, "config": r.config, "track": r.track, "domain": r.domain,
            "domain_path": r.domain_path, "problem": r.problem_path, "status": r.status, "time": r.wall,
            "wall": r.wall, "cpu": r.cpu, "peak_memory": r.peak_memory, "memory": r.peak_memory, "value": r.value,
            "length": r.length, "reason": r.reason, "plan": None, "plan_text": r.plan_text}


def _seeds(text: str) -> list[int]:
    seeds: list[int] = []
    try:
        for part in text.split(","):
            low, sep, high = part.partition("-")
            seeds += list(range(int(low), int(high) + 1)) if sep else [int(low)]
    except ValueError:
        raise _usage(f"--seeds must be like 1-30 or 1,5,9, not {text!r}") from None
    return seeds


def _learn(args: argparse.Namespace) -> int:
    if args.protocol == "ipc2023":
        return _learn_2023(args)
    if args.plan:
        raise _usage("--plan belongs to --protocol ipc2023")
    if len(args.domain) != 1:
        raise _usage("the ipc2011 protocol learns one domain file at a time")
    domain = Path(args.domain[0]).resolve()
    if not domain.is_file():
        raise InputError([error("S022", f"no such domain file: {args.domain[0]}")])
    out = Path(args.out).resolve()
    limits = _limits(args)
    if args.training:
        training = Path(args.training).resolve()
    elif args.generator:
        training = out / "training"
        generate_training(absolute_paths(args.generator), _seeds(args.seeds), domain, training, limits)
    else:
        raise _usage("give --generator (with --seeds) or --training")
    learner = absolute_paths(args.learner)
    with Store.open(args.db) as store:
        learned = learn(store, args.planner, learner, domain, training, out / "dck", limits)
        repro = (reproduce(store, args.planner, learner, domain, training, out, limits, learned.knowledge,
                           args.reproduce) if args.reproduce and learned.knowledge.status == "learned" else None)
    k = learned.knowledge
    if args.format == "json":
        reproduced = None if repro is None else repro.reproduced
        print_json(envelope("learn", [file_entry(domain, "domain", [])],
                            {"files": 1, "status": k.status, "reproduced": reproduced},
                            planner=k.planner, domain=k.domain, training=str(training),
                            training_problems=len(list(training.glob("*.pddl"))), dck=k.folder,
                            status=k.status, content_hash=k.content_hash, wall=k.wall, cpu=k.cpu,
                            peak_memory=k.peak_memory, reason=learned.reason, reproduced=reproduced,
                            reproduction_hashes=[] if repro is None else [a.content_hash for a in repro.again]))
    else:
        out_c = stdout_console()
        out_c.print(f"{k.planner} learned on {k.domain}: {k.status} in {k.wall:.1f} s, knowledge {k.folder} "
                    f"sha256 {k.content_hash}" + (f" ({learned.reason})" if learned.reason else ""), markup=False)
        if repro is not None:
            verdict = "reproduced" if repro.reproduced else "NOT reproduced: " + ", ".join(
                a.content_hash[:12] for a in repro.again)
            out_c.print(f"re-run {len(repro.again)} time(s): {verdict}", markup=False)
    if k.status != "learned" or (repro is not None and not repro.reproduced):
        return ExitCode.FINDINGS
    return ExitCode.OK


def _scores(args: argparse.Namespace, runs: list[Run]) -> Scores:
    """The runs scored by --rules, against the --reference costs when given."""
    references = load_references(args.reference) if args.reference else None
    try:
        return score(runs, args.rules, references=references)
    except MissingBounds as exc:
        raise Error([error("S046", f"{args.rules} scores against each problem's cost bound: {exc}")]) from None


def _learn_2023(args: argparse.Namespace) -> int:
    """The IPC-2023 learning tracks' protocol: train once per domain, plan on every test task."""
    if not args.plan:
        raise _usage("--protocol ipc2023 needs --plan COMMAND (the planner, given DK DOMAIN TASK PLAN)")
    if args.generator or args.training:
        raise _usage("--generator and --training belong to --protocol ipc2011: ipc2023 reads DOMAIN/training")
    if args.jobs is not None and args.jobs < 1:
        raise _usage("--jobs must be at least 1")
    for option in ("train_wall", "train_memory", "kill_after"):
        if getattr(args, option) <= 0 and not (option == "kill_after" and args.kill_after == 0):
            raise _usage(f"--{option.replace('_', '-')} must be above 0")
    benchmarks = [load_benchmark(path) for path in args.domain]
    train_limits = replace(TRACK_LIMITS["ipc2023-learning-train"], wall=args.train_wall, cpu=args.train_wall,
                           memory=int(args.train_memory * MB), grace=args.kill_after,
                           address_space=not args.no_address_limit)
    plan_limits = _limits(args, "ipc2023-learning")
    out = Path(args.out).resolve()
    entry = (args.planner, absolute_paths(args.learner), absolute_paths(args.plan))
    console = stdout_console()
    text = args.format == "text"

    def on_trained(t: Trained) -> None:
        if text:
            where = f"knowledge {t.knowledge}" if t.knowledge else "no knowledge"
            console.print(f"{t.entry} learned on {t.benchmark.name} ({count(len(t.benchmark.training), 'task')}): "
                          f"{t.status} in {t.outcome.wall:.1f} s, {where}; {t.how}", markup=False)

    def on_run(run: Run) -> None:
        if text:
            console.print(f"{run.planner} {run.domain}/{Path(run.problem_path).parent.name}/{run.problem}: "
                          f"{run.status} {run.cpu:.2f} s" + (f" ({run.reason})" if run.reason else ""), markup=False)

    executor = LocalExecutor(args.jobs or _cores())
    with Store.open(args.db) as store:
        trained, runs = run_protocol(store, [entry], benchmarks, out, train_limits, plan_limits, executor,
                                     _checker(args.no_validate), on_trained, on_run)
    statuses = Counter(r.status for r in runs)
    if args.format == "json":
        files = [file_entry(b.domain, "domain", []) for b in benchmarks]
        print_json(envelope("learn", files, {"files": len(files), "domains": len(benchmarks),
                                             "learned": sum(t.knowledge is not None for t in trained),
                                             "runs": len(runs)},
                            protocol="ipc2023", planner=args.planner, db=args.db,
                            training_runs=[_trained_json(t) for t in trained], statuses=dict(statuses),
                            runs=[_run_json(r) for r in runs]))
    else:
        summary = ", ".join(f"{v} {k}" for k, v in sorted(statuses.items()))
        console.print(f"{count(len(runs), 'test run')} into {args.db}" + (f": {summary}" if summary else "")
                      + f"; score them with pddltools score {args.db} --rules ipc2023-learning-quality "
                        "(or -agile) --reference COSTS.TSV", markup=False)
    return ExitCode.OK if all(t.knowledge is not None for t in trained) else ExitCode.FINDINGS


def _trained_json(t: Trained) -> dict[str, Any]:
    return {"planner": t.entry, "domain": t.benchmark.name, "domain_path": str(t.benchmark.domain),
            "training_tasks": [str(p) for p in t.benchmark.training], "test_tasks": len(t.benchmark.testing),
            "status": t.status, "knowledge": str(t.knowledge) if t.knowledge else None,
            "ended": t.outcome.status, "returncode": t.outcome.returncode, "how": t.how, "wall": t.outcome.wall,
            "cpu": t.outcome.cpu, "peak_memory": t.outcome.peak_memory}


def _score(args: argparse.Namespace) -> int:
    runs = _load(args)
    scores = _scores(args, runs)
    impact = None
    if args.learning_impact or args.sequential_winner:
        try:
            impact = learning_impact(runs, args.rules, args.sequential_winner)
        except ValueError as exc:
            raise _usage(str(exc)) from None
    if args.format == "json":
        data = scores.to_json()
        if args.rules in LEARNING_2023_RULES:
            data["levels"] = [{"planner": r.entrant, "domain": r.domain, "level": r.level, "score": r.score,
                               "solved": r.solved, "tasks": r.tasks} for r in by_level(scores)]
        if impact is not None:
            data["learning_impact"] = impact.to_json()
        print_json(envelope("score", [_results_entry(args)], {"files": 1, "runs": len(runs),
                                                              "planners": len(scores.entrants),
                                                              "domains": len(scores.domains)}, **data))
    elif args.format == "csv":
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(["rank", "planner", "total", "solved", *scores.domains])
        for e in scores.entrants:
            writer.writerow([e.rank, e.name, f"{e.total:.4f}", e.solved,
                             *(f"{e.domains[d]:.4f}" for d in scores.domains)])
        sys.stdout.write(buffer.getvalue())
    else:
        console = stdout_console()
        table = _table(f"{args.rules}: {count(len(runs), 'run')}, {count(len(scores.ignored), 'problem')} "
                       "solved by none", ("rank", "planner", "total", "solved"), names=(1,))
        for e in scores.entrants:
            table.add_row(str(e.rank), e.name + (" (disqualified)" if e.disqualified else ""), f"{e.total:.2f}",
                          str(e.solved))
        console.print(table)
        # Domains as rows: with IPC-2008's forty long names as columns the table wraps into an unreadable
        # heap on any terminal; a planner per column stays readable.
        per_domain = _table(f"score per domain ({count(len(scores.domains), 'domain')})",
                            ("domain", *(e.name for e in scores.entrants)))
        for d in scores.domains:
            per_domain.add_row(d, *(f"{e.domains[d]:.2f}" for e in scores.entrants))
        console.print(per_domain)
        for p in scores.penalties:
            plan = f" (plan sha256 {p.plan_hash[:12]})" if p.plan_hash else ""
            console.print(f"{p.entrant} gets 0 for {p.domain}: its plan for {p.problem}{plan} costs {p.cost:g}, "
                          f"{p.against()}", markup=False)
        for v in scores.voided:
            plan = f" (plan sha256 {v.plan_hash[:12]})" if v.plan_hash else ""
            console.print(f"{v.entrant} solves nothing in {v.domain}: its plan for {v.problem}{plan} is invalid: "
                          f"{v.reason}", markup=False)
        for e in scores.entrants:
            if e.disqualified:
                console.print(f"{e.name} is disqualified: invalid plans in more than one domain", markup=False)
        for note in scores.notes:
            console.print(f"note: {note}", markup=False)
        if args.rules in LEARNING_2023_RULES:
            levels = _table("score per domain and difficulty level (solved/tasks)",
                            ("domain", "level", *(e.name for e in scores.entrants)), names=(0, 1))
            cells = {(r.entrant, r.domain, r.level): r for r in by_level(scores)}
            for domain, level in dict.fromkeys((r.domain, r.level) for r in by_level(scores)):
                row = [cells.get((e.name, domain, level)) for e in scores.entrants]
                levels.add_row(domain, level, *("" if r is None else f"{r.score:.2f} ({r.solved}/{r.tasks})"
                                                for r in row))
            console.print(levels)
        if impact is not None:
            it = _table(f"learning impact ({impact.rules})",
                        ("planner", "baseline", "dck", "delta", "pareto", "special award"))
            for i in impact.planners:
                award = "" if i.special_award is None else ("yes" if i.special_award else "no")
                it.add_row(i.planner, f"{i.baseline:.2f}", f"{i.dck:.2f}", f"{i.delta:+.2f}", str(i.pareto_rank),
                           award)
            console.print(it)
    return ExitCode.OK


def _table(title: str, columns: tuple[str, ...], names: tuple[int, ...] = (0,)) -> Table:
    """A table whose name columns (the planner, the domain; at positions `names`) are left-aligned and
    the rest, numbers, right-aligned: alike in every table `score` prints, as in the HTML report."""
    table = Table(title=title)
    for i, column in enumerate(columns):
        table.add_column(column, justify="left" if i in names else "right")
    return table


def _select(args: argparse.Namespace) -> int:
    runs = _load(args)
    selections = select(runs, Thresholds(args.size, args.min_solved, args.trivial_time, args.max_trivial_fraction))
    if args.format == "json":
        summary = {"files": 1, "runs": len(runs), "domains": len(selections),
                   "selected": sum(1 for s in selections if s.verdict == "selected")}
        print_json(envelope("select", [_results_entry(args)], summary, domains=[s.to_json() for s in selections]))
    else:
        console = stdout_console()
        for s in selections:
            console.print(f"{s.domain}: {s.verdict}: {s.reason}", markup=False)
            for c in s.candidates:
                console.print(f"  {Path(c.problem).name}: solved by {c.solved_by}/{c.planners}: {c.why}", markup=False)
    return ExitCode.OK


def _report(args: argparse.Namespace) -> int:
    from pddltools.score.report import render_html

    runs = _load(args)
    scores = _scores(args, runs)
    impact = None
    if args.sequential_winner or len({r.config for r in runs}) > 1:
        try:
            impact = learning_impact(runs, args.rules, args.sequential_winner)
        except ValueError as exc:
            raise _usage(str(exc)) from None
    html = render_html(runs, scores, impact, args.title)
    try:
        Path(args.output).write_text(html, encoding="utf-8")
    except OSError as exc:
        raise InputError([error("S060", f"cannot write {args.output}: {exc.strerror or exc}")]) from None
    if args.format == "json":
        print_json(envelope("report", [_results_entry(args)], {"files": 1, "runs": len(runs)},
                            output=args.output, bytes=len(html.encode()), runs=len(runs)))
    else:
        stdout_console().print(f"wrote {args.output} ({count(len(runs), 'run')})", markup=False)
    return ExitCode.OK


cmd_run = _guard(_run)
cmd_learn = _guard(_learn)
cmd_score = _guard(_score)
cmd_select = _guard(_select)
cmd_report = _guard(_report)

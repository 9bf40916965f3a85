"""The IPC-2023 learning tracks' protocol, as the organisers ran it (https://ipc2023-learning.github.io/):
train each entry's learner once per domain, then run its planner on the unseen test tasks with the
learned knowledge. Scoring is `pddltools.score.learning2023`.

A benchmark domain is a folder as the track's repository lays it out: `domain.pddl`, the training tasks
in `training/easy`, `training/medium`, `training/hard`, the test tasks in `testing/easy|medium|hard`
(a folder without the level folders holds its tasks directly). Tasks are ordered by level, then by
name with numbers compared as numbers (p2 before p10): the ascending difficulty the learner is given.

- Training: `LEARN DK DOMAIN TASK1 TASK2 ...` under the training limits (24 h, 32 GiB); past the time
  limit SIGTERM, SIGKILL `grace` seconds later (60 s). The knowledge is the last of `DK.1`, `DK.2`, ...
  the learner wrote, else `DK`; a learner that leaves none has no knowledge, and its planner is not run
  on that domain (its test tasks count as unsolved).
- Planning: `PLAN DK DOMAIN TASK PLAN` per test task, through `pddltools run`'s runner: its limits
  (30 min, 8 GiB), its plan files (`PLAN` or the last of `PLAN.1`, `PLAN.2`, ...; one written before the
  time limit still counts), every plan validated, every run committed to the results store.
"""

from __future__ import annotations

import hashlib
import shlex
import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from pddltools.diagnostics import Error, InputError, error
from pddltools.score.limits import Limits, Outcome, run_limited
from pddltools.score.runner import Executor, Job, Planner, run_jobs, rundir_for
from pddltools.score.store import Knowledge, Run, Store, domain_name
from pddltools.score.validation import PlanChecker
from pddltools.wording import natural

TRACK = "ipc2023-learning"
CONFIG = "dk"
_LEVELS = ("easy", "medium", "hard")


@dataclass(frozen=True)
class Benchmark:
    name: str
    domain: Path
    training: tuple[Path, ...]  # in ascending difficulty
    testing: tuple[Path, ...]


def _natural(path: Path) -> tuple[tuple[int, str], ...]:
    return natural(path.name)


def _tasks(folder: Path, domain: Path) -> tuple[Path, ...]:
    """The tasks below `folder`: by level (easy, medium, hard, then any other folder), then by name."""
    if not folder.is_dir():
        return ()
    levels = [folder / level for level in _LEVELS if (folder / level).is_dir()]
    levels += sorted((p for p in folder.iterdir() if p.is_dir() and p.name not in _LEVELS), key=_natural)
    tasks = [p for p in sorted(folder.glob("*.pddl"), key=_natural) if p.resolve() != domain.resolve()]
    for level in levels:
        tasks += [p for p in sorted(level.glob("*.pddl"), key=_natural) if not p.name.startswith("domain")]
    return tuple(p.resolve() for p in tasks)


def load_benchmark(path: str | Path) -> Benchmark:
    """The benchmark domain in folder `path` (or the folder of the domain file `path`)."""
    folder = Path(path)
    if folder.is_file():
        folder = folder.parent
    domain = folder / "domain.pddl"
    if not domain.is_file():
        raise InputError([error("S052", f"{path}: no domain.pddl; a learning-track domain is a folder with "
                                        "domain.pddl, training/ and testing/")])
    training, testing = _tasks(folder / "training", domain), _tasks(folder / "testing", domain)
    for what, tasks in (("training", training), ("testing", testing)):
        if not tasks:
            raise InputError([error("S052", f"{folder}: no {what} tasks in {folder / what}")])
    return Benchmark(domain_name(domain), domain.resolve(), training, testing)


@dataclass(frozen=True)
class Trained:
    entry: str
    benchmark: Benchmark
    knowledge: Path | None  # the file the planner is given; None: the learner left none
    outcome: Outcome
    how: str  # how training ended, in words

    @property
    def status(self) -> str:
        return "learned" if self.knowledge is not None else "no-knowledge"


def knowledge_file(prefix: Path) -> Path | None:
    """The last of `prefix.1`, `prefix.2`, ... that exists, else `prefix` itself, else None."""
    numbered = [(int(p.suffix[1:]), p) for p in prefix.parent.glob(prefix.name + ".*")
                if p.suffix[1:].isdigit() and p.is_file()]
    if numbered:
        return max(numbered)[1]
    return prefix if prefix.is_file() else None


def _how(outcome: Outcome, limits: Limits) -> str:
    if outcome.status == "exited":
        return f"exited with code {outcome.returncode}"
    if outcome.status != "timeout":
        return f"{outcome.status}: {outcome.reason}"
    if outcome.returncode == -9 or outcome.wall >= limits.wall + limits.grace:
        return f"time limit: SIGTERM, then SIGKILL {limits.grace:g} s later ({outcome.reason})"
    return f"time limit: SIGTERM, which it caught, exiting with code {outcome.returncode} ({outcome.reason})" \
        if outcome.returncode is not None and outcome.returncode >= 0 else f"time limit: SIGTERM ({outcome.reason})"


def train(store: Store, entry: str, learner: str, benchmark: Benchmark, work: Path, limits: Limits) -> Trained:
    """Run `LEARNER DK DOMAIN TASK1 ...` in a fresh folder; record the knowledge file's hash in the store."""
    folder = work / "learn" / _safe(entry) / _safe(benchmark.name)
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    prefix = folder / "dk"
    argv = [*shlex.split(learner), str(prefix), str(benchmark.domain), *map(str, benchmark.training)]
    try:
        outcome = run_limited(argv, limits, cwd=folder)
    except OSError as exc:
        raise Error([error("S053", f"cannot start the learner {argv[0]}: {exc.strerror or exc}")]) from None
    (folder / "stdout.txt").write_bytes(outcome.stdout)
    (folder / "stderr.txt").write_bytes(outcome.stderr)
    found = knowledge_file(prefix)
    digest = hashlib.sha256(found.read_bytes()).hexdigest() if found is not None else ""
    status = "learned" if found is not None else "no-knowledge"
    store.add_knowledge(Knowledge(planner=entry, domain=benchmark.name, attempt=0,
                                  folder=str(found or prefix), content_hash=digest, status=status,
                                  wall=outcome.wall, cpu=outcome.cpu, peak_memory=outcome.peak_memory))
    return Trained(entry, benchmark, found, outcome, _how(outcome, limits))


def planning_jobs(entry: str, plan: str, trained: Trained, limits: Limits, work: Path) -> list[Job]:
    """`PLAN DK DOMAIN TASK PLAN` on every test task of the domain (none without knowledge)."""
    if trained.knowledge is None:
        return []
    planner = Planner(entry, shlex.join(shlex.split(plan)).replace("{", "{{").replace("}", "}}")
                      + " {dck} {domain} {problem} {plan}", anytime=True)
    domain = trained.benchmark.domain
    return [Job(planner, TRACK, CONFIG, str(domain), str(task), limits,
                rundir_for(work / "plan", entry, CONFIG, domain, task), str(trained.knowledge))
            for task in trained.benchmark.testing]


def unplanned_runs(trained: Trained) -> list[Run]:
    """For a domain without knowledge: every test task stored as unsolved, so that it counts (as 0)."""
    from pddltools.score.store import sha256_file

    domain = trained.benchmark.domain
    return [Run(planner=trained.entry, track=TRACK, config=CONFIG, domain=trained.benchmark.name,
                domain_path=str(domain), domain_hash=sha256_file(domain), problem_path=str(task),
                problem_hash=sha256_file(task), status="unsolved", wall=0.0, cpu=0.0, peak_memory=0,
                reason=f"not run: the learner left no knowledge ({trained.how})")
            for task in trained.benchmark.testing]


def run_protocol(store: Store, entries: Sequence[tuple[str, str, str]], benchmarks: Sequence[Benchmark],
                 work: Path, train_limits: Limits, plan_limits: Limits, executor: Executor,
                 checker: PlanChecker | None, on_trained: Callable[[Trained], None] | None = None,
                 on_run: Callable[[Run], None] | None = None) -> tuple[list[Trained], list[Run]]:
    """Train every entry (name, learner, planner) on every domain, then plan on the test tasks."""
    trained: list[Trained] = []
    for name, learner, _ in entries:
        for benchmark in benchmarks:
            result = train(store, name, learner, benchmark, work, train_limits)
            trained.append(result)
            if on_trained is not None:
                on_trained(result)
    plans = {name: plan for name, _, plan in entries}
    jobs = [job for t in trained for job in planning_jobs(t.entry, plans[t.entry], t, plan_limits, work)]
    runs = run_jobs(jobs, store, executor, checker, on_run=on_run)
    for t in trained:
        if t.knowledge is None:
            for run in unplanned_runs(t):
                store.add(run)
                runs.append(run)
    return trained, runs


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name) or "_"


__all__ = ["CONFIG", "TRACK", "Benchmark", "Trained", "knowledge_file", "load_benchmark", "planning_jobs",
           "run_protocol", "train", "unplanned_runs"]

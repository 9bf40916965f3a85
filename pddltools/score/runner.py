"""Planner runs over a problem set: jobs, their execution under limits, executors, and the run loop.

A `Job` is everything one run needs, picklable, so the same `execute` function runs in a local thread
or on a Dask worker. Results come back to the process that owns the store, which validates the plan and
commits the run before it hands the freed slot its next job: at any moment, every run that finished is in
the database, and `--resume` skips exactly those.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shlex
import shutil
import signal
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from pddltools.diagnostics import Error, error
from pddltools.score.dask_watchdog import stop_when_abandoned
from pddltools.score.limits import Limits, kill_stale, run_limited, session_marker
from pddltools.score.pairs import find_pairs
from pddltools.score.store import Run, RunKey, Store, domain_name, sha256_bytes, sha256_file
from pddltools.score.validation import PlanChecker, count_actions

FIELDS = ("domain", "problem", "plan", "rundir", "dck")


@dataclass(frozen=True)
class Planner:
    """A planner as the runner sees it: a command template and where its plan appears.

    `command` is split like a shell line; `{domain}`, `{problem}`, `{plan}`, `{rundir}` and `{dck}` (the
    knowledge folder, learning track) are replaced in each word. `plan_file` names the plan; planners
    that write anytime plans `plan.1`, `plan.2`, ... are read from the last of them. A run that ends
    without a plan is `unsolved` when its exit code is in `unsolved_codes`, else `crash`. An `anytime`
    planner (IPC-2008/2011 satisficing practice) is stopped by the time limit while improving its plan:
    its last complete plan still counts, and the run is `solved` at the limit.
    """

    name: str
    command: str
    plan_file: str = "{plan}"
    unsolved_codes: tuple[int, ...] = (0,)
    anytime: bool = False

    def argv(self, values: dict[str, str]) -> list[str]:
        return [_fill(word, values) for word in shlex.split(self.command)]

    def check(self) -> None:
        """Raise a usage error for a template naming an unknown field."""
        values = dict.fromkeys(FIELDS, "x")
        try:
            self.argv(values)
            _fill(self.plan_file, values)
        except ValueError as exc:
            raise Error([error("S020", f"planner {self.name}: {exc}")]) from None


def absolute_paths(command: str, base: Path | None = None) -> str:
    """The command with each word that names an existing file or folder relative to `base` (default: the
    current folder) made absolute: commands run inside their run folders, where a relative
    `planners/my_planner.py` would not be found."""
    base = base or Path.cwd()
    words = []
    for word in shlex.split(command):
        if "{" not in word and not word.startswith("-") and not Path(word).is_absolute() and (base / word).exists():
            word = str((base / word).resolve())
        words.append(word)
    return shlex.join(words)


def _fill(template: str, values: dict[str, str]) -> str:
    try:
        return template.format_map(values)
    except KeyError as exc:
        raise ValueError(f"unknown field {{{exc.args[0]}}} in {template!r} (known: "
                         + ", ".join("{" + f + "}" for f in FIELDS) + ")") from None
    except (IndexError, ValueError) as exc:
        raise ValueError(f"bad template {template!r}: {exc}") from None


@dataclass(frozen=True)
class Job:
    planner: Planner
    track: str
    config: str  # `baseline`, or `dck` for a run with learned knowledge
    domain_path: str
    problem_path: str
    limits: Limits
    rundir: str
    dck: str = ""  # the knowledge folder, for `config == "dck"`

    @property
    def key(self) -> RunKey:
        return RunKey(self.planner.name, self.track, self.config, self.domain_path, self.problem_path)


@dataclass(frozen=True)
class Attempt:
    """What a worker sends back: how the command ended and the plan it left, not yet validated."""

    status: str
    returncode: int | None
    wall: float
    cpu: float
    peak_memory: int
    plan_text: str | None
    reason: str
    earlier_plans: tuple[str, ...] = ()  # an anytime run cut off: the plans before the last, newest first


def execute(job: Job, cpus: Sequence[int] | None = None, cancel: threading.Event | None = None) -> Attempt:
    """Run one job in a fresh run folder holding copies of its domain and problem.

    The copies keep planners that write beside their input (pyperplan writes PROBLEM.soln) away from
    the problem set, which may be read-only and is shared by every run.
    """
    rundir = Path(job.rundir)
    marker = rundir / "session"
    if rundir.exists():
        # A run cut off by a killed runner: its planner may still be running, its folder is half-written.
        with contextlib.suppress(OSError):
            kill_stale(marker.read_text())
        shutil.rmtree(rundir)
    rundir.mkdir(parents=True)
    domain = rundir / "domain.pddl"
    problem = rundir / "problem.pddl"
    shutil.copyfile(job.domain_path, domain)
    shutil.copyfile(job.problem_path, problem)
    values = {"domain": str(domain), "problem": str(problem), "plan": str(rundir / "plan"),
              "rundir": str(rundir), "dck": job.dck}
    argv = job.planner.argv(values)
    plan_path = Path(_fill(job.planner.plan_file, values))
    try:
        outcome = run_limited(argv, job.limits, cwd=rundir, cpus=cpus,
                              on_start=lambda pid: marker.write_text(session_marker(pid)), cancel=cancel)
    except OSError as exc:
        return Attempt("crash", None, 0.0, 0.0, 0, None, f"cannot start {argv[0]}: {exc.strerror or exc}")
    (rundir / "stdout.txt").write_bytes(outcome.stdout)
    (rundir / "stderr.txt").write_bytes(outcome.stderr)
    plans = read_plans(plan_path)
    plan = plans[0] if plans else None
    tail = outcome.stderr[-2000:].decode("utf-8", errors="replace")
    status = outcome.status
    earlier: tuple[str, ...] = ()
    if status == "timeout" and job.planner.anytime and plan is not None:
        # The last plan may have been cut off mid-write by the kill: the earlier ones stand behind it.
        status, earlier = "solved", tuple(plans[1:])
        outcome = replace(outcome, reason=f"{outcome.reason}; an anytime planner: its last plan counts")
    elif status == "exited":
        if plan is not None:
            status = "solved"  # until validated
        elif outcome.returncode in job.planner.unsolved_codes:
            status = "unsolved"
        else:
            status = "crash"
    reason = outcome.reason or ("" if status != "crash" else f"exit code {outcome.returncode} and no plan")
    last_words = [line.strip() for line in tail.splitlines() if line.strip()]
    if status == "crash" and last_words:
        reason += f"; stderr: {last_words[-1][:200]}"
    # Otherwise a plan written before a limit struck is not used: the run did not end in time.
    return Attempt(status, outcome.returncode, outcome.wall, outcome.cpu, outcome.peak_memory,
                   plan if status == "solved" else None, reason, earlier)


def read_plan(path: Path) -> str | None:
    """The plan at `path`, or the last of the anytime plans `path.1`, `path.2`, ..."""
    plans = read_plans(path)
    return plans[0] if plans else None


def read_plans(path: Path) -> list[str]:
    """The plans at `path` and `path.1`, `path.2`, ... (anytime planners), newest first."""
    numbered = sorted((int(p.suffix[1:]), p) for p in path.parent.glob(path.name + ".*") if p.suffix[1:].isdigit())
    texts = []
    for candidate in [p for _, p in reversed(numbered)] + [path]:
        try:
            texts.append(candidate.read_text(encoding="utf-8", errors="replace"))
        except OSError:
            continue
    return texts


def finish(job: Job, attempt: Attempt, checker: PlanChecker | None) -> Run:
    """The run to store: the attempt with its plan validated (an invalid plan is `invalid-plan`, one the
    validator cannot judge `unjudged`)."""
    status, value, length, reason = attempt.status, None, None, attempt.reason
    plan_text = attempt.plan_text
    if status == "solved" and attempt.plan_text is not None and checker is None:
        length = count_actions(attempt.plan_text)  # not validated: taken at its word
    elif status == "solved" and attempt.plan_text is not None and checker is not None:
        verdict = checker(job.domain_path, job.problem_path, attempt.plan_text)
        for earlier in attempt.earlier_plans:
            if verdict.valid:
                break
            verdict = checker(job.domain_path, job.problem_path, earlier)
            if verdict.valid:
                plan_text = earlier
        value, length = verdict.value, verdict.length
        if not verdict.valid:
            status, reason = verdict.status, verdict.reason
    return Run(
        planner=job.planner.name, track=job.track, config=job.config, domain=domain_name(job.domain_path),
        domain_path=job.domain_path, domain_hash=sha256_file(job.domain_path),
        problem_path=job.problem_path, problem_hash=sha256_file(job.problem_path), status=status,
        wall=attempt.wall, cpu=attempt.cpu, peak_memory=attempt.peak_memory, returncode=attempt.returncode,
        plan_hash=sha256_bytes(plan_text.encode()) if plan_text is not None else None, plan_text=plan_text,
        value=value, length=length, reason=reason,
        wall_limit=job.limits.wall, cpu_limit=job.limits.cpu, memory_limit=job.limits.memory)


# -------------------------------------------------------------------------------------------------
# Executors


Done = Callable[[Job, Attempt], None]


class Executor(Protocol):
    """Runs jobs, calling `done` in the caller's thread for each as it finishes, before it starts another
    in the slot that one freed."""

    def run(self, jobs: Iterable[Job], done: Done) -> None: ...


@dataclass
class LocalExecutor:
    """Runs on this machine, `workers` at a time, each run pinned to a core of its own when there are enough."""

    workers: int = field(default_factory=lambda: len(os.sched_getaffinity(0)))

    def run(self, jobs: Iterable[Job], done: Done) -> None:
        cores = sorted(os.sched_getaffinity(0))
        pending = iter(jobs)
        free = list(range(self.workers))
        running: dict[Future[Attempt], tuple[Job, int]] = {}
        # Set when the loop is left early (Ctrl-C, an error storing a run): the runs in flight are
        # stopped at once rather than left to run to their limits, and are not stored.
        cancel = threading.Event()
        with ThreadPoolExecutor(max_workers=self.workers) as pool:
            try:
                while True:
                    while free:
                        job = next(pending, None)
                        if job is None:
                            break
                        slot = free.pop()
                        cpus = [cores[slot]] if self.workers <= len(cores) else None
                        running[pool.submit(execute, job, cpus, cancel)] = (job, slot)
                    if not running:
                        return
                    finished, _ = wait(running, return_when=FIRST_COMPLETED)
                    for future in finished:
                        job, slot = running.pop(future)
                        done(job, future.result())
                        free.append(slot)
            finally:
                cancel.set()


@dataclass
class DaskExecutor:
    """Runs on a Dask distributed cluster (dask-jobqueue puts one on Slurm, PBS or SGE): `address` of a
    scheduler, or a `client` already connected. As many runs in flight as the workers have threads.

    A run whose worker died each time Dask tried it (`KilledWorker`: the OOM killer, a node pre-empted)
    is a crash, and the campaign goes on. Left early (Ctrl-C, SIGTERM, an error storing a run), the runs
    in flight are cancelled, and their workers stop them (`dask_watchdog`); a runner killed outright
    loses its connection, and the scheduler cancels its runs the same way.
    """

    address: str | None = None
    client: Any = None

    def run(self, jobs: Iterable[Job], done: Done) -> None:
        try:
            from distributed import Client, as_completed
        except ImportError:
            raise Error([error("S030", "the Dask executor needs the `dask` extra: "
                                       "pip install 'pddltools[dask]'")]) from None
        client = self.client if self.client is not None else Client(self.address)  # type: ignore[no-untyped-call]
        futures: dict[Any, Job] = {}
        try:
            slots = max(1, sum(client.nthreads().values()))
            pending = iter(jobs)
            for job in _take(pending, slots):
                futures[client.submit(execute_on_worker, job, pure=False)] = job
            queue = as_completed(list(futures))  # type: ignore[no-untyped-call]
            for future in queue:
                job = futures[future]
                attempt = _attempt_of(future)
                del futures[future]
                done(job, attempt)
                for following in _take(pending, 1):
                    new = client.submit(execute_on_worker, following, pure=False)
                    futures[new] = following
                    queue.add(new)  # type: ignore[no-untyped-call]
        finally:
            if futures:
                client.cancel(list(futures))
            if self.client is None:
                client.close()


def execute_on_worker(job: Job) -> Attempt:
    """`execute` as a Dask task: stopped (its planner's tree killed) once the task is abandoned."""
    with stop_when_abandoned() as cancel:
        return execute(job, None, cancel)


def _attempt_of(future: Any) -> Attempt:
    """The future's attempt; a crash when Dask gave up on it because its workers kept dying."""
    from distributed import KilledWorker

    try:
        result: Attempt = future.result()
    except KilledWorker as exc:
        worker = getattr(exc.last_worker, "address", exc.last_worker)
        return Attempt("crash", None, 0.0, 0.0, 0, None,
                       f"its Dask worker died each of the {exc.allowed_failures + 1} times it was run (killed, out "
                       f"of memory, or its machine lost); the last was {worker}")
    return result


def _take(items: Iterator[Job], count: int) -> list[Job]:
    taken = []
    for _ in range(count):
        item = next(items, None)
        if item is None:
            break
        taken.append(item)
    return taken


# -------------------------------------------------------------------------------------------------
# The run loop


def run_jobs(jobs: Sequence[Job], store: Store, executor: Executor, checker: PlanChecker | None, *,
             resume: bool = False, on_run: Callable[[Run], None] | None = None) -> list[Run]:
    """Run `jobs` (those already in `store` skipped when `resume`), committing each run as it finishes."""
    finished = store.keys() if resume else set()
    todo = [job for job in jobs if job.key not in finished]
    stored: list[Run] = []

    def done(job: Job, attempt: Attempt) -> None:
        run = finish(job, attempt, checker)
        store.add(run)
        stored.append(run)
        if on_run is not None:
            on_run(run)

    with _signals_interrupt():
        executor.run(todo, done)
    return stored


@contextlib.contextmanager
def _signals_interrupt() -> Iterator[None]:
    """SIGTERM and SIGHUP leave the run loop as Ctrl-C does (then exit status 128 + the signal), so that
    the executors stop or cancel the runs in flight; Python's default would die at once, cleaning nothing
    up. A signal already ignored (nohup) stays ignored; only the main thread can take signals."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)

    previous = {sig: signal.getsignal(sig) for sig in (signal.SIGTERM, signal.SIGHUP)}
    for sig, handler in previous.items():
        if handler == signal.SIG_DFL:
            signal.signal(sig, interrupt)
    try:
        yield
    finally:
        for sig, handler in previous.items():
            if handler == signal.SIG_DFL:
                signal.signal(sig, handler)


def problem_set(paths: Sequence[str | Path], domain: str | Path | None = None) -> list[tuple[Path, Path]]:
    """(domain, problem) pairs: each folder is searched for problems, each paired with its domain file by
    `pddltools.domain_finder` (`domain` forces one). Raises for the first problem without a domain;
    `pddltools.score.pairs.find_pairs` reports each and keeps the rest."""
    pairs, missing = find_pairs(paths, domain)
    if missing:
        raise Error(missing[:1])
    return pairs


def rundir_for(root: Path, planner: str, config: str, domain: Path, problem: Path) -> str:
    """A folder per run; a hash of the problem's path keeps apart problems whose names and domain folders
    coincide (instance-1.pddl of two competitions' `elevator`)."""
    tag = hashlib.sha1(str(problem).encode()).hexdigest()[:8]
    return str(root / _safe(planner) / _safe(config) / _safe(domain_name(domain)) / f"{_safe(problem.stem)}-{tag}")


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name) or "_"

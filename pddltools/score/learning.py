"""The IPC-2011 learning track: training set, learning under limits, the knowledge folder's hash, the
reproduction check, and the test runs with and without the knowledge.

A learner is a command template with `{domain}`, `{training}` (the folder of training problems) and
`{dck}` (the folder it must fill with its domain-control knowledge). A frozen learner run again on the
same training set must produce the same knowledge: the content hash (file names and bytes) shows it.
"""

from __future__ import annotations

import hashlib
import shlex
import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pddltools.diagnostics import Error, error
from pddltools.score.limits import Limits, run_limited
from pddltools.score.runner import Job, Planner, rundir_for
from pddltools.score.store import Knowledge, Store, domain_name


def folder_hash(folder: Path) -> str:
    """SHA-256 over every file below `folder`: its relative path and its bytes, in sorted order."""
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        relative = path.relative_to(folder).as_posix().encode()
        digest.update(len(relative).to_bytes(8, "big") + relative)
        data = path.read_bytes()
        digest.update(len(data).to_bytes(8, "big") + data)
    return digest.hexdigest()


def _argv(template: str, values: dict[str, str]) -> list[str]:
    try:
        return [word.format_map(values) for word in shlex.split(template)]
    except (KeyError, IndexError, ValueError) as exc:
        raise Error([error("S050", f"bad command template {template!r}: unknown or malformed field {exc}")]) from None


def generate_training(generator: str, seeds: Sequence[int], domain: Path, out: Path, limits: Limits) -> list[Path]:
    """Run the domain's generator once per seed; it writes the problem to `{problem}`."""
    out.mkdir(parents=True, exist_ok=True)
    problems = []
    for seed in seeds:
        target = out / f"seed-{seed}.pddl"
        argv = _argv(generator, {"seed": str(seed), "problem": str(target), "domain": str(domain)})
        outcome = run_limited(argv, limits, cwd=out)
        if outcome.status != "exited" or outcome.returncode != 0 or not target.is_file():
            detail = outcome.reason or f"exit code {outcome.returncode}"
            raise Error([error("S051", f"the generator failed for seed {seed} ({detail}): "
                                       + outcome.stderr[-500:].decode("utf-8", "replace").strip())])
        problems.append(target)
    return problems


@dataclass(frozen=True)
class Learned:
    knowledge: Knowledge
    reason: str


def learn(store: Store, planner: str, learner: str, domain: Path, training: Path, dck: Path, limits: Limits,
          attempt: int = 0) -> Learned:
    """Run the learner into a fresh `dck` folder, record the folder's hash in the store (committed)."""
    if dck.exists():
        shutil.rmtree(dck)
    dck.mkdir(parents=True)
    argv = _argv(learner, {"domain": str(domain), "training": str(training), "dck": str(dck)})
    outcome = run_limited(argv, limits, cwd=dck.parent)
    status = "learned" if outcome.status == "exited" and outcome.returncode == 0 else outcome.status
    if status == "exited":
        status = "crash"
    item = Knowledge(planner=planner, domain=domain_name(domain), attempt=attempt, folder=str(dck),
                     content_hash=folder_hash(dck), status=status, wall=outcome.wall, cpu=outcome.cpu,
                     peak_memory=outcome.peak_memory)
    store.add_knowledge(item)
    return Learned(item, outcome.reason or (f"exit code {outcome.returncode}" if status == "crash" else ""))


@dataclass(frozen=True)
class Reproduction:
    original: Knowledge
    again: tuple[Knowledge, ...]

    @property
    def reproduced(self) -> bool:
        return all(k.content_hash == self.original.content_hash and k.status == "learned" for k in self.again)


def reproduce(store: Store, planner: str, learner: str, domain: Path, training: Path, work: Path, limits: Limits,
              original: Knowledge, times: int = 1) -> Reproduction:
    """Re-run the frozen learner `times` times into new folders; reproduced if every hash is the original's."""
    again = []
    for attempt in range(original.attempt + 1, original.attempt + 1 + times):
        folder = work / f"dck-reproduce-{attempt}"
        again.append(learn(store, planner, learner, domain, training, folder, limits, attempt).knowledge)
    return Reproduction(original, tuple(again))


def evaluation_jobs(planner: Planner, problems: Sequence[tuple[Path, Path]], dck: Path, empty: Path, track: str,
              limits: Limits, workdir: Path) -> list[Job]:
    """The same test set twice: `baseline` with an empty knowledge folder, `dck` with the learned one."""
    empty.mkdir(parents=True, exist_ok=True)
    jobs = []
    for config, folder in (("baseline", empty), ("dck", dck)):
        for domain, problem in problems:
            jobs.append(Job(planner, track, config, str(domain), str(problem), limits,
                            rundir_for(workdir, planner.name, config, domain, problem), str(folder)))
    return jobs

"""Results to score: a results database, a JSON-lines file with one run per line, or the JSON document
`pddltools run --format json` prints (its `runs`, read unchanged).

A run has at least `planner`, `domain`, `problem`, `plan`, `time`, `status` and `config`; optionally
`track`, `cpu`, `memory` (bytes). `domain` is the domain file's path, or the domain's name with the path in
`domain_path` (as `run` writes it); `problem` and `domain_path` are paths; every path is relative to the
results file's folder or absolute. `plan` is the path to the plan file, or null with the plan itself in
`plan_text` (as `run` writes it) or no plan at all; `wall` is read as `time` when `time` is absent. A plan
file that does not exist is an error naming it. Every plan is validated here: a run said to be solved
whose plan is missing or invalid counts as `invalid-plan`.
"""

from __future__ import annotations

import json
import math
import os
import stat
from pathlib import Path
from typing import Any

from pddltools.diagnostics import Error, InputError, Source, Span, error
from pddltools.reading import read_input, read_input_text
from pddltools.score.planfiles import PlanFileError, read_capped
from pddltools.score.store import STATUSES, Run, Store, domain_name, sha256_bytes, sha256_file
from pddltools.score.verdicts import PlanChecker, count_actions

#: The largest plan file a results line may name (a pipe, a device or a larger file is an S044, not read).
PLAN_CAP = 64 << 20
REQUIRED = ("planner", "domain", "problem", "plan", "time", "status", "config")
_ALIASES = {"time": "wall"}  # a field and the name `run --format json` also gives it
#: the fields that name something: a string, or a number taken as its text (`"config": 2`)
_NAMES = ("planner", "config", "track", "domain", "reason")
#: the fields that are paths: a string (the plan's may be null)
_PATHS = ("problem", "domain_path", "plan")


def is_database(path: Path) -> bool:
    try:
        with open(path, "rb") as handle:
            return handle.read(16) == b"SQLite format 3\x00"
    except OSError:
        return False


def load_runs(path: str | Path, checker: PlanChecker | None) -> list[Run]:
    """The runs in a database (validated when they were run) or a JSON-lines file (validated now)."""
    file = Path(path)
    # refuses a folder, a device or a missing file before anything else opens it
    head = read_input(file, code="S040", limit=16, truncate=True)
    if head == b"SQLite format 3\x00":
        with Store.open(file, readonly=True) as store:
            return store.runs()
    return load_jsonl(file, checker)


def load_jsonl(file: Path, checker: PlanChecker | None) -> list[Run]:
    text = read_input_text(file, code="S040")
    return load_text(text, str(file), file.parent, checker)


def load_text(text: str, name: str, base: Path, checker: PlanChecker | None) -> list[Run]:
    """The runs of JSON lines or a `run --format json` document read from `name` (a file, or standard
    input piped from `run`); relative paths are relative to `base`."""
    source = Source(text, name)
    document = _run_document(text)
    if document is not None:
        # One JSON document (`run --format json`): its runs are located at the document's first line.
        first = Span(source, 0, len(text.split("\n", 1)[0]))
        return [_run(item, base, first, checker, f"run {n} of 'runs': ")
                for n, item in enumerate(document, 1)]
    runs: list[Run] = []
    offset = 0
    for line in text.splitlines(keepends=True):
        start, offset = offset, offset + len(line)
        if not line.strip():
            continue
        span = Span(source, start, start + len(line.rstrip("\r\n")))
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            raise Error([error("S041", f"not JSON: {exc.msg}", span)]) from None
        except RecursionError:
            raise Error([error("S041", "JSON nested deeper than a results line can be read (a run is one object "
                                       "of plain fields)", span)]) from None
        except ValueError as exc:  # Python's bound on an integer's digits (4,300), not a JSON error
            raise Error([error("S041", f"a number too long to read: {exc}", span)]) from None
        runs.append(_run(item, base, span, checker))
    return runs


def _run_document(text: str) -> list[Any] | None:
    """The runs of a `run --format json` document, or None for JSON lines (or anything else)."""
    if not text.lstrip().startswith("{"):
        return None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):  # JSONDecodeError is a ValueError, as is a 5,000-digit number
        return None  # read line by line, each error where it is
    runs = data.get("runs") if isinstance(data, dict) else None
    return runs if isinstance(runs, list) else None


def _run(item: Any, base: Path, span: Span, checker: PlanChecker | None, which: str = "") -> Run:
    if not isinstance(item, dict):
        raise Error([error("S042", f"{which}a run must be a JSON object", span)])
    item = {**{k: item[alias] for k, alias in _ALIASES.items() if alias in item}, **item}
    missing = [k for k in REQUIRED if k not in item]
    if missing:
        raise Error([error("S042", f"{which}a run needs " + ", ".join(repr(k) for k in missing), span)])
    status = item["status"]
    if status not in STATUSES:
        raise Error([error("S043", f"{which}unknown status {status!r}; known: {', '.join(STATUSES)}", span)])
    _check_fields(item, which, span)
    domain, problem = _domain_file(item, base), base / item["problem"]
    for path in (domain, problem):
        _check_file(path, which, span)
    plan_text = item.get("plan_text") if isinstance(item.get("plan_text"), str) else None
    value = length = None
    reason = str(item.get("reason") or "")
    if item["plan"] is not None:
        plan_path = base / item["plan"]
        try:
            plan_text = read_capped(plan_path, PLAN_CAP)
        except PlanFileError as exc:
            raise InputError([error("S044", f"{which}the plan file {exc}", span)]) from None
        except OSError as exc:
            raise InputError([error("S044", f"{which}cannot read the plan file {plan_path}: "
                                            f"{exc.strerror or exc}", span)]) from None
    if status == "solved":
        if plan_text is None:
            status, reason = "invalid-plan", reason or "solved, but no plan given"
        elif checker is None:
            length = count_actions(plan_text)  # not validated: taken at its word, unit cost
        else:
            verdict = checker(str(domain), str(problem), plan_text)
            value, length = verdict.value, verdict.length
            if not verdict.valid:
                status, reason = verdict.status, verdict.reason
    return Run(
        planner=str(item["planner"]), track=str(item.get("track", "")), config=str(item["config"]),
        domain=_domain_label(item, domain), domain_path=str(domain.resolve()), domain_hash=sha256_file(domain),
        problem_path=str(problem.resolve()), problem_hash=sha256_file(problem), status=status,
        wall=float(item["time"]), cpu=float(item.get("cpu", item["time"])), peak_memory=item.get("memory", 0),
        plan_hash=sha256_bytes(plan_text.encode()) if plan_text is not None else None, plan_text=plan_text,
        value=value, length=length, reason=reason)


def _check_fields(item: dict[str, Any], which: str, span: Span) -> None:
    """S042 unless every field a run is made of has its type: names are strings (or numbers), paths
    strings without NUL, times finite numbers of seconds of at least 0, memory a whole number of bytes."""
    def refuse(message: str) -> Error:
        return Error([error("S042", f"{which}{message}", span)])

    for name in _NAMES:
        value = item.get(name, "")
        if name == "reason" and value is None:  # no reason given
            continue
        if not isinstance(value, (str, int, float)) or isinstance(value, bool):
            raise refuse(f"{name!r} must be a string")
    if not isinstance(item["domain"], str) and not item.get("domain_path"):
        raise refuse("'domain' must be a string: the domain file's path")
    for name in _PATHS:
        value = item.get(name)
        if value is None and name != "problem":
            continue
        if not isinstance(value, str) or not value or "\0" in value:
            raise refuse(f"{name!r} must be a path (a non-empty string)" + (", or null" if name == "plan" else ""))
    for name in ("time", "cpu"):
        value = item.get(name, 0.0)
        if not _number(value) or not math.isfinite(value) or value < 0:
            raise refuse(f"{name!r} must be a number of seconds (at least 0)")
    memory = item.get("memory", 0)
    if not isinstance(memory, int) or isinstance(memory, bool) or not 0 <= memory < 1 << 63:
        raise refuse("'memory' must be a whole number of bytes (at least 0)")


def _number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and abs(value) < 1e300


def _check_file(path: Path, which: str, span: Span) -> None:
    """S044 unless `path` is a file (a name too long, a folder, a missing file: each said)."""
    try:
        if stat.S_ISREG(os.stat(path).st_mode):
            return
        why = "not a regular file"
    except OSError as exc:
        why = "no such file" if isinstance(exc, FileNotFoundError) else (exc.strerror or str(exc)).lower()
    shown = str(path) if len(str(path)) <= 200 else str(path)[:200] + "..."
    raise InputError([error("S044", f"{which}{why}: {shown}", span)])


def _domain_file(item: dict[str, Any], base: Path) -> Path:
    """`domain_path` when given (then `domain` is a name), else `domain`, a path."""
    return base / str(item["domain_path"] if item.get("domain_path") else item["domain"])


def _domain_label(item: dict[str, Any], domain: Path) -> str:
    """The name runs are grouped by: `domain` when it is a name, else the domain file's folder name."""
    return str(item["domain"]) if item.get("domain_path") else domain_name(domain)

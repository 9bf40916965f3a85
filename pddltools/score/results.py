"""Results to score: a results database, or a JSON-lines file with one run per line.

A JSON-lines run has at least `planner`, `domain`, `problem` (paths to the PDDL files, relative to the
results file's folder or absolute), `plan` (a path to the plan file, relative the same way, or null),
`time` (seconds), `status` (one of the store's statuses) and `config`; optionally `track`, `cpu`,
`memory` (bytes). Every plan is validated here: a run said to be solved whose plan is missing or
invalid counts as `invalid-plan`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pddltools.diagnostics import Error, InputError, Source, Span, error
from pddltools.score.store import STATUSES, Run, Store, domain_name, sha256_bytes, sha256_file
from pddltools.score.validation import PlanChecker, count_actions

REQUIRED = ("planner", "domain", "problem", "plan", "time", "status", "config")


def is_database(path: Path) -> bool:
    try:
        with open(path, "rb") as handle:
            return handle.read(16) == b"SQLite format 3\x00"
    except OSError:
        return False


def load_runs(path: str | Path, checker: PlanChecker | None) -> list[Run]:
    """The runs in a database (validated when they were run) or a JSON-lines file (validated now)."""
    file = Path(path)
    if not file.is_file():
        raise InputError([error("S040", f"cannot read {file}: no such file")])
    if is_database(file):
        with Store.open(file) as store:
            return store.runs()
    return load_jsonl(file, checker)


def load_jsonl(file: Path, checker: PlanChecker | None) -> list[Run]:
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError([error("S040", f"cannot read {file}: {exc}")]) from None
    source = Source(text, str(file))
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
        runs.append(_run(item, file.parent, span, checker))
    return runs


def _run(item: Any, base: Path, span: Span, checker: PlanChecker | None) -> Run:
    if not isinstance(item, dict):
        raise Error([error("S042", "a run must be a JSON object", span)])
    missing = [k for k in REQUIRED if k not in item]
    if missing:
        raise Error([error("S042", "a run needs " + ", ".join(repr(k) for k in missing), span)])
    status = item["status"]
    if status not in STATUSES:
        raise Error([error("S043", f"unknown status {status!r}; known: {', '.join(STATUSES)}", span)])
    if not isinstance(item["time"], (int, float)):
        raise Error([error("S042", "'time' must be a number of seconds", span)])
    domain, problem = base / str(item["domain"]), base / str(item["problem"])
    for path in (domain, problem):
        if not path.is_file():
            raise InputError([error("S044", f"no such file: {path}", span)])
    plan_text = None
    value = length = None
    reason = str(item.get("reason", ""))
    if item["plan"] is not None:
        plan_path = base / str(item["plan"])
        try:
            plan_text = plan_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            if status == "solved":
                status, reason = "invalid-plan", f"the plan file {plan_path} cannot be read"
    if status == "solved":
        if plan_text is None:
            status, reason = "invalid-plan", reason or "solved, but no plan given"
        elif checker is None:
            length = count_actions(plan_text)  # not validated: taken at its word, unit cost
        else:
            verdict = checker(str(domain), str(problem), plan_text)
            value, length = verdict.value, verdict.length
            if not verdict.valid:
                status, reason = "invalid-plan", verdict.reason
    return Run(
        planner=str(item["planner"]), track=str(item.get("track", "")), config=str(item["config"]),
        domain=domain_name(domain), domain_path=str(domain.resolve()), domain_hash=sha256_file(domain),
        problem_path=str(problem.resolve()), problem_hash=sha256_file(problem), status=status,
        wall=float(item["time"]), cpu=float(item.get("cpu", item["time"])), peak_memory=int(item.get("memory", 0)),
        plan_hash=sha256_bytes(plan_text.encode()) if plan_text is not None else None, plan_text=plan_text,
        value=value, length=length, reason=reason)

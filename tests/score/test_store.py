"""The results store: WAL, schema versions and migrations, one committed row per finished run."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from pddltools.diagnostics import InputError
from pddltools.score.store import MIGRATIONS, SCHEMA_VERSION, Knowledge, Run, Store


def sample(problem: str = "/c/d/p1.pddl", **changes: object) -> Run:
    run = Run(planner="A", track="t", config="baseline", domain="d", domain_path="/c/d/domain.pddl", domain_hash="1",
              problem_path=problem, problem_hash="2", status="solved", wall=1.5, cpu=1.25, peak_memory=1000,
              returncode=0, plan_hash="3", plan_text="(a)\n", value=1.0, length=1, reason="", finished_at=10.0)
    return replace(run, **changes)  # type: ignore[arg-type]


def test_new_store_is_wal_at_the_latest_version(tmp_path: Path) -> None:
    with Store.open(tmp_path / "r.sqlite") as store:
        assert store.version == SCHEMA_VERSION == len(MIGRATIONS)
    db = sqlite3.connect(tmp_path / "r.sqlite")
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_round_trip_and_replace_by_key(tmp_path: Path) -> None:
    with Store.open(tmp_path / "r.sqlite") as store:
        store.add(sample())
        store.add(sample("/c/d/p2.pddl", status="timeout", plan_text=None, value=None))
        store.add(sample(status="crash"))  # same key: replaces
        assert store.count() == 2 and store.duplicates() == 0
    # A second connection (another process) sees every committed run.
    with Store.open(tmp_path / "r.sqlite") as again:
        runs = again.runs()
    assert [r.status for r in runs] == ["timeout", "crash"]
    assert runs[0] == sample("/c/d/p2.pddl", status="timeout", plan_text=None, value=None)


def test_unknown_status_is_refused(tmp_path: Path) -> None:
    with Store.open(tmp_path / "r.sqlite") as store, pytest.raises(ValueError):
        store.add(sample(status="great"))


def test_migration_from_version_1_keeps_runs_and_names_their_domain(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    db = sqlite3.connect(path)
    db.executescript(MIGRATIONS[0] + "PRAGMA user_version = 1;")
    db.execute("INSERT INTO runs (planner, track, config, domain_path, domain_hash, problem_path, problem_hash, "
               "status, wall, cpu, peak_memory, finished_at) VALUES ('A', 't', 'baseline', '/c/gripper/domain.pddl', "
               "'1', '/c/gripper/p1.pddl', '2', 'solved', 1, 1, 0, 0)")
    db.commit()
    db.close()
    with Store.open(path) as store:
        assert store.version == SCHEMA_VERSION
        [run] = store.runs()
        assert run.domain == "gripper" and run.wall_limit is None  # limits unknown, not unlimited
        store.add_knowledge(Knowledge("A", "gripper", 0, "/k", "abc", "learned", 1.0, 1.0, 0))
        assert store.knowledge("A")[0].content_hash == "abc"


def test_newer_schema_and_garbage_are_input_errors(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite"
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    with pytest.raises(InputError, match="newer"):
        Store.open(path)
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(InputError, match="not a results database"):
        Store.open(junk)


def test_an_uncommitted_run_leaves_no_row(tmp_path: Path) -> None:
    # A writer that dies mid-transaction: its row must not appear (SQLite rolls it back).
    path = tmp_path / "r.sqlite"
    Store.open(path).close()
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("BEGIN IMMEDIATE")
    db.execute("INSERT INTO runs (planner, track, config, domain_path, domain_hash, problem_path, problem_hash, "
               "status, wall, cpu, peak_memory, finished_at) VALUES ('A', 't', 'c', 'd', 'h', 'p', 'h', 'solved', "
               "1, 1, 0, 0)")
    db.close()  # closed without COMMIT
    with Store.open(path) as store:
        assert store.count() == 0


def test_sigkill_during_writes_leaves_whole_rows_only(tmp_path: Path) -> None:
    import os
    import signal
    import subprocess
    import sys
    import time

    path = tmp_path / "r.sqlite"
    writer = ("import sys\nfrom pddltools.score.store import Run, Store\n"
              "store = Store.open(sys.argv[1])\n"
              "for i in range(100000):\n"
              "    store.add(Run('A', 't', 'baseline', 'd', '/d/domain.pddl', 'h', f'/d/p{i}.pddl', 'h', 'solved',"
              " 1.0, 1.0, 0, plan_text='(step)\\n' * 2000, length=2000))\n")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    proc = subprocess.Popen([sys.executable, "-c", writer, str(path)], env=env)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        time.sleep(0.3)
        with Store.open(path) as store:
            if store.count() >= 20:
                break
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    db.close()
    with Store.open(path) as store:
        runs = store.runs()
    assert len(runs) >= 20
    assert all(r.plan_text == "(step)\n" * 2000 and r.length == 2000 for r in runs)
    assert sorted(int(r.problem[1:]) for r in runs) == list(range(len(runs)))  # no gap, nothing half there


def test_processes_opening_a_new_store_at_once_migrate_it_once(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    code = "import sys\nfrom pddltools.score.store import Store\nprint(Store.open(sys.argv[1]).version)\n"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    procs = [subprocess.Popen([sys.executable, "-c", code, str(tmp_path / "r.sqlite")], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(6)]
    results = [(p.wait(), p.communicate()) for p in procs]
    assert all(code == 0 and out.strip() == str(SCHEMA_VERSION) for code, (out, _) in results), results


def test_a_database_locked_past_the_wait_is_reported_as_locked(tmp_path: Path) -> None:
    path = tmp_path / "r.sqlite"
    Store.open(path).close()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("PRAGMA journal_mode=DELETE")  # a rollback journal: an exclusive lock keeps readers out
    holder.execute("BEGIN EXCLUSIVE")
    holder.execute("UPDATE runs SET wall = 0")
    try:
        with pytest.raises(InputError) as caught:
            Store.open(path, timeout=0.3)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    (found,) = caught.value.diagnostics
    assert found.code == "S003" and "locked by another process" in found.message
    with Store.open(path) as store:  # once released, it opens and migrates
        assert store.version == SCHEMA_VERSION

"""The results store: one SQLite file in WAL mode with a versioned schema.

Each finished run is one INSERT in its own transaction, committed before the runner starts the next
run, so killing the runner at any moment loses no finished run and can never leave half a row: SQLite's
journal rolls an interrupted transaction back when the file is next opened.
"""

from __future__ import annotations

import contextlib
import hashlib
import math
import sqlite3
import time
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

from pddltools.diagnostics import InputError, error

#: `unjudged`: a plan the validator cannot judge (a construct it does not support): neither solved nor
#: invalid, so it scores nothing and voids nothing, and the report lists it among the unexplained errors.
STATUSES = ("solved", "unsolved", "timeout", "memout", "crash", "invalid-plan", "unjudged")

# The runs table's columns at version 4, which rebuilt it (versions 1 to 3 had made the first of them,
# version 5 added two): both the new table's definition and the copy of the rows are written from it.
_RUNS_4: tuple[tuple[str, str], ...] = (
    ("id", "INTEGER PRIMARY KEY"),
    ("planner", "TEXT NOT NULL"),
    ("track", "TEXT NOT NULL"),
    ("config", "TEXT NOT NULL"),
    ("domain_path", "TEXT NOT NULL"),
    ("domain_hash", "TEXT NOT NULL"),
    ("problem_path", "TEXT NOT NULL"),
    ("problem_hash", "TEXT NOT NULL"),
    ("status", "TEXT NOT NULL CHECK (status IN "
               "('solved', 'unsolved', 'timeout', 'memout', 'crash', 'invalid-plan', 'unjudged'))"),
    ("wall", "REAL NOT NULL"),
    ("cpu", "REAL NOT NULL"),
    ("peak_memory", "INTEGER NOT NULL"),
    ("returncode", "INTEGER"),
    ("plan_hash", "TEXT"),
    ("plan_text", "TEXT"),
    ("value", "REAL"),
    ("length", "INTEGER"),
    ("reason", "TEXT NOT NULL DEFAULT ''"),
    ("finished_at", "REAL NOT NULL"),
    ("domain", "TEXT NOT NULL DEFAULT ''"),
    ("wall_limit", "REAL"),
    ("cpu_limit", "REAL"),
    ("memory_limit", "INTEGER"),
)
_RUNS_4_NAMES = ", ".join(name for name, _ in _RUNS_4)
_RUNS_4_DECLARED = ",\n        ".join(f"{name} {declared}" for name, declared in _RUNS_4)

# Each entry moves the schema from version i to i+1; `PRAGMA user_version` records where a file is.
# Never edit a released step: add one.
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE runs (
        id INTEGER PRIMARY KEY,
        planner TEXT NOT NULL,
        track TEXT NOT NULL,
        config TEXT NOT NULL,
        domain_path TEXT NOT NULL,
        domain_hash TEXT NOT NULL,
        problem_path TEXT NOT NULL,
        problem_hash TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN
            ('solved', 'unsolved', 'timeout', 'memout', 'crash', 'invalid-plan')),
        wall REAL NOT NULL,
        cpu REAL NOT NULL,
        peak_memory INTEGER NOT NULL,
        returncode INTEGER,
        plan_hash TEXT,
        plan_text TEXT,
        value REAL,
        length INTEGER,
        reason TEXT NOT NULL DEFAULT '',
        finished_at REAL NOT NULL,
        UNIQUE (planner, track, config, domain_path, problem_path)
    );
    """,
    # Version 2: the learning track's knowledge folders (one row per learner run) and a domain name
    # column, so that scoring need not re-derive it from paths.
    """
    CREATE TABLE knowledge (
        id INTEGER PRIMARY KEY,
        planner TEXT NOT NULL,
        domain TEXT NOT NULL,
        attempt INTEGER NOT NULL,
        folder TEXT NOT NULL,
        content_hash TEXT NOT NULL,
        status TEXT NOT NULL,
        wall REAL NOT NULL,
        cpu REAL NOT NULL,
        peak_memory INTEGER NOT NULL,
        finished_at REAL NOT NULL,
        UNIQUE (planner, domain, attempt)
    );
    ALTER TABLE runs ADD COLUMN domain TEXT NOT NULL DEFAULT '';
    CREATE INDEX runs_by_domain ON runs (track, domain);
    """,
    # Version 3: the limits each run had, so that a report can say what the runs were held to. NULL for
    # rows stored before (and for JSON-lines runs): unknown, not unlimited.
    """
    ALTER TABLE runs ADD COLUMN wall_limit REAL;
    ALTER TABLE runs ADD COLUMN cpu_limit REAL;
    ALTER TABLE runs ADD COLUMN memory_limit INTEGER;
    """,
    # Version 4: the status `unjudged`. SQLite cannot change a CHECK constraint in place: the table is
    # copied into one that allows it, with its ids and its index.
    f"""
    CREATE TABLE runs_4 (
        {_RUNS_4_DECLARED},
        UNIQUE (planner, track, config, domain_path, problem_path)
    );
    INSERT INTO runs_4 ({_RUNS_4_NAMES}) SELECT {_RUNS_4_NAMES} FROM runs;
    DROP TABLE runs;
    ALTER TABLE runs_4 RENAME TO runs;
    CREATE INDEX runs_by_domain ON runs (track, domain);
    """,
    # Version 5: the runner's own limits on what a planner leaves (its plan's size, its run folder's disk).
    """
    ALTER TABLE runs ADD COLUMN plan_limit INTEGER;
    ALTER TABLE runs ADD COLUMN disk_limit INTEGER;
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def sha256_file(path: str | Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def domain_name(domain_path: str | Path) -> str:
    """Runs are grouped into domains by the domain file's folder name; for a domain per instance in
    `domains/` (the IPC-2008/2011/2014 layout), by the name of the folder holding `domains/`."""
    folder = Path(domain_path).resolve().parent
    return folder.parent.name if folder.name.lower() == "domains" else folder.name


@dataclass(frozen=True)
class RunKey:
    """What makes two runs the same run, for `--resume`."""

    planner: str
    track: str
    config: str
    domain_path: str
    problem_path: str


@dataclass(frozen=True)
class Run:
    """One finished planner run, as stored."""

    planner: str
    track: str
    config: str
    domain: str  # the domain's name for scoring: its file's folder name
    domain_path: str
    domain_hash: str
    problem_path: str
    problem_hash: str
    status: str
    wall: float
    cpu: float
    peak_memory: int  # bytes, as `limits.Outcome.peak_memory` (0: not measured)
    returncode: int | None = None
    plan_hash: str | None = None
    plan_text: str | None = None
    value: float | None = None  # the validated metric value (plan cost when there is no metric)
    length: int | None = None  # the validated plan's number of actions
    reason: str = ""
    finished_at: float = 0.0
    wall_limit: float | None = None  # seconds; None: not recorded
    cpu_limit: float | None = None  # seconds
    memory_limit: int | None = None  # bytes
    plan_limit: int | None = None  # bytes: the largest plan file the runner would read
    disk_limit: int | None = None  # bytes: what the run's folder could hold

    @property
    def key(self) -> RunKey:
        return RunKey(self.planner, self.track, self.config, self.domain_path, self.problem_path)

    @property
    def problem(self) -> str:
        return Path(self.problem_path).stem

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Knowledge:
    """One learner run of the learning track: the knowledge folder it produced and its content hash."""

    planner: str
    domain: str
    attempt: int  # 0 the learning run, 1.. the reproductions
    folder: str
    content_hash: str
    status: str
    wall: float
    cpu: float
    peak_memory: int
    finished_at: float = 0.0


_RUN_COLUMNS = tuple(f.name for f in fields(Run))


def _column_kinds() -> tuple[tuple[tuple[type, ...], bool], ...]:
    """For each of Run's fields, in order: the Python types SQLite may give back for it, and whether it
    may be NULL (read off the field's annotation: `str`, `float`, `int`, each maybe `| None`)."""
    kinds: dict[str, tuple[type, ...]] = {"str": (str,), "float": (float, int), "int": (int,)}
    out = []
    for f in fields(Run):
        base, _, rest = str(f.type).partition(" | ")
        out.append((kinds[base], rest == "None"))
    return tuple(out)


_RUN_KINDS = _column_kinds()
_TIMES = ("wall", "cpu", "finished_at", "wall_limit", "cpu_limit")  # seconds, finite (a metric value may not be)


def _checked_row(row: Sequence[Any], name: str) -> Sequence[Any]:
    """`row` if each of its values has its field's type: SQLite keeps whatever another program wrote into
    a column (text in a REAL one, infinity), which would fail far from here, in a score or a report."""
    for column, value, (types, nullable) in zip(_RUN_COLUMNS, row, _RUN_KINDS, strict=True):
        if value is None and nullable:
            continue
        finite = not isinstance(value, (int, float)) or column not in _TIMES or math.isfinite(value)
        if not isinstance(value, types) or not finite:
            shown = repr(value) if len(repr(value)) <= 60 else repr(value)[:60] + "..."
            what = "a number" if float in types else "a whole number" if int in types else "text"
            raise InputError([error("S004", f"{name} is damaged: the run of {row[0]!r} on {row[6]!r} has {column} "
                                            f"= {shown}, not {what}")])
    return row


_KNOWLEDGE_COLUMNS = tuple(f.name for f in fields(Knowledge))


def _is_lock(exc: sqlite3.OperationalError) -> bool:
    return getattr(exc, "sqlite_errorcode", None) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


def _use_write_ahead_log(db: sqlite3.Connection, deadline: float) -> None:
    """Switch to write-ahead logging (readers never block the runner's commits). The switch needs the
    file to itself, and SQLite reports a lock on it at once, without waiting out the busy timeout,
    when another process is creating or switching the same file: so it is retried until `deadline`."""
    while True:
        try:
            db.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if not _is_lock(exc) or time.monotonic() >= deadline:
                raise
            time.sleep(0.02)


#: `PRAGMA application_id` of a results database ("PDDT"): what tells it from another program's SQLite file.
APPLICATION_ID = 0x50444454


class Store:
    """A results database. Open with `Store.open(path)`; `add` commits each run at once."""

    def __init__(self, connection: sqlite3.Connection, path: str) -> None:
        self._db = connection
        self.path = path
        self._columns: tuple[str, ...] = _RUN_COLUMNS

    @classmethod
    def open(cls, path: str | Path, *, timeout: float = 30.0, readonly: bool = False) -> Store:
        """Open the results database at `path` (creating it if need be, unless `readonly`), waiting up to
        `timeout` seconds for another process that holds it locked (a runner writing, another opening it
        at the same moment).

        Before anything is written, the file is checked (`PRAGMA quick_check`: S004 when damaged) and
        recognised as a results database (S001 for another program's file, which is left untouched).
        `readonly` opens it so that nothing can be written, for the commands that only read."""
        name = str(path)
        deadline = time.monotonic() + timeout
        if readonly and not Path(name).is_file():
            raise InputError([error("S040", f"cannot read {name}: no such file")])
        db: sqlite3.Connection | None = None
        try:
            if readonly:
                db = sqlite3.connect(f"{Path(name).resolve().as_uri()}?mode=ro", isolation_level=None,
                                     timeout=timeout, uri=True)
            else:
                db = sqlite3.connect(name, isolation_level=None, timeout=timeout)
            version = _recognise(db, name)
            store = cls(db, name)
            if readonly:
                store._columns = store._stored_columns()
                return store
            _use_write_ahead_log(db, deadline)
            # FULL: a commit is on disk before `add` returns, so a power cut loses no finished run either.
            db.execute("PRAGMA synchronous=FULL")
            store._migrate(version)
        except sqlite3.DatabaseError as exc:
            if db is not None:
                db.close()
            raise _database_error(exc, name, timeout) from None
        except BaseException:
            if db is not None:
                db.close()
            raise
        return store

    def _migrate(self, version: int) -> None:
        for step in range(version, SCHEMA_VERSION):
            # One write transaction per step, all-or-nothing; the version is read again inside it, since
            # another process (a runner and a reader starting together) may have migrated meanwhile.
            with self._db:
                self._db.execute("BEGIN IMMEDIATE")
                if int(self._db.execute("PRAGMA user_version").fetchone()[0]) > step:
                    continue
                for statement in MIGRATIONS[step].split(";"):
                    if statement.strip():
                        self._db.execute(statement)
                self._db.execute(f"PRAGMA user_version = {step + 1}")
        if int(self._db.execute("PRAGMA application_id").fetchone()[0]) != APPLICATION_ID:
            with self._db:
                self._db.execute("BEGIN IMMEDIATE")
                self._db.execute(f"PRAGMA application_id = {APPLICATION_ID}")

    def _stored_columns(self) -> tuple[str, ...]:
        """The run fields this file has columns for (an older file lacks the newer ones; read as unknown)."""
        present = {str(row[1]) for row in self._db.execute("PRAGMA table_info(runs)")}
        return tuple(c if c in present else f"NULL AS {c}" for c in _RUN_COLUMNS)

    @contextlib.contextmanager
    def _reading(self) -> Iterator[None]:
        """SQLite errors met while using the file, as the S-codes saying what is wrong with it."""
        try:
            yield
        except sqlite3.DatabaseError as exc:
            raise _database_error(exc, self.path, 30.0) from None

    @property
    def version(self) -> int:
        return int(self._db.execute("PRAGMA user_version").fetchone()[0])

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- runs ------------------------------------------------------------------------------------

    def add(self, run: Run) -> None:
        """Store a finished run and commit; a run with the same key replaces the older one."""
        if run.status not in STATUSES:
            raise ValueError(f"unknown status {run.status!r}")
        values = asdict(run)
        if not values["finished_at"]:
            values["finished_at"] = time.time()
        names = ", ".join(_RUN_COLUMNS)
        marks = ", ".join(f":{c}" for c in _RUN_COLUMNS)
        with self._reading(), self._db:  # commits on success, rolls back on error
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute(f"INSERT OR REPLACE INTO runs ({names}) VALUES ({marks})", values)

    def runs(self, track: str | None = None) -> list[Run]:
        sql = f"SELECT {', '.join(self._columns)} FROM runs"
        params: Sequence[Any] = ()
        if track is not None:
            sql += " WHERE track = ?"
            params = (track,)
        sql += " ORDER BY id"
        with self._reading():
            rows = self._db.execute(sql, params).fetchall()
        runs = [Run(*_checked_row(row, self.path)) for row in rows]
        # Rows written at schema version 1 have no domain name: it is the domain file's folder name.
        return [r if r.domain else replace(r, domain=domain_name(r.domain_path)) for r in runs]

    def keys(self) -> set[RunKey]:
        with self._reading():
            rows = self._db.execute("SELECT planner, track, config, domain_path, problem_path FROM runs")
            return {RunKey(*row) for row in rows}

    def finished(self) -> dict[RunKey, float]:
        """When each stored run finished (`finished_at`), by key."""
        with self._reading():
            rows = self._db.execute("SELECT planner, track, config, domain_path, problem_path, finished_at FROM runs")
            return {RunKey(*row[:5]): float(row[5]) for row in rows}

    def finished_at(self, key: RunKey) -> float | None:
        """When the run `key` was stored, or None if it is not."""
        with self._reading():
            row = self._db.execute("SELECT finished_at FROM runs WHERE planner = ? AND track = ? AND config = ? AND "
                                   "domain_path = ? AND problem_path = ?",
                                   (key.planner, key.track, key.config, key.domain_path, key.problem_path)).fetchone()
        return None if row is None else float(row[0])

    def count(self) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM runs").fetchone()[0])

    def duplicates(self) -> int:
        """Runs stored more than once under one key (the UNIQUE constraint makes this 0; tests check)."""
        row = self._db.execute(
            "SELECT COUNT(*) - COUNT(DISTINCT planner || '|' || track || '|' || config || '|' || "
            "domain_path || '|' || problem_path) FROM runs").fetchone()
        return int(row[0])

    # --- learning-track knowledge ----------------------------------------------------------------

    def add_knowledge(self, item: Knowledge) -> None:
        values = asdict(item)
        if not values["finished_at"]:
            values["finished_at"] = time.time()
        names = ", ".join(_KNOWLEDGE_COLUMNS)
        marks = ", ".join(f":{c}" for c in _KNOWLEDGE_COLUMNS)
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute(f"INSERT OR REPLACE INTO knowledge ({names}) VALUES ({marks})", values)

    def knowledge(self, planner: str | None = None) -> list[Knowledge]:
        sql = f"SELECT {', '.join(_KNOWLEDGE_COLUMNS)} FROM knowledge"
        params: Sequence[Any] = ()
        if planner is not None:
            sql += " WHERE planner = ?"
            params = (planner,)
        return [Knowledge(*row) for row in self._db.execute(sql + " ORDER BY id", params)]


def iter_runs(path: str | Path) -> Iterator[Run]:
    with Store.open(path, readonly=True) as store:
        yield from store.runs()


def _recognise(db: sqlite3.Connection, name: str) -> int:
    """The schema version of the results database `db`; raises S004 when it is damaged, S001 when it is
    another program's, S002 when a newer pddltools wrote it. Reads only."""
    problems = [line for row in db.execute("PRAGMA quick_check(5)") for line in str(row[0]).splitlines()
                if not line.startswith("***")]
    if problems != ["ok"]:
        raise InputError([error("S004", f"{name} is damaged; SQLite's quick_check says: " + "; ".join(problems)
                                + ". Nothing was read from it or written to it")])
    application = int(db.execute("PRAGMA application_id").fetchone()[0])
    version = int(db.execute("PRAGMA user_version").fetchone()[0])
    tables = sorted(str(row[0]) for row in db.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"))
    ours = application == APPLICATION_ID or (application == 0 and version >= 1 and "runs" in tables)
    if not ours and (tables or application or version):
        what = f"its tables: {', '.join(tables[:8])}" + (", ..." if len(tables) > 8 else "") if tables else \
            f"application id {application:#x}, user version {version}"
        raise InputError([error("S001", f"{name} is an SQLite database of another program ({what}), not a results "
                                        "database; it was left unchanged")])
    if version > SCHEMA_VERSION:
        raise InputError([error("S002", f"{name} has schema version {version}, newer than this "
                                        f"pddltools understands ({SCHEMA_VERSION}); upgrade pddltools")])
    return version


def _database_error(exc: sqlite3.DatabaseError, name: str, timeout: float) -> InputError:
    """The S-code error for what SQLite raised about the results database `name`."""
    if isinstance(exc, sqlite3.OperationalError) and _is_lock(exc):
        return InputError([error("S003", f"{name} is locked by another process, still after {timeout:g} s: {exc}")])
    code = getattr(exc, "sqlite_errorcode", None)
    if code == sqlite3.SQLITE_NOTADB:
        return InputError([error("S001", f"{name} is not a results database: {exc}")])
    if code in (sqlite3.SQLITE_CORRUPT, getattr(sqlite3, "SQLITE_CORRUPT_INDEX", -1)) or "malformed" in str(exc):
        return InputError([error("S004", f"{name} is damaged: {exc}")])
    if code == sqlite3.SQLITE_READONLY or isinstance(exc, sqlite3.OperationalError):
        return InputError([error("S001", f"{name} cannot be used as a results database: {exc}")])
    return InputError([error("S004", f"{name} is damaged: {exc}")])

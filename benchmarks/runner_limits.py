#!/usr/bin/env python3
"""The runner against hostile planners: what it costs, and how soon after a limit a run ends.

1. Margins: a fork storm of 400 processes (obeying SIGTERM, then ignoring it), a sleeper ignoring
   SIGTERM and a memory hog, each under `run_limited`: the seconds from the limit to the run's end.
   (tests/score/test_limits.py checks what the runner did to them; the timing lives here, since a
   loaded machine stretches it.)
2. Hostile planners (../shared/fuzz/turn3, issue 30), each in a `pddltools run` of its own (wall 10 s,
   512 MB): a plan that is a symbolic link to a secret or to /dev/zero, a named pipe, a directory, 100 MB
   of steps, a valid plan padded with 200 MB of comments, 300 anytime plans of 2 MB, a 15 MB invalid plan
   (under the size cap: validated in the limited child), a planner filling its folder. For each: the
   row's status and reason, the runner's own peak resident memory (the planner and the validator are
   other processes), its seconds in all, and those beyond the run's own (start-up, reading, validating,
   storing).

    python benchmarks/runner_limits.py
    python benchmarks/runner_limits.py --only hostile --json /tmp/runner_limits.json
"""

from __future__ import annotations

import argparse
import json
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.fuzzing import TURN3, child_env, hostile_planners  # the stand-ins, as the tests set them up

STORM = """
import os, signal, sys, time
if sys.argv[2] == "ignore":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
for _ in range(int(sys.argv[1])):
    if os.fork() == 0:
        while True:
            time.sleep(1)
while True:
    time.sleep(1)
"""
# The runner with its own peak resident memory written to standard error as it exits.
RUNNER = ("import atexit, sys\n"
          "from tests.fuzzing import peak_mb\n"
          "atexit.register(lambda: print('PEAK_MB', peak_mb(), file=sys.stderr))\n"
          "from pddltools.cli import main\n"
          "sys.exit(main())\n")


def margins() -> list[dict[str, Any]]:
    from pddltools.score.limits import MB, Limits, run_limited

    py = sys.executable
    cases = [
        ("fork storm of 400, obeying SIGTERM", [py, "-c", STORM, "400", "obey"], Limits(wall=3.0, memory=8 << 30,
                                                                                       grace=0.2), 3.0),
        ("fork storm of 400, ignoring SIGTERM", [py, "-c", STORM, "400", "ignore"], Limits(wall=3.0, memory=8 << 30,
                                                                                         grace=0.2), 3.2),
        ("sleeper ignoring SIGTERM", [py, "-c", "import signal, time; signal.signal(signal.SIGTERM, "
                                      "signal.SIG_IGN); time.sleep(60)"], Limits(wall=1.5, grace=0.3), 1.8),
    ]
    found = []
    for name, argv, limits, due in cases:
        began = time.monotonic()
        outcome = run_limited(argv, limits)
        elapsed = time.monotonic() - began
        found.append({"case": name, "status": outcome.status, "seconds": round(elapsed, 3),
                      "past_limit": round(elapsed - due, 3), "processes": outcome.processes})
    began = time.monotonic()
    outcome = run_limited([py, "-c", "b = []\nwhile True: b.append(bytearray(10 << 20))"],
                          Limits(wall=30, memory=150 * MB))
    found.append({"case": "memory hog (150 MB)", "status": outcome.status,
                  "seconds": round(time.monotonic() - began, 3), "past_limit": None, "processes": outcome.processes})
    return found


def _stand_ins(secret: Path) -> dict[str, str]:
    return {
        "symlink to a secret": f"symfile.py {{problem}} {{plan}} {secret}",
        "symlink to /dev/zero": "symzero.py {problem} {plan}",
        "named pipe": "fifo.py {problem} {plan}",
        "directory": "plandir.py {problem} {plan}",
        "100 MB of steps": "bigsteps.py {problem} {plan} 100",
        "valid plan + 200 MB of comments": "bigplan.py {problem} {plan} 200",
        "300 anytime plans of 2 MB": "manyplans.py {problem} {plan} 300 2",
        "15 MB invalid plan (validated)": "bigsteps.py {problem} {plan} 15",
        "disk filler (--disk 256)": "filler.py",
    }


def hostile(wall: float = 10.0) -> list[dict[str, Any]]:
    found = []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        secret = hostile_planners(root, "root:$6$SECRET:19000:0:99999:7:::\n")
        env = child_env()
        for n, (name, command) in enumerate(_stand_ins(secret).items()):
            db = root / f"r{n}.db"
            argv = [sys.executable, "-c", RUNNER, "run", "line/line-01.pddl", "--domain", "line/domain.pddl",
                    "--planner", f"p={sys.executable} {command}", "--db", str(db), "--workdir", f"runs{n}",
                    "--wall", f"{wall:g}", "--memory", "512", "--jobs", "1",
                    *(["--disk", "256"] if "--disk" in name else [])]
            began = time.monotonic()
            done = subprocess.run(argv, cwd=root, env=env, capture_output=True, text=True, timeout=600)
            elapsed = time.monotonic() - began
            peak = next((float(line.split()[1]) for line in done.stderr.splitlines()
                         if line.startswith("PEAK_MB")), 0.0)
            connection = sqlite3.connect(db)
            status, reason, run_wall = connection.execute("SELECT status, reason, wall FROM runs").fetchone()
            connection.close()
            found.append({"stand-in": name, "status": status, "reason": reason[:110], "runner_peak_mb": round(peak),
                          "runner_seconds": round(elapsed, 2), "planner_seconds": round(run_wall, 2),
                          "after_the_run": round(elapsed - run_wall, 2)})
            shutil.rmtree(root / f"runs{n}", ignore_errors=True)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=("margins", "hostile"))
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args(argv)
    numbers: dict[str, Any] = {}
    if args.only in (None, "margins"):
        numbers["margins"] = margins()
        for m in numbers["margins"]:
            past = "" if m["past_limit"] is None else f", {m['past_limit']:+.2f} s past the limit"
            print(f"{m['case']}: {m['status']} after {m['seconds']:.2f} s{past} ({m['processes']} processes)")
    if args.only in (None, "hostile"):
        if not TURN3.is_dir():
            raise SystemExit(f"the reproducers are not at {TURN3}")
        numbers["hostile"] = hostile()
        for h in numbers["hostile"]:
            print(f"{h['stand-in']}: {h['status']} ({h['reason']}); runner peak {h['runner_peak_mb']} MB, "
                  f"{h['runner_seconds']:.2f} s in all, the run itself {h['planner_seconds']:.2f} s (wall limit 10 s): "
                  f"{h['after_the_run']:.2f} s beyond it")
    if args.json:
        Path(args.json).write_text(json.dumps(numbers, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

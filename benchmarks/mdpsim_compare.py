"""pddltools' PPDDL simulator and mdpsim's protocol against mdpsim itself, on IPPC-2008 problems.

    python benchmarks/mdpsim_compare.py --mdpsim /tmp/mdpsim [--rounds 30] [--turns 100] [--reference 200] [--json]

mdpsim is built by hand from its public sources (github.com/hlsyounes/mdpsim: `autoreconf -fi &&
./configure && make`, with automake, libtool, bison and flex); `--mdpsim` is the folder holding its
`mdpsim` and `mdpclient`. The problems are read from the IPPC-2008 set kept with the ASNets sources
(`--asnets`, a git directory: github.com/qxcv/asnets), five by default (`PROBLEMS`).

For each problem:
1. `pddltools ppddl serve` serves it; mdpsim's `mdpclient` (a random policy) plays a session of ROUNDS
   rounds against it: complete when every end-round and the end-session arrive.
2. `mdpsim --port` serves it; `pddltools ppddl client --policy random` plays a session against it.
3. References, offline: REFERENCE rounds of `pddltools ppddl simulate --policy random`, and REFERENCE
   one-round runs of `mdpsim` without a port (its own random action selection, seeds 1..REFERENCE).
Each session's mean reward is checked against the OTHER simulator's 95 % interval for the mean of ROUNDS
rounds (the reference's mean +- t * sd / sqrt(ROUNDS)): the interval a session of that length on the other
simulator falls in 95 % of the time. mdpclient's session ran on pddltools' simulator, so its mean is
checked against mdpsim's interval; pddltools' client's session ran on mdpsim, so its mean against
pddltools'. The two references' own 95 % intervals of the mean (sd / sqrt(REFERENCE)) are printed too.

Not run in CI (it needs mdpsim built); the tests check the protocol byte for byte and the simulator's
probabilities exactly.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from pddltools.ppddl.simulation import confidence_interval, sample_std  # noqa: E402

ASNETS = Path("/work/.mirror/qxcv+asnets/repo")
BASE = "problems/ippc08/domains"
#: (domain file, problem file) in the ASNets repository: problems a random policy sometimes solves
PROBLEMS = (
    ("triangle-tireworld/domain.pddl", "triangle-tireworld/p01.pddl"),
    ("sysAdmin-SLP/domain.pddl", "sysAdmin-SLP/p01-n4-l1-s1.pddl"),
    ("search-and-rescue/domain.pddl", "search-and-rescue/p01-z4.pddl"),
    ("zenotravel/domain.pddl", "zenotravel/p01-c4-p2-a2-s3846.pddl"),
    ("ex-blocksworld/domain.pddl", "ex-blocksworld/ptiny-3-blocks-seed-12312.pddl"),
)
PDDLTOOLS = [sys.executable, "-m", "pddltools"]


def extract(asnets: Path, paths: tuple[str, str], into: Path) -> list[Path]:
    """The files of one problem, read from the git directory (symlinked files followed)."""
    files = []
    for path in paths:
        full = f"{BASE}/{path}"
        text = subprocess.run(["git", "--git-dir", str(asnets), "show", f"HEAD:{full}"], check=True,
                              capture_output=True, text=True).stdout
        if "\n" not in text.strip() and text.strip().endswith(".pddl"):  # a symlink stored as its target
            full = os.path.normpath(f"{os.path.dirname(full)}/{text.strip()}")
            text = subprocess.run(["git", "--git-dir", str(asnets), "show", f"HEAD:{full}"], check=True,
                                  capture_output=True, text=True).stdout
        target = into / path.replace("/", "__")
        target.write_text(text)
        files.append(target)
    return files


def problem_name(path: Path) -> str:
    found = re.search(r"\(define\s*\(problem\s+([^\s)]+)", path.read_text())
    assert found, path
    return found.group(1)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def session_interval(values: list[float], rounds: int) -> tuple[float, float]:
    """Where the mean of `rounds` rounds falls 95 % of the time, by the reference's mean and spread."""
    mean = math.fsum(values) / len(values)
    half = 1.96 * sample_std(values) / math.sqrt(rounds) if rounds < 30 else 2.045 * sample_std(values) / \
        math.sqrt(rounds)
    return mean - half, mean + half


def mdpclient_against_pddltools(files: list[Path], args: argparse.Namespace, work: Path) -> dict[str, Any]:
    log = work / "serve.jsonl"
    server = subprocess.Popen([*PDDLTOOLS, "ppddl", "serve", *map(str, files), "--port", "0", "--format", "json",
                               "--rounds", str(args.rounds), "--turns", str(args.turns), "--seed", str(args.seed),
                               "--log", str(log)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                              cwd=REPO)
    try:
        assert server.stdout is not None
        port = json.loads(server.stdout.readline())["port"]
        started = time.perf_counter()
        out = subprocess.run([str(args.mdpsim / "mdpclient"), "-H", "127.0.0.1", "-P", str(port), *map(str, files)],
                             capture_output=True, text=True, cwd=work, timeout=1800).stdout
        elapsed = time.perf_counter() - started
    finally:
        server.terminate()
        server.wait(10)
    ends = out.count("<end-round>")
    session = re.search(r"<end-session>.*?</end-session>", out)
    records = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    rewards = [float(r["reward"]) for r in records if r["event"] == "round-end"]
    average = re.search(r"<metric-average>([^<]*)</metric-average>", session.group(0)) if session else None
    return {"complete": ends == args.rounds and session is not None, "end_rounds": ends, "rewards": rewards,
            "mean": math.fsum(rewards) / len(rewards) if rewards else math.nan,
            "successes": sum(1 for r in records if r["event"] == "round-end" and r["goal"]),
            "metric_average": float(average.group(1)) if average else None, "seconds": elapsed}


def pddltools_against_mdpsim(files: list[Path], args: argparse.Namespace, work: Path) -> dict[str, Any]:
    port = free_port()
    server = subprocess.Popen([str(args.mdpsim / "mdpsim"), "-P", str(port), "-R", str(args.rounds), "-L",
                               str(args.turns), "-S", str(args.seed + 17), "-l", str(work / "logs"), *map(str, files)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=work)
    try:
        for _ in range(100):
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.05)
        started = time.perf_counter()
        out = subprocess.run([*PDDLTOOLS, "ppddl", "client", "127.0.0.1", str(port), *map(str, files),
                              "--seed", str(args.seed), "--format", "json"], capture_output=True, text=True, cwd=REPO,
                             timeout=1800)
        elapsed = time.perf_counter() - started
    finally:
        server.terminate()
        server.wait(10)
    data = json.loads(out.stdout) if out.stdout.strip() else {}
    rewards = [float(r["reward"]) for r in data.get("rounds", [])]
    return {"complete": bool(data.get("complete")) and len(rewards) == args.rounds, "rewards": rewards,
            "mean": math.fsum(rewards) / len(rewards) if rewards else math.nan,
            "successes": data.get("successes"), "metric_average": data.get("metric_average"), "seconds": elapsed,
            "stderr": out.stderr[-500:] if out.returncode else ""}


def mdpsim_offline(files: list[Path], args: argparse.Namespace, work: Path) -> list[float]:
    values = []
    for seed in range(1, args.reference + 1):
        out = subprocess.run([str(args.mdpsim / "mdpsim"), "-S", str(seed), "-L", str(args.turns), *map(str, files)],
                             capture_output=True, text=True, cwd=work, timeout=600).stdout
        found = re.findall(r"value of maximization metric is (\S+)", out)
        values.append(float(Fraction(found[-1])) if found else 0.0)
    return values


def pddltools_offline(files: list[Path], args: argparse.Namespace) -> list[float]:
    out = subprocess.run([*PDDLTOOLS, "ppddl", "simulate", *map(str, files), "--rounds", str(args.reference),
                          "--horizon", str(args.turns), "--seed", str(args.seed), "--format", "json"],
                         capture_output=True, text=True, cwd=REPO, check=True).stdout
    return [float(r["reward"]) for r in json.loads(out)["round_results"]]


def report(row: dict[str, Any], served: dict[str, Any], played: dict[str, Any], ours: list[float],
           theirs: list[float], args: argparse.Namespace) -> None:
    name, pad = row["problem"], " " * len(row["problem"])
    low, high = row["mdpsim_offline"]["session_interval"]
    verdict = "inside" if row["mdpclient_mean_inside_mdpsim_interval"] else "OUTSIDE"
    print(f"{name}: mdpclient vs ppddl serve: {'complete' if served['complete'] else 'INCOMPLETE'} "
          f"({served['end_rounds']} end-rounds, {served['seconds']:.1f} s), mean {served['mean']:.3f}, "
          f"mdpsim's {args.rounds}-round interval [{low:.3f}, {high:.3f}] -> {verdict}")
    low, high = row["pddltools_offline"]["session_interval"]
    verdict = "inside" if row["client_mean_inside_pddltools_interval"] else "OUTSIDE"
    print(f"{pad}  ppddl client vs mdpsim: {'complete' if played['complete'] else 'INCOMPLETE'} "
          f"({played['seconds']:.1f} s), mean {played['mean']:.3f}, pddltools' {args.rounds}-round "
          f"interval [{low:.3f}, {high:.3f}] -> {verdict}")
    (low, high), (low2, high2) = confidence_interval(ours), confidence_interval(theirs)
    print(f"{pad}  offline ({args.reference} rounds): pddltools {math.fsum(ours) / len(ours):.3f} [{low:.3f}, "
          f"{high:.3f}], mdpsim {math.fsum(theirs) / len(theirs):.3f} [{low2:.3f}, {high2:.3f}]", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mdpsim", type=Path, required=True, help="the folder with mdpsim and mdpclient built")
    parser.add_argument("--asnets", type=Path, default=ASNETS, help="the ASNets repository's git directory")
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--turns", type=int, default=100, help="turns per round (mdpsim's -L)")
    parser.add_argument("--reference", type=int, default=200, help="offline rounds per simulator")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for paths in PROBLEMS:
            work = Path(tmp) / paths[1].replace("/", "__")
            work.mkdir()
            files = extract(args.asnets, paths, work)
            name = problem_name(files[-1])
            ours = pddltools_offline(files, args)
            theirs = mdpsim_offline(files, args, work)
            served = mdpclient_against_pddltools(files, args, work)
            played = pddltools_against_mdpsim(files, args, work)
            ours_session = session_interval(ours, args.rounds)
            theirs_session = session_interval(theirs, args.rounds)
            row = {"problem": name, "files": paths,
                   "pddltools_offline": {"mean": math.fsum(ours) / len(ours), "ci95": confidence_interval(ours),
                                         "session_interval": ours_session},
                   "mdpsim_offline": {"mean": math.fsum(theirs) / len(theirs), "ci95": confidence_interval(theirs),
                                      "session_interval": theirs_session},
                   "mdpclient_vs_pddltools_serve": {k: v for k, v in served.items() if k != "rewards"},
                   "pddltools_client_vs_mdpsim": {k: v for k, v in played.items() if k != "rewards"}}
            row["mdpclient_mean_inside_mdpsim_interval"] = theirs_session[0] <= served["mean"] <= theirs_session[1]
            row["client_mean_inside_pddltools_interval"] = ours_session[0] <= played["mean"] <= ours_session[1]
            rows.append(row)
            if not args.json:
                report(row, served, played, ours, theirs, args)
    if args.json:
        print(json.dumps(rows, indent=2))
    shutil.rmtree(Path(tmp), ignore_errors=True)
    ok = all(r["mdpclient_vs_pddltools_serve"]["complete"] and r["pddltools_client_vs_mdpsim"]["complete"]
             for r in rows)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())

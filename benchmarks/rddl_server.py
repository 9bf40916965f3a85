#!/usr/bin/env python3
"""RDDLSim server throughput and simulator speed, against pyRDDLGym's simulator in the same run.

1. Turns per second: `pddltools rddl serve` runs in a child process (so the server has its own
   interpreter, as in a competition); this process plays 1 client, then 50 concurrent ones, each a
   whole session (ROUNDS rounds, the instance's real horizon) with the no-op policy, so that the
   clients cost little. A turn is one turn message answered by one actions message.
2. Simulator steps per second on the same instances: `Simulator.step` with no-op actions against
   pyRDDLGym's `env.step` (its default, compiled simulator), both over whole rounds, with resets
   outside the timing; the ratio is ours / pyRDDLGym's (above 1: we are faster).

    python benchmarks/rddl_server.py
    python benchmarks/rddl_server.py --clients 50 --json /tmp/rddl_server.json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
CORPUS = REPO.parent / "shared" / "corpus" / "rddl"
sys.path.insert(0, str(REPO))

SERVER_INSTANCE = "sysadmin_inst_mdp__1"
SIMULATOR_INSTANCES = [
    ("ippc-2011", "sysadmin_mdp", "sysadmin_inst_mdp__1"),
    ("ippc-2011", "elevators_mdp", "elevators_inst_mdp__1"),
    ("ippc-2011", "game_of_life_mdp", "game_of_life_inst_mdp__1"),
    ("ippc-2011", "crossing_traffic_mdp", "crossing_traffic_inst_mdp__1"),
    ("ippc-2011", "skill_teaching_mdp", "skill_teaching_inst_mdp__1"),
    ("ippc-2011", "traffic_mdp", "traffic_inst_mdp__1"),
    ("ippc-2014", "academic_advising_mdp", "academic_advising_inst_mdp__1"),
    ("ippc-2014", "wildfire_mdp", "wildfire_inst_mdp__1"),
]


def start_server(folders: list[Path], rounds: int, log: Path) -> tuple[subprocess.Popen[str], int]:
    command = [sys.executable, "-c", "import sys; from pddltools.cli import main; sys.exit(main())",
               "rddl", "serve", *map(str, folders), "--port", "0", "--rounds", str(rounds), "--timeout", "3600",
               "--log", str(log), "--format", "json"]
    process = subprocess.Popen(command, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert process.stdout is not None
    line = process.stdout.readline()
    if not line:
        raise SystemExit("the server did not start")
    return process, int(json.loads(line)["port"])


async def play_sessions(port: int, clients: int) -> tuple[int, float]:
    from pddltools.rddlsim.client import Client

    start = time.perf_counter()
    results = await asyncio.gather(*(Client(SERVER_INSTANCE, "noop", f"bench-{i}").play("127.0.0.1", port)
                                     for i in range(clients)))
    elapsed = time.perf_counter() - start
    turns = sum(r.turns_used for result in results for r in result.rounds)
    return turns, elapsed


def server_throughput(clients: list[int], rounds: int) -> list[dict[str, Any]]:
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        process, port = start_server([CORPUS / "ippc-2011"], rounds, Path(tmp) / "log.jsonl")
        try:
            for count in clients:
                turns, elapsed = asyncio.run(play_sessions(port, count))
                rows.append({"clients": count, "rounds": rounds, "turns": turns, "seconds": elapsed,
                             "turns_per_second": turns / elapsed})
        finally:
            process.terminate()
            process.wait(10)
    return rows


def ours_steps(domain: Path, instance: Path, rounds: int) -> float:
    from pddltools.rddl_simulation.problems import load_problem

    simulator = load_problem(domain, instance).simulator(0)
    steps, elapsed = 0, 0.0
    for _ in range(rounds):
        simulator.reset()
        start = time.perf_counter()
        while not simulator.done:
            simulator.step({})
            steps += 1
        elapsed += time.perf_counter() - start
    return steps / elapsed


def pyrddlgym_steps(domain: Path, instance: Path, rounds: int) -> float:
    import pyRDDLGym

    logging.getLogger("pyRDDLGym").setLevel(logging.ERROR)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env = pyRDDLGym.make(str(domain), str(instance))
        steps, elapsed = 0, 0.0
        for r in range(rounds):
            env.reset(seed=r)
            start = time.perf_counter()
            for _ in range(env.horizon):
                _, _, terminated, truncated, _ = env.step({})
                steps += 1
                if terminated or truncated:
                    break
            elapsed += time.perf_counter() - start
    return steps / elapsed


def simulator_speed(rounds: int) -> list[dict[str, Any]]:
    rows = []
    for track, domain, instance in SIMULATOR_INSTANCES:
        domain_path, instance_path = CORPUS / track / f"{domain}.rddl", CORPUS / track / f"{instance}.rddl"
        ours = ours_steps(domain_path, instance_path, rounds)
        theirs = pyrddlgym_steps(domain_path, instance_path, rounds)
        rows.append({"instance": instance, "pddltools_steps_per_second": ours,
                     "pyrddlgym_steps_per_second": theirs, "ratio": ours / theirs})
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, nargs="*", default=[1, 50])
    parser.add_argument("--rounds", type=int, default=3, help="rounds per session (default 3)")
    parser.add_argument("--sim-rounds", type=int, default=20, help="rounds per instance for steps/s (default 20)")
    parser.add_argument("--skip-simulator", action="store_true")
    parser.add_argument("--json", type=Path, help="also write the numbers here")
    args = parser.parse_args(argv)
    out: dict[str, Any] = {"cpus": os.cpu_count(), "server_instance": SERVER_INSTANCE}
    out["server"] = server_throughput(args.clients, args.rounds)
    for row in out["server"]:
        print(f"{row['clients']:>3} clients x {row['rounds']} rounds of {SERVER_INSTANCE}: {row['turns']} turns in "
              f"{row['seconds']:.2f} s = {row['turns_per_second']:.0f} turns/s")
    if not args.skip_simulator:
        out["simulator"] = simulator_speed(args.sim_rounds)
        print(f"{'instance':<34} {'pddltools':>12} {'pyRDDLGym':>12} {'ratio':>7}  (steps/s)")
        for row in out["simulator"]:
            print(f"{row['instance']:<34} {row['pddltools_steps_per_second']:>12.0f} "
                  f"{row['pyrddlgym_steps_per_second']:>12.0f} {row['ratio']:>7.2f}")
    if args.json:
        args.json.write_text(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())

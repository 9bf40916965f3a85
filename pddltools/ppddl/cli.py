"""`pddltools ppddl simulate|serve|client|score`: PPDDL simulated as mdpsim simulates it, mdpsim's protocol
served and played, and the IPPC's scores.

Exit codes: 0 done, 1 the simulation or session failed, 2 bad usage or unreadable input. `--format json`
prints `pddltools.envelope`'s envelope on stdout (for `serve`, one line once the port is bound); logs go
to stderr.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Sequence
from typing import Any

from pddltools.cli_options import LARGEST, add_server_address, add_server_options, number_option, server_limits
from pddltools.consoles import stderr_console
from pddltools.diagnostics import Diagnostic, Error, InputError, error, render_rich
from pddltools.envelope import envelope, file_entry, placed, print_json
from pddltools.exit_codes import ExitCode, status_of

TYPE_CHECKING = False  # typing's flag (mypy reads the name): argparse only for the annotations
if TYPE_CHECKING:
    import argparse

FORMATS = ("text", "json")
_positive = number_option("the count", whole=True, low=1, high=LARGEST)
_seed = number_option("the seed", whole=True, low=-LARGEST, high=LARGEST)


def register(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add `simulate`, `serve`, `client` and `score` to the `ppddl` group's sub-parsers."""
    from pddltools.ppddl.simulation import DEFAULT_HORIZON, POLICIES

    simulate = commands.add_parser("simulate")
    simulate.add_argument("files", nargs="+", metavar="FILE",
                          help="the domain and problem files (or one file holding both, as mdpsim's may)")
    simulate.add_argument("--problem", help="which problem, when the files hold several")
    simulate.add_argument("--policy", choices=POLICIES, default="random",
                          help="random (uniformly among the applicable actions, as mdpclient) or noop (done at "
                               "once); default random")
    simulate.add_argument("--rounds", type=_positive, default=30)
    simulate.add_argument("--horizon", type=_positive, default=DEFAULT_HORIZON,
                          help=f"turns per round at most (default {DEFAULT_HORIZON})")
    simulate.add_argument("--seed", type=_seed, default=0)
    simulate.add_argument("--format", choices=FORMATS, default="text")
    simulate.set_defaults(func=run_simulate)

    serve = commands.add_parser("serve")
    serve.add_argument("files", nargs="+", metavar="FILE", help="domain and problem files; every problem is served")
    serve.add_argument("--rounds", type=_positive, default=30)
    serve.add_argument("--time", type=_positive, default=900_000,
                       help="milliseconds per session (mdpsim's -T; default 900000)")
    serve.add_argument("--turns", type=_positive, default=DEFAULT_HORIZON,
                       help=f"turns per round at most (mdpsim's -L; default {DEFAULT_HORIZON})")
    serve.add_argument("--seed", type=_seed, default=0)
    add_server_options(serve, log="mdpsim-results.jsonl", max_message=4 << 20)
    serve.add_argument("--format", choices=FORMATS, default="text")
    serve.set_defaults(func=run_serve)

    client = commands.add_parser("client")
    add_server_address(client)
    client.add_argument("files", nargs="+", metavar="FILE", help="the domain and problem files")
    client.add_argument("--problem", help="which problem, when the files hold several")
    client.add_argument("--policy", choices=POLICIES, default="random")
    client.add_argument("--seed", type=_seed, default=0)
    client.add_argument("--name", default="pddltools", help="the client name the server logs")
    client.add_argument("--wait", type=number_option("the wait", above=0, high=LARGEST), default=600.0,
                        help="seconds to wait for any one message of the server (default 600)")
    client.add_argument("--format", choices=FORMATS, default="text")
    client.set_defaults(func=run_client)

    score = commands.add_parser("score")
    score.add_argument("log", metavar="LOG")
    score.add_argument("--by", choices=("successes", "reward"), default="successes",
                       help="rank by successful rounds (the goal-oriented ranking, default) or by mean reward; "
                            "ties are broken by time")
    score.add_argument("--format", choices=FORMATS, default="text")
    score.set_defaults(func=run_score)


def _emit(diagnostics: Sequence[Diagnostic], output: str, command: str, files: list[str]) -> int:
    """Diagnostics that stopped `command`; its exit status."""
    if output == "json":
        mine = [d for d in diagnostics if d.span is not None]
        rest = [d for d in diagnostics if d.span is None]
        entries = placed([(path, "ppddl") for path in files], mine)
        entries += [file_entry(None, None, rest, ok=False)] if rest else []
        print_json(envelope(command, entries, {"files": len(files)}))
    else:
        render_rich(list(diagnostics), stderr_console())
    return status_of(list(diagnostics))


def _summary(files: list[str]) -> list[dict[str, Any]]:
    return placed([(path, "ppddl") for path in files], [])


def run_simulate(args: argparse.Namespace) -> int:
    from pddltools.ppddl.simulation import load_task, run_rounds

    command = "ppddl simulate"
    try:
        task = load_task(args.files, args.problem)
        result = run_rounds(task, args.policy, args.rounds, args.seed, args.horizon)
    except Error as exc:
        return _emit(exc.diagnostics, args.format, command, args.files)
    except RecursionError:
        return _emit([error("E941", "the task nests too deeply to simulate")], args.format, command, args.files)
    low, high = result.interval
    if args.format == "json":
        print_json(envelope(command, _summary(args.files), {"files": len(args.files), "rounds": len(result.rounds),
                                                           "mean": result.mean}, **result.to_json()))
        return ExitCode.OK
    for number, item in enumerate(result.rounds, 1):
        print(f"round {number:>3}: {float(item.reward):.4f} ({item.turns} turns, {item.ended})")
    print(f"{result.problem}: mean reward {result.mean:.4f} (95% CI {low:.4f} .. {high:.4f}), success rate "
          f"{result.success_rate:.2%} over {len(result.rounds)} rounds (policy {args.policy}, seed {args.seed}, "
          f"horizon {args.horizon})")
    return ExitCode.OK


def _tasks(files: list[str], skipped: list[Diagnostic]) -> dict[str, Any]:
    """Every problem the files define, with its domain; a problem that cannot be loaded is skipped."""
    from pddltools.pddl import ast
    from pddltools.ppddl.ast import PPDDLProblem
    from pddltools.ppddl.simulation import read_definitions, task_of

    definitions: list[tuple[Any, str]] = []
    for path in files:
        try:
            definitions += [(d, path) for d in read_definitions(path)]
        except Error as exc:
            skipped.extend(exc.diagnostics)
    domains = {d.name: (d, p) for d, p in definitions if isinstance(d, ast.Domain)}
    tasks: dict[str, Any] = {}
    for node, path in definitions:
        if not isinstance(node, ast.Problem | PPDDLProblem):
            continue
        problem = node.problem if isinstance(node, PPDDLProblem) else node
        found = domains.get(problem.domain)
        if found is None:
            skipped.append(error("E943", f"problem {problem.name} is of domain {problem.domain}, which no file "
                                 "given defines: not served", problem.span))
            continue
        try:
            tasks[problem.name] = task_of(found[0], node, found[1], path)
        except Error as exc:
            skipped.extend(exc.diagnostics)
    return tasks


def run_serve(args: argparse.Namespace) -> int:
    from pddltools.ppddl.server import MdpsimServer, ServerConfig
    from pddltools.serve_command import print_listening
    from pddltools.serving import ResultsLog, serve_until_signalled

    command = "ppddl serve"
    skipped: list[Diagnostic] = []
    tasks = _tasks(args.files, skipped)
    if not tasks:
        missing = error("E943", "no problem of the files given can be served (give the domain and problem files)")
        return _emit([*skipped, missing], args.format, command, args.files)
    try:
        results = ResultsLog(args.log)
    except OSError as exc:
        return _emit([error("E001", f"cannot open results log {args.log}: {exc}")], args.format, command, [])
    if skipped and args.format == "text":
        render_rich(skipped, stderr_console())
    logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    config = ServerConfig(rounds=args.rounds, time_ms=args.time, turns=args.turns, seed=args.seed,
                          **server_limits(args))

    async def main() -> int:
        server = MdpsimServer(tasks, config, results)
        names = sorted(tasks)

        def announce(port: int) -> None:
            print_listening(args.format, command, _summary(args.files), len(args.files), ("problems", names), skipped,
                            (args.host, port), args.log, args.rounds,
                            f"{args.time} ms per session, {args.turns} turns per round", time_ms=args.time,
                            turns=args.turns)

        try:
            await serve_until_signalled(server, args.host, args.port, results, announce)
        except InputError as exc:
            return _emit(exc.diagnostics, args.format, command, [])
        return ExitCode.OK

    return asyncio.run(main())


def run_client(args: argparse.Namespace) -> int:
    from pddltools.ppddl.client import Client, ClientError
    from pddltools.ppddl.simulation import load_task

    command = "ppddl client"
    try:
        task = load_task(args.files, args.problem)
    except Error as exc:
        return _emit(exc.diagnostics, args.format, command, args.files)
    client = Client(task, args.policy, args.name, args.seed, args.wait)
    try:
        result = asyncio.run(client.play(args.host, args.port))
    except ClientError as exc:
        return _emit(exc.diagnostics, args.format, command, [])
    except Error as exc:
        return _emit(exc.diagnostics, args.format, command, args.files)
    except OSError as exc:
        return _emit([error("E003", f"cannot connect to {args.host}:{args.port}: {exc}")], args.format, command, [])
    if args.format == "json":
        played = result.to_json()
        print_json(envelope(command, _summary(args.files), {"files": len(args.files), "rounds": len(result.rounds),
                                                           "mean": result.mean}, **played))
    else:
        for item in result.rounds:
            print(f"round {item.round:>3}: {item.reward:.4f} ({item.turns} turns"
                  + (", goal" if item.goal else "") + (f", {item.error}" if item.error else "") + ")")
        end = result.end
        average = f", metric-average {end.metric_average:g}" if end and end.metric_average is not None else ""
        print(f"{result.problem}: session {result.session_id}, {len(result.rounds)} rounds, mean reward "
              f"{result.mean:.4f}, {sum(r.goal for r in result.rounds)} reached the goal{average}"
              + ("" if end else " (no end-session)"))
    return ExitCode.OK if result.end is not None else ExitCode.FINDINGS


def run_score(args: argparse.Namespace) -> int:
    from pddltools.ppddl.ippc import read_records, score

    command = "ppddl score"
    try:
        clients = score(read_records(args.log), args.by)
    except Error as exc:
        return _emit(exc.diagnostics, args.format, command, [args.log])
    if args.format == "json":
        print_json(envelope(command, placed([(args.log, "results-log")], []),
                            {"files": 1, "clients": len(clients)}, by=args.by, clients=[c.to_json() for c in clients]))
        return ExitCode.OK
    for rank, client in enumerate(clients, 1):
        print(f"{rank}. client {client.client}: {client.successes} successful rounds, reward {client.reward:.3f}, "
              f"time {client.time_ms / 1000:.1f} s")
        for item in client.problems:
            success_time = "" if item.success_time_ms is None else f", {item.success_time_ms:.0f} ms per success"
            print(f"  {item.problem:<40} success {item.successes:>3}/{item.rounds:<3} ({item.success_rate:6.1%})  "
                  f"mean reward {item.mean_reward:>10.3f}  time {item.time_ms / 1000:.1f} s{success_time}")
    return ExitCode.OK

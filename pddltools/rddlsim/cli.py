"""`pddltools rddl simulate|serve|client|score`: thin commands over the simulator and the protocol.

Exit codes: 0 done, 1 the simulation or session failed (a model error, a server that broke off),
2 bad usage or unreadable input. `--format json` prints `pddltools.envelope`'s envelope on stdout (for
`serve`, one line once the port is bound), the command's own fields beside `files`; logs go to stderr.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from pathlib import Path
from typing import Any

from pddltools.cli_options import LARGEST, add_server_address, add_server_options, number_option, server_limits
from pddltools.consoles import stderr_console
from pddltools.diagnostics import Diagnostic, Error, InputError, render_rich
from pddltools.envelope import envelope, file_entry, placed, print_json
from pddltools.exit_codes import ExitCode, status_of
from pddltools.rddl.loading import collect

TYPE_CHECKING = False  # typing's flag (mypy reads the name): argparse only for the annotations
if TYPE_CHECKING:
    import argparse

FORMATS = ("text", "json")


def register(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add `simulate`, `serve`, `client` and `score` to the `rddl` group's sub-parsers."""
    simulate = commands.add_parser("simulate")
    simulate.add_argument("domain", metavar="DOMAIN", help="the domain file (or a file holding both)")
    simulate.add_argument("instance", metavar="INSTANCE", nargs="?",
                          help="the instance file (leave it out when DOMAIN holds the instance too)")
    simulate.add_argument("--instance-name", help="which instance, when the file holds several")
    _policy_options(simulate)
    simulate.add_argument("--rounds", type=_positive, default=30)
    simulate.add_argument("--format", choices=FORMATS, default="text")
    simulate.set_defaults(func=run_simulate)

    serve = commands.add_parser("serve")
    serve.add_argument("folders", nargs="+", metavar="FOLDER")
    serve.add_argument("--rounds", type=_positive, default=30)
    serve.add_argument("--timeout", type=number_option("the timeout", above=0, high=LARGEST),
                       default=1080.0, help="seconds per session (default 1080)")
    serve.add_argument("--seed", type=number_option("the seed", whole=True, low=-LARGEST, high=LARGEST), default=0)
    add_server_options(serve, log="rddlsim-results.jsonl", max_message=1 << 20)
    serve.add_argument("--format", choices=FORMATS, default="text")
    serve.set_defaults(func=run_serve)

    client = commands.add_parser("client")
    add_server_address(client)
    client.add_argument("instance", metavar="INSTANCE", help="the instance name to ask for")
    _policy_options(client)
    client.add_argument("--name", default="pddltools", help="the client name the server logs")
    client.add_argument("--rddl", nargs="*", default=[], metavar="PATH",
                        help="files or folders with what the server's task leaves out (non-fluents)")
    client.add_argument("--format", choices=FORMATS, default="text")
    client.set_defaults(func=run_client)

    score = commands.add_parser("score")
    score.add_argument("log", metavar="LOG")
    score.add_argument("--rddl", nargs="*", default=None, metavar="PATH",
                       help="RDDL files or folders to run missing baselines on (default: the served folders "
                            "the log names)")
    score.add_argument("--rules", choices=("ippc2011", "ippc2014", "ippc2023"), default="ippc2023",
                       help="the competition's rules: ippc2011 and ippc2014 take RDDLSim's random policy as the "
                            "random baseline, ippc2023 pyRDDLGym's random agent (default ippc2023)")
    score.add_argument("--baseline-rounds", type=_positive, default=30)
    score.add_argument("--seed", type=number_option("the seed", whole=True, low=-LARGEST, high=LARGEST), default=0)
    score.add_argument("--format", choices=FORMATS, default="text")
    score.set_defaults(func=run_score)


def _policy_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--policy", default="random",
                        help="random (pyRDDLGym's random agent), rddlsim-random (RDDLSim's), noop or "
                             "MODULE:CLASS (default random)")
    parser.add_argument("--seed", type=number_option("the seed", whole=True, low=-LARGEST, high=LARGEST), default=0)


_positive = number_option("the count", whole=True, low=1, high=LARGEST)


#: A file a command read, as the envelope's `placed` takes it: path and kind.
Read = tuple[str, str | None]


def _entries(files: list[Read], diagnostics: tuple[Diagnostic, ...] | list[Diagnostic]) -> list[dict[str, Any]]:
    """The envelope's `files`: each file read with the diagnostics found in it (a file the command read on
    its way, such as a sibling RDDL file or a folder's for a baseline, gets its own entry); diagnostics
    that belong to no file (a policy that does not load, a server that cannot be reached) in an entry
    without a path, as the envelope has them for bad usage."""
    read = {os.path.abspath(path) for path, _ in files}
    more = {d.span.file: None for d in diagnostics if d.span is not None and os.path.abspath(d.span.file) not in read}
    files = [*files, *((path, "rddl") for path in more)]

    def located(d: Diagnostic) -> bool:
        return d.span is not None or any(path in d.message for path, _ in files)

    mine = [d for d in diagnostics if located(d)]
    rest = [d for d in diagnostics if d not in mine]
    entries = placed(files, mine)
    return entries + ([file_entry(None, None, rest, ok=False)] if rest else [])


def _emit(diagnostics: tuple[Diagnostic, ...] | list[Diagnostic], output: str, command: str,
          files: list[Read] | None = None) -> None:
    """Diagnostics that stopped `command`: in JSON, the envelope with them in the entries of `files`."""
    if output == "json":
        entries = _entries(files or [], diagnostics)
        print_json(envelope(command, entries, {"files": len(files or [])}))
    else:
        render_rich(list(diagnostics), stderr_console())


def _failure(exc: Error, output: str, command: str, files: list[Read] | None = None) -> int:
    _emit(exc.diagnostics, output, command, files)
    return status_of(exc.diagnostics)


def _log_to_stderr() -> None:
    logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")


# ---------------------------------------------------------------------------------------------------


def run_simulate(args: argparse.Namespace) -> int:
    from pddltools.rddl_simulation.problems import load_problem
    from pddltools.rddlsim.offline import run_rounds

    command = "rddl simulate"
    files: list[Read] = [(path, "rddl") for path in dict.fromkeys([args.domain, args.instance or args.domain])]
    try:
        problem = load_problem(args.domain, args.instance or args.domain, args.instance_name)
        result = run_rounds(problem, args.policy, args.rounds, args.seed)
    except Error as exc:
        return _failure(exc, args.format, command, files)
    except RecursionError:
        from pddltools.diagnostics import error

        _emit([error("R106", "expressions are nested too deeply to simulate")], args.format, command, files)
        return ExitCode.FINDINGS
    if args.format == "json":
        print_json(envelope(command, _entries(files, []), {"files": len(files), "rounds": len(result.rewards),
                                                           "mean": result.mean}, **result.to_json()))
        return ExitCode.OK
    for number, reward in enumerate(result.rewards, 1):
        print(f"round {number:>3}: {reward:.4f}")
    print(f"{result.instance}: mean {result.mean:.4f}, std {result.std:.4f} over {len(result.rewards)} rounds "
          f"(policy {args.policy}, seed {args.seed}, horizon {result.horizon})")
    return ExitCode.OK


def run_serve(args: argparse.Namespace) -> int:
    from pddltools.rddl_simulation.problems import find_problems
    from pddltools.rddlsim.server import RDDLSimServer, ResultsLog, ServerConfig
    from pddltools.serve_command import print_listening
    from pddltools.serving import serve_until_signalled

    command = "rddl serve"
    skipped: list[Diagnostic] = []
    try:
        files: list[Read] = [(str(path), "rddl") for path in collect(args.folders)]
        problems = find_problems(args.folders, skipped)
        results = ResultsLog(args.log)
    except Error as exc:
        return _failure(exc, args.format, command)
    except OSError as exc:
        from pddltools.diagnostics import error

        _emit([error("E001", f"cannot open results log {args.log}: {exc}")], args.format, command)
        return ExitCode.USAGE
    if skipped and args.format == "text":
        render_rich(skipped, stderr_console())  # files that do not parse are left out; the others are served
    _log_to_stderr()
    folder = ",".join(str(Path(f).resolve()) for f in args.folders)
    config = ServerConfig(rounds=args.rounds, timeout=args.timeout, seed=args.seed, folder=folder,
                          **server_limits(args))

    async def main() -> int:
        server = RDDLSimServer(problems, config, results)
        unserved = server.prepare()
        skipped.extend(unserved)
        if unserved and args.format == "text":
            render_rich(unserved, stderr_console())
        if not server.problems:
            from pddltools.diagnostics import error

            _emit([*skipped, error("R300", "no instance of the folders can be simulated")], args.format, command,
                  files)
            return ExitCode.FINDINGS
        names = sorted(server.problems)

        def announce(port: int) -> None:
            print_listening(args.format, command, _entries(files, skipped), len(files), ("instances", names), skipped,
                            (args.host, port), args.log, args.rounds, f"{args.timeout:g} s per session",
                            timeout=args.timeout)

        try:
            await serve_until_signalled(server, args.host, args.port, results, announce)
        except InputError as exc:
            return _failure(exc, args.format, command)
        return ExitCode.OK

    return asyncio.run(main())


def run_client(args: argparse.Namespace) -> int:
    from pddltools.rddlsim.client import Client, ClientError

    command = "rddl client"
    client = Client(args.instance, args.policy, args.name, args.seed, args.rddl)
    try:
        result = asyncio.run(client.play(args.host, args.port))
    except ClientError as exc:
        return _failure(exc, args.format, command)
    except Error as exc:
        return _failure(exc, args.format, command)
    except OSError as exc:
        from pddltools.diagnostics import error

        _emit([error("E003", f"cannot connect to {args.host}:{args.port}: {exc}")], args.format, command)
        return ExitCode.USAGE
    if args.format == "json":
        # the task comes over the network: no file is read, unless --rddl supplies what it leaves out
        played = result.to_json()
        print_json(envelope(command, [], {"files": 0, "rounds": played["rounds_used"],
                                          "total_reward": played["total_reward"]}, **played))
    else:
        for item in result.rounds:
            print(f"round {item.round_num:>3}: {item.round_reward:.4f} ({item.turns_used} turns)")
        total = result.end.total_reward if result.end else sum(r.round_reward for r in result.rounds)
        print(f"{result.instance}: session {result.session_id}, {len(result.rounds)} rounds, total reward "
              f"{total:.4f}" + ("" if result.end else " (no session-end)"))
    return ExitCode.OK if result.end is not None else ExitCode.FINDINGS


def run_score(args: argparse.Namespace) -> int:
    from pddltools.rddlsim.ippc import read_records, score, simulated_baselines

    command = "rddl score"
    files: list[Read] = [(args.log, "results-log")]
    try:
        records = read_records(args.log)
        paths = args.rddl
        if paths is None:
            paths = sorted({p for r in records for p in str(r.get("folder", "")).split(",") if p})
        baseline = simulated_baselines(paths, args.baseline_rounds, args.seed) if paths else None
        clients, baselines = score(records, baseline, args.rules)
    except Error as exc:
        return _failure(exc, args.format, command, files)
    if args.format == "json":
        print_json(envelope(command, _entries(files, []), {
            "files": 1, "clients": len(clients), "instances": len({i.instance for c in clients for i in c.instances})},
            rules=args.rules, clients=[c.to_json() for c in clients], baselines=baselines))
        return ExitCode.OK
    for client in clients:
        print(f"client {client.client}")
        for item in client.instances:
            print(f"  {item.instance:<40} mean {item.mean:>10.3f}  base {item.base:>10.3f}  best {item.best:>10.3f}"
                  f"  score {item.score:.3f}")
        for domain, value in client.domains.items():
            print(f"  domain {domain:<33} score {value:.3f}")
        print(f"  overall score {client.overall:.3f}")
    return ExitCode.OK

"""`pddltools compile DOMAIN PROBLEM --target T -o OUTDIR` and `pddltools unmap OUTDIR PLAN`.

Exit codes: 0 done; 1 the task cannot be compiled as asked (a refusal, with its reason); 2 bad usage,
an unreadable or unparsable file, or an output folder with files in it and no `--force`.
"""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from rich.table import Table

from pddltools.compile.centralise import Privacy, centralise
from pddltools.compile.determinise import MODES, determinise
from pddltools.compile.errors import CompileError, compile_error
from pddltools.compile.pipeline import TARGETS, OnPass, Result, compile_task, removals
from pddltools.compile.planmap import PlanMap, format_plan, outcomes, to_json, unmap
from pddltools.compile.task import ParsedTask, compose
from pddltools.consoles import stderr_console, stdout_console
from pddltools.diagnostics import Diagnostic, Error, InputError, Source, error, render_rich
from pddltools.envelope import envelope, placed, print_json
from pddltools.exit_codes import ExitCode, status_of
from pddltools.mapddl.agents import factored_agents, read_agents
from pddltools.mapddl.ast import MADomain, MAProblem
from pddltools.mapddl.factored import in_context
from pddltools.pddl import ast
from pddltools.progress import in_words, progress_bar
from pddltools.reading import read_input_text, read_source

if TYPE_CHECKING:
    import argparse

    from rich.progress import Progress, TaskID

    from pddltools.validate.report import PlanReport

#: The target that only reads an MA-PDDL task centrally (CoDMAP's centralised reading), removing nothing.
CENTRALISED = "centralised"

#: Estimated actions from which a compilation is announced as large before it is made: IPC-2023
#: rubiks-cube's 12 actions become 48,408 and take most of a minute to compile and write.
LARGE = 10_000


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser(
        "compile", description="Write OUTDIR/domain.pddl, OUTDIR/problem.pddl and OUTDIR/plan-map.json: an equivalent "
                    "task without the features removed, and the map that turns its plans into the original's.")
    p.add_argument("domain", metavar="DOMAIN")
    p.add_argument("problem", metavar="PROBLEM", nargs="?")
    p.add_argument("agents", metavar="FILE", nargs="*",
                   help="a factored MA-PDDL task instead of DOMAIN PROBLEM: the files domain-AGENT.pddl and "
                        "problem-AGENT.pddl of every agent (or their folder), put together as one task")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--target", choices=(*TARGETS, CENTRALISED),
                       help="strips (no typing, no ADL), typed-strips, grounded-strips (STRIPS with costs, then "
                            "ground, as `pddltools ground` does), or centralised (an MA-PDDL task as one classical "
                            "task for all agents, nothing else removed; MA-PDDL is read so before any target)")
    which.add_argument("--remove", metavar="F1,F2", help="features to remove, by their check names")
    p.add_argument("--determinise", choices=MODES, metavar="MODE",
                   help="a FOND or PPDDL task as a classical one: all-outcomes (one action per outcome) or "
                        "most-likely (each action's most probable outcome); plans map back to (action, outcome)")
    p.add_argument("-o", "--output", required=True, metavar="OUTDIR", type=Path)
    p.add_argument("--force", action="store_true", help="overwrite the files of a non-empty OUTDIR")
    p.add_argument("--method", choices=("auto", "direct", "polynomial"), default="auto",
                   help="conditional effects: the direct split, the polynomial sequencing, or the smaller")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(func=run_compile)

    u = subparsers.add_parser("unmap", description="Read OUTDIR/plan-map.json and print PLAN as a plan of the "
                                          "original task, in IPC plan format.")
    u.add_argument("outdir", metavar="OUTDIR", type=Path)
    u.add_argument("plan", metavar="PLAN", type=Path)
    u.add_argument("--format", choices=("text", "json"), default="text")
    u.set_defaults(func=run_unmap)


def _fail(diagnostics: tuple[Diagnostic, ...], fmt: str, code: int, command: str,
          files: list[tuple[str, str | None]]) -> int:
    """Report what stopped `command`; in JSON, its envelope with the diagnostics in the entries of `files`."""
    if fmt == "json":
        print_json(envelope(command, placed(files, diagnostics), {"files": len(files)}))
    else:
        render_rich(diagnostics, stderr_console())
    return code


def run_compile(args: argparse.Namespace) -> int:
    given = [args.domain, *([args.problem] if args.problem is not None else []), *args.agents]
    agents = factored_agents(given)
    if isinstance(agents, str) or (agents is None and len(given) != 2):
        stderr_console().print(f"pddltools compile: {agents}" if isinstance(agents, str) else
                               "pddltools compile: give DOMAIN PROBLEM, or the files of a factored MA-PDDL task "
                               "(domain-AGENT.pddl and problem-AGENT.pddl of each agent, or their folder)",
                               markup=False)
        return ExitCode.USAGE
    if agents is not None:
        first = next(iter(agents.values()))
        args.domain, args.problem = str(first["domain"]), str(first["problem"])
    inputs: list[tuple[str, str | None]] = [(str(p), k) for pair in agents.values() for k, p in pair.items()] \
        if agents is not None else [(str(args.domain), "domain"), (str(args.problem), "problem")]
    if args.target is None and args.remove is None and args.determinise is None:
        stderr_console().print("pddltools compile: give --target, --remove or --determinise", markup=False)
        return ExitCode.USAGE
    read_domain: Any
    read_problem: Any
    try:
        if agents is not None:
            read_domain, read_problem = _joined(agents)
        else:
            read_domain, read_problem = _parse(args.domain, "domain"), _parse(args.problem, "problem")
            read_problem = in_context(read_domain, read_problem)
        domain, problem = _part(read_domain, ast.Domain, args.domain), _part(read_problem, ast.Problem, args.problem)
    except Error as exc:
        return _fail(exc.diagnostics, args.format, status_of(exc.diagnostics), "compile", inputs)
    outdir: Path = args.output
    privacy: tuple[ParsedTask, Privacy] | None = None
    try:
        _distinct_actions(domain)
        if isinstance(read_domain, MADomain):
            central, found = centralise(read_domain, read_problem if isinstance(read_problem, MAProblem) else problem)
            domain, problem = central.task.domain, central.task.problem
            privacy = central.task, found
        elif args.target == CENTRALISED:
            raise compile_error("E801", f"the centralised target reads MA-PDDL tasks (:agent, :private); {args.domain} "
                                "is not one: give another target", domain.span)
        weak, named = determinise(ParsedTask(domain, problem), args.determinise or "all-outcomes")
        if args.determinise is None and any(o.outcome is not None for o in weak.origins.values()):
            raise compile_error("E801", "the task has actions with several outcomes (oneof, probabilistic): "
                                "give --determinise all-outcomes or most-likely", domain.span)
        if args.determinise is not None:
            domain, problem = weak.task.domain, weak.task.problem
        remove = removals(args.target, args.remove.split(",") if args.remove else ()) \
            if args.target not in (None, CENTRALISED) or args.remove is not None else frozenset()
        if outdir.exists() and not outdir.is_dir():
            raise compile_error("E804", f"{outdir} is not a folder")
        if outdir.is_dir() and any(outdir.iterdir()) and not args.force:
            raise compile_error("E804", f"{outdir} has files in it; use --force to overwrite them")
        with progress_bar(stderr_console(), counted=False) as progress:
            spinner = progress.add_task("compiling")
            on_pass = _announcer(progress, spinner, len(domain.actions))
            result = compile_task(ParsedTask(domain, problem), remove, strict=args.target not in (None, CENTRALISED),
                                  method=args.method, on_pass=on_pass, ground=args.target == "grounded-strips")
            if args.determinise is not None:
                result = replace(result, origins=compose(weak.origins, result.origins))
            progress.update(spinner, description=f"writing {outdir}")
            determinised = (weak.task, named) if args.determinise is not None else None
            written = _write(result, args, outdir, determinised, privacy, agents)
    except CompileError as exc:
        return _fail(exc.diagnostics, args.format, status_of(exc.diagnostics), "compile", inputs)
    if written is not None:
        refusal = compile_error("E804", f"cannot write to {outdir}: {written}")
        return _fail(refusal.diagnostics, args.format, ExitCode.USAGE, "compile", inputs)
    summary = _summary(result, outdir)
    if args.format == "json":
        totals = {"files": len(inputs), "actions": summary["actions"], "passes": len(summary["passes"]),
                  "seconds": summary["seconds"]}
        print_json(envelope("compile", placed(inputs, ()), totals, **summary), indent=1)
    else:
        _print_summary(result, summary)
    return ExitCode.OK


def _distinct_actions(domain: ast.Domain) -> None:
    """Refuse a domain defining an action twice (E211, as `check` says): a plan names actions by name, so
    its steps could not be mapped back to the right one (fond-domains' earth-observation has two `slew`)."""
    seen: dict[str, ast.Structure] = {}
    for structure in domain.structures:
        name = getattr(structure, "name", None)
        if not isinstance(name, str) or isinstance(structure, ast.DerivedPredicate):
            continue
        first = seen.setdefault(name, structure)
        if first is not structure:
            where = f" (first at line {first.span.line})" if first.span is not None else ""
            raise compile_error("E211", f"action {name} is defined twice{where}: a plan could not say which one "
                                "it takes; rename one", structure.span)


def _announcer(progress: Progress, spinner: TaskID, actions: int) -> OnPass:
    """Names each pass on the progress line, and warns on stderr (bar or not) before a pass that is
    estimated to make a large task, with the estimate in words."""
    def on_pass(name: str, estimate: int | None) -> None:
        progress.update(spinner, description=f"compiling: {name.replace('_', ' ')}")
        if estimate is not None and estimate >= LARGE:
            words = in_words(estimate)
            progress.console.print(
                f"warning: the {name.replace('_', ' ')} pass will make "
                f"{words if words.startswith('about') else 'about ' + words} actions of the domain's {actions}; "
                "compiling and writing them may take minutes", markup=False)
    return on_pass


def _joined(agents: dict[str, dict[str, Path]]) -> tuple[MADomain, MAProblem]:
    """The factored task's files put together (its unfactored form); raises the findings that stop it:
    files that do not parse, or that do not fit together (E931-E934)."""
    read = read_agents(agents)
    if read.joined is None or read.errors:
        raise Error(read.errors or read.findings)
    return read.joined.domain, read.joined.problem


def _parse(path: str, kind: Literal["domain", "problem"]) -> Any:
    """A domain or problem file as its language reads it (a FOND domain, a PPDDL or MA-PDDL problem)."""
    from pddltools import dialects

    return dialects.parse(read_source(path), kind)


def _part(node: Any, kind: type, path: str) -> Any:
    """The PDDL domain or problem a parsed file holds."""
    from pddltools import dialects

    found = next((part for part in dialects.pddl_parts(node) if isinstance(part, kind)), None)
    if found is None:
        message = (f"expected a domain file, but {path} holds no PDDL domain" if kind is ast.Domain
                   else f"expected a problem file, but {path} holds no PDDL problem")
        raise Error([error("E110", message, getattr(node, "span", None))])
    return found


def _write(result: Result, args: argparse.Namespace, outdir: Path,
           weak: tuple[ParsedTask, dict[str, str]] | None = None,
           privacy: tuple[ParsedTask, Privacy] | None = None,
           agents: dict[str, dict[str, Path]] | None = None) -> OSError | None:
    """Write the compiled task and its plan map (and the determinised task, for checking weak plans; the
    centralised task and the agents' privacy, for checking a joint plan); the error if that failed."""
    target = args.target or (f"remove:{args.remove}" if args.remove else f"determinise:{args.determinise}")
    plan_map = to_json(result, str(Path(args.domain).resolve()), str(Path(args.problem).resolve()), target)
    try:
        outdir.mkdir(parents=True, exist_ok=True)
        if weak is not None:
            task, named = weak
            (outdir / "determinised-domain.pddl").write_text(str(task.domain) + "\n", encoding="utf-8")
            (outdir / "determinised-problem.pddl").write_text(str(task.problem) + "\n", encoding="utf-8")
            plan_map["determinised"] = {"domain": str((outdir / "determinised-domain.pddl").resolve()),
                                        "problem": str((outdir / "determinised-problem.pddl").resolve()),
                                        "actions": named}
        if privacy is not None:
            central, found = privacy
            (outdir / "centralised-domain.pddl").write_text(str(central.domain) + "\n", encoding="utf-8")
            (outdir / "centralised-problem.pddl").write_text(str(central.problem) + "\n", encoding="utf-8")
            plan_map["multi_agent"] = {"domain": str((outdir / "centralised-domain.pddl").resolve()),
                                       "problem": str((outdir / "centralised-problem.pddl").resolve()),
                                       **found.to_json()}
            if agents is not None:
                plan_map["multi_agent"]["factored"] = {a: {k: str(Path(p).resolve()) for k, p in pair.items()}
                                                       for a, pair in agents.items()}
        (outdir / "domain.pddl").write_text(str(result.task.domain) + "\n", encoding="utf-8")
        (outdir / "problem.pddl").write_text(str(result.task.problem) + "\n", encoding="utf-8")
        (outdir / "plan-map.json").write_text(json.dumps(plan_map, indent=1) + "\n", encoding="utf-8")
    except OSError as exc:
        return exc
    return None


def _summary(result: Result, outdir: Path) -> dict[str, Any]:
    return {"outdir": str(outdir), "domain": str(outdir / "domain.pddl"), "problem": str(outdir / "problem.pddl"),
            "plan_map": str(outdir / "plan-map.json"), "problem_specific": result.problem_specific,
            "requirements": [r.name for r in result.task.domain.requirements],
            "actions": len(result.task.domain.actions), "seconds": round(result.seconds, 6),
            "passes": [p.to_json() for p in result.passes]}


def _print_summary(result: Result, summary: dict[str, Any]) -> None:
    console = stdout_console()
    console.width = max(console.width, 120)  # the table's seven columns, even when piped
    table = Table("pass", "actions", "predicates", "init atoms", "domain bytes", "problem bytes", "ms")
    for p in result.passes:
        table.add_row(p.name, f"{p.actions_before} → {p.actions_after}",
                      f"{p.predicates_before} → {p.predicates_after}", f"{p.facts_before} → {p.facts_after}",
                      str(p.domain_bytes), str(p.problem_bytes), f"{p.seconds * 1000:.1f}")
    console.print(table)
    for p in result.passes:
        for note in p.notes:
            console.print(f"{p.name}: {note}", markup=False)
    kind = "problem-specific (the domain names this problem's objects)" if result.problem_specific \
        else "domain-level (the domain names no object of this problem)"
    console.print(f"{kind}; requirements {' '.join(summary['requirements'])}", markup=False)
    console.print(f"wrote {summary['domain']}, {summary['problem']}, {summary['plan_map']} "
                  f"in {result.seconds:.3f} s", markup=False)


def run_unmap(args: argparse.Namespace) -> int:
    """The original plan on stdout; when it is not a valid plan of the original task, validate's report
    of why on stderr (in the JSON, `report`) and exit 1, as `pddltools validate` would."""
    inputs: list[tuple[str, str | None]] = [(str(args.outdir / "plan-map.json"), "plan-map"),
                                            (str(args.plan), "plan")]
    try:
        plan_map = PlanMap.load(args.outdir / "plan-map.json")
        try:
            text = read_input_text(args.plan, f"the plan {args.plan}", code="E807")
        except InputError as exc:
            raise CompileError(exc.diagnostics) from exc
        steps = unmap(plan_map, text)
        chosen = outcomes(plan_map, text)
    except CompileError as exc:
        return _fail(exc.diagnostics, args.format, status_of(exc.diagnostics), "unmap", inputs)
    weak, multi = plan_map.data.get("determinised"), plan_map.data.get("multi_agent")
    agents: list[str | None] = _agents(steps, multi) if isinstance(multi, dict) else [None] * len(steps)
    plan = format_plan(steps, [f"agent {a}" if a is not None else None for a in agents])
    privacy = _privacy(steps, agents, multi) if isinstance(multi, dict) else []
    if isinstance(weak, dict):  # a weak plan: each step with the outcome it relies on, on the determinised task
        named = weak.get("actions", {})
        relied = format_plan([(named.get(f"{name}/{o}", name) if o is not None else name, a)
                              for (name, a), o in zip(steps, chosen, strict=True)])
        report, unjudged = _judge(weak, relied, f"{args.plan}, as a weak plan")
    elif isinstance(multi, dict):  # the joint plan, on the centralised task
        report, unjudged = _judge(multi, plan, f"{args.plan}, as a joint plan")
    else:
        report, unjudged = _judge(plan_map.data.get("original") or {}, plan, f"{args.plan}, mapped back")
    value = _value(report)
    if args.format == "json":
        files = placed(inputs, report.diagnostics if report is not None else ())
        files[1]["ok"] = report is None or report.valid
        extra: dict[str, Any] = {}
        if isinstance(multi, dict):
            per_agent: dict[str, list[dict[str, Any]]] = {}
            for n, ((name, a), agent) in enumerate(zip(steps, agents, strict=True), 1):
                if agent is not None:
                    per_agent.setdefault(agent, []).append({"step": n, "action": name, "args": list(a)})
            extra = {"agents": per_agent, "privacy": privacy}
        print_json(envelope("unmap", files, {"files": len(files), "steps": len(steps)},
                            steps=[{"action": name, "args": list(a), **({"outcome": o} if o is not None else {}),
                                    **({"agent": g} if g is not None else {})}
                                   for (name, a), o, g in zip(steps, chosen, agents, strict=True)],
                            original=plan_map.data.get("original"),
                            valid=report.valid if report is not None else None, value=value,
                            report=report.to_json() if report is not None else None, not_validated=unjudged,
                            **extra),
                   indent=1)
    else:
        sys.stdout.write(plan)
        if value is not None:
            where = "as a weak plan" if isinstance(weak, dict) else \
                "as a joint plan" if isinstance(multi, dict) else "on the original task"
            sys.stdout.write(f"; cost = {value} ({where})\n")
        err = stderr_console()
        if report is not None and not report.valid:
            from pddltools.validate.render import print_report  # validate's own words for a verdict

            print_report(err, report)
        elif unjudged:
            err.print(f"pddltools unmap: the plan was not validated: {unjudged}", markup=False)
        for line in privacy:
            err.print(f"pddltools unmap: {line}", markup=False)
    return ExitCode.FINDINGS if report is not None and not report.valid else ExitCode.OK


def _agents(steps: list[tuple[str, tuple[str, ...]]], multi: dict[str, Any]) -> list[str | None]:
    """Each step's agent in a centralised MA-PDDL task: its first argument, for an action with an agent."""
    agent_types = multi.get("agent_types", {})
    return [a[0] if name in agent_types and a else None for name, a in steps]


def _privacy(steps: list[tuple[str, tuple[str, ...]]], agents: list[str | None], multi: dict[str, Any]) -> list[str]:
    """Steps of an agent that name an object private to another agent (the centralised task allows them;
    the agents, each knowing its own private objects only, could not execute them)."""
    owner = {o: agent for agent, objects in multi.get("private_objects", {}).items() for o in objects}
    found = []
    for n, ((name, args), agent) in enumerate(zip(steps, agents, strict=True), 1):
        for arg in args:
            if agent is not None and owner.get(arg, agent) != agent:
                found.append(f"step {n} ({name} {' '.join(args)}) of agent {agent} names {arg}, "
                             f"private to {owner[arg]}")
    return found


def _judge(original: Any, plan: str, name: str) -> tuple[PlanReport | None, str | None]:
    """validate's report on the plan, against the task whose files `original` names (the original, or
    for a weak plan the determinised task), or why there is none: the files were moved or no longer parse."""
    from pddltools.validate import GroundedTask, validate_plan

    try:
        task = GroundedTask.load(original["domain"], original["problem"])
    except Error as exc:
        reason = exc.diagnostics[0].message if exc.diagnostics else str(exc)
        return None, f"the original task cannot be loaded ({reason})"
    except (KeyError, TypeError):
        return None, "the plan map does not name the original domain and problem"
    return validate_plan(task, Source(plan, name)), None


def _value(report: PlanReport | None) -> int | float | None:
    """The plan's value on the original task: the original costs, which the compiled task may have dropped."""
    if report is None or not report.valid or report.value is None:
        return None
    value = report.value
    return int(value) if value == int(value) else float(value)

"""CoDMAP-2015 factored against unfactored: each domain's first problem written as factored files (one
domain and one problem per agent, as CoDMAP distributed them), both forms compiled by `pddltools compile
--target centralised`, the two centralised tasks compared, solved by Fast Downward, and each plan
validated on both tasks by `pddltools unmap` and VAL.

    python benchmarks/codmap_factored.py [--only depot,logistics00,rovers] [--keep DIR] [--timeout 60]

The fetched copy of universal-pddl-parser-multiagent (under /work/.mirror) holds CoDMAP's unfactored
files only; `factor` below writes the factored ones from them with pddltools' own AST and printer:

- the agents are the objects of a type some action's `:agent` has (or of a subtype);
- an agent's domain: the public types, constants and predicates, its own private ones in `(:private ...)`
  groups naming no agent, and the actions its type executes, the agent their first parameter;
- an agent's problem: the public objects, its own private objects in a `(:private ...)` group, the initial
  atoms that name no other agent's private object nor another agent's private predicate, and the goal.

Prints a line per task and the totals; exits 0 (a measurement). Nothing of the mirror is kept unless
`--keep` names a folder for the factored files.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from codmap_centralised import add_run_options, codmap15  # noqa: E402
from fond_weak_plans import search  # noqa: E402

from pddltools import dialects  # noqa: E402
from pddltools.mapddl.ast import MADomain, MAProblem, PrivateNames, PrivatePredicates  # noqa: E402
from pddltools.mapddl.dialect import centralised_domain  # noqa: E402
from pddltools.pddl import ast  # noqa: E402
from pddltools.reading import read_source  # noqa: E402

MULTI_AGENT = {":multi-agent", ":unfactored-privacy", ":factored-privacy"}


def _parents(domain: ast.Domain) -> dict[str, str]:
    return {t.name: t.type.name for t in domain.types if isinstance(t.type, ast.TypeName)}


def _is_a(kind: str, ancestor: str, parents: dict[str, str]) -> bool:
    while True:
        if kind == ancestor:
            return True
        if kind not in parents:
            return ancestor == "object"
        kind = parents[kind]


def _type_name(node: ast.TypedName) -> str:
    return node.type.name if isinstance(node.type, ast.TypeName) else "object"


def factor(domain: MADomain, problem: MAProblem | ast.Problem) -> dict[str, tuple[str, str]]:
    """{agent: (its domain file's text, its problem file's text)}."""
    if isinstance(problem, ast.Problem):  # a problem with no private object is plain PDDL
        problem = MAProblem(problem)
    parents = _parents(domain.domain)
    agent_types = {_type_name(a.agent) for a in domain.agents}
    objects = {o.name: _type_name(o) for o in problem.problem.objects}
    agents = [name for name, kind in objects.items() if any(_is_a(kind, t, parents) for t in agent_types)]
    owner = {n.name: g.agent for g in (*domain.private_constants, *problem.private_objects) for n in g.names}
    private_of: dict[str, tuple[str, int | None]] = {}  # predicate -> (agent type, the agent's position)
    for group in domain.private_predicates:
        assert group.agent is not None
        for p in group.predicates:
            positions = [i for i, v in enumerate(p.parameters) if v.name == group.agent.name]
            private_of[p.name] = (_type_name(group.agent), positions[0] if positions else None)
    central = centralised_domain(domain)
    agent_of = {a.action: _type_name(a.agent) for a in domain.agents}
    requirements = (*(r for r in domain.domain.requirements if r.name not in MULTI_AGENT),
                    ast.Requirement(":factored-privacy"))
    files = {}
    for agent in agents:
        kind = objects[agent]
        mine = [p for group in domain.private_predicates for p in group.predicates
                if _is_a(kind, private_of[p.name][0], parents)]
        public = [p for p in domain.domain.predicates if p.name not in private_of]
        own_constants = tuple(c for c in domain.domain.constants if owner.get(c.name) == agent)
        constants = tuple(c for c in domain.domain.constants if c.name not in owner) + own_constants
        actions = tuple(s for s in central.structures
                        if isinstance(s, ast.Action) and _is_a(kind, agent_of.get(s.name, "object"), parents))
        factored_domain = MADomain(
            replace(domain.domain, requirements=requirements, constants=constants, predicates=(*public, *mine),
                    structures=actions),
            private_predicates=(PrivatePredicates(None, tuple(mine)),) if mine else (),
            private_constants=(PrivateNames(None, own_constants),) if own_constants else ())

        own_objects = tuple(o for o in problem.problem.objects if owner.get(o.name) == agent)
        visible = tuple(o for o in problem.problem.objects if o.name not in owner) + own_objects
        init = tuple(a for a in problem.problem.init if _known(a, agent, kind, owner, private_of, parents))
        factored_problem = MAProblem(
            replace(problem.problem, objects=visible, init=init),
            private_objects=(PrivateNames(None, own_objects),) if own_objects else ())
        files[agent] = (str(factored_domain), str(factored_problem))
    return files


def _known(atom: ast.Node, agent: str, kind: str, owner: dict[str, str | None],
           private_of: dict[str, tuple[str, int | None]], parents: dict[str, str]) -> bool:
    """Whether an initial atom is in the problem of `agent` (of type `kind`): it names no other agent's
    private object, and a private predicate only of its own (the agent where the predicate names it)."""
    if any(owner.get(n.name, agent) != agent for n in atom.walk() if isinstance(n, ast.Constant)):
        return False  # an atom or a function's value naming another agent's private object
    body = atom.body if isinstance(atom, ast.Not) else atom
    if not isinstance(body, ast.Atom):
        return True
    names = [t.name for t in body.args if isinstance(t, ast.Constant)]
    if body.predicate in private_of:
        private_kind, position = private_of[body.predicate]
        if not _is_a(kind, private_kind, parents):
            return False
        return position is None or names[position] == agent
    return True


def _task_of(outdir: Path) -> tuple[object, ...]:
    """The centralised task written by `compile --target centralised`, as sets (order-free)."""
    domain = dialects.parse(read_source(outdir / "centralised-domain.pddl"))
    problem = dialects.parse(read_source(outdir / "centralised-problem.pddl"))
    return (frozenset(domain.types), frozenset(domain.constants), frozenset(domain.predicates),
            frozenset(domain.functions), frozenset(domain.structures), frozenset(problem.objects),
            frozenset(problem.init), problem.goal, frozenset(r.name for r in domain.requirements))


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pddltools", *args], capture_output=True, text=True, check=False)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", default="depot,logistics00,rovers,driverlog,satellites,zenotravel",
                        help="comma-separated domain folders ('all': every one)")
    parser.add_argument("--keep", type=Path, help="write the factored files here (default: a temporary folder)")
    add_run_options(parser)
    args = parser.parse_args()
    totals = {"tasks": 0, "factored": 0, "equal": 0, "solved": 0, "valid": 0, "val": 0}
    with codmap15(args.corpus) as (corpus, scratch):
        wanted = None if args.only == "all" else set(args.only.split(","))
        for folder in sorted(p for p in corpus.iterdir() if p.is_dir()):
            if wanted is not None and folder.name not in wanted:
                continue
            totals["tasks"] += 1
            domain_file = folder / "domain" / "domain.pddl"
            problem_file = sorted((folder / "problems").glob("*.pddl"))[0]
            name = f"{folder.name} {problem_file.name}"
            work = scratch / "work" / folder.name
            factored = (args.keep or scratch / "factored") / folder.name / problem_file.stem
            factored.mkdir(parents=True, exist_ok=True)
            files = factor(dialects.parse(read_source(domain_file)), dialects.parse(read_source(problem_file)))
            for agent, (domain_text, problem_text) in files.items():
                (factored / f"domain-{agent}.pddl").write_text(domain_text, encoding="utf-8")
                (factored / f"problem-{agent}.pddl").write_text(problem_text, encoding="utf-8")
            checked = _run("check", str(factored))
            unfactored_out, factored_out = work / "unfactored", work / "factored"
            made = [_run("compile", str(domain_file), str(problem_file), "--target", "centralised", "-o",
                         str(unfactored_out)),
                    _run("compile", str(factored), "--target", "centralised", "-o", str(factored_out))]
            if any(m.returncode for m in made):
                print(f"{name:36} compile failed: {[m.stderr.strip()[-300:] for m in made]}", flush=True)
                continue
            totals["factored"] += 1
            equal = _task_of(unfactored_out) == _task_of(factored_out)
            totals["equal"] += equal
            status, seconds, plan = search(factored_out / "domain.pddl", factored_out / "problem.pddl", work / "fd",
                                           args.timeout, args.memory)
            if status != "solved":
                print(f"{name:36} {len(files)} agents, check exit {checked.returncode}, equal={equal}, FD {status}",
                      flush=True)
                continue
            totals["solved"] += 1
            verdicts = []
            for out in (factored_out, unfactored_out):
                report = json.loads(_run("unmap", str(out), str(plan), "--format", "json").stdout)
                val = subprocess.run([args.val, str(out / "centralised-domain.pddl"),
                                      str(out / "centralised-problem.pddl"), str(plan)],
                                     capture_output=True, text=True, check=False)
                verdicts.append((report.get("valid") is True, "Plan valid" in val.stdout,
                                 {a: len(s) for a, s in (report.get("agents") or {}).items()}))
            valid = all(v[0] for v in verdicts)
            val_ok = all(v[1] for v in verdicts)
            totals["valid"] += valid
            totals["val"] += val_ok
            print(f"{name:36} {len(files)} agents, check exit {checked.returncode}, centralised tasks equal={equal}, "
                  f"FD {seconds:.1f} s, valid on both (pddltools)={valid}, (VAL)={val_ok}, steps per agent "
                  f"{verdicts[0][2]}", flush=True)
    print(f"\n{totals['tasks']} tasks: {totals['factored']} factored and compiled both ways, {totals['equal']} with "
          f"equal centralised tasks, {totals['solved']} solved, {totals['valid']} plans valid on both (pddltools), "
          f"{totals['val']} (VAL)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Choose the passes for a target and run them, measuring each.

Targets: `strips` (no typing, no ADL, no costs), `typed-strips` (the IPC-2011 learning-track language),
or a set of features to remove. Passes run in a fixed order in which no pass brings back a feature an
earlier one removed: soft goals (into costs), costs, object fluents, derived predicates, quantifiers, static facts
(folded in where a disjunction would otherwise blow up), conditional effects (which may add negations
and disjunctions), disjunctions, negation (which may add inequalities), equality, typing. Each runs only when the
features of the task at that point (`pddltools.check.features.detect`) include one it removes. The
result declares exactly the requirements it uses.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from pddltools.check.features import REQUIREMENT_OF, Feature, detect
from pddltools.compile.conditional_effects import Method, estimated_actions, remove_conditional_effects
from pddltools.compile.costs import remove_costs
from pddltools.compile.derived import remove_derived
from pddltools.compile.disjunction import LIMIT, remove_disjunction
from pddltools.compile.equality import remove_equality
from pddltools.compile.errors import compile_error
from pddltools.compile.formulas import flat_effect
from pddltools.compile.negation import remove_negation
from pddltools.compile.object_fluents import remove_object_fluents
from pddltools.compile.quantifiers import NAMES as QUANTIFIERS
from pddltools.compile.quantifiers import remove_quantifiers
from pddltools.compile.soft_goals import remove_soft_goals
from pddltools.compile.statics import fold_statics
from pddltools.compile.task import Origin, ParsedTask, PassResult, compose, identity
from pddltools.compile.type_predicates import remove_typing
from pddltools.pddl import ast

F = Feature
TARGETS = ("strips", "typed-strips", "grounded-strips")

#: The features each target removes.
STRIPS_REMOVES = frozenset({
    F.TYPING, F.NEGATIVE_PRECONDITIONS, F.DISJUNCTIVE_PRECONDITIONS, F.EQUALITY, F.EXISTENTIAL_PRECONDITIONS,
    F.UNIVERSAL_PRECONDITIONS, F.CONDITIONAL_EFFECTS, F.UNIVERSAL_EFFECTS, F.DERIVED_PREDICATES, F.ACTION_COSTS,
    F.OBJECT_FLUENTS,
})
#: grounded-strips: STRIPS with its costs, then ground (`pddltools.analysis`, as `pddltools ground` does).
TARGET_REMOVES = {"strips": STRIPS_REMOVES, "typed-strips": STRIPS_REMOVES - {F.TYPING},
                  "grounded-strips": STRIPS_REMOVES - {F.ACTION_COSTS}}

#: What the passes can remove, by the `--remove` name (the feature's name; soft goals by "preferences").
REMOVABLE: dict[str, frozenset[Feature]] = {f.value: frozenset({f}) for f in STRIPS_REMOVES}
REMOVABLE["preferences"] = frozenset({F.PREFERENCES, F.GOAL_UTILITIES})


@dataclass(frozen=True)
class PassReport:
    name: str
    actions_before: int
    actions_after: int
    predicates_before: int
    predicates_after: int
    facts_before: int  # atoms in the initial state
    facts_after: int
    domain_bytes: int  # of the printed domain after the pass
    problem_bytes: int
    seconds: float
    notes: tuple[str, ...] = ()

    def to_json(self) -> dict[str, object]:
        return {"pass": self.name, "actions": [self.actions_before, self.actions_after],
                "predicates": [self.predicates_before, self.predicates_after],
                "init_atoms": [self.facts_before, self.facts_after], "domain_bytes": self.domain_bytes,
                "problem_bytes": self.problem_bytes, "seconds": round(self.seconds, 6), "notes": list(self.notes)}


@dataclass(frozen=True)
class Result:
    task: ParsedTask
    origins: dict[str, Origin]
    passes: tuple[PassReport, ...]
    problem_specific: bool
    costs: dict[str, str]
    removed: frozenset[Feature]
    seconds: float


def removals(target: str | None, remove: Iterable[str] = ()) -> frozenset[Feature]:
    """The features to remove for a target name or a list of `--remove` names."""
    if target is not None:
        if target not in TARGET_REMOVES:
            raise compile_error("E806", f"unknown target {target!r}; targets are {', '.join(TARGETS)}")
        return TARGET_REMOVES[target]
    out: set[Feature] = set()
    for name in remove:
        if name not in REMOVABLE:
            known = ", ".join(sorted(REMOVABLE))
            raise compile_error("E806", f"cannot remove {name!r}; the features this compiler removes are {known}")
        out |= REMOVABLE[name]
    return frozenset(out)


def _facts(problem: ast.Problem) -> int:
    return sum(1 for e in problem.init if isinstance(e, ast.Atom))


def _stages(remove: frozenset[Feature], method: Method, limit: int
            ) -> list[tuple[str, frozenset[Feature], Callable[[ParsedTask, frozenset[Feature]], PassResult]]]:
    quantifiers = remove & QUANTIFIERS
    if F.CONDITIONAL_EFFECTS in remove:
        quantifiers |= {F.UNIVERSAL_EFFECTS}  # a `when` under `forall` needs the forall expanded first
    return [
        ("soft_goals", remove & {F.PREFERENCES, F.GOAL_UTILITIES}, lambda t, _: remove_soft_goals(t)),
        ("costs", remove & {F.ACTION_COSTS}, lambda t, _: remove_costs(t)),
        ("object_fluents", remove & {F.OBJECT_FLUENTS}, lambda t, _: remove_object_fluents(t)),
        ("derived", remove & {F.DERIVED_PREDICATES}, lambda t, _: remove_derived(t)),
        ("quantifiers", quantifiers, lambda t, found: remove_quantifiers(t, quantifiers & found)),
        ("statics", remove & {F.CONDITIONAL_EFFECTS, F.DISJUNCTIVE_PRECONDITIONS}, lambda t, _: fold_statics(t)),
        ("conditional_effects", remove & {F.CONDITIONAL_EFFECTS},
         lambda t, _: remove_conditional_effects(t, method)),
        ("disjunction", remove & {F.DISJUNCTIVE_PRECONDITIONS}, lambda t, _: remove_disjunction(t, limit)),
        ("negation", remove & {F.NEGATIVE_PRECONDITIONS}, lambda t, _: remove_negation(t)),
        ("equality", remove & {F.EQUALITY}, lambda t, _: remove_equality(t)),
        ("typing", remove & {F.TYPING}, lambda t, _: remove_typing(t)),
    ]


#: A pass about to run, and the number of actions it is estimated to make (None: it has no estimate).
OnPass = Callable[[str, int | None], None]


def _estimate(name: str, task: ParsedTask, method: Method) -> int | None:
    """The actions a pass will make, where that can be known cheaply beforehand: the conditional
    effects pass is where compilations blow up (a `when` under a `forall` over many objects)."""
    if name == "conditional_effects":
        return estimated_actions(task, method)
    return None


#: Features no pass removes; a target that wants them gone must refuse the task.
UNSUPPORTED = frozenset({F.NUMERIC_FLUENTS, F.DURATIVE_ACTIONS, F.DURATION_INEQUALITIES,
                         F.CONTINUOUS_EFFECTS, F.TIMED_INITIAL_LITERALS, F.PREFERENCES, F.TRAJECTORY_CONSTRAINTS,
                         F.GOAL_UTILITIES, F.PROCESSES, F.EVENTS})


def compile_task(task: ParsedTask, remove: frozenset[Feature], *, strict: bool = False, method: Method = "auto",
                 limit: int = LIMIT, measure: bool = True, on_pass: OnPass | None = None,
                 ground: bool = False) -> Result:
    """Run the passes that remove `remove` from `task`. `strict` (the named targets): refuse a task that
    uses a feature no pass removes, since the output would not be in the target language. `measure`:
    print the task after every pass for the report's sizes (0 without). `on_pass` is told of each pass
    before it runs, with its estimate of the actions it will make (for progress, and for a warning).
    `ground`: last, ground the task (its reachable operators only, without parameters)."""
    started = time.perf_counter()
    found = detect(task.domain, [task.problem])
    if strict:
        blocking = [use for use in found.uses if use.feature in UNSUPPORTED]
        if blocking:
            names = ", ".join(use.feature.value for use in blocking)
            raise compile_error("E801", f"the task uses {names}, which this compiler cannot remove",
                                blocking[0].span)
    durative = next((s for s in task.domain.structures if isinstance(s, ast.DurativeAction)), None)
    if durative is not None and remove - {F.ACTION_COSTS, F.TYPING}:
        raise compile_error("E801", f"{durative.name} is a durative action; the passes compile actions only",
                            durative.span)
    origins = identity(task.domain)
    # PDDL 1.2 `:vars` are parameters a plan does not name: as trailing parameters every pass (and
    # every STRIPS reader) understands them, and the back map drops them.
    task = ParsedTask(replace(task.domain, structures=tuple(
        replace(s, parameters=(*s.parameters, *s.vars), vars=()) if isinstance(s, ast.Action) and s.vars else s
        for s in task.domain.structures)), task.problem)
    reports: list[PassReport] = []
    problem_specific = False
    costs: dict[str, str] = {}
    stages = _stages(remove, method, limit)
    if ground:
        stages.append(("ground", frozenset(), lambda t, _: _ground(t)))
    for name, features, run in stages:
        found = detect(task.domain, [task.problem])
        present = features & found.features
        if not present and name != "ground":
            continue
        if task.domain.processes_and_events:
            # The passes rewrite actions only: a process or event left as it was would read predicates,
            # types or fluents the pass has replaced. A task no pass touches keeps them (the printer does).
            first = task.domain.processes_and_events[0]
            kind = "process" if isinstance(first, ast.Process) else "event"
            raise compile_error("E801", f"the {name.replace('_', ' ')} pass cannot handle PDDL+ processes and events "
                                f"({kind} {first.name} is one); it compiles actions only", first.span)
        if on_pass is not None:
            on_pass(name, _estimate(name, task, method))
        t0 = time.perf_counter()
        step = run(task, present)
        seconds = time.perf_counter() - t0
        after = step.task
        reports.append(PassReport(
            name, len(task.domain.actions), len(after.domain.actions), len(task.domain.predicates),
            len(after.domain.predicates), _facts(task.problem), _facts(after.problem),
            len(str(after.domain)) if measure else 0, len(str(after.problem)) if measure else 0, seconds,
            step.notes))
        for action, cost in step.costs.items():
            origin = origins.get(action)
            if origin is not None and origin.action is not None:
                costs[origin.action] = cost
        origins = compose(origins, step.origins)
        problem_specific |= step.problem_specific
        task = after
    if problem_specific:
        # The domain now names the problem's objects: they become its constants.
        domain = replace(task.domain, constants=(*task.domain.constants, *task.problem.objects))
        task = ParsedTask(domain, replace(task.problem, objects=()))
    task = declare_requirements(task)
    left = remove & detect(task.domain, [task.problem]).features
    if left:
        raise compile_error("E801", "could not remove " + ", ".join(sorted(f.value for f in left)))
    return Result(task, origins, tuple(reports), problem_specific, costs, remove, time.perf_counter() - started)


def _ground(task: ParsedTask) -> PassResult:
    from pddltools.analysis.grounder import ground
    from pddltools.compile.strips import to_pddl

    return to_pddl(ground(task.domain, task.problem))


def requirements_of(task: ParsedTask) -> tuple[str, ...]:
    """The flags that declare exactly the features a task uses (`:strips` first, always)."""
    flags = [":strips"]
    for feature in detect(task.domain, [task.problem]):
        flag = REQUIREMENT_OF[feature][0]
        if flag not in flags:
            flags.append(flag)
    return tuple(flags)


def declare_requirements(task: ParsedTask) -> ParsedTask:
    """The task with exactly the requirements it uses, every action with a precondition (some STRIPS
    planners, pyperplan among them, insist on one), flat effects, and no negative initial facts."""
    structures = tuple(
        replace(s, precondition=s.precondition if s.precondition is not None else ast.And(),
                effect=flat_effect(s.effect) if s.effect is not None else ast.AndEffect())
        if isinstance(s, ast.Action) else s for s in task.domain.structures)
    domain = replace(task.domain, structures=structures)
    flags = tuple(ast.Requirement(f) for f in requirements_of(ParsedTask(domain, task.problem)))
    # `(not p)` in an initial state says what the closed world says anyway; STRIPS readers reject it.
    init = tuple(e for e in task.problem.init if not isinstance(e, ast.Not))
    return ParsedTask(replace(domain, requirements=flags), replace(task.problem, requirements=(), init=init))

"""The language features, one small file each in corpus/pddl/features: what the parser builds for each,
and that printing and re-parsing gives the same tree."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from pddltools.diagnostics import Diagnostic
from pddltools.pddl import ast
from pddltools.pddl.ast import (
    Action,
    And,
    AndEffect,
    Assign,
    Atom,
    Comparison,
    Constant,
    ContinuousTime,
    DurativeAction,
    Either,
    Exists,
    Forall,
    ForallEffect,
    FunctionTerm,
    Imply,
    InitAssignment,
    IsViolated,
    Not,
    Number,
    Or,
    Preference,
    Timed,
    TimedInitial,
    TypedName,
    TypeName,
    Variable,
    When,
)
from pddltools.pddl.parser import ParseError, parse_file, parse_text
from pddltools.syntax.testing import parser_variant

FEATURES = Path(__file__).resolve().parents[2] / "corpus" / "pddl" / "features"
ALL_FILES = sorted(FEATURES.rglob("*.pddl"))


def domain(feature: str) -> ast.Domain:
    return parse_file(FEATURES / feature / "domain.pddl", "domain")


def problem(feature: str) -> ast.Problem:
    return parse_file(FEATURES / feature / "problem.pddl", "problem")


def action(d: ast.Domain, name: str) -> Action:
    (found,) = [a for a in d.actions if a.name == name]
    return found


def v(name: str) -> Variable:
    return Variable(name)


def f(name: str, *args: ast.Term) -> FunctionTerm:
    return FunctionTerm(name, args)


def atom(name: str, *args: ast.Term) -> Atom:
    return Atom(name, args)


# -------------------------------------------------------------------------------------------------
# Every file


def test_there_is_a_folder_per_feature() -> None:
    folders = {p.name for p in FEATURES.iterdir() if p.is_dir()}
    assert folders == {
        "strips", "typing", "negative_preconditions", "disjunctive_preconditions", "equality",
        "quantified_preconditions", "conditional_effects", "derived_predicates", "action_costs",
        "numeric_fluents", "object_fluents", "durative_actions", "duration_inequalities",
        "continuous_effects", "timed_initial_literals", "preferences", "trajectory_constraints",
        "goal_utilities", "length", "pddl12_vars", "case_insensitivity", "comments", "all_requirements",
        "unknown_requirement", "processes_events", "negative_numbers",
    }
    assert all((FEATURES / name / "domain.pddl").is_file() for name in folders)


def every_node(tree: ast.Domain | ast.Problem) -> list[ast.Node]:
    """The tree's nodes, its declarations and sections included."""
    nodes = list(tree.walk())
    for name in ("structures", "processes", "events", "predicates", "functions", "requirements", "types",
                 "constants", "objects"):
        nodes.extend(getattr(tree, name, ()))
    nodes.extend(n for n in (getattr(tree, "metric", None), getattr(tree, "length", None)) if n is not None)
    return nodes


NODE_TYPES = sorted({type(n).__name__ for p in ALL_FILES for n in every_node(parse_file(p))})


@pytest.mark.parametrize("type_name", NODE_TYPES)
def test_every_node_prints_alone(type_name: str) -> None:
    """`str(node)` is the printer for any node, not just for whole files."""
    printed = [str(n) for p in ALL_FILES for n in every_node(parse_file(p)) if type(n).__name__ == type_name]
    assert printed
    for text in printed:
        assert text.strip()
        assert text.count("(") == text.count(")")


@pytest.mark.parametrize("path", [p for p in ALL_FILES if p.name == "domain.pddl"],
                         ids=lambda p: p.parent.name)
def test_a_structure_printed_alone_reparses_equal(path: Path) -> None:
    d = parse_file(path, "domain")
    for structure in d.structures:
        again = parse_text(f"(define (domain {d.name}) {structure})", "one structure", "domain")
        assert again.structures == (structure,)
    for process in d.processes:
        assert parse_text(f"(define (domain {d.name}) {process})", "one process", "domain").processes == (process,)
    for event in d.events:
        assert parse_text(f"(define (domain {d.name}) {event})", "one event", "domain").events == (event,)


@pytest.mark.parametrize("path", [p for p in ALL_FILES if p.name == "problem.pddl"],
                         ids=lambda p: p.parent.name)
def test_a_problem_section_printed_alone_reparses_equal(path: Path) -> None:
    p = parse_file(path, "problem")
    for section in (p.metric, p.length):
        if section is not None:
            again = parse_text(f"(define (problem q) (:domain {p.domain}) {section})", "one section", "problem")
            assert (again.metric or again.length) == section


@pytest.mark.parametrize("path", ALL_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_round_trip(path: Path) -> None:
    tree = parse_file(path)
    printed = str(tree)
    again = parse_text(printed, f"printed {path.name}")
    assert again == tree
    assert str(again) == printed  # printing is stable


@pytest.mark.parametrize("path", ALL_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_grammar_path_builds_the_same_tree(path: Path) -> None:
    with parser_variant(fast=False):
        grammar_alone = parse_file(path)
    assert grammar_alone == parse_file(path)


@pytest.mark.parametrize("path", ALL_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_kind_follows_the_file_name(path: Path) -> None:
    tree = parse_file(path)
    assert isinstance(tree, ast.Domain if path.name == "domain.pddl" else ast.Problem)
    if isinstance(tree, ast.Problem):
        assert tree.domain == domain(path.parent.name).name


@pytest.mark.parametrize("path", [p for p in ALL_FILES if p.parent.name != "unknown_requirement"],
                         ids=lambda p: f"{p.parent.name}/{p.name}")
def test_valid_feature_files_parse_without_warnings(path: Path) -> None:
    warnings: list[Diagnostic] = []
    parse_file(path, warnings=warnings)
    assert warnings == []


# -------------------------------------------------------------------------------------------------
# One test per feature


def test_strips() -> None:
    d = domain("strips")
    assert [r.name for r in d.requirements] == [":strips"]
    assert [(p.name, len(p.parameters)) for p in d.predicates] == [("off", 1), ("on", 1), ("switch-of", 2)]
    press = action(d, "press")
    assert press.parameters == (TypedName("?s"), TypedName("?l"))
    assert press.precondition == And((atom("switch-of", v("?s"), v("?l")), atom("off", v("?l"))))
    assert press.effect == AndEffect((atom("on", v("?l")), Not(atom("off", v("?l")))))
    p = problem("strips")
    assert [o.name for o in p.objects] == ["s1", "s2", "l1", "l2"]
    assert p.init[0] == atom("switch-of", Constant("s1"), Constant("l1"))
    assert len(p.init) == 4
    assert p.goal == And((atom("on", Constant("l1")), atom("on", Constant("l2"))))


def test_typing_with_a_hierarchy_and_either() -> None:
    d = domain("typing")
    parents = {t.name: t.type.name if isinstance(t.type, TypeName) else None for t in d.types}
    assert parents == {"truck": "vehicle", "van": "vehicle", "vehicle": "locatable", "crate": "locatable",
                       "depot": "place", "market": "place", "locatable": None, "place": None}
    assert d.constants == (TypedName("hq", TypeName("depot")),)
    open_ = d.predicates[2]
    assert open_.parameters == (TypedName("?p", Either((TypeName("depot"), TypeName("market")))),)
    drive = action(d, "drive")
    assert [(p.name, p.type) for p in drive.parameters] == [
        ("?v", TypeName("vehicle")), ("?from", TypeName("place")), ("?to", TypeName("place"))]
    assert action(d, "drop").parameters[0].type == Either((TypeName("truck"), TypeName("van")))
    p = problem("typing")
    assert TypedName("c2", TypeName("crate")) in p.objects
    assert [o.name for o in p.objects if o.type == TypeName("crate")] == ["c1", "c2"]


def test_negative_preconditions() -> None:
    pre = action(domain("negative_preconditions"), "open-door").precondition
    assert pre == And((Not(atom("locked", v("?d"))), Not(atom("open", v("?d")))))
    assert problem("negative_preconditions").goal == And(
        (atom("open", Constant("front")), Not(atom("open", Constant("back")))))


def test_disjunctive_preconditions() -> None:
    d = domain("disjunctive_preconditions")
    assert action(d, "hang-washing").precondition == Or((atom("sunny"), atom("windy")))
    assert action(d, "bring-in").precondition == Imply(atom("outside", v("?x")), atom("covered", v("?x")))


def test_equality() -> None:
    d = domain("equality")
    pre = action(d, "move").precondition
    assert isinstance(pre, And)
    assert pre.parts[1] == Not(Comparison("=", v("?from"), v("?to")))
    assert pre.parts[2] == Not(Comparison("=", v("?to"), Constant("hall")))
    assert action(d, "return").effect == atom("in", Constant("hall"))


def test_existential_and_universal_preconditions() -> None:
    d = domain("quantified_preconditions")
    book = (TypedName("?b", TypeName("book")),)
    assert action(d, "mark-full").precondition == Exists(book, atom("on", v("?b"), v("?s")))
    assert action(d, "mark-sorted").precondition == Forall(
        book, Exists((TypedName("?t", TypeName("shelf")),), atom("on", v("?b"), v("?t"))))
    assert problem("quantified_preconditions").goal == Forall(
        (TypedName("?s", TypeName("shelf")),), atom("sorted", v("?s")))


def test_conditional_effects() -> None:
    d = domain("conditional_effects")
    lit = atom("lit", v("?b"))
    assert action(d, "toggle").effect == AndEffect((
        When(lit, Not(lit)),
        When(And((Not(lit), Not(atom("broken", v("?b"))))), lit),
    ))
    bulb = (TypedName("?b", TypeName("bulb")),)
    assert action(d, "blackout").effect == AndEffect((Not(atom("power")), ForallEffect(bulb, Not(lit))))
    assert action(d, "surge").effect == ForallEffect(bulb, When(lit, atom("broken", v("?b"))))
    assert action(d, "surge").parameters == ()


def test_derived_predicates() -> None:
    d = domain("derived_predicates")
    (axiom,) = d.derived_predicates
    assert axiom.predicate == ast.PredicateDecl(
        "reachable", (TypedName("?a", TypeName("node")), TypedName("?b", TypeName("node"))))
    assert isinstance(axiom.body, Or)
    assert axiom.body.parts[0] == atom("edge", v("?a"), v("?b"))
    assert axiom.body.parts[1] == Exists(
        (TypedName("?c", TypeName("node")),),
        And((atom("edge", v("?a"), v("?c")), atom("reachable", v("?c"), v("?b")))))
    assert [type(s).__name__ for s in d.structures] == ["DerivedPredicate", "Action"]


def test_action_costs() -> None:
    d = domain("action_costs")
    assert d.functions[0] == ast.FunctionDecl("total-cost", (), TypeName("number"))
    assert d.functions[1].type == TypeName("number")
    drive = action(d, "drive").effect
    assert isinstance(drive, AndEffect)
    assert drive.parts[2] == Assign("increase", f("total-cost"), f("distance", v("?a"), v("?b")))
    teleport = action(d, "teleport").effect
    assert isinstance(teleport, AndEffect)
    assert teleport.parts[2] == Assign("increase", f("total-cost"), Number(100))
    p = problem("action_costs")
    assert InitAssignment(f("distance", Constant("paris"), Constant("lyon")), Number(465)) in p.init
    assert p.init[-1] == InitAssignment(f("total-cost"), Number(0))
    assert p.metric == ast.Metric("minimize", f("total-cost"))


def test_numeric_fluents() -> None:
    d = domain("numeric_fluents")
    assert [fn.name for fn in d.functions] == ["level", "capacity", "rate", "pressure"]
    assert all(fn.type is None for fn in d.functions)
    t = v("?t")
    fill = action(d, "fill")
    assert isinstance(fill.precondition, And)
    ops = [c.op for c in fill.precondition.parts if isinstance(c, Comparison)]
    assert ops == ["<", "<=", ">", ">=", "="]
    plus = fill.precondition.parts[1]
    assert isinstance(plus, Comparison)
    assert plus.left == ast.Arithmetic("+", (f("level", t), f("rate"), Number(1)))  # n-ary +
    times = fill.precondition.parts[3]
    assert isinstance(times, Comparison)
    assert times.left == ast.Arithmetic("*", (Number(2), f("rate"), f("level", t)))  # n-ary *
    negation = fill.precondition.parts[4]
    assert isinstance(negation, Comparison)
    assert negation.right == ast.Arithmetic("-", (f("pressure", t),))  # unary minus
    assert fill.effect == AndEffect((
        Assign("increase", f("level", t), f("rate")),
        Assign("assign", f("pressure", t), ast.Arithmetic("/", (f("level", t), f("capacity", t)))),
    ))
    half = Number(Fraction(1, 2))
    assert action(d, "drain").effect == Assign("decrease", f("level", t), ast.Arithmetic("-", (f("rate"), half)))
    assert action(d, "boost").effect == Assign("scale-up", f("rate"), Number(2))
    assert action(d, "damp").effect == Assign("scale-down", f("rate"), Number(Fraction(3, 2)))
    p = problem("numeric_fluents")
    assert InitAssignment(f("level", Constant("b")), Number(Fraction(5, 2))) in p.init
    assert isinstance(p.metric, ast.Metric) and p.metric.direction == "minimize"


def test_object_fluents() -> None:
    d = domain("object_fluents")
    assert d.functions == (ast.FunctionDecl("loc", (TypedName("?t", TypeName("truck")),), TypeName("place")),)
    drive = action(d, "drive")
    assert drive.precondition == Comparison("=", f("loc", v("?t")), v("?from"))
    assert drive.effect == Assign("assign", f("loc", v("?t")), v("?to"))
    p = problem("object_fluents")
    (init,) = p.init
    assert isinstance(init, InitAssignment)
    assert init.fluent == f("loc", Constant("t1"))
    assert init.value == Constant("depot")
    assert init.span is not None and (init.span.line, init.span.column) == (4, 10)
    assert p.goal == Comparison("=", f("loc", Constant("t1")), Constant("market"))


def test_durative_actions() -> None:
    (move,) = domain("durative_actions").durative_actions
    assert isinstance(move, DurativeAction)
    assert move.duration == Comparison("=", v("?duration"), f("travel-time", v("?a"), v("?b")))
    assert move.condition == And((
        Timed("start", atom("at", v("?r"), v("?a"))),
        Timed("start", Not(atom("busy", v("?r")))),
        Timed("all", atom("path", v("?a"), v("?b"))),
    ))
    assert isinstance(move.effect, AndEffect)
    assert [e.time for e in move.effect.parts if isinstance(e, Timed)] == ["start", "start", "end", "end", "end"]
    assert move.effect.parts[0] == Timed("start", Not(atom("at", v("?r"), v("?a"))))
    assert move.effect.parts[-1] == Timed("end", Assign("increase", f("odometer", v("?r")), v("?duration")))
    p = problem("durative_actions")
    assert InitAssignment(f("travel-time", Constant("base"), Constant("crater")), Number(Fraction(25, 2))) in p.init
    assert p.metric == ast.Metric("minimize", f("total-time"))


def test_duration_inequalities() -> None:
    charge, top_up = domain("duration_inequalities").durative_actions
    assert charge.duration == And((Comparison(">=", v("?duration"), Number(1)),
                                   Comparison("<=", v("?duration"), f("max-time"))))
    assert charge.effect == Timed("end", Assign("increase", f("charge", v("?b")),
                                                ast.Arithmetic("*", (Number(10), v("?duration")))))
    assert top_up.duration == Timed("end", Comparison("<=", v("?duration"), Number(5)))
    assert top_up.condition == And()  # `()` is the empty condition


def test_continuous_effects() -> None:
    (heat,) = domain("continuous_effects").durative_actions
    assert heat.condition == Timed("all", Comparison(">", f("fuel"), Number(0)))
    assert heat.effect == AndEffect((
        Assign("increase", f("temperature"), ast.Arithmetic("*", (ContinuousTime(), f("heat-rate")))),
        Assign("decrease", f("fuel"), ast.Arithmetic("*", (ContinuousTime(), Number(Fraction(1, 2))))),
    ))


def test_processes_and_events() -> None:
    d = domain("processes_events")
    assert ":time" in {r.name for r in d.requirements}
    assert [a.name for a in d.actions] == ["open-valve"]  # processes and events are not structures
    t = v("?t")
    tank = (TypedName("?t", TypeName("tank")),)
    filling, leaking = d.processes
    rate = ast.Arithmetic("*", (ContinuousTime(), f("inflow")))
    assert filling == ast.Process("filling", tank, And((atom("open", t), Not(atom("overflowed", t)))),
                                  Assign("increase", f("level", t), rate))
    assert leaking == ast.Process("leaking", (), None, AndEffect())
    overflow, nothing = d.events
    full = Comparison(">=", f("level", t), f("capacity", t))
    assert overflow == ast.Event("overflow", tank, And((atom("open", t), full)),
                                 AndEffect((Not(atom("open", t)), atom("overflowed", t))))
    assert nothing == ast.Event("nothing-happens")
    assert filling.binds() == {"?t"}
    assert {type(n).__name__ for n in d.walk()} >= {"Process", "Event", "ContinuousTime"}


def test_negative_numbers_and_unary_minus() -> None:
    anchor, drift = domain("negative_numbers").actions
    b = v("?b")
    assert anchor.effect == AndEffect((atom("anchored", b), Assign("assign", f("speed", b), Number(0)),
                                       Assign("assign", f("x", b), Number(Fraction(-15, 2)))))
    assert drift.precondition == And((
        Comparison(">", f("x", b), Number(-100)),
        Comparison("<=", ast.Arithmetic("-", (f("speed", b),)), Number(Fraction(-1, 2))),
        Comparison("<", ast.Arithmetic("-", (f("x", b), Number(-3))), Number(1000)),
    ))
    assert drift.effect == AndEffect((
        Assign("decrease", f("x", b), Number(Fraction(-1, 2))),
        Assign("assign", f("speed", b), ast.Arithmetic("-", (f("speed", b),))),
        Assign("increase", f("x", b), ast.Arithmetic("*", (Number(-1000), f("speed", b)))),
    ))
    p = problem("negative_numbers")
    b0, b1 = Constant("b0"), Constant("b1")
    assert p.objects == (TypedName("b0", TypeName("boat")), TypedName("b1", TypeName("boat")))
    assert p.init == (InitAssignment(f("x", b0), Number(-13)), InitAssignment(f("speed", b0), Number(Fraction(-9, 4))),
                      InitAssignment(f("x", b1), Number(0)), InitAssignment(f("speed", b1), Number(Fraction(-1, 100))))
    assert p.goal == And((Comparison(">=", f("x", b0), Number(-5)),
                          Comparison("<", f("x", b1), ast.Arithmetic("-", (Number(7),)))))
    assert p.metric == ast.Metric("minimize", ast.Arithmetic("+", (f("x", b0), Number(-1))))
    first = p.init[0]
    assert isinstance(first, InitAssignment) and type(first.value.value) is int  # integers stay int, signed too


@pytest.mark.parametrize("text", ["(- -3)", "(- 3)", "-3", "(-3)", "(- - 3)"])
def test_a_sign_touches_its_digits(text: str) -> None:
    """`-3` is a literal; `- 3` and `(- 3)` are the operator; `(-3)` is no expression at all."""
    goal = f"(define (problem q) (:domain d) (:goal (< (x) {text})))"
    if text in ("(-3)", "(- - 3)"):
        with pytest.raises(ParseError):
            parse_text(goal)
        return
    parsed = parse_text(goal, kind="problem").goal
    assert isinstance(parsed, Comparison)
    assert parsed.right == {"(- -3)": ast.Arithmetic("-", (Number(-3),)), "(- 3)": ast.Arithmetic("-", (Number(3),)),
                            "-3": Number(-3)}[text]


def test_a_plan_length_is_not_negative() -> None:
    with pytest.raises(ParseError, match="expected a whole number"):
        parse_text("(define (problem q) (:domain d) (:goal (p)) (:length (:serial -3)))")


def test_timed_initial_literals() -> None:
    p = problem("timed_initial_literals")
    assert p.objects == ()
    assert p.init == (TimedInitial(Number(9), atom("open")),
                      TimedInitial(Number(Fraction(35, 2)), Not(atom("open"))))


def test_preferences_in_preconditions_and_goals() -> None:
    pre = action(domain("preferences"), "go-shopping").precondition
    assert pre == And((atom("home"), Preference("well-rested", atom("rested")), Preference(None, atom("paid"))))
    p = problem("preferences")
    assert p.goal == And((atom("shop"), Preference("back-home", atom("home")), Preference(None, atom("rested"))))
    assert p.metric == ast.Metric("minimize", ast.Arithmetic("+", (
        ast.Arithmetic("*", (Number(3), IsViolated("back-home"))), IsViolated("well-rested"))))


def test_trajectory_constraints_use_every_modal_operator() -> None:
    d = domain("trajectory_constraints")
    assert isinstance(d.constraints, And)
    alarm, patrol = atom("alarm"), atom("patrol")
    assert d.constraints.parts == (
        ast.Always(Not(alarm)),
        ast.Sometime(patrol),
        ast.Within(Number(10), patrol),
        ast.AtMostOnce(alarm),
        ast.SometimeAfter(alarm, patrol),
        ast.SometimeBefore(patrol, alarm),
        ast.AlwaysWithin(Number(5), alarm, patrol),
        ast.HoldDuring(Number(2), Number(8), patrol),
        ast.HoldAfter(Number(3), Not(alarm)),
        Forall((TypedName("?r", TypeName("room")),), ast.Sometime(atom("visited", v("?r")))),
        Timed("end", patrol),
    )
    p = problem("trajectory_constraints")
    lobby, vault = atom("visited", Constant("lobby")), atom("visited", Constant("vault"))
    assert p.constraints == And((
        Preference("early", ast.Within(Number(4), lobby)),
        Preference(None, ast.SometimeBefore(vault, lobby)),
        Timed("end", lobby),
    ))
    assert p.metric == ast.Metric("minimize", IsViolated("early"))


def test_goal_utilities_net_benefit() -> None:
    d = domain("goal_utilities")
    assert ":goal-utilities" in {r.name for r in d.requirements}
    p = problem("goal_utilities")
    assert p.goal == And((Preference("g1", atom("delivered", Constant("o1"))),
                          Preference("g2", atom("delivered", Constant("o2")))))
    assert p.metric == ast.Metric("maximize", ast.Arithmetic("-", (Number(20), ast.Arithmetic("+", (
        ast.Arithmetic("*", (Number(10), IsViolated("g1"))),
        ast.Arithmetic("*", (Number(15), IsViolated("g2"))),
        f("total-cost"),
    )))))


def test_length() -> None:
    p = problem("length")
    assert p.length == ast.Length(serial=10, parallel=4)
    assert p.init == ()
    finish = action(domain("length"), "finish")
    assert finish.precondition == And()


def test_pddl12_vars() -> None:
    move = action(domain("pddl12_vars"), "move-to-table")
    assert move.parameters == (TypedName("?x"),)
    assert move.vars == (TypedName("?y"),)
    assert move.precondition == And((atom("on", v("?x"), v("?y")), atom("clear", v("?x"))))
    assert str(domain("pddl12_vars")).count(":vars (?y)") == 1


def test_case_insensitivity() -> None:
    d = domain("case_insensitivity")
    assert d.name == "mixed-case"
    assert [r.name for r in d.requirements] == [":strips", ":typing"]
    assert d.types == (TypedName("block"),)
    assert d.predicates[0] == ast.PredicateDecl("on", (TypedName("?x", TypeName("block")),
                                                       TypedName("?y", TypeName("block"))))
    stack = action(d, "stack")
    assert stack.precondition == And((atom("clear", v("?x")), atom("clear", v("?y"))))
    assert stack.effect == AndEffect((atom("on", v("?x"), v("?y")), Not(atom("clear", v("?y")))))
    p = problem("case_insensitivity")
    assert (p.name, p.domain) == ("mixed-one", "mixed-case")
    assert p.init == (atom("clear", Constant("a")), atom("clear", Constant("b")))


def test_comments_everywhere() -> None:
    d = domain("comments")
    assert d == parse_text("""(define (domain commented) (:requirements :strips :typing) (:types item - object)
        (:predicates (held ?i - item))
        (:action pick :parameters (?i - item) :precondition (and (not (held ?i))) :effect (held ?i)))""")
    pick = action(d, "pick")
    assert pick.span is not None and (pick.span.line, pick.span.column) == (18, 3)
    assert (FEATURES / "comments" / "domain.pddl").read_text(encoding="utf-8").endswith("newline")
    p = problem("comments")
    assert p.objects == (TypedName("a", TypeName("item")), TypedName("b", TypeName("item")))
    assert p.init == ()
    assert p.goal == And((atom("held", Constant("a")), atom("held", Constant("b"))))


def test_every_requirement_flag() -> None:
    flags = [r.name for r in domain("all_requirements").requirements]
    assert flags[:22] == [
        ":strips", ":typing", ":negative-preconditions", ":disjunctive-preconditions", ":equality",
        ":existential-preconditions", ":universal-preconditions", ":quantified-preconditions",
        ":conditional-effects", ":adl", ":derived-predicates", ":action-costs", ":numeric-fluents",
        ":fluents", ":object-fluents", ":durative-actions", ":duration-inequalities",
        ":continuous-effects", ":timed-initial-literals", ":preferences", ":constraints", ":goal-utilities",
    ]
    assert len(flags) == 28


def test_an_unknown_requirement_flag_is_a_warning() -> None:
    warnings: list[Diagnostic] = []
    d = parse_file(FEATURES / "unknown_requirement" / "domain.pddl", "domain", warnings=warnings)
    assert [r.name for r in d.requirements] == [":strips", ":teleportation"]
    (w,) = warnings
    assert (w.code, w.is_error) == ("W101", False)
    assert w.span is not None and (w.span.line, w.span.column) == (3, 26)
    assert w.message.startswith("unknown requirement :teleportation")
    assert action(d, "stay").effect == atom("here")

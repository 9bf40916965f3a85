"""The RDDL type checker: names, arities, types, CPFs and the links between blocks.

`check(files)` takes every parsed file of one problem set (a domain, its non-fluents, its instances,
in one file or several) and returns diagnostics; it never raises for bad input. What it checks:

- every type, pvariable, object and enum value used is declared, with the right number of arguments,
  each of the right type (subtypes count as their supertypes);
- expressions are well typed: logical operators, conditions and constraints take booleans; arithmetic
  takes numbers, where a boolean counts as 0 or 1, as in RDDLSim; a CPF's value fits its fluent;
- each state, interm, observ and derived fluent has exactly one CPF, and no action or non-fluent has one;
- interm and derived fluents do not depend on each other in a cycle, and read only lower levels;
- a non-fluents block or an instance names a domain (and non-fluents block) that exists, and assigns
  only pvariables of the right kind, with values of the right type.

The symbol table is `pddltools.rddl.symbols`, the typing of expressions `pddltools.rddl.expressions`.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Sequence
from typing import TypeVar

from pddltools.diagnostics import Diagnostic, Severity, error, warning
from pddltools.rddl import ast
from pddltools.rddl.expressions import ExpressionTyper, pvariables_in
from pddltools.rddl.symbols import NUMERIC, SymbolTable, article, count, describe, duplicate

_T = TypeVar("_T")
_NEEDS_CPF = frozenset({"state-fluent", "interm-fluent", "observ-fluent", "derived-fluent"})
_NO_CPF = frozenset({"action-fluent", "non-fluent"})
_LEVELLED = frozenset({"interm-fluent", "derived-fluent"})


def check(files: Sequence[ast.RDDLFile]) -> list[Diagnostic]:
    """Check every block of `files` together; references between blocks resolve by name.

    A name is looked up in the referring block's own file first, then in the other files in the
    order given: so one folder may hold several instance files that each define a non-fluents block
    of the same name, as rddlrepository's folders do.
    """
    diagnostics: list[Diagnostic] = []
    domains: dict[str, list[tuple[int, SymbolTable]]] = {}
    non_fluents: dict[str, list[tuple[int, ast.NonFluents]]] = {}
    instances: list[tuple[int, ast.Instance]] = []
    folders = [os.path.dirname(f.span.file) if f.span else "" for f in files]
    for index, rddl in enumerate(files):
        seen: dict[tuple[str, str], ast.Block] = {}
        block: ast.Block
        for block in rddl.blocks:
            key = (type(block).__name__, block.name)
            if key in seen:
                diagnostics.append(duplicate(_kind(block), block.name, block.span, seen[key].span))
                continue
            seen[key] = block
            if isinstance(block, ast.Domain):
                domains.setdefault(block.name, []).append((index, SymbolTable.build(block, diagnostics)))
            elif isinstance(block, ast.NonFluents):
                non_fluents.setdefault(block.name, []).append((index, block))
            else:
                instances.append((index, block))

    # a domain's expressions may name objects ($box): those of every block that uses the domain
    objects_by_domain: dict[str, dict[str, str]] = {}
    users: list[ast.NonFluents | ast.Instance] = [nf for found in non_fluents.values() for _, nf in found]
    users += [instance for _, instance in instances]
    for user in users:
        if user.domain is not None:
            known = objects_by_domain.setdefault(user.domain, {})
            for decl in user.objects:
                known.update(dict.fromkeys(decl.names, decl.type))
    for found_domains in domains.values():
        for _, domain_table in found_domains:
            objects = _domain_objects(domain_table)
            objects.update(objects_by_domain.get(domain_table.domain.name, {}))
            try:
                _DomainChecker(domain_table, objects, diagnostics).run()
            except RecursionError:
                diagnostics.append(error(
                    "R106", f"domain {domain_table.domain.name} nests expressions too deeply to check "
                    f"(more than about {sys.getrecursionlimit() // 4} levels)", domain_table.domain.span))

    for found_non_fluents in non_fluents.values():
        for index, block in found_non_fluents:
            table = _domain_of(block, _resolve(domains, block.domain, index, folders), diagnostics, domains)
            if table is not None:
                objects = _declare_objects(table, block.objects, _domain_objects(table), diagnostics)
                _check_assignments(table, objects, block.values, "non-fluent", diagnostics)
    for index, instance in instances:
        table = _domain_of(instance, _resolve(domains, instance.domain, index, folders), diagnostics, domains)
        block_nf = _resolve(non_fluents, instance.non_fluents, index, folders)
        _check_instance(instance, table, block_nf, diagnostics)
    return diagnostics


def _resolve(table: dict[str, list[tuple[int, _T]]], name: str | None, index: int,
             folders: list[str]) -> _T | None:
    """The block called `name` for a block of file `index`: from that file, its folder, or any."""
    if name is None or name not in table:
        return None
    found = table[name]
    same_file = (block for i, block in found if i == index)
    same_folder = (block for i, block in found if folders[i] == folders[index])
    return next(same_file, None) or next(same_folder, None) or found[0][1]


def _kind(block: ast.Block) -> str:
    return {ast.Domain: "domain", ast.NonFluents: "non-fluents block", ast.Instance: "instance"}[type(block)]


# ---------------------------------------------------------------------------------------------------
# domains


class _DomainChecker:
    def __init__(self, table: SymbolTable, objects: dict[str, str], diagnostics: list[Diagnostic]) -> None:
        self.table = table
        self.diagnostics = diagnostics
        self.expressions = ExpressionTyper(table, objects, diagnostics)

    def run(self) -> None:
        self.declarations()
        self.cpfs()
        domain = self.table.domain
        if domain.reward is not None:
            self.expressions.expect_number(self.expressions.infer(domain.reward, {}), domain.reward,
                                           "the reward")
        for constraints in (domain.state_action_constraints, domain.action_preconditions,
                            domain.state_invariants, domain.termination):
            for constraint in constraints:
                self.expressions.expect_bool(self.expressions.infer(constraint, {}), constraint,
                                             "a constraint")

    def declarations(self) -> None:
        table = self.table
        for decl in table.pvariables.values():
            for param in decl.params:
                if not table.is_entity(param):
                    self.diagnostics.append(error("R201", f"undefined type {param} in the parameters of "
                                                  f"{decl.name}", decl.span))
            if decl.range not in NUMERIC and not table.is_entity(decl.range):
                self.diagnostics.append(error("R201", f"undefined type {decl.range} as the range of "
                                              f"{decl.name}", decl.span))
            elif decl.default is not None:
                _check_value(self.expressions, decl.range, decl.default, f"the default of {decl.name}")

    def cpfs(self) -> None:
        table = self.table
        seen: dict[str, ast.Cpf] = {}
        dependencies: dict[str, set[str]] = {}
        for cpf in table.domain.cpfs:
            decl = table.pvariables.get(cpf.name)
            if decl is None:
                self.diagnostics.append(error("R202", f"CPF for undefined pvariable {cpf.name}", cpf.span))
                continue
            if cpf.name in seen:
                self.diagnostics.append(Diagnostic("R218", Severity.ERROR,
                                                   f"{cpf.name} has two CPFs", cpf.span,
                                                   (("the first is here", seen[cpf.name].span),)))
                continue
            seen[cpf.name] = cpf
            if decl.kind in _NO_CPF:
                giver = "planner" if decl.kind == "action-fluent" else "instance"
                self.diagnostics.append(error("R208", f"{cpf.name} is {article(decl.kind)}: it takes "
                                              f"its value from the {giver}, not from a CPF", cpf.span))
                continue
            if decl.kind == "state-fluent" and not cpf.primed:
                self.diagnostics.append(error("R215", f"the CPF of state fluent {cpf.name} must be "
                                              f"written {cpf.name}'", cpf.span))
            elif decl.kind != "state-fluent" and cpf.primed:
                self.diagnostics.append(error("R215", f"{cpf.name} is {article(decl.kind)}: write its CPF "
                                              f"without a prime", cpf.span))
            if not cpf.params and decl.params:
                # RDDLSim (RDDL2's `randDir' = Dirichlet(...)`) evaluates such a CPF once per grounding
                self.diagnostics.append(warning("R203", f"{cpf.name} takes "
                                                f"{count(len(decl.params), 'parameter')}, but its CPF names "
                                                "none: it is drawn anew for each grounding", cpf.span))
            elif len(cpf.params) != len(decl.params):
                self.diagnostics.append(error("R203", f"{cpf.name} takes "
                                              f"{count(len(decl.params), 'parameter')}, "
                                              f"but its CPF names {len(cpf.params)}", cpf.span))
            scope = dict(zip(cpf.params, decl.params, strict=False))
            actual = self.expressions.infer(cpf.expr, scope)
            self.expressions.check_tuple(cpf.expr, decl.range, scope, f"the CPF of {cpf.name}")
            if not self.expressions.fits(actual, decl.range):
                self.diagnostics.append(error("R206", f"the CPF of {cpf.name} gives {describe(actual)}, "
                                              f"but {cpf.name} is {describe(decl.range)}", cpf.span))
            if decl.kind in ("interm-fluent", "derived-fluent"):
                dependencies[cpf.name] = {
                    name for name in pvariables_in(cpf.expr)
                    if getattr(table.pvariables.get(name), "kind", None) in _LEVELLED
                    # RDDL2 allows a derived fluent defined by recursion over its own groundings
                    and not (name == cpf.name and decl.kind == "derived-fluent")
                }
        for decl in table.pvariables.values():
            if decl.kind in _NEEDS_CPF and decl.name not in seen:
                self.diagnostics.append(error("R207", f"{decl.kind} {decl.name} has no CPF", decl.span))
        self.levels(dependencies, seen)
        for cycle in _cycles(dependencies):
            first = seen[cycle[0]]
            self.diagnostics.append(error("R209", "intermediate fluents depend on each other in a cycle: "
                                          + " -> ".join([*cycle, cycle[0]]), first.span))


    def levels(self, dependencies: dict[str, set[str]], cpfs: dict[str, ast.Cpf]) -> None:
        """RDDLSim computes interm fluents level by level, so each may only read lower levels."""
        pvariables = self.table.pvariables
        for name, used in sorted(dependencies.items()):
            level = pvariables[name].level
            if not isinstance(level, ast.Integer):
                continue
            for other in sorted(used):
                other_level = pvariables[other].level
                if other == name or not isinstance(other_level, ast.Integer):
                    continue  # reading itself is a cycle, reported as one
                if other_level.value >= level.value:
                    self.diagnostics.append(warning(
                        "R220", f"{name} (level {level.value}) reads {other} (level {other_level.value}): "
                        "an interm fluent may only read those of lower levels", cpfs[name].span))


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle per strongly connected knot, found by depth-first search (without recursion)."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    cycles: list[list[str]] = []
    for root in sorted(graph):
        if root in state:
            continue
        path: list[str] = [root]
        iterators = [iter(sorted(graph.get(root, ())))]
        state[root] = 1
        while iterators:
            successor = next(iterators[-1], None)
            if successor is None:
                state[path.pop()] = 2
                iterators.pop()
            elif state.get(successor) == 1:
                cycles.append(path[path.index(successor):])
            elif successor not in state:
                state[successor] = 1
                path.append(successor)
                iterators.append(iter(sorted(graph.get(successor, ()))))
    return cycles


# ---------------------------------------------------------------------------------------------------
# non-fluents and instances


def _domain_of(block: ast.NonFluents | ast.Instance, table: SymbolTable | None,
               diagnostics: list[Diagnostic], known: Iterable[str] = ()) -> SymbolTable | None:
    kind = "non-fluents block" if isinstance(block, ast.NonFluents) else "instance"
    if block.domain is None:
        diagnostics.append(error("R210", f"{kind} {block.name} does not say its domain (domain = ...;)",
                                 block.span))
        return None
    if table is None:
        hint = next((f" (there is a domain {name}: RDDL names are case sensitive)" for name in known
                     if name.lower() == block.domain.lower()), "")
        diagnostics.append(error("R210", f"{kind} {block.name} names domain {block.domain}, which is not "
                                 f"among the files given{hint}", block.span))
    return table


def _domain_objects(table: SymbolTable) -> dict[str, str]:
    """RDDL2: the objects a domain declares for every instance."""
    return {name: decl.type for decl in table.domain.objects for name in decl.names}


def _declare_objects(table: SymbolTable, decls: tuple[ast.ObjectsDecl, ...], objects: dict[str, str],
                     diagnostics: list[Diagnostic]) -> dict[str, str]:
    objects = dict(objects)
    for decl in decls:
        type_def = table.types.get(decl.type)
        if type_def is None:
            diagnostics.append(error("R201", f"objects of undefined type {decl.type}", decl.span))
            continue
        for name in decl.names:
            if name in objects and objects[name] != decl.type:
                diagnostics.append(error("R213", f"object {name} is declared as a {objects[name]} and as a "
                                         f"{decl.type}", decl.span))
            objects[name] = decl.type
    return objects


def _check_value(expressions: ExpressionTyper, range_type: str, value: ast.Constant, what: str) -> None:
    if isinstance(value, ast.TupleExpr):
        _check_tuple_value(expressions, range_type, value, what)
        return
    if isinstance(value, ast.ObjectValue):
        actual = expressions.object_value(value.name, value)
    elif isinstance(value, ast.EnumValue):
        actual = expressions.enum_value(value)
    else:
        actual = expressions.infer(value, {})
    if not expressions.fits(actual, range_type):
        if isinstance(value, ast.EnumValue) and expressions.table.is_enum(range_type):
            expressions.report("R205", f"{value.name} is not a value of enum {range_type} ({what})", value)
        else:
            expressions.report("R206", f"{what} must be {describe(range_type)}, not {describe(actual)}",
                               value)


def _check_tuple_value(expressions: ExpressionTyper, range_type: str, value: ast.TupleExpr, what: str) -> None:
    """A tuple constant against a tuple type: its labels are members, each value fits its member."""
    tuple_type = expressions.table.types.get(range_type)
    if not isinstance(tuple_type, ast.TupleType):
        expressions.report("R206", f"{what} must be {describe(range_type)}, not a tuple", value)
        return
    given = [label for label, _ in value.entries]
    if tuple_type.index is not None:
        member_range = tuple_type.members[0][1]
        # an object index has its members only in an instance: only an enum index is known here
        labels = expressions.table.enum_values(tuple_type.index)
        for label, member in value.entries:
            if labels and label != "?" and label not in labels:
                expressions.report("R205", f"{label} is not a member of {range_type} ({what})", value)
            _check_value(expressions, member_range, member, what)  # type: ignore[arg-type]
        if labels and given != ["?"] and set(given) < set(labels):
            _missing(expressions, range_type, labels, given, value, what)
        return
    ranges = dict(tuple_type.members)
    if given != ["?"] and set(given) < set(ranges):
        _missing(expressions, range_type, tuple(ranges), given, value, what)
    for label, member in value.entries:
        if label == "?":
            for member_range in ranges.values():
                _check_value(expressions, member_range, member, what)  # type: ignore[arg-type]
        elif label not in ranges:
            expressions.report("R205", f"{label} is not a member of {range_type} ({what})", value)
        else:
            _check_value(expressions, ranges[label], member, what)  # type: ignore[arg-type]


def _missing(expressions: ExpressionTyper, range_type: str, labels: Sequence[str], given: list[str],
             value: ast.TupleExpr, what: str) -> None:
    left_out = ", ".join(label for label in labels if label not in given)
    expressions.report("R205", f"{what} leaves out the member{'s' if ',' in left_out else ''} {left_out} "
                       f"of {range_type}", value)


def _check_assignments(table: SymbolTable, objects: dict[str, str], assignments: tuple[ast.Assignment, ...],
                       kind: str, diagnostics: list[Diagnostic]) -> None:
    expressions = ExpressionTyper(table, objects, diagnostics)
    where = "non-fluents" if kind == "non-fluent" else "init-state"
    for assignment in assignments:
        decl = table.pvariables.get(assignment.name)
        if decl is None:
            diagnostics.append(error("R202", f"undefined pvariable {assignment.name}", assignment.span))
            continue
        if decl.kind != kind:
            diagnostics.append(error("R217", f"{assignment.name} is {article(decl.kind)}; "
                                     f"{where} may only set {kind}s", assignment.span))
            continue
        args = tuple(ast.EnumValue(a, span=assignment.span) if a.startswith("@")
                     else ast.ObjectValue(a, span=assignment.span) for a in assignment.args)
        expressions.arguments(assignment.name, decl.params, args, assignment, {})
        _check_value(expressions, decl.range, assignment.value, f"the value of {assignment.name}")


def _check_instance(instance: ast.Instance, table: SymbolTable | None, nf: ast.NonFluents | None,
                    diagnostics: list[Diagnostic]) -> None:
    objects: dict[str, str] = {}
    if instance.non_fluents is not None:
        if nf is None:
            diagnostics.append(error("R211", f"instance {instance.name} names non-fluents "
                                     f"{instance.non_fluents}, which is not among the files given",
                                     instance.span))
        elif table is not None:
            if nf.domain is not None and nf.domain != instance.domain:
                diagnostics.append(error("R211", f"instance {instance.name} is of domain {instance.domain}, "
                                         f"but its non-fluents {nf.name} are of domain {nf.domain}",
                                         instance.span))
            objects = _declare_objects(table, nf.objects, _domain_objects(table), [])
    horizon = instance.horizon
    if isinstance(horizon, ast.TerminateWhen):
        if table is not None:
            typer = ExpressionTyper(table, {**_domain_objects(table), **objects}, diagnostics)
            typer.expect_bool(typer.infer(horizon.condition, {}), horizon.condition, "terminate-when")
    elif isinstance(horizon, ast.Integer) and horizon.value <= 0:
        diagnostics.append(error("R219", "the horizon must be a positive number of steps", horizon.span))
    elif horizon is not None and not isinstance(horizon, ast.Integer) and horizon != ast.Real(float("inf")):
        diagnostics.append(error("R219", "the horizon must be a whole number of steps", horizon.span))
    discount = instance.discount
    if discount is not None and not (
            isinstance(discount, (ast.Integer, ast.Real)) and 0 <= discount.value <= 1):
        diagnostics.append(error("R219", "the discount must be a number from 0 to 1", discount.span))
    limit = instance.max_nondef_actions
    if limit is not None and not (
            (isinstance(limit, ast.Integer) and limit.value >= 0)
            or (isinstance(limit, ast.Real) and limit.value == float("inf"))):
        diagnostics.append(warning("R219", "max-nondef-actions should be a whole number or pos-inf",
                                   limit.span))
    if table is None:
        return
    objects = _declare_objects(table, instance.objects, objects or _domain_objects(table), diagnostics)
    _check_assignments(table, objects, instance.non_fluent_values, "non-fluent", diagnostics)
    _check_assignments(table, objects, instance.init_state, "state-fluent", diagnostics)

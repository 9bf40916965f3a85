"""How the contingent PDDL nodes print: the printer's rules for its own nodes and the layout of its files.

Apart from `contingent/dialect.py` (which registers the language, with its checks) so that a node prints
without importing the checker: the AST is below the checks (docs/architecture.md, "Floors").
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial

from pddltools.comments import Item
from pddltools.contingent.ast import (
    ContingentDomain,
    ContingentProblem,
    InitInvariant,
    InitOneOf,
    InitOr,
    Sensing,
    StateVariable,
    Unknown,
)
from pddltools.pddl import ast, printer
from pddltools.pddl.printer import INDENT, add_printer_rules, flat, pretty, sexp, typed

add_printer_rules(InitOneOf, lambda n: sexp("oneof", *map(flat, n.parts)), lambda n: ("oneof", list(n.parts)))
add_printer_rules(InitOr, lambda n: sexp("or", *map(flat, n.parts)), lambda n: ("or", list(n.parts)))
add_printer_rules(InitInvariant, lambda n: sexp("invariant", *map(flat, n.parts)),
                  lambda n: ("invariant", list(n.parts)))
add_printer_rules(Unknown, lambda n: sexp("unknown", flat(n.atom)))


def _variable(v: StateVariable) -> str:
    keyword = ":obs-variable" if v.observation else ":variable"
    head = f"({v.name} {typed(v.parameters)})" if v.parameters else (f"({v.name})" if v.parenthesised else v.name)
    return sexp(keyword, head, *map(flat, v.values))


def _sensing_action(node: ast.Action, found: Sensing) -> str:
    """PDDL's layout of an action, its :observe or :sensing-model a part after its effect, so that the
    comments around each part stay with it."""
    keyword, value = (":observe", found.observe) if found.observe is not None else (":sensing-model", found.model)
    params = node.parameters
    items = [Item(printer.around(params[0], params[-1], 2, 1) if params else None,
                  partial(printer.typed_list, ":parameters ", params, 2))]
    if node.vars:
        items.append(Item(printer.around(node.vars[0], node.vars[-1], 2, 1),
                          partial(printer.typed_list, ":vars ", node.vars, 2)))
    items += [printer.slot(k, v, 2) for k, v in ((":precondition", node.precondition), (":effect", node.effect))
              if v is not None]
    items.append(printer.slot(keyword, value, 2))
    region = printer.span(node)
    comment = printer.head_comment(items, region)
    chunks = printer.lay(items, region, INDENT * 2)
    return f"(:action {node.name}{comment}\n" + printer.close(chunks, INDENT)


def printed_domain(node: ContingentDomain) -> str:
    """PDDL's layout; a sensing action gets its :observe or :sensing-model after its effect. Every part is
    an item with its source, so that the author's comments stay where they were."""
    senses = {s.action: s for s in node.sensing}
    sections = [Item(printer.span(v), partial(_variable, v)) for v in node.variables]
    if node.default_sensing is not None:
        default = node.default_sensing
        sections.append(Item(printer.around(default, default, 2, 1),
                             lambda: f"(:default-sensing-model {pretty(default, 1)})"))
    for structure in node.domain.structures:
        found = senses.get(getattr(structure, "name", ""))
        if isinstance(structure, ast.Action) and found is not None:
            sections.append(Item(printer.span(structure), partial(_sensing_action, structure, found)))
        else:
            sections.append(printer.structure_item(structure, printer.to_pddl))
    return printer.domain(replace(node.domain, structures=()), sections)


def printed_problem(node: ContingentProblem) -> str:
    hidden = [sexp(":hidden", *map(flat, h.literals)) for h in node.hidden]
    if node.problem is None:
        return f"(define (problem {node.name})\n" + "\n".join(INDENT + h for h in hidden) + ")\n"
    return printer.problem(node.problem, hidden)

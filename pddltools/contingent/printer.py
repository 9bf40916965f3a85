"""How the contingent PDDL nodes print: the printer's rules for its own nodes and the layout of its files.

Apart from `contingent/dialect.py` (which registers the language, with its checks) so that a node prints
without importing the checker: the AST is below the checks (docs/architecture.md, "Floors").
"""

from __future__ import annotations

from dataclasses import replace

from pddltools.contingent.ast import (
    ContingentDomain,
    ContingentProblem,
    InitInvariant,
    InitOneOf,
    InitOr,
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


def printed_domain(node: ContingentDomain) -> str:
    """PDDL's layout; a sensing action gets its :observe or :sensing-model after its effect."""
    senses = {s.action: s for s in node.sensing}
    sections = [_variable(v) for v in node.variables]
    if node.default_sensing is not None:
        sections.append(f"(:default-sensing-model {pretty(node.default_sensing, 1)})")
    for structure in node.domain.structures:
        text = printer.to_pddl(structure)
        found = senses.get(getattr(structure, "name", ""))
        if isinstance(structure, ast.Action) and found is not None:
            keyword, value = ((":observe", found.observe) if found.observe is not None
                              else (":sensing-model", found.model))
            text = text[:-1] + f"\n{INDENT * 2}{keyword} {pretty(value, 2)})"  # before the action's closing ')'
        sections.append(text)
    return printer.domain(replace(node.domain, structures=()), sections)


def printed_problem(node: ContingentProblem) -> str:
    hidden = [sexp(":hidden", *map(flat, h.literals)) for h in node.hidden]
    if node.problem is None:
        return f"(define (problem {node.name})\n" + "\n".join(INDENT + h for h in hidden) + ")\n"
    return printer.problem(node.problem, hidden)

"""The symbol table of one RDDL domain, and how the type checker names types in its messages.

Types are strings: "bool", "int", "real", a declared type's name, "@v" for an enum value that several
enums share (the context must tell which), or UNKNOWN when an earlier error already explains the
problem, so that one mistake gives one diagnostic, not a cascade.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pddltools.diagnostics import Diagnostic, Span, error
from pddltools.rddl import ast

UNKNOWN = "?"
#: an RDDL2 tuple value whose members are not tracked (a literal `< ... >`, a Multinomial draw): it fits
#: any tuple type
TUPLE = "<tuple>"
NUMERIC = ("bool", "int", "real")


@dataclass
class SymbolTable:
    """The types, enum values and pvariables one domain declares (duplicates reported once)."""

    domain: ast.Domain
    types: dict[str, ast.TypeDef] = field(default_factory=dict)
    enums_of_value: dict[str, list[str]] = field(default_factory=dict)
    pvariables: dict[str, ast.PVariableDecl] = field(default_factory=dict)

    @classmethod
    def build(cls, domain: ast.Domain, diagnostics: list[Diagnostic]) -> SymbolTable:
        table = cls(domain)
        for type_def in domain.types:
            if type_def.name in table.types or type_def.name in NUMERIC or type_def.name == "object":
                diagnostics.append(duplicate("type", type_def.name, type_def.span,
                                              getattr(table.types.get(type_def.name), "span", None)))
                continue
            table.types[type_def.name] = type_def
            if isinstance(type_def, ast.EnumType):
                for value in type_def.values:
                    table.enums_of_value.setdefault(value, []).append(type_def.name)
        for type_def in domain.types:
            if isinstance(type_def, ast.ObjectType) and type_def.parent != "object":
                parent = table.types.get(type_def.parent)
                if not isinstance(parent, ast.ObjectType):
                    diagnostics.append(error("R201", f"type {type_def.name} extends undefined object type "
                                             f"{type_def.parent}", type_def.span))
        for decl in domain.pvariables:
            if decl.name in table.pvariables:
                diagnostics.append(duplicate("pvariable", decl.name, decl.span,
                                              table.pvariables[decl.name].span))
                continue
            table.pvariables[decl.name] = decl
        return table

    def is_entity(self, type_name: str) -> bool:
        """An object or enum type: what pvariable parameters range over."""
        return type_name in self.types or type_name == "object"

    def is_enum(self, type_name: str) -> bool:
        return isinstance(self.types.get(type_name), ast.EnumType)

    def is_subtype(self, sub: str, sup: str) -> bool:
        seen = set()
        while sub not in seen:
            if sub == sup:
                return True
            seen.add(sub)
            type_def = self.types.get(sub)
            if not isinstance(type_def, ast.ObjectType):
                return sup == "object" and sub != UNKNOWN and not self.is_enum(sub) and sub not in NUMERIC
            sub = type_def.parent
        return False

    def is_int_enum(self, type_name: str) -> bool:
        """RDDL2's `{@1..@4}`: an enum whose values are integers, which arithmetic reads as numbers."""
        values = self.enum_values(type_name)
        return bool(values) and all(v[1:].isdigit() for v in values)

    def enum_values(self, type_name: str) -> tuple[str, ...]:
        type_def = self.types.get(type_name)
        return type_def.values if isinstance(type_def, ast.EnumType) else ()


def duplicate(what: str, name: str, span: Span | None, first: Span | None) -> Diagnostic:
    diagnostic = error("R213", f"{what} {name} is declared twice", span)
    if first is not None:
        return Diagnostic(diagnostic.code, diagnostic.severity, diagnostic.message, span,
                          (("first declared here", first),))
    return diagnostic


def enum_literal(value: str) -> str:
    """The type of an enum constant whose enum the context must tell (it is in several enums)."""
    return "@" + value




def describe(type_name: str) -> str:
    if type_name == "bool":
        return "a boolean"
    if type_name in ("int", "real"):
        return "an int" if type_name == "int" else "a real"
    if type_name.startswith("@"):
        return f"the enum value {type_name[1:]}"
    if type_name == UNKNOWN:
        return "an unknown type"
    if type_name == TUPLE:
        return "a tuple"
    return article(type_name)


def article(noun: str) -> str:
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


def count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")

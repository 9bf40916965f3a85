"""What a domain's actions (and PDDL+ processes and events) read and change, collected in one traversal
for the checks that need it.

Several checks ask the same questions (which predicates do effects add? which functions are ever
assigned? which parameters are mentioned?); walking a large domain once for all of them keeps checking
the corpus within twice the time of parsing it. What effects change is `pddltools.pddl.changes`, computed
once per domain and shared with the compiler and the semantics.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pddltools.pddl import ast
from pddltools.pddl.changes import Changes, changes
from pddltools.static_typing import assert_never


@dataclass
class DomainFacts:
    #: what effects add, delete and update: the one computation the compiler and the semantics share
    changes: Changes
    read_predicates: set[str] = field(default_factory=set)  # in conditions and effects
    first_function_reads: dict[str, ast.FunctionTerm] = field(default_factory=dict)
    preferences: set[str] = field(default_factory=set)
    mentioned: dict[int, set[str]] = field(default_factory=dict)  # id(structure) → variables it mentions

    @property
    def added(self) -> frozenset[str]:
        return self.changes.added

    @property
    def deleted(self) -> frozenset[str]:
        return self.changes.deleted

    @property
    def changed_functions(self) -> frozenset[str]:
        """Functions some effect updates."""
        return self.changes.updated_functions

    @property
    def assigned_functions(self) -> frozenset[str]:
        """Functions some effect sets with `assign` (a value given without reading the old one)."""
        return self.changes.assigned_functions

    @classmethod
    def of(cls, domain: ast.Domain) -> DomainFacts:
        facts = cls(changes(domain))
        if domain.constraints is not None:
            facts._condition(domain.constraints, set())
        for structure in (*domain.structures, *domain.processes, *domain.events):
            mentioned: set[str] = set()
            facts.mentioned[id(structure)] = mentioned
            if isinstance(structure, ast.DerivedPredicate):
                facts._condition(structure.body, mentioned)
                continue
            if not isinstance(structure, ast.DurativeAction):
                conditions = [structure.precondition]
            else:
                conditions = [structure.duration, structure.condition]
            for condition in conditions:
                if condition is not None:
                    facts._condition(condition, mentioned)
            if structure.effect is not None:
                facts._effect(structure.effect, mentioned)
        return facts

    def _condition(self, node: ast.Node, mentioned: set[str]) -> None:
        for sub in node.walk():
            if isinstance(sub, ast.Variable):
                mentioned.add(sub.name)
            elif isinstance(sub, ast.Atom):
                self.read_predicates.add(sub.predicate)
            elif isinstance(sub, ast.FunctionTerm):
                self.first_function_reads.setdefault(sub.function, sub)
            elif isinstance(sub, ast.Preference) and sub.name:
                self.preferences.add(sub.name)

    def _effect(self, effect: ast.Effect, mentioned: set[str]) -> None:
        for node in ast.effect_parts(effect):
            match node:
                case ast.When():
                    self._condition(node.condition, mentioned)
                case ast.Not():
                    if isinstance(node.body, ast.Atom):
                        self.read_predicates.add(node.body.predicate)
                        self._condition_terms(node.body.args, mentioned)
                case ast.Atom():
                    self.read_predicates.add(node.predicate)
                    self._condition_terms(node.args, mentioned)
                case ast.Assign():
                    if node.op != "assign":  # increase, decrease, scale-*: the old value is read
                        self.first_function_reads.setdefault(node.fluent.function, node.fluent)
                    self._condition_terms(node.fluent.args, mentioned)
                    self._condition(node.value, mentioned)
                case ast.AndEffect() | ast.ForallEffect() | ast.Timed():
                    pass  # effect_parts goes on into their parts
                case _:
                    assert_never(node)

    def _condition_terms(self, terms: tuple[ast.Term, ...], mentioned: set[str]) -> None:
        for term in terms:
            self._condition(term, mentioned)

"""The least model of a `Program`: every atom the rules derive from the facts, by semi-naive evaluation.

As in Fast Downward's `build_model`, each fact is taken from a queue once; every rule with a body atom
of its predicate is matched against it there, and the rest of the body is joined with the facts taken
before it. Each combination of facts is so found exactly once, when the last of them is taken. The
join follows a plan made once per (rule, body atom): the remaining atoms in the order that binds the
most variables soonest, each looked up in an index of the facts by the arguments already known.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from pddltools.analysis.program import Program, Rule
from pddltools.analysis.relax import Pattern
from pddltools.semantics.state import GroundAtom

Binding = dict[str, str]


@dataclass(frozen=True, slots=True)
class _Step:
    """Look up `predicate`'s facts by the values at `keys` (variables known, or objects), then bind the
    variables at `binds`; `same` lists positions that must repeat an earlier position's value."""

    predicate: str
    keys: tuple[int, ...]
    key_terms: tuple[str, ...]  # a variable (bound before) or an object, per key position
    binds: tuple[tuple[int, str], ...]
    same: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class _Plan:
    rule: Rule
    trigger: Pattern
    steps: tuple[_Step, ...]
    number: int  # the rule's, for its count of ground atoms still missing


def _steps(atoms: list[Pattern], known: set[str]) -> list[_Step]:
    steps: list[_Step] = []
    known = set(known)
    # each atom's objects, its variables and whether it is a type's: read once, not at every choice
    # (planning the joins was most of the time of grounding a small task)
    left = [(p, sum(1 for a in p.args if not a.startswith("?")), [a for a in p.args if a.startswith("?")],
             1 if p.predicate.startswith("@type") else 0) for p in atoms]
    while left:
        best = 0
        best_score = (2, 0, 0)
        for i, (_, objects, variables, typed) in enumerate(left):
            unknown = [a for a in variables if a not in known]
            free = len(set(unknown))
            # fully known first (a test), then most known arguments, then fewest new variables
            score = (0 if free == 0 else 1, -(objects + len(variables) - len(unknown)), free + typed)
            if score < best_score:
                best, best_score = i, score
        atom = left.pop(best)[0]
        keys, key_terms, binds, same = [], [], [], []
        first: dict[str, int] = {}
        for i, a in enumerate(atom.args):
            if not a.startswith("?") or a in known:
                keys.append(i)
                key_terms.append(a)
            elif a in first:
                same.append((i, first[a]))
            else:
                first[a] = i
                binds.append((i, a))
        known.update(first)
        steps.append(_Step(atom.predicate, tuple(keys), tuple(key_terms), tuple(binds), tuple(same)))
    return steps


class TooLarge(Exception):
    """The program derives more facts than the budget allows."""


class Model:
    """The facts a program derives (`facts`), filled by `run`; more than `budget` raises `TooLarge`."""

    def __init__(self, program: Program, budget: int | None = None) -> None:
        self.program = program
        self.budget = budget
        self.facts: set[GroundAtom] = set()
        self._triggers: dict[str, list[_Plan]] = {}
        self._indexes: dict[str, dict[tuple[int, ...], dict[tuple[str, ...], list[GroundAtom]]]] = {}
        self._by_predicate: dict[str, list[GroundAtom]] = {}
        self._done: set[GroundAtom] = set()
        self._initial: list[tuple[int, Rule, tuple[_Step, ...]]] = []
        # A rule's ground body atoms (a goal's, say: hundreds of them) are counted, not joined: the rule
        # is armed when the last of them is taken, and only then joined over the rest of its body. Joining
        # them like the others would test every one each time one arrives: quadratic in the goal's size.
        self._pending: list[int] = []
        self._waiting: dict[GroundAtom, list[int]] = {}
        self._armed: list[tuple[Rule, tuple[_Step, ...]]] = []
        for number, rule in enumerate(program.rules):
            ground = {(p.predicate, *p.args) for p in rule.body if not any(a.startswith("?") for a in p.args)}
            rest = [p for p in rule.body if any(a.startswith("?") for a in p.args)]
            self._pending.append(len(ground))
            for atom in ground:
                self._waiting.setdefault(atom, []).append(number)
            whole = tuple(_steps(rest, set()))
            self._armed.append((rule, whole))
            self._index_steps(whole)
            if not ground:
                self._initial.append((number, rule, whole))
            for i, trigger in enumerate(rest):
                known = {a for a in trigger.args if a.startswith("?")}
                steps = _steps([p for j, p in enumerate(rest) if j != i], known)
                self._triggers.setdefault(trigger.predicate, []).append(_Plan(rule, trigger, tuple(steps), number))
                self._index_steps(steps)

    def _index_steps(self, steps: Iterable[_Step]) -> None:
        for step in steps:
            if step.keys:
                self._indexes.setdefault(step.predicate, {}).setdefault(step.keys, {})

    def run(self) -> Model:
        queue: deque[GroundAtom] = deque()
        facts = self.facts
        budget = self.budget

        def derive(rule: Rule, binding: Binding) -> None:
            get = binding.get
            for a, b in rule.distinct:
                if get(a, a) == get(b, b):
                    return
            for head in rule.heads:
                fact = (head.predicate, *[get(a, a) for a in head.args])
                if fact not in facts:
                    facts.add(fact)
                    queue.append(fact)
            if budget is not None and len(facts) > budget:
                raise TooLarge(f"more than {budget} facts")

        for fact in self.program.facts:
            if fact not in facts:
                facts.add(fact)
                queue.append(fact)
        pending = self._pending
        for _, rule, whole in self._initial:
            if not whole:
                derive(rule, {})  # nothing to wait for (its variables, if any, are typed: not here)
        while queue:
            fact = queue.popleft()
            self._take(fact)
            for number in self._waiting.get(fact, ()):
                pending[number] -= 1
                if pending[number] == 0:
                    rule, whole = self._armed[number]
                    for full in self._join(whole, 0, {}):
                        derive(rule, full)
            for plan in self._triggers.get(fact[0], ()):
                if pending[plan.number]:
                    continue  # not armed yet: arming joins over every fact taken by then
                binding = _match(plan.trigger.args, fact)
                if binding is None:
                    continue
                for full in self._join(plan.steps, 0, binding):
                    derive(plan.rule, full)
        return self

    def _take(self, fact: GroundAtom) -> None:
        self._done.add(fact)
        self._by_predicate.setdefault(fact[0], []).append(fact)
        for keys, index in self._indexes.get(fact[0], {}).items():
            index.setdefault(tuple(fact[k + 1] for k in keys), []).append(fact)

    def _join(self, steps: tuple[_Step, ...], at: int, binding: Binding) -> list[Binding]:
        """Every extension of `binding` that matches `steps[at:]`, step by step over the whole frontier
        (no generator per binding: a rover's communicate action joins hundreds of thousands of them)."""
        rows = [binding]
        done = self._done
        for step in steps[at:]:
            out: list[Binding] = []
            terms = step.key_terms
            if not step.binds and not step.same:
                # every argument known: a membership test
                predicate = step.predicate
                for row in rows:
                    if (predicate, *[row.get(t, t) for t in terms]) in done:
                        out.append(row)
            elif step.keys:
                index = self._indexes[step.predicate][step.keys]
                for row in rows:
                    for fact in index.get(tuple([row.get(t, t) for t in terms]), ()):
                        self._extend(step, row, fact, out)
            else:
                candidates = self._by_predicate.get(step.predicate, ())
                for row in rows:
                    for fact in candidates:
                        self._extend(step, row, fact, out)
            rows = out
            if not rows:
                break
        return rows

    @staticmethod
    def _extend(step: _Step, row: Binding, fact: GroundAtom, out: list[Binding]) -> None:
        for i, j in step.same:
            if fact[i + 1] != fact[j + 1]:
                return
        extended = row.copy()
        for i, name in step.binds:
            extended[name] = fact[i + 1]
        out.append(extended)

    def matching(self, pattern: Pattern, binding: Binding | None = None) -> Iterator[GroundAtom]:
        """The derived facts that fit `pattern` (its variables bound by `binding` where given)."""
        binding = binding or {}
        for fact in self._by_predicate.get(pattern.predicate, ()):
            if _match(tuple(binding.get(a, a) for a in pattern.args), fact) is not None:
                yield fact

    def of(self, predicate: str) -> list[GroundAtom]:
        return self._by_predicate.get(predicate, [])


def _match(args: tuple[str, ...], fact: GroundAtom) -> Binding | None:
    if len(args) != len(fact) - 1:
        return None
    binding: Binding = {}
    for a, value in zip(args, fact[1:], strict=True):
        if a.startswith("?"):
            seen = binding.get(a)
            if seen is None:
                binding[a] = value
            elif seen != value:
                return None
        elif a != value:
            return None
    return binding

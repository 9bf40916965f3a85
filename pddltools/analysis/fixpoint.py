"""The least model of a `Program`: every atom the rules derive from the facts, by semi-naive evaluation.

As in Fast Downward's `build_model`, each fact is taken from a queue once; every rule with a body atom
of its predicate is matched against it there, and the rest of the body is joined with the facts taken
before it. Each combination of facts is so found exactly once, when the last of them is taken.

The join follows a plan made when its body atom first arrives: the remaining atoms in the order
expected to keep the fewest partial matches alive (atoms whose arguments are all known, tests, first;
then the atom with the fewest expected matches: for a predicate no rule derives, the mean number of its
facts per value of the known positions; for one the rules derive, whose facts are not known yet, the
product of its new variables' type sizes, an upper bound), each looked up in an index of the facts by
the arguments already known. A plan is run by a small interpreter at first; one that keeps being run
is turned into a Python function of nested loops, since a large task joins tens of millions of partial
matches (a rover's communicate actions) and a loop over local variables costs a fraction of a dictionary
copied per match, while a small task's hundreds of plans, each run a few times, are not worth compiling.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from operator import itemgetter

from pddltools.analysis.program import Program, Rule
from pddltools.analysis.relax import Pattern
from pddltools.semantics.state import GroundAtom

Binding = dict[str, str]
#: an index of one predicate's facts by the values at some of its positions (one value, or a tuple)
Index = dict[object, list[GroundAtom]]
#: a plan is compiled when it is run this many times
COMPILE_AFTER = 16


@dataclass(frozen=True, slots=True)
class _Step:
    """Look up `predicate`'s facts by the values at `keys` (variables known, or objects), then bind the
    variables at `binds`; `same` lists positions that must repeat an earlier position's value."""

    predicate: str
    keys: tuple[int, ...]
    key_terms: tuple[str, ...]  # a variable (bound before) or an object, per key position
    binds: tuple[tuple[int, str], ...]
    same: tuple[tuple[int, int], ...]

    @property
    def test(self) -> bool:
        return not self.binds and not self.same


class _Plan:
    """A rule's join from one body atom (`trigger`; none for a rule armed by its ground atoms) over the
    rest of its body; its steps are planned, and its compiled function made, when first needed."""

    __slots__ = ("calls", "number", "rest", "rule", "run", "steps", "trigger")

    def __init__(self, rule: Rule, trigger: Pattern | None, rest: list[Pattern], number: int) -> None:
        self.rule = rule
        self.trigger = trigger
        self.rest = rest
        self.number = number  # the rule's, for its count of ground atoms still missing
        self.steps: tuple[_Step, ...] | None = None
        self.calls = 0
        self.run: Callable[..., None] | None = None


class _Sizes:
    """What the join order needs to know of the facts: which predicates the rules derive, the initial
    facts of each other predicate, and each type's number of objects."""

    def __init__(self, program: Program) -> None:
        self.derived = {head.predicate for rule in program.rules for head in rule.heads}
        self.facts: dict[str, list[GroundAtom]] = {}
        for fact in program.facts:
            self.facts.setdefault(fact[0], []).append(fact)
        self._mean: dict[tuple[str, tuple[int, ...]], float] = {}
        self.objects = len({a for fact in program.facts for a in fact[1:]}) or 1

    def domains(self, rule: Rule) -> dict[str, int]:
        """Each variable's number of possible values, from the rule's type atoms."""
        sizes: dict[str, int] = {}
        for atom in rule.body:
            if atom.predicate.startswith("@type") and len(atom.args) == 1 and atom.args[0].startswith("?"):
                n = len(self.facts.get(atom.predicate, ()))
                sizes[atom.args[0]] = min(n, sizes.get(atom.args[0], n))
        return sizes

    def expected(self, atom: Pattern, known: set[str], new: list[str], domains: dict[str, int]) -> float:
        """How many facts are expected to match `atom` once the variables `known` are bound."""
        if atom.predicate in self.derived:
            product = 1.0
            for variable in new:
                product *= domains.get(variable, self.objects)
            return product
        keys = tuple(j for j, a in enumerate(atom.args) if not a.startswith("?") or a in known)
        mean = self._mean.get((atom.predicate, keys))
        if mean is None:
            facts = self.facts.get(atom.predicate, ())
            values = {tuple(f[k + 1] for k in keys if k + 1 < len(f)) for f in facts}
            mean = self._mean[atom.predicate, keys] = len(facts) / len(values) if values else 0.0
        return mean

    def plan(self, atoms: list[Pattern], known: set[str], rule: Rule) -> tuple[_Step, ...]:
        steps: list[_Step] = []
        known = set(known)
        domains: dict[str, int] | None = None
        left = [(atom, [a for a in dict.fromkeys(atom.args) if a.startswith("?")]) for atom in atoms]
        while left:
            best = -1
            for i, (_, variables) in enumerate(left):
                if all(v in known for v in variables):
                    best = i  # a test: it can only remove matches
                    break
            if best < 0:
                domains = domains if domains is not None else self.domains(rule)
                best_score = (0.0, 0, 0)
                for i, (atom, variables) in enumerate(left):
                    new = [v for v in variables if v not in known]
                    score = (self.expected(atom, known, new, domains), len(new) - len(atom.args), len(new))
                    if best < 0 or score < best_score:
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
        return tuple(steps)


class TooLarge(Exception):
    """The program derives more facts than the budget allows."""


class Model:
    """The facts a program derives (`facts`), filled by `run`; more than `budget` raises `TooLarge`."""

    def __init__(self, program: Program, budget: int | None = None) -> None:
        self.program = program
        self.budget = budget
        self.facts: set[GroundAtom] = set()
        self._sizes = _Sizes(program)
        self._triggers: dict[str, list[_Plan]] = {}
        self._indexes: dict[tuple[str, tuple[int, ...]], Index] = {}
        # what taking a fact adds to each index of its predicate
        self._takers: dict[str, list[tuple[Callable[[GroundAtom], object], Index]]] = {}
        self._by_predicate: dict[str, list[GroundAtom]] = {}
        self._done: set[GroundAtom] = set()
        self._queue: deque[GroundAtom] = deque()
        # A rule's ground body atoms (a goal's, say: hundreds of them) are counted, not joined: the rule
        # is armed when the last of them is taken, and only then joined over the rest of its body. Joining
        # them like the others would test every one each time one arrives: quadratic in the goal's size.
        self._pending: list[int] = []
        self._waiting: dict[GroundAtom, list[int]] = {}
        self._armed: list[_Plan] = []
        for number, rule in enumerate(program.rules):
            ground = {(p.predicate, *p.args) for p in rule.body if not any(a.startswith("?") for a in p.args)}
            rest = [p for p in rule.body if any(a.startswith("?") for a in p.args)]
            self._pending.append(len(ground))
            for atom in ground:
                self._waiting.setdefault(atom, []).append(number)
            self._armed.append(_Plan(rule, None, rest, number))
            for i, trigger in enumerate(rest):
                others = [p for j, p in enumerate(rest) if j != i]
                self._triggers.setdefault(trigger.predicate, []).append(_Plan(rule, trigger, others, number))

    def run(self) -> Model:
        queue = self._queue
        facts = self.facts
        for fact in self.program.facts:
            if fact not in facts:
                facts.add(fact)
                queue.append(fact)
        self._check_budget()
        pending = self._pending
        for plan in self._armed:
            if not pending[plan.number] and not plan.rest:
                self._call(plan, None)  # nothing to wait for (its variables, if any, are typed: not here)
        done = self._done
        by_predicate = self._by_predicate
        takers = self._takers
        triggers = self._triggers
        waiting = self._waiting
        armed = self._armed
        call = self._call
        while queue:
            fact = queue.popleft()
            predicate = fact[0]
            done.add(fact)
            taken = by_predicate.get(predicate)
            if taken is None:
                by_predicate[predicate] = [fact]
            else:
                taken.append(fact)
            for key, index in takers.get(predicate, ()):
                value = key(fact)
                bucket = index.get(value)
                if bucket is None:
                    index[value] = [fact]
                else:
                    bucket.append(fact)
            numbers = waiting.get(fact)
            if numbers is not None:
                for number in numbers:
                    pending[number] -= 1
                    if pending[number] == 0:
                        call(armed[number], None)
            for plan in triggers.get(predicate, ()):
                if pending[plan.number]:
                    continue  # not armed yet: arming joins over every fact taken by then
                if plan.run is not None:
                    plan.run(fact)
                else:
                    call(plan, fact)
        return self

    def _call(self, plan: _Plan, fact: GroundAtom | None) -> None:
        """Runs a plan not compiled yet: interpreted, or compiled first if it has been run often."""
        if plan.steps is None:
            known = {a for a in plan.trigger.args if a.startswith("?")} if plan.trigger else set()
            plan.steps = self._sizes.plan(plan.rest, known, plan.rule)
            for step in plan.steps:
                if not step.test and step.keys:
                    self._index(step.predicate, step.keys)
        plan.calls += 1
        if plan.calls >= COMPILE_AFTER:
            plan.run = _Compiler(self, plan, plan.steps).function()
            if fact is None:
                plan.run()
            else:
                plan.run(fact)
            return
        binding: Binding | None = {}
        if plan.trigger is not None and fact is not None:
            binding = _match(plan.trigger.args, fact)
        if binding is not None:
            for full in self._join(plan.steps, binding):
                self._derive(plan.rule, full)

    def _index(self, predicate: str, keys: tuple[int, ...]) -> Index:
        """The index of `predicate`'s facts by the values at `keys`, made (from the facts taken so far)
        when a plan first needs it."""
        index = self._indexes.get((predicate, keys))
        if index is None:
            index = self._indexes[predicate, keys] = {}
            key = itemgetter(*[k + 1 for k in keys])
            for fact in self._by_predicate.get(predicate, ()):
                index.setdefault(key(fact), []).append(fact)
            self._takers.setdefault(predicate, []).append((key, index))
        return index

    def _check_budget(self) -> None:
        if self.budget is not None and len(self.facts) > self.budget:
            raise TooLarge(f"more than {self.budget} facts")

    def _derive(self, rule: Rule, binding: Binding) -> None:
        get = binding.get
        for a, b in rule.distinct:
            if get(a, a) == get(b, b):
                return
        for head in rule.heads:
            fact = (head.predicate, *[get(a, a) for a in head.args])
            if fact not in self.facts:
                self.facts.add(fact)
                self._queue.append(fact)
        self._check_budget()

    def _join(self, steps: tuple[_Step, ...], binding: Binding) -> list[Binding]:
        """Every extension of `binding` that matches `steps`, step by step over the whole frontier."""
        rows = [binding]
        done = self._done
        for step in steps:
            out: list[Binding] = []
            terms = step.key_terms
            if step.test:
                predicate = step.predicate
                out = [row for row in rows if (predicate, *[row.get(t, t) for t in terms]) in done]
            else:
                index = self._indexes[step.predicate, step.keys] if step.keys else None
                matches: list[GroundAtom] = self._by_predicate.get(step.predicate, [])
                same = step.same
                for row in rows:
                    if index is not None:  # an index's key is one value, or a tuple of several
                        key = row.get(terms[0], terms[0]) if len(terms) == 1 else tuple([row.get(t, t) for t in terms])
                        matches = index.get(key, [])
                    for fact in matches:
                        if same and not all(fact[i + 1] == fact[j + 1] for i, j in same):
                            continue
                        extended = row.copy()
                        for i, name in step.binds:
                            extended[name] = fact[i + 1]
                        out.append(extended)
            rows = out
            if not rows:
                break
        return rows

    def matching(self, pattern: Pattern, binding: Binding | None = None) -> Iterator[GroundAtom]:
        """The derived facts that fit `pattern` (its variables bound by `binding` where given)."""
        binding = binding or {}
        for fact in self._by_predicate.get(pattern.predicate, ()):
            if _match(tuple(binding.get(a, a) for a in pattern.args), fact) is not None:
                yield fact

    def of(self, predicate: str) -> list[GroundAtom]:
        return self._by_predicate.get(predicate, [])


class _Compiler:
    """Writes a plan as the source of one function, a loop per step that binds variables and a test per
    step that only checks, with the rule's heads added to the model innermost; then compiles it."""

    def __init__(self, model: Model, plan: _Plan, steps: tuple[_Step, ...]) -> None:
        self.model = model
        self.plan = plan
        self.steps = steps
        self.names: dict[str, str] = {}  # a rule variable's local name
        self.namespace: dict[str, object] = {"done": model._done, "facts": model.facts,
                                             "push": model._queue.append, "check": model._check_budget}
        self.lines: list[str] = []
        self.depth = 1

    def term(self, term: str) -> str:
        return self.names.get(term, repr(term))

    def emit(self, line: str) -> None:
        self.lines.append("    " * self.depth + line)

    def skip(self) -> str:
        return "continue" if self.depth > 1 else "return"

    def function(self) -> Callable[..., None]:
        trigger = self.plan.trigger
        if trigger is None:
            self.lines.append("def join():")
        else:
            self.lines.append("def join(fact):")
            self.emit(f"if len(fact) != {len(trigger.args) + 1}: return")
            for i, a in enumerate(trigger.args):
                if not a.startswith("?"):
                    self.emit(f"if fact[{i + 1}] != {a!r}: return")
                elif a in self.names:
                    self.emit(f"if fact[{i + 1}] != {self.names[a]}: return")
                else:
                    self.names[a] = f"v{len(self.names)}"
                    self.emit(f"{self.names[a]} = fact[{i + 1}]")
        for n, step in enumerate(self.steps):
            self.step(n, step)
        self.derive()
        source = "\n".join(self.lines) + "\n"
        exec(compile(source, f"<join of rule {self.plan.number}>", "exec"), self.namespace)
        function = self.namespace["join"]
        assert callable(function)
        return function

    def step(self, n: int, step: _Step) -> None:
        terms = [self.term(t) for t in step.key_terms]
        if step.test:
            self.emit(f"if ({', '.join([repr(step.predicate), *terms])},) not in done: {self.skip()}")
            return
        if step.keys:
            self.namespace[f"i{n}"] = self.model._indexes[step.predicate, step.keys]
            key = terms[0] if len(terms) == 1 else "(" + ", ".join(terms) + ")"
            self.emit(f"for f{n} in i{n}.get({key}, ()):")
        else:
            self.namespace[f"b{n}"] = self.model._by_predicate.setdefault(step.predicate, [])
            self.emit(f"for f{n} in b{n}:")
        self.depth += 1
        for i, j in step.same:
            self.emit(f"if f{n}[{i + 1}] != f{n}[{j + 1}]: continue")
        for i, name in step.binds:
            self.names[name] = f"v{len(self.names)}"
            self.emit(f"{self.names[name]} = f{n}[{i + 1}]")

    def derive(self) -> None:
        rule = self.plan.rule
        for a, b in rule.distinct:
            self.emit(f"if {self.term(a)} == {self.term(b)}: {self.skip()}")
        for head in rule.heads:
            self.emit(f"h = ({', '.join([repr(head.predicate), *[self.term(a) for a in head.args]])},)")
            self.emit("if h not in facts:")
            self.emit("    facts.add(h)")
            self.emit("    push(h)")
        if self.model.budget is not None and rule.heads:
            self.emit(f"if len(facts) > {self.model.budget}: check()")
        if not rule.heads:
            self.emit("pass")


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

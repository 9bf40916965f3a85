"""Remove derived predicates: substitute the non-recursive ones, compute the recursive ones by actions.

Requires: nothing. Guarantees: no `:derived`.
- A derived predicate that does not depend on itself is substituted where it is used: each use becomes
  the definition's body (the disjunction of the bodies when a predicate has several rules) with the
  arguments put in for its parameters and its own quantified variables renamed apart. Formulas may grow.
- The recursive ones (those on a cycle of the dependency graph) become ordinary predicates that
  auxiliary actions compute, one strongly connected component of them at a time. An action that
  changes something a component depends on clears the component's atoms, to be computed again.
  - A component read only positively gets one action per rule, `derive-p`, that adds `(p params)`
    where the body holds. Every atom it adds is true, and a missing one only makes a precondition
    harder, so a plan derives just the atoms it uses.
  - A component whose atoms must be known exactly (read under a negation, in an effect condition, or
    below such a component) is computed to its fixpoint, as the IPC-2004 organisers compiled PSR:
    `derive` applies every rule at once (`(forall (params) (when (and (not (p params)) body) (and
    (p params) new)))`) and `derived-fixpoint` marks the component `fixed` when a `derive` added
    nothing. The actions and the goal that need it exactly wait for `fixed`; `derive` waits for the
    components below. Computed in dependency order, each least fixpoint is what PDDL's stratified
    semantics gives, so a plan of the result, without the auxiliary steps, is a plan of the input.
  A component whose rules use one of its own predicates under a negation is not stratified and is
  refused (E802), naming it.
The domain stays domain-level; the auxiliary steps are dropped by the back map.
"""

from __future__ import annotations

from dataclasses import replace

from pddltools.compile.errors import compile_error
from pddltools.compile.formulas import TRUE, Fresh, Rewriter, conjoin, disjoin, variables_in
from pddltools.compile.task import Origin, ParsedTask, PassResult, identity, names_in_use, unique_name
from pddltools.pddl import ast
from pddltools.pddl.changes import changed_predicates
from pddltools.semantics.derived import polarities, strata
from pddltools.semantics.errors import NotStratified


def _negated(formula: ast.Formula) -> set[str]:
    """The predicates a formula reads under a negation."""
    return {p for p, positive in polarities(formula) if not positive}


class _Substituter(Rewriter):
    """Atoms of the non-recursive derived predicates replaced by their definitions; `fresh` names the
    variables their quantifiers are renamed to, for the structure being rewritten (see `within`)."""

    def __init__(self, rules: dict[str, list[ast.DerivedPredicate]]) -> None:
        self.rules = rules
        self.fresh = Fresh(())

    def within(self, fresh: Fresh) -> _Substituter:
        self.fresh = fresh
        return self

    def formula(self, formula: ast.Formula) -> ast.Formula:
        if isinstance(formula, ast.Atom) and formula.predicate in self.rules:
            return self.expand(formula)
        return super().formula(formula)

    def expand(self, atom: ast.Atom) -> ast.Formula:
        bodies = []
        for rule in self.rules[atom.predicate]:
            pairs = zip(rule.predicate.parameters, atom.args, strict=True)
            mapping: dict[str, ast.Term] = {p.name: arg for p, arg in pairs}
            body = self.formula(rule.body)
            bodies.append(ast.substitute(_Renamer(self.fresh).formula(body), mapping))
        return disjoin(bodies)


class _Renamer(Rewriter):
    """Renames the quantified variables of a substituted body apart from those where it lands."""

    def __init__(self, fresh: Fresh) -> None:
        self.fresh = fresh

    def formula(self, formula: ast.Formula) -> ast.Formula:
        if isinstance(formula, ast.Exists | ast.Forall):
            variables, mapping = _renamed(formula.variables, self.fresh)
            return replace(formula, variables=variables, body=self.formula(ast.substitute(formula.body, mapping)))
        return super().formula(formula)


class _Component:
    """One strongly connected component of recursive derived predicates."""

    def __init__(self, names: list[str], bodies: list[tuple[ast.DerivedPredicate, ast.Formula]]) -> None:
        self.names = frozenset(names)
        self.bodies = bodies  # each rule with its body, non-recursive derived predicates substituted
        self.reads = {name for _, body in bodies for name in _names_read(body)}
        self.below: list[_Component] = []  # the earlier components this one reads
        self.base: set[str] = set()  # every ordinary predicate and fluent it depends on, through those too
        # Closed: its atoms must be known exactly (somewhere they are read negatively, or decide an
        # effect); then its three flags say whether `derive` has reached the fixpoint.
        self.flags: tuple[ast.Atom, ast.Atom, ast.Atom] | None = None


class _Fixpoint:
    """The predicates and actions that compute the recursive components, and what the domain's
    actions and the goal must do about them."""

    def __init__(self, domain: ast.Domain, components: list[list[str]], rules: dict[str, list[ast.DerivedPredicate]],
                 substituter: _Substituter, uses: list[tuple[ast.Formula, bool]]) -> None:
        """`uses`: the formulas that read derived predicates outside their definitions (preconditions,
        goal, effect conditions), each with whether it must be decided exactly (an effect condition)."""
        self.taken = names_in_use(domain)
        self.predicates: list[ast.PredicateDecl] = []
        self.actions: list[ast.Action] = []
        self.components: list[_Component] = []
        computed = {n for c in components for n in c}
        for names in components:
            bodies = [(rule, substituter.within(Fresh(variables_in(rule.body))).formula(rule.body))
                      for name in names for rule in rules[name]]
            component = _Component(names, bodies)
            component.below = [c for c in self.components if c.names & component.reads]
            component.base = (component.reads - computed).union(*(c.base for c in component.below))
            self.components.append(component)
        self._close(uses)
        closed = [c for c in self.components if c.flags is not None]
        for c in self.components:
            suffix = f"-{closed.index(c) + 1}" if c in closed and len(closed) > 1 else ""
            self.actions += self._derive(c, suffix) if c in closed else self._fire(c)

    def _close(self, uses: list[tuple[ast.Formula, bool]]) -> None:
        """Give flags to the components whose atoms must be known exactly: those read negatively or in an
        effect condition, and, since a fixpoint built on a partial one would be wrong, those below them."""
        exact: set[str] = set()
        for formula, whole in uses:
            exact |= _names_read(formula) if whole else _negated(formula)
        for c in self.components:
            for _, body in c.bodies:
                exact |= _negated(body)
        pending = [c for c in self.components if c.names & exact]
        closed: list[_Component] = []
        while pending:
            c = pending.pop()
            if c not in closed:
                closed.append(c)
                pending += c.below
        for c in self.components:
            if c in closed:
                c.flags = (self._flag("derived-fixed"), self._flag("derived-done"), self._flag("derived-new"))

    def _flag(self, name: str) -> ast.Atom:
        name = unique_name(name, self.taken)
        self.predicates.append(ast.PredicateDecl(name))
        return ast.Atom(name)

    def _derive(self, c: _Component, suffix: str) -> list[ast.Action]:
        """For a closed component: `derive` applies every rule once, in the state as it is, and says in
        `new` whether that added anything (its delete of `new` gives way to an add, as PDDL's effects
        do); `derived-fixpoint` marks the component fixed when the last `derive` added nothing."""
        assert c.flags is not None
        fixed, done, new = c.flags
        effects: list[ast.Effect] = [done, ast.Not(new)]
        for rule, body in c.bodies:
            head = _head(rule)
            fire: ast.Effect = ast.When(conjoin([ast.Not(head), body]), ast.AndEffect((head, new)))
            effects.append(ast.ForallEffect(rule.predicate.parameters, fire) if rule.predicate.parameters else fire)
        below = [b.flags[0] for b in c.below if b.flags is not None]
        return [
            ast.Action(unique_name(f"derive{suffix}", self.taken), (), conjoin([ast.Not(fixed), *below]),
                       ast.AndEffect(tuple(effects))),
            ast.Action(unique_name(f"derived-fixpoint{suffix}", self.taken), (), done,
                       ast.AndEffect((ast.When(ast.Not(new), fixed), ast.Not(done)))),
        ]

    def _fire(self, c: _Component) -> list[ast.Action]:
        """For a component read only positively: one action per rule adds its head where the body holds.
        Every atom it adds is true; one not added yet only makes a precondition harder, so no fixpoint
        needs detecting, and a plan derives just what it uses."""
        out = []
        for rule, body in c.bodies:
            head = _head(rule)
            out.append(ast.Action(unique_name(f"derive-{rule.name}", self.taken), rule.predicate.parameters,
                                  conjoin([ast.Not(head), body, *self.needed(body)]), head))
        return out

    def needed(self, formula: ast.Formula | None, whole: bool = False) -> list[ast.Atom]:
        """The `fixed` flags a formula needs: those of the closed components it reads negatively (or at
        all, with `whole`: an effect condition must be decided exactly either way)."""
        if formula is None:
            return []
        read = _names_read(formula) if whole else _negated(formula)
        return [c.flags[0] for c in self.components if c.flags is not None and c.names & read]

    def guard(self, action: ast.Action) -> ast.Action:
        """The action once the closed components it needs are fixed; after it, the components that depend
        on what it changes are cleared, to be computed again."""
        changed: set[str] = set()
        if action.effect is not None:  # the predicates it adds or deletes, the fluents it assigns
            changed = changed_predicates(action.effect) | {
                n.fluent.function for n in action.effect.walk() if isinstance(n, ast.Assign)}
        resets: list[ast.Effect] = []
        for c in self.components:
            if not c.base & changed:
                continue
            resets += [ast.Not(flag) for flag in c.flags or ()]
            for rule in {r.name: r for r, _ in c.bodies}.values():
                atom: ast.Effect = ast.Not(_head(rule))
                resets.append(ast.ForallEffect(rule.predicate.parameters, atom) if rule.predicate.parameters else atom)
        conditions = [n.condition for n in (action.effect.walk() if action.effect else ()) if isinstance(n, ast.When)]
        needed = self.needed(action.precondition) + [f for c in conditions for f in self.needed(c, whole=True)]
        needed = list(dict.fromkeys(needed))
        if not needed and not resets:
            return action
        effect = action.effect if action.effect is not None else ast.AndEffect()
        return replace(action, precondition=conjoin([action.precondition or TRUE, *needed]),
                       effect=ast.AndEffect((effect, *_apart(resets, action))) if resets else effect)


def _head(rule: ast.DerivedPredicate) -> ast.Atom:
    return ast.Atom(rule.name, tuple(ast.Variable(p.name) for p in rule.predicate.parameters))


def _names_read(formula: ast.Formula) -> set[str]:
    """The predicates and the (numeric or object) fluents a formula reads."""
    return {n.predicate if isinstance(n, ast.Atom) else n.function for n in formula.walk()
            if isinstance(n, ast.Atom | ast.FunctionTerm)}


def _apart(resets: list[ast.Effect], action: ast.Action) -> list[ast.Effect]:
    """The reset effects with their quantified variables renamed apart from the action's parameters."""
    fresh = Fresh(variables_in(action))
    out: list[ast.Effect] = []
    for effect in resets:
        if isinstance(effect, ast.ForallEffect):
            variables, mapping = _renamed(effect.variables, fresh)
            effect = ast.ForallEffect(variables, ast.substitute(effect.body, mapping))
        out.append(effect)
    return out


def _renamed(variables: tuple[ast.TypedName, ...], fresh: Fresh
             ) -> tuple[tuple[ast.TypedName, ...], dict[str, ast.Term]]:
    """Fresh names for quantified variables, and the substitution that puts them in."""
    mapping: dict[str, ast.Term] = {}
    out = []
    for v in variables:
        name = fresh(v.name + "-")
        mapping[v.name] = ast.Variable(name)
        out.append(ast.TypedName(name, v.type))
    return tuple(out), mapping


def remove_derived(task: ParsedTask) -> PassResult:
    """Substitute the non-recursive derived predicates and compute the recursive ones by actions (see
    the module docstring)."""
    domain, problem = task.domain, task.problem
    rules: dict[str, list[ast.DerivedPredicate]] = {}
    for rule in domain.derived_predicates:
        rules.setdefault(rule.name, []).append(rule)
    try:
        layers = strata(domain.derived_predicates)
    except NotStratified as exc:
        raise compile_error("E802", f"the derived predicate {exc.predicate} is not stratified: its definition "
                            f"uses (not ({exc.negated} ...)), which depends on {exc.predicate} in turn",
                            rules[exc.predicate][0].span) from None
    recursive = [sorted({r.name for r in layer.rules}) for layer in layers if layer.recursive]
    computed = {name for c in recursive for name in c}
    substituter = _Substituter({name: group for name, group in rules.items() if name not in computed})
    structures: list[ast.Structure] = []
    for s in domain.structures:
        if isinstance(s, ast.DerivedPredicate):
            continue
        if isinstance(s, ast.Action):
            substituter.within(Fresh(variables_in(s)))
            s = replace(s, precondition=substituter.formula(s.precondition) if s.precondition else None,
                        effect=substituter.effect(s.effect) if s.effect else None)
        structures.append(s)
    goal = substituter.within(Fresh(variables_in(problem.goal))).formula(problem.goal) if problem.goal else None
    predicates = tuple(p for p in domain.predicates if p.name not in rules or p.name in computed)
    origins = identity(domain)  # substitution keeps every action's name and parameters
    notes: tuple[str, ...] = ()
    if recursive:
        uses: list[tuple[ast.Formula, bool]] = [(goal, False)] if goal is not None else []
        for action in (s for s in structures if isinstance(s, ast.Action)):
            uses += [(action.precondition, False)] if action.precondition is not None else []
            uses += [(n.condition, True) for n in (action.effect.walk() if action.effect else ())
                     if isinstance(n, ast.When)]
        fixpoint = _Fixpoint(domain, recursive, rules, substituter, uses)
        structures = [fixpoint.guard(s) if isinstance(s, ast.Action) else s for s in structures]
        structures += fixpoint.actions
        declared = {p.name for p in predicates}
        predicates += tuple(rules[name][0].predicate for name in sorted(computed) if name not in declared)
        predicates += tuple(fixpoint.predicates)
        goal = conjoin([goal or TRUE, *fixpoint.needed(goal)])
        origins.update({a.name: Origin(None) for a in fixpoint.actions})
        exact = sorted(n for c in fixpoint.components if c.flags is not None for n in c.names)
        notes = (f"recursive, computed by actions: {', '.join(sorted(computed))}"
                 + (f" (to a fixpoint: {', '.join(exact)})" if exact else ""),)
    domain = replace(domain, predicates=predicates, structures=tuple(structures))
    return PassResult(ParsedTask(domain, replace(problem, goal=goal)), origins, notes=notes)

"""The requirement flags of PDDL 1.2 to 3.1, and what the shorthand flags stand for."""

from __future__ import annotations

#: Every flag pddltools knows, with a one-line meaning.
KNOWN_REQUIREMENTS: dict[str, str] = {
    ":strips": "basic STRIPS-style adds and deletes",
    ":typing": "typed parameters and objects",
    ":negative-preconditions": "negated atoms in preconditions and goals",
    ":disjunctive-preconditions": "or and imply in preconditions and goals",
    ":equality": "the = predicate on objects",
    ":existential-preconditions": "exists in preconditions and goals",
    ":universal-preconditions": "forall in preconditions and goals",
    ":quantified-preconditions": "existential and universal preconditions",
    ":conditional-effects": "when and forall in effects",
    ":adl": "the ADL subset (strips, typing, negation, disjunction, equality, quantifiers, "
            "conditional effects)",
    ":derived-predicates": "axioms (:derived)",
    ":action-costs": "the total-cost function and (increase (total-cost) n) effects",
    ":numeric-fluents": "numeric functions, expressions and comparisons",
    ":fluents": "numeric and object fluents",
    ":object-fluents": "functions whose values are objects",
    ":durative-actions": "actions with a duration",
    ":duration-inequalities": "durations bounded by inequalities",
    ":continuous-effects": "effects that depend on #t",
    ":timed-initial-literals": "facts that become true at given times",
    ":preferences": "soft goals and preconditions",
    ":constraints": "trajectory constraints",
    ":goal-utilities": "utilities of goals (net-benefit)",
    # Flags from older PDDL versions that IPC files still declare.
    ":domain-axioms": "PDDL 1.2 axioms",
    ":safety-constraints": "PDDL 1.2 safety constraints",
    ":open-world": "PDDL 1.2 open-world semantics",
    ":true-negation": "PDDL 1.2 true negation",
    ":ucpop": "PDDL 1.2: ADL plus domain axioms and safety constraints",
    ":expression-evaluation": "PDDL 1.2 expression evaluation",
    ":time": "PDDL+ processes, events and continuous change (Fox & Long 2006)",
}

#: Flags that are shorthand for others (PDDL 1.2 and 3.1 definitions).
IMPLIES: dict[str, tuple[str, ...]] = {
    ":adl": (":strips", ":typing", ":negative-preconditions", ":disjunctive-preconditions", ":equality",
             ":existential-preconditions", ":universal-preconditions", ":conditional-effects"),
    ":quantified-preconditions": (":existential-preconditions", ":universal-preconditions"),
    ":fluents": (":numeric-fluents", ":object-fluents"),
    ":ucpop": (":adl", ":domain-axioms", ":safety-constraints"),
}


def expand(flags: set[str]) -> set[str]:
    """The flags together with everything they imply."""
    out = set(flags)
    todo = list(flags)
    while todo:
        for implied in IMPLIES.get(todo.pop(), ()):
            if implied not in out:
                out.add(implied)
                todo.append(implied)
    return out

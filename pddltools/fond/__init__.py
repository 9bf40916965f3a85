"""FOND PDDL: nondeterministic effects (`oneof`), a declared extension of PDDL (`pddltools.dialects`)."""

"""Repair advice from unsatisfied literals, in the spirit of VAL's `-v` plan repair advice."""

from __future__ import annotations

from collections.abc import Iterable

from pddltools.semantics import Unsatisfied, show_atom


def advise(unsatisfied: Iterable[Unsatisfied], when: str) -> tuple[str, ...]:
    """One line per unsatisfied literal: which atom to make true or false, or which formula to satisfy."""
    out: list[str] = []
    for u in unsatisfied:
        if u.atom is not None:
            truth = "true" if u.positive else "false"
            how = " (a derived predicate: make its definition hold)" if u.note else ""
            out.append(f"make {show_atom(u.atom)} {truth} {when}{how}")
        elif u.note:
            out.append(f"make {u.text} true {when} (now {u.note})")
        else:
            out.append(f"make {u.text} true {when}")
    return tuple(dict.fromkeys(out))

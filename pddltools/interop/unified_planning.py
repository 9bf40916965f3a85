"""pddltools' PDDL AST to and from a Unified Planning problem (the extra `pddltools[up]`).

`to_up(domain, problem)` builds the `unified_planning.model.Problem` that UP's own PDDL reader builds
for the same files, durative actions and numeric fluents included (see `up_export` for the
conventions followed and the constructs refused); `from_up(problem)` returns `(Domain, Problem)`
(see `up_import` for the fixed form of what UP does not keep). Unified Planning is imported only
when a conversion runs.

    domain, problem = parse_domain_file("domain.pddl"), parse_problem_file("p01.pddl")
    plan = OneshotPlanner(name="fast-downward").solve(to_up(domain, problem)).plan
"""

from __future__ import annotations

from pddltools.interop.up_export import to_up
from pddltools.interop.up_import import from_up

__all__ = ["from_up", "to_up"]

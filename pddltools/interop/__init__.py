"""Bridges to the planning frameworks users already have: tarski and Unified Planning.

`pddltools.interop.tarski` and `pddltools.interop.unified_planning` import their framework only when
a conversion is asked for (the extras `pddltools[tarski]` and `pddltools[up]`), so `import pddltools`
and the CLI never load them. A construct the target cannot express is refused with an
`InteropError` naming it and its place; nothing is dropped silently.
"""

from __future__ import annotations

from pddltools.interop.errors import InteropError

__all__ = ["InteropError"]

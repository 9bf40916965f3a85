"""The one exception every language's parser raises for text that is not in its language."""

from __future__ import annotations

from pddltools.diagnostics import Error


class ParseError(Error):
    """The text is not PDDL (or RDDL, whichever it was read as): the diagnostics say where and what was
    expected there."""

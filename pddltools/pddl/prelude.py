"""A Lisp form before `(define ...)`: `(in-package "PDDL")`, as files of the IPC-1998 distribution open
(mystery, ADL round 1). It said which Lisp package the planners of the day should read the file into; it
declares nothing. The parser skips it with a warning (W104) instead of rejecting an official domain.
"""

from __future__ import annotations

import re

from pddltools.diagnostics import Diagnostic, Source, Span, warning

#: Only comments and blanks may come before it, and it holds no parentheses: `(in-package "PDDL")`.
#: The quantifiers are possessive: a run of `;;;;` would otherwise be split every possible way, in
#: exponential time, before the match fails on a file without the form.
_PRELUDE = re.compile(r"\A(?:\s++|;[^\n]*+)*+(\(\s*+in-package\b[^()]*+\))", re.IGNORECASE)


def without_prelude(source: Source) -> tuple[Source, Diagnostic | None]:
    """`source` with a leading in-package form blanked out (offsets, and so every span, unchanged), and
    the warning that says so; or `source` itself and None."""
    found = _PRELUDE.match(source.text)
    if found is None:
        return source, None
    start, end = found.span(1)
    said = warning("W104", f"{found.group(1)} is a Lisp form of the IPC-1998 distribution, not PDDL; it is "
                   "ignored", Span(source, start, end))
    blank = re.sub(r"[^\n]", " ", found.group(1))
    return Source(source.text[:start] + blank + source.text[end:], source.name), said


__all__ = ["without_prelude"]

"""Parse PDDL that is being typed: cut the broken top-level sections out and parse what is left.

The parser reports every broken section of a file whose parentheses balance, but an editor's text is
often unbalanced (an action half written), and either way a syntax error leaves no AST to check. Here
the sections that hold a syntax error are blanked out (replaced by spaces, newlines kept, so offsets and
lines stay those of the document) and the rest is parsed again, until it parses or nothing more can be
cut. The checker then runs on that AST; `unreliable` says which of its finding codes the cut sections
make meaningless (an undeclared-predicate error is wrong when :predicates was the section cut).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from pddltools.diagnostics import Diagnostic, Source
from pddltools.pddl import ast
from pddltools.pddl.language import LANGUAGE
from pddltools.pddl.parser import parse
from pddltools.syntax import ParseError


@cache
def _section() -> re.Pattern[str]:
    """The opening of a top-level section of a domain or a problem, by the grammar's keywords for them
    (nowhere else does "(:" precede them); longer keywords first, so that none stops at a prefix."""
    keywords = sorted(LANGUAGE.section_keywords(), key=lambda k: (-len(k), k))
    return re.compile(r"\(\s*(" + "|".join(re.escape(k) for k in keywords) + r")(?![\w\-])", re.IGNORECASE)

_COMMENT = re.compile(r";[^\n]*")

# Findings that depend on what a cut section declared or did.
_NAMES = frozenset({"E201", "E202", "E203", "E204", "E205", "E206", "E207", "W207", "E208", "E209", "E210",
                    "E213", "E214", "E301", "E303", "W302", "W401", "I402", "I403", "I404", "W501", "W502",
                    "W503", "W601", "E602", "I604"})
# Relaxed reachability reads every action, the init and the goal (pddltools.check.reachability).
_REACH = frozenset({"W405", "I406", "W407", "I408", "I409", "I410", "I411", "I412"})
_NAMES |= _REACH
_BEHAVIOUR = frozenset({"W401", "I402", "I403", "W503", "W601", "I604"}) | _REACH
_DEPENDS: dict[str, frozenset[str]] = {
    ":requirements": frozenset({"W501", "W502", "W503"}),
    ":types": _NAMES, ":constants": _NAMES, ":predicates": _NAMES, ":functions": _NAMES, ":objects": _NAMES,
    ":domain": frozenset({"E301"}),
    ":action": _BEHAVIOUR, ":durative-action": _BEHAVIOUR, ":derived": _BEHAVIOUR,
    ":init": frozenset({"W401", "W601", "I604"}) | _REACH, ":goal": _BEHAVIOUR, ":constraints": _BEHAVIOUR,
    ":metric": frozenset({"W502", "W601", "I604"}), ":length": frozenset(),
}


@dataclass(frozen=True)
class Section:
    keyword: str  # lower case, with its ':'
    start: int  # the '(' that opens it
    end: int  # where the next section opens (or the end of the text, for the last one)


@dataclass(frozen=True)
class Parsed:
    """The outcome of parsing one document: an AST (of the text with broken sections cut) or None."""

    node: ast.Domain | ast.Problem | None
    syntax: tuple[Diagnostic, ...]  # the syntax errors, in the document
    warnings: tuple[Diagnostic, ...]
    cut: tuple[Section, ...] = ()

    @property
    def unreliable(self) -> frozenset[str]:
        codes: set[str] = set()
        for section in self.cut:
            codes |= _DEPENDS.get(section.keyword, _NAMES)
        return frozenset(codes)


def sections(text: str) -> list[Section]:
    """The top-level sections of a PDDL text, found by their opening keyword (so also when unbalanced)."""
    plain = _COMMENT.sub(lambda m: " " * len(m.group()), text)
    found = [(m.start(), m.group(1).lower()) for m in _section().finditer(plain)]
    return [Section(keyword, start, found[i + 1][0] if i + 1 < len(found) else len(text))
            for i, (start, keyword) in enumerate(found)]


def blank(text: str, start: int, end: int) -> str:
    """`text` with `start..end` replaced by spaces, its newlines kept."""
    middle = re.sub(r"[^\n]", " ", text[start:end])
    return text[:start] + middle + text[end:]


def parse_document(source: Source, max_rounds: int = 12) -> Parsed:
    warnings: list[Diagnostic] = []
    try:
        return Parsed(parse(source, warnings=warnings), (), tuple(warnings))
    except ParseError as exc:
        syntax = list(exc.diagnostics)
    except RecursionError:  # pathological nesting the parser's own guard did not catch
        return Parsed(None, (), ())
    text = source.text
    parts = sections(text)
    cut: list[Section] = []
    errors = syntax
    for _ in range(max_rounds):
        broken = [s for s in parts if s not in cut and any(_inside(d, s) for d in errors)]
        if not broken:
            break
        cut.extend(broken)
        candidate = text
        for section in cut:
            candidate = blank(candidate, section.start, section.end)
        if parts and parts[-1] in cut:
            candidate += ")"  # the last section's region held the closing parenthesis of (define ...)
        attempt = Source(candidate, source.name)
        warnings = []
        try:
            node = parse(attempt, warnings=warnings)
        except ParseError as exc:
            # what the cut text gets wrong only steers the next cut: the errors reported are the whole
            # text's, as `pddltools check` reports them
            errors = [d for d in exc.diagnostics if d.span is not None and d.span.start < len(text)]
            continue
        except RecursionError:
            break
        return Parsed(node, _by_place(syntax), _by_place(warnings), tuple(sorted(cut, key=lambda s: s.start)))
    return Parsed(None, _by_place(syntax), ())


def syntax_errors(source: Source) -> tuple[Diagnostic, ...] | None:
    """The syntax errors a fresh parse of the whole text reports (those of `pddltools check`), or None
    when it parses."""
    try:
        parse(source)
    except ParseError as exc:
        return tuple(exc.diagnostics)
    except RecursionError:
        return None
    return None


def _inside(diagnostic: Diagnostic, section: Section) -> bool:
    if diagnostic.span is None:
        return False
    return section.start <= diagnostic.span.start < section.end or (
        section.end == diagnostic.span.start and diagnostic.code in ("E102", "E107"))


def _by_place(diagnostics: list[Diagnostic]) -> tuple[Diagnostic, ...]:
    # Those found in a re-parse carry spans into the blanked text: same offsets, same lines.
    return tuple(sorted(diagnostics, key=lambda d: d.span.start if d.span else -1))

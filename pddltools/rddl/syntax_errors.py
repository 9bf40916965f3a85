"""Turn Lark's parse errors into diagnostics an RDDL author can read.

Lark names what it expected by terminal names (`__ANON_3`, `VARIABLE`, `SEMICOLON`); here each becomes
the text an author would type (`';'`, `a variable like ?x`), and long lists collapse into words
("an expression", "an operator").
"""

from __future__ import annotations

import re

from lark import Lark
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.lexer import PatternStr

from pddltools.diagnostics import Diagnostic, Source, Span, error
from pddltools.syntax.lexing import UnexpectedCharacter

_NAMED = {
    "NAME": "a name",
    "PRIMED_NAME": "a primed name like p'",
    "VARIABLE": "a variable like ?x",
    "ENUM_VALUE": "an enum value like @low",
    "OBJECT_REF": "an object like $box",
    "NUMBER": "a number",
}
# `.` is RDDL2's member access (`v.@x`), a postfix operator
_OPERATORS = frozenset({"<=>", "=>", "|", "^", "&", "==", "~=", "<", "<=", ">", ">=", "+", "-", "*", "/", "."})
_EXPRESSION = "an expression"
_OPERATOR = "an operator"
_VALUE = "a value (a number, true, false, pos-inf, an @enum value or an object)"
_KEYWORD_SHAPE = re.compile(r"[A-Za-z][A-Za-z0-9_\-]*")


def _describe_terminals(parser: Lark) -> tuple[dict[str, str], set[str]]:
    """Description of each terminal, and the names of the terminals that are keywords."""
    descriptions: dict[str, str] = {}
    keywords: set[str] = set()
    for terminal in parser.terminals:
        if isinstance(terminal.pattern, PatternStr):
            value = terminal.pattern.value
            descriptions[terminal.name] = f"'{value}'"
            if _KEYWORD_SHAPE.fullmatch(value):
                keywords.add(terminal.name)
        else:
            descriptions[terminal.name] = _NAMED.get(terminal.name, terminal.name.lower().replace("_", " "))
    descriptions["$END"] = "the end of the file"
    return descriptions, keywords


def expected_words(expected: set[str], parser: Lark) -> list[str]:
    descriptions, _ = _describe_terminals(parser)
    # a %declare'd terminal (the fast path's GROUND_ASSIGNMENTS) has no text an author could write
    words = {descriptions[name] for name in expected if name in descriptions}
    if {"NUMBER", "VARIABLE", "NAME"} <= expected:
        # everything that can start an expression: name them by what they are together
        starters = {"'('", "'['", "'~'", "'-'", "'+'", "'if'", "'switch'", "'true'", "'false'",
                    "'cholesky'", "'inverse'", "'pinverse'", "'<'"}  # `<` opens an RDDL2 tuple
        starters |= {descriptions[n] for n in expected if n in descriptions and n in _NAMED}
        starters |= {w for w in words if w[1:2].isupper()}  # distribution names: 'Bernoulli', ...
        words = (words - starters) | {_EXPRESSION}
    elif {"NUMBER", "ENUM_VALUE", "TRUE"} <= expected:
        # the right side of `default =` or of an assignment in an instance
        constants = {"'-'", "'true'", "'false'", "'pos-inf'", "'neg-inf'", "'<'"}
        constants |= {descriptions[n] for n in expected if n in descriptions and n in _NAMED}
        words = (words - constants) | {_VALUE}
    operators = {w for w in words if w.strip("'") in _OPERATORS}
    if len(operators) >= 4:
        words = (words - operators) | {_OPERATOR}
    ordered = sorted(words, key=lambda w: (w in (_EXPRESSION, _OPERATOR, _VALUE), not w.startswith("'"), w))
    return ordered


def _really_expected(exc: UnexpectedToken) -> set[str]:
    """The terminals the parser would truly accept here.

    LALR merges states, so Lark's own `expected` list also holds tokens that are valid only in other
    contexts (after `a` in a CPF it offers `:` and `_`); feeding each candidate to a copy of the
    parser keeps only those that would really be accepted.
    """
    interactive = getattr(exc, "interactive_parser", None)
    if interactive is not None:
        try:
            accepted: set[str] = interactive.accepts()
        except Exception:  # a reduction of the copy may fail: then the plain list will do
            accepted = set()
        if accepted:
            return accepted
    return set(exc.expected)


def _join(words: list[str], limit: int = 8) -> str:
    if len(words) > limit:
        words = [*words[:limit], "…"]
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " or " + words[-1]


def _found(token_type: str, value: str, parser: Lark) -> str:
    if token_type == "$END":
        return "the end of the file"
    _, keywords = _describe_terminals(parser)
    shown = value if len(value) <= 40 else value[:40] + "…"
    if token_type in keywords:
        return f"the keyword '{shown}'"
    return f"'{shown}'"


def explain(source: Source, exc: UnexpectedInput | UnexpectedCharacter, parser: Lark) -> Diagnostic:
    opened = _unterminated_comment(source.text, _offset(source, exc))
    if opened is not None:
        return error("R108", "this comment is never closed: expected '*/' to end it before the end of the file",
                     Span(source, opened, opened + 2))
    if isinstance(exc, UnexpectedToken):
        token = exc.token
        start = token.start_pos or 0
        end = token.end_pos if token.end_pos is not None else start + 1
        expected = expected_words(_really_expected(exc), parser)
        found = _found(token.type, str(token), parser)
        if token.type == "$END":
            # Lark places the end-of-file token on the last real token: point at its last character,
            # not at comments after it (the fast path's token covers a whole run of assignments).
            return error("R102", f"the file ends too early: expected {_join(expected)}",
                         Span(source, max(start, end - 1), end))
        return error("R100", f"expected {_join(expected)}, found {found}", Span(source, start, end))
    if isinstance(exc, UnexpectedCharacter):
        return _bad_character(source, exc.pos, exc.char)
    if isinstance(exc, UnexpectedCharacters):
        return _bad_character(source, exc.pos_in_stream or 0, exc.char)
    if isinstance(exc, UnexpectedEOF):
        expected = expected_words(set(exc.expected), parser)
        end = len(source.text.rstrip())
        return error("R102", f"the file ends too early: expected {_join(expected)}",
                     Span(source, max(0, end - 1), end))
    raise TypeError(f"not a parse error: {exc!r}")  # pragma: no cover - a bug, not bad input


def _offset(source: Source, exc: UnexpectedInput | UnexpectedCharacter) -> int:
    """Where the parse stopped."""
    if isinstance(exc, UnexpectedToken):
        return exc.token.start_pos or 0
    if isinstance(exc, UnexpectedCharacter):
        return exc.pos
    if isinstance(exc, UnexpectedCharacters):
        return exc.pos_in_stream or 0
    return len(source.text)


def _unterminated_comment(text: str, pos: int) -> int | None:
    """The offset of a `/*` that is never closed and where the parse stopped (the lexer reads it as
    `/` and `*`, which no rule accepts together), else None."""
    opened = text.rfind("/*", 0, pos + 2)
    if opened < 0 or text.find("*/", opened + 2) >= 0:
        return None
    line_start = text.rfind("\n", 0, opened) + 1
    if text.find("//", line_start, opened) >= 0:
        return None  # inside a line comment: not an opening
    return opened


def _bad_character(source: Source, pos: int, char: str) -> Diagnostic:
    shown = repr(char) if char.isprintable() and not char.isspace() else f"U+{ord(char):04X}"
    return error("R101", f"unexpected character {shown}: no RDDL token starts with it",
                 Span(source, pos, pos + 1))

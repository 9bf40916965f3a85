"""The fast path for instance files: runs of ground assignments scanned by one regular expression.

Most of an instance or non-fluents file is lines like `P(x9, y15) = 0.345;` or `robot-at(x21, y12);`.
Fed token by token through the LALR parser they cost nine tokens each; here a whole run becomes one
`GROUND_ASSIGNMENTS` token whose value is the `Assignment` nodes already built. The patterns come from
the grammar's own terminals (NAME, NUMBER, ...), and the scanner declines anything unusual (a keyword
where a name belongs, a comment inside an assignment, `~p;`), leaving it to the grammar path, so both
paths give the same AST; `tests/rddl/test_corpus.py` checks that over the whole corpus.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from lark import Lark
from lark.lexer import PatternStr

from pddltools.diagnostics import Source, Span
from pddltools.rddl import ast
from pddltools.rddl.builder import MAX_INTEGER_DIGITS

Scanner = Callable[[str, int, Source], "tuple[object, int] | None"]


def build_scanner(parser: Lark) -> Scanner:
    patterns = {t.name: t.pattern for t in parser.terminals}
    name = patterns["NAME"].to_regexp()
    number = patterns["NUMBER"].to_regexp()
    enum = patterns["ENUM_VALUE"].to_regexp()
    obj = patterns["OBJECT_REF"].to_regexp()
    name_rx = re.compile(name)
    keywords = frozenset(
        p.value for p in patterns.values() if isinstance(p, PatternStr) and name_rx.fullmatch(p.value)
    )
    space = r"[ \t\f\r\n]*"
    term = f"(?:{name}|{obj}|{enum})"
    one = re.compile(
        f"({name}){space}"
        f"(?:\\({space}({term}(?:{space},{space}{term})*)?{space}\\))?{space}"
        f"(?:={space}(?:(-{space})?({number})|({name}|{obj}|{enum})){space})?;"
    )
    separator = re.compile("(?:" + "|".join(
        [r"[ \t\f\r\n]+", *(patterns[n].to_regexp() for n in parser.lexer_conf.ignore)]
    ) + ")*")
    split_terms = re.compile(f"{space},{space}").split
    special_values: dict[str, Callable[[Span], ast.Constant]] = {
        "true": lambda span: ast.Boolean(True, span=span),
        "false": lambda span: ast.Boolean(False, span=span),
        "pos-inf": lambda span: ast.Real(float("inf"), span=span),
        "neg-inf": lambda span: ast.Real(float("-inf"), span=span),
    }
    true = ast.Boolean(True)

    def scan(text: str, start: int, source: Source) -> tuple[object, int] | None:
        found: list[ast.Assignment] = []
        pos = end = start
        match_one = one.match
        skip = separator.match
        while True:
            m = match_one(text, pos)
            if m is None:
                break
            pvar, args_text, minus, number_text, word = m.groups()
            if pvar in keywords:
                break
            args: tuple[str, ...] = ()
            if args_text:
                terms = split_terms(args_text)
                if any(t in keywords for t in terms):
                    break
                args = tuple(t[1:] if t[0] == "$" else t for t in terms)
            value: ast.Constant
            if number_text is not None:
                value_start = m.start(3) if minus is not None else m.start(4)
                span = Span(source, value_start, m.end(4))
                if "." in number_text or "e" in number_text or "E" in number_text:
                    real = float(number_text)
                    value = ast.Real(-real if minus else real, span=span)
                elif len(number_text) > MAX_INTEGER_DIGITS:
                    break  # out of range: the grammar path says so, located
                else:
                    integer = int(number_text)
                    value = ast.Integer(-integer if minus else integer, span=span)
            elif word is not None:
                span = Span(source, m.start(5), m.end(5))
                if word in special_values:
                    value = special_values[word](span)
                elif word in keywords:
                    break
                elif word[0] == "@":
                    value = ast.EnumValue(word, span=span)
                elif word[0] == "$":
                    value = ast.ObjectValue(word[1:], span=span)
                else:
                    value = ast.ObjectValue(word, span=span)
            else:
                value = true
            found.append(ast.Assignment(pvar, args, value, span=Span(source, m.start(1), m.end(1))))
            end = m.end()
            skipped = skip(text, end)
            pos = skipped.end() if skipped else end
        if not found:
            return None
        return tuple(found), end

    return scan

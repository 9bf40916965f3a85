"""Write the VS Code TextMate grammars (syntaxes/*.tmLanguage.json) from the Lark grammars.

The keywords are read from the string literals of grammars/*.lark (the only place the syntax is written)
and, for the words the RDDL grammar reads as plain names (aggregations, built-in functions) and the PDDL
requirement flags, from the tables the checkers use; so highlighting cannot drift from what the parser
accepts. Each literal is classed by the Lark rule it appears in (a distribution name, an assignment
operator, a section keyword ...), which only picks its colour.

    python editors/vscode/scripts/generate_grammars.py           # rewrite the files
    python editors/vscode/scripts/generate_grammars.py --check   # exit 1 when they are stale

tests/test_vscode_grammars.py runs the check.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path

HERE = Path(__file__).resolve().parent
EXTENSION = HERE.parent
REPO = EXTENSION.parent.parent
GRAMMARS = REPO / "grammars"
SYNTAXES = EXTENSION / "syntaxes"

_RULE_HEAD = re.compile(r"[!?]?([A-Za-z_][A-Za-z_0-9]*)(?:\.\d+)?\s*:")
_WORD = re.compile(r"[:#]?[A-Za-z][A-Za-z0-9_\-]*")


def literals(grammar: str) -> dict[str, set[str]]:
    """Every string literal of a Lark grammar -> the rules and terminals it appears in.

    A small scanner rather than Lark's own loader: it must see the literals of every rule as written,
    before Lark inlines, renames and merges them."""
    found: dict[str, set[str]] = defaultdict(set)
    rule = ""
    i, n = 0, len(grammar)
    at_line_start = True
    while i < n:
        if at_line_start:
            head = _RULE_HEAD.match(grammar, i)
            if head:
                rule = head.group(1)
            at_line_start = False
        c = grammar[i]
        if c == "\n":
            at_line_start = True
            i += 1
        elif grammar.startswith("//", i):  # a comment, to the end of the line
            end = grammar.find("\n", i)
            i = n if end < 0 else end
        elif c == '"':
            j = i + 1
            while j < n and grammar[j] != '"':
                j += 2 if grammar[j] == "\\" else 1
            found[grammar[i + 1:j]].add(rule)
            i = j + 1
        elif c == "/":  # a regular expression: skip it, its text is no keyword
            j = i + 1
            while j < n and grammar[j] not in "/\n":
                j += 2 if grammar[j] == "\\" else 1
            i = j + 1
        else:
            i += 1
    return found


def keywords(grammar: str) -> dict[str, set[str]]:
    """The word-like literals (`and`, `:action`, `non-fluents`, `#t`) -> their rules; punctuation is left
    to the bracket and operator patterns."""
    return {text: rules for text, rules in literals(grammar).items() if _WORD.fullmatch(text)}


def _alternation(words: Iterable[str]) -> str:
    # Longest first, so that `sometime-after` is not read as `sometime` followed by `-after`.
    return "|".join(re.escape(w) for w in sorted(set(words), key=lambda w: (-len(w), w)))


def _words(words: Iterable[str], scope: str, boundary: str, head: str = "") -> dict[str, object]:
    return {"match": f"{head}(?<!{boundary})(?:{_alternation(words)})(?!{boundary})", "name": scope}


# --- PDDL and HDDL ---------------------------------------------------------------------------------

_PDDL_WORD_CHAR = r"[A-Za-z0-9_\-?:#]"

#: Lark rule -> scope; a literal of any other rule is a plain keyword.
_PDDL_SCOPES = {
    "assign_op": "keyword.operator.assignment",
    "comparison_op": "keyword.operator.comparison",
    "time_point": "keyword.other.time",
    "ALL": "keyword.other.time",
    "NUMBER_TYPE": "support.type",
    "CONTINUOUS_TIME": "constant.language",
    "DEFINE": "storage.type",
    "DOMAIN": "storage.type",
    "PROBLEM": "storage.type",
}


_AFTER_PAREN = ("keyword.operator.word", "keyword.operator.assignment", "storage.type")


def _pddl_scope(word: str, rules: set[str], lang: str) -> str:
    for rule in sorted(rules):
        if rule in _PDDL_SCOPES:
            return f"{_PDDL_SCOPES[rule]}.{lang}"
    if word.startswith(":"):
        return f"keyword.control.section.{lang}"
    return f"keyword.operator.word.{lang}"


def pddl_grammar(lang: str, words: dict[str, set[str]], requirements: Iterable[str]) -> dict[str, object]:
    by_scope: dict[str, list[str]] = defaultdict(list)
    for word, rules in words.items():
        # The text is lower-cased before parsing, so `define` and `DEFINE` are both the keyword.
        by_scope[_pddl_scope(word, rules, lang)].append(word.lower())
    flags = sorted(set(requirements) - {w for ws in by_scope.values() for w in ws})
    patterns: list[dict[str, object]] = [
        {"include": "#comment"},
        {"match": r"\?[A-Za-z][A-Za-z0-9_\-]*", "name": f"variable.parameter.{lang}"},
        {"match": r"(?<![A-Za-z0-9_\-])-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+\-]?\d+)?(?![A-Za-z0-9_\-])",
         "name": f"constant.numeric.{lang}"},
    ]
    for scope in sorted(by_scope):
        # PDDL is case-insensitive. A word operator counts only right after `(`: the same words are
        # common object names (`(on a or)` is no disjunction).
        head = "(?i)" + ("(?<=\\()" if scope.startswith(_AFTER_PAREN) else "")
        patterns.append(_words(by_scope[scope], scope, _PDDL_WORD_CHAR, head))
    patterns.append(_words(flags, f"support.constant.requirement.{lang}", _PDDL_WORD_CHAR, "(?i)"))
    # Other `:flags` (a requirement of a dialect, a misspelt section): still one token, not a name.
    patterns.append({"match": r":[A-Za-z][A-Za-z0-9_\-]*", "name": f"support.constant.flag.{lang}"})
    patterns.append({"match": r"(?<![A-Za-z0-9_\-])-(?=\s)", "name": f"keyword.operator.type.{lang}"})
    patterns.append({"match": r"[()]", "name": f"punctuation.section.parens.{lang}"})
    return {
        "$schema": "https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json",
        "comment": "Generated by editors/vscode/scripts/generate_grammars.py from grammars/*.lark; "
                   "do not edit",
        "name": lang.upper(),
        "scopeName": f"source.{lang}",
        "fileTypes": [lang],
        "patterns": patterns,
        "repository": {
            "comment": {"match": ";.*$", "name": f"comment.line.semicolon.{lang}"},
        },
    }


# --- RDDL ------------------------------------------------------------------------------------------

_RDDL_WORD_CHAR = r"[A-Za-z0-9_\-]"

_RDDL_SCOPES = {
    "distribution_name": "support.function.distribution",
    "discrete_name": "support.function.distribution",
    "vector_distribution_name": "support.function.distribution",
    "matrix_operation_name": "support.function.matrix",
    "TRUE": "constant.language",
    "FALSE": "constant.language",
}
_RDDL_CONSTANTS = {"pos-inf", "neg-inf", "true", "false"}
_RDDL_TYPES = {"bool", "int", "real", "object"}
_RDDL_FLUENT_KINDS = re.compile(r".*-fluents?$|^non-fluent$")


def _rddl_scope(word: str, rules: set[str]) -> str:
    for rule in sorted(rules):
        if rule in _RDDL_SCOPES:
            return f"{_RDDL_SCOPES[rule]}.rddl"
    if word in _RDDL_CONSTANTS:
        return "constant.language.rddl"
    if word in _RDDL_TYPES:
        return "storage.type.rddl"
    if _RDDL_FLUENT_KINDS.match(word) and word != "non-fluents":
        return "storage.modifier.fluent.rddl"
    return "keyword.control.rddl"


def rddl_grammar(words: dict[str, set[str]], aggregations: Iterable[str],
                 functions: Iterable[str]) -> dict[str, object]:
    by_scope: dict[str, list[str]] = defaultdict(list)
    for word, rules in words.items():
        by_scope[_rddl_scope(word, rules)].append(word)
    patterns: list[dict[str, object]] = [
        {"include": "#comment"},
        {"match": r"\?[A-Za-z0-9_\-]*[A-Za-z0-9]", "name": "variable.parameter.rddl"},
        {"match": r"@[A-Za-z0-9_\-]*[A-Za-z0-9]", "name": "constant.other.enum.rddl"},
        {"match": r"\$[A-Za-z](?:[A-Za-z0-9_\-]*[A-Za-z0-9])?", "name": "constant.other.object.rddl"},
        {"match": r"(?<![A-Za-z0-9_\-])(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+\-]?\d+)?", "name": "constant.numeric.rddl"},
        # `sum_{?x : t}`: an aggregation is a name the parser reads before `_{`.
        {"match": rf"(?<!{_RDDL_WORD_CHAR})(?:{_alternation(aggregations)})(?=_\{{)",
         "name": "keyword.operator.aggregation.rddl"},
        # `exp[x]`: a built-in function is a name before `[`.
        {"match": rf"(?<!{_RDDL_WORD_CHAR})(?:{_alternation(functions)})(?=\s*\[)",
         "name": "support.function.builtin.rddl"},
    ]
    for scope in sorted(by_scope):
        patterns.append(_words(by_scope[scope], scope, _RDDL_WORD_CHAR))
    patterns += [
        {"match": r"[A-Za-z](?:[A-Za-z0-9_\-]*[A-Za-z0-9])?'", "name": "variable.other.primed.rddl"},
        {"match": r"<=>|=>|==|~=|<=|>=|[<>=~^|&+*/-]", "name": "keyword.operator.rddl"},
        {"match": r"[{}()\[\]]", "name": "punctuation.section.rddl"},
    ]
    return {
        "$schema": "https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json",
        "comment": "Generated by editors/vscode/scripts/generate_grammars.py from grammars/rddl.lark; "
                   "do not edit",
        "name": "RDDL",
        "scopeName": "source.rddl",
        "fileTypes": ["rddl"],
        "patterns": patterns,
        "repository": {
            "comment": {"patterns": [
                {"match": "//.*$", "name": "comment.line.double-slash.rddl"},
                {"begin": r"/\*", "end": r"\*/", "name": "comment.block.rddl"},
            ]},
        },
    }


# --- the files ---------------------------------------------------------------------------------------

def generate() -> dict[str, str]:
    """File name in syntaxes/ -> its JSON text."""
    sys.path.insert(0, str(REPO))
    from pddltools.pddl.requirements import KNOWN_REQUIREMENTS
    from pddltools.rddl.ast import AGGREGATIONS
    from pddltools.rddl.expressions import FUNCTIONS

    pddl = keywords((GRAMMARS / "pddl.lark").read_text(encoding="utf-8"))
    hddl = dict(pddl)
    for word, rules in keywords((GRAMMARS / "hddl.lark").read_text(encoding="utf-8")).items():
        hddl[word] = hddl.get(word, set()) | rules
    rddl = keywords((GRAMMARS / "rddl.lark").read_text(encoding="utf-8"))
    grammars = {
        "pddl.tmLanguage.json": pddl_grammar("pddl", pddl, KNOWN_REQUIREMENTS),
        "hddl.tmLanguage.json": pddl_grammar("hddl", hddl, KNOWN_REQUIREMENTS),
        "rddl.tmLanguage.json": rddl_grammar(rddl, AGGREGATIONS, FUNCTIONS),
    }
    return {name: json.dumps(g, indent=2, ensure_ascii=False) + "\n" for name, g in grammars.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="do not write; exit 1 when a file is stale")
    args = parser.parse_args(argv)
    stale = []
    for name, text in generate().items():
        path = SYNTAXES / name
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current == text:
            continue
        stale.append(name)
        if not args.check:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    if args.check and stale:
        print(f"stale: {', '.join(stale)}; run python {Path(__file__).relative_to(REPO)}", file=sys.stderr)
        return 1
    for name in stale:
        print(f"wrote {SYNTAXES / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

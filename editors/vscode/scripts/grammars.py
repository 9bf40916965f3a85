"""Write the extension's TextMate grammars (syntaxes/*.tmLanguage.json) from pddltools' own grammars.

The keywords, the variable and number shapes and the comment marks are read from `grammars/*.lark`
through pddltools' languages (`Language.keywords()`, the terminals), never typed here, so that the
highlighting cannot drift from what the parser accepts: tests/test_vscode_extension.py regenerates the
files and compares. Run from the repository root: `python editors/vscode/scripts/grammars.py`.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

SYNTAXES = Path(__file__).resolve().parents[1] / "syntaxes"


def _words(words: set[str]) -> str:
    """An alternation of `words`, longest first (so `at-most-once` is not read as `at`)."""
    return "|".join(re.escape(w).replace("\\-", "-") for w in sorted(words, key=lambda w: (-len(w), w)))


def _pddl_like(name: str, keywords: set[str], variable: str, number: str) -> dict[str, Any]:
    sections = _words({w[1:] for w in keywords if w.startswith(":")})
    words = {w for w in keywords if w[0].isalpha()}
    edge = r"(?![A-Za-z0-9_\-])"
    return {
        "name": name.upper(),
        "scopeName": f"source.{name}",
        "fileTypes": [name],
        "patterns": [
            {"name": f"comment.line.semicolon.{name}", "match": ";.*$"},
            {"name": f"keyword.control.section.{name}", "match": f"(?i)(?<![A-Za-z0-9_\\-]):(?:{sections}){edge}"},
            {"name": f"keyword.other.{name}", "match": f"(?i)(?<=\\()\\s*(?:{_words(words)}){edge}"},
            {"name": f"constant.language.{name}", "match": "#t" + edge},
            {"name": f"variable.parameter.{name}", "match": f"(?i){variable}"},
            {"name": f"constant.numeric.{name}", "match": f"(?<![A-Za-z0-9_\\-]){number}{edge}"},
        ],
    }


def pddl() -> dict[str, Any]:
    from pddltools.pddl.language import LANGUAGE
    from pddltools.pddl.parser import _parser, _terminals

    terminals = _terminals(_parser(True).lark)
    return _pddl_like("pddl", set(LANGUAGE.keywords().values()), terminals.variable, terminals.number)


def hddl() -> dict[str, Any]:
    from pddltools.hddl.language import LANGUAGE
    from pddltools.pddl.parser import _parser, _terminals

    terminals = _terminals(_parser(True).lark)
    return _pddl_like("hddl", set(LANGUAGE.keywords().values()), terminals.variable, terminals.number)


def rddl() -> dict[str, Any]:
    from pddltools.rddl.language import LANGUAGE
    from pddltools.rddl.parser import _parser

    patterns = {t.name: t.pattern.to_regexp() for t in _parser("fast").lark.terminals}
    words = {w for w in LANGUAGE.keywords().values() if w[0].isalpha()}
    edge = r"(?![A-Za-z0-9_\-])"
    return {
        "name": "RDDL",
        "scopeName": "source.rddl",
        "fileTypes": ["rddl"],
        "patterns": [
            {"name": "comment.line.double-slash.rddl", "match": "//.*$"},
            {"name": "comment.block.rddl", "begin": "/\\*", "end": "\\*/"},
            {"name": "keyword.other.rddl", "match": f"(?<![A-Za-z0-9_\\-])(?:{_words(words)}){edge}"},
            {"name": "variable.parameter.rddl", "match": patterns["VARIABLE"]},
            {"name": "constant.other.enum.rddl", "match": patterns["ENUM_VALUE"]},
            {"name": "constant.other.object.rddl", "match": patterns["OBJECT_REF"]},
            {"name": "constant.numeric.rddl", "match": f"(?<![A-Za-z0-9_\\-]){patterns['NUMBER']}"},
        ],
    }


GRAMMARS = {"pddl": pddl, "hddl": hddl, "rddl": rddl}


def text(name: str) -> str:
    return json.dumps(GRAMMARS[name](), indent=2) + "\n"


def main() -> int:
    for name in GRAMMARS:
        (SYNTAXES / f"{name}.tmLanguage.json").write_text(text(name), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

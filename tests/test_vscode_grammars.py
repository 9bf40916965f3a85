"""The VS Code extension's TextMate grammars are generated from grammars/*.lark: the committed files are
what the generator writes today, every keyword of the Lark grammars is highlighted, and the patterns
colour a few lines as a reader expects (Python's `re` reads these Oniguruma patterns the same way)."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parents[1]
EXTENSION = REPO / "editors" / "vscode"


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("generate_grammars", EXTENSION / "scripts" / "generate_grammars.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


generator = _generator()


@pytest.mark.parametrize("name", ["pddl.tmLanguage.json", "hddl.tmLanguage.json", "rddl.tmLanguage.json"])
def test_committed_grammar_is_what_the_generator_writes(name: str) -> None:
    generated = generator.generate()[name]
    committed = (EXTENSION / "syntaxes" / name).read_text(encoding="utf-8")
    assert committed == generated, f"run: python editors/vscode/scripts/generate_grammars.py ({name} is stale)"


def test_check_mode_reports_a_stale_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert generator.main(["--check"]) == 0
    monkeypatch.setattr(generator, "SYNTAXES", tmp_path)
    assert generator.main(["--check"]) == 1
    assert "stale: pddl.tmLanguage.json, hddl.tmLanguage.json, rddl.tmLanguage.json" in capsys.readouterr().err
    assert generator.main([]) == 0
    assert generator.main(["--check"]) == 0


def test_the_scanner_reads_literals_by_rule_and_skips_comments_and_regexps() -> None:
    found = generator.literals('a: "x" B // "not" here\n!b: "y"i | /"z"/ "w"\nC: "v"\n')
    assert found == {"x": {"a"}, "y": {"b"}, "w": {"b"}, "v": {"C"}}


def _patterns(lang: str) -> list[tuple[re.Pattern[str], str]]:
    grammar = json.loads((EXTENSION / "syntaxes" / f"{lang}.tmLanguage.json").read_text(encoding="utf-8"))
    patterns = []
    for entry in grammar["patterns"]:
        if "include" in entry:
            for comment in grammar["repository"]["comment"].get("patterns", [grammar["repository"]["comment"]]):
                if "match" in comment:
                    patterns.append((re.compile(comment["match"], re.MULTILINE), comment["name"]))
        else:
            patterns.append((re.compile(entry["match"]), entry["name"]))
    return patterns


def tokens(lang: str, line: str) -> list[tuple[str, str]]:
    """(text, scope) of a line as TextMate scans it: at each position the first pattern that matches
    there, else one character on."""
    patterns = _patterns(lang)
    found = []
    at = 0
    while at < len(line):
        for pattern, scope in patterns:
            match = pattern.match(line, at)
            if match and match.end() > at:
                found.append((match.group(), scope.rsplit(".", 1)[0]))
                at = match.end()
                break
        else:
            at += 1
    return found


@pytest.mark.parametrize("lang", ["pddl", "hddl"])
def test_every_pddl_keyword_is_highlighted(lang: str) -> None:
    words = generator.keywords((REPO / "grammars" / "pddl.lark").read_text(encoding="utf-8"))
    if lang == "hddl":
        words |= generator.keywords((REPO / "grammars" / "hddl.lark").read_text(encoding="utf-8"))
    for word in words:
        line = f"({word} x)" if not word.startswith((":", "#")) else f"( {word} )"
        if word in ("start", "end", "all", "number", "#t"):
            line = f"x {word} y"
        assert (word, ) in {(text,) for text, scope in tokens(lang, line) if scope != "variable.parameter"}, \
            f"{word!r} is not a token of {line!r}: {tokens(lang, line)}"


def test_every_rddl_keyword_is_highlighted() -> None:
    words = generator.keywords((REPO / "grammars" / "rddl.lark").read_text(encoding="utf-8"))
    for word in words:
        assert (word, ) in {(t,) for t, _ in tokens("rddl", f" {word} ")}, word


def test_pddl_lines_are_coloured_as_a_reader_expects() -> None:
    assert tokens("pddl", "(:action move ; a (comment)") == [
        ("(", "punctuation.section.parens"), (":action", "keyword.control.section"),
        ("; a (comment)", "comment.line.semicolon")]
    assert tokens("pddl", "(AND (on ?x - block or) (increase (total-cost) 1.5))") == [
        ("(", "punctuation.section.parens"), ("AND", "keyword.operator.word"), ("(", "punctuation.section.parens"),
        ("?x", "variable.parameter"), ("-", "keyword.operator.type"), (")", "punctuation.section.parens"),
        ("(", "punctuation.section.parens"), ("increase", "keyword.operator.assignment"),
        ("(", "punctuation.section.parens"), (")", "punctuation.section.parens"), ("1.5", "constant.numeric"),
        (")", "punctuation.section.parens"), (")", "punctuation.section.parens")]
    assert tokens("pddl", "(:requirements :strips :typing :my-flag)")[1:] == [
        (":requirements", "keyword.control.section"), (":strips", "support.constant.requirement"),
        (":typing", "support.constant.requirement"), (":my-flag", "support.constant.flag"),
        (")", "punctuation.section.parens")]


def test_hddl_sections_are_keywords_in_hddl_only() -> None:
    assert (":ordered-subtasks", "keyword.control.section") in tokens("hddl", ":ordered-subtasks (and)")
    assert (":ordered-subtasks", "support.constant.flag") in tokens("pddl", ":ordered-subtasks (and)")


def test_rddl_lines_are_coloured_as_a_reader_expects() -> None:
    assert tokens("rddl", "p'(?x) = sum_{?y : obj} [Bernoulli(0.5) * exp[q(?y)]]; // note") == [
        ("p'", "variable.other.primed"), ("(", "punctuation.section"), ("?x", "variable.parameter"),
        (")", "punctuation.section"), ("=", "keyword.operator"), ("sum", "keyword.operator.aggregation"),
        ("{", "punctuation.section"), ("?y", "variable.parameter"), ("}", "punctuation.section"),
        ("[", "punctuation.section"),
        ("Bernoulli", "support.function.distribution"), ("(", "punctuation.section"), ("0.5", "constant.numeric"),
        (")", "punctuation.section"), ("*", "keyword.operator"), ("exp", "support.function.builtin"),
        ("[", "punctuation.section"), ("(", "punctuation.section"), ("?y", "variable.parameter"),
        (")", "punctuation.section"), ("]", "punctuation.section"), ("]", "punctuation.section"),
        ("// note", "comment.line.double-slash")]
    assert ("state-fluent", "storage.modifier.fluent") in tokens("rddl", "{ state-fluent, bool, default = false }")
    assert ("non-fluents", "keyword.control") in tokens("rddl", "non-fluents nf {")

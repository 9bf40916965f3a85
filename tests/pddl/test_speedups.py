"""The compiled hot paths (`pddltools.syntax._speedups`) against the Python code they replace.

- packaging: where a C compiler is, the extension is built, current and actually used by the parser;
- the whole shared IPC corpus and this repository's own PDDL files: `parse(src)` (compiled) and
  `parse(src)` inside `parser_variant(compiled=False)` give equal trees with the same node types and spans
  (node equality
  ignores spans, so spans are compared on their own), the same warnings, or the same diagnostics;
- generated problems and domains (hypothesis): the compiled path, the Python path and the grammar
  alone (`parser_variant(fast=False)`) agree, trees and spans or diagnostics;
- `Maker`: the instances it builds, the collector, and the errors of misuse;
- `FlatScanner`: spot checks against the Python scanners, and the hand-over of non-ASCII elements;
- `character_classes`: the real grammar's terminals, and shapes the compiled scanner cannot read;
- `Driver`: error paths (raw exceptions and diagnostics), the parser's state after every prefix of a
  file, and `FastParser.expected_at`.

Node spans are compared as (start, length) over `walk()` on the corpus (tree equality compares the node
types), and field by field, with the identity of the source, everywhere else.
"""

from __future__ import annotations

import dataclasses
import gc
import os
import random
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from operator import attrgetter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lark import Tree

from pddltools.diagnostics import InputError, Source, Span
from pddltools.pddl import ast
from pddltools.pddl.fastpath import (
    CharacterClasses,
    Terminals,
    Words,
    _compiled_scanner,
    build_scanners,
    character_classes,
    gaps_of,
    kept_terminals,
)
from pddltools.pddl.parser import _BuildError, _parser, _terminals, parse
from pddltools.reading import read_source
from pddltools.syntax import frozen
from pddltools.syntax.errors import ParseError
from pddltools.syntax.frozen import fast_constructor
from pddltools.syntax.lalr import FastParser, Tok, UnexpectedInput
from pddltools.syntax.lexing import NestingTooDeep, UnexpectedCharacter
from pddltools.syntax.testing import parser_variant

from .corpus_files import SHARED_PDDL, domain_folders, pddl_files

REPO = Path(__file__).resolve().parents[2]
OWN_PDDL = sorted((REPO / "corpus").rglob("*.pddl"))

needs_speedups = pytest.mark.skipif(
    frozen.speedups is None,
    reason="pddltools.syntax._speedups is not built (no C compiler at install time): nothing compiled to compare")

# -------------------------------------------------------------------------------------------------
# What is compared


def fingerprint(value: Any, source: Source) -> Any:
    """Everything about a parsed value, spans included: (start, end, whether in `source`) for a span,
    the type and every field for a node, the type and value of anything else."""
    if isinstance(value, Span):
        return ("span", value.start, value.end, value.source is source)
    if isinstance(value, Tok):
        return ("tok", value.type, fingerprint(value.value, source), value.start_pos, value.end_pos)
    if isinstance(value, Tree):  # what Lark's callbacks build for its own helper rules (`x*`)
        return ("tree", value.data, fingerprint(value.children, source))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (type(value).__name__, *(fingerprint(getattr(value, f.name), source) for f in dataclasses.fields(value)))
    if isinstance(value, tuple | list):
        return (type(value).__name__, *(fingerprint(v, source) for v in value))
    return (type(value).__name__, value)


_SPAN, _POSITION = attrgetter("span"), attrgetter("start", "length")


def shape(tree: ast.Node) -> list[tuple[int, int]]:
    """The spans of a tree's nodes in `walk()` order, as (start, length): cheaper than `fingerprint`, for
    the large corpus. The node types need no list of their own there: two trees are equal only if each
    node is of the same class as its counterpart (a dataclass equals only an instance of its class)."""
    return list(map(_POSITION, map(_SPAN, tree.walk())))


def outcome(source: Source, **options: bool) -> tuple[Any, ...]:
    """("tree", tree, warnings) or ("error", diagnostics), diagnostics and warnings as JSON."""
    warnings: list[Any] = []
    try:
        with parser_variant(**options):
            tree = parse(source, warnings=warnings)
    except ParseError as exc:
        return ("error", [d.to_json() for d in exc.diagnostics])
    return ("tree", tree, [w.to_json() for w in warnings])


def assert_same_outcome(first: tuple[Any, ...], second: tuple[Any, ...], where: str, *,
                        full: Source | None = None) -> None:
    """Equal trees with equal spans and warnings, or equal diagnostics. With `full`, spans are
    compared field by field (with the source they point into) rather than by `shape`."""
    assert first[0] == second[0], (
        f"{where}: {first[0]} one way, {second[0]} the other: {first[1]!s:.300} / {second[1]!s:.300}")
    if first[0] == "error":
        assert first[1] == second[1], f"{where}: the diagnostics differ"
        return
    assert first[1] == second[1], f"{where}: the trees differ"
    if full is not None:
        assert fingerprint(first[1], full) == fingerprint(second[1], full), f"{where}: node types or spans differ"
    else:
        assert shape(first[1]) == shape(second[1]), f"{where}: node types or spans differ"
    assert first[2] == second[2], f"{where}: the warnings differ"


#: The ways to parse: the default (compiled driver and scanners), the Python loop and scanners, and the
#: grammar alone with each loop.
PATHS: dict[str, dict[str, bool]] = {
    "python": {"compiled": False},
    "grammar": {"fast": False},
    "grammar, python loop": {"fast": False, "compiled": False},
}


def assert_paths_agree(text: str, name: str = "generated.pddl") -> tuple[Any, ...]:
    source = Source(text, name)
    compiled = outcome(source)
    for label, options in PATHS.items():
        assert_same_outcome(compiled, outcome(source, **options), f"{name}, compiled vs {label}", full=source)
    return compiled


# -------------------------------------------------------------------------------------------------
# Packaging


def test_the_extension_is_built_where_a_c_compiler_is() -> None:
    if not (shutil.which("cc") or shutil.which("gcc")):
        pytest.skip("no C compiler here: pddltools runs the Python versions of its hot paths")
    assert frozen.speedups is not None, (
        "a C compiler is available but pddltools.syntax._speedups is not built: `pip install -e .` builds it")
    for part in ("Maker", "FlatScanner", "Driver"):
        assert hasattr(frozen.speedups, part), part


@needs_speedups
def test_the_built_extension_is_not_older_than_its_source() -> None:
    """In an editable install the module is built next to its source; built from an older source, every
    comparison below would test code that is no longer there."""
    assert frozen.speedups is not None
    built = Path(frozen.speedups.__file__)  # type: ignore[arg-type]
    source = built.parent / "_speedups.c"
    if not source.exists():
        pytest.skip("an installed wheel: no source beside the module")
    assert built.stat().st_mtime >= source.stat().st_mtime, (
        f"{built.name} is older than _speedups.c: rebuild it with `pip install -e .`")


@needs_speedups
def test_the_default_parser_runs_compiled_and_compiled_false_does_not() -> None:
    """Otherwise the comparisons below would compare the Python code with itself."""
    speedups = frozen.speedups
    assert speedups is not None
    compiled, python = _parser(True, True), _parser(True, False)
    assert isinstance(compiled.driver.compiled, speedups.Driver)
    assert python.driver.compiled is None
    for terminal in ("GD_LITERALS", "EFFECT_LITERALS", "INIT_ELEMENTS"):
        assert isinstance(compiled.driver.fast_paths[terminal], speedups.FlatScanner), terminal
        assert not isinstance(python.driver.fast_paths[terminal], speedups.FlatScanner), terminal
    assert isinstance(_parser(False, True).driver.compiled, speedups.Driver)
    assert _parser(False, False).driver.compiled is None
    assert isinstance(fast_constructor(ast.Atom), speedups.Maker)
    assert not isinstance(fast_constructor(ast.Atom, compiled=False), speedups.Maker)


# -------------------------------------------------------------------------------------------------
# The shared IPC corpus and this repository's files

FOLDERS = domain_folders()
FOLDER_PARAMS = [pytest.param(f, id=f.relative_to(SHARED_PDDL).as_posix()) for f in FOLDERS] or [
    pytest.param(None, id="no-corpus", marks=pytest.mark.skip(reason=f"the shared IPC corpus is not at {SHARED_PDDL}"))]


@pytest.mark.corpus
@needs_speedups
@pytest.mark.parametrize("folder", FOLDER_PARAMS)
def test_corpus_compiled_equals_python(folder: Path) -> None:
    files = pddl_files(folder)
    assert files, f"{folder} has no .pddl file"
    for path in files:
        source = read_source(path)
        assert_same_outcome(outcome(source), outcome(source, compiled=False), str(path))


@needs_speedups
@pytest.mark.parametrize("path", OWN_PDDL, ids=[p.relative_to(REPO / "corpus").as_posix() for p in OWN_PDDL])
def test_own_corpus_compiled_equals_python_and_grammar(path: Path) -> None:
    """corpus/pddl/bad (every kind of syntax error), corpus/pddl/features and the rest: the same tree and
    spans, or the same diagnostics, compiled, in Python, and by the grammar alone."""
    try:
        source = read_source(path)
    except InputError:  # not text: no parser runs
        return
    assert_paths_agree(source.text, str(path))


def test_own_corpus_is_there() -> None:
    assert len(OWN_PDDL) > 100
    assert len([p for p in OWN_PDDL if p.parent.name == "bad"]) >= 20


# -------------------------------------------------------------------------------------------------
# Generated problems and domains

# Hypothesis pays per draw: separators and words are drawn whole from lists made in advance. Each example
# has a noise level: none (every word a name, every number a number: the file should parse, through
# long fast-path runs), rare or frequent oddities (hard keywords, odd tokens, non-ASCII, a missing
# parenthesis).
NOISE = st.shared(st.sampled_from([0, 0, 1, 2]), key="noise")
GAPS = [" ", "\t", "\r", "\n", "\f", "\r\n", "  ", " \t ", "\n\n  ", "; c\n", " ;x;y\n\t", ";\n", ";é (p a)\n",
        "\f; (:init (and ?x é)\r\n ", "; not (= (f a) 3) \u017f€\n", "\t;;\n;\n"]
OPTIONAL_GAPS = ["", "", "", *GAPS]  # `(p a)(q b)`, `( p a )`, `(=(f a)3)`
PLAIN = ["a", "b", "p", "q", "c1", "x-y", "on_table", "f", "g", "loc"]
# soft keywords (names), and the non-ASCII letters that [a-z] would match ignoring case under Unicode
# rules (not names: they do not lower to the letter they matched, so matching is ASCII-only)
UNUSUAL = ["at", "over", "start", "end", "number", "all", "either", "domain", "minimize", "within", "always",
           "\u017f", "a\u0131", "İx", "\u212a"]
HARD = ["and", "not", "or", "forall", "exists", "when", "imply", "increase", "assign", "preference"]
NON_ASCII = ["café", "é", "naïve", "ß", "x\u0663", "Ünïcode"]
ODD = ["a?x", "?x", "?", "1e5", ".5", "3.", "-2", "3", "-", "#t", ":init", "{", "a;b", "p?x", "a)", "(b"]
NUMBERS = ["3", "0", "1.5", "1e5", ".5", "3.", "007", "2.50", "1e+3", "1.E-2", "12345678901234567890"]
ODD_NUMBERS = ["-2", "1e", "3x", "1.2.3", "\u0663"]
VARIABLES = ["?x", "?y", "?obj-1", "?X"]
ODD_VARIABLES = ["?x?y", "?", "?é"]


def case_variants(words: list[str]) -> list[str]:
    """Each word as written, in upper case, capitalised, and with every other letter upper case."""
    out: list[str] = []
    for w in words:
        mixed = "".join(c.upper() if i % 2 else c for i, c in enumerate(w))
        out.extend(dict.fromkeys([w, w.upper(), w.title(), mixed]))
    return out


POOLS = {"plain": case_variants(PLAIN), "unusual": case_variants(UNUSUAL),
         "odd": case_variants(HARD) + case_variants(NON_ASCII) + ODD}


def gap(required: bool = True) -> st.SearchStrategy[str]:
    """White space and comments between two tokens (perhaps none, unless `required`)."""
    return st.sampled_from(GAPS if required else OPTIONAL_GAPS)


@st.composite
def odd(draw: st.DrawFn, usual: list[str], unusual: list[str]) -> str:
    """One of `usual`; with noise, now and then one of `unusual`."""
    noise = draw(NOISE)
    if noise and draw(st.integers(0, 11 if noise == 2 else 39)) == 0:
        return draw(st.sampled_from(unusual))
    return draw(st.sampled_from(usual))


@st.composite
def word(draw: st.DrawFn) -> str:
    """Mostly an ordinary name, in any case; sometimes a soft keyword or a name in non-ASCII letters."""
    return draw(odd(POOLS["plain" if draw(st.integers(0, 3)) else "unusual"], POOLS["odd"]))


def keyword(text: str) -> st.SearchStrategy[str]:
    return st.sampled_from(case_variants([text]))


NUMBER = odd(NUMBERS, ODD_NUMBERS)
VARIABLE = odd(VARIABLES, ODD_VARIABLES)


@st.composite
def atom(draw: st.DrawFn, arguments: st.SearchStrategy[str], max_args: int = 3) -> str:
    parts = ["(", draw(gap(False)), draw(word())]
    for _ in range(draw(st.integers(0, max_args))):
        parts += [draw(gap()), draw(arguments)]
    return "".join([*parts, draw(gap(False)), ")"])


@st.composite
def maybe_broken(draw: st.DrawFn, text: str) -> str:
    """With noise, now and then one parenthesis less."""
    noise = draw(NOISE)
    parens = [i for i, c in enumerate(text) if c in "()"]
    if noise and parens and draw(st.integers(0, 14 if noise == 2 else 49)) == 0:
        i = draw(st.sampled_from(parens))
        return text[:i] + text[i + 1:]
    return text


@st.composite
def literal(draw: st.DrawFn, arguments: st.SearchStrategy[str]) -> str:
    inner = draw(atom(arguments))
    if draw(st.booleans()):
        inner = "(" + draw(gap(False)) + draw(keyword("not")) + draw(gap(False)) + inner + draw(gap(False)) + ")"
    return draw(maybe_broken(inner))


@st.composite
def init_element(draw: st.DrawFn) -> str:
    kind = draw(st.integers(0, 9))
    if kind < 5:
        return draw(literal(word()))
    if kind < 9:
        value = draw(NUMBER if draw(st.booleans()) else word())
        # a 0-ary fluent may go without parentheses (PDDL 3.1): `(= d 0)`, which the fast paths leave to the grammar
        fluent = draw(atom(word())) if draw(st.integers(0, 3)) else draw(gap()) + draw(word()) + draw(gap())
        element = "(" + draw(gap(False)) + "=" + draw(gap(False)) + fluent + draw(gap(False))
        # a value right after the fluent's ')' needs no space: `(= (f a)3)` is fine
        return draw(maybe_broken(element + value + draw(gap(False)) + ")"))
    return "(" + draw(keyword("at")) + draw(gap()) + draw(NUMBER) + draw(gap(False)) + draw(literal(word())) + ")"


def run(elements: st.SearchStrategy[str], max_size: int = 8) -> st.SearchStrategy[str]:
    return st.lists(st.tuples(gap(False), elements), max_size=max_size).map(lambda xs: "".join(a + b for a, b in xs))


TERMS = st.one_of(VARIABLE, word())


@st.composite
def problems(draw: st.DrawFn) -> str:
    k = keyword
    goal_literals = draw(run(literal(TERMS) | init_element()))
    goal = ("(" + draw(gap(False)) + draw(k("and")) + goal_literals + draw(gap(False)) + ")"
            if draw(st.integers(0, 4)) else draw(literal(word())))
    objects = ""
    if draw(st.booleans()):
        objects = "(" + draw(k(":objects")) + draw(gap()) + " ".join(draw(st.lists(word(), max_size=4))) + ")"
    header = (draw(gap(False)) + "(" + draw(gap(False)) + draw(k("define")) + draw(gap(False)) + "("
              + draw(k("problem")) + draw(gap()) + draw(word()) + ")" + draw(gap(False)) + "(" + draw(k(":domain"))
              + draw(gap()) + draw(word()) + ")")
    init = "(" + draw(k(":init")) + draw(run(init_element(), 12)) + draw(gap(False)) + ")"
    return (header + draw(gap(False)) + objects + draw(gap(False)) + init + draw(gap(False)) + "(" + draw(k(":goal"))
            + draw(gap(False)) + goal + ")" + draw(gap(False)) + ")" + draw(odd(["", "\n", "; trailing é"], ["\n)"])))


@st.composite
def body(draw: st.DrawFn, effects: bool) -> str:
    kind = draw(st.integers(0, 7))
    if kind == 0:
        return "(" + draw(gap(False)) + ")"
    if kind == 1:
        return draw(literal(TERMS))
    elements = literal(TERMS)
    if effects:
        op = st.sampled_from(["increase", "decrease", "assign", "scale-up", "INCREASE"])
        update = st.builds(lambda o, f, v: f"({o} {f} {v})", op, atom(TERMS, 2), NUMBER | atom(TERMS, 1))
        elements = elements | update
    return "(" + draw(gap(False)) + draw(keyword("and")) + draw(run(elements, 6)) + draw(gap(False)) + ")"


PARAMETERS = odd(["()", "(?x)", "(?x ?y)", "(?x ?y - t)", "(?X - object ?y)", "(?x - (either a b))", "(?x ;c\n ?y)"],
                 ["(?x -)", "(- t)", "(?x a)", "(?x - and)", "(?x\u00a0- t)", "(?x\x0b- t)", "(?x -\u2003t)",
                  "(\x1c?x)"])


@st.composite
def actions(draw: st.DrawFn) -> str:
    if draw(st.integers(0, 5)) == 0:  # a durative action: timed flat literals
        times = st.sampled_from(["at start", "at end", "over all", "AT START", "at  end", "over all;c\n"])
        timed = st.builds(lambda t, lit: f"({t} {lit})", times, literal(TERMS))
        return (f"(:durative-action {draw(word())} :parameters {draw(PARAMETERS)} :duration (= ?duration 1)"
                f" :condition (and{draw(run(timed, 4))}) :effect (and{draw(run(timed, 4))}))")
    parts = ["(", draw(gap(False)), draw(keyword(":action")), draw(gap()), draw(word())]
    if draw(st.integers(0, 5)):
        parts += [draw(gap()), draw(keyword(":parameters")), draw(gap(False)), draw(PARAMETERS)]
    if draw(st.integers(0, 5)):
        parts += [draw(gap()), draw(keyword(":precondition")), draw(gap(False)), draw(body(False))]
    if draw(st.integers(0, 5)):
        parts += [draw(gap()), draw(keyword(":effect")), draw(gap(False)), draw(body(True))]
    return "".join([*parts, draw(gap(False)), ")"])


@st.composite
def domains(draw: st.DrawFn) -> str:
    structures = draw(st.lists(actions(), min_size=1, max_size=3))
    return (draw(gap(False)) + "(" + draw(keyword("define")) + " (" + draw(keyword("domain")) + " " + draw(word())
            + ")" + draw(gap(False)) + "(:requirements :strips :typing)" + draw(gap(False))
            + "(:predicates (p ?x) (q ?x ?y))" + "".join(draw(gap(False)) + s for s in structures) + draw(gap(False))
            + ")")


GENERATED = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                              HealthCheck.data_too_large])


@needs_speedups
@GENERATED
@given(problems())
def test_generated_problems_parse_alike_every_way(text: str) -> None:
    assert_paths_agree(text)


@needs_speedups
@GENERATED
@given(domains())
def test_generated_domains_parse_alike_every_way(text: str) -> None:
    assert_paths_agree(text)


GARBAGE = st.text(alphabet=st.sampled_from(list("()() \n\t;?=-.:aAbpz019é\u017f{\x00\x0b\u00a0")), max_size=60)


@needs_speedups
@GENERATED
@given(GARBAGE, st.sampled_from(["(define (problem p) (:domain d) (:init ",
                                 "(define (problem p) (:domain d) (:goal (and ",
                                 "(define (domain d) (:action a :parameters (?x) :precondition (and ", ""]))
def test_garbage_after_a_header_fails_or_parses_alike(text: str, header: str) -> None:
    assert_paths_agree(header + text)


# Hostile inputs (issue 21): numbers past any size a task needs, and parentheses out of place.

DIGIT_COUNTS = [1, 2, 17, 998, 999, 1000, 1001, 4301, 5000]
FRACTIONS = ["", ".", ".5", ".25", "." + "0" * 997 + "1", "." + "3" * 1200]
EXPONENTS = ["", "e0", "e+2", "E-3", "e998", "e-999", "e1000", "e-1000", "e5000", "e-99999", "e100000000",
             "e" + "9" * 40, "e-" + "0" * 50 + "7"]


@st.composite
def extreme_number(draw: st.DrawFn) -> str:
    """A NUMBER literal from tiny to huge: long mantissas, long fractions, exponents of any size, either sign."""
    digits = "".join(draw(st.sampled_from(["1", "7", "9", "0"])) for _ in range(3))
    mantissa = (digits * (draw(st.sampled_from(DIGIT_COUNTS)) // 3 + 1))[: draw(st.sampled_from(DIGIT_COUNTS))]
    mantissa = mantissa.lstrip("0") or "0"
    sign = draw(st.sampled_from(["", "-"]))
    return sign + mantissa + draw(st.sampled_from(FRACTIONS)) + draw(st.sampled_from(EXPONENTS))


@st.composite
def with_extreme_numbers(draw: st.DrawFn) -> str:
    number = draw(extreme_number())
    if draw(st.booleans()):
        return f"(define (problem p) (:domain d) (:objects a) (:init (= (f a) {number}) (p a)) (:goal (p a)))"
    where = draw(st.sampled_from(["(increase (f) {})", "(and (assign (f) {}) (p))", "(and (increase (f) (* 2 {})))"]))
    return (f"(define (domain d) (:requirements :numeric-fluents) (:predicates (p)) (:functions (f))\n"
            f"  (:action a :parameters () :precondition (p) :effect {where.format(number)}))")


def assert_refused_or_printed_back(text: str) -> None:
    """Every way parses alike; an error is located, an accepted file prints as text that parses back."""
    from pddltools.pddl.printer import to_pddl

    found = assert_paths_agree(text)
    if found[0] == "error":
        assert all(d["line"] and d["column"] for d in found[1]), found[1]
        return
    printed = to_pddl(found[1])
    assert parse(Source(printed)) == found[1], printed[:300]


@needs_speedups
@GENERATED
@given(with_extreme_numbers())
def test_numbers_of_any_size_are_refused_located_or_printed_back(text: str) -> None:
    assert_refused_or_printed_back(text)


@st.composite
def swapped_parentheses(draw: st.DrawFn, text: str) -> str:
    """`text` with a few parentheses turned round, or moved into the next word."""
    parens = [i for i, c in enumerate(text) if c in "()"]
    chars = list(text)
    for _ in range(draw(st.integers(1, 4))):
        if not parens:
            break
        i = draw(st.sampled_from(parens))
        if draw(st.booleans()):
            chars[i] = "(" if chars[i] == ")" else ")"
        elif i + 1 < len(chars) and chars[i + 1] not in "()":
            chars[i], chars[i + 1] = chars[i + 1], chars[i]
    return "".join(chars)


@needs_speedups
@GENERATED
@given(st.one_of(problems(), domains()).flatmap(swapped_parentheses))
def test_swapped_parentheses_fail_alike_and_located(text: str) -> None:
    assert_refused_or_printed_back(text)


#: Every character Python takes for space (`str.split`, `str.isspace`), the grammar's five among them, and
#: the letters that match [a-z] ignoring case under Unicode rules.
SPACE_LIKE = [chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace()] + ["\ufeff", "\u200b", "\x00"]
CASE_FOLDING = ["\u0130", "\u0131", "\u017f", "\u212a"]
#: Places where a fast path reads the text itself, `{}` standing for the character tried there.
CHARACTER_PLACES = [
    "(define (domain d) (:predicates (p ?x)) (:action a :parameters (?x{}?y) :precondition (p ?x) :effect (p ?y)))",
    "(define (domain d) (:predicates (p ?x)) (:action a :parameters (?x -{}object) :effect (p ?x)))",
    "(define (domain d) (:predicates (p ?x)) (:action a :parameters (?x) :precondition (and (p{}?x)) :effect (p ?x)))",
    "(define (domain d) (:predicates (p ?x)) (:action a :parameters (?x) :effect (and (p ?x){}(not (p ?x)))))",
    "(define (domain d) (:predicates (p ?x)) (:action a{}:parameters (?x) :effect (p ?x)) (:action b))",
    "(define (problem p) (:domain d) (:init (p a{}b) (q)) (:goal (q)))",
    "(define (problem p) (:domain d) (:init (= (f a){}3) (q)) (:goal (q)))",
    "(define (problem p) (:domain d) (:init (p a) (p x{}) (q)) (:goal (q)))",
]


@needs_speedups
@pytest.mark.parametrize("place", CHARACTER_PLACES)
def test_every_path_agrees_with_the_grammar_on_space_like_characters(place: str) -> None:
    """The fast paths, compiled and in Python, accept a character exactly where the grammar does: U+00A0
    or a vertical tab in a parameter list, say, is an unexpected character every way (issue 21)."""
    for char in SPACE_LIKE + CASE_FOLDING:
        found = assert_paths_agree(place.format(char), f"U+{ord(char):04X}.pddl")
        if char not in " \t\n\r\f":
            assert found[0] == "error", f"U+{ord(char):04X} accepted in {place}"


def test_the_generators_make_files_that_parse() -> None:
    """The properties above are worth something only if many generated files parse (and others fail)."""
    seen = {"tree": 0, "error": 0}

    @settings(max_examples=40, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(st.one_of(problems(), domains()))
    def count(text: str) -> None:
        seen[outcome(Source(text))[0]] += 1

    count()
    assert seen["tree"] >= 5 and seen["error"] >= 5, seen


# -------------------------------------------------------------------------------------------------
# Maker

@dataclasses.dataclass(frozen=True)
class NotSlotted:
    x: int
    y: int = 3


def node_classes() -> list[type]:
    return [c for c in vars(ast).values() if isinstance(c, type) and issubclass(c, ast.Node)
            and dataclasses.is_dataclass(c) and c is not ast.Node]


@needs_speedups
@pytest.mark.parametrize("cls", [c for c in node_classes() if len(dataclasses.fields(c)) <= 8],
                         ids=lambda c: c.__name__)
def test_maker_builds_what_the_python_constructor_builds(cls: type) -> None:
    """Every AST class (of up to eight fields, what a Maker holds): the compiled maker and the generated
    Python one set each field to the argument given, in `fields()` order; the compiled one's instance is
    left out of the cycle collector; both equal the dataclass constructor's instance of the same values."""
    speedups = frozen.speedups
    assert speedups is not None
    names = [f.name for f in dataclasses.fields(cls)]
    args = [object() for _ in names]
    compiled, python = fast_constructor(cls), fast_constructor(cls, compiled=False)
    assert isinstance(compiled, speedups.Maker)
    for made in (compiled(*args), python(*args)):
        assert type(made) is cls
        assert all(getattr(made, n) is a for n, a in zip(names, args, strict=True))
    assert not gc.is_tracked(compiled(*args))
    values = {n: (None if n == "span" else ()) for n in names}
    reference = cls(**values)
    assert compiled(*values.values()) == reference == python(*values.values())


@needs_speedups
@pytest.mark.parametrize("cls", [ast.Domain, ast.Problem], ids=lambda c: c.__name__)
def test_fast_constructor_of_a_class_with_more_fields_than_a_maker_holds(cls: type) -> None:
    """`fast_constructor` promises a constructor for any frozen slotted dataclass; with the extension
    built it must not fail where the Python version works (a Maker holds at most eight fields)."""
    names = [f.name for f in dataclasses.fields(cls)]
    assert len(names) > 8
    values = {n: (None if n == "span" else ()) for n in names}
    values["name"] = "x"
    make = fast_constructor(cls)
    assert make(*values.values()) == cls(**values) == fast_constructor(cls, compiled=False)(*values.values())


@needs_speedups
def test_maker_on_real_nodes_and_spans() -> None:
    source = Source("(p a)")
    span = fast_constructor(Span)(source, 0, 5)
    assert span == Span(source, 0, 5) and (span.start, span.end, span.length) == (0, 5, 5)
    inner = fast_constructor(Span)(span, 3, 1)
    assert inner == Span(source, 3, 4) and not gc.is_tracked(inner)
    constant = fast_constructor(ast.Constant)(inner, "a")
    made = fast_constructor(ast.Atom)(span, "p", (constant,))
    reference = ast.Atom("p", (ast.Constant("a", span=Span(source, 3, 4)),), span=Span(source, 0, 5))
    assert made == reference and made.span == reference.span and made.args[0].span == reference.args[0].span
    assert hash(made) == hash(reference) and str(made) == str(reference) == "(p a)"
    # node classes drop the collector altogether where the extension is built (`tree.Tree`): even the
    # dataclass constructor's instance is not tracked
    assert not gc.is_tracked(made) and not gc.is_tracked(reference)
    number = fast_constructor(ast.Number)(None, Fraction(3, 2))
    assert number == ast.Number(Fraction(3, 2)) and not gc.is_tracked(number)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.predicate = "q"  # type: ignore[misc]
    # what the parser builds on its compiled paths is left out of the collector's walks too
    problem = parse(Source(HEAD + "(:init (p a) (not (q b)) (= (f a) 2)) (:goal (and (p a) (q b))))"), "problem")
    with parser_variant(compiled=False):
        again = parse(Source(str(problem)))
    assert problem.init and problem.init == again.init  # type: ignore[union-attr]
    for node in (*problem.init, *problem.init[0].args, *problem.goal.parts):  # type: ignore[union-attr]
        assert not gc.is_tracked(node), node


@needs_speedups
def test_maker_refuses_wrong_calls() -> None:
    speedups = frozen.speedups
    assert speedups is not None
    # a node's span is kept in the slot `_anchor` (`span` is the position made from it and `_offset`)
    make = speedups.Maker(ast.Constant, ("_anchor", "name"))
    assert make(None, "a") == ast.Constant("a")
    for call in (lambda: make(None), lambda: make(None, "a", "b"), lambda: make(),
                 lambda: make(span=None, name="a"), lambda: make(None, name="a"), lambda: make(None, "a", x=1)):
        with pytest.raises(TypeError):
            call()
    with pytest.raises(TypeError):
        speedups.Maker(ast.Constant, ["_anchor", "name"])  # type: ignore[arg-type]  # a list, not a tuple
    with pytest.raises(TypeError):
        speedups.Maker("Constant", ("_anchor", "name"))  # type: ignore[arg-type]
    with pytest.raises(AttributeError):
        speedups.Maker(ast.Constant, tuple("abcdefghi"))  # names the class does not have
    # a name the class has no attribute for at all (a field of a dataclass without slots and without a
    # default is one): the look-up's AttributeError
    for cls, name in ((ast.Constant, "nonexistent"), (NotSlotted, "x")):
        with pytest.raises(AttributeError):
            speedups.Maker(cls, (name,))
    with pytest.raises(TypeError):
        speedups.Maker(ast.Constant, ("_anchor", 3))  # type: ignore[arg-type]


@needs_speedups
@pytest.mark.parametrize(("cls", "name"), [
    (NotSlotted, "y"),          # a field of a dataclass without slots (with a default, so a class attribute)
    (ast.Atom, "walk"),         # a method
    (ast.Atom, "__dict__"),     # not a slot either
    (Span, "start"),            # a property
], ids=["field-without-slot", "method", "dict", "property"])
def test_maker_refuses_a_name_that_is_not_a_slot(cls: type, name: str) -> None:
    speedups = frozen.speedups
    assert speedups is not None
    with pytest.raises(TypeError, match="not a slot"):
        speedups.Maker(cls, (name,))


@needs_speedups
def test_maker_refuses_a_slot_of_another_class() -> None:
    """A slot descriptor reached through a class it does not belong to: the descriptor itself refuses
    to write it into an instance of that class (TypeError); the maker must too, rather than write at the
    other class's offset past the end of the instance. In a subprocess: that write corrupts the heap."""
    code = textwrap.dedent("""
        from pddltools.syntax._speedups import Maker
        class Big:
            __slots__ = tuple("abcdefgh")
        class Small:
            __slots__ = ()
            borrowed = Big.h
        try:
            Big.h.__set__(Small(), 1)
        except TypeError:
            pass
        else:
            raise SystemExit("the descriptor accepted a foreign instance")
        try:
            make = Maker(Small, ("borrowed",))
        except TypeError:
            print("refused")
        else:
            made = [make(object()) for _ in range(20000)]
            print("built", len(made))
    """)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                            env={**os.environ, "PYTHONFAULTHANDLER": "1"})
    assert (result.returncode, result.stdout.strip()) == (0, "refused"), (
        f"exit status {result.returncode}, output {result.stdout.strip()!r}, {result.stderr.strip()[-400:]!r}")


# -------------------------------------------------------------------------------------------------
# FlatScanner

def real_terminals() -> Terminals:
    return _terminals(_parser(True).lark)


def scanner_pairs() -> tuple[tuple[Callable[..., Any], ...], tuple[Callable[..., Any], ...]]:
    compiled = build_scanners(real_terminals(), compiled=True)
    python = build_scanners(real_terminals(), compiled=False)
    return compiled, python


def scanner_mismatches(compiled: Callable[..., Any], python: Callable[..., Any],
                       texts: list[str]) -> list[tuple[str, Any, Any]]:
    """The texts (each alone and after a prefix) on which two scanners differ: (text, end, end)."""
    failures = []
    for text in texts:
        for prefix in ("", "(and ", "xyz\n "):
            whole = prefix + text
            source = Source(whole)
            got = compiled(whole, len(prefix), source)
            want = python(whole, len(prefix), source)
            if fingerprint(got, source) != fingerprint(want, source):
                failures.append((whole, got and got[1], want and want[1]))
    return failures


LITERAL_TEXTS = [
    "(p a)", "(p)", "(p )", " (p ?x ?y) (q a ?x)\n(r)", "(P A ?X)", "(not (p a))", "(NOT(p a))", "(not ;c\n(p a) )",
    "(p a ;comment é (q)\n b)", "(p;c\na)", "\t\f\r\n(p a)", "(at ?t ?c)", "(over a) (start b) (number c) (end)",
    "(and (p a))", "(p and)", "(not a)", "(not (and))", "(not (p a) b)", "(p a?x)", "(p ?x?y)", "(p ?)", "(p 1)",
    "(= (f a) 3)", "(p a)(q b)", "(p a) )", "(p a", "(p (q a))", "(p a) {", "(p a-b c_d e-)", "(?p a)", "()", "( )",
    "(p a) (q é) (r b)", "(é a) (p b)", "(p a) (p\u017f \u017f)", "(p \u212a)", "(p a) é", "(p\u00a0a)", "(p\x0ba)",
    "(p a)\x00(q b)", "; only a comment", "", "(p " + "a " * 255 + ")", "(p " + "a " * 256 + ")",
    "(p " + "a " * 257 + ")", "(p " + " ".join(f"?v{i}" for i in range(300)) + ")",
    "(p a) (p " + "b " * 300 + ") (q c)",
]
INIT_TEXTS = [
    "(p a)", "(p a b) (q) (not (r a))", "(= (f a) 3)", "(= (f a) 1.5)", "(= (f a) obj)", "(= (F A) OBJ)", "(=(f a)3)",
    "(= (f a)3) (p b)", "(= (f) .5)", "(= (f a) 3.)", "(= (f a) 1e5)", "(= (f a) 1E-2)", "(= (f a) -2)", "(= (f a) 1e)",
    "(= (f a) 3x)", "(= (f a) 1.2.3)", "(= (f a) ?x)", "(= (f a) and)", "(= (f a) at)", "(= (and a) 3)", "(= f 3)",
    "(== (f a) 3)", "(= (f a) 3 4)", "(= (f a) 3;c\n)", "(= ;c\n (f ;d\n a) ;e\n 3 ;f\n)", "(= (f a) \u0663)",
    "(= (f a) 3\u0663)", "(= (f é) 3)", "(= (f a) é)", "(p ?x)", "(at 5 (p a))", "(p a?x)", "(p at over start end)",
    "(not (= (f a) 3))", "(p a) (= (f a) 2) (not (q b)) (= (g) c) é", "(p " + "a " * 256 + ") (q b)",
    # signed literals (the grammar's NUMBER has a sign): a sign must touch its digits
    "(= (f a) -.5)", "(= (f a) -1e-3)", "(= (f a) -)", "(= (f a) - 2)", "(= (f a) --2)", "(= (f a) -a)",
]


@needs_speedups
@pytest.mark.parametrize("index", [0, 1], ids=["literals", "init"])
def test_flat_scanner_spot_checks(index: int) -> None:
    """The compiled scanner gives None where the Python one does, and otherwise the same nodes (types,
    fields, spans) and the same end, from the start of the text and from inside it."""
    compiled, python = scanner_pairs()
    speedups = frozen.speedups
    assert speedups is not None
    assert isinstance(compiled[index], speedups.FlatScanner)
    texts = LITERAL_TEXTS if index == 0 else INIT_TEXTS
    assert scanner_mismatches(compiled[index], python[index], texts) == []


TIMED_TEXTS = [
    "(at start (p a))", "(at end (not (p ?x)))", "(over all (q a ?x))", "(AT START (P A))", "(at  end(p))",
    "(over all;c\n(p a);d\n)", "(at start (p a) (q b))", "(at start (p a)", "(at start p)", "(at start (and (p)))",
    "(at begin (p a))", "(over start (p a))", "(atstart (p a))", "(at start (p é))", "(at start (p a)) (at end (q b))",
    "(at start (p a)) (over all (q b)) (at 5 (r))", "(at start (not (p a) (q)))", "(at start (= (f a) 3))",
    "(at start (p a)) é", "(at\u00a0start (p a))", "(at start (p " + "a " * 300 + "))",
]


@needs_speedups
@pytest.mark.parametrize("index", [3, 4], ids=["timed-conditions", "timed-effects"])
def test_timed_scanners_compiled_and_python_agree(index: int) -> None:
    """The timed-literal scanners read their inner literal with the literal scanner, compiled or not:
    both give the same nodes, spans and end, or both decline."""
    compiled, python = scanner_pairs()
    assert scanner_mismatches(compiled[index], python[index], TIMED_TEXTS) == []


def test_timed_scanner_reads_each_literal_once_and_only_its_times() -> None:
    """`over all` is a time of conditions only; a timed literal holding two literals is declined."""
    conditions, effects = build_scanners(real_terminals(), compiled=False)[3:5]
    text = "(at start (p a)) (over all (not (q ?x)))"
    source = Source(text)
    found = conditions(text, 0, source)
    assert found is not None and found[1] == len(text)
    assert [(t.time, t.span.start, t.span.length) for t in found[0]] == [("start", 0, 16), ("all", 17, 23)]
    assert effects(text, 0, source) == ((found[0][0],), 16)
    assert conditions("(at start (p a) (q b))", 0, Source("(at start (p a) (q b))")) is None


@needs_speedups
@pytest.mark.parametrize("text", TIMED_TEXTS)
def test_timed_literals_in_a_domain_parse_alike_every_way(text: str) -> None:
    assert_paths_agree("(define (domain d) (:requirements :durative-actions) (:predicates (p ?x) (q ?x ?y))"
                       f" (:durative-action a :parameters (?x) :duration (= ?duration 1) :condition (and {text})"
                       f" :effect (and {text})))")


@needs_speedups
def test_flat_scanner_reads_a_predicate_followed_by_a_variable_like_python() -> None:
    """`(p?x)`: the grammar reads NAME `p` then VARIABLE `?x`, and so does the Python scanner (it gives
    Atom p(?x)); the compiled scanner declines, as if `?` could not end the predicate's name."""
    compiled, python = scanner_pairs()
    for text in ("(p?x)", "(not (p?x))", "(p ?a) (q?b ?c) (r ?d)"):
        source = Source(text)
        want = python[0](text, 0, source)
        assert want is not None
        assert fingerprint(compiled[0](text, 0, source), source) == fingerprint(want, source), text


@needs_speedups
@pytest.mark.parametrize("pos", [-1, -4, 6, 100])
def test_flat_scanner_positions_outside_the_text(pos: int) -> None:
    """A position before the text is read as the Python scanner's regular expressions read it (from 0),
    not as an index before the string's first character; one past its end finds nothing."""
    compiled, python = scanner_pairs()
    for text in ("(p a)", "  (p a) (q b)", "(= (f a) 1)"):
        source = Source(text)
        for index in (0, 1):
            got, want = compiled[index](text, pos, source), python[index](text, pos, source)
            assert fingerprint(got, source) == fingerprint(want, source), (text, pos, index)


@needs_speedups
def test_flat_scanner_hands_non_ascii_elements_to_python() -> None:
    """An element the compiled scanner leaves undecided (a character outside ASCII, more than 256
    arguments) goes to the Python scanner, from the end of the run so far; the result is the Python
    scanner's."""
    terminals = real_terminals()
    classes = character_classes(terminals)
    assert classes is not None
    hard = frozenset(terminals.hard_keywords)
    for index, init_mode in ((0, False), (1, True)):
        python = build_scanners(terminals, compiled=False)[index]
        calls: list[int] = []

        def fallback(text: str, pos: int, source: Source, python: Callable[..., Any] = python,
                     calls: list[int] = calls) -> Any:
            calls.append(pos)
            return python(text, pos, source)

        scan = _compiled_scanner(classes, terminals.words, hard, init_mode, fallback)
        for text, handed_over_at in [("(p a) (q b)", None), ("(p a) (q é) (r c)", 5), ("(café a)", 0),
                                     ("(p a) (p \u017f) (p b)", 5), ("(p a) (p é", 5), ("(p " + "b " * 300 + ")", 0)]:
            calls.clear()
            source = Source(text)
            got = scan(text, 0, source)
            assert fingerprint(got, source) == fingerprint(python(text, 0, source), source), text
            assert calls == ([] if handed_over_at is None else [handed_over_at]), text


# -------------------------------------------------------------------------------------------------
# character_classes

def test_character_classes_of_the_real_grammar() -> None:
    classes = character_classes(real_terminals())
    assert isinstance(classes, CharacterClasses)
    assert (classes.comment_start, classes.comment_end, classes.variable_prefix) == (";", "\n", "?")
    table = classes.table
    assert len(table) == 128
    name_first, name_rest, space, var_first, number_start = 1, 2, 4, 8, 32
    for c in "azAZ":
        assert table[ord(c)] & name_first and table[ord(c)] & var_first, c
    for c in "09_-":
        assert table[ord(c)] & name_rest and not table[ord(c)] & name_first, c
    assert {chr(i) for i in range(128) if table[i] & space} == set(" \t\f\r\n")
    assert {chr(i) for i in range(128) if table[i] & number_start} == set("0123456789.-")  # -3 is signed
    assert not any(table[ord(c)] for c in "();?=:#{\x00\x0b")
    assert classes.number.fullmatch("1E5") and classes.number.fullmatch("-2") and not classes.number.fullmatch("-")


def test_terminals_kept_under_the_image_key_are_those_read_off_the_grammar(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The parser keeps the terminals and gaps it reads off the grammar (`kept_terminals`): a second run
    reads them back equal, with the same types, without reading the grammar; another key reads again."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    read: list[int] = []

    def reading() -> Terminals:
        read.append(1)
        return real_terminals()

    made = kept_terminals("pddl", "pddl-key", reading)
    kept = kept_terminals("pddl", "pddl-key", reading)
    assert read == [1] and (tmp_path / "pddltools" / "pddl-terminals-1.data").is_file()
    assert kept == made and kept[0] == real_terminals() and kept[1] == gaps_of(real_terminals())
    assert [type(getattr(kept[0], f.name)) for f in dataclasses.fields(Terminals)] == \
        [type(getattr(made[0], f.name)) for f in dataclasses.fields(Terminals)]
    assert [type(getattr(kept[0].words, f.name)) for f in dataclasses.fields(Words)] == \
        [type(getattr(made[0].words, f.name)) for f in dataclasses.fields(Words)]
    assert kept_terminals("pddl", "another-key", reading) == made and read == [1, 1]
    assert kept_terminals("hddl", "another-key", reading) == made and read == [1, 1, 1]
    assert kept_terminals("pddl", "another-key", reading) == made and read == [1, 1, 1]  # a file each


def _variant(**changes: Any) -> Terminals:
    return replace(real_terminals(), **changes)


WS, COMMENT = r"[ \t\f\r\n]+", r";[^\n]*"
UNREADABLE = {
    "name-digits-first": dict(name=r"[a-z0-9][a-z0-9_\-]*"),
    "name-at-most-four-characters": dict(name=r"[a-z][a-z0-9_\-]?[a-z0-9_\-]?[a-z0-9_\-]?"),
    "name-single-hyphens-between-letters": dict(name=r"[a-z]+(?:-[a-z]+)*"),
    "name-with-question-mark": dict(name=r"[a-z][a-z0-9_\-?]*"),
    "name-with-parenthesis": dict(name=r"[a-z][a-z0-9_\-(]*"),
    "comment-two-characters": dict(ignored=(WS, r"//[^\n]*")),
    "comment-block": dict(ignored=(WS, r"#\|[^|]*\|#")),
    "comment-to-semicolon": dict(ignored=(WS, r";[^;]*;")),
    "comment-takes-its-newline": dict(ignored=(WS, r";[^\n]*\n")),
    "comment-dotall": dict(ignored=(WS, r"(?s:;.*)")),
    "no-comment": dict(ignored=(WS,)),
    "white-space-crlf-pairs": dict(ignored=(r"(?:\r\n|[ \t\n])+", COMMENT)),
    "white-space-one-character": dict(ignored=(r"[ \t\f\r\n]", COMMENT)),
    "white-space-with-parenthesis": dict(ignored=(r"[ \t\f\r\n(]+", COMMENT)),
    "two-white-space-terminals": dict(ignored=(WS, r"\v+", COMMENT)),
    "variable-double-prefix": dict(variable=r"\?\?[a-z][a-z0-9_\-]*"),
    "variable-without-prefix": dict(variable=r"[a-z][a-z0-9_\-]*"),
}


@pytest.mark.parametrize("changes", list(UNREADABLE.values()), ids=list(UNREADABLE))
def test_character_classes_refuse_shapes_the_compiled_scanner_cannot_read(changes: dict[str, Any]) -> None:
    """Terminals the compiled scanner's classes cannot describe: `character_classes` must say None (and
    leave the Python scanners to run) rather than hand the scanner classes that read other words."""
    classes = character_classes(_variant(**changes))
    assert classes is None, (
        f"{changes}: accepted, as names {_classes_text(classes.table, 1)}{_classes_text(classes.table, 2)}*")


def _classes_text(table: bytes, bit: int) -> str:
    members = "".join(chr(i) for i in range(128) if table[i] & bit)
    return "[" + members.replace("-", "\\-") + "]"


READABLE = {
    "comment-to-carriage-return": dict(ignored=(WS, r";[^\r]*")),
    "name-underscore-first": dict(name=r"[a-z_][a-z0-9_]*"),
    "variable-digits-first": dict(variable=r"\?[a-z0-9][a-z0-9_\-]*"),
    "number-with-sign": dict(number=r"-?\d+(\.\d+)?"),
}
PROBES = ["(p a) (q ?x b)", "(= (f a) 3) (p _b)", "(p a ;c\r b) (q b)", "(p ?1x) (= (f a) -2) (q -2)",
          "(_p a_1) (p a-b)", "(p a;c\n b)\r(q c)", "(= (f a) 1.5) (not (p ?x))", "(p 1a)", "(= (f a) -2.5)"]


@needs_speedups
@pytest.mark.parametrize("changes", list(READABLE.values()), ids=list(READABLE))
def test_other_shapes_character_classes_accept_scan_like_python(changes: dict[str, Any]) -> None:
    terminals = _variant(**changes)
    assert character_classes(terminals) is not None
    compiled, python = build_scanners(terminals, compiled=True), build_scanners(terminals, compiled=False)
    speedups = frozen.speedups
    assert speedups is not None and isinstance(compiled[0], speedups.FlatScanner)
    for text in PROBES:
        source = Source(text)
        for index in (0, 1):
            got, want = compiled[index](text, 0, source), python[index](text, 0, source)
            assert fingerprint(got, source) == fingerprint(want, source), (text, index)


# -------------------------------------------------------------------------------------------------
# Driver

def described_error(exc: Exception, source: Source) -> tuple[Any, ...]:
    """Everything an error of the loop carries."""
    if isinstance(exc, UnexpectedInput):
        return ("unexpected token", exc.token.type, fingerprint(exc.token.value, source), exc.token.start_pos,
                exc.token.end_pos, sorted(exc.expected))
    if isinstance(exc, UnexpectedCharacter):
        return ("unexpected character", exc.pos, exc.char)
    if isinstance(exc, NestingTooDeep):
        return ("nesting", exc.pos)
    if isinstance(exc, _BuildError):
        return ("build", str(exc), exc.start, exc.end)
    raise exc


LOOP_ERRORS = (UnexpectedInput, UnexpectedCharacter, NestingTooDeep, _BuildError)


def raw_outcome(fast: bool, compiled: bool, source: Source) -> tuple[Any, ...]:
    """What the parser object raises or returns, before `parse` turns errors into diagnostics."""
    try:
        result, warnings = _parser(fast, compiled).parse(source)
    except LOOP_ERRORS as exc:
        return described_error(exc, source)
    return ("tree", fingerprint(result, source), [w.to_json() for w in warnings])


HEAD = "(define (problem p) (:domain d) "
DOMAIN = ("(define (domain d) (:requirements :strips) (:predicates (p ?x) (q ?x ?y))\n"
          "  (:action a :parameters (?x ?y) :precondition (and (p ?x) (not (q ?x ?y)))\n"
          "   :effect (and (q ?x ?y) (not (p ?x)) (increase (total-cost) 1)))\n"
          "  (:action b :parameters (?x - t) :precondition (or (p ?x) (q ?x ?x)) :effect (p ?x)))\n")
PROBLEM = (HEAD + "(:objects a b - t c) (:init (p a) (q a b) (= (f a) 3) (not (p c)) (= (g) b) (at 5 (p b)))\n"
           "  (:goal (and (p a) (not (q a b)) (> (f a) 2))) (:metric minimize (total-cost)))\n")
ERRORS = {
    "unexpected-token": HEAD + "(:init (p a)) (:goal (and (p a) ?x)))",
    "unexpected-token-after-a-run": HEAD + "(:init (p a) (q b) (r c) 3))",
    "variable-in-init": HEAD + "(:init (p a) (p ?x)))",
    "keyword-as-predicate": HEAD + "(:init (p a) (and b)))",
    "brace": HEAD + "(:init (p a) {q b}))",
    "nul-byte": HEAD + "(:init (p a)\x00 (q b)))",
    "binary-garbage": HEAD + "(:init " + random.Random(7).randbytes(4000).decode("latin-1"),
    "all-bytes": bytes(range(256)).decode("latin-1"),
    "nested-and": HEAD + "(:goal " + "(and " * 100_000,
    "nested-not": HEAD + "(:goal " + "(not " * 100_000,
    "nested-in-action": "(define (domain d) (:action a :precondition " + "(or " * 100_000,
    "bare-parentheses": "(" * 100_000,
    "nested-in-init": HEAD + "(:init " + "(" * 100_000,
    "empty": "",
    "only-comments": "; nothing here\n;; é\n",
    "only-space": " \t\r\n\f",
    "unclosed": DOMAIN[:-3],
    "unclosed-init": HEAD + "(:init (p a) (q b)",
    "extra-closing": DOMAIN + ")))",
    "extra-closing-in-init": HEAD + "(:init (p a))) (q b)) (:goal (p a)))",
    "build-error": "(define (domain d) (:action a :effect (assign (f) (/ 1 2 3))))",
    "end-of-file-in-element": HEAD + "(:init (p a) (= (f a)",
}


@needs_speedups
@pytest.mark.parametrize("text", list(ERRORS.values()), ids=list(ERRORS))
def test_driver_errors_are_the_python_loops(text: str) -> None:
    """Each error raised by the compiled loop is the Python loop's (type, token, offsets, expected
    terminals), with and without the fast path, and `parse` explains it the same way every path."""
    source = Source(text, "bad.pddl")
    for fast in (True, False):
        assert raw_outcome(fast, True, source) == raw_outcome(fast, False, source), f"fast={fast}"
    result = assert_paths_agree(text, "bad.pddl")
    assert result[0] == "error"


@needs_speedups
def test_deep_nesting_is_a_clean_parse_error() -> None:
    source = Source(ERRORS["nested-and"], "deep.pddl")
    for fast in (True, False):
        for compiled in (True, False):
            raw = raw_outcome(fast, compiled, source)
            assert raw[0] == "nesting", (fast, compiled, raw[:2])
    with pytest.raises(ParseError) as caught:
        parse(source)
    first = caught.value.diagnostics[0]
    assert first.code == "E105" and first.span is not None and first.span.line == 1


@needs_speedups
def test_the_loop_state_after_every_prefix_is_the_python_loops() -> None:
    """The stack and values (with spans) the compiled loop leaves after each prefix of a domain and a
    problem, or the error it stops at, are those of the Python loop, with and without the fast path."""
    for text in (DOMAIN, PROBLEM):
        for fast in (True, False):
            compiled, python = _parser(fast, True), _parser(fast, False)
            for end in range(len(text) + 1):
                source = Source(text[:end])
                states = []
                for parser in (compiled, python):
                    with parser.lock:
                        parser.builder.source = source
                        parser.builder.warnings = []
                        try:
                            stack, values = parser.driver._run(source, "start")
                        except LOOP_ERRORS as exc:
                            states.append(described_error(exc, source))
                        else:
                            states.append(("ok", stack, fingerprint(values, source)))
                assert states[0] == states[1], f"fast={fast}, prefix {text[:end]!r}"


@needs_speedups
def test_expected_at_works_compiled() -> None:
    """`FastParser.expected_at` replays the text before an error with the compiled loop: at every offset
    of a problem it gives the Python loop's answer, and a useful one where an error is."""
    compiled, python = _parser(True, True).driver, _parser(True, False).driver
    assert compiled.compiled is not None and python.compiled is None
    source = Source(PROBLEM)
    for offset in range(0, len(PROBLEM) + 1, 3):
        assert compiled.expected_at(source, "start", offset) == python.expected_at(source, "start", offset), offset
    bad = Source(ERRORS["unexpected-token"])
    where = bad.text.index("?x")
    expected = compiled.expected_at(bad, "start", where)
    assert expected == python.expected_at(bad, "start", where)
    assert {"LPAR", "RPAR"} <= expected and "VARIABLE" not in expected


@needs_speedups
def test_fast_parser_compiled_flag() -> None:
    lark = _parser(True).lark
    assert FastParser(lark, lowercase=True, trigger="LPAR", compiled=True).compiled is not None
    assert FastParser(lark, lowercase=True, trigger="LPAR", compiled=False).compiled is None


def test_character_classes_are_kept_in_the_cache_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The probes run once: later parser builds read the classes back from the cache folder, keyed by
    the terminals (other terminals, or a damaged file, are computed afresh)."""
    from pddltools.pddl import fastpath

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    terminals = _terminals(_parser(True).lark)
    computed = fastpath.cached_character_classes(terminals)
    assert computed is not None and computed == character_classes(terminals)
    (saved,) = (tmp_path / "pddltools").glob("pddl-character-classes-*")
    calls: list[Terminals] = []
    monkeypatch.setattr(fastpath, "character_classes", lambda t: calls.append(t))
    read = fastpath.cached_character_classes(terminals)
    assert read is not None and calls == []
    assert (read.table, read.comment_start, read.comment_end, read.variable_prefix, read.number.pattern) == (
        computed.table, computed.comment_start, computed.comment_end, computed.variable_prefix,
        computed.number.pattern)
    other = replace(terminals, name=r"[a-z][a-z0-9]*")
    assert fastpath.cached_character_classes(other) is None and calls == [other]
    saved.write_text("{not json", encoding="utf-8")
    assert fastpath.cached_character_classes(terminals) is None and calls == [other, terminals]

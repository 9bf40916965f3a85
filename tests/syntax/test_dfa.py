"""The compiled driver lexes with an automaton derived from the grammar's terminals (`syntax/dfa.py`).
It must split every text exactly as the regular expression the Python loop uses: the earliest
alternative that matches, with its longest match. Checked on every string of up to three characters
over one character of each class (and on random longer ones) for each shipped grammar; the corpus
tests compare whole compiled and Python parses. Where a terminal is beyond an automaton the compiled
driver falls back on the regular expression, and parses the same."""

from __future__ import annotations

import random
import re
from itertools import product

import pytest

from pddltools.diagnostics import Source
from pddltools.hddl import parser as hddl_parser
from pddltools.pddl.parser import _Parser, grammar_text
from pddltools.rddl import parser as rddl_parser
from pddltools.syntax import dfa
from pddltools.syntax.frozen import speedups
from pddltools.syntax.lalr import FastParser


def drivers() -> dict[str, FastParser]:
    rddl = rddl_parser._parser().driver
    assert rddl is not None
    return {"pddl": _Parser(True).driver, "hddl": hddl_parser._parser(True).driver, "rddl": rddl[0]}


@pytest.fixture(scope="module", params=["pddl", "hddl", "rddl"])
def driver(request: pytest.FixtureRequest) -> FastParser:
    return drivers()[request.param]


def first_match(pattern: re.Pattern[str], text: str) -> tuple[int, int] | None:
    m = pattern.match(text)
    return None if m is None or m.lastindex is None else (m.lastindex - 1, m.end())


def test_every_shipped_grammar_gets_an_automaton(driver: FastParser) -> None:
    assert dfa.build(driver.token_pattern.alternatives, driver.pattern.flags) is not None


def test_the_automaton_splits_text_as_the_regular_expression(driver: FastParser) -> None:
    flags = driver.pattern.flags
    alternatives = driver.token_pattern.alternatives
    automaton = dfa.build(alternatives, flags)
    assert automaton is not None
    joined = re.compile("|".join(f"({_noncapturing(p)})" for _, p in alternatives), flags)
    # one character of each class, the class of all non-ASCII characters included
    alphabet = [chr(automaton.classes.index(c)) for c in range(automaton.nclasses)] + ["é", "\u2028"]
    probes = ["".join(chars) for n in (1, 2, 3) for chars in product(alphabet, repeat=n)]
    rng = random.Random(16)
    probes += ["".join(rng.choices(alphabet, k=rng.randint(4, 16))) for _ in range(3000)]
    differing = [p for p in probes if automaton.match(p, 0) != first_match(joined, p)]
    assert differing == []
    assert sum(first_match(joined, p) is not None for p in probes) > len(probes) // 4  # the probes do match tokens


def _noncapturing(pattern: str) -> str:
    return re.sub(r"(?<!\\)\((?!\?)", "(?:", pattern)


@pytest.mark.parametrize(("pattern", "flags"), [
    ("a(?=b)", 0),       # a look-ahead
    (r"\bword", 0),      # an anchor
    ("a+?", 0),          # a lazy repeat
    ("(?>ab)", 0),       # an atomic group
    ("é+", 0),           # a non-ASCII character
    (r"\w+", 0),         # a Unicode category
    ("x*", 0),           # the empty string
    ("x{1,40}", 0),      # a counted repeat made of forty copies
    ("[a-z]+", re.IGNORECASE),  # case folding beyond ASCII
])
def test_patterns_beyond_an_automaton_are_left_to_the_regular_expression(pattern: str, flags: int) -> None:
    assert dfa.build([("T", pattern)], flags) is None


def test_case_folding_and_ascii_categories() -> None:
    automaton = dfa.build([("NAME", r"[a-z]\w*"), ("NUMBER", r"\d+"), (None, r"\s+")], re.IGNORECASE | re.ASCII)
    assert automaton is not None
    assert automaton.match("Ab_9 ", 0) == (0, 4)
    assert automaton.match("42x", 0) == (1, 2)
    assert automaton.match(" \t\nx", 0) == (2, 3)
    assert automaton.match("éa", 0) is None


# NAME with a look-ahead (no name may run into a variable): beyond an automaton, so the compiled driver
# calls the regular expression, and must parse as the Python loop does.
LOOKAHEAD_VARIANT = grammar_text().replace(r"NAME: /[a-z][a-z0-9_\-]*/", r"NAME: /[a-z][a-z0-9_\-]*(?![?])/")

DOMAIN = """(define (domain d) (:requirements :strips :negative-preconditions) ; a comment
  (:predicates (p ?x) (q ?x ?y))
  (:action a :parameters (?x ?y) :precondition (and (p ?x) (not (q ?x ?y))) :effect (q ?x ?y)))"""


@pytest.mark.skipif(speedups is None, reason="pddltools.syntax._speedups is not built")
def test_the_compiled_driver_falls_back_on_the_regular_expression() -> None:
    assert grammar_text() != LOOKAHEAD_VARIANT
    variant = _Parser(True, True, grammar=LOOKAHEAD_VARIANT)
    assert dfa.build(variant.driver.token_pattern.alternatives, variant.driver.pattern.flags) is None
    compiled, _ = variant.parse(Source(DOMAIN, "d.pddl"))
    python, _ = _Parser(True, False, grammar=LOOKAHEAD_VARIANT).parse(Source(DOMAIN, "d.pddl"))
    shipped, _ = _Parser(True, True).parse(Source(DOMAIN, "d.pddl"))
    assert compiled == python == shipped

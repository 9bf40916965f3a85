"""Over the IPC corpus: our conversion equals tarski's own PDDL reader, and the round trip keeps the AST.

Over the sequential pairs of the subset (corpus.py says which; every pair with PDDLTOOLS_INTEROP_FULL=1):
- where tarski's reader accepts the pair, `to_tarski` gives the same problem, compared in a normal form
  (tarski_normal.py);
- `from_tarski(to_tarski(x))` equals `x` in the round-trip normal form (ast_normal.py) and prints as
  PDDL that parses back to itself; a pair `to_tarski` refuses is refused with located E701 diagnostics.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pddltools.interop import InteropError
from pddltools.interop.tarski import from_tarski, to_tarski
from pddltools.pddl.parser import parse_text

from .ast_normal import normal_form as ast_normal_form
from .corpus import key, pairs, parsed, sequential

tarski_io = pytest.importorskip("tarski.io")
from .tarski_normal import normal_form  # noqa: E402  (needs tarski)

pytestmark = pytest.mark.corpus

PAIRS = [(d, p) for d, p in pairs() if sequential(d)]
IDS = [key(p) for _, p in PAIRS]


def reference(domain: Path, problem: Path) -> Any:
    reader = tarski_io.PDDLReader(raise_on_error=True)
    try:
        reader.parse_domain(str(domain))
        return reader.parse_instance(str(problem))
    except Exception as exc:  # whatever tarski's reader raises, it does not accept the pair
        pytest.skip(f"tarski's reader does not accept it: {type(exc).__name__}: {str(exc)[:120]}")


@pytest.mark.parametrize(("domain", "problem"), PAIRS, ids=IDS)
def test_equals_tarski_reader(domain: Path, problem: Path) -> None:
    expected = reference(domain, problem)
    ours = parsed(domain, problem)
    assert ours is not None, "a pair tarski reads must parse"
    assert normal_form(to_tarski(*ours)) == normal_form(expected)


@pytest.mark.parametrize(("domain", "problem"), PAIRS, ids=IDS)
def test_round_trip_or_located_refusal(domain: Path, problem: Path) -> None:
    ours = parsed(domain, problem)
    if ours is None:
        pytest.skip("not PDDL (see tests/pddl/test_corpus.py)")
    try:
        task = to_tarski(*ours)
    except InteropError as exc:
        assert all(d.code == "E701" and d.span is not None and "cannot be expressed in tarski" in d.message
                   for d in exc.diagnostics), exc
        return
    back_domain, back_problem = from_tarski(task)
    assert ast_normal_form(back_domain, back_problem, implications=False) == \
        ast_normal_form(*ours, implications=False)
    assert parse_text(str(back_domain), kind="domain") == back_domain
    assert parse_text(str(back_problem), kind="problem") == back_problem

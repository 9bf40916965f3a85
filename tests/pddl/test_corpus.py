"""The whole IPC corpus (IPC-1998 to IPC-2011, every track): it parses, prints back, and every way of
parsing it agrees.

- every file parses, except the files listed in NOT_PDDL, each with the error it gets;
- every domain/problem pair parses as a domain and a problem;
- round trip: parse(print(parse(x))) == parse(x), and printing keeps the order of declarations;
- the lexer's fast path builds the same tree as the grammar alone (`parser_variant(fast=False)`);
- pddltools' LALR driver builds the same tree as Lark's own parse loop (`parser_variant(via_lark=True)`).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from pddltools.pddl import ast
from pddltools.pddl.parser import parse, parse_text
from pddltools.reading import read_source
from pddltools.syntax.errors import ParseError
from pddltools.syntax.testing import parser_variant

from .corpus_files import SHARED_PDDL, domain_folders, pairs, pddl_files

pytestmark = pytest.mark.corpus

FOLDERS = domain_folders()
if not FOLDERS:
    pytest.skip(f"the shared IPC corpus is not at {SHARED_PDDL}", allow_module_level=True)

#: IPC files that are not PDDL as the language defines it, with the first diagnostic they get. (The one
#: there was, IPC-1998 mystery's `(in-package "PDDL")` before the domain, is now skipped with warning
#: W104: tests/check/test_ipc_corpus.py.)
NOT_PDDL: dict[str, tuple[str, int, int, str]] = {}


def _key(path: Path) -> str:
    return path.relative_to(SHARED_PDDL).as_posix()


@cache
def parsed(path: Path) -> ast.Domain | ast.Problem | ParseError:
    try:
        return parse(read_source(path))
    except ParseError as exc:
        return exc


def ids(folders: list[Path]) -> list[str]:
    return [_key(f) for f in folders]


@pytest.mark.parametrize("folder", FOLDERS, ids=ids(FOLDERS))
def test_every_file_parses_or_is_listed(folder: Path) -> None:
    for path in pddl_files(folder):
        result = parsed(path)
        key = _key(path)
        if key in NOT_PDDL:
            assert isinstance(result, ParseError), f"{key} is listed as not PDDL but parses"
            first = result.diagnostics[0]
            assert first.span is not None
            assert (first.code, first.span.line, first.span.column, first.message) == NOT_PDDL[key]
        else:
            assert not isinstance(result, ParseError), str(result)


@pytest.mark.parametrize("folder", FOLDERS, ids=ids(FOLDERS))
def test_pairs_are_a_domain_and_a_problem(folder: Path) -> None:
    found = pairs(folder)
    assert found, f"{folder} has no instances"
    for domain, problem in found:
        d, p = parsed(domain), parsed(problem)
        if _key(domain) not in NOT_PDDL:
            assert isinstance(d, ast.Domain), f"{domain}: {d}"
        assert isinstance(p, ast.Problem), f"{problem}: {p}"


@pytest.mark.parametrize("folder", FOLDERS, ids=ids(FOLDERS))
def test_round_trip(folder: Path) -> None:
    for path in pddl_files(folder):
        tree = parsed(path)
        if isinstance(tree, ParseError):
            continue
        printed = str(tree)
        again = parse_text(printed, f"{path} (printed)")
        assert again == tree, f"{path}: the printed file parses to a different tree"
        assert str(again) == printed, f"{path}: printing is not stable"
        if isinstance(tree, ast.Domain):
            assert [s.name for s in again.structures] == [s.name for s in tree.structures]
            assert [p.name for p in again.predicates] == [p.name for p in tree.predicates]
        else:
            assert again.init == tree.init and [o.name for o in again.objects] == [o.name for o in tree.objects]


@pytest.mark.parametrize("folder", FOLDERS, ids=ids(FOLDERS))
def test_fast_path_agrees_with_the_grammar(folder: Path) -> None:
    for path in pddl_files(folder):
        tree = parsed(path)
        if isinstance(tree, ParseError):
            continue
        with parser_variant(fast=False):
            alone = parse(read_source(path))
        assert alone == tree, f"{path}: fast path and grammar disagree"


@pytest.mark.parametrize("folder", FOLDERS, ids=ids(FOLDERS))
def test_driver_agrees_with_larks_own_loop(folder: Path) -> None:
    for path in pddl_files(folder):
        tree = parsed(path)
        if isinstance(tree, ParseError):
            continue
        with parser_variant(via_lark=True):
            by_lark = parse(read_source(path))
        assert by_lark == tree, f"{path}: driver and Lark disagree"


def test_spans_point_at_the_text() -> None:
    """Spans of fast-path and grammar-path nodes cover exactly the text they were parsed from."""
    path = SHARED_PDDL / "ipc-2008" / "transport-sequential-satisficing-strips" / "instances" / "instance-1.pddl"
    source = read_source(path)
    for fast in (True, False):
        with parser_variant(fast=fast):
            problem = parse(source, "problem")
        for element in problem.init:
            assert element.span is not None
            assert element.span.text.lower().replace("\t", " ").split() == str(element).split()
            if isinstance(element, ast.Atom):
                for arg in element.args:
                    assert arg.span is not None and arg.span.text.lower() == arg.name

"""The language registry: PDDL, and the languages declared on it as extensions (HDDL, FOND, PPDDL,
contingent PDDL, MA-PDDL).

Every command and the language server ask here which language a file is in and for that language's
parser, checker, track verdicts, summary, printer and language-server vocabulary; nothing outside the
registry and an extension's own package tells languages apart (tests/test_registry.py). The table
`DIALECTS` declares each language: its name, its file suffixes, the requirement flags that declare it, the
constructs only it has (which name it when a file uses one without declaring it) and the module that
implements it (`Implementation`), imported only when a file in that language is met. The core, PDDL,
declares no requirement; an extension's implementation module is one place in its own package that
gathers its grammar (`grammars/<name>.lark`, importing pddl.lark), AST nodes, checks, codes, tracks,
printer rules and language-server vocabulary.

Extensions are named by module, as commands are in `pddltools.cli.COMMAND_TABLE`: the registry
imports no extension, so an extension's checker builds on PDDL's (`pddltools.check`) while `check`
reads its files through the registry, with no import cycle.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pddltools.diagnostics import Diagnostic, Source

if TYPE_CHECKING:
    from pddltools.check.report import CheckReport

Kind = Literal["domain", "problem"]


@dataclass(frozen=True)
class Dialect:
    """A language of the registry, as declared (nothing imported)."""

    name: str  # "hddl": what the JSON envelope and the language server call it
    title: str  # "HDDL": what messages call it
    suffixes: tuple[str, ...]  # the file suffixes that choose it (".hddl"); PDDL's dialects share ".pddl"
    requirements: frozenset[str]  # the :requirements flags that declare it
    implementation: str  # the module whose IMPLEMENTATION implements it
    constructs: tuple[str, ...] = ()  # words only it has (`oneof`): a file using one is in this dialect
    hierarchical: bool = False  # its plans are HTN plans (decompositions), not action sequences
    server: str | None = None  # the module of its language-server vocabulary, when not PDDL's


@dataclass(frozen=True)
class Implementation:
    """What a language gives the commands.

    `parse(source, kind, warnings)` a whole file (raising `pddltools.syntax.errors.ParseError`);
    `owns(node)` whether a parsed node is this language's; `check(domain, problems, strict, tracks)` the
    report of a domain and its problems (those of its own kind among `problems`); `summary(node)` the
    `parse` command's kind, name and counts; `track_ids` the ids of its track verdicts; `format(node,
    source, before)` the node parsed from `source` in the standard layout with the author's comments kept
    (and the W120 warnings of comments that moved; `before`: text the parser skipped before the node), None
    for PDDL's printer; `language` its `pddltools.syntax.Language` (the formatter reads its comments), None
    for PDDL's."""

    parse: Callable[[Source, Kind | None, list[Diagnostic] | None], Any]
    owns: Callable[[object], bool]
    check: Callable[[Any, Sequence[Any], bool, Iterable[str] | None], CheckReport]
    summary: Callable[[Any], dict[str, Any]]
    track_ids: tuple[str, ...]
    format: Callable[[Any, Source, Sequence[tuple[int, int]]], tuple[str, list[Diagnostic]]] | None = None
    language: Any = None


CORE = Dialect("pddl", "PDDL", (".pddl",), frozenset(), "pddltools.dialects.pddl")

#: Every language on PDDL's, the core first.
DIALECTS: tuple[Dialect, ...] = (
    CORE,
    Dialect("hddl", "HDDL", (".hddl",), frozenset({":hierarchy"}), "pddltools.hddl.dialect", hierarchical=True,
            server="pddltools.lsp.hddl_index"),
)


@cache
def implementation(dialect: Dialect) -> Implementation:
    found = importlib.import_module(dialect.implementation).IMPLEMENTATION
    assert isinstance(found, Implementation), dialect.implementation
    return found


def by_name(name: str) -> Dialect | None:
    return next((d for d in DIALECTS if d.name == name), None)


def suffixes() -> tuple[str, ...]:
    """The suffixes of the files the commands take (`.pddl`, `.hddl`), in the table's order."""
    return tuple(dict.fromkeys(s for d in DIALECTS for s in d.suffixes))


def of_path(path: str | Path) -> Dialect:
    """The language a file's suffix chooses (PDDL for any other)."""
    suffix = Path(path).suffix.lower()
    return next((d for d in DIALECTS if d is not CORE and suffix in d.suffixes and suffix not in CORE.suffixes),
                CORE)


def of_node(node: object) -> Dialect:
    """The language a parsed node is in."""
    return next((d for d in DIALECTS[1:] if implementation(d).owns(node)), CORE)


def parse(source: Source, kind: Kind | None = None, warnings: list[Diagnostic] | None = None) -> Any:
    """A whole file in the language its name chooses; raises the parser's `ParseError`."""
    return implementation(of_path(source.name)).parse(source, kind, warnings)


def parse_as(source: Source, name: str | None, kind: Kind | None = None,
             warnings: list[Diagnostic] | None = None) -> Any:
    """A whole file in the language named `name` (an editor's language id), or (None, or a name the
    registry does not know) the one its file name chooses."""
    dialect = by_name(name) if name is not None else None
    return implementation(dialect or of_path(source.name)).parse(source, kind, warnings)


def format_node(node: object, source: Source, before: Sequence[tuple[int, int]] = ()
                ) -> tuple[str, list[Diagnostic]]:
    """`node`, parsed from `source`, in its language's standard layout with every comment kept."""
    own = implementation(of_node(node)).format
    layout = own if own is not None else implementation(CORE).format
    assert layout is not None
    return layout(node, source, before)


def comment_count(source: Source, name: str | None = None) -> int:
    """How many comments `source` holds, read by the lexer of language `name` (or of its file name)."""
    dialect = (by_name(name) if name is not None else None) or of_path(source.name)
    language = implementation(dialect).language or implementation(CORE).language
    return len(language.trivia(source).comments)


def check(domain: object, problems: Sequence[object] = (), *, strict: bool = False,
          tracks: Iterable[str] | None = None) -> CheckReport:
    """The report of a parsed domain and the problems of its language among `problems`."""
    return implementation(of_node(domain)).check(domain, problems, strict, tracks)


def summary(node: object) -> dict[str, Any]:
    """`parse`'s entry for a parsed file: kind, name, the counts of what it declares."""
    return implementation(of_node(node)).summary(node)


def track_ids() -> tuple[str, ...]:
    """Every track verdict's id, the core's first."""
    return tuple(tid for d in DIALECTS for tid in implementation(d).track_ids)


def language_server(name: str) -> Any:
    """The language-server vocabulary module of language `name`, or None: PDDL's own (or not a
    language of the registry)."""
    dialect = by_name(name)
    if dialect is None or dialect.server is None:
        return None
    return importlib.import_module(dialect.server)


def language_of(uri: str, chosen: str = "") -> str | None:
    """The registry's language of a document the editor names `uri` and calls `chosen` ("pddl", "" when
    it says nothing): its suffix's language when the editor calls it PDDL or nothing (editors call HDDL
    files pddl), else the registry's language named `chosen`; None when neither is the registry's."""
    suffix = Path(uri).suffix.lower()
    by_suffix = next((d for d in DIALECTS if suffix in d.suffixes), None)
    if by_suffix is not None and chosen in ("", CORE.name, by_suffix.name):
        return by_suffix.name
    named = by_name(chosen)
    return named.name if named is not None else None

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
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from pddltools.diagnostics import Diagnostic, Source

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any, Literal

    from pddltools.check.report import CheckReport

    Kind = Literal["domain", "problem"]


@dataclass(frozen=True)
class Dialect:
    """A language of the registry, as declared (nothing imported)."""

    name: str  # "hddl": what the JSON envelope and the language server call it
    title: str  # "HDDL": what messages call it
    suffixes: tuple[str, ...]  # the file suffixes that choose it (".hddl"); PDDL's dialects share ".pddl"
    requirements: tuple[str, ...]  # the :requirements flags that declare it, the one to suggest first
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
    (and the W121 warnings of comments that moved; `before`: text the parser skipped before the node), None
    for PDDL's printer; `language` its `pddltools.syntax.Language` (the formatter reads its comments), None
    for PDDL's."""

    parse: Callable[[Source, Kind | None, list[Diagnostic] | None], Any]
    owns: Callable[[object], bool]
    check: Callable[[Any, Sequence[Any], bool, Iterable[str] | None], CheckReport]
    summary: Callable[[Any], dict[str, Any]]
    track_ids: tuple[str, ...]
    #: W120 when a parsed file uses the language's constructs without declaring it, else None
    undeclared: Callable[[Any], Diagnostic | None] = lambda node: None
    #: whether a file this language's parser read declares it or uses one of its constructs (a PDDL file
    #: whose comment says "oneof" is read by FOND's parser too, and is PDDL's)
    used: Callable[[Any], bool] = lambda node: True
    #: the PDDL domains and problems a parsed file holds (a PPDDL problem: its PDDL problem)
    parts: Callable[[Any], tuple[Any, ...]] = lambda node: (node,)
    format: Callable[[Any, Source, Sequence[tuple[int, int]]], tuple[str, list[Diagnostic]]] | None = None
    language: Any = None


CORE = Dialect("pddl", "PDDL", (".pddl",), (), "pddltools.dialects.pddl")

#: Every language on PDDL's, the core first.
DIALECTS: tuple[Dialect, ...] = (
    CORE,
    Dialect("hddl", "HDDL", (".hddl",), (":hierarchy",), "pddltools.hddl.dialect", hierarchical=True,
            server="pddltools.lsp.hddl_index"),
    Dialect("fond", "FOND PDDL", (".pddl",), (":non-deterministic",), "pddltools.fond.dialect",
            constructs=("oneof",), server="pddltools.lsp.dialect_index"),
    Dialect("ppddl", "PPDDL", (".pddl",), (":probabilistic-effects", ":rewards", ":mdp"),
            "pddltools.ppddl.dialect", constructs=("probabilistic", ":goal-reward"),
            server="pddltools.lsp.dialect_index"),
    Dialect("contingent", "contingent PDDL", (".pddl",), (), "pddltools.contingent.dialect",
            constructs=(":observe", ":sensing-model", ":hidden", "unknown", "invariant", "oneof"),
            server="pddltools.lsp.dialect_index"),
    Dialect("mapddl", "MA-PDDL", (".pddl",), (":multi-agent", ":unfactored-privacy", ":factored-privacy"),
            "pddltools.mapddl.dialect", constructs=(":agent", ":private"), server="pddltools.lsp.dialect_index"),
)


@cache
def implementation(dialect: Dialect) -> Implementation:
    found = importlib.import_module(dialect.implementation).IMPLEMENTATION
    assert isinstance(found, Implementation), dialect.implementation
    return found


def by_name(name: str) -> Dialect | None:
    return next((d for d in DIALECTS if d.name == name), None)


def dialect(name: str) -> Dialect:
    """The declaration of language `name` (an extension's module reads its own here)."""
    found = by_name(name)
    if found is None:
        raise KeyError(f"no language {name} in pddltools.dialects.DIALECTS")
    return found


def suffixes() -> tuple[str, ...]:
    """The suffixes of the files the commands take (`.pddl`, `.hddl`), in the table's order."""
    return tuple(dict.fromkeys(s for d in DIALECTS for s in d.suffixes))


def _suffix(path: str | os.PathLike[str]) -> str:
    """`Path(path).suffix` without importing pathlib (a command's start-up): the last dot's part of the
    last name, none for a name that starts or ends with its only dot."""
    name = os.path.basename(os.fspath(path).rstrip("/"))
    dot = name.rfind(".")
    return name[dot:] if 0 < dot < len(name) - 1 else ""


def of_path(path: str | Path) -> Dialect:
    """The language a file's suffix chooses (PDDL for any other)."""
    suffix = _suffix(path).lower()
    return next((d for d in DIALECTS if d is not CORE and suffix in d.suffixes and suffix not in CORE.suffixes),
                CORE)


def of_node(node: object) -> Dialect:
    """The language a parsed node is in."""
    return next((d for d in DIALECTS[1:] if implementation(d).owns(node)), CORE)


def parse(source: Source, kind: Kind | None = None, warnings: list[Diagnostic] | None = None) -> Any:
    """A whole file in the language its name chooses; raises the parser's `ParseError`.

    A .pddl file that is not PDDL is tried in each dialect sharing the suffix (FOND, PPDDL, ...): the
    first that reads it is its language, and when the file does not declare that dialect, one W120
    says which flag to add (rather than PDDL's syntax errors at each of the dialect's constructs). A
    file PDDL reads that declares a dialect's flag is that dialect's (its flags are no unknown W101)."""
    from pddltools.syntax.errors import ParseError

    dialect = of_path(source.name)
    found: list[Diagnostic] = []
    lowered = source.text.lower() if dialect is CORE else ""
    named = [d for d in _shared() if _names_constructs(d, lowered)]  # the dialects the text names
    del lowered  # a copy of the whole text: not kept while the file is parsed (a twentieth of the peak)
    if dialect is CORE:
        node = _in_the_dialect_it_names(source, kind, found, named)
        if node is not None:
            if warnings is not None:
                warnings.extend(found)
            return node
    try:
        node = implementation(dialect).parse(source, kind, found)
    except ParseError as exc:
        if dialect is not CORE:
            raise
        node = _in_a_dialect(source, kind, found, exc)
    else:
        if dialect is CORE:
            again = _declared_or_used(source, kind, node, named)
            if again is not None:
                node, found = again
    if warnings is not None:
        warnings.extend(found)
    return node


def _in_the_dialect_it_names(source: Source, kind: Kind | None, warnings: list[Diagnostic],
                             named: list[Dialect]) -> Any:
    """The file parsed by the first dialect whose constructs its text names, when that dialect reads it;
    else None (and PDDL reads it). Trying such a dialect first spares PDDL's explanation of a file that is
    not PDDL (a contingent problem's 188,000 `(:hidden ...)` sections would each be an error)."""
    from pddltools.syntax.errors import ParseError

    for dialect in named:
        try:
            node = _read_in(dialect, source, kind, warnings, needs_use=True)
        except ParseError as exc:
            if _wrong_kind(exc):
                raise  # the dialect reads it, but it is the other kind of file
            continue
        if node is not None:
            return node
    return None


def _read_in(dialect: Dialect, source: Source, kind: Kind | None, warnings: list[Diagnostic], *,
             needs_use: bool = False) -> Any:
    """The file parsed in `dialect`, its warnings (and W120 when undeclared) added to `warnings`; raises
    the dialect's `ParseError`. `needs_use`: None when the file neither declares the dialect nor uses its
    constructs (the word that chose it was in a comment or a name: the file is PDDL's)."""
    found: list[Diagnostic] = []
    node = implementation(dialect).parse(source, kind, found)
    if needs_use and not implementation(dialect).used(node):
        return None
    undeclared = implementation(dialect).undeclared(node)
    warnings.extend(found + ([undeclared] if undeclared is not None else []))
    return node


def _wrong_kind(failure: Exception) -> bool:
    """A dialect read the file, but it is a domain where a problem was asked for, or the reverse (E110)."""
    return any(d.code == "E110" for d in getattr(failure, "diagnostics", ()))


def _shared() -> list[Dialect]:
    """The extensions whose files share PDDL's suffix (tried when a .pddl file is not PDDL)."""
    return [d for d in DIALECTS[1:] if set(d.suffixes) & set(CORE.suffixes)]


def _names_constructs(dialect: Dialect, lowered: str) -> bool:
    """Whether the (lower-cased) text writes one of the dialect's constructs as a word: `(oneof`,
    `:observe`, not `oneof-x` nor `?oneof`. Substring search first: a regular expression with look-behind
    over a problem of megabytes would cost as much as parsing it."""
    for word in dialect.constructs:
        at = lowered.find(word)
        while at >= 0:
            before = lowered[at - 1] if at else " "
            after = lowered[at + len(word):at + len(word) + 1]
            if not (before.isalnum() or before in "_:?-") and not (after.isalnum() or after in ("_", "-")):
                return True
            at = lowered.find(word, at + 1)
    return False


def _declared_or_used(source: Source, kind: Kind | None, node: Any, named: list[Dialect]
                      ) -> tuple[Any, list[Diagnostic]] | None:
    """A file PDDL reads that is a dialect's: it declares the dialect's flag, or PDDL read one of the
    dialect's constructs as a predicate (`(oneof (p) (q))` is an atom to PDDL). Then it is parsed again in
    that dialect, whose words are keywords (raising its syntax errors); None when the file is PDDL's."""
    flags = {r.name for r in getattr(node, "requirements", ())}
    shared = _shared()
    chosen = next((d for d in shared if flags & set(d.requirements)), None)
    if chosen is None and named:  # only a text that names a construct can have it as a predicate
        words = _undeclared_predicates(node)
        chosen = next((d for d in named if words & set(d.constructs)), None)
    if chosen is None:
        return None
    found: list[Diagnostic] = []
    again = implementation(chosen).parse(source, kind, found)  # its syntax errors are the file's
    undeclared = implementation(chosen).undeclared(again)
    return again, found + ([undeclared] if undeclared is not None else [])


def _undeclared_predicates(node: Any) -> set[str]:
    """The predicates a domain's actions use but does not declare."""
    from pddltools.pddl import ast

    if not isinstance(node, ast.Domain):
        return set()
    declared = {p.name for p in node.predicates}
    return {n.predicate for s in node.structures for n in s.walk()
            if isinstance(n, ast.Atom) and n.predicate not in declared}


def _in_a_dialect(source: Source, kind: Kind | None, warnings: list[Diagnostic], failure: Exception) -> Any:
    """The file parsed by the first dialect sharing PDDL's suffix that reads it (with W120 when the file
    does not declare it). When none does, raises the errors of the language that read furthest into the
    file: a FOND file with one real error gets that error, not PDDL's at each of its `oneof`s."""
    from pddltools.syntax.errors import ParseError

    furthest = failure
    for dialect in _shared():
        try:
            return _read_in(dialect, source, kind, warnings)
        except ParseError as exc:
            if _wrong_kind(exc):
                raise
            if _reach(exc) > _reach(furthest):
                furthest = exc
    raise furthest from None


def _reach(failure: Exception) -> int:
    """Where the first of a parse's syntax errors is: how far the parser read."""
    diagnostics = getattr(failure, "diagnostics", ())
    span = diagnostics[0].span if diagnostics else None
    return span.start if span is not None else -1


def parse_as(source: Source, name: str | None, kind: Kind | None = None,
             warnings: list[Diagnostic] | None = None) -> Any:
    """A whole file in the language named `name` (an editor's language id), or (None, or a name the
    registry does not know) the one its file name chooses."""
    dialect = by_name(name) if name is not None else None
    if dialect is None or dialect is CORE:  # PDDL's suffix: the file may be in a dialect sharing it
        return parse(source, kind, warnings)
    return implementation(dialect).parse(source, kind, warnings)


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


def pddl_parts(node: object) -> tuple[Any, ...]:
    """The PDDL domains and problems a parsed file holds, as its language reads them."""
    return implementation(of_node(node)).parts(node)


def track_ids() -> tuple[str, ...]:
    """Every track verdict's id, the core's first."""
    return tuple(tid for d in DIALECTS for tid in implementation(d).track_ids)


#: The last PDDL texts `_dialect_of_text` read, by identity: the server asks about the same version of a
#: document several times a keystroke, and each answer reads the whole text (a few ms for 1 MB).
_READ: list[tuple[str, Dialect]] = []


def _dialect_of_text(text: str) -> Dialect:
    global _READ  # rebound, never changed in place: the server's threads may read it meanwhile
    for seen, dialect in _READ:
        if seen is text:
            return dialect
    lowered = text.lower()
    dialect = next((d for d in _shared() if _names_constructs(d, lowered)
                    or any(flag in lowered for flag in d.requirements)), CORE)
    _READ = [*_READ[-3:], (text, dialect)]
    return dialect


def language_server(name: str, text: str | None = None) -> Any:
    """The language-server vocabulary module of language `name`, or None: PDDL's own (or not a
    language of the registry). With the document's `text`, a PDDL document that names a dialect's flag or
    constructs gets that dialect's (a FOND domain is a .pddl file)."""
    dialect = by_name(name)
    if dialect is CORE and text is not None:
        dialect = _dialect_of_text(text)
    if dialect is None or dialect.server is None:
        return None
    return importlib.import_module(dialect.server)


def language_of(uri: str, chosen: str = "") -> str | None:
    """The registry's language of a document the editor names `uri` and calls `chosen` ("pddl", "" when
    it says nothing): its suffix's language when the editor calls it PDDL or nothing (editors call HDDL
    files pddl), else the registry's language named `chosen`; None when neither is the registry's."""
    suffix = _suffix(uri).lower()
    by_suffix = next((d for d in DIALECTS if suffix in d.suffixes), None)
    if by_suffix is not None and chosen in ("", CORE.name, by_suffix.name):
        return by_suffix.name
    named = by_name(chosen)
    return named.name if named is not None else None

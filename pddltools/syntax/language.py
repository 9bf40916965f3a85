"""The one interface every language's parser offers to the tools built on it (the language server first).

A language (PDDL, RDDL, and the coming HDDL) is a grammar in `grammars/`, a builder that turns its
reductions into AST nodes, and an instance of `Language` that exposes four things and nothing of how
they are made:

- `parse`: a whole source into its AST; text that is not the language raises an `Error` whose
  diagnostics say where (file:line:column) and what was expected;
- `parse_section`: one top-level section (an action, `:init`, a block) on its own, by the grammar's
  start rule for it, with its warnings and its syntax errors as diagnostics rather than an exception,
  and `assemble` to put parsed sections together into the node a whole parse would have built
  (what an editor needs to re-parse only the section a keystroke touched);
- `expected_terminals`: the terminals the grammar accepts at an offset (completion), with `keywords`
  giving the literal text of each keyword terminal and `soft_keywords` those also accepted as names;
- syntax errors explained as located diagnostics, by `parse` and `parse_section`.

Which implementation runs (fast paths, compiled code) is chosen in `pddltools.syntax.testing`, never
here: callers see one behaviour.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pddltools.diagnostics import Diagnostic, Source, Span
from pddltools.syntax.lexing import Trivia


@dataclass(frozen=True)
class SectionParse:
    """One section parsed on its own text: `value` is what `assemble` takes (None when the section has
    syntax errors); `nodes` the AST nodes inside it (whose spans count in the section's source)."""

    value: object
    nodes: tuple[object, ...]
    warnings: tuple[Diagnostic, ...]
    errors: tuple[Diagnostic, ...]


@dataclass(frozen=True)
class Header:
    """What opens a file whose sections can be parsed one by one: `kind` names the start rule of its
    sections, `name` the file's own name; `end` is the offset after the header."""

    kind: str
    name: str
    start: int
    end: int


class Language(ABC):
    """A language's parser, seen from outside: see the module's docstring."""

    #: the language's name, as the language server calls it ("pddl", "rddl")
    name: str

    @abstractmethod
    def parse(self, source: Source, warnings: list[Diagnostic] | None = None) -> object:
        """The AST of a whole source; raises the language's `Error` (with diagnostics) on bad text and
        appends warnings to `warnings` when given."""

    @abstractmethod
    def header(self, text: str) -> Header | None:
        """The header of a file made of sections, or None when `text` does not start with one."""

    @abstractmethod
    def section_keywords(self) -> frozenset[str]:
        """The keywords that open a top-level section, read off the grammar (`:action`, `:init`)."""

    @abstractmethod
    def parse_section(self, source: Source, kind: str) -> SectionParse:
        """One section of a file of `kind` (a `Header.kind`), parsed alone; never raises for bad text."""

    @abstractmethod
    def parse_sections(self, source: Source) -> SectionParse:
        """A file whose sections `nodes` are returned in order (value: the whole node), or errors."""

    @abstractmethod
    def assemble(self, header: Header, span: Span, values: Sequence[object]
                 ) -> tuple[object, list[Diagnostic]] | None:
        """The file's node from its sections' values, as a whole parse builds it, with the warnings
        the whole file gets; None where the parser would refuse the combination (two :goal sections)."""

    @abstractmethod
    def expected_terminals(self, source: Source, offset: int) -> set[str]:
        """The terminals the parser would shift at `offset` (empty when the text before it is broken)."""

    def ignored(self) -> tuple[str, ...]:
        """The regular expressions of what the grammar ignores between tokens (white space, comments):
        its %ignore'd terminals, for tools that skip such text without parsing (the language server
        finding where sections end). Not abstract, so that a language added before it keeps working."""
        raise NotImplementedError(f"{type(self).__name__} does not say what its grammar ignores")

    def trivia(self, source: Source) -> Trivia:
        """The comments and token positions of a source the parser reads (see `lexing.trivia`): what the
        formatter keeps besides the tree. Not abstract, so that a language added before it keeps working."""
        raise NotImplementedError(f"{type(self).__name__} does not list its comments")

    @abstractmethod
    def keywords(self) -> Mapping[str, str]:
        """The grammar's keyword terminals: name -> the literal text."""

    @abstractmethod
    def soft_keywords(self) -> frozenset[str]:
        """The keyword terminals the grammar also accepts as names (`at`, `start`)."""

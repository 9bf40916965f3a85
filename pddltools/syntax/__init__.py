"""What every language's parser shares, and the one interface they all offer.

- `language`: the `Language` interface (parse a source, parse one section, the terminals expected at
  an offset, syntax errors as diagnostics); `pddl.language.LANGUAGE` and `rddl.language.LANGUAGE`
  implement it, and the language server uses nothing else of the parsers.
- `lalr`: the LALR driver over the tables Lark builds from a grammar; `lexing`: the lexer built from
  the grammar's terminals; `dfa`: the same terminals as an automaton, for the compiled lexer;
  `image`: what the driver needs of Lark's analysis, as plain data kept between runs (read without
  importing Lark); `larkcache`: where Lark's own analysed grammar is kept, for making an image and for
  Lark's own loop; `frozen`: fast constructors of the
  frozen AST nodes; `_speedups.c`: the optional compiled part of all these.
- `errors`: `ParseError`, what every parser raises for text not in its language.
- `testing`: the hook by which tests choose among the equivalent implementations.
"""

from __future__ import annotations

from pddltools.syntax.errors import ParseError
from pddltools.syntax.language import Header, Language, SectionParse
from pddltools.syntax.lexing import Trivia, UnexpectedCharacter

__all__ = ["Header", "Language", "ParseError", "SectionParse", "Trivia", "UnexpectedCharacter"]

"""The plan reader's one-pass line reader (`_read_lines`, a `finditer` over the whole text) reads what
the tokenizer reads, spans included, and gives up (None) exactly when a line is neither a step nor
blank, so that the tokenizer locates the fault."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pddltools.diagnostics import Source
from pddltools.validate.planfile import _read_lines, _read_tokens

GOOD = ["0.5: (open_valve)", "(move a b)", "12.0022:\t( close  X )  ; shut", "3: (drive t1 l1 l2) [2.5]",
        "", "   ", "; a comment", "(STEP A)\r", "7:(go)"]
BAD = ["(open", "0.5 (x)", "junk", "(a) (b)", "1: (a) [2", "x: (a)"]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(GOOD), max_size=8), st.booleans())
def test_well_formed_lines_read_as_the_tokenizer_reads_them(lines: list[str], newline_at_end: bool) -> None:
    source = Source("\n".join(lines) + ("\n" if newline_at_end else ""))
    assert _read_lines(source) == _read_tokens(source)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(GOOD), max_size=5), st.sampled_from(BAD), st.lists(st.sampled_from(GOOD), max_size=5))
def test_a_line_that_is_no_step_leaves_the_file_to_the_tokenizer(before: list[str], bad: str,
                                                                 after: list[str]) -> None:
    assert _read_lines(Source("\n".join([*before, bad, *after]))) is None

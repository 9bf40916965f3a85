"""fmt on the dialects' own corpus files (corpus/fond, ppddl, contingent, mapddl): every comment kept at
its place, the same tree, a fixed point. The public sets are measured by benchmarks/dialect_fmt.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from pddltools import dialects
from pddltools.diagnostics import Diagnostic, Source
from pddltools.formatting import format_pddl
from pddltools.syntax.errors import ParseError

CORPUS = Path(__file__).resolve().parents[2] / "corpus"
FILES = sorted(p for d in ("fond", "ppddl", "contingent", "mapddl") for p in (CORPUS / d).glob("*.pddl"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_fmt_keeps_every_comment_and_the_tree(path: Path) -> None:
    source = Source(path.read_text(encoding="utf-8"), str(path))
    try:
        node = dialects.parse(source)
    except ParseError:
        pytest.skip("a deliberately broken file")
    warnings: list[Diagnostic] = []
    text = format_pddl(source, warnings)
    printed = Source(text, str(path))
    name = dialects.of_node(node).name
    assert dialects.comment_count(printed, name) == dialects.comment_count(source, name)
    assert dialects.parse(printed) == node
    assert format_pddl(printed, []) == text
    assert [w for w in warnings if w.code == "W121"] == []  # nothing had to move in these files


def test_a_comment_inside_an_mapddl_section_stays_on_its_line() -> None:
    path = CORPUS / "mapddl" / "constrained-domain.pddl"
    text = format_pddl(Source(path.read_text(encoding="utf-8"), str(path)), [])
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if "; where a box is" in line)
    assert lines[at].strip().startswith("(at ?b - box ?p - place)")
    assert lines[at + 1].strip() == "(:private ?r - robot"


def test_comments_around_a_sensing_action_stay_at_their_lines() -> None:
    path = CORPUS / "contingent" / "commented-domain.pddl"
    text = format_pddl(Source(path.read_text(encoding="utf-8"), str(path)), [])
    lines = [line.strip() for line in text.splitlines()]
    assert lines[lines.index("; moving reveals the neighbours") + 1] == "(:action move"
    assert "(at ?p) ; only where the agent is" in text and "; one step" in lines[lines.index("(:action move") + 3]
    assert lines[lines.index("(:action move") - 2] == ""  # the author's blank line between the actions
    assert lines[lines.index("(:action move") + 4].endswith(")))) ; what is seen")  # trails its action


def test_a_comment_trailing_a_broken_item_stays_on_its_last_line() -> None:
    text = "(define (domain d)\n  (:predicates (p) (q))\n  (:action a\n    :parameters ()\n" \
           "    :precondition (p) ; why\n    :effect (q)) ; what\n)\n"
    assert "    :effect (q)) ; what\n" in format_pddl(Source(text, "d.pddl"), [])

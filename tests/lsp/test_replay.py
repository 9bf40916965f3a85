"""Completion's replay of the text before the cursor, cut short for speed, expects what the whole text does."""

from __future__ import annotations

from pddltools.lsp.completion import _replay_text, expected_terminals

from .conftest import CORPUS


def test_the_replay_is_cut_short_without_changing_what_is_expected() -> None:
    """Completion replays only the cursor's section, and in a long list only its last forms; the
    grammar must expect the same terminals as after the whole text."""
    facts = " ".join(f"(at pkg{i} loc{i % 7}) (not (in pkg{i} truck{i}))" for i in range(1200))
    problem = (CORPUS / "logistics-problem.pddl").read_text(encoding="utf-8")
    goal = " ".join(f"(at pkg{i} loc{i % 5})" for i in range(900))
    text = problem.replace("(:init ", f"(:init {facts} (= (total) 5) ").replace(
        "(:goal (and ", f"(:goal (and {goal} ")
    assert len(text) > 40_000
    offsets = [text.index("(at pkg1100") + 4, text.index("(not (in pkg900") + 6, text.index("(= (total)") + 1,
               text.index("(:goal") + 3, text.index("(:goal (and") + 12, len(text.rstrip()) - 1]
    for offset in offsets:
        short = _replay_text(text, offset)
        assert len(short) == len(text) and short != text
        assert expected_terminals("pddl", short, "p", offset) == expected_terminals("pddl", text, "p", offset)

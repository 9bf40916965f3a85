"""The language server's PDDL index knows PDDL+ processes and events: declared like actions (outline,
go-to-definition), their parameters bound by them, and the names they use found as references."""

from __future__ import annotations

from pathlib import Path

from pddltools.lsp.pddl_index import build_table, uses
from pddltools.pddl import ast
from pddltools.pddl.parser import parse_domain_file

DOMAIN = Path(__file__).resolve().parents[2] / "corpus" / "pddl" / "features" / "processes_events" / "domain.pddl"


def test_processes_and_events_are_declared_and_bind_their_parameters() -> None:
    domain = parse_domain_file(DOMAIN)
    table = build_table(domain)
    assert {"open-valve", "filling", "overflow", "leaking", "nothing-happens"} <= set(table.actions)
    filling = table.actions["filling"]
    assert isinstance(filling.node, ast.Process) and filling.span is not None and filling.span.text == "filling"
    assert (filling.span.line, filling.span.column) == (12, 13)
    found = list(uses(domain, frozenset(f.name for f in domain.functions)))
    declared = {(u.name, u.span.line) for u in found if u.kind == "action" and u.declaration}
    assert {("filling", 12), ("overflow", 16)} <= declared
    in_process = [u for u in found if u.kind == "parameter" and u.span.line in (14, 15)]
    assert in_process and all(isinstance(u.binder, ast.Process) for u in in_process)
    opened = {u.span.line for u in found if u.kind == "predicate" and u.name == "open"}
    assert {14, 18, 19} <= opened  # the precondition of filling, and overflow's precondition and effect


def test_the_incremental_parse_keeps_processes_and_events() -> None:
    """Sections parsed one by one and assembled give the parser's tree, processes and events included,
    before and after an edit inside one of them."""
    from pddltools.diagnostics import Source
    from pddltools.lsp.incremental import SectionCache
    from pddltools.pddl.parser import parse

    text = DOMAIN.read_text(encoding="utf-8")
    cache = SectionCache()
    for version in (text, text.replace("(inflow)", "(inflow )")):
        parsed = cache.parse(Source(version, "doc.pddl"))
        full = parse(Source(version, "doc.pddl"))
        assert parsed.syntax == () and parsed.node == full
        assert isinstance(parsed.node, ast.Domain) and len(parsed.node.processes) == 2
        # every node where the parser puts it (the domain's own span is the assembler's, as for any domain)
        def places(root: ast.Node) -> list[tuple[str, int, int]]:
            return [(type(n).__name__, n.span.start, n.span.end) for n in root.walk() if n.span is not None][1:]

        assert places(parsed.node) == places(full)

"""`syntax/lalr.py` and `syntax/lexing.py` read Lark's LALR tables and lexer configuration, which are not
Lark's public interface: pyproject pins `lark` to the versions whose tables have the shape read here,
and these tests check both the pin and the shape."""

from __future__ import annotations

import tomllib
from importlib.metadata import version
from pathlib import Path

from lark import Lark
from lark.grammar import Rule
from lark.parsers.lalr_analysis import Reduce, Shift
from packaging.requirements import Requirement

from pddltools.pddl.parser import grammar_text

ROOT = Path(__file__).resolve().parents[2]


def _pin() -> Requirement:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    (lark,) = [Requirement(d) for d in config["project"]["dependencies"] if Requirement(d).name == "lark"]
    return lark


def test_lark_has_an_upper_bound_and_the_installed_one_is_within_it() -> None:
    pin = _pin()
    assert any(spec.operator in ("<", "<=", "~=", "==") for spec in pin.specifier), pin
    assert pin.specifier.contains(version("lark")), f"lark {version('lark')} is outside the pin {pin}"


def test_the_tables_have_the_shape_the_driver_reads() -> None:
    lark = Lark(grammar_text(), parser="lalr", start=["start", "domain_section"], maybe_placeholders=True)
    lalr = lark.parser.parser  # ParsingFrontend -> LALR_Parser
    table = lalr._parse_table
    assert set(table.start_states) == {"start", "domain_section"}
    assert set(table.end_states) == {"start", "domain_section"}
    kinds = set()
    for state, entries in table.states.items():
        assert state in table.states
        for key, (action, arg) in entries.items():
            assert isinstance(str(key), str)
            kinds.add(action)
            if action is Shift:
                assert arg in table.states
            else:
                assert action is Reduce and isinstance(arg, Rule)
                assert arg in lalr.parser.callbacks
                assert isinstance(arg.expansion, list | tuple) and hasattr(arg.origin, "name")
                assert hasattr(arg.options, "expand1") and hasattr(arg, "alias")
    assert kinds == {Shift, Reduce}
    conf = lark.lexer_conf
    assert conf.terminals and set(conf.ignore) <= {t.name for t in conf.terminals}
    assert isinstance(conf.g_regex_flags, int)

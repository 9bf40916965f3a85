"""Where fmt puts each comment and blank line (pddltools.comments), in PDDL, HDDL and RDDL."""

from __future__ import annotations

from pddltools.diagnostics import Diagnostic, Source
from pddltools.formatting import format_pddl, format_rddl_source
from pddltools.pddl.language import LANGUAGE as PDDL
from pddltools.rddl.language import LANGUAGE as RDDL
from pddltools.rddl.parser import parse as parse_rddl


def fmt(text: str, name: str = "domain.pddl") -> tuple[str, list[str]]:
    warnings: list[Diagnostic] = []
    if name.endswith(".rddl"):
        source = Source(text, name)
        out = format_rddl_source(source, parse_rddl(source), warnings)
    else:
        out = format_pddl(Source(text, name), warnings)
    return out, [w.code for w in warnings if w.code == "W121"]


def stable(text: str, name: str = "domain.pddl") -> str:
    out, _ = fmt(text, name)
    assert fmt(out, name)[0] == out
    return out


def test_the_lexer_finds_comments_and_nothing_else() -> None:
    source = Source("; a\n(define (domain d) ; b\n(:predicates (p)));c", "d.pddl")
    assert [source.text[s:e] for s, e in PDDL.trivia(source).comments] == ["; a", "; b", ";c"]
    rddl = Source("// x\ndomain d { /* y\n z */ }", "d.rddl")
    assert [rddl.text[s:e] for s, e in RDDL.trivia(rddl).comments] == ["// x", "/* y\n z */"]


def test_comments_keep_their_places_in_a_domain() -> None:
    text = """; header

(define (domain d) ; the domain
  (:requirements :strips) ; flags
  (:predicates (p ?x) ; p
     ; (q) is gone

     (r))
  (:action a ; an action
    :parameters (?x)
    ;; before the precondition
    :precondition (and (p ?x) ; first
                       (r))
    :effect (not (p ?x))))
; the end
"""
    assert stable(text) == """; header

(define (domain d) ; the domain
  (:requirements :strips) ; flags
  (:predicates
    (p ?x) ; p
    ; (q) is gone

    (r))
  (:action a ; an action
    :parameters (?x)
    ;; before the precondition
    :precondition (and
      (p ?x) ; first
      (r))
    :effect (not (p ?x))))
; the end
"""


def test_a_comment_among_typed_names_splits_their_group() -> None:
    out = stable("(define (problem p) (:domain d) (:objects a ; the first\n b - t c - u) (:init) (:goal (and)))")
    assert "    a - t ; the first\n    b - t\n    c - u)" in out


def test_a_comment_inside_an_atom_moves_before_its_line_and_is_reported() -> None:
    out, moved = fmt("(define (domain d) (:predicates (on ?x ; upper\n ?y)))")
    assert out == "(define (domain d)\n  (:predicates\n    ; upper\n    (on ?x ?y)))\n"
    assert moved == ["W121"]
    assert fmt(out)[1] == []  # in its new place it stays, unreported


def test_a_comment_before_the_closing_parenthesis_stays_inside() -> None:
    out = stable("(define (problem p) (:domain d) (:init (a)\n ; (b)\n) (:goal (a)))")
    assert "(:init\n    (a)\n    ; (b)\n  )" in out


def test_hddl_methods_keep_their_comments() -> None:
    text = """(define (domain d)
  (:task t :parameters ())
  (:method m ; the only way
    :parameters ()
    :task (t)
    ; two steps
    :ordered-subtasks (and (a) ; one
                           (a))) ; two
  (:action a :parameters ()))
"""
    out = stable(text, "domain.hddl")
    assert "(:method m ; the only way" in out and "    ; two steps\n    :ordered-subtasks (and\n" in out
    assert "      (a) ; one\n" in out and "; two" in out


def test_rddl_keeps_line_and_block_comments() -> None:
    text = """// header
domain d { // the domain
    types { t : object; }; // types
    /* the state
       and the actions */
    pvariables {
        p(t) : {state-fluent, bool, default = false}; // p
    };
}
"""
    out = stable(text, "d.rddl")
    assert out.startswith("// header\ndomain d { // the domain\n    types {\n        t : object;\n    }; // types\n")
    assert "    /* the state\n       and the actions */\n    pvariables {" in out
    assert "default = false }; // p\n" in out


def test_rddl_comments_between_the_branches_of_an_if_stay_there() -> None:
    text = """domain d {
    pvariables { p : { state-fluent, bool, default = false }; a : { action-fluent, bool, default = false }; };
    cpfs {
        p' = // what p becomes
            if (a) then true   // switched on
            // otherwise it stays
            else p;
    };
}
"""
    out, moved = fmt(text, "d.rddl")
    assert moved == []
    assert ("        p' =\n            // what p becomes\n            if (a) then true // switched on\n"
            "            // otherwise it stays\n            else p;\n") in out
    assert fmt(out, "d.rddl")[0] == out

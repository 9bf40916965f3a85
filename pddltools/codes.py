"""The one registry of diagnostic codes: every code any tool reports, what it means, and how to mend it.

Codes are a promise: CI jobs, editors and scorers filter on them, so a code keeps its meaning across
releases and is never reused for something else (tests/test_codes.py scans the sources for codes that
are raised but not registered here, and for raising sites whose message does not fit the registered
meaning). `pddltools explain CODE` prints an entry; the documentation's codes reference is generated
from this table.

Each code is declared here once, by `_code(...)`; `pddltools/code_ids.py`, generated from this table by
`python scripts/generate_code_ids.py`, turns the codes into a type (`CodeId`) that every function taking
a code is typed with, so that `mypy --strict` rejects a code that is not declared here. Run the script
after adding a code.

The entries are grouped by the tool that reports them (`area`), in the order of their codes.
"""

from __future__ import annotations

import difflib
import json
import shlex
from dataclasses import dataclass, field

from pddltools.code_ids import CodeId
from pddltools.diagnostics import Severity


@dataclass(frozen=True)
class Example:
    """A minimal input that makes pddltools report the code, and how to fix it.

    `files` are (name, text) pairs written to a scratch folder; `command` is the pddltools command line
    (without the leading `pddltools`) run there, and it reports the code: tests/test_codes.py runs every
    one. A code that no file can trigger (a network peer that stalls, a missing optional package) has
    no Example; its explanation describes the situation instead ("Example: ...").
    """

    files: tuple[tuple[str, str], ...]
    command: tuple[str, ...]
    fix: str


@dataclass(frozen=True)
class Code:
    """One diagnostic code: its default severity, a one-line meaning, and a longer explanation."""

    code: CodeId
    severity: Severity
    title: str
    area: str
    explanation: str
    example: Example | None = field(default=None, compare=False)
    #: the command was used wrongly or its input could not be used at all: exit status 2, not 1
    #: (`pddltools.exit_codes.status_of`)
    usage: bool = False


def lookup(code: str) -> Code | None:
    return REGISTRY.get(code.strip().upper())


def near(code: str, limit: int = 5) -> list[str]:
    """Registered codes that look like `code`: a digit swapped or a letter mistyped, nearest first."""
    wanted = code.strip().upper()
    # a letter typed for a digit (E2O1, R1O6) is the commonest slip
    wanted = wanted[:1] + wanted[1:].translate(str.maketrans("OIL", "011"))
    if wanted in REGISTRY and wanted != code.strip().upper():
        return [wanted, *[c for c in near(wanted, limit) if c != wanted]][:limit]
    close = difflib.get_close_matches(wanted, REGISTRY, n=limit, cutoff=0.7)
    # the same number under another letter (E106 for R106) is a likely slip that difflib ranks low
    same_number = [c for c in REGISTRY if c[1:] == wanted[1:] and c != wanted and c not in close]
    return (same_number + close)[:limit]


def command_line(example: Example) -> str:
    """The example's command as a user types it (arguments quoted for a POSIX shell where needed)."""
    return shlex.join(("pddltools", *example.command))


def shown(text: str) -> str:
    """An example file's text as it can be printed: a NUL byte (the binary-file example) made visible."""
    return text.replace("\x00", "\u2400")


def render_text(entry: Code) -> str:
    """The entry as plain text, for a pipe or a file: heading, explanation, example and fix."""
    lines = [f"{entry.code} ({entry.severity.value}, {entry.area}): {entry.title}", "", entry.explanation]
    if entry.example is not None:
        for name, text in entry.example.files:
            lines += ["", f"--- {name}", shown(text).rstrip("\n")]
        if entry.example.command:
            lines += ["", "$ " + command_line(entry.example)]
        lines += ["", "Fix: " + entry.example.fix]
    return "\n".join(lines) + "\n"


def _code(code: CodeId, severity: Severity, area: str, title: str, explanation: str,
          files: tuple[tuple[str, str], ...] = (), command: tuple[str, ...] = (), fix: str = "") -> Code:
    example = Example(files, command, fix) if fix else None
    return Code(code, severity, title, area, " ".join(explanation.split()), example,
                usage=area == INPUT or code in _USAGE)


#: Codes outside the input area that also mean "not used as it must be" (exit 2): an output folder that
#: cannot be written or a name not among the choices, an instance or policy the command line names that
#: does not exist or does not load, a results log that holds nothing to score.
_USAGE: frozenset[CodeId] = frozenset({"E804", "E806", "E807", "R300", "R340", "R370", "R371", "E943", "E951"})


E, W, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO

INPUT, SYNTAX, CHECK, INTEROP, COMPILE, VALIDATE, LSP = (
    "input", "PDDL syntax", "checker", "interop", "compiler", "validator", "language server")
FORMAT = "formatter"
RSYNTAX, RTYPES, RSIM, RDDLSIM, SCORE = (
    "RDDL syntax", "RDDL types", "RDDL simulation", "RDDLSim protocol", "scorer")
TESTS = "domain tests"
PPSIM, MDPSIM = "PPDDL simulation", "mdpsim protocol"

# Small inputs the examples below vary.
_BLOCKS = """(define (domain blocks)
  (:requirements :strips)
  (:predicates (clear ?x) (on ?x ?y) (holding ?x))
  (:action pick :parameters (?x) :precondition (clear ?x) :effect (holding ?x)))
"""
_TYPED = """(define (domain trucks)
  (:requirements :strips :typing)
  (:types truck place)
  (:predicates (at ?t - truck ?p - place))
  (:action drive :parameters (?t - truck ?from ?to - place)
    :precondition (at ?t ?from)
    :effect (and (at ?t ?to) (not (at ?t ?from)))))
"""
_TYPED_PROBLEM = """(define (problem one) (:domain trucks)
  (:objects t1 - truck a b - place)
  (:init (at t1 a))
  (:goal (at t1 b)))
"""
_RDDL = """domain lamp {
    pvariables {
        on : { state-fluent, bool, default = false };
        flip : { action-fluent, bool, default = false };
    };
    cpfs { on' = if (flip) then ~on else on; };
    reward = if (on) then 1 else 0;
}
"""
_RDDL_INSTANCE = """instance lamp_1 {
    domain = lamp;
    horizon = 3;
    discount = 1.0;
}
"""


def _rddl(body: str) -> tuple[tuple[str, str], ...]:
    return (("lamp.rddl", body),)


def _sim(domain: str, instance_body: str) -> tuple[tuple[str, str], ...]:
    """A domain `d` and an instance `d_1` of it in one file, for `rddl simulate`."""
    return _rddl(domain + "instance d_1 {\n    domain = d;\n" + instance_body + "    horizon = 3;\n}\n")


def _unchecked(codes: str) -> str:
    """What the simulator's twin of a type-checking code says about the checker."""
    return (f"`rddl simulate` grounds the files as they are, without running the type checker first; "
            f"`rddl check` reports the same mistake, with more context, as {codes}.")


_CHECK = ("check", "domain.pddl")
_CHECK_PROBLEM = ("check", "domain.pddl", "problem.pddl")
_VALIDATE = ("validate", "domain.pddl", "problem.pddl", "plan.txt")
_RDDL_CHECK = ("rddl", "check", "lamp.rddl")
_SIMULATE = ("rddl", "simulate", "lamp.rddl", "instance.rddl")
_SIMULATE_ONE = ("rddl", "simulate", "lamp.rddl", "lamp.rddl", "--rounds", "1")
_SCORE = ("score", "results.jsonl", "--rules", "ipc2008-sat")


def _plan(plan: str) -> tuple[tuple[str, str], ...]:
    return (("domain.pddl", _TYPED), ("problem.pddl", _TYPED_PROBLEM), ("plan.txt", plan))


def _domain(text: str) -> tuple[tuple[str, str], ...]:
    return (("domain.pddl", text),)


# An HTN domain and problem for the HTN plan verifier's examples: go to b, then to c, one move each.
_HTN_DOMAIN = """(define (domain walk)
  (:requirements :hierarchy :typing)
  (:types place)
  (:predicates (at ?p - place))
  (:task go :parameters (?to - place))
  (:method m-go :parameters (?from ?to - place)
    :task (go ?to)
    :precondition (at ?from)
    :ordered-subtasks (and (t1 (move ?from ?to))))
  (:method m-stay :parameters (?to - place)
    :task (go ?to)
    :precondition (at ?to)
    :ordered-subtasks (and))
  (:action move :parameters (?from ?to - place)
    :precondition (at ?from)
    :effect (and (not (at ?from)) (at ?to))))
"""
_HTN_PROBLEM = """(define (problem walk-1) (:domain walk)
  (:objects a b c - place)
  (:htn :parameters () :ordered-subtasks (and (t1 (go b)) (t2 (go c))))
  (:init (at a)))
"""
_HTN_STEPS = "==>\n0 (move a b)\n1 (move b c)\n"
_HTN_VALID = _HTN_STEPS + "root 2 3\n2 go b -> m-go 0\n3 go c -> m-go 1\n<==\n"
_VALIDATE_HTN = ("validate", "domain.hddl", "problem.hddl", "plan.txt")


def _htn_plan(plan: str) -> tuple[tuple[str, str], ...]:
    return (("domain.hddl", _HTN_DOMAIN), ("problem.hddl", _HTN_PROBLEM), ("plan.txt", plan))


def _run_line(**fields: object) -> tuple[tuple[str, str], ...]:
    run: dict[str, object] = {"planner": "lama", "domain": "domain.pddl", "problem": "problem.pddl",
                              "plan": None, "time": 1.5, "status": "solved", "config": "default"}
    run.update(fields)
    return (("domain.pddl", _TYPED), ("problem.pddl", _TYPED_PROBLEM), ("results.jsonl", json.dumps(run) + "\n"))


# HDDL (hierarchical planning): a domain with one compound task and its method, and a problem asking for it.
_HDDL = """(define (domain d)
  (:requirements :typing :hierarchy)
  (:types place)
  (:predicates (at ?p - place))
  (:task go :parameters (?p - place))
  (:method m-go :parameters (?p - place) :task (go ?p)
    :subtasks (and (t1 (move ?p))))
  (:action move :parameters (?p - place) :effect (at ?p)))
"""
_HDDL_PROBLEM = """(define (problem p) (:domain d)
  (:objects a - place)
  (:htn :subtasks (and (t1 (go a))))
  (:init))
"""
_HDDL_CHECK = ("check", "domain.hddl", "problem.hddl")


def _factored(at: str = "(at ?r - robot ?p - place)") -> str:
    """An agent's domain of a factored MA-PDDL task (the examples of W931 and E932-E933)."""
    return ("(define (domain d)\n  (:requirements :typing :factored-privacy)\n  (:types robot place)\n"
            f"  (:predicates {at} (visited ?p - place)\n    (:private (home ?r - robot ?p - place)))\n"
            "  (:action go :parameters (?r - robot ?p - place)\n"
            "    :precondition (home ?r ?p) :effect (and (at ?r ?p) (visited ?p))))\n")


def _hddl(domain: str, problem: str = _HDDL_PROBLEM) -> tuple[tuple[str, str], ...]:
    return (("domain.hddl", domain), ("problem.hddl", problem))


def _method(network: str) -> str:
    """The example domain with the method's task network replaced by `network`."""
    return _HDDL.replace(":subtasks (and (t1 (move ?p)))", network)


_ENTRIES: tuple[Code, ...] = (
    # --- reading files ------------------------------------------------------------------------------
    _code("E001", E, INPUT, "a file or folder cannot be read",
          """The path named does not exist, is a directory (folder) where a file is needed (or a file where
          a folder is), or the operating system refuses to open or read it (a results log, an input). The
          message says which, and the command exits with 2 (unreadable input), not 1 (findings).""",
          (), ("parse", "missing.pddl"),
          "Check the path's spelling and that you may read it; `pddltools parse` also takes a folder."),
    _code("E002", E, INPUT, "a file is binary or not UTF-8 text",
          """pddltools reads planning files as UTF-8 text (a byte-order mark is allowed). A NUL byte means the
          file is binary; a byte sequence that is not UTF-8 is pointed at with its offset.""",
          (("domain.pddl", "(define (domain d)\x00)\n"),), ("parse", "domain.pddl"),
          "Save the file as UTF-8 text; check that it is the file you meant (not a compressed archive)."),
    _code("E003", E, INPUT, "a network address cannot be listened on or connected to",
          """rddl serve cannot listen on the host and port it was given (the port is taken, or the address is
          not this machine's), or rddl client cannot connect to its server (nothing listens there, or the
          connection is refused). The operating system's reason follows the address. Example: rddl serve
          --port 2323 while another server already listens on 2323.""",
          fix="Choose a free port, or start the server before the client and give the client its address."),
    _code("E004", E, INPUT, "an input is not a regular file, or is larger than pddltools reads",
          """pddltools reads its inputs from regular files (and pipes, so that `<(zcat domain.pddl.gz)`
          works). A device (/dev/zero, /dev/null, a terminal), a socket, or a file larger than the cap
          (1,024 MB by default) is refused before anything is read, with exit status 2, rather than read
          until memory runs out. A named pipe that no program writes to reads as an empty file.""",
          (), ("parse", "/dev/null"),
          "Give the path of the file itself; for a larger file set PDDLTOOLS_MAX_INPUT_MB (in megabytes)."),
    _code("E300", E, INPUT, "no domain found for a problem",
          """A problem was given without its domain (check --each, validate PROBLEM PLAN) and no domain file
          was found for it. pddltools looks, in this order: a file named for the problem (domain-N or
          domain_N beside it or in domains/, pNN-domain.pddl, domain_pNN.pddl, STEM-domain.pddl), then
          domain.pddl beside it or in the folder above, then a nearby file whose (define (domain NAME))
          matches the problem's :domain. The error is placed at the problem's (:domain NAME).""",
          (("tasks/problem.pddl", _TYPED_PROBLEM),), ("check", "--each", "tasks/problem.pddl"),
          "Keep the domain beside the problem as the IPC lays it out, or give --domain FILE."),
    _code("W300", W, INPUT, "several files declare a problem's domain",
          """No file is named for the problem, and more than one nearby file declares the domain its
          :domain names. The first (in the order the finder searches) is used; the warning names it and
          the others, so that a problem is never checked against a domain chosen silently.""",
          (("tasks/a.pddl", _TYPED), ("tasks/b.pddl", _TYPED), ("tasks/problem.pddl", _TYPED_PROBLEM)),
          ("check", "--each", "tasks/problem.pddl"),
          "Remove the stale copy, name the domain file for the problem, or give --domain FILE."),
    _code("W301", W, INPUT, "the problem names another domain than the one given",
          """`validate` was given a domain and a problem whose `(:domain NAME)` is not that domain's name.
          The plan is still validated against the files given (VAL does not compare the names), but the
          pairing is likely a mistake: `check` reports the same mismatch as the error E301.""",
          (("domain.pddl", _TYPED), ("problem.pddl", _TYPED_PROBLEM.replace("(:domain trucks)", "(:domain lorries)")),
           ("plan.txt", "(drive t1 a b)\n")),
          ("validate", "domain.pddl", "problem.pddl", "plan.txt"),
          "Pair the problem with its own domain, or correct its (:domain NAME)."),
    # --- PDDL syntax ----------------------------------------------------------------------------------
    _code("E100", E, SYNTAX, "the file is empty",
          """The file holds nothing but white space and comments, so there is no (define ...) to read.""",
          _domain("; a domain will go here\n"), ("parse", "domain.pddl"),
          "Write the definition: (define (domain NAME) ...) or (define (problem NAME) ...)."),
    _code("E101", E, SYNTAX, "a character no PDDL token starts with",
          """PDDL text is made of names, ?variables, numbers, parentheses and the arithmetic and comparison
          operators; anything else (a brace, a quote, a semicolon-less comment marker from another
          language) stops the parser at that character.""",
          _domain("(define (domain d) {:requirements :strips})\n"), ("parse", "domain.pddl"),
          "Use parentheses, not braces or brackets; comments start with ';'."),
    _code("E102", E, SYNTAX, "the file ends too early",
          """The parser reached the end of the file while a form was still open: a ')' is missing, or the
          file was cut short. When parentheses are unbalanced an E107 follows, pointing at the '(' that is
          never closed.""",
          _domain("(define (domain d)\n  (:predicates (p))\n"), ("parse", "domain.pddl"),
          "Close every '(' (an editor that matches parentheses shows which one is open)."),
    _code("E103", E, SYNTAX, "unexpected token: expected something else here",
          """The text is PDDL tokens, but not in an order PDDL allows: a section keyword misspelt, a part of
          an action out of order (:effect before :precondition), a variable in :init, a condition of a
          durative action without at start/over all/at end. The message says what was expected after the
          preceding keyword and what was found.""",
          _domain("(define (domain d)\n  (:predicats (p)))\n"), ("parse", "domain.pddl"),
          "Write what the message expects; here the section is spelt :predicates."),
    _code("E104", E, SYNTAX, "well-formed text that breaks a rule of PDDL's structure",
          """The tokens parse, but a rule the grammar cannot express is broken: an operator with the wrong
          number of arguments ('/' takes two), a '- type' after no names, a problem without (:domain ...),
          a section a problem may have only once given twice with different contents, a whole number
          expected.""",
          _domain("(define (domain d)\n  (:requirements :numeric-fluents)\n  (:functions (f))\n"
                  "  (:action a :parameters () :precondition (> (/ (f) 2 3) 0) :effect (and)))\n"),
          ("parse", "domain.pddl"),
          "Follow the rule the message states; here (/ (f) 2) or (/ (/ (f) 2) 3)."),
    _code("E105", E, SYNTAX, "formulas nest too deeply",
          """A formula nests deeper than pddltools reads: about 190 levels of (and ...), (or ...), (not ...)
          or arithmetic, 125 of (imply ...) or (when ...), 75 of (forall ...) or (exists ...) (the limit
          is on the parser's stack, which each construct fills at its own rate). It is the one depth
          limit: whatever parses is then checked, validated, printed and compiled without overflowing
          Python's stack, so it is refused at the parser with its place. No IPC file nests more than 23
          parentheses deep, so the file is usually generated and the generator has a bug (or the text
          is not PDDL). Example: an (and ...) nested inside itself 400 times.""",
          fix="Write the formula flatter ((and a b c ...) takes any number of parts); fix the generator."),
    _code("E106", E, SYNTAX, "a ')' with no '(' to close",
          """More ')' than '(' : the extra one is pointed at. Usually a form was closed twice, or a line was
          deleted with its opening parenthesis.""",
          _domain("(define (domain d)\n  (:predicates (p)))\n  (:action a :parameters () :effect (p)))\n"),
          ("parse", "domain.pddl"),
          "Delete the extra ')' (or restore the '(' that went with it)."),
    _code("E107", E, SYNTAX, "a '(' that is never closed",
          """Parentheses do not balance: the '(' pointed at (the innermost one still open where the parser
          stumbled) has no ')'. Reported with the E102 or E103 that the imbalance caused.""",
          _domain("(define (domain d)\n  (:predicates (p)\n  (:action a :parameters () :effect (p)))\n"),
          ("parse", "domain.pddl"),
          "Close the form pointed at; here (:predicates (p))."),
    _code("E110", E, SYNTAX, "a problem file where a domain was expected, or the reverse",
          """A command that takes a domain and a problem found the wrong kind of definition in one of them,
          usually because the two arguments were given in the wrong order.""",
          (("domain.pddl", _TYPED), ("problem.pddl", _TYPED_PROBLEM)), ("check", "problem.pddl", "domain.pddl"),
          "Give the domain first: pddltools check domain.pddl problem.pddl."),
    _code("W101", W, SYNTAX, "unknown requirement flag",
          """A flag in :requirements that no version of PDDL from 1.2 to 3.1 defines (often a typo). The
          parser keeps it; the checker cannot know what it asks for.""",
          _domain("(define (domain d)\n  (:requirements :strips :typeing)\n  (:predicates (p)))\n"),
          ("parse", "domain.pddl"),
          "Spell the flag as PDDL does (:typing); drop flags of planner-specific dialects."),
    _code("W120", W, SYNTAX, "a construct of another PDDL dialect, which the file does not declare",
          """The file is not PDDL, but reads as one of the dialects built on it (FOND's `oneof`, PPDDL's
          `probabilistic` and `:goal-reward`, ...), whose requirement flag the domain does not declare. The
          file is read, checked and judged as that dialect; declare it so that other tools know too. One
          finding per file, at the first such construct.""",
          _domain("(define (domain d)\n  (:predicates (p) (q))\n  (:action a :effect (oneof (p) (q))))\n"),
          ("parse", "domain.pddl"),
          "Add the dialect's flag (here :non-deterministic) to the domain's :requirements."),
    _code("W102", W, SYNTAX, "'- type' after no names in an object list; ignored",
          """In a list of objects or constants, a '- type' follows no names (a doubled type, or a name
          deleted). IPC files have this (woodworking); nothing is lost by ignoring it, so it is a warning.
          In a parameter list the same mistake is an error (E104), since a parameter would lose its type.""",
          (("problem.pddl", "(define (problem p) (:domain d)\n  (:objects a b - block - block)\n"
                            "  (:init) (:goal (and)))\n"),),
          ("parse", "problem.pddl"),
          "Delete the stray '- type'."),
    _code("W103", W, SYNTAX, "a problem section repeated identically; one is kept",
          """A problem gives the same section (:init, :goal, :metric ...) twice with identical contents. One
          copy is kept; had the copies differed, it would be the error E104.""",
          (("problem.pddl", "(define (problem p) (:domain d)\n  (:init (q))\n  (:goal (q))\n  (:goal (q)))\n"),),
          ("parse", "problem.pddl"),
          "Delete the second copy."),
    _code("W104", W, SYNTAX, "a leading Lisp (in-package ...) form; skipped",
          """The file starts with a Lisp form such as (in-package "PDDL"), as the IPC-1998 mystery ADL domain
          does. It is not PDDL and declares nothing; VAL reads such a file with a warning, so pddltools
          skips the form and says so. Anywhere else, or in another shape, it stays a syntax error.""",
          _domain('(in-package "PDDL")\n(define (domain d) (:predicates (p)))\n'),
          ("parse", "domain.pddl"),
          "Delete the (in-package ...) line."),
    _code("W121", W, FORMAT, "a comment the formatter moved to a line of its own",
          """fmt keeps every comment, at its place where the layout allows: on a line of its own before the
          item it precedes, or after the item on that item's line. A comment inside a construct that fmt
          always prints on one line (an atom, a typed parameter's type, an RDDL expression) cannot stay
          there: it is moved onto a line of its own just before the line that holds the construct, and
          fmt says so. Nothing is dropped; the printed file parses to the same tree.""",
          _domain("(define (domain d)\n  (:predicates (on ?x ; the upper block\n    ?y)))\n"),
          ("fmt", "domain.pddl"),
          "Put the comment before or after the construct, where it stays."),
    # --- checker: names, arity and types ---------------------------------------------------------------
    _code("E201", E, CHECK, "undeclared type",
          """A type used (for a parameter, a predicate argument, a function's value, an object) is not
          declared in :types. The message suggests the nearest declared name.""",
          _domain(_TYPED.replace("(at ?t - truck ?p - place)", "(at ?t - truk ?p - place)")), _CHECK,
          "Declare the type in :types, or correct its spelling (truck)."),
    _code("E202", E, CHECK, "undeclared predicate",
          """An atom names a predicate that :predicates does not declare.""",
          _domain(_BLOCKS.replace(":precondition (clear ?x)", ":precondition (claer ?x)")), _CHECK,
          "Declare the predicate, or correct its spelling (clear)."),
    _code("E203", E, CHECK, "undeclared function",
          """A numeric or object fluent is read or changed but :functions does not declare it.""",
          _domain("(define (domain d)\n  (:requirements :strips :numeric-fluents)\n  (:functions (fuel))\n"
                  "  (:action go :parameters () :precondition (> (fule) 1) :effect (decrease (fuel) 1)))\n"),
          _CHECK, "Declare the function in :functions, or correct its spelling (fuel)."),
    _code("E204", E, CHECK, "undeclared constant or object",
          """A name in an action (or a goal, or :init) is neither a constant declared in the domain nor an
          object declared in the problem.""",
          (("domain.pddl", _TYPED), ("problem.pddl", _TYPED_PROBLEM.replace("(at t1 b)", "(at t1 c)"))),
          _CHECK_PROBLEM, "Declare the object in :objects (or the constant in :constants), or correct its name."),
    _code("E205", E, CHECK, "free variable (not a parameter or quantified variable)",
          """A ?variable is used where no :parameters list, forall or exists binds it; often a typo of a
          parameter's name.""",
          _domain(_BLOCKS.replace(":precondition (clear ?x)", ":precondition (clear ?y)")), _CHECK,
          "Bind the variable (add it to :parameters or quantify it), or correct its name."),
    _code("E206", E, CHECK, "wrong number of arguments",
          """An atom, a function term or a derived predicate's head has more or fewer arguments than its
          declaration.""",
          _domain(_BLOCKS.replace(":precondition (clear ?x)", ":precondition (clear ?x ?x)")), _CHECK,
          "Give as many arguments as the declaration has parameters."),
    _code("E207", E, CHECK, "argument of the wrong type",
          """An argument's type is neither the parameter's type nor a subtype of it, nor a wider type that
          might hold a fitting object (that is W207): the atom can never hold.""",
          _domain(_TYPED.replace(":precondition (at ?t ?from)", ":precondition (at ?from ?t)")), _CHECK,
          "Pass arguments in the declared order and of the declared types."),
    _code("W207", W, CHECK, "argument of a wider type than the parameter (it may not fit)",
          """The argument's type is a supertype of the parameter's: some objects of it fit and others do
          not. Planners differ on what such an atom means for the objects that do not fit.""",
          _domain("(define (domain d)\n  (:requirements :strips :typing)\n  (:types truck - vehicle)\n"
                  "  (:predicates (refuelled ?t - truck))\n"
                  "  (:action refuel :parameters (?v - vehicle) :precondition (and) :effect (refuelled ?v)))\n"),
          _CHECK, "Narrow the parameter's type (?v - truck), or widen the predicate's."),
    _code("E208", E, CHECK, "a number where an object is expected",
          """A numeric term (a number, a numeric fluent, arithmetic) stands where a predicate argument or an
          object fluent's value is expected.""",
          _domain("(define (domain d)\n  (:requirements :strips :numeric-fluents)\n  (:predicates (at ?x))\n"
                  "  (:functions (position))\n"
                  "  (:action go :parameters () :precondition (at (position)) :effect (increase (position) 1)))\n"),
          _CHECK, "Pass an object (a parameter or a constant) to the predicate."),
    _code("E209", E, CHECK, "an object where a number is expected",
          """An object (a name, a ?variable, an object fluent) stands in arithmetic, a comparison or the
          value of a numeric fluent.""",
          _domain("(define (domain d)\n  (:requirements :strips :numeric-fluents)\n  (:predicates (at ?x))\n"
                  "  (:functions (fuel))\n"
                  "  (:action go :parameters (?x) :precondition (at ?x) :effect (increase (fuel) ?x)))\n"),
          _CHECK, "Use a numeric expression: a number, a numeric fluent, or arithmetic over them."),
    _code("E210", E, CHECK, "object-fluent value of the wrong type",
          """An object fluent is assigned (or initialised with, or compared to) an object whose type is not
          the fluent's declared value type.""",
          _domain("(define (domain d)\n  (:requirements :strips :typing :object-fluents)\n  (:types room key)\n"
                  "  (:functions (location) - room)\n"
                  "  (:action misplace :parameters (?k - key) :precondition (and) :effect (assign (location) ?k)))\n"),
          _CHECK, "Assign an object of the declared value type (room)."),
    _code("E211", E, CHECK, "duplicate declaration",
          """A name is declared twice, differently: a predicate with two arities, an action defined twice, a
          type with two different parents, an object declared with two types or clashing with a domain
          constant, a parameter listed twice. A note points at the first declaration.""",
          _domain("(define (domain d)\n  (:requirements :strips)\n  (:predicates (on ?x) (on ?x ?y)))\n"),
          _CHECK, "Keep one declaration, or rename one of the two."),
    _code("W211", W, CHECK, "repeated identical declaration",
          """The same name is declared twice with the same meaning (a predicate with the same parameters, a
          type with the same parent). Harmless, but often a sign of a copy-and-paste slip.""",
          _domain("(define (domain d)\n  (:requirements :strips)\n  (:predicates (clear ?x) (clear ?y)))\n"),
          _CHECK, "Delete the repetition."),
    _code("E212", E, CHECK, "cycle in the type hierarchy",
          """Following the parents of a type leads back to it, so the type is its own ancestor.""",
          _domain("(define (domain d)\n  (:requirements :strips :typing)\n  (:types a - b b - a)\n"
                  "  (:predicates (p ?x - a)))\n"),
          _CHECK, "Break the cycle: one of the types must be a root (or a child of object)."),
    _code("E213", E, CHECK, "is-violated names an undeclared preference",
          """The metric's (is-violated NAME) names no preference of the goal or the constraints.""",
          (("domain.pddl", "(define (domain d)\n  (:requirements :strips :preferences)\n"
                           "  (:predicates (done))\n"
                           "  (:action do :parameters () :precondition (and) :effect (done)))\n"),
           ("problem.pddl", "(define (problem p) (:domain d)\n  (:init)\n  (:goal (preference finished (done)))\n"
                            "  (:metric minimize (is-violated finish)))\n")),
          _CHECK_PROBLEM, "Name a declared preference (finished)."),
    _code("E214", E, CHECK, "numeric update of an object fluent",
          """increase, decrease, scale-up or scale-down is applied to a fluent whose values are objects.""",
          _domain("(define (domain d)\n  (:requirements :strips :typing :object-fluents)\n  (:types room)\n"
                  "  (:functions (location) - room)\n"
                  "  (:action step :parameters () :precondition (and) :effect (increase (location) 1)))\n"),
          _CHECK, "Use assign with an object of the value type, or declare the function as a number."),
    _code("W215", W, CHECK, "type declared twice with different parents (read as a subtype of each)",
          """A type appears twice in :types with different parents (IPC-2006/2011/2014 storage declares area
          under object and under surface). PDDL forbids it, but Fast Downward and the IPC read the type as a
          subtype of each parent, and so does pddltools. With --strict it is an error.""",
          _domain("(define (domain d)\n  (:requirements :typing)\n  (:types place area - object\n"
                  "          area - place)\n  (:predicates (in ?a - area)))\n"), _CHECK,
          "Declare each type once; give it one parent, or use (either ...) where a value may be of two types."),
    _code("W216", W, CHECK, "parameter name repeated in a predicate or function declaration (read by position)",
          """A predicate or function declaration names the same parameter twice, as IPC-2000 logistics
          declares (in ?obj ?obj). The names of a declaration are placeholders, so pddltools reads it by
          position. A repeated parameter in an action is still the error E211. With --strict it is an error.""",
          _domain("(define (domain d)\n  (:predicates (in ?x ?x)))\n"), _CHECK,
          "Give each parameter of the declaration its own name, e.g. (in ?obj ?place)."),
    _code("W217", W, CHECK, "object declared twice with different types (read as an object of each)",
          """An object or constant is declared twice with different types (IPC-2011 temporal machine shop
          declares kiln0 as kiln8 and as kiln20). pddltools reads it as an object of each type, in the
          checker and in the validator. With --strict it is an error.""",
          (("domain.pddl", "(define (domain d)\n  (:requirements :typing)\n  (:types a b)\n"
                           "  (:predicates (p ?x - a) (q ?x - b)))\n"),
           ("problem.pddl", "(define (problem p) (:domain d)\n  (:objects o - a\n            o - b)\n"
                            "  (:init (p o) (q o))\n  (:goal (and)))\n")),
          _CHECK_PROBLEM,
          "Declare the object once; if it must be of two types, give the types a common subtype."),
    # --- checker: the problem against its domain -------------------------------------------------------
    _code("E301", E, CHECK, "the problem's :domain does not name this domain",
          """The problem says it is for another domain than the one it is checked with (or a misspelt
          one).""",
          (("domain.pddl", _TYPED), ("problem.pddl", _TYPED_PROBLEM.replace("(:domain trucks)", "(:domain truck)"))),
          _CHECK_PROBLEM, "Name the domain as its (define (domain NAME)) does, or pass the right domain file."),
    _code("W302", W, CHECK, "object repeats a domain constant",
          """A problem declares an object that is already a constant of the domain, with the same type.
          Planners differ on whether this is allowed.""",
          (("domain.pddl", "(define (domain d)\n  (:requirements :strips)\n  (:constants home)\n"
                           "  (:predicates (at ?x))\n"
                           "  (:action go :parameters (?x) :precondition (and) :effect (at ?x)))\n"),
           ("problem.pddl", "(define (problem p) (:domain d)\n  (:objects home)\n  (:init)\n  (:goal (at home)))\n")),
          _CHECK_PROBLEM, "Delete the object: the constant is available in every problem of the domain."),
    _code("E303", E, CHECK, "derived predicate not declared in :predicates",
          """A (:derived ...) rule defines a predicate that :predicates does not declare.""",
          _domain("(define (domain d)\n  (:requirements :strips :derived-predicates)\n  (:predicates (on ?x ?y))\n"
                  "  (:derived (above ?x ?y) (on ?x ?y)))\n"),
          _CHECK, "Declare the derived predicate in :predicates."),
    _code("E304", E, CHECK, "derived predicate not stratified (depends on its own negation)",
          """Derived predicates are defined through each other's negation, so no order of evaluation (no
          stratification) gives them a meaning.""",
          _domain("(define (domain d)\n  (:requirements :strips :derived-predicates :negative-preconditions)\n"
                  "  (:predicates (clear ?x) (covered ?x))\n"
                  "  (:derived (covered ?x) (not (clear ?x)))\n  (:derived (clear ?x) (not (covered ?x))))\n"),
          _CHECK, "Define one of the predicates without the other's negation (for example from basic facts)."),
    # --- checker: informative findings -----------------------------------------------------------------
    _code("W401", W, CHECK, "goal can never be reached (no action makes it true, and init does not hold it)",
          """A goal atom is false in the initial state and no action adds it (or, for (not ATOM), true
          initially and no action deletes it): no plan exists.""",
          (("domain.pddl", "(define (domain d)\n  (:requirements :strips)\n  (:predicates (at ?x) (road ?x ?y))\n"
                           "  (:action drive :parameters (?x ?y) :precondition (and (at ?x) (road ?x ?y))\n"
                           "    :effect (and (at ?y) (not (at ?x)))))\n"),
           ("problem.pddl", "(define (problem p) (:domain d)\n  (:objects a b)\n  (:init (at a) (road a b))\n"
                            "  (:goal (and (at b) (road b a))))\n")),
          _CHECK_PROBLEM, "Fix the goal, or add the action that achieves it (here no action builds roads)."),
    _code("I402", INFO, CHECK, "static predicate (no action changes it)",
          """No action adds or deletes the predicate, so only the initial state decides it. Not a mistake
          (road maps are static); shown with --verbose.""",
          _domain("(define (domain d)\n  (:requirements :strips)\n  (:predicates (road ?x ?y) (at ?x))\n"
                  "  (:action drive :parameters (?x ?y) :precondition (and (at ?x) (road ?x ?y))\n"
                  "    :effect (and (at ?y) (not (at ?x)))))\n"),
          ("check", "--verbose", "domain.pddl"), "Nothing to fix, unless the predicate was meant to change."),
    _code("I403", INFO, CHECK, "unused predicate",
          """A declared predicate appears in no action and no derived predicate; shown with --verbose.""",
          _domain("(define (domain d)\n  (:requirements :strips)\n  (:predicates (at ?x) (unused))\n"
                  "  (:action go :parameters (?x) :precondition (and) :effect (at ?x)))\n"),
          ("check", "--verbose", "domain.pddl"), "Delete the declaration, or use the predicate."),
    _code("I404", INFO, CHECK, "unused action parameter",
          """A parameter of an action is used in neither its precondition nor its effect, so every object
          fits it and the planner grounds the action once per object for nothing; shown with --verbose.""",
          _domain("(define (domain d)\n  (:requirements :strips)\n  (:predicates (at ?x))\n"
                  "  (:action go :parameters (?x ?driver) :precondition (and) :effect (at ?x)))\n"),
          ("check", "--verbose", "domain.pddl"), "Delete the parameter, or use it."),
    # --- checker: relaxed reachability (pddltools.analysis) --------------------------------------------
    _code("W405", W, CHECK, "goal unreachable even if nothing were ever deleted (with the chain that explains it)",
          """Relaxed reachability (a fixpoint over the lifted task, as Fast Downward's translator computes
          it) finds every atom some sequence of actions could make true if no effect ever deleted
          anything. A goal atom outside that set is false in every state any plan reaches: no plan
          exists. The message follows the chain: the goal's achievers (the actions that add it), the first
          precondition of each that nothing reaches, and so on down to an atom that no action adds and the
          problem does not give, with its place in the domain. Achievers that cannot apply to the goal's
          objects at all (a static fact about them is missing) are left out of the chain ("here").""",
          (("domain.pddl", "(define (domain d)\n  (:requirements :strips)\n"
                           "  (:predicates (at ?x) (road ?x ?y) (fuelled))\n"
                           "  (:action drive :parameters (?x ?y)\n"
                           "    :precondition (and (at ?x) (road ?x ?y) (fuelled))\n"
                           "    :effect (and (at ?y) (not (at ?x)))))\n"),
           ("problem.pddl", "(define (problem p) (:domain d)\n  (:objects a b)\n  (:init (at a) (road a b))\n"
                            "  (:goal (at b)))\n")),
          _CHECK_PROBLEM, "Give what the chain ends in (here (fuelled) in :init), or add an action that adds it."),
    _code("I406", INFO, CHECK, "action can never be applied (in any problem checked), and why",
          """No sequence of actions, even one whose deletes are ignored, reaches a state where the action's
          precondition holds, in any of the problems checked with the domain: the message says which
          precondition nothing reaches, and why. Often a problem simply has no objects the action is for;
          shown with --verbose.""",
          (("domain.pddl", "(define (domain d)\n  (:requirements :strips)\n  (:predicates (at ?x) (broken ?x))\n"
                           "  (:action go :parameters (?x) :precondition (and) :effect (at ?x))\n"
                           "  (:action mend :parameters (?x) :precondition (broken ?x)\n"
                           "    :effect (not (broken ?x))))\n"),
           ("problem.pddl", "(define (problem p) (:domain d)\n  (:objects a)\n  (:init)\n  (:goal (at a)))\n")),
          ("check", "--verbose", "domain.pddl", "problem.pddl"),
          "Nothing to fix if the action is for other problems; otherwise give the atom it needs."),
    _code("W407", W, CHECK, "condition contradicts itself",
          """A precondition (or a derived predicate's body, or a goal) requires an atom and its negation,
          (p ?x) and (not (p ?x)), or two terms to be equal and different, (= ?a ?b) and (not (= ?a ?b)),
          or two different objects to be equal: no state satisfies it, so the action never applies. Every
          alternative of a disjunction must contradict itself for this to be reported.""",
          _domain("(define (domain d)\n  (:requirements :strips :negative-preconditions)\n"
                  "  (:predicates (ready ?x) (done ?x))\n"
                  "  (:action a :parameters (?x) :precondition (and (ready ?x) (not (ready ?x)))\n"
                  "    :effect (done ?x)))\n"),
          _CHECK, "Delete one of the two literals (here the negated one was meant for another variable)."),
    _code("I408", INFO, CHECK, "goal holds initially and no action can make it false",
          """A goal atom is true in the initial state and no action that can ever be applied deletes it: it
          constrains nothing. Shown with --verbose.""",
          (("domain.pddl", "(define (domain d)\n  (:requirements :strips)\n  (:predicates (at ?x) (seen ?x))\n"
                           "  (:action go :parameters (?x) :precondition (and) :effect (at ?x)))\n"),
           ("problem.pddl", "(define (problem p) (:domain d)\n  (:objects a)\n  (:init (seen a))\n"
                            "  (:goal (and (at a) (seen a))))\n")),
          ("check", "--verbose", "domain.pddl", "problem.pddl"), "Delete the goal, unless it is there on purpose."),
    _code("I409", INFO, CHECK, "goal holds initially, and once deleted nothing restores it",
          """A goal atom is true initially; an action that can be applied deletes it, and no action that can
          be applied adds it back. A plan must never apply that action to it: a planner's search may spend
          its time in such dead ends. Shown with --verbose.""",
          (("domain.pddl", "(define (domain d)\n  (:requirements :strips)\n  (:predicates (intact ?x) (done))\n"
                           "  (:action smash :parameters (?x) :precondition (intact ?x)\n"
                           "    :effect (and (done) (not (intact ?x)))))\n"),
           ("problem.pddl", "(define (problem p) (:domain d)\n  (:objects a)\n  (:init (intact a))\n"
                            "  (:goal (intact a)))\n")),
          ("check", "--verbose", "domain.pddl", "problem.pddl"), "Nothing to fix if intended."),
    _code("I410", INFO, CHECK, "effect that nothing reads",
          """An action adds or deletes atoms of a predicate that no precondition, effect condition, derived
          predicate or goal of the problems checked ever reads: the effect changes nothing that matters.
          Shown with --verbose.""",
          (("domain.pddl", "(define (domain d)\n  (:requirements :strips)\n  (:predicates (at ?x) (visited ?x))\n"
                           "  (:action go :parameters (?x) :precondition (and) :effect (and (at ?x) (visited ?x))))\n"),
           ("problem.pddl", "(define (problem p) (:domain d)\n  (:objects a)\n  (:init)\n  (:goal (at a)))\n")),
          ("check", "--verbose", "domain.pddl", "problem.pddl"), "Delete the effect, or read it where it matters."),
    _code("I411", INFO, CHECK, "object that no reachable action uses",
          """An object of the problem is an argument of no action that can ever be applied: nothing happens
          to it or with it. Shown with --verbose.""",
          (("domain.pddl", "(define (domain d)\n  (:requirements :strips)\n  (:predicates (at ?x) (road ?x ?y))\n"
                           "  (:action drive :parameters (?x ?y) :precondition (and (at ?x) (road ?x ?y))\n"
                           "    :effect (and (at ?y) (not (at ?x)))))\n"),
           ("problem.pddl", "(define (problem p) (:domain d)\n  (:objects a b c)\n  (:init (at a) (road a b))\n"
                            "  (:goal (at b)))\n")),
          ("check", "--verbose", "domain.pddl", "problem.pddl"), "Delete the object, or connect it (a road to c)."),
    _code("I412", INFO, CHECK, "numeric condition that can never hold (interval analysis)",
          """Interval analysis bounds every numeric function over all states: the range of its initial
          values, widened by every effect that may change it (an increase by a positive amount opens it
          upwards, an assignment adds the assigned range). A comparison whose sides' ranges cannot meet
          never holds, so the action (or the goal) that needs it never applies. Shown with --verbose.""",
          (("domain.pddl", "(define (domain d)\n  (:requirements :strips :numeric-fluents)\n  (:predicates (done))\n"
                           "  (:functions (fuel))\n"
                           "  (:action go :parameters () :precondition (> (fuel) 10)\n"
                           "    :effect (and (done) (decrease (fuel) 1))))\n"),
           ("problem.pddl", "(define (problem p) (:domain d)\n  (:init (= (fuel) 5))\n  (:goal (done)))\n")),
          ("check", "--verbose", "domain.pddl", "problem.pddl"), "Correct the comparison or the initial value."),
    _code("I413", INFO, CHECK, "invariant: atoms of which at most one holds at a time (mutex groups)",
          """Invariant synthesis (as Fast Downward's translator does it) finds sets of atoms of which at most
          one is true in the initial state and in every state an action leads to: a truck is at one place
          at a time, a package is at one place or in one vehicle. The ground task's mutex groups come from
          them, and `pddltools ground --to sas` makes one variable of each. Shown with --verbose, found on the
          first problem checked when the grounder reads the task.""",
          (("domain.pddl", "(define (domain d)\n  (:requirements :strips)\n  (:predicates (at ?x ?p) (road ?a ?b))\n"
                           "  (:action drive :parameters (?x ?a ?b) :precondition (and (at ?x ?a) (road ?a ?b))\n"
                           "    :effect (and (at ?x ?b) (not (at ?x ?a)))))\n"),
           ("problem.pddl", "(define (problem p) (:domain d)\n  (:objects t a b)\n  (:init (at t a) (road a b))\n"
                            "  (:goal (at t b)))\n")),
          ("check", "--verbose", "domain.pddl", "problem.pddl"), "Nothing to fix: this says what the task keeps true."),
    # --- checker: durative actions ---------------------------------------------------------------------
    _code("E451", E, CHECK, "durative-action condition outside at start / over all / at end",
          """A condition of a durative action does not say when it holds. The grammar already requires
          timed conditions in text (the parser reports E103), so this finding comes from trees built by
          passes or through the Python API. Example: an ast.DurativeAction built in Python whose
          condition is a bare atom.""",
          fix="Wrap the condition in (at start ...), (over all ...) or (at end ...)."),
    _code("E452", E, CHECK, "durative-action effect outside at start / at end",
          """An effect of a durative action does not say when it happens (or says over all). As with E451,
          text cannot hold this (the parser reports E103); it comes from trees built in Python. Example: an
          ast.DurativeAction built in Python whose effect is a bare atom.""",
          fix="Wrap the effect in (at start ...) or (at end ...)."),
    _code("E453", E, CHECK, "?duration used where it is not allowed",
          """?duration may be read in a durative action's duration constraint and effects, #t only in the
          effects of a durative action or of a PDDL+ process; elsewhere (a condition, an instantaneous
          action, an event) they mean nothing.""",
          _domain("(define (domain d)\n  (:requirements :strips :durative-actions :numeric-fluents)\n"
                  "  (:predicates (done))\n  (:functions (limit))\n"
                  "  (:durative-action work :parameters () :duration (= ?duration 5)\n"
                  "    :condition (at start (< ?duration (limit)))\n    :effect (at end (done))))\n"),
          _CHECK, "Compare against the duration's own expression ((limit) here), not ?duration."),
    # --- checker: requirements -------------------------------------------------------------------------
    # --- checker: PDDL+ processes and events ------------------------------------------------------------
    _code("E454", E, CHECK, "a process with an effect that is not continuous",
          """A PDDL+ process changes the world only continuously, while its precondition holds: each of its
          effects is (increase f (* #t rate)) or (decrease f (* #t rate)). Adding or deleting an atom, or
          assigning a value, happens at an instant, so it belongs in an action or an event (Fox & Long
          2006).""",
          _domain("(define (domain d)\n  (:requirements :time :numeric-fluents)\n  (:predicates (on) (hot))\n"
                  "  (:functions (heat))\n"
                  "  (:process warm :parameters () :precondition (on)\n"
                  "    :effect (and (increase (heat) (* #t 2)) (hot))))\n"),
          _CHECK, "Move (hot) into an event, e.g. (:event overheat :precondition (and (> (heat) 10) (not (hot))) "
          ":effect (hot))."),
    _code("E455", E, CHECK, "a continuous effect that is not (increase f (* #t rate)) or (decrease ...)",
          """A continuous effect (one that reads #t, in a process or a durative action) must have PDDL 2.1's
          form: increase or decrease, by #t, (* #t rate) or (* rate #t), with a rate that does not read #t
          again. Then the rate is what changes f per unit of time, which validators and planners
          integrate; (assign f #t) or (increase f (* #t #t)) has no such reading.""",
          _domain("(define (domain d)\n  (:requirements :time :numeric-fluents)\n  (:predicates (on))\n"
                  "  (:functions (heat))\n"
                  "  (:process warm :parameters () :precondition (on)\n"
                  "    :effect (increase (heat) (+ #t 2))))\n"),
          _CHECK, "Write the change per unit of time as a factor of #t: (increase (heat) (* #t 2))."),
    _code("E456", E, CHECK, "an event whose effect cannot make its own precondition false",
          """A PDDL+ event fires as soon as its precondition holds. If its effect adds, deletes and changes
          nothing its precondition tests, the precondition still holds afterwards and the event fires again
          at once, for ever (an event with no precondition too). Fox & Long (2006) require events to falsify
          their own preconditions. The test is on predicates and functions, not arguments, so it only
          reports events that certainly cannot.""",
          _domain("(define (domain d)\n  (:requirements :time :numeric-fluents)\n  (:predicates (stopped))\n"
                  "  (:functions (v))\n"
                  "  (:event too-fast :parameters () :precondition (> (v) 100) :effect (stopped)))\n"),
          _CHECK, "Make the effect falsify the precondition, e.g. :precondition (and (> (v) 100) (not (stopped))) "
          "or :effect (and (stopped) (assign (v) 0))."),
    _code("W501", W, CHECK, "feature used but its requirement is not declared",
          """The domain uses a feature (negative preconditions, typing, conditional effects ...) whose
          requirement flag it does not declare; strict planners refuse such a domain.""",
          _domain("(define (domain d)\n  (:requirements :strips)\n  (:predicates (clear ?x))\n"
                  "  (:action a :parameters (?x) :precondition (not (clear ?x)) :effect (clear ?x)))\n"),
          _CHECK, "Add the flag the message names (:negative-preconditions) to :requirements."),
    _code("W502", W, CHECK, "total-cost used without :action-costs",
          """Actions increase (total-cost) but :action-costs is not declared; planners that honour the
          requirement ignore the costs.""",
          _domain("(define (domain d)\n  (:requirements :strips)\n  (:predicates (done))\n  (:functions (total-cost))\n"
                  "  (:action a :parameters () :precondition (and) :effect (and (done) (increase (total-cost) 3))))\n"),
          _CHECK, "Add :action-costs to :requirements."),
    _code("W503", W, CHECK, "requirement declared but never used",
          """A requirement flag is declared but nothing in the domain or its problems uses the feature;
          track selection (which competitions the domain fits) counts declared flags.""",
          _domain("(define (domain d)\n  (:requirements :strips :conditional-effects)\n  (:predicates (done))\n"
                  "  (:action a :parameters () :precondition (and) :effect (done)))\n"),
          _CHECK, "Delete the flag."),
    # --- checker: functions and the metric -------------------------------------------------------------
    _code("W601", W, CHECK, "function read but never given a value",
          """A numeric function is read (in a precondition, an effect, the metric) but the problem's :init
          gives it no value and no action assigns one, so reading it is undefined and the action can never
          apply; an increase or decrease changes a value that is not there. (`total-cost` used only as a
          cost counter is the exception: see I604.)""",
          (("domain.pddl", "(define (domain d)\n  (:requirements :strips :numeric-fluents)\n  (:predicates (done))\n"
                           "  (:functions (battery))\n"
                           "  (:action a :parameters () :precondition (> (battery) 0) :effect (done)))\n"),
           ("problem.pddl", "(define (problem p) (:domain d)\n  (:init)\n  (:goal (done)))\n")),
          _CHECK_PROBLEM, "Initialise the function in :init, e.g. (= (battery) 10)."),
    _code("I604", INFO, CHECK, "total-cost without an initial value starts at 0",
          """The problem's :init gives `total-cost` no value, but it is a cost counter: the domain only
          ever increases it and the metric minimises it. Fast Downward and VAL read it as 0, and so does
          `pddltools validate` (IPC-2018 agricola and settlers, IPC-2014 tetris are written so); a planner
          that insists on PDDL's letter finds it undefined. Shown with --verbose.""",
          (("domain.pddl", "(define (domain d)\n  (:requirements :strips :action-costs)\n  (:predicates (done))\n"
                           "  (:functions (total-cost))\n  (:action a :parameters () :precondition (and)\n"
                           "    :effect (and (done) (increase (total-cost) 1))))\n"),
           ("problem.pddl", "(define (problem p) (:domain d)\n  (:init)\n  (:goal (done))\n"
                            "  (:metric minimize (total-cost)))\n")),
          ("check", "--verbose", "domain.pddl", "problem.pddl"),
          "Nothing to fix; write (= (total-cost) 0) in :init for planners that read PDDL to the letter."),
    _code("E602", E, CHECK, "metric over an undeclared function",
          """The problem's :metric reads a function the domain does not declare.""",
          (("domain.pddl", "(define (domain d)\n  (:requirements :strips :action-costs)\n  (:predicates (done))\n"
                           "  (:functions (total-cost))\n  (:action a :parameters () :precondition (and)\n"
                           "    :effect (and (done) (increase (total-cost) 1))))\n"),
           ("problem.pddl", "(define (problem p) (:domain d)\n  (:init (= (total-cost) 0))\n  (:goal (done))\n"
                            "  (:metric minimize (total-costs)))\n")),
          _CHECK_PROBLEM, "Name a declared function (total-cost)."),
    # --- domain test suites (pddltools test) ---------------------------------------------------------
    _code("E861", E, TESTS, "a domain test's expectation is not met",
          """A test of the suite (`pddltools test SUITE.toml`) expected something of its problem that does
          not hold: a plan valid (with a value) or failing at a step, the task relaxed-solvable or not,
          atoms reachable or not. The finding is at the test's [[test]] line and says what was found
          instead; for an atom expected reachable, the chain that explains why it is not.""",
          (("domain.pddl", "(define (domain d)\n  (:requirements :strips)\n  (:predicates (at ?x) (road ?x ?y))\n"
                           "  (:action drive :parameters (?x ?y) :precondition (and (at ?x) (road ?x ?y))\n"
                           "    :effect (and (at ?y) (not (at ?x)))))\n"),
           ("problem.pddl", "(define (problem p) (:domain d)\n  (:objects a b c)\n  (:init (at a) (road a b))\n"
                            "  (:goal (at b)))\n"),
           ("suite.toml", "domain = \"domain.pddl\"\n\n[[test]]\nname = \"c is reachable\"\n"
                          "problem = \"problem.pddl\"\nreachable = [\"(at c)\"]\n")),
          ("test", "suite.toml"), "Fix the domain or the problem, or the expectation if the domain is right."),
    _code("E862", E, TESTS, "a domain test suite that cannot be read",
          """The suite is not valid TOML, has a key that is not one of name, domain, problem, plan, valid,
          value, fails_at, relaxed_solvable, reachable and unreachable, has no [[test]], or a test names no
          problem or no domain. `pddltools test` exits 2.""",
          (("suite.toml", "domain = \"domain.pddl\"\n\n[[test]]\nproblem = \"problem.pddl\"\nsolvable = true\n"),),
          ("test", "suite.toml"), "Use the keys listed (here relaxed_solvable, not solvable)."),
    # --- HDDL: tasks, methods and task networks ------------------------------------------------------
    _code("E901", E, CHECK, "compound task declared twice, or with an action's name",
          """An HDDL domain declares each compound task once, with (:task NAME :parameters (...)), and a
          compound task cannot share its name with an action (a primitive task): a subtask naming it
          would be ambiguous.""",
          _hddl(_HDDL.replace("(:task go :parameters (?p - place))",
                              "(:task go :parameters (?p - place))\n  (:task go :parameters (?p - place))")),
          _HDDL_CHECK, "Delete the second declaration, or rename one of the two."),
    _code("E903", E, CHECK, "task not declared (neither a compound task nor an action)",
          """A method's :task or a subtask (of a method or of the problem's :htn) names a task that no
          (:task ...) declares and no action is called.""",
          _hddl(_method(":subtasks (and (t1 (mvoe ?p)))")), _HDDL_CHECK,
          "Correct the name (the message suggests a near one), or declare the task."),
    _code("E904", E, CHECK, "method decomposes an action instead of a compound task",
          """A method's :task must be a compound task declared with (:task ...); an action is a primitive
          task, which is executed, never decomposed.""",
          _hddl(_HDDL.replace(":task (go ?p)", ":task (move ?p)")), _HDDL_CHECK,
          "Declare a compound task for the method to decompose, and make the action its subtask."),
    _code("E905", E, CHECK, "subtask id used twice in one task network",
          """Each subtask of a method's (or of the initial) task network has its own id, which :ordering
          and plans refer to; two subtasks with one id make both ambiguous.""",
          _hddl(_method(":subtasks (and (t1 (move ?p)) (t1 (move ?p)))")), _HDDL_CHECK,
          "Rename one of the subtasks (t1, t2 ...)."),
    _code("E906", E, CHECK, "ordering constraint names an unknown subtask id",
          """An :ordering constraint (< A B) names an id that no subtask of the same task network has.""",
          _hddl(_method(":subtasks (and (t1 (move ?p)))\n    :ordering (and (< t1 t2))")), _HDDL_CHECK,
          "Name the ids the subtasks are given, or give the subtask the id."),
    _code("E907", E, CHECK, "ordering constraints form a cycle",
          """The :ordering constraints of a task network say that a subtask must come before itself
          (t1 < t2 < t1): no plan can order them. The message names the cycle.""",
          _hddl(_method(":subtasks (and (t1 (move ?p)) (t2 (move ?p)))\n    :ordering (and (< t1 t2) (< t2 t1))")),
          _HDDL_CHECK, "Remove the constraint that closes the cycle."),
    _code("W908", W, CHECK, "compound task without a method",
          """No method decomposes the compound task, so no plan can contain it: a network that needs it
          has no solution.""",
          (("domain.hddl", _HDDL.replace("  (:method", "  (:task stay :parameters ())\n  (:method")),),
          ("check", "domain.hddl"), "Add a method for the task, or delete the task."),
    _code("W909", W, CHECK, "compound task unreachable from the initial task network",
          """No decomposition of the problems' initial task networks reaches the compound task: its
          methods are never used for these problems.""",
          _hddl(_HDDL.replace("  (:method", "  (:task stay :parameters ())\n"
                              "  (:method m-stay :parameters () :task (stay))\n  (:method")),
          _HDDL_CHECK, "Nothing to fix if other problems use it; otherwise delete the task and its methods."),
    _code("W911", W, CHECK, "HDDL problem names another domain than the one it is checked with",
          """The problem's (:domain NAME) is not the name of the HDDL domain it is checked with. In PDDL
          this is an error (E301); HDDL planners and pandaPIparser do not compare the names, and IPC-2020
          files rely on it (Barman-BDI's problems name barman_htn for domain barman_agent), so for HDDL it
          is a warning.""",
          _hddl(_HDDL, _HDDL_PROBLEM.replace("(:domain d)", "(:domain other)")), _HDDL_CHECK,
          "Write the domain's name in the problem's (:domain ...)."),
    _code("E921", E, CHECK, "the probabilities of a probabilistic effect sum to more than 1",
          """In PPDDL, `(probabilistic p1 e1 ... pn en)` has outcome ei with probability pi and no effect with
          the probability that remains; the pi must sum to at most 1.""",
          _domain("(define (domain d)\n  (:requirements :probabilistic-effects)\n  (:predicates (p) (q))\n"
                  "  (:action a :effect (probabilistic 0.6 (p) 0.6 (q))))\n"),
          ("check", "domain.pddl"),
          "Make the probabilities sum to 1 at most (0.6 and 0.4)."),
    _code("E922", E, CHECK, "a probability that is not between 0 and 1",
          """A probability of a PPDDL probabilistic effect (or of an initial state's) is negative or above 1.""",
          _domain("(define (domain d)\n  (:requirements :probabilistic-effects)\n  (:predicates (p))\n"
                  "  (:action a :effect (probabilistic 3/2 (p))))\n"),
          ("check", "domain.pddl"),
          "Write a probability between 0 and 1 (a decimal such as 0.25 or a fraction such as 1/4)."),
    _code("W926", W, CHECK, "a oneof effect with a single distinct outcome",
          """A FOND `(oneof ...)` whose outcomes are all the same effect: nothing about the action is
          nondeterministic, which is usually a slip (a copied branch not edited).""",
          _domain("(define (domain d)\n  (:requirements :non-deterministic)\n  (:predicates (p))\n"
                  "  (:action a :effect (oneof (p) (p))))\n"),
          ("check", "domain.pddl"),
          "Give each outcome its own effect, or write the effect without oneof."),
    _code("E931", E, CHECK, "objects private to an agent that is not an object of the problem",
          """In MA-PDDL, `(:private agent o1 o2 - t)` among a problem's objects makes them private to `agent`,
          which must itself be one of the problem's objects.""",
          (("domain.pddl", "(define (domain d)\n  (:requirements :typing :multi-agent :unfactored-privacy)\n"
                           "  (:types robot box)\n  (:predicates (p ?b - box))\n"
                           "  (:action a :agent ?r - robot :parameters (?b - box) :effect (p ?b)))\n"),
           ("problem.pddl", "(define (problem q) (:domain d)\n  (:objects r1 - robot (:private r2 b1 - box))\n"
                            "  (:init) (:goal (p b1)))\n")),
          ("check", "domain.pddl", "problem.pddl"),
          "Name an agent the problem declares (r1), or declare r2 among the objects."),
    _code("W931", W, CHECK, "a public initial atom that some agents' factored problems do not hold",
          """In a factored MA-PDDL task each agent's problem holds the public initial atoms (public predicate,
          public objects) and its own private ones. An agent whose problem lacks a public atom another's holds
          plans from a different initial state; the task the files make together (what `compile --target
          centralised` writes) starts with every atom of every agent's problem.""",
          (("domain-r1.pddl", _factored()),
           ("domain-r2.pddl", _factored()),
           ("problem-r1.pddl", "(define (problem q) (:domain d)\n  (:objects a b - place (:private r1 - robot))\n"
                               "  (:init (home r1 a) (visited b)) (:goal (visited a)))\n"),
           ("problem-r2.pddl", "(define (problem q) (:domain d)\n  (:objects a b - place (:private r2 - robot))\n"
                               "  (:init (home r2 b)) (:goal (visited a)))\n")),
          ("check", "domain-r1.pddl", "problem-r1.pddl", "domain-r2.pddl", "problem-r2.pddl"),
          "Give every agent's problem the same public initial atoms."),
    _code("E932", E, CHECK, "a name private to one agent that another agent's factored files declare",
          """In a factored MA-PDDL task, an object or constant in an agent's `(:private ...)` group is known to
          that agent only, and so is a predicate or function in its domain's `(:private ...)` groups: another
          agent's files may not declare it, publicly or as their own private name (two agents of one type may
          each have a private predicate of the same name).""",
          (("domain-r1.pddl", _factored()),
           ("domain-r2.pddl", _factored()),
           ("problem-r1.pddl", "(define (problem q) (:domain d)\n  (:objects a b - place (:private r1 - robot))\n"
                               "  (:init (home r1 a)) (:goal (visited a)))\n"),
           ("problem-r2.pddl", "(define (problem q) (:domain d)\n  (:objects a b - place r1 - robot "
                               "(:private r2 - robot))\n  (:init (home r2 b)) (:goal (visited a)))\n")),
          ("check", "domain-r1.pddl", "problem-r1.pddl", "domain-r2.pddl", "problem-r2.pddl"),
          "Leave r1 out of r2's problem: it is r1's own."),
    _code("E933", E, CHECK, "agents' factored files that declare one name differently, or differ in domain or goal",
          """The factored files of a task are one task seen by each agent: a type, predicate, function,
          action, constant or object that two agents' files both declare must be declared alike, and every
          problem is of the same domain and has the same goal. Otherwise the files cannot be put together
          as one task (what `check` and `compile --target centralised` do).""",
          (("domain-r1.pddl", _factored()),
           ("domain-r2.pddl", _factored("(at ?r - robot)")),
           ("problem-r1.pddl", "(define (problem q) (:domain d)\n  (:objects a b - place (:private r1 - robot))\n"
                               "  (:init (home r1 a)) (:goal (visited a)))\n"),
           ("problem-r2.pddl", "(define (problem q) (:domain d)\n  (:objects a b - place (:private r2 - robot))\n"
                               "  (:init (home r2 b)) (:goal (visited a)))\n")),
          ("check", "domain-r1.pddl", "problem-r1.pddl", "domain-r2.pddl", "problem-r2.pddl"),
          "Declare (at ?r - robot ?p - place) alike in both domains."),
    _code("E934", E, CHECK, "a factored private group in the problem of an unfactored domain",
          """A problem of an unfactored MA-PDDL domain (one domain for all the agents) names the agent of each
          private group first: `(:private r1 dock - place)`. A group naming no agent, `(:private dock -
          place)`, is the factored form, where the agent is the file's; in an unfactored task no agent owns
          those objects.""",
          (("domain.pddl", "(define (domain d)\n  (:requirements :typing :multi-agent :unfactored-privacy)\n"
                           "  (:types robot box)\n  (:predicates (p ?b - box))\n"
                           "  (:action a :agent ?r - robot :parameters (?b - box) :effect (p ?b)))\n"),
           ("problem.pddl", "(define (problem q) (:domain d)\n  (:objects r1 - robot (:private b1 - box))\n"
                            "  (:init) (:goal (p b1)))\n")),
          ("check", "domain.pddl", "problem.pddl"),
          "Name the agent first: (:private r1 b1 - box)."),
    _code("I910", INFO, CHECK, "HDDL domain is totally or partially ordered",
          """Whether every method's subtasks are totally ordered (what the IPC total-order HTN tracks
          ask), and if not, the first method that leaves two subtasks unordered; shown with --verbose.""",
          _hddl(_method(":subtasks (and (t1 (move ?p)) (t2 (move ?p)))")),
          ("check", "--verbose", "domain.hddl", "problem.hddl"),
          "Nothing to fix: order the subtasks (:ordered-subtasks) if the domain is meant for a total-order track."),
    _code("W603", W, CHECK, "initial value for an undeclared function",
          """The problem's :init gives a value to a function the domain does not declare. No action, goal or
          metric of the task can read it (each such read is E203 or E602), so the value is ignored; VAL
          reads such files too. Often a leftover of an older version of the domain (IPC-2023's
          markettrader problems initialise (fuel) and (fuel-used)), or a misspelt function.""",
          (("domain.pddl", "(define (domain d)\n  (:requirements :strips :numeric-fluents)\n  (:predicates (done))\n"
                           "  (:functions (battery))\n"
                           "  (:action a :parameters () :precondition (> (battery) 0) :effect (done)))\n"),
           ("problem.pddl", "(define (problem p) (:domain d)\n  (:init (= (battery) 5) (= (fuel) 10))\n"
                            "  (:goal (done)))\n")),
          _CHECK_PROBLEM, "Delete the value, or declare the function if an action should read it."),
    # --- tarski and Unified Planning bridges -----------------------------------------------------------
    _code("E701", E, INTEROP, "a PDDL construct tarski cannot express",
          """pddltools.interop.tarski refuses a construct tarski's model has no place for (a type declared
          (either ...), a type with two parents, a conditional effect inside another, a preference,
          total-time, a timed initial literal ...); the message names the construct and where it is.
          Example: converting a domain whose :types says `car - (either vehicle thing)` with
          to_tarski().""",
          fix="Rewrite the construct in a form tarski has (a named supertype for (either ...))."),
    _code("E702", E, INTEROP, "a PDDL construct Unified Planning cannot express",
          """pddltools.interop.unified_planning refuses a construct Unified Planning's model has no place
          for; the message names it and where it is. Example: a type with two parents, converted with
          to_up().""",
          fix="Rewrite the construct in a form Unified Planning has (one parent per type), or keep the task in PDDL."),
    _code("E703", E, INTEROP, "a tarski or Unified Planning construct PDDL's AST cannot express",
          """Converting from tarski or Unified Planning met something pddltools' PDDL AST has no form for
          (Unified Planning's processes and events, more than one quality metric, tarski's state
          constraints); the message names it. Example: a UP problem with a process, converted with
          from_up().""",
          fix="Remove the construct from the problem before converting it, or keep that problem in its framework."),
    _code("E704", E, INTEROP, "tarski or Unified Planning is not installed",
          """The bridge was called but its framework cannot be imported; the message names the extra to
          install. Example: to_up() in an environment without unified-planning.""",
          fix="Install the extra the message names, e.g. pip install 'pddltools[up]'."),
    # --- compiler --------------------------------------------------------------------------------------
    _code("E801", E, COMPILE, "a feature this compiler cannot remove (durative actions, numeric fluents ...)",
          """The task uses something the requested compilation cannot remove: durative actions, numeric
          fluents, a derived predicate used negatively without removing derived predicates too, an
          effect on an object fluent's value, preferences in preconditions or over trajectories, a metric
          that rewards cost or violations. The grounder (`pddltools ground`, `compile --target
          grounded-strips`) does not read durative actions, numeric fluents other than the total cost,
          numeric conditions, object fluents, preferences or trajectory constraints (it reads derived
          predicates: they become axioms).""",
          (("domain.pddl", "(define (domain d)\n  (:requirements :strips :durative-actions)\n  (:predicates (done))\n"
                           "  (:durative-action work :parameters () :duration (= ?duration 1)\n"
                           "    :condition (and) :effect (at end (done))))\n"),
           ("problem.pddl", "(define (problem p) (:domain d)\n  (:init)\n  (:goal (done)))\n")),
          ("compile", "domain.pddl", "problem.pddl", "--target", "strips", "-o", "out"),
          "Give the task to a planner that supports the feature, or compile only what can be removed."),
    _code("E802", E, COMPILE, "derived predicates that are not stratified",
          """Compiling derived predicates away needs them stratified (see E304): no order of evaluation
          exists for predicates defined through each other's negation.""",
          (("domain.pddl", "(define (domain d)\n  (:requirements :strips :derived-predicates :negative-preconditions)\n"
                           "  (:predicates (clear ?x) (covered ?x))\n"
                           "  (:derived (covered ?x) (not (clear ?x)))\n  (:derived (clear ?x) (not (covered ?x)))\n"
                           "  (:action a :parameters (?x) :precondition (clear ?x) :effect (and)))\n"),
           ("problem.pddl", "(define (problem p) (:domain d)\n  (:objects b)\n  (:init)\n  (:goal (clear b)))\n")),
          ("compile", "domain.pddl", "problem.pddl", "--remove", "derived-predicates", "-o", "out"),
          "Define the predicates in strata: each from basic facts and predicates of lower strata."),
    _code("E803", E, COMPILE, "a compilation would be too large",
          """Removing the feature would multiply the task beyond a fixed limit: a precondition with more
          than 4096 disjuncts once in disjunctive normal form, or quantifiers expanded over too many
          objects. Thirteen two-way disjunctions make 2^13 = 8192 disjuncts.""",
          (("domain.pddl", "(define (domain d)\n  (:requirements :strips :disjunctive-preconditions)\n"
                           "  (:predicates (p ?x) (q ?x))\n"
                           "  (:action a :parameters (?a ?b ?c ?d ?e ?f ?g ?h ?i ?j ?k ?l ?m)\n"
                           "    :precondition (and (or (p ?a) (q ?a)) (or (p ?b) (q ?b)) (or (p ?c) (q ?c))\n"
                           "      (or (p ?d) (q ?d)) (or (p ?e) (q ?e)) (or (p ?f) (q ?f)) (or (p ?g) (q ?g))\n"
                           "      (or (p ?h) (q ?h)) (or (p ?i) (q ?i)) (or (p ?j) (q ?j)) (or (p ?k) (q ?k))\n"
                           "      (or (p ?l) (q ?l)) (or (p ?m) (q ?m)))\n"
                           "    :effect (and (not (p ?a)) (q ?a))))\n"),
           ("problem.pddl", "(define (problem p) (:domain d)\n  (:objects o)\n  (:init (p o))\n  (:goal (q o)))\n")),
          ("compile", "domain.pddl", "problem.pddl", "--remove", "disjunctive-preconditions", "-o", "out"),
          fix="Give the task to a planner that supports the feature, or rewrite it smaller by hand."),
    _code("E804", E, COMPILE, "the output folder has files (use --force)",
          """compile writes the compiled domain, problem and plan map into OUTDIR; it refuses a folder that
          already has files (or a path that is not a folder, or one it cannot write) rather than mix old
          and new output. Exit code 2.""",
          (("domain.pddl", _TYPED), ("problem.pddl", _TYPED_PROBLEM), ("out/old.txt", "an earlier run\n")),
          ("compile", "domain.pddl", "problem.pddl", "--target", "strips", "-o", "out"),
          "Pass --force to overwrite, or choose an empty folder."),
    _code("E805", E, COMPILE, "a plan that does not fit the compiled task",
          """`pddltools unmap OUTDIR PLAN` maps a plan of the compiled task back to the original; a step
          names an action the compiled task does not have, or gives it too few arguments: the plan was
          found for another task or another compilation.""",
          (("out/plan-map.json", '{"format": "pddltools-plan-map/1", "actions": {}}\n'),
           ("plan.txt", "(fly t1 a b)\n")),
          ("unmap", "out", "plan.txt"),
          "Unmap a plan with the plan map of the compilation it was found for."),
    _code("E806", E, COMPILE, "an unknown target or feature name",
          """--remove names a feature the compiler does not remove (the message lists those it does), or a
          target is unknown. Exit code 2.""",
          (("domain.pddl", _TYPED), ("problem.pddl", _TYPED_PROBLEM)),
          ("compile", "domain.pddl", "problem.pddl", "--remove", "teleportation", "-o", "out"),
          "Use a feature name from the list in the message (the names `pddltools check` prints)."),
    _code("E807", E, COMPILE, "an unreadable plan map",
          """unmap cannot read OUTDIR/plan-map.json (missing, not JSON, not written by compile) or the plan
          file itself. Exit code 2.""",
          (("plan.txt", "(drive t1 a b)\n"),), ("unmap", "out", "plan.txt"),
          "Pass the OUTDIR that `pddltools compile` wrote, and the plan found for that compiled task."),
    # --- validator -------------------------------------------------------------------------------------
    _code("V001", E, VALIDATE, "the plan file is not a plan",
          """The plan text cannot be read as a plan: a step not in parentheses, an unclosed step, a time
          stamp or duration that is not a number.""",
          _plan("(drive t1 a b\n"), _VALIDATE,
          "Write one step per line as (action arg ...); a temporal step as TIME: (action ...) [DURATION]."),
    _code("V002", E, VALIDATE, "a plan step names an action the domain does not have",
          """A step's action name is not an action of the domain (VAL: bad action).""",
          _plan("(fly t1 a b)\n"), _VALIDATE, "Use the domain's action names (drive)."),
    _code("V003", E, VALIDATE, "a plan step has the wrong number of arguments",
          """A step gives more or fewer arguments than the action's :parameters.""",
          _plan("(drive t1 b)\n"), _VALIDATE, "Give one argument per parameter: (drive t1 a b)."),
    _code("V004", E, VALIDATE, "a plan step names an unknown object",
          """An argument is neither an object of the problem nor a constant of the domain.""",
          _plan("(drive t1 a c)\n"), _VALIDATE, "Use the problem's objects."),
    _code("V005", E, VALIDATE, "a plan step's argument is of the wrong type",
          """An argument's declared type does not fit the parameter's type.""",
          _plan("(drive a t1 b)\n"), _VALIDATE, "Pass objects of the parameters' types, in order."),
    _code("V006", E, VALIDATE, "a step's timing does not fit its action",
          """A durative action is written as a sequential step (without a start time and a duration), or a
          temporal plan has a step without a start time.""",
          (("domain.pddl", "(define (domain d)\n  (:requirements :strips :durative-actions)\n  (:predicates (done))\n"
                           "  (:durative-action work :parameters () :duration (= ?duration 2)\n"
                           "    :condition (and) :effect (at end (done))))\n"),
           ("problem.pddl", "(define (problem p) (:domain d)\n  (:init)\n  (:goal (done)))\n"),
           ("plan.txt", "(work)\n")),
          _VALIDATE, "Write it as a timed step: 0.0: (work) [2]."),
    _code("V020", E, VALIDATE, "a construct the validator does not support: the plan cannot be judged",
          """The plan uses a construct the validator does not support (for example PDDL+ change that has
          no closed form, without --delta): the verdict is `error` with reason `unsupported`, never
          `invalid`, and the exit code is 2. The diagnostic points at the construct. `score` and `run`
          store such a plan as `unjudged`: shown among the unexplained errors, scored 0, never voiding a
          domain as an invalid plan does.""",
          (("domain.pddl", "(define (domain grow)\n  (:requirements :time :numeric-fluents)\n  (:functions (x))\n"
                           "  (:process grow :parameters () :precondition (and)\n"
                           "    :effect (increase (x) (* #t (* (x) (x))))))\n"),
           ("problem.pddl", "(define (problem p) (:domain grow)\n  (:init (= (x) 1))\n  (:goal (>= (x) 1)))\n"),
           ("plan.txt", "0.5: @PlanEND\n")),
          _VALIDATE, "Give --delta STEP to approximate the change, or judge the plan with another validator."),
    _code("V021", E, VALIDATE, "a domain or problem file where a plan was expected",
          """A file given as a plan holds a PDDL definition: usually the arguments were given in the wrong
          order (`validate PROBLEM DOMAIN PLAN`). It is named as a domain or problem file rather than read as a
          plan whose first step is broken.""",
          (("domain.pddl", _TYPED), ("problem.pddl", _TYPED_PROBLEM), ("plan.txt", "(drive t1 a b)\n")),
          ("validate", "problem.pddl", "domain.pddl", "plan.txt"),
          "Give the files in the order DOMAIN PROBLEM PLAN: pddltools validate domain.pddl problem.pddl plan.txt."),
    _code("V010", E, VALIDATE, "derived predicates that cannot be evaluated (not stratified)",
          """The validator evaluates derived predicates stratum by stratum; when they are defined through
          each other's negation (see E304) there is no order, and no plan can be validated against the
          domain.""",
          (("domain.pddl", "(define (domain d)\n  (:requirements :strips :derived-predicates :negative-preconditions)\n"
                           "  (:predicates (clear ?x) (covered ?x))\n"
                           "  (:derived (covered ?x) (not (clear ?x)))\n  (:derived (clear ?x) (not (covered ?x)))\n"
                           "  (:action a :parameters (?x) :precondition (clear ?x) :effect (and)))\n"),
           ("problem.pddl", "(define (problem p) (:domain d)\n  (:objects b)\n  (:init)\n  (:goal (clear b)))\n"),
           ("plan.txt", "(a b)\n")),
          _VALIDATE, "Define the derived predicates in strata (see E304)."),
    # --- HTN plan verifier (pddltools/hddl/verify.py) ---------------------------------------------------
    _code("V101", E, VALIDATE, "the HTN plan file is not in the IPC HTN plan format",
          """An HTN plan is read as the IPC verifier (pandaPIparser) reads it: a `==>` line, primitive steps
          `ID ACTION ARGS`, a `root ID...` line, decompositions `ID TASK ARGS -> METHOD SUBTASK-IDS`, and
          `<==`. A line that is none of these (an id that is not a number, a decomposition before the root
          line, nothing after `->`) is reported where it goes wrong.""",
          _htn_plan(_HTN_STEPS + "root 2 x\n"), _VALIDATE_HTN,
          "Write ids as numbers at or above 0: `root 2 3`."),
    _code("V102", E, VALIDATE, "an HTN plan's task ids are duplicated or name no line",
          """Every line of an HTN plan has its own id, and the ids that the root line and the decompositions
          list as subtasks must each name a line of the plan, other than the task itself, and be listed
          once in the whole plan (a task has one parent).""",
          _htn_plan(_HTN_STEPS + "root 2 3\n2 go b -> m-go 0\n3 go c -> m-go 7\n"), _VALIDATE_HTN,
          "List the ids of the lines the task decomposes into: `3 go c -> m-go 1`."),
    _code("V103", E, VALIDATE, "an HTN plan step is of the wrong kind: a compound task as an action, or the reverse",
          """A decomposition line (with `->`) must name a compound task of the domain's :tasks, and a
          primitive step an action: a name that is neither, an action that is decomposed, or a compound
          task written as a primitive step.""",
          _htn_plan(_HTN_STEPS + "root 2 3\n2 walk b -> m-go 0\n3 go c -> m-go 1\n"), _VALIDATE_HTN,
          "Use the domain's task names: `2 go b -> m-go 0`."),
    _code("V104", E, VALIDATE, "an HTN plan decomposes a task with the wrong arguments",
          """A decomposition gives its compound task more or fewer arguments than the task's :parameters, an
          argument that is not an object of the problem or a constant of the domain, or one of the wrong
          type.""",
          _htn_plan(_HTN_STEPS + "root 2 3\n2 go a b -> m-go 0\n3 go c -> m-go 1\n"), _VALIDATE_HTN,
          "Give one object of the right type per task parameter: `2 go b -> m-go 0`."),
    _code("V105", E, VALIDATE, "an HTN plan names a method the domain does not have for that task",
          """The method after `->` is not a method of the domain, or it is a method of another compound task
          (its :task names a different task).""",
          _htn_plan(_HTN_STEPS + "root 2 3\n2 go b -> m-fly 0\n3 go c -> m-go 1\n"), _VALIDATE_HTN,
          "Name a method whose :task is the decomposed task: `-> m-go`."),
    _code("V107", E, VALIDATE, "a method's precondition is false where the method starts",
          """A method's :precondition must hold in the state before the first primitive step it decomposes
          into (the IPC rule); for a method with no primitive step below it, in one of the states between
          the steps ordered before it and those ordered after it.""",
          _htn_plan("==>\n0 (move a b)\nroot 1 2\n1 go b -> m-go 0\n2 go c -> m-stay\n<==\n"), _VALIDATE_HTN,
          "Decompose the task with a method whose precondition holds there: `go c -> m-go` with a move to c."),
    _code("V108", E, VALIDATE, "the primitive plan breaks the order a method imposes",
          """When a method (or the initial task network) orders a subtask before another, every primitive step
          the first decomposes into must come before every primitive step of the second.""",
          _htn_plan("==>\n0 (move b c)\n1 (move a b)\nroot 2 3\n2 go b -> m-go 1\n3 go c -> m-go 0\n"),
          _VALIDATE_HTN, "Order the primitive steps as the methods order their subtasks."),
    _code("V109", E, VALIDATE, "an HTN plan line is not reached from the root",
          """Every line of an HTN plan with a `root` line must be a root task or a subtask of a decomposition:
          a step that no decomposition lists is not explained by the hierarchy.""",
          _htn_plan(_HTN_STEPS + "4 (move c a)\nroot 2 3\n2 go b -> m-go 0\n3 go c -> m-go 1\n"),
          _VALIDATE_HTN, "List the step as a subtask of the decomposition it belongs to, or remove it."),
    _code("V110", E, VALIDATE, "the root tasks are not the problem's initial task network",
          """The `root` line lists the tasks that decompose the problem's :htn: as many, with the same
          names and arguments (under one binding of the :htn parameters), as the initial network has.""",
          _htn_plan(_HTN_STEPS + "root 2\n2 go b -> m-go 0 1\n"), _VALIDATE_HTN,
          "List one root id per task of the initial network: `root 2 3`."),
    _code("V111", E, VALIDATE, "a decomposition does not instantiate its method",
          """No binding of the method's parameters makes the method's task the decomposed task and its
          subtasks, one to one, the listed subtask ids, with every parameter of its type and the method's
          :constraints true (the same number of subtasks, the same task names, consistent arguments).""",
          _htn_plan(_HTN_STEPS + "root 2 3\n2 go b -> m-stay 0\n3 go c -> m-go 1\n"), _VALIDATE_HTN,
          "Use a method whose subtasks are the listed ones: `2 go b -> m-go 0`."),
    # --- language server -------------------------------------------------------------------------------
    _code("L001", INFO, LSP, "a problem's domain is not open nor beside it: only its syntax is checked",
          """The language server checks a problem against its domain when the domain is open in the editor,
          or is a file in the problem's folder, its parent or a sibling folder (the IPC layouts) whose
          (define (domain NAME)) matches the problem's :domain. None is found, so names and types in
          the problem go unchecked; the hint appears once, at the :domain. Example: a problem opened
          alone from a folder without its domain.""",
          fix="Open the domain in the editor, or keep it where the server looks (beside the problem)."),
    _code("L002", INFO, LSP, "which domain file a problem was checked against",
          """A hint at a problem's (:domain NAME) naming the domain file the language server checked it
          against, and by which rule it was found (open in the editor, named for the problem, domain.pddl
          beside it, or a nearby file declaring that name), so that the choice is never silent. Example:
          p01.pddl opened from an IPC folder shows "checked against domain.pddl (domain.pddl beside the
          problem)".""",
          fix="Nothing to fix; open another domain file to check the problem against it."),
    _code("L003", W, LSP, "several files declare a problem's domain; the editor checks against one",
          """More than one file near the problem declares the domain its :domain names; the language server
          checked it against the one the hint L002 names. The same situation as W300 of check --each.
          Example: a folder holding domain.pddl and an edited copy domain-old.pddl, both (define (domain
          trucks)), and a problem for trucks.""",
          fix="Remove or rename the stale copy, or open the domain you mean."),
    # --- RDDL syntax -----------------------------------------------------------------------------------
    _code("R001", W, RSYNTAX, "an RDDL file that is not UTF-8, read as Windows-1252",
          """Some IPPC files were saved in Windows-1252 (a degree sign, a curly quote in a comment).
          Rather than refuse them, pddltools decodes such a file as Windows-1252 and warns at the first
          byte that is not UTF-8. Example: a comment holding the byte 0xB0 (°).""",
          fix="Save the file as UTF-8 (most editors: \"save with encoding\")."),
    _code("R100", E, RSYNTAX, "unexpected RDDL token: expected something else here",
          """The RDDL text is tokens in an order RDDL does not allow: a missing ';', a keyword where a name
          should be, an operator without its operand. The message lists what would have been accepted.""",
          _rddl(_RDDL.replace("default = false };\n        flip", "default = false }\n        flip")),
          _RDDL_CHECK, "Write what the message expects; here the ';' after the declaration of on."),
    _code("R101", E, RSYNTAX, "a character no RDDL token starts with",
          """A character that begins no RDDL token (a '#', a stray quote).""",
          _rddl(_RDDL.replace("reward = ", "reward = # ")), _RDDL_CHECK,
          "Delete the character; comments start with //."),
    _code("R102", E, RSYNTAX, "the RDDL file ends too early",
          """The file ends inside a block: a '}' or ';' is missing, or the file was cut short.""",
          _rddl(_RDDL.rstrip().rstrip("}")), _RDDL_CHECK, "Close every block with '}'."),
    _code("R103", E, RSYNTAX, "no RDDL in the file",
          """The file holds only white space and comments: no domain, non-fluents or instance block.""",
          _rddl("// the lamp domain, to be written\n"), _RDDL_CHECK, "Write a domain, non-fluents or instance block."),
    _code("R104", E, RSYNTAX, "a pvariable gives an option twice",
          """A pvariable's { ... } gives the same option (default, level) twice.""",
          _rddl(_RDDL.replace("default = false };\n        flip", "default = false, default = true };\n        flip")),
          _RDDL_CHECK, "Keep one of the two."),
    _code("R105", E, RSYNTAX, "an unknown aggregation",
          """An aggregation NAME_{...} that RDDL does not have; the message lists those it has (sum, prod,
          avg, min, max, forall, exists, argmin, argmax ...).""",
          _rddl("domain d {\n    types { room : object; };\n"
                "    pvariables { lit(room) : { state-fluent, bool, default = false }; };\n"
                "    cpfs { lit'(?r) = lit(?r); };\n    reward = mean_{?r : room} [lit(?r)];\n}\n"),
          _RDDL_CHECK, "Use one of RDDL's aggregations, e.g. avg_{...}."),
    _code("R106", E, RSYNTAX, "expressions nested too deeply",
          """An expression nests deeper than pddltools can parse, check, print or simulate (more than about
          a quarter of Python's recursion limit, a few hundred levels). The file is reported (parse,
          check, fmt, simulate, serve, the language server) instead of crashing. Such files are
          generated; the generator should emit sums or aggregations rather than deep chains. Example: a
          reward of a thousand nested parentheses.""",
          fix="Generate flatter expressions: sum_{...} or an aggregation instead of a chain of nested operators."),
    _code("R107", E, RSYNTAX, "an integer enum range that does not run from a smaller to a larger integer",
          """RDDL2 lets an enum be written as a range of integers, {@1..@5}; the range must run from one
          integer up to a larger (or equal) one.""",
          _rddl("domain d {\n    types { tier : {@3..@1}; };\n"
                "    pvariables { t : { state-fluent, tier, default = @1 }; };\n"
                "    cpfs { t' = t; };\n    reward = 0;\n}\n"),
          _RDDL_CHECK, "Write the range from low to high: {@1..@3}."),
    _code("R108", E, RSYNTAX, "a block comment that is never closed",
          """A /* comment has no */ after it: the rest of the file would be comment. The error is placed
          where the comment opens (the lexer's comment rule cannot backtrack, so this is found at once
          whatever follows).""",
          _rddl("domain d {\n    /* lights\n    types { room : object; };\n}\n"),
          _RDDL_CHECK, "Close the comment with */, or use // for a one-line comment."),
    _code("R109", E, RSYNTAX, "an integer enum range with too many values",
          """An RDDL2 integer enum range {@1..@N} names every value it holds, and each becomes an object of
          its own; pddltools reads ranges of up to 100,000 values and refuses larger ones rather than
          allocate without bound.""",
          _rddl("domain d {\n    types { tier : {@1..@3000000}; };\n"
                "    pvariables { t : { state-fluent, tier, default = @1 }; };\n"
                "    cpfs { t' = t; };\n    reward = 0;\n}\n"),
          _RDDL_CHECK, "Use an int-valued fluent with a bound instead of an enum of millions of values."),
    _code("R110", E, RSYNTAX, "an integer literal too long to read",
          """An integer literal has more than 1,000 digits. RDDL's integers are machine integers; pddltools
          reads arbitrarily large ones up to that bound and refuses longer ones with this error rather
          than a crash.""",
          _rddl("domain d {\n    pvariables { n : { state-fluent, int, default = 0 }; };\n"
                "    cpfs { n' = n + " + "9" * 1200 + "; };\n    reward = 0;\n}\n"),
          _RDDL_CHECK, "Use a real (1e300) or a smaller integer."),
    # --- RDDL type checking ----------------------------------------------------------------------------
    _code("R201", E, RTYPES, "undefined type",
          """A type used in a parameter list, a range, an object declaration, a quantifier or a
          Dirichlet is not defined in types { ... }.""",
          _rddl("domain d {\n    types { room : object; };\n"
                "    pvariables { lit(rooms) : { state-fluent, bool, default = false }; };\n"
                "    cpfs { lit'(?r) = lit(?r); };\n    reward = 0;\n}\n"),
          _RDDL_CHECK, "Define the type, or correct its name (room)."),
    _code("R202", E, RTYPES, "undefined pvariable",
          """An expression, a CPF or an assignment names a pvariable the domain does not declare.""",
          _rddl(_RDDL.replace("reward = if (on)", "reward = if (lit)")), _RDDL_CHECK,
          "Declare the pvariable, or correct its name."),
    _code("R203", E, RTYPES, "wrong number of arguments or parameters",
          """A pvariable, a function or a distribution is given more or fewer arguments than it takes, a
          CPF names a different number of parameters than its fluent (a warning when it names none: the
          CPF is then drawn for each grounding), or an aggregation binds several variables where one is
          allowed.""",
          _rddl(_RDDL.replace("reward = if (on)", "reward = if (on(?x))")), _RDDL_CHECK,
          "Give as many arguments as the declaration has parameters."),
    _code("R204", E, RTYPES, "an argument that is not an object of the parameter's type",
          """An argument (a ?variable or an object) is of another type than the parameter it is passed
          to.""",
          _rddl("domain d {\n    types { room : object; lamp : object; };\n"
                "    pvariables {\n        lit(room) : { state-fluent, bool, default = false };\n"
                "        near(lamp) : { state-fluent, bool, default = false };\n    };\n"
                "    cpfs { lit'(?r) = lit(?r); near'(?l) = lit(?l); };\n    reward = 0;\n}\n"),
          _RDDL_CHECK, "Pass an argument of the declared type."),
    _code("R205", E, RTYPES, "not a value of the enum (or not a member of the tuple)",
          """An enum value that the enum (or any enum of the domain) does not have, a switch case that is
          not a value of the switched enum, a tuple member that does not exist or is left out.""",
          _rddl("domain d {\n    types { colour : {@red, @green}; };\n"
                "    pvariables { c : { state-fluent, colour, default = @red }; };\n"
                "    cpfs { c' = @blue; };\n    reward = 0;\n}\n"),
          _RDDL_CHECK, "Use a value the enum declares."),
    _code("R206", E, RTYPES, "an expression of the wrong type",
          """A boolean where a number is needed (or the reverse), operands that mix booleans and numbers, a
          CPF or an initial value whose type is not the fluent's range, a comparison of incomparable
          values, a switch case of another type, a tuple where a single value is needed (or a member of a
          tuple named or valued with the wrong type).""",
          _rddl(_RDDL.replace("reward = if (on) then 1 else 0;", "reward = on ^ 0.5;")), _RDDL_CHECK,
          "Make both sides the type the message names; here if (on) then 0.5 else 0."),
    _code("R207", E, RTYPES, "a fluent with no CPF",
          """A state, interm or observ fluent has no CPF, so its next value is undefined.""",
          _rddl(_RDDL.replace("cpfs { on' = if (flip) then ~on else on; };", "cpfs { };")), _RDDL_CHECK,
          "Write a CPF for it (on' = on; keeps the value)."),
    _code("R208", E, RTYPES, "a CPF for an action or non-fluent",
          """An action fluent takes its value from the planner and a non-fluent from the instance; neither
          has a CPF.""",
          _rddl(_RDDL.replace("cpfs { on' = if (flip) then ~on else on; };",
                              "cpfs { on' = if (flip) then ~on else on; flip = false; };")),
          _RDDL_CHECK, "Delete the CPF."),
    _code("R209", E, RTYPES, "intermediate fluents depend on each other in a cycle",
          """Interm fluents are computed before the next state; a cycle among them has no order of
          computation.""",
          _rddl("domain d {\n    pvariables {\n        i1 : { interm-fluent, int, level = 1 };\n"
                "        i2 : { interm-fluent, int, level = 2 };\n    };\n"
                "    cpfs { i1 = i2 + 1; i2 = i1 * 2; };\n    reward = i1;\n}\n"),
          _RDDL_CHECK, "Break the cycle: compute one of them from state fluents only."),
    _code("R210", E, RTYPES, "an instance or non-fluents block without its domain",
          """A non-fluents or instance block does not say its domain (domain = ...;), or names one that is
          not among the files given (RDDL names are case sensitive).""",
          _rddl(_RDDL + _RDDL_INSTANCE.replace("domain = lamp;", "domain = Lamp;")), _RDDL_CHECK,
          "Name the domain exactly as its block does, and pass its file."),
    _code("R211", E, RTYPES, "an instance's non-fluents missing or of another domain",
          """An instance names non-fluents that are not among the files given, or non-fluents written for
          another domain.""",
          _rddl(_RDDL + _RDDL_INSTANCE.replace("domain = lamp;", "domain = lamp;\n    non-fluents = nf_lamp;")),
          _RDDL_CHECK, "Pass the file of the non-fluents block, or correct its name."),
    _code("R212", E, RTYPES, "a variable that is not bound",
          """A ?variable appears where neither the CPF's parameters nor an enclosing aggregation or
          quantifier binds it.""",
          _rddl("domain d {\n    types { room : object; };\n"
                "    pvariables { lit(room) : { state-fluent, bool, default = false }; };\n"
                "    cpfs { lit'(?r) = lit(?s); };\n    reward = 0;\n}\n"),
          _RDDL_CHECK, "Add the variable to the CPF's parameters, or bind it with an aggregation."),
    _code("R213", E, RTYPES, "declared twice",
          """A type, a pvariable or an object is declared twice.""",
          _rddl(_RDDL.replace("flip : { action-fluent", "on : { action-fluent")), _RDDL_CHECK,
          "Rename or delete one of the declarations."),
    _code("R214", E, RTYPES, "an unknown function",
          """A function NAME[...] that RDDL does not have; the message lists those it has.""",
          _rddl(_RDDL.replace("reward = if (on) then 1 else 0;", "reward = cube[2];")), _RDDL_CHECK,
          "Use one of RDDL's functions (pow[2, 3] here)."),
    _code("R215", E, RTYPES, "a primed name that is not a state fluent's next value, or the reverse",
          """Only a state fluent has a next-state value (NAME'): its CPF must be written with the prime,
          and no other fluent may be primed.""",
          _rddl(_RDDL.replace("cpfs { on' =", "cpfs { on =")), _RDDL_CHECK,
          "Write the state fluent's CPF as on' = ...; leave interm and observ fluents unprimed."),
    _code("R216", E, RTYPES, "an unknown object",
          """A name in an expression is neither an object of the instance (or non-fluents, or domain
          objects) nor a pvariable.""",
          _rddl("domain d {\n    types { room : object; };\n"
                "    objects { room : {hall}; };\n"
                "    pvariables { lit(room) : { state-fluent, bool, default = false }; };\n"
                "    cpfs { lit'(?r) = lit(?r); };\n    reward = 0;\n}\n"
                "instance d_1 {\n    domain = d;\n    init-state { lit(kitchen); };\n    horizon = 3;\n}\n"),
          _RDDL_CHECK, "Declare the object, or use a declared one."),
    _code("R217", E, RTYPES, "an assignment to a fluent of the wrong kind",
          """A non-fluents block may only set non-fluents, and an instance's init-state may only set state
          fluents.""",
          _rddl(_RDDL + _RDDL_INSTANCE.replace("horizon = 3;", "init-state { flip = true; };\n    horizon = 3;")),
          _RDDL_CHECK, "Set the fluent where its kind is set, or not at all (an action takes its default)."),
    _code("R218", E, RTYPES, "a fluent with two CPFs",
          """Two CPFs define the same fluent; a note points at the first.""",
          _rddl(_RDDL.replace("cpfs { on' = if (flip) then ~on else on; };",
                              "cpfs { on' = if (flip) then ~on else on; on' = on; };")),
          _RDDL_CHECK, "Delete one of them."),
    _code("R219", E, RTYPES, "an instance's horizon, discount or max-nondef-actions out of range",
          """The horizon must be a positive whole number of steps, the discount a number from 0 to 1;
          max-nondef-actions should be a whole number or pos-inf (a warning).""",
          _rddl(_RDDL + _RDDL_INSTANCE.replace("horizon = 3;", "horizon = 0;")), _RDDL_CHECK,
          "Give a horizon of at least one step and a discount in [0, 1]."),
    _code("R220", W, RTYPES, "an interm fluent reads one of the same or a higher level",
          """RDDLSim computes interm fluents level by level; one that reads another of its own level or a
          higher one reads a value not computed yet.""",
          _rddl("domain d {\n    pvariables {\n        x : { state-fluent, int, default = 0 };\n"
                "        i1 : { interm-fluent, int, level = 1 };\n        i2 : { interm-fluent, int, level = 1 };\n"
                "    };\n    cpfs { i1 = x + 1; i2 = i1 * 2; x' = i2; };\n    reward = x;\n}\n"),
          _RDDL_CHECK, "Give the reading fluent a higher level (level = 2 for i2)."),
    # --- RDDL grounding and simulation -----------------------------------------------------------------
    _code("R300", E, RSIM, "no instance to simulate",
          """The files hold no instance (or none of the name asked for with --instance-name), an instance
          names a domain or non-fluents that are not among them, or no instance of the served folders can
          be simulated.""",
          (("lamp.rddl", _RDDL), ("instance.rddl", _RDDL_INSTANCE)),
          ("rddl", "simulate", "lamp.rddl", "instance.rddl", "--instance-name", "lamp_2"),
          "Name an instance the files define (lamp_1)."),
    _code("R301", E, RSIM, "objects of an undeclared type, met while grounding",
          f"""The grounder met objects (or a parameter) of a type the domain does not declare. {_unchecked("R201")}""",
          _sim("domain d {\n    types { room : object; };\n"
               "    pvariables { lit(room) : { state-fluent, bool, default = false }; };\n"
               "    cpfs { lit'(?r) = lit(?r); };\n    reward = 0;\n}\n",
               "    objects { rooms : {hall}; };\n"),
          _SIMULATE_ONE, "Give the objects a declared type (room)."),
    _code("R302", E, RSIM, "an assignment to something that is not a fluent of the right kind, met while grounding",
          f"""An instance's init-state sets something that is not a state fluent of the domain, or a
          non-fluents block something that is not a non-fluent. {_unchecked("R202 or R217")}""",
          _sim(_RDDL.replace("lamp {", "d {"), "    init-state { flip; };\n"),
          _SIMULATE_ONE, "Set only state fluents in init-state (an action takes its default)."),
    _code("R303", E, RSIM, "the wrong number of arguments, met while grounding or evaluating",
          f"""A pvariable, a function or a distribution is given the wrong number of arguments, or a CPF
          the wrong number of parameters. {_unchecked("R203")}""",
          _sim("domain d {\n    types { room : object; };\n"
               "    pvariables { lit(room) : { state-fluent, bool, default = false }; };\n"
               "    cpfs { lit'(?r) = lit(?r); };\n    reward = 0;\n}\n",
               "    objects { room : {hall}; };\n    init-state { lit(hall, hall); };\n"),
          _SIMULATE_ONE, "Give as many arguments as the declaration has parameters: lit(hall)."),
    _code("R304", E, RSIM, "an argument or value that is not of the declared type, met while grounding",
          f"""An object of another type, or a value outside an enum, in an assignment or a cast.
          {_unchecked("R204 or R205")}""",
          _sim("domain d {\n    types { room : object; lamp : object; };\n"
               "    pvariables { lit(room) : { state-fluent, bool, default = false }; };\n"
               "    cpfs { lit'(?r) = lit(?r); };\n    reward = 0;\n}\n",
               "    objects { room : {hall}; lamp : {l1}; };\n    init-state { lit(l1); };\n"),
          _SIMULATE_ONE, "Pass an object of the parameter's type: lit(hall)."),
    _code("R305", E, RSIM, "an instance that needs a finite horizon or a number",
          """Simulation runs rounds of `horizon` steps; a horizon of pos-inf (or a discount or
          max-nondef-actions that is not a number) cannot be simulated. The type checker accepts pos-inf,
          since RDDL does.""",
          (("lamp.rddl", _RDDL), ("instance.rddl", _RDDL_INSTANCE.replace("horizon = 3;", "horizon = pos-inf;"))),
          _SIMULATE, "Give the instance a finite horizon (or horizon = terminate-when (...); in RDDL2)."),
    _code("R306", E, RSIM, "a tuple value where none is allowed, or a tuple that does not fit its type",
          f"""RDDL2 tuple values: a tuple where the range is not a tuple type, a `?member` label outside a
          default or an instance value, or a tuple whose members are not the type's. {_unchecked("R205 or R206")}""",
          _sim("domain d {\n    pvariables { x : { state-fluent, real, default = 0.0 }; };\n"
               "    cpfs { x' = x; };\n    reward = x;\n}\n", "    init-state { x = < ? : 2.0 >; };\n"),
          _SIMULATE_ONE, "Give a plain value (x = 2.0;), or declare x of a tuple type."),
    _code("R310", E, RSIM, "an expression the simulator does not support",
          """An operator, aggregation, function or distribution the simulator cannot evaluate (an unknown
          function is reported by `rddl check` as R214).""",
          _sim("domain d {\n    pvariables { x : { state-fluent, real, default = 0.0 }; };\n"
               "    cpfs { x' = cube[x]; };\n    reward = x;\n}\n", ""),
          _SIMULATE_ONE, "Use RDDL's functions (pow[x, 3]) and distributions."),
    _code("R311", E, RSIM, "a name that is neither a pvariable nor an object, met while evaluating",
          f"""A bare name in an expression is neither a pvariable nor an object of the instance.
          {_unchecked("R202 or R216")}""",
          _sim("domain d {\n    pvariables { x : { state-fluent, bool, default = false }; };\n"
               "    cpfs { x' = y; };\n    reward = 0;\n}\n", ""),
          _SIMULATE_ONE, "Declare the pvariable, or correct the name."),
    _code("R312", E, RSIM, "no case of a switch matches the value",
          """A switch without a default met a value none of its cases names, so the expression has no
          value in that state.""",
          _rddl("domain d {\n    types { colour : {@red, @green}; };\n    pvariables {\n"
                "        c : { state-fluent, colour, default = @red };\n"
                "        go : { action-fluent, bool, default = false };\n    };\n"
                "    cpfs { c' = if (c == @red) then @green else @red; };\n"
                "    reward = switch (c) { case @green : 1 };\n}\n"
                + _RDDL_INSTANCE.replace("lamp_1", "d_1").replace("domain = lamp;", "domain = d;")),
          ("rddl", "simulate", "lamp.rddl", "lamp.rddl"),
          "Give the switch a default : ... case, or a case for every value."),
    _code("R313", E, RSIM, "a CPF for something that is not a state, interm or observ fluent",
          f"""The simulator computes CPFs of state, interm and observ fluents only; a CPF for an action
          fluent or a non-fluent has no place in a step. {_unchecked("R208")}""",
          _sim("domain d {\n    pvariables {\n        k : { non-fluent, int, default = 1 };\n"
               "        x : { state-fluent, int, default = 0 };\n    };\n"
               "    cpfs { x' = x + k; k = 2; };\n    reward = x;\n}\n", ""),
          _SIMULATE_ONE, "Delete the CPF; set a non-fluent in a non-fluents block or its default."),
    _code("R314", E, RSIM, "a fluent with no CPF, met by the simulator",
          f"""A state, interm or observ fluent has no CPF, so its next value is unknown. {_unchecked("R207")}""",
          _sim("domain d {\n    pvariables {\n        x : { state-fluent, int, default = 0 };\n"
               "        y : { state-fluent, int, default = 0 };\n    };\n"
               "    cpfs { x' = x + 1; };\n    reward = x;\n}\n", ""),
          _SIMULATE_ONE, "Write a CPF for it (y' = y; keeps the value)."),
    _code("R315", E, RSIM, "CPFs that depend on each other in a cycle, met by the simulator",
          f"""The simulator orders the CPFs of one step by what they read; interm or observ fluents that
          read each other have no order. {_unchecked("R209")}""",
          _sim("domain d {\n    pvariables {\n        i1 : { interm-fluent, int, level = 1 };\n"
               "        i2 : { interm-fluent, int, level = 1 };\n"
               "        x : { state-fluent, int, default = 0 };\n    };\n"
               "    cpfs { i1 = i2; i2 = i1; x' = i1; };\n    reward = x;\n}\n", ""),
          _SIMULATE_ONE, "Break the cycle: compute one of them from state fluents only."),
    _code("R316", E, RSIM, "evaluating an expression failed",
          """Evaluating a CPF, the reward or a constraint raised an arithmetic error in the model: a result
          too large for a float, an infinity rounded to an integer. (A division by zero or the logarithm of
          zero gives inf or nan, as in RDDLSim, and is not an error.)""",
          _rddl("domain d {\n    pvariables { x : { state-fluent, int, default = 0 }; };\n"
                "    cpfs { x' = x + 1; };\n    reward = round[ln[x]];\n}\n"
                + _RDDL_INSTANCE.replace("lamp_1", "d_1").replace("domain = lamp;", "domain = d;")),
          ("rddl", "simulate", "lamp.rddl", "lamp.rddl"),
          "Guard the expression: reward = if (x == 0) then 0 else round[ln[x]];"),
    _code("R320", E, RSIM, "a distribution given a parameter outside its domain",
          """A probability above 1, a negative variance or rate, weights that do not sum to one: the
          sampler refuses the draw and names the distribution.""",
          _rddl(_RDDL.replace("cpfs { on' = if (flip) then ~on else on; };", "cpfs { on' = Bernoulli(1.5); };")
                + _RDDL_INSTANCE),
          ("rddl", "simulate", "lamp.rddl", "lamp.rddl"),
          "Keep the parameter in range: Bernoulli(p) needs 0 <= p <= 1."),
    _code("R330", E, RSIM, "an action that is not an action fluent of the domain",
          """A policy (or an RDDLSim client) sent an action name the domain does not declare as an action
          fluent. Example: a policy class whose act() returns {("jump", ()): True} for the lamp domain.""",
          fix="Send only the action fluents the domain declares."),
    _code("R331", E, RSIM, "an action with the wrong number of arguments",
          """An action sent by a policy or a client has more or fewer arguments than the action fluent.
          Example: act() returning {("flip", ("a",)): True} for a flip without parameters.""",
          fix="Send each action with as many arguments as its declaration has parameters."),
    _code("R332", E, RSIM, "an action argument that is not an object of the parameter's type",
          """An action's argument is not an object of the parameter's type in the instance. Example: act()
          returning move(kitchen) where move takes a robot.""",
          fix="Send objects of the parameter's type, from the instance's objects."),
    _code("R333", E, RSIM, "an action value of the wrong type",
          """The value sent for an action fluent is not of its range (a number for a bool, a name that is
          not a value of the enum). Example: act() returning {("flip", ()): 2.5}.""",
          fix="Send a value of the action fluent's range (true/false for a bool)."),
    _code("R334", E, RSIM, "more non-default actions than max-nondef-actions allows",
          """The instance limits how many action fluents may differ from their defaults in one step, and
          the actions sent exceed it. Example: a policy that switches on three actions in an instance with
          max-nondef-actions = 1.""",
          fix="Change at most max-nondef-actions actions from their defaults per step."),
    _code("R335", E, RSIM, "a step after the round is over",
          """The round reached its horizon (or its terminate-when condition); the simulator must be reset
          before the next step. Example: calling Simulator.step() a fourth time with horizon 3, without
          reset().""",
          fix="Call reset() before the next round (or stop at the horizon)."),
    _code("R336", E, RSIM, "the actions break an action constraint",
          """An action-preconditions (or constraints) expression is false for the actions sent in the
          current state.""",
          _rddl(_RDDL.replace("reward = ", "action-preconditions { flip; };\n    reward = ") + _RDDL_INSTANCE),
          ("rddl", "simulate", "lamp.rddl", "lamp.rddl", "--policy", "noop"),
          "Send actions that satisfy the constraints, or correct the constraint."),
    _code("R337", E, RSIM, "a state breaks a state invariant",
          """A state reached breaks a state-invariants expression; the model, not the planner, is at
          fault, since the planner cannot prevent it.""",
          _rddl(_RDDL.replace("reward = ", "state-invariants { ~on; };\n    reward = ") + _RDDL_INSTANCE),
          ("rddl", "simulate", "lamp.rddl", "lamp.rddl"),
          "Correct the invariant or the CPFs, so that every reachable state satisfies it."),
    # --- policies, the RDDLSim protocol and IPPC scores -----------------------------------------------
    _code("R340", E, RDDLSIM, "a --policy that cannot be loaded",
          """--policy takes random, noop or MODULE:CLASS, where the class has reset() and
          act(observation); the one given is none of these, or cannot be imported.""",
          (("lamp.rddl", _RDDL), ("instance.rddl", _RDDL_INSTANCE)),
          (*_SIMULATE, "--policy", "greedy"), "Pass random, noop, or an importable MODULE:CLASS."),
    _code("R350", E, RDDLSIM, "a protocol message that is not plain XML",
          """A peer sent malformed XML, or XML with entities or a DTD (refused, so that a message cannot
          expand into gigabytes). Example: a client that sends <session-request> without closing it.""",
          fix="Send plain XML messages, without entities or a DOCTYPE."),
    _code("R351", E, RDDLSIM, "a protocol message without a field it needs",
          """An XML message lacks an element the protocol requires, or holds a non-number where a number
          is required. Example: a <round-end> without <round-reward>.""",
          fix="Send every element the protocol requires, numbers as numbers."),
    _code("R352", E, RDDLSIM, "a protocol message of an unexpected kind",
          """The root element is not one the protocol allows at this point of the session. Example: a
          client that opens with <round-request> before <session-request>.""",
          fix="Follow the protocol's order: session-request, then round-request, then turns."),
    _code("R353", E, RDDLSIM, "a protocol message that is too large",
          """A message grew past the size limit without its NUL terminator; the connection is closed rather
          than buffer it. Example: a peer that streams bytes without ever sending NUL.""",
          fix="End every message with a NUL byte, and keep messages under the limit."),
    _code("R354", E, RDDLSIM, "the peer closed in the middle of a message",
          """The connection ended after part of a message. Example: a client killed while sending its
          actions.""",
          fix="Close the connection only between messages (after session-end)."),
    _code("R355", E, RDDLSIM, "half a message, then silence",
          """A peer sent part of a message and then did not finish it in time: a message must arrive whole
          within the stall timeout (--stall) of its first byte, plus a second for each 16 KB, so that
          neither silence nor a trickle (a byte a second) can hold the server; the session is closed.
          Example: a client paused in a debugger mid-message.""",
          fix="Send each message whole; a client that must think sends nothing until it has decided."),
    _code("R360", E, RDDLSIM, "the RDDLSim client cannot play the session",
          """`rddl client` met a server that closed, answered out of order, or offered an instance the
          client cannot load; the message says which. Example: a server that ends the session before the
          first round.""",
          fix="Read the message: connect to a server that serves the instance, and play to the session's end."),
    _code("R370", E, RDDLSIM, "a line of the results log is not JSON",
          """`rddl score` reads the JSON-lines log the server writes; a line of it is not JSON (the message
          gives the line number).""",
          (("log.jsonl", "round-end lamp_1 3.0\n"),), ("rddl", "score", "log.jsonl"),
          "Pass the log written by `pddltools rddl serve --log`."),
    _code("R371", E, RDDLSIM, "the results log holds no finished rounds",
          """The log has no round-end records, so there is nothing to score.""",
          (("log.jsonl", '{"event": "session-start", "instance": "lamp_1"}\n'),), ("rddl", "score", "log.jsonl"),
          "Score a log of sessions that played at least one round."),
    _code("R372", E, RDDLSIM, "no baseline for an instance",
          """IPPC scores normalise each instance between a random and a no-op baseline; for an instance the
          log has no baselines for, `rddl score` simulates them from the RDDL files, and none of those
          given defines it. Example: scoring a log of lamp_1 with --rddl pointing at another folder.""",
          fix="Pass --rddl with the folders that define every instance in the log."),
    # --- PPDDL simulation, mdpsim's protocol and the IPPC's PPDDL scores -------------------------------
    _code("E941", E, PPSIM, "a PPDDL problem that cannot be simulated",
          """`ppddl simulate` or `ppddl serve` cannot run the problem: an effect reads a fluent with no value,
          two effects of a step give a fluent different values, or the metric reads an undefined fluent. The
          message says which.""",
          (("domain.pddl", "(define (domain d)\n  (:requirements :probabilistic-effects :numeric-fluents)\n"
                           "  (:predicates (p)) (:functions (f))\n"
                           "  (:action a :effect (probabilistic 1/2 (increase (f) 1))))\n"),
           ("problem.pddl", "(define (problem q) (:domain d) (:init) (:goal (p)))\n")),
          ("ppddl", "simulate", "domain.pddl", "problem.pddl", "--rounds", "1", "--horizon", "5"),
          "Give every fluent the effects and the metric read a value in :init."),
    _code("E942", E, PPSIM, "a step of a PPDDL round that is over",
          """A program using `pddltools.ppddl.simulation` stepped a round after it ended (goal reached,
          horizon, done or a disabled action). Example: a loop that does not test Round.over.""",
          fix="Start a new round (Simulator.reset) once Round.over is true."),
    _code("E943", E, PPSIM, "a PPDDL problem or policy the command line names that does not exist",
          """The files hold no problem of the name given with --problem (or several problems and no --problem,
          a problem whose domain no file given defines, or no problem at all for `ppddl serve`), or the policy
          is none of random (uniformly among the applicable actions, as mdpsim's mdpclient) and noop (done at
          once).""",
          (("coin.pddl", "(define (domain coin) (:requirements :probabilistic-effects)\n  (:predicates (heads))\n"
                         "  (:action flip :effect (probabilistic 1/2 (heads))))\n"
                         "(define (problem toss) (:domain coin) (:init) (:goal (heads)))\n"),),
          ("ppddl", "simulate", "coin.pddl", "--problem", "tosss"),
          "Name a problem the files define (toss), with its domain's file among them."),
    _code("E945", E, MDPSIM, "an mdpsim message that is not plain XML",
          """A peer sent malformed XML, text outside any element, an element closed by a tag of another name
          or nested in itself again and again (no mdpsim message is), or XML with entities or a DTD
          (refused). Example: a client that sends <session-request><name>x</session-request>.""",
          fix="Send plain XML elements, one per message, without entities or a DOCTYPE."),
    _code("E946", E, MDPSIM, "an mdpsim message without a field it needs",
          """A message lacks an element mdpsim's protocol requires, or holds a non-number where a number is
          required. Example: a <round-init> without <time-left>, an <act> without <action>.""",
          fix="Send every element mdpsim's messages have (see docs/commands/ppddl.md)."),
    _code("E947", E, MDPSIM, "an mdpsim message of an unknown kind",
          """The root element is none of mdpsim's messages (session-request, session-init, round-request,
          round-init, state, act, done, error, end-round, end-session). Example: <actions/> (RDDLSim's).""",
          fix="Send mdpsim's messages only."),
    _code("E948", E, MDPSIM, "an mdpsim message too large, cut short or stalled",
          """A message grew past the size limit before its element closed, the peer closed in its middle, or
          it did not arrive whole within the stall timeout (--stall) of its first byte plus a second for each
          16 KB: neither silence nor a trickle can hold the server. Example: a client that sends "<act>" and
          then nothing.""",
          fix="Send each message whole and promptly, and close only between messages."),
    _code("E950", E, MDPSIM, "the mdpsim client cannot play the session",
          """`ppddl client` met a server that closed, refused the problem (bad problem), answered out of order
          or sent a bad message; the message says which. Example: a problem name the server does not
          serve (its reply is bad problem).""",
          fix="Connect to a server that serves the problem (its name as the problem file writes it)."),
    _code("E951", E, MDPSIM, "a PPDDL results log that cannot be scored",
          """`ppddl score` reads the JSON-lines log `ppddl serve` writes; a line is not a JSON object, or no
          session finished.""",
          (("log.jsonl", "end-session p01 30\n"),), ("ppddl", "score", "log.jsonl"),
          "Pass the log written by `pddltools ppddl serve --log`."),
    # --- runner and scorer -----------------------------------------------------------------------------
    _code("S001", E, SCORE, "not a results database",
          """The file given is not a results database: not an SQLite database at all, or another program's
          SQLite database (one with tables of its own). pddltools never adds its tables to another
          program's file: run, score, report and select refuse it and leave it unchanged.""",
          (("domain.pddl", _TYPED), ("problem.pddl", _TYPED_PROBLEM), ("notes.txt", "my notes\n")),
          ("run", "problem.pddl", "--planner", "lama=true", "--db", "notes.txt"),
          "Pass a new path (run creates the database) or one an earlier run wrote."),
    _code("S002", E, SCORE, "a results database from a newer pddltools",
          """The database's schema version is newer than this pddltools knows; reading it could misread
          fields. Example: a database written by a later release, opened with this one.""",
          fix="Upgrade pddltools, or read the database with the release that wrote it."),
    _code("S003", E, SCORE, "a results database locked by another process",
          """Another process held the results database locked for longer than pddltools waits (30 s):
          a long write, a crashed writer's connection still open, or a tool holding an exclusive lock.
          Processes that open or write the same database at the same moment wait for each other; only
          a lock that outlasts the wait is reported. Example: `sqlite3 results.sqlite` with
          `BEGIN EXCLUSIVE;` left open while `pddltools report results.sqlite` runs.""",
          fix="Let the other process finish or close it, then run the command again."),
    _code("S004", E, SCORE, "a damaged results database",
          """The results database fails SQLite's own check (`PRAGMA quick_check`, run whenever a command opens
          it): pages were overwritten or cut off (a disk error, a copy taken mid-write, a tool that wrote
          into it). Example: `pddltools report results.sqlite` after a disk error overwrote a page of the
          file. Nothing is read from it, so no score or report is made from half the runs, and nothing is
          written to it, so `run --resume` cannot make it worse. The message quotes SQLite's findings.
          A row holding a value its column cannot (text where a time belongs, a blob, an infinite time),
          which SQLite itself lets another program write, is damage too: the message names the run and the
          column.""",
          fix="Restore the file from a backup, or salvage its rows with `sqlite3 FILE .recover | sqlite3 NEW`, "
              "then run `pddltools run --resume --db NEW` to redo the runs that were lost."),
    # S010 (plan validation not installed) is retired: the validator is a plain import now. Not reused.
    _code("S011", E, SCORE, "a task whose plans cannot be validated",
          """The domain and problem of a run could not be loaded for validation (they do not parse, or are
          unreadable); every plan for them is refused with the first reason, repeated. Example: scoring
          runs whose domain file has a syntax error.""",
          fix="Fix the domain or problem (`pddltools check` says what is wrong); the runs then validate."),
    _code("S020", E, SCORE, "a malformed runner option",
          """An option of run, learn, score or report that cannot be used as given: a --planner (or
          --plan-file, --unsolved-codes ...) that is not NAME=VALUE, a command template naming a field
          that does not exist, an option naming a planner no --planner defines, --jobs below 1, --seeds
          not like 1-30 or 1,5,9. Exit code 2.""",
          (("domain.pddl", _TYPED), ("problem.pddl", _TYPED_PROBLEM)),
          ("run", "problem.pddl", "--planner", "lama", "--db", "results.sqlite"),
          "Write --planner NAME=COMMAND, e.g. --planner 'lama=fast-downward.py {domain} {problem}'."),
    _code("S021", E, SCORE, "a path to run names nothing, or a problem has no domain",
          """A path given to run does not exist or holds no problem files, or a problem's domain file is not
          found (the finder's rules are E300's: a file named for the problem, domain.pddl beside it or
          above, or a nearby file declaring its :domain). Each such problem is reported and the others
          still run; the exit code is then 1 (2 when nothing could run).""",
          (("tasks/problem.pddl", _TYPED_PROBLEM),),
          ("run", "tasks/problem.pddl", "--planner", "lama=true", "--db", "results.sqlite"),
          "Keep each problem beside its domain, named as the IPC does, or give --domain FILE."),
    _code("S022", E, SCORE, "a domain file or knowledge folder that does not exist",
          """learn's DOMAIN, or run's --dck knowledge folder, names nothing. Exit code 2.""",
          (), ("learn", "missing.pddl", "--planner", "p", "--learner", "learn {domain}", "--training", ".",
               "--out", "out", "--db", "results.sqlite"),
          "Pass a domain file or knowledge folder that exists."),
    _code("S023", E, SCORE, "a malformed line in run's --batch list",
          """run --batch LIST reads domain<TAB>problem lines (a third column, a plan as validate --batch
          has it, is ignored; blank lines and # comments are skipped). A line with another number of
          fields, or an empty one, is reported at its place and the other lines still run.""",
          (("domain.pddl", _TYPED), ("problem.pddl", _TYPED_PROBLEM), ("list.tsv", "domain.pddl problem.pddl\n")),
          ("run", "--batch", "list.tsv", "--planner", "lama=true", "--db", "results.sqlite"),
          "Separate the fields with a tab: domain.pddl<TAB>problem.pddl."),
    _code("S024", E, SCORE, "runs already stored would be replaced",
          """The runs asked for are already in the results database. A stored run is a result that may
          have cost hours, so run never replaces it silently: at a terminal it asks; otherwise it refuses.
          --resume keeps the stored runs and runs only the missing ones; --overwrite (or --force) runs
          them all again and replaces them. Example: the same pddltools run command given twice, from a
          script.""",
          fix="Give --resume to continue a campaign, or --overwrite to run everything again."),
    _code("S030", E, SCORE, "the Dask executor needs the dask extra",
          """Running on a Dask cluster needs the `dask` extra (pip install 'pddltools[dask]'). Example:
          `pddltools run --dask tcp://scheduler:8786` without dask installed.""",
          fix="pip install 'pddltools[dask]', or run without --dask."),
    _code("S040", E, SCORE, "a results file that cannot be read",
          """The results file named does not exist or cannot be read.""",
          (), _SCORE, "Pass the file `pddltools run` wrote."),
    _code("S041", E, SCORE, "a results line that is not JSON",
          """A line of a JSON-lines results file is not JSON, or JSON too deep or with a number too long to
          read (nested deeper than Python's reader follows, more than 4,300 digits); it is pointed at.""",
          (("results.jsonl", "{planner: lama}\n"),), _SCORE, "Write one JSON object per line."),
    _code("S042", E, SCORE, "a results line that is not a run",
          """A results line is JSON but not a run: not an object, a required field missing (planner,
          domain, problem, plan, time, status, config), or a field not of its kind: names (planner,
          config, track, domain) are strings, paths non-empty strings (the plan's may be null), time and
          cpu finite numbers of seconds of at least 0, memory a whole number of bytes.""",
          _run_line(time="fast"), _SCORE, "Give every field; time is a number of seconds."),
    _code("S043", E, SCORE, "a run with an unknown status",
          """A run's status is not one the scorer knows; the message lists those it does.""",
          _run_line(status="finished"), _SCORE, "Use one of the statuses listed (solved, for example)."),
    _code("S044", E, SCORE, "a run names a domain, problem or plan file that does not exist",
          """Paths in a results file are relative to the file; the domain, problem or plan file a run names
          is not there (no such file) or cannot be read. A missing plan is an error, never a silent score
          of 0: the scorer cannot tell a lost file from an invalid plan.""",
          _run_line(problem="p99.pddl"), _SCORE, "Keep the results file beside the tasks it names, or fix the path."),
    _code("S045", E, SCORE, "reference costs that cannot be read",
          """score --reference COSTS.TSV reads PROBLEM<TAB>COST lines: each problem's best known or optimal
          cost, or its cost bound (# comments, blank lines and a `problem<TAB>cost` header are skipped).
          The file does not exist, a line lacks a field, a cost is not a number of at least 0, or a
          problem is given twice with different costs; the line is pointed at.""",
          (*_run_line(), ("costs.tsv", "problem.pddl\tcheap\n")),
          ("score", "results.jsonl", "--rules", "ipc2023-sat", "--reference", "costs.tsv"),
          "Give each problem's cost as a number: problem.pddl<TAB>12."),
    _code("S046", E, SCORE, "a cost bound missing for the bounded-cost track",
          """ipc2018-bounded counts a plan only if it stays within its problem's cost bound, read from
          --reference; a solved problem has none there (or --reference was not given). Likewise `run
          --bounds`, which gives each planner its problem's bound as {bound}, for a problem the file
          has no bound for. Exit code 2.""",
          (*_run_line(plan="plan.txt"), ("plan.txt", "(drive t1 a b)\n")),
          ("score", "results.jsonl", "--rules", "ipc2018-bounded"),
          "Pass --reference with a PROBLEM<TAB>BOUND line for every problem."),
    _code("S050", E, SCORE, "a malformed command template",
          """A --learner or --generator template names a field that does not exist or is malformed
          ({seed}, {problem}, {domain}, {training} and {dck} are the fields).""",
          (("domain.pddl", _TYPED),),
          ("learn", "domain.pddl", "--planner", "p", "--learner", "learn {domian}", "--training", ".",
           "--out", "out", "--db", "results.sqlite"),
          "Use only the template's fields, in braces: {seed}, {problem}, {domain}, {training}, {dck}."),
    _code("S051", E, SCORE, "the problem generator failed",
          """The --generator command exited with an error (or wrote no problem) for a seed; the message
          gives the seed and the command's output. Example: --generator 'false'.""",
          fix="Run the generator by hand for that seed and fix it; it must write the problem file it is given."),
    _code("S052", E, SCORE, "a learning-track domain not laid out as the IPC-2023 track's",
          """learn --protocol ipc2023 reads each DOMAIN as the track's benchmark repository lays it out: a
          folder with domain.pddl, the training tasks in training/ and the test tasks in testing/ (each
          either directly or in easy/, medium/ and hard/). The folder has no domain.pddl, or no training
          or no test tasks. Exit code 2.""",
          (("blocks/domain.pddl", _TYPED),),
          ("learn", "--protocol", "ipc2023", "blocks", "--planner", "p", "--learner", "./learn", "--plan", "./plan",
           "--out", "out", "--db", "results.sqlite"),
          "Lay the domain out as ipc2023-learning/benchmarks does: blocks/domain.pddl, blocks/training/easy/p01.pddl, "
          "blocks/testing/easy/p01.pddl ..."),
    _code("S053", E, SCORE, "a learner that cannot be started",
          """learn --protocol ipc2023 could not start the --learner command: the program does not exist or
          may not be executed. Exit code 1.""",
          (("blocks/domain.pddl", _TYPED), ("blocks/training/p01.pddl", _TYPED_PROBLEM),
           ("blocks/testing/p01.pddl", _TYPED_PROBLEM)),
          ("learn", "--protocol", "ipc2023", "blocks", "--planner", "p", "--learner", "./no-such-learner", "--plan",
           "./plan", "--out", "out", "--db", "results.sqlite"),
          "Give the learner's path (or a command on PATH), executable: --learner ./learn."),
    _code("S060", E, SCORE, "the report cannot be written",
          """`pddltools report -o FILE` cannot write FILE (a missing folder, no permission).""",
          _run_line(), ("report", "results.jsonl", "-o", "missing/report.html"),
          "Write to a folder that exists and that you may write to."),
)

#: Every code, by name.
REGISTRY: dict[str, Code] = {entry.code: entry for entry in _ENTRIES}

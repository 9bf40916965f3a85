"""The parser's image: what a parse needs of Lark's analysis of a grammar, as plain data kept between runs.

Lark reads a `.lark` grammar, computes its LALR tables and its terminals, and wraps the builder's
methods in callbacks. Importing Lark and loading even its own cache cost a fresh process more than all
the rest of `pddltools validate`. What the lean driver (`lalr.FastParser`) takes of that work is data:
the tables, each rule's reduction plan (`reductions`) by the name of the builder's method, the
terminals joined into one pattern (`lexing.compile_terminals`) and as an automaton (`dfa`), and the
grammar's terminals and rules as the languages read them (their fast paths' words, their keywords).
`image_of(lark)` takes that data off a Lark parser; `load` keeps it in the user's cache folder as
`marshal` data, under a key made of the stamps (size, time of change) of the grammars, the modules that
derive the image and Lark's, so a changed grammar (or pddltools, or Lark) builds a new image on its first
use. Only then is Lark imported; a run that finds its image never imports it. The parts a parse by the
compiled loop never reads (`PACKED`) stay marshal data of their own until first used.

`Grammar` mirrors the attributes of a `Lark` object that the languages read (`terminals`, `rules`,
`lexer_conf`), so code reading them takes either. `tests/syntax/test_image.py` checks that a fresh
process validating a plan leaves Lark unimported, that an edited grammar gets a new image, and that the
image's parser and Lark's build the same trees.
"""

from __future__ import annotations

import marshal
import os
import sys
from collections.abc import Callable, Collection
from functools import cached_property, partial

from pddltools.syntax.lexing import CASELESS, ERROR, TokenPattern, compile_terminals

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    #: Plain data only (`marshal`): what each part of an image holds is described in `ParserImage`.
    Data = dict[str, Any]

# The kinds of a rule's callback in an image (see `bind`).
NAMED = 0  # the builder's method of the rule's name; Lark's default (a Tree), or a LIST, where it has none
VALUE = 1  # no callback: the one kept child is the value (`?rule: x`)
KEPT = 2  # a callable kept as it is: only in an image made in memory, never saved


class Pattern:
    """A terminal's pattern as Lark's `PatternStr`/`PatternRE` present it: `type` "str" or "re", the
    literal or expression `value`, and `to_regexp()`."""

    __slots__ = ("regexp", "type", "value")

    def __init__(self, type: str, value: str, regexp: str) -> None:
        self.type, self.value, self.regexp = type, value, regexp

    def to_regexp(self) -> str:
        return self.regexp


class Terminal:
    __slots__ = ("name", "pattern", "priority")

    def __init__(self, name: str, pattern: Pattern, priority: int) -> None:
        self.name, self.pattern, self.priority = name, pattern, priority


class Symbol:
    __slots__ = ("is_term", "name")

    def __init__(self, name: str, is_term: bool) -> None:
        self.name, self.is_term = name, is_term


class Rule:
    """A grammar rule as Lark's `Rule` presents it: `origin.name`, `alias`, `expansion[i].name`."""

    __slots__ = ("alias", "expansion", "origin")

    def __init__(self, origin: str, alias: str | None, expansion: list[tuple[str, bool]]) -> None:
        self.origin = Symbol(origin, False)
        self.alias = alias
        self.expansion = [Symbol(name, is_term) for name, is_term in expansion]


class LexerConf:
    __slots__ = ("g_regex_flags", "ignore", "terminals")

    def __init__(self, terminals: list[Terminal], ignore: list[str], flags: int) -> None:
        self.terminals, self.ignore, self.g_regex_flags = terminals, ignore, flags


class Grammar:
    """The grammar's terminals and rules, read as a `Lark` object's (`terminals`, `rules`, `lexer_conf`)."""

    def __init__(self, data: Data) -> None:
        self.terminals = [Terminal(name, Pattern(kind, value, regexp), priority)
                          for name, kind, value, regexp, priority in data["terminals"]]
        self.rules = [Rule(origin, alias, expansion) for origin, alias, expansion in data["rules"]]
        self.lexer_conf = LexerConf(self.terminals, list(data["ignore"]), data["flags"])


#: The parts of an image that a parse by the compiled loop never reads (the grammar's rules, the tables
#: the loop has as `driver` arrays): kept as marshal data of their own inside the image's, and read at
#: their first use (an error's expected terminals, Lark's loop, a language reading the rules), which a
#: fresh `validate` of a valid plan never makes (about 1.5 ms of reading).
PACKED = ("rules", "shifts_reduces", "gotos")


class _Unpacked(dict[str, "Any"]):
    """An image's data as `load` reads it: the `PACKED` parts unpacked at their first use. Equality and
    every way of reading the values see the parts themselves."""

    def __getitem__(self, key: str) -> Any:
        value = dict.__getitem__(self, key)
        if type(value) is bytes and key in PACKED:
            value = marshal.loads(value)
            dict.__setitem__(self, key, value)
        return value

    def get(self, key: str, default: Any = None) -> Any:
        return self[key] if key in self else default  # noqa: SIM401  # dict.get would not unpack

    def unpacked(self) -> Data:
        return {key: self[key] for key in self}

    def __eq__(self, other: object) -> bool:
        return self.unpacked() == (other.unpacked() if isinstance(other, _Unpacked) else other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = None  # as a dict's

    def values(self) -> Any:
        return self.unpacked().values()

    def items(self) -> Any:
        return self.unpacked().items()


def _packed(data: Data) -> Data:
    """`data` as `load` writes it: the `PACKED` parts as marshal data of their own."""
    return {key: marshal.dumps(value) if key in PACKED else value for key, value in data.items()}


class ParserImage:
    """One grammar's parser as data (`data`, what `load` keeps) and the parts read off it.

    `data` holds: `terminals` (name, "str"/"re", value, regular expression, priority) and `ignore`,
    `flags` (Lark's regex flags) and `rules` (origin, alias, [(symbol, is terminal)]): the grammar;
    `start_states`, `end_states` and per state `shifts_reduces` (terminal: target state, or ~rule for a
    reduction) and `gotos` (nonterminal: state): the tables; `plans`, per reduction rule (kind, name,
    size, origin, keep, expands) (`bind`); `pattern`: the terminals joined (`lexing.TokenPattern`'s
    parts: pattern, flags, alternatives, ignore, keywords, ignored) and `groups` (per group of that
    pattern, its terminal's name or None); `automaton`: `dfa.Automaton`'s fields, or None; `driver`: the
    tables numbered for the compiled loop (`driver_tables`)."""

    def __init__(self, data: Data, key: str | None = None) -> None:
        self.data = data
        #: what the image was kept under (`image_key`), where `load` read or made it: what else is
        #: derived from the same grammar may be kept under it too
        self.key = key

    @cached_property
    def grammar(self) -> Grammar:
        return Grammar(self.data)

    def savable(self) -> bool:
        return all(plan[0] != KEPT for plan in self.data["plans"])


def token_pattern(parts: tuple[Any, ...], compile: Callable[[str, int], Any]) -> TokenPattern:
    """The `TokenPattern` of an image's `pattern` parts; `compile(pattern, flags)` makes its regular
    expression (the driver passes a lazy one: the compiled loop lexes by the automaton)."""
    pattern, flags, alternatives, ignore, keywords, ignored = parts
    return TokenPattern(compile(pattern, flags), tuple(alternatives), frozenset(ignore), keywords, tuple(ignored))


def bind(plans: list[tuple[Any, ...]], builder: object) -> list[tuple[Any, int, str, tuple[int, ...] | None]]:
    """Each rule's (callback, size, origin, keep) for `builder`, as Lark would have wrapped it
    (`reductions`): a NAMED rule calls the builder's method of its name; without one, an inlined `_rule`
    that does not expand a single child is a `LIST` to splice, any other rule a `Tree` (Lark's default
    callback). A KEPT rule keeps the callable its image holds."""
    from pddltools.syntax.reductions import LIST

    out: list[tuple[Any, int, str, tuple[int, ...] | None]] = []
    for kind, name, size, origin, keep, expands in plans:
        if kind == NAMED:
            method = getattr(builder, name, None)
            if method is not None:
                callback = method
            elif name.startswith("_") and not expands:
                callback = LIST
            else:
                callback = partial(_default_tree, builder, name)
        else:
            callback = None if kind == VALUE else name
        out.append((callback, size, origin, keep))
    return out


def _default_tree(builder: object, name: str, children: list[Any]) -> Any:
    """Lark's value for a rule the builder has no method for: its `__default__`, else a `Tree`."""
    default = getattr(builder, "__default__", None)
    if default is not None:
        return default(name, children, None)
    from lark import Tree

    return Tree(name, children)


# -------------------------------------------------------------------------------------------------
# Made from Lark (imported only here)


def image_of(lark: Any, lowercase: bool) -> ParserImage:
    """The image of a Lark LALR parser (its transformer's callbacks by name where they are its methods),
    lexing case-insensitively where `lowercase` (as `lexing.GrammarLexer` does)."""
    from lark.parsers.lalr_analysis import Shift

    from pddltools.syntax import dfa
    from pddltools.syntax.reductions import LIST, direct_reductions

    lalr = lark.parser.parser  # ParsingFrontend -> LALR_Parser
    table = lalr._parse_table
    callbacks = lalr.parser.callbacks
    plans = direct_reductions(lark, callbacks)
    transformer = lark.options.transformer
    state_ids = {state: i for i, state in enumerate(table.states)}
    rule_ids: dict[Any, int] = {}
    rule_plans: list[tuple[Any, ...]] = []
    shifts_reduces: list[dict[str, int]] = []
    gotos: list[dict[str, int]] = []
    for entries in table.states.values():
        acts: dict[str, int] = {}
        goto: dict[str, int] = {}
        for key, (action, arg) in entries.items():
            symbol = sys.intern(str(key))  # Lark's names are Tokens: keep plain strings
            if action is Shift:
                if symbol.isupper() or symbol == "$END":
                    acts[symbol] = state_ids[arg]
                else:
                    goto[symbol] = state_ids[arg]
                continue
            rule = rule_ids.get(arg)
            if rule is None:
                rule = rule_ids[arg] = len(rule_plans)
                rule_plans.append(_plan_data(arg, plans[arg], transformer, callbacks[arg], LIST))
            acts[symbol] = ~rule
        shifts_reduces.append(acts)
        gotos.append(goto)
    conf = lark.lexer_conf
    flags = conf.g_regex_flags | (CASELESS if lowercase else 0)
    compiled = compile_terminals(list(conf.terminals), set(conf.ignore), flags, lowercase)
    automaton = dfa.build(compiled.alternatives, compiled.pattern.flags)
    return with_driver_tables(ParserImage(_plain({
        "terminals": [(t.name, t.pattern.type, t.pattern.value, t.pattern.to_regexp(), t.priority)
                      for t in lark.terminals],
        "ignore": list(conf.ignore),
        "flags": conf.g_regex_flags,
        "rules": [(r.origin.name, r.alias, [(s.name, bool(s.is_term)) for s in r.expansion]) for r in lark.rules],
        "start_states": {start: state_ids[s] for start, s in table.start_states.items()},
        "end_states": {start: state_ids[s] for start, s in table.end_states.items()},
        "shifts_reduces": shifts_reduces,
        "gotos": gotos,
        "plans": rule_plans,
        "pattern": (compiled.pattern.pattern, compiled.pattern.flags, list(compiled.alternatives),
                    sorted(compiled.ignore), compiled.keywords, list(compiled.ignored)),
        "groups": [None] + [next((n for n, i in compiled.pattern.groupindex.items() if i == index), None)
                            for index in range(1, compiled.pattern.groups + 1)],
        "automaton": None if automaton is None else (
            automaton.classes, automaton.nclasses, automaton.transitions.tobytes(), automaton.accepts.tobytes(),
            list(automaton.terminals)),
    })))


def with_driver_tables(image: ParserImage) -> ParserImage:
    """`image` with its tables numbered for the compiled loop (`driver_tables`), kept with it."""
    image.data["driver"] = driver_tables(image.data)
    return image


def driver_tables(data: Data, fast_paths: Collection[str] = ()) -> Data:
    """The compiled loop's arrays of an image's tables: `terminals` (sorted) and `terminal_ids`; per state
    and terminal the `action` (0 none, a target state + 1, or -(rule + 1)) and per state and nonterminal
    the `goto` state (or -1), as bytes of C ints; `nonterminals` (their count); each rule's `origins`
    (its nonterminal's number); per group of the pattern its terminal's number (`groups`), per terminal
    its `keywords` (word: terminal number) or None, and the `automaton` with terminal numbers."""
    from array import array

    from pddltools.syntax.dfa import IGNORED

    keywords = data["pattern"][4]
    names = {n for n in data["groups"] if n is not None} | {_END, ERROR} | set(fast_paths)
    names |= {t for table in keywords.values() for t in table.values()}
    names |= {t for row in data["shifts_reduces"] for t in row}
    terminals = sorted(names)
    terminal_id = {t: i for i, t in enumerate(terminals)}
    nonterminals = sorted({n for gotos in data["gotos"] for n in gotos} | {plan[3] for plan in data["plans"]})
    nonterminal_id = {n: i for i, n in enumerate(nonterminals)}
    nstates = len(data["shifts_reduces"])
    action = array("i", bytes(4 * nstates * len(terminals)))
    for state, row in enumerate(data["shifts_reduces"]):
        base = state * len(terminals)
        for symbol, value in row.items():
            action[base + terminal_id[symbol]] = value + 1 if value >= 0 else value  # ~rule is -(rule + 1)
    goto = array("i", [-1]) * (nstates * len(nonterminals))
    for state, gotos in enumerate(data["gotos"]):
        base = state * len(nonterminals)
        for symbol, target in gotos.items():
            goto[base + nonterminal_id[symbol]] = target
    found = data["automaton"]
    return {
        "terminals": terminals, "terminal_ids": terminal_id, "action": action.tobytes(), "goto": goto.tobytes(),
        "nonterminals": len(nonterminals), "origins": [nonterminal_id[plan[3]] for plan in data["plans"]],
        "groups": tuple(-1 if name is None else terminal_id[name] for name in data["groups"]),
        "keywords": tuple({word: terminal_id[t] for word, t in keywords[name].items()} if name in keywords else None
                          for name in terminals),
        "automaton": None if found is None else (found[0], found[1], found[2], found[3], tuple(
            IGNORED if name is None else terminal_id[name] for name in found[4])),
    }


_END = "$END"


def _plain(value: Any) -> Any:
    """`value` of builtin types only (Lark's names are `Token`s, a subclass of str; flags are enums), so
    that marshal takes it; interned strings, as the driver compares terminal names by identity first."""
    kind = type(value)
    if kind is str or isinstance(value, str):
        return sys.intern(str(value))
    if kind is bool or value is None or kind is bytes:
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, dict):
        return {_plain(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, tuple):
        return tuple(_plain(v) for v in value)
    return value  # a callable of a KEPT plan: the image is then not saved


def _plan_data(rule: Any, plan: tuple[Any, Any], transformer: object, lark_callback: Any, list_value: Any
               ) -> tuple[Any, ...]:
    """(kind, name, size, origin, keep, expands) of one reduction (see `bind`)."""
    from lark.parse_tree_builder import ExpandSingleChild

    callback, keep = plan
    name = rule.alias or rule.options.template_source or rule.origin.name
    size, origin = len(rule.expansion), sys.intern(str(rule.origin.name))
    expands = _expands(lark_callback, ExpandSingleChild)
    if callback is None:
        return (VALUE, None, size, origin, keep, expands)
    method = getattr(transformer, name, None)
    # Lark's default (a Tree) only where `bind` would make one: an inlined `_rule` is a LIST there, but
    # keeps Lark's Tree where `direct_reductions` left every rule to Lark's callbacks
    tree = method is None and (not name.startswith("_") or expands)
    named = (callback is list_value or (method is not None and callback == method)
             or (isinstance(callback, partial) and callback.args == (name,) and tree))
    return (NAMED if named else KEPT, name if named else callback, size, origin, keep, expands)


def _expands(callback: Any, kind: type) -> bool:
    """Whether Lark's callback chain holds an `ExpandSingleChild` (a `?rule`)."""
    while callback is not None:
        if type(callback) is kind:
            return True
        callback = getattr(callback, "node_builder", None)
    return False


# -------------------------------------------------------------------------------------------------
# Kept between runs


def _stamp(path: Path | str) -> bytes:
    try:
        status = os.stat(path)
    except OSError:
        return b"-"
    return b"%d:%d" % (status.st_mtime_ns, status.st_size)


def image_key(tag: str, options: str = "") -> str:
    """What an image of `tag` depends on: every grammar the package ships (a grammar may import another),
    the options Lark reads it with, the modules that derive the image, Lark's (its version's tables), all
    by size and time of change (an installation's do not change, a developer's edit rebuilds), and the
    Python that reads the marshal data. Stamps, not the grammars' text: reading and summing them (with
    `zlib`) cost a fresh process most of a millisecond."""
    folder = _grammar_folder()
    with os.scandir(folder) as entries:
        grammars = sorted(entry.path for entry in entries if entry.name.endswith(".lark"))
    here = os.path.dirname(__file__)
    stamped = [*grammars, *(os.path.join(here, f"{name}.py") for name in ("image", "lexing", "dfa", "reductions")),
               _lark_init()]
    code = b"|".join(os.path.basename(path).encode() + b":" + _stamp(path) if path else b"-" for path in stamped)
    code += b"|" + os.path.realpath(folder).encode() + b"|" + sys.implementation.cache_tag.encode()
    code += b"|" + options.encode()
    return f"{tag}-{_digest(code)}"


def _digest(data: bytes) -> str:
    """A 64-bit digest of `data` in hex (FNV-1a over its 8-byte words): a file name for a key of a few
    hundred bytes, without importing a module for it."""
    data += b"\0" * (-len(data) % 8)
    value = 0xCBF29CE484222325
    for at in range(0, len(data), 8):
        value = ((value ^ int.from_bytes(data[at:at + 8], "little")) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return f"{value:016x}"


def grammar_folder() -> Path:
    """The folder of the grammars the package ships (`pddltools.grammars`), found without
    `importlib.resources`, whose readers a fresh process would import for it."""
    from pathlib import Path

    return Path(_grammar_folder())


def _grammar_folder() -> str:
    """`grammar_folder` as text, for the image's key: without pathlib (a fresh process's start-up)."""
    import pddltools

    # what importlib.util.find_spec does for a sub-package, whose import costs a fresh process
    # `contextlib` and `importlib._abc`: the meta path's finders asked in turn, in the package's folders
    spec = None
    for finder in sys.meta_path:
        find = getattr(finder, "find_spec", None)
        spec = find("pddltools.grammars", pddltools.__path__) if find is not None else None
        if spec is not None:
            break
    assert spec is not None and spec.submodule_search_locations, "pddltools.grammars is not installed"
    return str(next(iter(spec.submodule_search_locations)))


def _lark_init() -> str | None:
    """The file of Lark's package, found without importing it (its stamp stands for its version)."""
    from importlib.machinery import PathFinder

    spec = PathFinder.find_spec("lark")
    return spec.origin if spec is not None else None


def _cache_path(key: str) -> str:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "pddltools", f"parser-{key}.image")


#: False: every parser is made from Lark (tests compare the two).
enabled = True


def load(tag: str, build: Callable[[], ParserImage], *, options: str = "") -> ParserImage:
    """The image of grammar `tag` read with Lark's `options` (as text) from the user's cache, else
    `build()` (which imports Lark) kept there for the next run. A missing, unreadable or unwritable
    cache costs the build, nothing more."""
    if not enabled:
        return build()
    path = _cache_path(image_key(tag, options))
    name = os.path.basename(path)
    try:
        with open(path, "rb") as kept:
            data = marshal.loads(kept.read())
    except (OSError, EOFError, ValueError, TypeError):
        data = None
    if isinstance(data, dict):
        return ParserImage(_Unpacked(data), name)
    image = build()
    image.key = name
    if image.savable():
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            temporary = f"{path}.{os.getpid()}.tmp"
            with open(temporary, "wb") as out:
                out.write(marshal.dumps(_packed(image.data)))
            os.replace(temporary, path)  # whole or not at all: another process may be reading it
        except OSError:
            pass
        else:
            _prune(os.path.dirname(path))
    return image


#: An image not rebuilt for this long is taken as left behind by an edit or an old installation.
STALE_SECONDS = 30 * 24 * 3600


def _prune(folder: str) -> None:
    """Remove the images made more than `STALE_SECONDS` ago. Only at a build, which is rare: images
    of other installations sharing the folder are younger than that while they are in use, or cost one
    rebuild if not."""
    import time
    from pathlib import Path

    limit = time.time() - STALE_SECONDS
    try:
        for old in Path(folder).glob("parser-*.image"):
            if old.stat().st_mtime < limit:
                old.unlink()
    except OSError:
        pass

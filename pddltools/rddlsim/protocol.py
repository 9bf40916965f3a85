"""RDDLSim's messages and framing as its Java client and server really exchange them.

Framing (both ways): the XML header, a newline, one element written without indentation, one NUL
byte. Readers buffer until the NUL; the header is optional on input. The element text is US-ASCII
(anything else as character references). XML is parsed with defusedxml, so entity expansion, external
entities and DTDs are refused. Numbers print as Java's `Double.toString` does (`9.25`, `1.0E-4`),
because RDDLSim's clients and logs expect that spelling.

Differences from RDDLSim's PROTOCOL.txt (what the captures in ../shared/rddlsim show): session-init
carries `task` (base64), round-init has no session-id and says `round-left`, round-end says
`round-reward` (not `rount-reward`) and counts rounds from 0, neither end message has `time-used`.
"""

from __future__ import annotations

import asyncio
import math
import re
from dataclasses import dataclass
from decimal import Decimal
from xml.etree.ElementTree import Element

from defusedxml import DefusedXmlException  # type: ignore[import-untyped]
from defusedxml.ElementTree import fromstring  # type: ignore[import-untyped]

from pddltools.code_ids import CodeId
from pddltools.diagnostics import Error, error
from pddltools.rddl_simulation.grounding import Key, Value
from pddltools.rddl_simulation.tuples import Vector, format_vector

HEADER = b'<?xml version="1.0" encoding="UTF-8"?>\n'
END = b"\0"
#: no RDDLSim message comes near this; a peer that sends more is refused rather than buffered
MAX_MESSAGE = 1 << 20


class ProtocolError(Error):
    """A message that is not one RDDLSim sends: malformed XML, a wrong root element, a missing field."""


class MessageTooLarge(ProtocolError):
    """More than `MAX_MESSAGE` bytes without a NUL."""


class Stalled(ProtocolError):
    """Part of a message arrived, then nothing more for too long."""


def _fail(code: CodeId, message: str) -> ProtocolError:
    return ProtocolError([error(code, message)])


# ---------------------------------------------------------------------------------------------------
# values


def java_double(x: float) -> str:
    """`x` as Java's `Double.toString` prints it: decimal in [1e-3, 1e7), else `d.dddE±n`."""
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0:
        return "-0.0" if math.copysign(1.0, x) < 0 else "0.0"
    if 1e-3 <= abs(x) < 1e7:
        text = repr(float(x))
        if "e" in text or "E" in text:  # repr chose an exponent inside Java's decimal range
            text = format(Decimal(text), "f")
        return text if "." in text else text + ".0"
    sign, digits, exponent = Decimal(repr(float(x))).as_tuple()
    assert isinstance(exponent, int)
    shown = "".join(map(str, digits)).rstrip("0") or "0"
    power = len(digits) + exponent - 1
    return ("-" if sign else "") + shown[0] + "." + (shown[1:] or "0") + f"E{power}"


def format_value(value: Value) -> str:
    """A fluent value on the wire: `true`/`false`, Java doubles, ints, enum values with `@`, object names."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return java_double(value)
    if isinstance(value, Vector):
        # RDDL2 tuples as RDDLSim's toString prints them: `< @1: 0.2656, @2: 0.2109 >`, objects with `$`
        return format_vector(value, format_value)
    return str(value)


def parse_value(text: str, range_name: str) -> Value:
    """A value as RDDLSim reads it for a fluent of `range_name`: any boolean other than `true` is false."""
    text = text.strip()
    if range_name == "bool":
        return text.lower() == "true"  # Java's Boolean.valueOf: `yes` reads as false
    if range_name == "int":
        return int(text)
    if range_name == "real":
        return float(text)
    if text.startswith("<"):
        return parse_tuple(text)
    return text


_TUPLE_TOKEN = re.compile(r"\s*(<|>|,|:|[^\s<>,:]+)")


def parse_tuple(text: str) -> Vector:
    """An RDDL2 tuple as RDDLSim prints it (`< $col1: < @x: 1, @y: 0.5 >, ... >`) back into a `Vector`:
    labels as the simulator keys them (objects without `$`), ints, Java doubles, names."""
    tokens = [m.group(1) for m in _TUPLE_TOKEN.finditer(text)]
    if "".join(tokens) != re.sub(r"\s+", "", text):
        raise ValueError(f"not a tuple value: {text!r}")
    position = 0

    def take(expected: str | None = None) -> str:
        nonlocal position
        if position >= len(tokens) or (expected is not None and tokens[position] != expected):
            raise ValueError(f"not a tuple value: {text!r}")
        position += 1
        return tokens[position - 1]

    def value() -> Value:
        if tokens[position:position + 1] == ["<"]:
            return vector()
        word = take()
        if re.fullmatch(r"-?[0-9]+", word):
            return int(word)
        if re.fullmatch(r"-?(?:[0-9]+\.[0-9]+(?:E-?[0-9]+)?|Infinity)|NaN", word):
            return float(word.replace("E", "e"))
        return {"true": True, "false": False}.get(word, word)

    def vector() -> Vector:
        take("<")
        entries: list[tuple[str, Value]] = []
        while True:
            label = take()
            take(":")
            entries.append((label[1:] if label.startswith("$") else label, value()))
            if take() == ">":
                return Vector(tuple(entries))

    result = vector()
    if position != len(tokens):
        raise ValueError(f"not a tuple value: {text!r}")
    return result


# ---------------------------------------------------------------------------------------------------
# messages


@dataclass(frozen=True)
class SessionRequest:
    problem_name: str
    client_name: str
    input_language: str | None = None
    no_header: bool = False


@dataclass(frozen=True)
class SessionInit:
    task: str  # base64
    session_id: int
    num_rounds: int
    time_allowed: float  # milliseconds


@dataclass(frozen=True)
class RoundRequest:
    pass


@dataclass(frozen=True)
class RoundInit:
    round_num: int
    round_left: int
    time_left: float


@dataclass(frozen=True)
class Turn:
    turn_num: int
    time_left: float
    immediate_reward: float
    #: (name, args, value text) for each observed fluent; None for `<no-observed-fluents/>`
    fluents: tuple[tuple[str, tuple[str, ...], str], ...] | None


@dataclass(frozen=True)
class Actions:
    actions: tuple[tuple[str, tuple[str, ...], str], ...] = ()


@dataclass(frozen=True)
class RoundEnd:
    instance_name: str
    client_name: str
    round_num: int
    round_reward: float
    turns_used: int
    time_left: int
    immediate_reward: float


@dataclass(frozen=True)
class SessionEnd:
    instance_name: str
    total_reward: float
    rounds_used: int
    client_name: str
    session_id: int
    time_left: int


@dataclass(frozen=True)
class ResourceRequest:
    pass


@dataclass(frozen=True)
class ResourceNotification:
    time_left: float
    memory_left: str = "enough"


Message = (SessionRequest | SessionInit | RoundRequest | RoundInit | Turn | Actions | RoundEnd | SessionEnd
           | ResourceRequest | ResourceNotification)


def _escape(text: str) -> str:
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return text.encode("ascii", "xmlcharrefreplace").decode("ascii")


def _tag(name: str, value: object) -> str:
    if isinstance(value, float):
        value = java_double(value)
    return f"<{name}>{_escape(str(value))}</{name}>"


def _fluent(outer: str, prefix: str, name: str, args: tuple[str, ...], value: str) -> str:
    inner = _tag(f"{prefix}-name", name) + "".join(_tag(f"{prefix}-arg", a) for a in args)
    return f"<{outer}>{inner}{_tag(f'{prefix}-value', value)}</{outer}>"


def element_text(message: Message) -> str:
    """The element of `message`, children in the order RDDLSim writes them."""
    if isinstance(message, SessionRequest):
        body = _tag("problem-name", message.problem_name) + _tag("client-name", message.client_name)
        if message.input_language:
            body += _tag("input-language", message.input_language)
        if message.no_header:
            body += "<no-header/>"
        return f"<session-request>{body}</session-request>"
    if isinstance(message, SessionInit):
        return ("<session-init>" + _tag("task", message.task) + _tag("session-id", message.session_id)
                + _tag("num-rounds", message.num_rounds) + _tag("time-allowed", float(message.time_allowed))
                + "</session-init>")
    if isinstance(message, RoundRequest):
        return "<round-request/>"
    if isinstance(message, RoundInit):
        return ("<round-init>" + _tag("round-num", message.round_num) + _tag("round-left", message.round_left)
                + _tag("time-left", float(message.time_left)) + "</round-init>")
    if isinstance(message, Turn):
        if message.fluents is None:
            observed = "<no-observed-fluents/>"
        else:
            observed = "".join(_fluent("observed-fluent", "fluent", n, a, v) for n, a, v in message.fluents)
        return ("<turn>" + _tag("turn-num", message.turn_num) + _tag("time-left", float(message.time_left))
                + _tag("immediate-reward", float(message.immediate_reward)) + observed + "</turn>")
    if isinstance(message, Actions):
        if not message.actions:
            return "<actions/>"
        return "<actions>" + "".join(_fluent("action", "action", n, a, v) for n, a, v in message.actions) \
            + "</actions>"
    if isinstance(message, RoundEnd):
        return ("<round-end>" + _tag("instance-name", message.instance_name)
                + _tag("client-name", message.client_name) + _tag("round-num", message.round_num)
                + _tag("round-reward", float(message.round_reward)) + _tag("turns-used", message.turns_used)
                + _tag("time-left", int(message.time_left))
                + _tag("immediate-reward", float(message.immediate_reward)) + "</round-end>")
    if isinstance(message, SessionEnd):
        return ("<session-end>" + _tag("instance-name", message.instance_name)
                + _tag("total-reward", float(message.total_reward)) + _tag("rounds-used", message.rounds_used)
                + _tag("client-name", message.client_name) + _tag("session-id", message.session_id)
                + _tag("time-left", int(message.time_left)) + "</session-end>")
    if isinstance(message, ResourceRequest):
        return "<resource-request/>"
    return ("<resource-notification>" + _tag("time-left", float(message.time_left))
            + _tag("memory-left", message.memory_left) + "</resource-notification>")


def encode(message: Message, header: bool = True) -> bytes:
    """One framed message; `header=False` is what the Java server sends after `<no-header/>` (no NUL either)."""
    text = element_text(message).encode("ascii")
    return HEADER + text + END if header else text


# ---------------------------------------------------------------------------------------------------
# decoding


def parse_element(data: bytes) -> Element:
    """The root element of one message (header optional); `ProtocolError` for anything not plain XML."""
    try:
        root: Element = fromstring(data.strip(b"\0 \t\r\n"))
        return root
    except DefusedXmlException as exc:
        raise _fail("R350", f"refused XML ({type(exc).__name__}): entities and DTDs are not allowed") from None
    except Exception as exc:  # ElementTree's ParseError and expat's errors have no shared base worth naming
        raise _fail("R350", f"malformed XML: {exc}") from None


def _text(element: Element, tag: str, default: str | None = None) -> str:
    child = element.find(tag)
    if child is None:
        if default is not None:
            return default
        raise _fail("R351", f"<{element.tag}> has no <{tag}>")
    return (child.text or "").strip()


#: a number as Java's `Double.parseDouble` reads it (decimal, `NaN`, `Infinity`): not Python's wider
#: `float` syntax, which also takes `1_0` and other scripts' digits
_JAVA_NUMBER = re.compile(r"[+-]?(?:NaN|Infinity|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)[fFdD]?")


def _number(element: Element, tag: str, kind: type[int] | type[float]) -> float:
    text = _text(element, tag)
    shown = repr(text) if len(text) <= 60 else repr(text[:60]) + "..."
    if not _JAVA_NUMBER.fullmatch(text):
        raise _fail("R351", f"<{tag}> of <{element.tag}> is not a number: {shown}")
    value = float(text.rstrip("fFdD"))
    if kind is int and not (math.isfinite(value) and abs(value) < 2**63):
        raise _fail("R351", f"<{tag}> of <{element.tag}> is not a whole number in range: {shown}")
    return int(value) if kind is int else value


def _fluents(element: Element, outer: str, prefix: str) -> tuple[tuple[str, tuple[str, ...], str], ...]:
    found = []
    for item in element.findall(outer):
        name = _text(item, f"{prefix}-name")
        args = tuple((a.text or "").strip() for a in item.findall(f"{prefix}-arg"))
        found.append((name, args, _text(item, f"{prefix}-value", "")))
    return tuple(found)


def decode(data: bytes) -> Message:
    """The message in `data` (one frame, NUL optional)."""
    root = parse_element(data)
    tag = root.tag
    if tag == "session-request":
        language = root.find("input-language")
        return SessionRequest(_text(root, "problem-name"), _text(root, "client-name", ""),
                              (language.text or "").strip() if language is not None else None,
                              root.find("no-header") is not None)
    if tag == "session-init":
        return SessionInit(_text(root, "task", ""), int(_number(root, "session-id", int)),
                           int(_number(root, "num-rounds", int)), _number(root, "time-allowed", float))
    if tag == "round-request":
        return RoundRequest()
    if tag == "round-init":
        return RoundInit(int(_number(root, "round-num", int)), int(_number(root, "round-left", int)),
                         _number(root, "time-left", float))
    if tag == "turn":
        fluents = None if root.find("no-observed-fluents") is not None else \
            _fluents(root, "observed-fluent", "fluent")
        return Turn(int(_number(root, "turn-num", int)), _number(root, "time-left", float),
                    _number(root, "immediate-reward", float), fluents)
    if tag == "actions":
        return Actions(_fluents(root, "action", "action"))
    if tag == "round-end":
        return RoundEnd(_text(root, "instance-name", ""), _text(root, "client-name", ""),
                        int(_number(root, "round-num", int)), _number(root, "round-reward", float),
                        int(_number(root, "turns-used", int)), int(_number(root, "time-left", int)),
                        _number(root, "immediate-reward", float))
    if tag == "session-end":
        return SessionEnd(_text(root, "instance-name", ""), _number(root, "total-reward", float),
                          int(_number(root, "rounds-used", int)), _text(root, "client-name", ""),
                          int(_number(root, "session-id", int)), int(_number(root, "time-left", int)))
    if tag == "resource-request":
        return ResourceRequest()
    if tag == "resource-notification":
        return ResourceNotification(_number(root, "time-left", float), _text(root, "memory-left", ""))
    raise _fail("R352", f"unexpected root element <{tag}>")


def observed(values: dict[Key, Value]) -> tuple[tuple[str, tuple[str, ...], str], ...]:
    """The `observed-fluent`s of a turn, fluents in the order RDDLSim sends them (`java_map_order`),
    each fluent's groundings in object order."""
    order = {name: i for i, name in enumerate(java_map_order(list(dict.fromkeys(n for n, _ in values))))}
    keys = sorted(values, key=lambda key: order[key[0]])  # stable: groundings keep their order
    return tuple((name, args, format_value(values[(name, args)])) for name, args in keys)


def _java_string_hash(text: str) -> int:
    h = 0
    for char in text:
        h = (31 * h + ord(char)) & 0xFFFFFFFF
    return h


def java_map_order(names: list[str]) -> list[str]:
    """`names` (inserted in this order) as a Java `HashMap` keyed by RDDLSim's `PVAR_NAME` iterates them.

    RDDLSim writes a turn's fluents by walking such a map, and the captures show that order. A
    `PVAR_NAME` hashes as the Java `String.hashCode` of its name in lower case with `-` read as `_`;
    the map starts with 16 buckets and doubles whenever it is more than 3/4 full; bucket `i` holds the
    keys whose spread hash `h ^ (h >>> 16)` ends in `i`, in insertion order.
    """
    buckets = 16
    while len(names) > buckets * 3 // 4:
        buckets *= 2

    def bucket(name: str) -> int:
        h = _java_string_hash(name.replace("-", "_").lower())
        return (h ^ (h >> 16)) & (buckets - 1)
    return sorted(names, key=bucket)


# ---------------------------------------------------------------------------------------------------
# streams


#: bytes a second a message must arrive at, beyond its `stall` seconds: a peer trickling a byte a second
#: (which would reset a per-read timeout for ever) is cut off, a slow but real link is not
MIN_RATE = 16 * 1024


def _stalled(stall: float | None) -> str:
    return (f"half a message, then nothing more within {stall or 0:g} s (a message must arrive whole within --stall "
            f"seconds, plus one for each {MIN_RATE // 1024} KB)")


class Reader:
    """Frames from a stream: buffers until NUL, refuses more than `limit` bytes without one.

    Another protocol's framing (mdpsim's: one whole element, no NUL) overrides `split` and the codes and
    words of its errors, and keeps the limits."""

    #: the codes of a message over the limit, one cut short by the peer's close, and a stalled one
    too_large: CodeId = "R353"
    cut_short: CodeId = "R354"
    stalled_code: CodeId = "R355"
    #: what ends a message, for the error over the limit
    ending = "its NUL end"

    def __init__(self, stream: asyncio.StreamReader, limit: int = MAX_MESSAGE) -> None:
        self.stream = stream
        self.limit = limit
        self.buffer = bytearray()
        self.began: float | None = None  # when the first byte of the message being read arrived

    @property
    def partial(self) -> bool:
        """Part of a message has arrived, its NUL not yet."""
        return bool(self.buffer.strip())

    def split(self) -> bytes | None:
        """The first whole frame taken off the buffer (without its NUL), or None while there is none."""
        end = self.buffer.find(END)
        if end < 0:
            return None
        frame = bytes(self.buffer[:end])
        del self.buffer[:end + 1]
        return frame

    async def read_frame(self, deadline: float | None = None, stall: float | None = None) -> bytes | None:
        """The next frame without its NUL, or None when the peer closed cleanly between messages.

        `deadline` (event-loop time) bounds the wait for a whole message (`TimeoutError`); `stall`
        bounds the time a message may take once its first byte is in, `stall` seconds plus one for each
        `MIN_RATE` bytes (`Stalled`): neither a half message nor one trickled a byte at a time can hold
        on until the session's time is gone.
        """
        loop = asyncio.get_running_loop()
        while True:
            frame = self.split()
            if frame is not None:
                self.began = loop.time() if self.partial else None  # the next message's start, if it began
                if frame.strip():
                    return frame
                continue  # stray NULs between messages
            if len(self.buffer) > self.limit:
                raise MessageTooLarge([error(self.too_large, f"a message over {self.limit} bytes without "
                                             f"{self.ending}")])
            wait = None if deadline is None else deadline - loop.time()
            if stall is not None and self.partial:
                if self.began is None:
                    self.began = loop.time()
                allowed = self.began + stall + len(self.buffer) / MIN_RATE - loop.time()
                if allowed <= 0 and (deadline is None or loop.time() < deadline):
                    raise Stalled([error(self.stalled_code, _stalled(stall))])
                wait = allowed if wait is None else min(wait, allowed)
            if wait is not None and wait <= 0:
                raise TimeoutError
            try:
                async with asyncio.timeout(wait):  # cheaper than wait_for: no task per read
                    chunk = await self.stream.read(65536)
            except TimeoutError:
                if self.partial and (deadline is None or loop.time() < deadline):
                    raise Stalled([error(self.stalled_code, _stalled(stall))]) from None
                raise
            if not chunk:
                if self.partial:
                    raise _fail(self.cut_short, "the peer closed in the middle of a message")
                return None
            self.buffer += chunk

    async def read(self, deadline: float | None = None, stall: float | None = None) -> Message | None:
        frame = await self.read_frame(deadline, stall)
        return None if frame is None else decode(frame)

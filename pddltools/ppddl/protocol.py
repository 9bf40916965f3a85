"""mdpsim's client/server messages, byte for byte as its sources write them (`mdpserver.cc`, `client.cc`,
`states.cc`, `strxml.cc` of hlsyounes/mdpsim), the protocol of the IPPC 2004-2008.

Framing: no header and no end byte. mdpsim reads a message as one element, tag by tag, until the first
element closes; text between messages is skipped. The server ends each of its messages with a newline
(`std::endl`); the client sends none. Text is written as it is, without escapes (PDDL names need none).

Server to client:

    <session-init><sessionID>1</sessionID><setting><rounds>30</rounds><allowed-time>900000</allowed-time>
        <allowed-turns>1000</allowed-turns></setting></session-init>
    <round-init><sessionID>1</sessionID><round>1</round><time-left>899998</time-left>
        <rounds-left>29</rounds-left></round-init>
    <state>[<is-goal/>]<atom><predicate>on</predicate><term>b1</term><term>b2</term></atom>...
        <fluent><function>reward</function><value>-3/2</value></fluent>...</state>
    <error>bad action "(pick-up b9)"</error>         (also `disabled action`, `bad problem "p"`)
    <end-round><sessionID>1</sessionID><round>1</round><state>...</state>[<goal-reached/>]
        <time-spent>12</time-spent><turns-used>7</turns-used></end-round>
    <end-session><sessionID>1</sessionID><rounds>30</rounds><goals><failed>3</failed><reached>
        <successes>27</successes>[<time-average>2.5</time-average><turn-average>7.2</turn-average>]
        </reached></goals>[<metric-average>0.9</metric-average>]</end-session>

Client to server:

    <session-request><name>NAME</name><problem>PROBLEM</problem></session-request>
    <round-request/>
    <act><action><name>pick-up</name><term>b1</term><term>b2</term></action></act>      or   <done/>

A state lists the atoms of the predicates some action changes and the values of the functions some action
changes (`reward` among them; not mdpsim's own `total-time` and `goal-achieved`), values as mdpsim's
rationals print (`3`, `-3/2`). mdpsim lists them in the order of their addresses in memory; here atoms
come in the order of the domain's predicates, then of their objects, fluents likewise. Averages print as
C++ streams print a double (six significant digits, as `%g`).

Parsing uses defusedxml: entities, DTDs and processing instructions are refused.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from xml.etree.ElementTree import Element

from pddltools.code_ids import CodeId
from pddltools.diagnostics import error
from pddltools.rddlsim.protocol import ProtocolError, Reader, parse_element

#: no mdpsim message of a sensible task comes near this (IPPC-2008's largest states are some 100 KB);
#: `ppddl serve --max-message` raises it
MAX_MESSAGE = 4 << 20


def _depth_change(data: bytearray, start: int, end: int) -> int:
    """How the element depth changes over `data[start:end]` (whole tags only)."""
    opened = data.count(b"<", start, end) - data.count(b"<?", start, end) - data.count(b"<!", start, end)
    return opened - 2 * data.count(b"</", start, end) - data.count(b"/>", start, end)


def _fail(code: CodeId, message: str) -> ProtocolError:
    return ProtocolError([error(code, message)])


def c_double(x: float) -> str:
    """`x` as `std::ostream << double` prints it by default (`%g`: six significant digits)."""
    return f"{x:g}"


def rational(value: int | Fraction) -> str:
    """A value as mdpsim's `Rational` prints: `3`, `-3/2`."""
    value = Fraction(value)
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def parse_rational(text: str) -> Fraction:
    """`3`, `-3/2` or a decimal (`0.25`), as mdpsim's `Rational(const char*)` reads them."""
    return Fraction(text.strip())


# ---------------------------------------------------------------------------------------------------
# messages


@dataclass(frozen=True)
class SessionRequest:
    name: str
    problem: str


@dataclass(frozen=True)
class SessionInit:
    session_id: int
    rounds: int
    allowed_time: int  # milliseconds, for the whole session
    allowed_turns: int  # per round


@dataclass(frozen=True)
class RoundRequest:
    pass


@dataclass(frozen=True)
class RoundInit:
    session_id: int
    round: int  # from 1
    time_left: int  # milliseconds
    rounds_left: int


Atom = tuple[str, ...]  # predicate, terms
FluentEntry = tuple[tuple[str, ...], str]  # (function, terms), value as printed


@dataclass(frozen=True)
class StateMessage:
    goal: bool
    atoms: tuple[Atom, ...]
    fluents: tuple[FluentEntry, ...]


@dataclass(frozen=True)
class Act:
    name: str
    terms: tuple[str, ...] = ()


@dataclass(frozen=True)
class Done:
    pass


@dataclass(frozen=True)
class ErrorMessage:
    text: str


@dataclass(frozen=True)
class EndRound:
    session_id: int
    round: int
    state: StateMessage
    goal_reached: bool
    time_spent: int  # milliseconds
    turns_used: int


@dataclass(frozen=True)
class EndSession:
    session_id: int
    rounds: int
    failed: int
    successes: int
    time_average: float | None  # milliseconds per successful round; None without a success
    turn_average: float | None
    metric_average: float | None  # None for a session of no rounds


Message = (SessionRequest | SessionInit | RoundRequest | RoundInit | StateMessage | Act | Done | ErrorMessage
           | EndRound | EndSession)

#: the messages a server sends (each ends with a newline)
SERVER_MESSAGES = (SessionInit, RoundInit, StateMessage, ErrorMessage, EndRound, EndSession)

TAGS: dict[type, str] = {
    SessionRequest: "session-request", SessionInit: "session-init", RoundRequest: "round-request",
    RoundInit: "round-init", StateMessage: "state", Act: "act", Done: "done", ErrorMessage: "error",
    EndRound: "end-round", EndSession: "end-session"}


def _tag(name: str, value: object) -> str:
    return f"<{name}>{value}</{name}>"


def _state(message: StateMessage) -> str:
    parts = ["<state>", "<is-goal/>" if message.goal else ""]
    for atom in message.atoms:
        parts.append("<atom>" + _tag("predicate", atom[0]) + "".join(_tag("term", t) for t in atom[1:]) + "</atom>")
    for (key, value) in message.fluents:
        parts.append("<fluent>" + _tag("function", key[0]) + "".join(_tag("term", t) for t in key[1:])
                     + _tag("value", value) + "</fluent>")
    parts.append("</state>")
    return "".join(parts)


def element_text(message: Message) -> str:
    """The element of `message`, as mdpsim writes it."""
    if isinstance(message, SessionRequest):
        return f"<session-request>{_tag('name', message.name)}{_tag('problem', message.problem)}</session-request>"
    if isinstance(message, SessionInit):
        return ("<session-init>" + _tag("sessionID", message.session_id) + "<setting>"
                + _tag("rounds", message.rounds) + _tag("allowed-time", message.allowed_time)
                + _tag("allowed-turns", message.allowed_turns) + "</setting></session-init>")
    if isinstance(message, RoundRequest):
        return "<round-request/>"
    if isinstance(message, RoundInit):
        return ("<round-init>" + _tag("sessionID", message.session_id) + _tag("round", message.round)
                + _tag("time-left", message.time_left) + _tag("rounds-left", message.rounds_left) + "</round-init>")
    if isinstance(message, StateMessage):
        return _state(message)
    if isinstance(message, Act):
        return ("<act><action>" + _tag("name", message.name) + "".join(_tag("term", t) for t in message.terms)
                + "</action></act>")
    if isinstance(message, Done):
        return "<done/>"
    if isinstance(message, ErrorMessage):
        return _tag("error", message.text)
    if isinstance(message, EndRound):
        return ("<end-round>" + _tag("sessionID", message.session_id) + _tag("round", message.round)
                + _state(message.state) + ("<goal-reached/>" if message.goal_reached else "")
                + _tag("time-spent", message.time_spent) + _tag("turns-used", message.turns_used) + "</end-round>")
    reached = _tag("successes", message.successes)
    if message.time_average is not None:
        reached += _tag("time-average", c_double(message.time_average))
    if message.turn_average is not None:
        reached += _tag("turn-average", c_double(message.turn_average))
    metric = "" if message.metric_average is None else _tag("metric-average", c_double(message.metric_average))
    return ("<end-session>" + _tag("sessionID", message.session_id) + _tag("rounds", message.rounds)
            + "<goals>" + _tag("failed", message.failed) + "<reached>" + reached + "</reached></goals>"
            + metric + "</end-session>")


def encode(message: Message) -> bytes:
    """One message as it goes on the wire: a server's with its newline, a client's without."""
    text = element_text(message) + ("\n" if isinstance(message, SERVER_MESSAGES) else "")
    try:
        return text.encode("ascii")
    except UnicodeEncodeError:  # mdpsim writes bytes as they are; a non-ASCII name goes as UTF-8
        return text.encode("utf-8")


# ---------------------------------------------------------------------------------------------------
# decoding


def _child(element: Element, tag: str) -> Element:
    found = element.find(tag)
    if found is None:
        raise _fail("E946", f"<{element.tag}> has no <{tag}>")
    return found


def _text(element: Element, tag: str) -> str:
    return (_child(element, tag).text or "").strip()


def _int(element: Element, tag: str) -> int:
    text = _text(element, tag)
    try:
        return int(text)
    except ValueError:
        raise _fail("E946", f"<{tag}> of <{element.tag}> is not a whole number: {text[:40]!r}") from None


def _float(element: Element, tag: str) -> float | None:
    found = element.find(tag)
    if found is None:
        return None
    text = (found.text or "").strip()
    try:
        return float(text)
    except ValueError:
        raise _fail("E946", f"<{tag}> of <{element.tag}> is not a number: {text[:40]!r}") from None


def _terms(element: Element) -> tuple[str, ...]:
    return tuple((t.text or "").strip() for t in element.findall("term"))


def _decode_state(element: Element) -> StateMessage:
    atoms = tuple((_text(a, "predicate"), *_terms(a)) for a in element.findall("atom"))
    fluents: list[FluentEntry] = []
    for f in element.findall("fluent"):
        value = _text(f, "value")
        try:
            parse_rational(value)
        except (ValueError, ZeroDivisionError):
            raise _fail("E946", f"the value of a <fluent> is not a number: {value[:40]!r}") from None
        fluents.append(((_text(f, "function"), *_terms(f)), value))
    return StateMessage(element.find("is-goal") is not None, atoms, tuple(fluents))


def decode(data: bytes) -> Message:
    """The message in one frame; `ProtocolError` (E945 not XML, E946 a field missing or wrong, E947 an
    unknown element) for anything else."""
    try:
        root = parse_element(data)
    except ProtocolError as exc:
        raise _fail("E945", exc.diagnostics[0].message) from None
    tag = root.tag
    if tag == "session-request":
        return SessionRequest(_text(root, "name"), _text(root, "problem"))
    if tag == "session-init":
        setting = _child(root, "setting")
        return SessionInit(_int(root, "sessionID"), _int(setting, "rounds"), _int(setting, "allowed-time"),
                           _int(setting, "allowed-turns"))
    if tag == "round-request":
        return RoundRequest()
    if tag == "round-init":
        return RoundInit(_int(root, "sessionID"), _int(root, "round"), _int(root, "time-left"),
                         _int(root, "rounds-left"))
    if tag == "state":
        return _decode_state(root)
    if tag == "act":
        action = _child(root, "action")
        return Act(_text(action, "name"), _terms(action))
    if tag == "done":
        return Done()
    if tag == "error":
        return ErrorMessage((root.text or "").strip())
    if tag == "end-round":
        return EndRound(_int(root, "sessionID"), _int(root, "round"), _decode_state(_child(root, "state")),
                        root.find("goal-reached") is not None, _int(root, "time-spent"), _int(root, "turns-used"))
    if tag == "end-session":
        goals = _child(root, "goals")
        reached = _child(goals, "reached")
        return EndSession(_int(root, "sessionID"), _int(root, "rounds"), _int(goals, "failed"),
                          _int(reached, "successes"), _float(reached, "time-average"),
                          _float(reached, "turn-average"), _float(root, "metric-average"))
    raise _fail("E947", f"unexpected message <{tag[:60]}>")


# ---------------------------------------------------------------------------------------------------
# streams


class MdpsimReader(Reader):
    """Messages from a stream, one element each (mdpsim's framing), under `Reader`'s limits: at most
    `limit` bytes a message, and a message must arrive whole within `stall` seconds of its first byte,
    plus one for each `rddlsim.protocol.MIN_RATE` bytes."""

    too_large: CodeId = "E948"
    cut_short: CodeId = "E948"
    stalled_code: CodeId = "E948"
    ending = "its element closing"

    #: the message being read: its root's closing tag, how far it has been counted and the depth there
    _close: bytes = b""
    _at, _depth, _nested = 0, 0, 0

    def split(self) -> bytes | None:
        """The first element of the buffer, found by counting in C (`bytes.count`), each byte once however
        the message is cut into reads: the depth after a point is the `<`s before it, less the `<?` and
        `<!` (declarations, comments), less two for each `</` and one for each `/>`. The element ends at
        the first closing tag of the root's name after which the depth is 0 (no mdpsim message nests its root
        in itself: a peer that does so again and again, or closes the root by another name, is refused)."""
        buffer = self.buffer
        if not self._close:
            start = buffer.find(b"<")
            if buffer[:len(buffer) if start < 0 else start].strip():
                raise _fail("E945", f"text outside any element: {bytes(buffer[:40])!r}")
            if start < 0:
                buffer.clear()
                return None
            del buffer[:start]
            end = buffer.find(b">")
            if end < 0:
                return None
            first = bytes(buffer[1:end])
            if first.startswith((b"?", b"!")) or first.endswith(b"/") or first.startswith(b"/"):
                # a declaration before the root, an empty root or a stray end tag: the tag alone is the
                # message (defusedxml refuses what is not a whole element)
                frame = bytes(buffer[:end + 1])
                del buffer[:end + 1]
                return frame
            name = first.split()[0] if first.split() else b""
            self._close, self._at, self._depth, self._nested = b"</" + name, end + 1, 1, 0
        close = self._close
        at, depth = self._at, self._depth
        while True:
            found = buffer.find(close, at)
            end = buffer.find(b">", found) if found >= 0 else -1
            if end < 0:
                # counted up to the last `<` only: a tag cut by the read is counted whole next time
                last = found if found >= 0 else buffer.rfind(b"<", at)
                safe = last if last >= 0 and buffer.find(b">", last) < 0 else len(buffer)
                depth += _depth_change(buffer, at, safe)
                if depth <= 0:  # closed, but by tags of other names (mdpsim's reader would stop here)
                    raise _fail("E945", f"<{close[2:].decode(errors='replace')[:40]}> closed by a tag of another "
                                        "name")
                self._at, self._depth = safe, depth
                return None
            depth += _depth_change(buffer, at, end + 1)
            at = end + 1
            if depth <= 0:
                frame = bytes(buffer[:at])
                del buffer[:at]
                self._close, self._at, self._depth = b"", 0, 0
                return frame
            self._nested += 1
            if self._nested > 16:  # no mdpsim message holds an element of its root's name
                raise _fail("E945", f"<{close[2:].decode(errors='replace')[:40]}> nested in itself again and again")

    async def message(self, deadline: float | None = None, stall: float | None = None) -> Message | None:
        """The next message, or None when the peer closed between messages."""
        frame = await self.read_frame(deadline, stall)
        return None if frame is None else decode(frame)

"""`pddltools lsp` answers `initialize` before importing pygls (lsp/quickstart.py): the answer is pygls'
own, byte for byte, for every client; any other first frame reaches the full reader unchanged."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp

from pddltools.lsp.quickstart import MAX_HEADER_LINE, Opening, initialize_result, open_session

REPO = Path(__file__).resolve().parents[2]
#: Real editors' capabilities, as pytest-lsp records them (VS Code, Neovim's versions, Emacs' eglot).
CLIENTS = sorted((Path(pytest_lsp.__file__).parent / "clients").glob("*.json"))


def _frame(message: dict[str, Any]) -> bytes:
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def _initialize(capabilities: dict[str, Any], ident: int | str = 1, **params: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": ident, "method": "initialize",
            "params": {"processId": None, "rootUri": None, "capabilities": capabilities, **params}}


CAPABILITIES: dict[str, dict[str, Any]] = {
    **{path.stem: json.loads(path.read_text(encoding="utf-8"))["capabilities"] for path in CLIENTS},
    "none": {},
    "utf-8 first": {"general": {"positionEncodings": ["utf-8", "utf-16"]}},
    "utf-32 after an unknown one": {"general": {"positionEncodings": ["utf-7", "utf-32"]}},
    "only unknown encodings": {"general": {"positionEncodings": ["ebcdic"]}},
    "no encodings listed": {"general": {}},
    "will save, no prepare": {"textDocument": {"synchronization": {"willSave": True, "willSaveWaitUntil": False},
                                               "rename": {"prepareSupport": False}}},
    "prepare rename": {"textDocument": {"rename": {"prepareSupport": True}}},
    "notebooks": {"notebookDocument": {"synchronization": {}}},
}


@pytest.fixture(scope="module")
def pygls_server() -> Any:
    pytest.importorskip("pygls")
    from pddltools.lsp.server import server

    return server


@pytest.mark.parametrize("name", sorted(CAPABILITIES))
def test_the_reply_is_pygls_own_for_every_client(pygls_server: Any, name: str) -> None:
    from pddltools.lsp.framing import replay_initialize

    request = _initialize(CAPABILITIES[name], ident=7)
    sent = io.BytesIO()
    opening = open_session(io.BytesIO(_frame(request)), sent)
    assert opening.answered is not None and opening.unread == b""
    pygls_reply = replay_initialize(pygls_server, opening.answered)
    assert pygls_reply is not None and "error" not in pygls_reply
    header, _, body = sent.getvalue().partition(b"\r\n\r\n")
    assert json.loads(body) == pygls_reply
    assert body == json.dumps(pygls_reply).encode()  # the same bytes as pygls would write
    assert header == b"Content-Length: %d\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8" % len(body)
    assert opening.reply == pygls_reply["result"] == initialize_result(request["params"])


@pytest.mark.parametrize("first", [
    b"not a frame\r\n\r\n",
    b"Content-Length: 12\r\n\r\n{not json!!}",
    b"Content-Length: x\r\n\r\n",
    b"Content-Length: 999999999999\r\n\r\n",
    b"X-Other: 1\r\nContent-Length: 2\r\n\r\n{}",
    b"Content-Length: 2\r\n" + b"x" * (MAX_HEADER_LINE + 10) + b"\r\n\r\n{}",
    _frame({"jsonrpc": "2.0", "id": 1, "method": "shutdown"}),
    _frame({"jsonrpc": "2.0", "method": "initialize", "params": {"capabilities": {}}}),  # a notification
    _frame(_initialize({}, processId="12")),
    _frame(_initialize({"general": {"positionEncodings": "utf-8"}})),
    _frame(_initialize({"textDocument": {"rename": {"prepareSupport": "yes"}}})),
    _frame(_initialize({}, ident=True)),
    b"Content-Length: 40\r\n\r\n{\"jsonrpc\": \"2.0\"",  # the input ends inside the body
])
def test_any_other_first_frame_reaches_the_full_reader_unchanged(first: bytes) -> None:
    after = _frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
    source, sent = io.BytesIO(first + after), io.BytesIO()
    opening = open_session(source, sent)
    assert opening.answered is None and sent.getvalue() == b"" and opening.unread
    assert _read_as_frame_reader(opening.stream(source)) == first + after


def _read_as_frame_reader(stream: Any) -> bytes:
    """Everything, read with the two calls `lsp.framing.FrameReader` makes (bounded lines, and bodies)."""
    out = b""
    while True:
        line = stream.readline(MAX_HEADER_LINE + 1)
        if not line:
            return out
        out += line + stream.read(3)


def test_the_prefixed_stream_keeps_lines_and_bounds() -> None:
    stream = Opening(b"ab\ncd").stream(io.BytesIO(b"ef\ngh"))
    assert stream.readline(10) == b"ab\n"
    assert stream.readline(3) == b"cde"  # a bounded line crosses from the kept bytes into the stream
    assert stream.readline(10) == b"f\n"
    assert stream.read(10) == b"gh"
    stream = Opening(b"abcdef").stream(io.BytesIO(b"gh\n"))
    assert stream.readline(4) == b"abcd"
    assert stream.read(3) == b"efg"
    assert stream.readline() == b"h\n"
    assert Opening().stream(raw := io.BytesIO(b"x")) is raw


def test_a_bad_first_frame_is_answered_and_the_session_goes_on() -> None:
    """End to end: `pddltools lsp` answers a first frame that is not JSON with an error, as the full
    reader does, then initializes and shuts down."""
    pytest.importorskip("pygls")
    data = (b"Content-Length: 5\r\n\r\nnope!" + _frame(_initialize({}, ident=1))
            + _frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}) + _frame({"jsonrpc": "2.0", "method": "exit"}))
    done = subprocess.run([sys.executable, "-m", "pddltools", "lsp"], input=data, capture_output=True, timeout=120,
                          cwd=REPO, check=False)
    replies = [json.loads(part.split(b"\r\n\r\n", 1)[1]) for part in done.stdout.split(b"Content-Length")[1:]]
    assert [reply.get("id") for reply in replies] == [None, 1, 2]
    assert replies[0]["error"]["code"] == -32700
    assert replies[1]["result"] == initialize_result({"capabilities": {}})
    assert done.returncode == 0


def test_capabilities_pygls_cannot_read_leave_it_what_the_reply_was_made_of(pygls_server: Any) -> None:
    from pddltools.lsp.framing import replay_initialize

    request = _initialize({"workspace": 5, "general": {"positionEncodings": ["utf-8"]},
                           "textDocument": {"hover": {"contentFormat": 3}, "rename": {"prepareSupport": True}}})
    opening = open_session(io.BytesIO(_frame(request)), io.BytesIO())
    assert opening.answered is not None and opening.fallback is not None
    refused = replay_initialize(pygls_server, opening.answered)
    assert refused is not None and refused["error"]["code"] == -32602
    taken = replay_initialize(pygls_server, opening.fallback)
    assert taken is not None and taken["result"] == opening.reply
    assert opening.reply is not None and opening.reply["capabilities"]["positionEncoding"] == "utf-8"
    assert opening.reply["capabilities"]["renameProvider"] == {"prepareProvider": True}


def test_a_client_whose_capabilities_do_not_fit_is_told_and_served() -> None:
    """End to end: the reply was sent before pygls read the capabilities; it says so to the user, and the
    documents opened after are checked."""
    pytest.importorskip("pygls")
    uri = "file:///nowhere/broken.pddl"
    data = (_frame(_initialize({"workspace": 5}, ident=1))
            + _frame({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
                "uri": uri, "languageId": "pddl", "version": 1, "text": "(define (domain d) (:predicates (p)"}}}))
    server = subprocess.Popen([sys.executable, "-m", "pddltools", "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, cwd=REPO)
    assert server.stdin is not None and server.stdout is not None
    server.stdin.write(data)
    server.stdin.flush()
    messages = []
    while not any(m.get("method") == "textDocument/publishDiagnostics" for m in messages):
        length = 0
        while (line := server.stdout.readline()) not in (b"\r\n", b""):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        assert length, messages
        messages.append(json.loads(server.stdout.read(length)))
    server.stdin.write(_frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
                       + _frame({"jsonrpc": "2.0", "method": "exit"}))
    server.stdin.close()
    assert server.wait(60) == 0
    assert messages[0]["id"] == 1 and messages[0]["result"] == initialize_result({"capabilities": {}})
    shown = [m["params"]["message"] for m in messages if m.get("method") == "window/showMessage"]
    assert len(shown) == 1 and "do not fit the protocol" in shown[0]
    (published,) = [m["params"] for m in messages if m.get("method") == "textDocument/publishDiagnostics"]
    assert published["uri"] == uri and [d["code"] for d in published["diagnostics"]][:1] == ["E107"]  # never closed

"""The language server's answer to `initialize`, written before pygls is imported.

Importing pygls and lsprotocol costs most of a second of CPU (lsprotocol's thousand attrs classes), and an
editor waits for the `initialize` reply before it sends anything else. So `pddltools lsp` reads the first
frame here, with nothing but `json`: when it is a well-formed `initialize` request, the reply (the
capabilities pygls would announce for this server and this client) is written at once; then pygls is
imported, and the same request is handed to it with its own reply held back (`lsp.framing`), so that its
state (the client's capabilities, the workspace's folders and position encoding) is what it always was.

Any other first frame (not JSON, another method, a header this reader does not take, parameters of the
wrong shape) is not answered here: its bytes go to the full frame reader as they came, which answers
them as it answers every frame.

`tests/lsp/test_quickstart.py` asserts that `initialize_result` equals pygls' own answer for a range of
clients' capabilities: a feature added to `lsp.server` must be announced here too.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from typing import BinaryIO

from pddltools import __version__

#: The longest header line read (the LSP has two short headers); `lsp.framing` reads with the same bound.
MAX_HEADER_LINE = 8192
#: The largest message body taken: a didOpen of a 256 MB file is refused, not read.
MAX_BODY = 256 << 20

_HEADER = re.compile(rb"(?i:content-length)[ \t]*:[ \t]*([0-9]{1,12})[ \t]*\r?\n|(?i:content-type)[ \t]*:[^\r\n]*\r?\n")
_ENCODINGS = ("utf-8", "utf-16", "utf-32")  # those pygls' workspace can count in

#: What the server offers whatever the client: one entry per feature `lsp.server` registers, in the
#: order pygls' `ServerCapabilitiesBuilder` writes them (the reply's bytes are then pygls' bytes).
_TOKEN_TYPES = ["namespace", "type", "function", "property", "enumMember", "method", "parameter", "keyword",
                "comment", "number", "variable", "event"]


def initialize_result(params: dict[str, Any]) -> dict[str, Any]:
    """The `initialize` result for a client's `params` (a JSON object), as pygls would compute it."""
    client = _object(params.get("capabilities"))
    general = _object(client.get("general"))
    text = _object(client.get("textDocument"))
    synchronization = _object(text.get("synchronization"))
    offered = general.get("positionEncodings")
    encoding = next((kind for kind in offered if kind in _ENCODINGS), "utf-16") if isinstance(offered, list) \
        else "utf-16"
    sync: dict[str, Any] = {"openClose": True, "change": 2}
    # pygls writes `false` for the will-save notifications the client states (either way), as it has no handler
    for name in ("willSave", "willSaveWaitUntil"):
        if synchronization.get(name) is not None:
            sync[name] = False
    sync["save"] = True
    prepare = bool(_object(text.get("rename")).get("prepareSupport"))
    capabilities: dict[str, Any] = {
        "positionEncoding": encoding,
        "textDocumentSync": sync,
        "completionProvider": {"triggerCharacters": ["(", ":", "?", "-", " "]},
        "hoverProvider": True,
        "signatureHelpProvider": {"triggerCharacters": ["(", " ", ","]},
        "definitionProvider": True,
        "referencesProvider": True,
        "documentHighlightProvider": True,
        "documentSymbolProvider": True,
        "codeActionProvider": {"codeActionKinds": ["quickfix"]},
        "workspaceSymbolProvider": {"resolveProvider": False},
        "documentFormattingProvider": True,
        "documentRangeFormattingProvider": True,
        # the protocol allows RenameOptions only to a client that states prepareSupport
        "renameProvider": {"prepareProvider": True} if prepare else True,
        "foldingRangeProvider": True,
        "executeCommandProvider": {"commands": ["pddltools.domainOf"]},
        "semanticTokensProvider": {"legend": {"tokenTypes": _TOKEN_TYPES, "tokenModifiers": ["declaration"]},
                                   "full": True},
        "workspace": {"workspaceFolders": {"supported": True, "changeNotifications": True}, "fileOperations": {}},
    }
    return {"capabilities": capabilities, "serverInfo": {"name": "pddltools", "version": __version__}}


def _object(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


class Opening:
    """What was read before the hand-off: the bytes the full reader must see first (`unread`), or the
    `initialize` request answered here (`answered`, its body, and `reply`, the result sent). `fallback`:
    the same request with only the capabilities read here, for pygls when the client's whole capabilities
    do not fit the protocol (the reply sent depends on nothing else)."""

    def __init__(self, unread: bytes = b"", answered: bytes | None = None,
                 reply: dict[str, Any] | None = None, fallback: bytes | None = None) -> None:
        self.unread = unread
        self.answered = answered
        self.reply = reply
        self.fallback = fallback

    def stream(self, rest: BinaryIO) -> BinaryIO:
        """The input as the full reader must read it: the unread bytes, then `rest`."""
        return _Prefixed(self.unread, rest) if self.unread else rest  # type: ignore[return-value]


def open_session(stdin: BinaryIO, stdout: BinaryIO) -> Opening:
    """Read the first frame; answer it if it is a well-formed `initialize` request."""
    read = b""
    length: int | None = None
    seen = False
    while True:
        line = stdin.readline(MAX_HEADER_LINE + 1)
        read += line
        if not line.strip():
            if not line or seen:
                break
            continue  # blank lines before a frame are not a frame
        seen = True
        header = _HEADER.fullmatch(line)
        if header is None or not line.endswith(b"\n"):
            return Opening(read)
        if header.group(1) is not None:
            length = int(header.group(1))
    if not line or length is None or length > MAX_BODY:
        return Opening(read)
    body = stdin.read(length)
    read += body
    if len(body) < length:
        return Opening(read)
    try:
        message = json.loads(body)
    except (ValueError, RecursionError):
        return Opening(read)
    if not _initialize_request(message):
        return Opening(read)
    result = initialize_result(message["params"])
    reply = json.dumps({"id": message["id"], "jsonrpc": "2.0", "result": result}).encode()
    stdout.write(b"Content-Length: %d\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n%s"
                 % (len(reply), reply))
    stdout.flush()
    return Opening(answered=body, reply=result, fallback=json.dumps({**message, "params": _read_parts(message["params"])
                                                                     }).encode())


def _read_parts(params: dict[str, Any]) -> dict[str, Any]:
    """`params` with only what `initialize_result` reads of the client's capabilities (checked by
    `_initialize_request`), the process and the root."""
    capabilities = params["capabilities"]
    general = capabilities.get("general", {})
    text = capabilities.get("textDocument", {})
    kept: dict[str, Any] = {}
    if "positionEncodings" in general:
        kept["general"] = {"positionEncodings": general["positionEncodings"]}
    synchronization = {name: value for name, value in text.get("synchronization", {}).items()
                       if name in ("willSave", "willSaveWaitUntil") and value is not None}
    rename = {"prepareSupport": text["rename"]["prepareSupport"]} if "prepareSupport" in text.get("rename", {}) else {}
    if synchronization or rename:
        kept["textDocument"] = {**({"synchronization": synchronization} if synchronization else {}),
                                **({"rename": rename} if rename else {})}
    return {"processId": params.get("processId"), "rootUri": params.get("rootUri"),
            **({"rootPath": params["rootPath"]} if isinstance(params.get("rootPath"), str) else {}),
            "capabilities": kept}


def _initialize_request(message: Any) -> bool:
    """Whether `message` is an `initialize` request whose parts this module reads have the protocol's
    shapes (the rest is checked by pygls when the request is handed to it)."""
    if not (isinstance(message, dict) and message.get("jsonrpc") == "2.0" and message.get("method") == "initialize"):
        return False
    ident, params = message.get("id"), message.get("params")
    if isinstance(ident, bool) or not isinstance(ident, int | str) or not isinstance(params, dict):
        return False
    process, capabilities = params.get("processId"), params.get("capabilities")
    if isinstance(process, bool) or not (process is None or isinstance(process, int)):
        return False
    if not isinstance(capabilities, dict) or not all(
            isinstance(params.get(name), str | None) for name in ("rootUri", "rootPath")):
        return False
    general = capabilities.get("general", {})
    text = capabilities.get("textDocument", {})
    if not (isinstance(general, dict) and isinstance(text, dict)):
        return False
    encodings = general.get("positionEncodings", [])
    synchronization = text.get("synchronization", {})
    rename = text.get("rename", {})
    return (isinstance(encodings, list) and all(isinstance(kind, str) for kind in encodings)
            and isinstance(synchronization, dict) and isinstance(rename, dict)
            and all(isinstance(synchronization.get(name), bool | None) for name in ("willSave", "willSaveWaitUntil"))
            and isinstance(rename.get("prepareSupport"), bool | None))


class _Prefixed:
    """A binary stream that yields `head` before `rest` (the two calls the frame reader makes)."""

    def __init__(self, head: bytes, rest: BinaryIO) -> None:
        self.head = head
        self.rest = rest

    def readline(self, limit: int = -1) -> bytes:
        if not self.head:
            return self.rest.readline(limit)
        end = self.head.find(b"\n") + 1 or len(self.head)
        if limit >= 0:
            end = min(end, limit)
        line, self.head = self.head[:end], self.head[end:]
        if line.endswith(b"\n") or self.head or (0 <= limit <= len(line)):
            return line
        return line + self.rest.readline(limit - len(line) if limit >= 0 else -1)

    def read(self, size: int = -1) -> bytes:
        if not self.head:
            return self.rest.read(size)
        if size < 0:
            data, self.head = self.head, b""
            return data + self.rest.read()
        data, self.head = self.head[:size], self.head[size:]
        if len(data) < size:
            data += self.rest.read(size - len(data))
        return data

// The language server as the extension's client drives it: `pddltools lsp` over stdio, through the
// JSON-RPC layer of vscode-languageclient (vscode-jsonrpc), without a VS Code window.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const rpc = require("vscode-jsonrpc/node");

const command = process.env.PDDLTOOLS || "pddltools";

test("diagnostics, formatting and the domain of a problem", { timeout: 60000 }, async () => {
  const folder = mkdtempSync(join(tmpdir(), "pddltools-vscode-"));
  const domainPath = join(folder, "domain.pddl");
  const problemPath = join(folder, "p01.pddl");
  writeFileSync(domainPath, "; blocks\n(define (domain d) (:predicates (p)) (:action a :parameters () :precondition (q) :effect (p)))\n");
  writeFileSync(problemPath, "(define (problem p01) (:domain d) (:init) (:goal (p)))\n");
  const server = spawn(command, ["lsp"], { stdio: ["pipe", "pipe", "inherit"] });
  const connection = rpc.createMessageConnection(new rpc.StreamMessageReader(server.stdout), new rpc.StreamMessageWriter(server.stdin));
  const published = new Map();
  const waiting = new Map();
  connection.onNotification("textDocument/publishDiagnostics", (params) => {
    published.set(params.uri, params.diagnostics);
    waiting.get(params.uri)?.(params.diagnostics);
  });
  connection.onRequest(() => null);
  connection.onNotification(() => {});
  connection.listen();
  try {
    await connection.sendRequest("initialize", { processId: process.pid, rootUri: pathToFileURL(folder).href, capabilities: {} });
    connection.sendNotification("initialized", {});
    const uri = pathToFileURL(domainPath).href;
    const diagnostics = new Promise((resolve) => waiting.set(uri, resolve));
    connection.sendNotification("textDocument/didOpen", {
      textDocument: { uri, languageId: "pddl", version: 1, text: "; blocks\n(define (domain d) (:predicates (p)) (:action a :parameters () :precondition (q) :effect (p)))\n" },
    });
    const found = await diagnostics;
    assert.ok(found.some((d) => d.code === "E202"), JSON.stringify(found));
    const edits = await connection.sendRequest("textDocument/formatting", { textDocument: { uri }, options: { tabSize: 2, insertSpaces: true } });
    assert.equal(edits.length, 1);
    assert.ok(edits[0].newText.startsWith("; blocks\n(define (domain d)\n"), edits[0].newText);
    const problemUri = pathToFileURL(problemPath).href;
    connection.sendNotification("textDocument/didOpen", {
      textDocument: { uri: problemUri, languageId: "pddl", version: 1, text: "(define (problem p01) (:domain d) (:init) (:goal (p)))\n" },
    });
    const domainOf = await connection.sendRequest("workspace/executeCommand", { command: "pddltools.domainOf", arguments: [problemUri] });
    assert.equal(domainOf, uri);
    await connection.sendRequest("shutdown");
    connection.sendNotification("exit");
  } finally {
    connection.dispose();
    server.kill();
  }
});

// The language server as the extension starts it (`pddltools lsp` on stdio), driven through the
// JSON-RPC layer vscode-languageclient is built on: diagnostics arrive for a broken file and go away
// once it is fixed, for PDDL, HDDL and RDDL.

import { spawn, ChildProcess } from "child_process";
import { strict as assert } from "assert";
import { after, before, test } from "node:test";
import { createMessageConnection, MessageConnection, StreamMessageReader, StreamMessageWriter }
  from "vscode-jsonrpc/node";

import { command, env, REPO } from "./support";

interface Diagnostic {
  range: { start: { line: number; character: number } };
  message: string;
  code?: string;
}

let server: ChildProcess;
let connection: MessageConnection;
const published = new Map<string, Array<(d: Diagnostic[]) => void>>();
const latest = new Map<string, Diagnostic[]>();

let serverGone: string | undefined;

function nextDiagnostics(uri: string): Promise<Diagnostic[]> {
  return new Promise((resolve, reject) => {
    if (serverGone) reject(new Error(serverGone));
    const timer = setTimeout(() => reject(new Error(`no diagnostics for ${uri} within 20 s`)), 20000);
    published.set(uri, [...(published.get(uri) ?? []), (d) => { clearTimeout(timer); resolve(d); }]);
  });
}

before(async () => {
  server = spawn(command.executable, [...command.args, "lsp"], { env, cwd: REPO, stdio: ["pipe", "pipe", "inherit"] });
  server.on("exit", (code) => {
    serverGone = `the server (${command.executable} ${command.args.join(" ")} lsp) exited with ${code}`;
  });
  connection = createMessageConnection(new StreamMessageReader(server.stdout!), new StreamMessageWriter(server.stdin!));
  connection.onNotification("textDocument/publishDiagnostics", (p: { uri: string; diagnostics: Diagnostic[] }) => {
    latest.set(p.uri, p.diagnostics);
    const waiting = published.get(p.uri) ?? [];
    published.delete(p.uri);
    for (const w of waiting) w(p.diagnostics);
  });
  connection.onRequest(() => null); // workspace/configuration, registerCapability ...
  connection.listen();
  const result = await connection.sendRequest("initialize", {
    processId: process.pid, rootUri: null, workspaceFolders: null,
    capabilities: { textDocument: { publishDiagnostics: {}, synchronization: { didSave: true } } },
  }) as { capabilities: Record<string, unknown>; serverInfo?: { name: string } };
  assert.ok(result.capabilities.textDocumentSync !== undefined, "the server syncs documents");
  await connection.sendNotification("initialized", {});
});

after(async () => {
  await connection.sendRequest("shutdown");
  await connection.sendNotification("exit");
  connection.dispose();
  await new Promise((resolve) => (server.exitCode !== null ? resolve(null) : server.on("exit", resolve)));
});

async function open(uri: string, languageId: string, text: string): Promise<Diagnostic[]> {
  const diagnostics = nextDiagnostics(uri);
  await connection.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId, version: 1, text } });
  return diagnostics;
}

async function change(uri: string, version: number, text: string): Promise<Diagnostic[]> {
  const diagnostics = nextDiagnostics(uri);
  await connection.sendNotification("textDocument/didChange",
    { textDocument: { uri, version }, contentChanges: [{ text }] });
  return diagnostics;
}

const DOMAIN = `(define (domain blocks)
  (:requirements :strips)
  (:predicates (on ?x ?y) (clear ?x))
  (:action unstack
    :parameters (?x ?y)
    :precondition (and (on ?x ?y) (clear ?x))
    :effect (and (not (on ?x ?y)) (clear ?y))))
`;

test("a PDDL domain with an undeclared predicate gets a diagnostic at its use, and none once fixed", async () => {
  const uri = "file:///tmp/pddltools-vscode-test/domain.pddl";
  const broken = DOMAIN.replace("(clear ?y))))", "(holding ?x))))");
  const diagnostics = await open(uri, "pddl", broken);
  assert.ok(diagnostics.length > 0, "a diagnostic for the undeclared predicate");
  const holding = diagnostics.find((d) => /holding/.test(d.message));
  assert.ok(holding, `a diagnostic names 'holding': ${JSON.stringify(diagnostics)}`);
  assert.equal(holding.range.start.line, 6);
  assert.equal(holding.range.start.character, broken.split("\n")[6].indexOf("(holding"));
  const fixed = await change(uri, 2, DOMAIN);
  assert.deepEqual(fixed, []);
});

test("a PDDL syntax error is reported where it is", async () => {
  const uri = "file:///tmp/pddltools-vscode-test/syntax.pddl";
  const diagnostics = await open(uri, "pddl", DOMAIN.replace(":parameters (?x ?y)", ":parameters (?x ?y"));
  assert.ok(diagnostics.length > 0);
  assert.ok(diagnostics.some((d) => d.range.start.line >= 4), JSON.stringify(diagnostics));
});

test("an HDDL method naming an undeclared task is reported", async () => {
  const uri = "file:///tmp/pddltools-vscode-test/domain.hddl";
  const text = `(define (domain d)
  (:requirements :hierarchy)
  (:predicates (p))
  (:task t :parameters ())
  (:method m :parameters () :task (nosuchtask) :subtasks (and (a)))
  (:action a :parameters () :effect (p)))
`;
  const diagnostics = await open(uri, "hddl", text);
  assert.ok(diagnostics.some((d) => /nosuchtask/.test(d.message)), JSON.stringify(diagnostics));
});

test("an RDDL domain with an unknown pvariable is reported", async () => {
  const uri = "file:///tmp/pddltools-vscode-test/domain.rddl";
  const text = `domain d {
  requirements = {reward-deterministic};
  pvariables {
    p : { state-fluent, bool, default = false };
    a : { action-fluent, bool, default = false };
  };
  cpfs {
    p' = a | q;
  };
  reward = if (p) then 1 else 0;
}
`;
  const diagnostics = await open(uri, "rddl", text);
  assert.ok(diagnostics.some((d) => /\bq\b/.test(d.message) && d.range.start.line === 7), JSON.stringify(diagnostics));
});

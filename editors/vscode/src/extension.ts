// The VS Code side: start `pddltools lsp` for PDDL, HDDL and RDDL files, and the commands that run the
// pddltools command line on the plan in the editor (validate, view) and a configured planner.

import { ChildProcess, spawn } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as vscode from "vscode";
import {
  CloseAction, ErrorAction, LanguageClient, LanguageClientOptions, ServerOptions, State,
} from "vscode-languageclient/node";

import {
  Command, classify, findExecutable, missingMessage, plannerCommandLine, problemCandidates, problemsIn,
  readValidation, run, Validation,
} from "./pddltools";

let client: LanguageClient | undefined;
let output: vscode.OutputChannel;
let planDiagnostics: vscode.DiagnosticCollection;
let state: vscode.Memento;

const LANGUAGES = ["pddl", "hddl", "rddl"];

function configuredCommand(): Command {
  const config = vscode.workspace.getConfiguration("pddltools");
  return {
    executable: config.get<string>("executable", "pddltools") || "pddltools",
    args: config.get<string[]>("executableArgs", []),
  };
}

/** The configured command when it can be started; otherwise says so (once per call) and is undefined. */
function usableCommand(): Command | undefined {
  const command = configuredCommand();
  if (findExecutable(command.executable)) return command;
  const message = missingMessage(command);
  output.appendLine(message);
  void vscode.window.showErrorMessage(message, "Open Settings").then((choice) => {
    if (choice) void vscode.commands.executeCommand("workbench.action.openSettings", "pddltools.executable");
  });
  return undefined;
}

/** Why the server stopped, from its exit status and the end of its stderr: `pddltools lsp` says what is
 * missing (the lsp extra) there and exits 2 before it answers anything. */
function stoppedMessage(child: ChildProcess | undefined, stderr: string): string {
  const said = stderr.trim().split("\n").slice(-3).join(" ").trim();
  const status = child?.exitCode !== null && child?.exitCode !== undefined ? `exit ${child.exitCode}`
    : child?.signalCode ? `signal ${child.signalCode}` : "connection lost";
  return `The pddltools language server stopped (${status})${said ? `: ${said}` : ""}. ` +
    (/pygls|lsprotocol|\[lsp\]/.test(said) ? "" : "It needs the lsp extra: pip install 'pddltools[lsp]'. ") +
    "See the output panel “pddltools”.";
}

async function startServer(): Promise<void> {
  const command = usableCommand();
  if (!command) return;
  const executable = findExecutable(command.executable) ?? command.executable;
  let child: ChildProcess | undefined;
  let stderr = "";
  let answered = false; // the server replied to initialize: a later stop is a crash, restarted
  let restarts = 0;
  let reported = false; // the user has been told why it stopped
  // The process is started here rather than by the client, to keep the end of its stderr for the
  // message when it stops (the client only copies stderr to the output panel).
  const serverOptions: ServerOptions = async () => {
    stderr = "";
    child = spawn(executable, [...command.args, "lsp"], { env: process.env });
    child.stderr?.on("data", (chunk: Buffer) => {
      const text = chunk.toString("utf8");
      output.append(text);
      stderr = (stderr + text).slice(-4000);
    });
    return child;
  };
  const showStopped = (): void => {
    reported = true;
    // The client notices the closed pipe before the process has ended and its stderr is read: wait for
    // both (a second at most), so that the message says what the server said.
    const ended = new Promise<void>((resolve) => {
      if (!child || (child.exitCode !== null || child.signalCode !== null) && child.stderr?.readableEnded !== false) {
        resolve();
        return;
      }
      child.once("close", () => resolve());
      setTimeout(resolve, 1000);
    });
    void ended.then(() => vscode.window.showErrorMessage(stoppedMessage(child, stderr), "Show Output", "Open Settings"))
      .then((choice) => {
        if (choice === "Show Output") output.show();
        if (choice === "Open Settings") void vscode.commands.executeCommand("workbench.action.openSettings", "pddltools.");
      });
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: LANGUAGES.flatMap((language) => [
      { scheme: "file", language }, { scheme: "untitled", language },
    ]),
    outputChannel: output,
    // The server stopped before it answered `initialize` (a missing extra, a broken install): say why
    // once, in place of the client's "Server initialization failed".
    initializationFailedHandler: () => {
      if (!reported) showStopped();
      return false;
    },
    errorHandler: {
      error: () => ({ action: answered ? ErrorAction.Continue : ErrorAction.Shutdown, handled: true }),
      closed: () => {
        if (answered && restarts < 3) {
          restarts += 1;
          output.appendLine(`the pddltools language server stopped; restarting (${restarts} of 3)`);
          return { action: CloseAction.Restart, handled: true };
        }
        if (!reported) showStopped();
        return { action: CloseAction.DoNotRestart, handled: true };
      },
    },
  };
  client = new LanguageClient("pddltools", "pddltools language server", serverOptions, clientOptions);
  client.onDidChangeState((event) => {
    if (event.newState === State.Running) answered = true;
    if (event.newState === State.Stopped) output.appendLine("the pddltools language server stopped");
  });
  try {
    await client.start();
  } catch (error) {
    // closed() has usually said why; the client stays stopped until the settings change or Restart.
    if (!reported) {
      stderr += `\n${String(error)}`;
      showStopped();
    }
  }
}

async function restartServer(): Promise<void> {
  const old = client;
  client = undefined;
  if (old) await old.stop().catch(() => undefined);
  await startServer();
}

// --- plans ------------------------------------------------------------------------------------------

/** The problem the plan is for: the one named like the plan, the one chosen for it before, the only
 * problem open in the editor, or one the user picks. */
async function problemFor(plan: vscode.Uri): Promise<string | undefined> {
  const remembered = state.get<string>(`problem:${plan.fsPath}`);
  if (remembered && fs.existsSync(remembered)) return remembered;
  const named = [...problemCandidates(plan.fsPath, ".pddl"), ...problemCandidates(plan.fsPath, ".hddl")];
  if (named.length > 0) return named[0];
  const open = vscode.workspace.textDocuments
    .filter((d) => d.uri.scheme === "file" && (d.languageId === "pddl" || d.languageId === "hddl"))
    .filter((d) => classify(d.getText()) === "problem")
    .map((d) => d.uri.fsPath);
  if (open.length === 1) return open[0];
  const dir = path.dirname(plan.fsPath);
  const nearby = [...problemsIn(dir), ...problemsIn(path.join(dir, "instances")), ...problemsIn(path.dirname(dir))];
  const choices = [...new Set([...open, ...nearby])];
  const picked = choices.length > 0
    ? await vscode.window.showQuickPick(
      choices.map((p) => ({ label: path.basename(p), description: path.dirname(p), path: p })),
      { placeHolder: `The problem ${path.basename(plan.fsPath)} is a plan for` })
    : undefined;
  let chosen = picked?.path;
  if (!chosen && choices.length === 0) {
    const files = await vscode.window.showOpenDialog({
      defaultUri: vscode.Uri.file(dir), canSelectMany: false, openLabel: "Problem of this plan",
      filters: { "PDDL and HDDL": ["pddl", "hddl"] },
    });
    chosen = files?.[0]?.fsPath;
  }
  if (chosen) await state.update(`problem:${plan.fsPath}`, chosen);
  return chosen;
}

/** The plan in the active editor (saved, since the command line reads files). */
async function activePlan(): Promise<vscode.Uri | undefined> {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.uri.scheme !== "file") {
    void vscode.window.showWarningMessage("Open a plan file (saved on disk) in the editor first.");
    return undefined;
  }
  if (LANGUAGES.includes(editor.document.languageId)) {
    void vscode.window.showWarningMessage(`${path.basename(editor.document.uri.fsPath)} is a ` +
      `${editor.document.languageId.toUpperCase()} file, not a plan: open the plan (a list of actions) to validate it.`);
    return undefined;
  }
  if (editor.document.isDirty) await editor.document.save();
  return editor.document.uri;
}

/** `pddltools validate --format json PROBLEM PLAN` (the domain found by the domain finder's rules),
 * with its findings shown as diagnostics of the files they are about. */
async function validate(plan: vscode.Uri): Promise<{ validation: Validation; problem: string } | undefined> {
  const command = usableCommand();
  if (!command) return undefined;
  const problem = await problemFor(plan);
  if (!problem) return undefined;
  const cwd = path.dirname(plan.fsPath);
  const args = ["validate", "--format", "json", problem, plan.fsPath];
  output.appendLine(`$ ${[command.executable, ...command.args, ...args].join(" ")}`);
  const result = await run(command, args, { cwd });
  if (result.stderr) output.appendLine(result.stderr.trimEnd());
  let validation: Validation;
  try {
    validation = readValidation(result.stdout, cwd);
  } catch {
    // Exit 2 (usage, unreadable input, no domain found) prints its reason on stderr, not JSON.
    void vscode.window.showErrorMessage(`pddltools validate: ${result.stderr.trim() || `exit ${result.code}`}`);
    return undefined;
  }
  planDiagnostics.clear();
  const byFile = new Map<string, vscode.Diagnostic[]>();
  for (const finding of validation.findings) {
    const line = Math.max(0, finding.line - 1);
    const column = Math.max(0, finding.column - 1);
    const diagnostic = new vscode.Diagnostic(
      new vscode.Range(line, column, line, Number.MAX_SAFE_INTEGER), finding.message,
      finding.severity === "warning" ? vscode.DiagnosticSeverity.Warning
        : finding.severity === "information" ? vscode.DiagnosticSeverity.Information : vscode.DiagnosticSeverity.Error);
    diagnostic.source = "pddltools validate";
    if (finding.code) diagnostic.code = finding.code;
    byFile.set(finding.file, [...(byFile.get(finding.file) ?? []), diagnostic]);
  }
  for (const [file, diagnostics] of byFile) planDiagnostics.set(vscode.Uri.file(file), diagnostics);
  return { validation, problem };
}

async function validatePlan(): Promise<Validation | undefined> {
  const plan = await activePlan();
  if (!plan) return undefined;
  const done = await validate(plan);
  if (!done) return undefined;
  const { validation } = done;
  const against = [validation.domain, validation.problem].filter(Boolean).map((p) => path.basename(p!)).join(" + ");
  const text = `${path.basename(plan.fsPath)}: ${validation.summary}${against ? ` (against ${against})` : ""}`;
  output.appendLine(text);
  if (validation.valid) void vscode.window.showInformationMessage(text);
  else void vscode.window.showErrorMessage(text);
  return validation;
}

async function viewPlan(): Promise<string | undefined> {
  const plan = await activePlan();
  if (!plan) return undefined;
  const done = await validate(plan);
  const command = configuredCommand();
  if (!done?.validation.domain) {
    if (done) void vscode.window.showErrorMessage(`pddltools view: ${done.validation.summary}`);
    return undefined;
  }
  const html = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "pddltools-view-")),
    path.basename(plan.fsPath) + ".html");
  const args = ["view", "--force", "-o", html, done.validation.domain, done.problem, plan.fsPath];
  output.appendLine(`$ ${[command.executable, ...command.args, ...args].join(" ")}`);
  const result = await run(command, args, { cwd: path.dirname(plan.fsPath) });
  if (!fs.existsSync(html)) {
    void vscode.window.showErrorMessage(`pddltools view: ${result.stderr.trim() || `exit ${result.code}`}`);
    return undefined;
  }
  const where = vscode.workspace.getConfiguration("pddltools").get<string>("view.openIn", "editor");
  if (where === "browser") {
    await vscode.env.openExternal(vscode.Uri.file(html));
  } else {
    const panel = vscode.window.createWebviewPanel("pddltools.view", `Plan: ${path.basename(plan.fsPath)}`,
      vscode.ViewColumn.Beside, { enableScripts: true, localResourceRoots: [] });
    // The page is self-contained (its scripts and styles inline), so it needs no resource roots.
    panel.webview.html = fs.readFileSync(html, "utf8");
  }
  return html;
}

/** The domain and problem of the file in the editor: a problem's domain is found by running validate's
 * finder through `check --each`; a domain asks for its problem. */
async function runPlanner(): Promise<void> {
  const template = vscode.workspace.getConfiguration("pddltools").get<string>("planner.command", "").trim();
  if (!template) {
    const choice = await vscode.window.showErrorMessage("Set pddltools.planner.command to the planner's command " +
      "line, e.g. `fast-downward.py --plan-file ${plan} ${domain} ${problem} --search \"astar(lmcut())\"`.",
    "Open Settings");
    if (choice) void vscode.commands.executeCommand("workbench.action.openSettings", "pddltools.planner.command");
    return;
  }
  const editor = vscode.window.activeTextEditor;
  const document = editor?.document;
  if (!document || document.uri.scheme !== "file" || !["pddl", "hddl"].includes(document.languageId)) {
    void vscode.window.showWarningMessage("Open the problem (or its domain) to plan for in the editor first.");
    return;
  }
  if (document.isDirty) await document.save();
  const kind = classify(document.getText());
  let domain: string | undefined;
  let problem: string | undefined;
  if (kind === "problem") {
    problem = document.uri.fsPath;
    domain = await domainOf(problem);
  } else if (kind === "domain") {
    domain = document.uri.fsPath;
    const dir = path.dirname(domain);
    const choices = [...problemsIn(dir), ...problemsIn(path.join(dir, "instances")),
      ...problemsIn(path.join(dir, "problems"))];
    const picked = await vscode.window.showQuickPick(
      choices.map((p) => ({ label: path.relative(dir, p), path: p })), { placeHolder: "The problem to solve" });
    problem = picked?.path;
  }
  if (!domain || !problem) {
    if (kind === undefined) void vscode.window.showWarningMessage("The file in the editor is neither a domain nor a problem.");
    return;
  }
  const plan = path.join(path.dirname(problem), path.basename(problem).replace(/\.(pddl|hddl)$/i, "") + ".plan");
  let line: string;
  try {
    line = plannerCommandLine(template, { domain, problem, plan, dir: path.dirname(problem) });
  } catch (error) {
    void vscode.window.showErrorMessage(String(error instanceof Error ? error.message : error));
    return;
  }
  const task = new vscode.Task({ type: "pddltools-planner" }, vscode.TaskScope.Workspace,
    `plan ${path.basename(problem)}`, "pddltools", new vscode.ShellExecution(line, { cwd: path.dirname(problem) }));
  await vscode.tasks.executeTask(task);
}

/** The domain of a problem by the domain finder's rules: `pddltools check --each --format json` loads both. */
async function domainOf(problem: string): Promise<string | undefined> {
  const command = usableCommand();
  if (!command) return undefined;
  const cwd = path.dirname(problem);
  const result = await run(command, ["check", "--format", "json", "--each", problem], { cwd });
  try {
    const report = JSON.parse(result.stdout) as { files?: Array<{ path?: string; kind?: string }> };
    const domain = report.files?.find((f) => f.kind === "domain")?.path;
    if (domain) return path.resolve(cwd, domain);
  } catch {
    // fall through to asking
  }
  const files = await vscode.window.showOpenDialog({
    defaultUri: vscode.Uri.file(cwd), canSelectMany: false, openLabel: "Domain of this problem",
    filters: { "PDDL and HDDL": ["pddl", "hddl"] },
  });
  return files?.[0]?.fsPath;
}

export async function activate(context: vscode.ExtensionContext): Promise<{ client: () => LanguageClient | undefined }> {
  output = vscode.window.createOutputChannel("pddltools");
  planDiagnostics = vscode.languages.createDiagnosticCollection("pddltools-plan");
  state = context.workspaceState;
  context.subscriptions.push(
    output, planDiagnostics,
    vscode.commands.registerCommand("pddltools.validatePlan", validatePlan),
    vscode.commands.registerCommand("pddltools.viewPlan", viewPlan),
    vscode.commands.registerCommand("pddltools.runPlanner", runPlanner),
    vscode.commands.registerCommand("pddltools.restartServer", restartServer),
    vscode.commands.registerCommand("pddltools.forgetPlanProblem", async () => {
      const plan = vscode.window.activeTextEditor?.document.uri;
      if (plan) await state.update(`problem:${plan.fsPath}`, undefined);
    }),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration("pddltools.executable") || event.affectsConfiguration("pddltools.executableArgs")) {
        void restartServer();
      }
    }),
  );
  await startServer();
  return { client: () => client };
}

export async function deactivate(): Promise<void> {
  if (client) await client.stop();
}

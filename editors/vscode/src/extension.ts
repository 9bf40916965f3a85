// The VS Code side of pddltools: starts `pddltools lsp` for PDDL, HDDL and RDDL files, and adds the
// commands that run pddltools itself (validate and view a plan, run a planner on a problem).

import { execFile } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as vscode from "vscode";
import { LanguageClient, LanguageClientOptions, ServerOptions } from "vscode-languageclient/node";
import { plannerCommand, problemsFor, readVerdict } from "./finder";

let client: LanguageClient | undefined;
let output: vscode.OutputChannel;

function command(): string {
  return vscode.workspace.getConfiguration("pddltools").get<string>("path") || "pddltools";
}

async function startServer(context: vscode.ExtensionContext): Promise<void> {
  const serverOptions: ServerOptions = { command: command(), args: ["lsp"] };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: "file", language: "pddl" },
      { scheme: "file", language: "hddl" },
      { scheme: "file", language: "rddl" },
      { scheme: "untitled", language: "pddl" },
      { scheme: "untitled", language: "hddl" },
      { scheme: "untitled", language: "rddl" },
    ],
    outputChannel: output,
  };
  client = new LanguageClient("pddltools", "pddltools", serverOptions, clientOptions);
  try {
    await client.start();
  } catch (error) {
    client = undefined;
    const choice = await vscode.window.showErrorMessage(
      `pddltools could not be started as "${command()} lsp". Install it with ` +
        `pip install 'pddltools[lsp]' in the Python environment VS Code sees, or set pddltools.path.`,
      "Open settings",
    );
    if (choice === "Open settings") {
      vscode.commands.executeCommand("workbench.action.openSettings", "pddltools.path");
    }
  }
}

function run(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(command(), args, { cwd, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error && typeof (error as any).code === "number" ? (error as any).code : error ? 2 : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

async function problemFor(plan: string): Promise<string | undefined> {
  const folder = path.dirname(plan);
  const names = fs.readdirSync(folder).filter((n) => /\.(pddl|hddl)$/i.test(n));
  const candidates = names.map((n) => ({ path: path.join(folder, n), text: fs.readFileSync(path.join(folder, n), "utf8") }));
  const problems = problemsFor(plan, candidates);
  if (problems.length === 0) {
    const picked = await vscode.window.showOpenDialog({ canSelectMany: false, title: "The problem this plan is for" });
    return picked?.[0]?.fsPath;
  }
  if (problems.length === 1 || path.basename(plan).toLowerCase().startsWith(path.basename(problems[0], path.extname(problems[0])).toLowerCase())) {
    return problems[0];
  }
  return vscode.window.showQuickPick(problems, { title: "The problem this plan is for" });
}

async function validate(): Promise<{ domain: string; problem: string; plan: string } | undefined> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) {
    vscode.window.showWarningMessage("Open a plan first.");
    return undefined;
  }
  await editor.document.save();
  const plan = editor.document.uri.fsPath;
  const problem = await problemFor(plan);
  if (!problem) {
    return undefined;
  }
  const result = await run(["validate", "--format", "json", problem, plan], path.dirname(plan));
  let verdict;
  try {
    verdict = readVerdict(result.stdout);
  } catch {
    output.appendLine(result.stdout + result.stderr);
    vscode.window.showErrorMessage(`pddltools validate failed: ${result.stderr.split("\n")[0] || "see the output"}`);
    return undefined;
  }
  output.appendLine(`validate ${plan} (problem ${problem}, domain ${verdict.domain}): ${verdict.summary}`);
  verdict.details.forEach((line) => output.appendLine("  " + line));
  if (verdict.valid) {
    vscode.window.showInformationMessage(`pddltools: ${verdict.summary}`);
  } else {
    vscode.window.showErrorMessage(`pddltools: ${verdict.summary}`);
    output.show(true);
  }
  return verdict.domain ? { domain: verdict.domain, problem, plan } : undefined;
}

async function view(context: vscode.ExtensionContext): Promise<void> {
  const found = await validate();
  if (!found) {
    return;
  }
  const target = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "pddltools-")), "plan.html");
  const result = await run(["view", "-o", target, "--force", found.domain, found.problem, found.plan], path.dirname(found.plan));
  if (result.code !== 0 || !fs.existsSync(target)) {
    output.appendLine(result.stdout + result.stderr);
    vscode.window.showErrorMessage("pddltools view failed: see the output");
    return;
  }
  const panel = vscode.window.createWebviewPanel("pddltools.view", `Plan: ${path.basename(found.plan)}`, vscode.ViewColumn.Beside, { enableScripts: true });
  panel.webview.html = fs.readFileSync(target, "utf8");
}

async function runPlanner(): Promise<void> {
  const template = vscode.workspace.getConfiguration("pddltools").get<string>("planner.command") || "";
  const editor = vscode.window.activeTextEditor;
  if (!template) {
    vscode.window.showWarningMessage("Set pddltools.planner.command to the planner's command line first.");
    return;
  }
  if (!editor || !client) {
    return;
  }
  const problem = editor.document.uri;
  const domain: string | null = await client.sendRequest("workspace/executeCommand", {
    command: "pddltools.domainOf",
    arguments: [problem.toString()],
  });
  if (!domain) {
    vscode.window.showWarningMessage("No domain was found for this problem (see the L001 hint).");
    return;
  }
  const terminal = vscode.window.createTerminal({ name: "planner", cwd: path.dirname(problem.fsPath) });
  terminal.show();
  terminal.sendText(plannerCommand(template, vscode.Uri.parse(domain).fsPath, problem.fsPath));
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel("pddltools");
  context.subscriptions.push(
    output,
    vscode.commands.registerCommand("pddltools.validatePlan", validate),
    vscode.commands.registerCommand("pddltools.viewPlan", () => view(context)),
    vscode.commands.registerCommand("pddltools.runPlanner", runPlanner),
    vscode.commands.registerCommand("pddltools.restartServer", async () => {
      await client?.stop();
      await startServer(context);
    }),
  );
  await startServer(context);
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}

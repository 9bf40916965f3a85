// What the extension asks of the pddltools command line, without VS Code: finding the executable,
// running it, pairing a plan with its problem and reading `validate --format json`. Kept apart from
// extension.ts so that the node tests can drive it against the real command.

import { spawn } from "child_process";
import * as fs from "fs";
import * as path from "path";

/** The command that runs pddltools: an executable and the arguments that come before the subcommand
 * (`["python3", "-m", "pddltools"]` is `python3` with `["-m", "pddltools"]`). */
export interface Command {
  executable: string;
  args: string[];
}

/** Where `executable` is: itself when it names a file, else the first match on PATH (with the
 * Windows extensions); undefined when there is none. */
export function findExecutable(executable: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const isFile = (p: string): boolean => {
    try {
      return fs.statSync(p).isFile();
    } catch {
      return false;
    }
  };
  if (executable.includes("/") || executable.includes("\\")) {
    return isFile(executable) ? path.resolve(executable) : undefined;
  }
  const extensions = process.platform === "win32" ? (env.PATHEXT ?? ".EXE;.CMD;.BAT").split(";") : [""];
  for (const dir of (env.PATH ?? "").split(path.delimiter)) {
    if (!dir) continue;
    for (const ext of extensions) {
      const candidate = path.join(dir, executable + ext);
      if (isFile(candidate)) return candidate;
    }
  }
  return undefined;
}

/** The message shown when pddltools cannot be started, with what to do about it. */
export function missingMessage(command: Command): string {
  return `pddltools was not found: \`${[command.executable, ...command.args].join(" ")}\` is not an ` +
    "executable file or on PATH. Install it with `pip install 'pddltools[lsp]'` in the environment VS Code " +
    "starts from, or set `pddltools.executable` (and `pddltools.executableArgs`, e.g. `[\"-m\", \"pddltools\"]` " +
    "with a Python interpreter) to the command that runs it.";
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Run `pddltools SUBCOMMAND ...` and collect its output; rejects only when it cannot be started. */
export function run(command: Command, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}):
  Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command.executable, [...command.args, ...args], {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", reject);
    child.on("close", (code) =>
      resolve({ code, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") }));
  });
}

// --- files ------------------------------------------------------------------------------------------

const COMMENT = /;[^\n]*/g;
const DOMAIN = /\(\s*define\s*\(\s*domain\s+([^\s()]+)/i;
const PROBLEM = /\(\s*define\s*\(\s*problem\b/i;

/** `domain`, `problem` or undefined, from a PDDL or HDDL text's head (as pddltools' domain finder). */
export function classify(text: string): "domain" | "problem" | undefined {
  const head = text.slice(0, 16384).replace(COMMENT, " ");
  const domain = DOMAIN.exec(head);
  const problem = PROBLEM.exec(head);
  if (domain && (!problem || domain.index < problem.index)) return "domain";
  return problem ? "problem" : undefined;
}

// Plans are named for their problem in the layouts planners and the IPC write: p01.plan,
// p01.pddl.plan, p01.soln, p01.plan.2 (the second plan of an anytime planner), plan-p01.txt.
const PLAN_SUFFIX = /(\.(plan|soln|sol|out|txt|val))+(\.\d+)?$|\.\d+$/i;
const PLAN_PREFIX = /^(plan|sas_plan|solution)[-_.]?/i;

/** The problem files a plan is most likely for, most likely first: the plan's name without its plan
 * suffix (and a `plan-` prefix), beside the plan, in `instances/`, `problems/` beside it and in the
 * folder above. Only files that exist and read as problems are returned. */
export function problemCandidates(planPath: string, extension = ".pddl"): string[] {
  const dir = path.dirname(planPath);
  let stem = path.basename(planPath).replace(PLAN_SUFFIX, "");
  if (stem.toLowerCase().endsWith(extension)) stem = stem.slice(0, -extension.length);
  const stems = [stem, stem.replace(PLAN_PREFIX, "")].filter((s, i, all) => s && all.indexOf(s) === i);
  const folders = [dir, path.join(dir, "instances"), path.join(dir, "problems"), path.dirname(dir)];
  const found: string[] = [];
  for (const folder of folders) {
    for (const s of stems) {
      const candidate = path.join(folder, s + extension);
      if (!found.includes(candidate) && readsAs(candidate, "problem")) found.push(candidate);
    }
  }
  return found;
}

/** The problem files of a folder (by their heads), for the user to choose from. */
export function problemsIn(folder: string, limit = 400): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(folder).sort();
  } catch {
    return [];
  }
  return names
    .filter((n) => /\.(pddl|hddl)$/i.test(n))
    .slice(0, limit)
    .map((n) => path.join(folder, n))
    .filter((p) => readsAs(p, "problem"));
}

function readsAs(file: string, kind: "domain" | "problem"): boolean {
  try {
    const fd = fs.openSync(file, "r");
    try {
      const buffer = Buffer.alloc(16384);
      const n = fs.readSync(fd, buffer, 0, buffer.length, 0);
      return classify(buffer.subarray(0, n).toString("utf8")) === kind;
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return false;
  }
}

// --- validate --format json -------------------------------------------------------------------------

export interface FileDiagnostic {
  file: string;
  line: number; // 1-based; 0 when the finding has no place
  column: number; // 1-based
  message: string;
  severity: "error" | "warning" | "information";
  code?: string;
}

export interface Validation {
  domain?: string;
  problem?: string;
  valid: boolean;
  summary: string; // one line: the verdict and the value, or what failed
  findings: FileDiagnostic[];
}

interface JsonFile {
  path?: string;
  kind?: string;
  ok?: boolean;
  valid?: boolean;
  message?: string | null;
  line?: number | null;
  advice?: string[];
  unsatisfied?: string[];
  diagnostics?: Array<Record<string, unknown>>;
}

/** Read `pddltools validate --format json` (cwd: where it ran, to make its paths absolute). */
export function readValidation(stdout: string, cwd: string): Validation {
  const report = JSON.parse(stdout) as { files?: JsonFile[] };
  const files = report.files ?? [];
  const absolute = (p: string | undefined): string | undefined => (p ? path.resolve(cwd, p) : undefined);
  const result: Validation = { valid: false, summary: "", findings: [] };
  for (const file of files) {
    const where = absolute(file.path) ?? "";
    if (file.kind === "domain") result.domain = where;
    if (file.kind === "problem") result.problem = where;
    for (const d of file.diagnostics ?? []) {
      const span = (d.span ?? d) as Record<string, unknown>;
      result.findings.push({
        file: absolute(typeof d.file === "string" ? d.file : undefined) ?? where,
        line: Number(span.line ?? d.line ?? 0),
        column: Number(span.column ?? d.column ?? 1),
        message: String(d.message ?? ""),
        severity: d.severity === "warning" ? "warning" : d.severity === "info" || d.severity === "note"
          ? "information" : "error",
        code: typeof d.code === "string" ? d.code : undefined,
      });
    }
    if (file.kind === "plan") {
      result.valid = file.valid === true;
      result.summary = file.message ?? (result.valid ? "valid" : "invalid");
      if (!result.valid) {
        const extra = [...(file.unsatisfied ?? []).map((u) => `unsatisfied: ${u}`), ...(file.advice ?? [])];
        result.findings.push({
          file: where,
          line: file.line ?? 0,
          column: 1,
          message: [result.summary, ...extra].join("\n"),
          severity: "error",
        });
      }
    }
  }
  if (!files.some((f) => f.kind === "plan")) {
    result.summary = result.findings[0]?.message ?? "the domain or problem has errors";
  }
  return result;
}

// --- planner ----------------------------------------------------------------------------------------

/** Quote one argument for a POSIX shell (or cmd.exe on Windows, where double quotes are the rule). */
export function shellQuote(arg: string, platform = process.platform): string {
  if (/^[A-Za-z0-9_\/.,:@%+=-]+$/.test(arg)) return arg;
  if (platform === "win32") return `"${arg.replace(/"/g, '""')}"`;
  return `'${arg.replace(/'/g, "'\\''")}'`;
}

/** The planner's command line: `${domain}`, `${problem}`, `${plan}`, `${dir}` in the template are
 * replaced by the quoted paths; an unknown `${name}` is an error (a typo would run the planner wrong). */
export function plannerCommandLine(template: string, values: Record<string, string>, platform = process.platform):
  string {
  return template.replace(/\$\{([A-Za-z]+)\}/g, (_, name: string) => {
    if (!(name in values)) {
      throw new Error(`pddltools.planner.command: unknown placeholder \${${name}} (known: ` +
        Object.keys(values).map((k) => `\${${k}}`).join(", ") + ")");
    }
    return shellQuote(values[name], platform);
  });
}

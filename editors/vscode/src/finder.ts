// What the commands decide without VS Code: which problem a plan is for, what the validator said,
// the planner's command line. Kept apart from extension.ts so that node tests can run it.

import * as path from "path";

const PROBLEM_HEAD = /\(\s*define\s*\(\s*problem\b/i;

export interface Candidate {
  path: string;
  text: string;
}

/** Whether a file's text is a PDDL or HDDL problem. */
export function isProblem(text: string): boolean {
  return PROBLEM_HEAD.test(text.slice(0, 4096));
}

/** The problems of `candidates` a plan may be for, the likeliest first: those whose name starts the
 * plan's name (`p01.pddl` for `p01.plan` or `p01.pddl.plan`), then the others by name. */
export function problemsFor(plan: string, candidates: Candidate[]): string[] {
  const planName = path.basename(plan).toLowerCase();
  const problems = candidates.filter((c) => isProblem(c.text)).map((c) => c.path);
  const stem = (p: string) => path.basename(p, path.extname(p)).toLowerCase();
  const named = problems.filter((p) => planName.startsWith(stem(p)));
  named.sort((a, b) => stem(b).length - stem(a).length);
  const rest = problems.filter((p) => !named.includes(p)).sort();
  return [...named, ...rest];
}

export interface Verdict {
  valid: boolean;
  summary: string;
  domain: string | null;
  details: string[];
}

/** The verdict of `pddltools validate --format json PROBLEM PLAN`, from its envelope. */
export function readVerdict(json: string): Verdict {
  const envelope = JSON.parse(json);
  const files: any[] = envelope.files ?? [];
  const domain = files.find((f) => f.kind === "domain")?.path ?? null;
  const plan = files.find((f) => f.kind === "plan");
  const details: string[] = [];
  for (const f of files) {
    for (const d of f.diagnostics ?? []) {
      details.push(`${f.path}:${d.line ?? "?"}:${d.column ?? "?"}: ${d.severity} [${d.code}] ${d.message}`);
    }
  }
  if (!plan) {
    return { valid: false, summary: "the plan was not validated (see the output)", domain, details };
  }
  const valid = plan.valid === true;
  const value = plan.value !== null && plan.value !== undefined ? `, value ${plan.value}` : "";
  const summary = valid ? `valid plan${value}` : `invalid plan: ${plan.message ?? plan.reason ?? plan.verdict}`;
  return { valid, summary, domain, details };
}

/** The planner's command line: `template` with {domain} and {problem} replaced by the quoted paths. */
export function plannerCommand(template: string, domain: string, problem: string): string {
  const quote = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
  return template.replace(/\{domain\}/g, quote(domain)).replace(/\{problem\}/g, quote(problem));
}

// The command-line side of the extension's commands, against the real `pddltools`: pairing a plan with
// its problem, `validate --format json` read into findings, the planner's command line.

import { strict as assert } from "assert";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { before, test } from "node:test";

import {
  classify, findExecutable, missingMessage, plannerCommandLine, problemCandidates, problemsIn, readValidation, run,
} from "../pddltools";
import { command, env } from "./support";

const DOMAIN = `; a header comment (define (problem not-this))
(define (domain lights)
  (:requirements :strips)
  (:predicates (on ?l) (off ?l))
  (:action switch-on :parameters (?l) :precondition (off ?l) :effect (and (on ?l) (not (off ?l)))))
`;
const PROBLEM = `(define (problem two) (:domain lights)
  (:objects a b)
  (:init (off a) (off b))
  (:goal (and (on a) (on b))))
`;

let dir: string;

before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "pddltools-vscode-"));
  fs.mkdirSync(path.join(dir, "instances"));
  fs.writeFileSync(path.join(dir, "domain.pddl"), DOMAIN);
  fs.writeFileSync(path.join(dir, "instances", "p01.pddl"), PROBLEM);
  fs.writeFileSync(path.join(dir, "instances", "p02.pddl"), PROBLEM.replace("two", "other"));
  fs.writeFileSync(path.join(dir, "p01.plan"), "(switch-on a)\n(switch-on b)\n; cost = 2 (unit cost)\n");
  fs.writeFileSync(path.join(dir, "bad.plan"), "(switch-on a)\n(switch-on a)\n");
});

test("files are told apart by their heads, past a comment that looks like another kind", () => {
  assert.equal(classify(DOMAIN), "domain");
  assert.equal(classify(PROBLEM), "problem");
  assert.equal(classify("(switch-on a)"), undefined);
});

test("a plan is paired with the problem named like it, in instances/ beside it", () => {
  assert.deepEqual(problemCandidates(path.join(dir, "p01.plan")), [path.join(dir, "instances", "p01.pddl")]);
  fs.writeFileSync(path.join(dir, "instances", "p02.pddl.plan.3"), "");
  assert.deepEqual(problemCandidates(path.join(dir, "instances", "p02.pddl.plan.3")),
    [path.join(dir, "instances", "p02.pddl")]);
  assert.deepEqual(problemCandidates(path.join(dir, "bad.plan")), []);
  assert.deepEqual(problemsIn(path.join(dir, "instances")),
    [path.join(dir, "instances", "p01.pddl"), path.join(dir, "instances", "p02.pddl")]);
  assert.deepEqual(problemsIn(dir), [], "the domain is not offered as a problem");
});

test("a valid plan: validate finds the domain above instances/ and says the value", async () => {
  const result = await run(command, ["validate", "--format", "json", path.join(dir, "instances", "p01.pddl"),
    path.join(dir, "p01.plan")], { cwd: dir, env });
  assert.equal(result.code, 0, result.stderr);
  const validation = readValidation(result.stdout, dir);
  assert.equal(validation.valid, true);
  assert.equal(validation.domain, path.join(dir, "domain.pddl"));
  assert.equal(validation.problem, path.join(dir, "instances", "p01.pddl"));
  assert.match(validation.summary, /valid/);
  assert.deepEqual(validation.findings, []);
});

test("an invalid plan: the finding is on the failing step's line, with what is unsatisfied", async () => {
  const result = await run(command, ["validate", "--format", "json", "instances/p01.pddl", "bad.plan"],
    { cwd: dir, env });
  assert.equal(result.code, 1);
  const validation = readValidation(result.stdout, dir);
  assert.equal(validation.valid, false);
  assert.equal(validation.findings.length, 1);
  const [finding] = validation.findings;
  assert.equal(finding.file, path.join(dir, "bad.plan"));
  assert.equal(finding.line, 2);
  assert.match(finding.message, /\(off a\)/);
});

test("a broken problem: its syntax error is a finding at its line and column", async () => {
  fs.writeFileSync(path.join(dir, "instances", "p03.pddl"), PROBLEM.replace("(:init", "(:init (("));
  const result = await run(command, ["validate", "--format", "json", "instances/p03.pddl", "p01.plan"],
    { cwd: dir, env });
  const validation = readValidation(result.stdout, dir);
  assert.equal(validation.valid, false);
  const finding = validation.findings.find((f) => f.code === "E103");
  assert.ok(finding, JSON.stringify(validation.findings));
  assert.equal(finding.file, path.join(dir, "instances", "p03.pddl"));
  assert.deepEqual([finding.line, finding.column], [3, 11]);
});

test("the executable is looked for on PATH, and its absence is explained", () => {
  assert.ok(findExecutable("node"), "node is on PATH while the tests run");
  assert.equal(findExecutable("pddltools-surely-not-installed", { PATH: dir }), undefined);
  assert.equal(findExecutable(path.join(dir, "missing")), undefined);
  const message = missingMessage({ executable: "pddltools", args: [] });
  assert.match(message, /pip install 'pddltools\[lsp\]'/);
  assert.match(message, /pddltools\.executable/);
});

test("the planner's command line quotes the paths it fills in and refuses unknown placeholders", () => {
  const line = plannerCommandLine("planner --out ${plan} ${domain} ${problem}",
    { domain: "/a b/domain.pddl", problem: "/x/p'1.pddl", plan: "/x/p1.plan", dir: "/x" }, "linux");
  assert.equal(line, "planner --out /x/p1.plan '/a b/domain.pddl' '/x/p'\\''1.pddl'");
  assert.throws(() => plannerCommandLine("planner ${domian}", { domain: "d" }), /unknown placeholder \$\{domian\}/);
});

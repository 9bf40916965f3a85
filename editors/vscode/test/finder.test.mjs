// The commands' decisions (out/finder.js, compiled from src/finder.ts), without VS Code.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const { problemsFor, readVerdict, plannerCommand, isProblem } = require("../out/finder.js");

const problem = "(define (problem p01) (:domain d) (:init) (:goal (and)))";
const domain = "(define (domain d))";

test("a plan goes with the problem whose name starts its own", () => {
  const found = problemsFor("/x/p02.plan", [
    { path: "/x/domain.pddl", text: domain },
    { path: "/x/p01.pddl", text: problem },
    { path: "/x/p02.pddl", text: problem },
  ]);
  assert.deepEqual(found, ["/x/p02.pddl", "/x/p01.pddl"]);
  assert.equal(isProblem(domain), false);
});

test("the validator's envelope gives the verdict and the domain it found", () => {
  const verdict = readVerdict(JSON.stringify({
    files: [
      { path: "/x/domain.pddl", kind: "domain", diagnostics: [] },
      { path: "/x/p01.pddl", kind: "problem", diagnostics: [] },
      { path: "/x/p01.plan", kind: "plan", valid: false, message: "step 2: (pick a) is not applicable",
        diagnostics: [{ line: 2, column: 1, severity: "error", code: "V003", message: "precondition" }] },
    ],
  }));
  assert.equal(verdict.valid, false);
  assert.equal(verdict.domain, "/x/domain.pddl");
  assert.match(verdict.summary, /not applicable/);
  assert.equal(verdict.details.length, 1);
});

test("the planner's command line quotes the files", () => {
  assert.equal(plannerCommand("fd {domain} {problem}", "/a b/d.pddl", "/x/p.pddl"), "fd '/a b/d.pddl' /x/p.pddl");
});

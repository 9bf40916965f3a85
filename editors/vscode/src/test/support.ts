// How the node tests reach pddltools: PDDLTOOLS_TEST_PYTHON (the Python test that runs `npm test` sets
// it to its own interpreter) or python3, with the repository on PYTHONPATH, so that the tests drive the
// server and command line of this checkout.

import * as path from "path";
import type { Command } from "../pddltools";

export const REPO = path.resolve(__dirname, "..", "..", "..", "..");

export const command: Command = {
  executable: process.env.PDDLTOOLS_TEST_PYTHON || "python3",
  args: ["-m", "pddltools"],
};

export const env: NodeJS.ProcessEnv = {
  ...process.env,
  PYTHONPATH: [REPO, process.env.PYTHONPATH].filter(Boolean).join(path.delimiter),
};

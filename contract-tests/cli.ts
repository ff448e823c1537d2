#!/usr/bin/env node
/**
 * `npm run contract -- --base-url URL --token T …`: runs the suite, prints the report, writes
 * JUnit if asked. Exit 0 all checks passed, 1 a check failed, 2 the suite could not run
 * (usage error, unreachable target, broken fixture). The command itself is command.ts.
 */
import { runContractCommand } from './command.js';

void runContractCommand(process.argv.slice(2), {
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
}).then((code) => {
  process.exitCode = code;
});

/**
 * The contract suite's command line as a function: argv in, the report written through `io`, the
 * exit status out (0 every check passed, 1 a check failed, 2 the suite could not run: usage error,
 * unreachable target, broken fixture). cli.ts runs it on the process; tests run it in theirs, so
 * that what the command does is tested without starting a Node process per run.
 */
import { CommanderError } from 'commander';
import { contractCommand, parseContractArgs, type ContractCommandLine } from './cli-options.js';
import { ContractUsageError, overlaysOf, resolveOptions, type ResolvedOptions } from './options.js';
import { UnreachableTargetError, waitUntilReachable } from './reachability.js';
import { formatReport } from './report.js';
import { runResolved } from './runner.js';
import { dryRunText } from './dry-run.js';
import { terminalSafeLines } from './terminal-text.js';
import { readContract } from '../openapi/operations/compile.js';
import { isSpecRefusal, suiteSpecOf } from './spec-contract.js';

/** Where the command writes: the process's stdout and stderr, or a test's buffer. */
export interface CommandOutput {
  out(text: string): void;
  err(text: string): void;
}

/** Runs the command on `argv` (without node and script); resolves to its exit status. */
export async function runContractCommand(argv: readonly string[], io: CommandOutput): Promise<number> {
  // Everything the command prints goes through here: nothing a provider or a file sent reaches the terminal unescaped.
  const out = (text: string): void => io.out(terminalSafeLines(text));
  const err = (text: string): void => io.err(terminalSafeLines(text));
  try {
    return await run(argv, out, err, io);
  } catch (error) {
    err(`plant-store-contract: the suite could not run: ${(error as Error)?.stack ?? String(error)}\n`);
    return 2;
  }
}

async function run(argv: readonly string[], out: (text: string) => void, err: (text: string) => void, io: CommandOutput): Promise<number> {
  let options: ContractCommandLine;
  let resolved: ResolvedOptions;
  try {
    // Commander's own words (--help, a bad flag) go to the same place, as it writes them.
    options = parseContractArgs(argv, contractCommand().configureOutput({ writeOut: (text) => io.out(text), writeErr: (text) => io.err(text) }));
    // Read asynchronously: a spec may refer to sibling files (bundled by openapi/document/load.ts).
    // --overlay goes through the core's loader, as the mock's does: the suite sequences the collections the mock infers.
    const overlays = overlaysOf(options);
    if (options.spec !== undefined || overlays.length) options = { ...options, contract: suiteSpecOf(await readContract(options.spec, overlays)) };
    // A dry run sends nothing: no base URL or credential is needed to resolve the operations under test.
    if (options.dryRun) options = { ...options, baseUrl: options.baseUrl || 'http://127.0.0.1/', token: options.token || 'dry-run', basic: options.basic ?? 'dry:run' };
    // Resolved once, before anything is sent, so that the seed is printed even if the run dies.
    resolved = resolveOptions(options);
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    if (error instanceof ContractUsageError || isSpecRefusal(error)) {
      err(`plant-store-contract: ${error.message}\nRun with --help for the flags.\n`);
      return 2;
    }
    throw error;
  }
  if (options.dryRun) {
    out(`${dryRunText(resolved)}\n`);
    return 0;
  }
  out(`Seed ${resolved.seed} (pass --seed ${resolved.seed} to reproduce the generated cases)\n`);
  let report;
  try {
    // A provider started just before (`npm start & npm run contract`) is waited for, bounded, and the wait said.
    let told = false;
    const target = resolved.endpoint(resolved.contract.path.replace(/\{[^}]*\}/g, 'x'));
    const waited = await waitUntilReachable(target, options.waitMs, () => {
      if (!told && options.waitMs > 0) out(`Waiting for ${resolved.baseUrl} to accept connections (up to ${options.waitMs / 1000} s, --wait)…\n`);
      told = true;
    });
    if (waited.attempts > 1) out(`${resolved.baseUrl} answered after ${waited.attempts} connection attempts; starting.\n`);
    report = await runResolved(resolved);
  } catch (error) {
    if (error instanceof UnreachableTargetError || error instanceof ContractUsageError) {
      err(`plant-store-contract: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  out(`${formatReport(report, options.junit ? { junit: options.junit } : {})}\n`);
  if (options.junit) {
    // Loaded only when asked for: the XML builder is a large part of the start-up time.
    const { writeJUnit } = await import('./junit.js');
    writeJUnit(report, options.junit);
    out(`JUnit report: ${options.junit}\n`);
  }
  if (options.har) {
    const { writeHar } = await import('./har.js');
    writeHar(report, options.har);
    out(`HAR file: ${options.har}\n`);
  }
  return report.ok ? 0 : 1;
}
